/* tel_gpu_sysfs: AMD (amdgpu) and Intel (i915, xe) telemetry through sysfs:
 * clocks, power, temperature and the throttle reasons, mapped onto the
 * reasons NVML gives (throttle.h). */
#include "tel_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "throttle.h"

typedef struct GpuSysfs {
	bool amd;
	char dev[700], card[700], hwmon[800];
	/* Intel without a power file: power from the hwmon energy counter */
	double energy_uj, energy_t;
	bool have_energy;
	/* the other processes with a DRM client of it (fdinfo), every second */
	char pdev[DEVINFO_PCI_LEN];
	DrmSeen seen[DRM_SEEN_MAX];
	size_t nseen;
	double procs_t;
	bool procs_ok;
	ProcTable table;
	char who[128];
} GpuSysfs;

/* The other processes on the device, read again once a second (a scan of
 * every process's fdinfo files); the last scan's between. */
static void drm_others(GpuSysfs *g, TelReading *r)
{
	double now = (double)clock_mono_ns() * 1e-9;
	if (!g->pdev[0])
		return;
	if (!(g->procs_t > 0) || now - g->procs_t >= 1.0) {
		g->procs_t = now;
		g->procs_ok = sysfs_drm_procs(g->pdev, &g->table, g->seen, &g->nseen);
		procs_table_describe(&g->table, g->who, sizeof g->who);
	}
	if (!g->procs_ok)
		return;
	tel_set(r, TEL_OTHER_GPU, g->table.total);
	double mem = procs_table_mem(&g->table);
	if (!isnan(mem))
		tel_set(r, TEL_OTHER_GPU_MEM_B, mem);
	snprintf(r->who, sizeof r->who, "%s", g->who);
	r->procs = g->table;
}

/* AMD's gpu_metrics (binary, read to its end): what it has into r; the
 * throttle reasons only from it */
static void amd_metrics(const GpuSysfs *g, TelReading *r)
{
	char p[900];
	unsigned char blob[4096];
	snprintf(p, sizeof p, "%s/gpu_metrics", g->dev);
	FILE *f = fopen(p, "rb");
	if (!f)
		return;
	size_t n = 0, k;
	while (n < sizeof blob && (k = fread(blob + n, 1, sizeof blob - n, f)) > 0)
		n += k;
	fclose(f);
	GpuMetrics m;
	char why[160];
	if (!gpu_metrics_parse(blob, n, &m, why, sizeof why))
		return;
	/* the current clock the firmware reports, over the DPM table's level */
	if (!isnan(m.gfx_mhz)) {
		tel_set(r, TEL_SM_MHZ, m.gfx_mhz);
	}
	if (!isnan(m.mem_mhz)) {
		tel_set(r, TEL_MEM_MHZ, m.mem_mhz);
	}
	if (!tel_has(r, TEL_POWER_W) && !isnan(m.power_w)) {
		tel_set(r, TEL_POWER_W, m.power_w);
	}
	if (!tel_has(r, TEL_TEMP_C) && !isnan(m.edge_c)) {
		tel_set(r, TEL_TEMP_C, m.edge_c);
	}
	if (m.has_throttle) {
		tel_set(r, TEL_THROTTLE, (double)throttle_from_amd(m.indep_throttle, m.hotspot_c));
	}
}

/* Intel's throttle reasons: i915's gt/gt0/throttle_reason_NAME, else xe's
 * tile0/gt0/freq0/throttle/reason_NAME; valid where any file is read */
static void intel_reasons(const GpuSysfs *g, TelReading *r)
{
	uint64_t bits = 0;
	bool any = false;
	for (size_t i = 0; throttle_intel_name(i); i++) {
		const char *name = throttle_intel_name(i);
		char p[900];
		double v;
		snprintf(p, sizeof p, "%s/gt/gt0/throttle_reason_%s", g->card, name);
		if (!sysfs_read_num(p, &v)) {
			snprintf(p, sizeof p, "%s/tile0/gt0/freq0/throttle/reason_%s", g->dev, name);
			if (!sysfs_read_num(p, &v))
				continue;
		}
		any = true;
		bits |= throttle_from_intel(name, v != 0);
	}
	if (any) {
		tel_set(r, TEL_THROTTLE, (double)bits);
	}
}

/* hwmon's energy counter (energy1_input, microjoules: Intel's, some
 * amdgpu boards'): the card's energy, and where no power is read, the power
 * between two readings */
static void energy_read(GpuSysfs *g, TelReading *r, bool power_read)
{
	char p[900];
	double e;
	snprintf(p, sizeof p, "%s/energy1_input", g->hwmon);
	if (!sysfs_read_num(p, &e))
		return;
	tel_set(r, TEL_ENERGY_J, e * 1e-6);
	double t = (double)clock_mono_ns() * 1e-9;
	if (!power_read && g->have_energy && t > g->energy_t && e >= g->energy_uj) {
		tel_set(r, TEL_POWER_W, (e - g->energy_uj) * 1e-6 / (t - g->energy_t));
	}
	g->energy_uj = e;
	g->energy_t = t;
	g->have_energy = true;
}

static bool gpu_sysfs_read(TelSource *s, TelReading *r)
{
	GpuSysfs *g = s->state;
	char p[900];
	double v;
	memset(r, 0, sizeof *r);
	if (g->amd) {
		snprintf(p, sizeof p, "%s/pp_dpm_sclk", g->dev);
		if (sysfs_read_dpm(p, &v)) {
			tel_set(r, TEL_SM_MHZ, v);
		}
		snprintf(p, sizeof p, "%s/pp_dpm_mclk", g->dev);
		if (sysfs_read_dpm(p, &v)) {
			tel_set(r, TEL_MEM_MHZ, v);
		}
	} else {
		/* the clock the GT runs at (i915's gt_act_freq_mhz, xe's act_freq),
		 * never the one requested (gt_cur_freq_mhz, cur_freq: what the
		 * driver asked for, which a power or thermal limit can deny) */
		snprintf(p, sizeof p, "%s/gt_act_freq_mhz", g->card);
		if (sysfs_read_num(p, &v) || (snprintf(p, sizeof p, "%s/tile0/gt0/freq0/act_freq", g->dev), sysfs_read_num(p, &v))) {
			tel_set(r, TEL_SM_MHZ, v);
		}
	}
	if (g->hwmon[0]) {
		/* microwatts: power1_average the firmware's average, power1_input
		 * the instant one where both are (amdgpu on newer kernels), else
		 * whichever there is as the power */
		double avg, inst;
		snprintf(p, sizeof p, "%s/power1_average", g->hwmon);
		bool has_avg = sysfs_read_num(p, &avg);
		snprintf(p, sizeof p, "%s/power1_input", g->hwmon);
		bool has_inst = sysfs_read_num(p, &inst);
		if (has_avg)
			tel_set(r, TEL_POWER_W, avg * 1e-6);
		if (has_inst)
			tel_set(r, has_avg ? TEL_POWER_INSTANT_W : TEL_POWER_W, inst * 1e-6);
		energy_read(g, r, has_avg || has_inst);
		snprintf(p, sizeof p, "%s/power1_cap", g->hwmon);
		if (sysfs_read_num(p, &v) && v > 0) {
			tel_set(r, TEL_POWER_LIMIT_W, v * 1e-6); /* microwatts */
		}
		snprintf(p, sizeof p, "%s/temp1_input", g->hwmon);
		if (sysfs_read_num(p, &v)) {
			tel_set(r, TEL_TEMP_C, v * 1e-3); /* millidegrees */
		}
	}
	if (g->amd)
		amd_metrics(g, r);
	else
		intel_reasons(g, r);
	drm_others(g, r);
	return r->valid != 0;
}

static void gpu_sysfs_close(TelSource *s)
{
	free(s->state);
}

static bool tel_gpu_sysfs_open(TelSource *s, const DeviceInfo *d, char *note, size_t len)
{
	GpuSysfs *g = calloc(1, sizeof *g);
	if (!g)
		return false;
	g->amd = d->vendor_id == 0x1002;
	if (!sysfs_find_card(d, g->dev, sizeof g->dev, g->card, sizeof g->card, note, len)) {
		free(g);
		return false;
	}
	char pat[800];
	snprintf(pat, sizeof pat, "%s/hwmon/hwmon[0-9]*", g->dev);
	if (!sysfs_first_glob(pat, g->hwmon, sizeof g->hwmon))
		g->hwmon[0] = '\0';
	char p[900];
	double v;
	snprintf(p, sizeof p, g->amd ? "%s/pp_dpm_sclk" : "%s/gt_max_freq_mhz", g->amd ? g->dev : g->card);
	if (g->amd) {
		/* the highest listed level */
		FILE *f = fopen(p, "r");
		char line[128];
		while (f && fgets(line, sizeof line, f)) {
			unsigned idx;
			if (sscanf(line, "%u: %lf", &idx, &v) == 2 && v > s->max_mhz)
				s->max_mhz = v;
		}
		if (f)
			fclose(f);
	} else if (sysfs_read_num(p, &v)) {
		s->max_mhz = v;
	}
	devinfo_pci_slot(d, g->pdev, sizeof g->pdev);
	s->name = g->amd ? "amdgpu" : "intel";
	s->state = g;
	s->read = gpu_sysfs_read;
	s->close = gpu_sysfs_close;
	TelReading r;
	if (!gpu_sysfs_read(s, &r)) {
		snprintf(note, len, "%s: nothing readable under %.200s", s->name, g->dev);
		free(g);
		return false;
	}
	bool energy = g->have_energy; /* without a power reading, power comes at the second reading */
	snprintf(note, len, "%s sysfs (%.200s): %s%s%s%s%s%s", s->name, g->dev,
	         tel_has(&r, TEL_SM_MHZ) ? "clock" : "clock N/A",
	         tel_has(&r, TEL_POWER_INSTANT_W) ? ", power (instant, power1_input, beside the average, power1_average)"
	         : tel_has(&r, TEL_POWER_W)       ? ", power"
	         : energy                         ? ", power (from the energy counter)"
	                                          : ", power N/A",
	         energy ? ", the energy counter (energy1_input)" : "",
	         tel_has(&r, TEL_TEMP_C) ? ", temperature" : "",
	         tel_has(&r, TEL_THROTTLE) ? ", throttle reasons" : ", throttle reasons N/A",
	         tel_has(&r, TEL_OTHER_GPU) ? ", the other processes on the GPU (DRM fdinfo)" : "");
	return true;
}

static bool gpu_sysfs_serves(const DeviceInfo *d)
{
	return d->vendor_id == 0x1002 || d->vendor_id == 0x8086;
}

const TelDriver tel_gpu_sysfs_driver = { .name = "gpu-sysfs", .serves = gpu_sysfs_serves, .open = tel_gpu_sysfs_open };
