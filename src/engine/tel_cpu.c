/* tel_cpu: CPU devices: the clock from sysfs or /proc/cpuinfo, power from RAPL. */
#include "tel_impl.h"
#include "clock.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CpuTel {
	bool sysfs;
	char rapl[700];              /* energy_uj of package 0, or "" */
	char rapl_limit[700];        /* its long-term limit (constraint 0), or "" */
	double last_uj, range_uj;
	uint64_t last_ns;
	/* the other processes' share of the CPU: /proc/stat less our own time */
	unsigned long long all0, busy0, self0;
	uint64_t share_ns;
	double other_pct;            /* NaN until two snapshots */
} CpuTel;

/* Jiffies of all cores (total and busy: all but idle and iowait) and of
 * this process (every thread: the driver's too). */
static bool cpu_ticks(unsigned long long *all, unsigned long long *busy, unsigned long long *self)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long v[8] = { 0 };
	int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
	                   &v[5], &v[6], &v[7]) : 0;
	if (f)
		fclose(f);
	if (n < 4)
		return false;
	*all = *busy = 0;
	for (int i = 0; i < 8; i++) {
		*all += v[i];
		if (i != 3 && i != 4)
			*busy += v[i];
	}
	f = fopen("/proc/self/stat", "r");
	if (!f)
		return false;
	char buf[1024];
	size_t len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[len] = '\0';
	const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
	unsigned long long ut, st;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return false;
	*self = ut + st;
	return true;
}

/* The share, over at least 250 ms (jiffies are 10 ms). */
static void cpu_share(CpuTel *c, uint64_t now)
{
	if (c->share_ns && now - c->share_ns < 250000000ull)
		return;
	unsigned long long all, busy, self;
	if (!cpu_ticks(&all, &busy, &self))
		return;
	if (c->share_ns && all > c->all0) {
		double other = (double)(busy - c->busy0) - (double)(self - c->self0);
		double pct = 100 * other / (double)(all - c->all0);
		c->other_pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	}
	c->all0 = all;
	c->busy0 = busy;
	c->self0 = self;
	c->share_ns = now;
}

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
		tel_set(r, TEL_SM_MHZ, mhz);
	}
	double uj;
	uint64_t t = clock_mono_ns();
	cpu_share(c, t);
	if (isfinite(c->other_pct)) {
		tel_set(r, TEL_OTHER_CPU, c->other_pct);
	}
	if (c->rapl[0] && sysfs_read_num(c->rapl, &uj)) {
		if (c->last_ns && t > c->last_ns) {
			double d = uj - c->last_uj;
			if (d < 0) /* the counter wrapped */
				d += c->range_uj;
			if (d >= 0) {
				tel_set(r, TEL_POWER_W, d * 1e-6 / ((double)(t - c->last_ns) * 1e-9));
			}
		}
		c->last_uj = uj;
		c->last_ns = t;
	}
	double uw;
	if (c->rapl_limit[0] && sysfs_read_num(c->rapl_limit, &uw) && uw > 0) {
		tel_set(r, TEL_POWER_LIMIT_W, uw * 1e-6);
	}
	return r->valid != 0;
}

static void cpu_close(TelSource *s)
{
	free(s->state);
}

static bool tel_cpu_open_any(TelSource *s, char *note, size_t len);

static bool cpu_open(TelSource *s, const DeviceInfo *d, char *note, size_t len)
{
	(void)d;
	return tel_cpu_open_any(s, note, len);
}

static bool tel_cpu_open_any(TelSource *s, char *note, size_t len)
{
	CpuTel *c = calloc(1, sizeof *c);
	if (!c)
		return false;
	c->other_pct = NAN;
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
		snprintf(p, sizeof p, "%s/class/powercap/intel-rapl:0/constraint_0_power_limit_uw", sysfs_root());
		if (sysfs_read_num(p, &uj))
			snprintf(c->rapl_limit, sizeof c->rapl_limit, "%s", p);
	}
	s->name = "cpu";
	s->state = c;
	s->read = cpu_read;
	s->close = cpu_close;
	snprintf(note, len, "CPU clock from %s; %s; other processes' CPU share from /proc/stat",
	         c->sysfs ? "cpufreq (sysfs)" : "/proc/cpuinfo",
	         c->rapl[0] ? c->rapl_limit[0] ? "package power and its limit from RAPL (energy counter)"
	                                   : "package power from RAPL (energy counter)"
	                    : "power N/A (no readable RAPL)");
	return true;
}

static bool cpu_serves(const DeviceInfo *d)
{
	return d->type == DEV_CPU;
}

const TelDriver tel_cpu_driver = { .name = "cpu", .serves = cpu_serves, .open = cpu_open };
