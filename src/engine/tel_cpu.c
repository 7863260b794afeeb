/* tel_cpu: CPU devices: the clock from sysfs or /proc/cpuinfo, power from RAPL. */
#include "tel_impl.h"
#include "clock.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CpuTel {
	bool sysfs;
	char rapl[700];              /* energy_uj of package 0, or "" */
	double last_uj, range_uj;
	uint64_t last_ns;
} CpuTel;

static double cpu_mhz_now(bool sysfs)
{
	double sum = 0;
	int n = 0;
	if (sysfs) {
		glob_t g;
		char pat[600];
		snprintf(pat, sizeof pat, "%s/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq", sysfs_root());
		if (glob(pat, 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++) {
				FILE *f = fopen(g.gl_pathv[i], "r");
				double khz;
				if (f && fscanf(f, "%lf", &khz) == 1) {
					sum += khz / 1000;
					n++;
				}
				if (f)
					fclose(f);
			}
			globfree(&g);
		}
		return n ? sum / n : 0;
	}
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	char line[256];
	while (fgets(line, sizeof line, f)) {
		double mhz;
		if (!strncmp(line, "cpu MHz", 7) && sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1) {
			sum += mhz;
			n++;
		}
	}
	fclose(f);
	return n ? sum / n : 0;
}

static bool cpu_read(TelSource *s, TelReading *r)
{
	CpuTel *c = s->state;
	memset(r, 0, sizeof *r);
	double mhz = cpu_mhz_now(c->sysfs);
	if (mhz > 0) {
		r->v[TEL_SM_MHZ] = mhz;
		r->valid |= 1u << TEL_SM_MHZ;
	}
	double uj;
	uint64_t t = clock_mono_ns();
	if (c->rapl[0] && sysfs_read_num(c->rapl, &uj)) {
		if (c->last_ns && t > c->last_ns) {
			double d = uj - c->last_uj;
			if (d < 0) /* the counter wrapped */
				d += c->range_uj;
			if (d >= 0) {
				r->v[TEL_POWER_W] = d * 1e-6 / ((double)(t - c->last_ns) * 1e-9);
				r->valid |= 1u << TEL_POWER_W;
			}
		}
		c->last_uj = uj;
		c->last_ns = t;
	}
	return r->valid != 0;
}

static void cpu_close(TelSource *s)
{
	free(s->state);
}

bool tel_cpu_open(TelSource *s, char *note, size_t len)
{
	CpuTel *c = calloc(1, sizeof *c);
	if (!c)
		return false;
	c->sysfs = cpu_mhz_now(true) > 0;
	if (!c->sysfs && cpu_mhz_now(false) <= 0) {
		free(c);
		snprintf(note, len, "no CPU clock in sysfs or /proc/cpuinfo");
		return false;
	}
	char p[700];
	double khz;
	snprintf(p, sizeof p, "%s/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", sysfs_root());
	if (sysfs_read_num(p, &khz))
		s->max_mhz = khz / 1000;
	snprintf(p, sizeof p, "%s/class/powercap/intel-rapl:0/energy_uj", sysfs_root());
	double uj;
	if (sysfs_read_num(p, &uj)) {
		snprintf(c->rapl, sizeof c->rapl, "%s", p);
		snprintf(p, sizeof p, "%s/class/powercap/intel-rapl:0/max_energy_range_uj", sysfs_root());
		if (!sysfs_read_num(p, &c->range_uj))
			c->range_uj = 0;
	}
	s->name = "cpu";
	s->state = c;
	s->read = cpu_read;
	s->close = cpu_close;
	snprintf(note, len, "CPU clock from %s; %s", c->sysfs ? "cpufreq (sysfs)" : "/proc/cpuinfo",
	         c->rapl[0] ? "package power from RAPL (energy counter)" : "power N/A (no readable RAPL)");
	return true;
}

