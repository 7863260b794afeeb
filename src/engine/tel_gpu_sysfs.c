/* tel_gpu_sysfs: AMD (amdgpu) and Intel (i915, xe) telemetry through sysfs. */
#include "tel_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct GpuSysfs {
	bool amd;
	char dev[700], card[700], hwmon[800];
} GpuSysfs;

static bool gpu_sysfs_read(TelSource *s, TelReading *r)
{
	GpuSysfs *g = s->state;
	char p[900];
	double v;
	memset(r, 0, sizeof *r);
	if (g->amd) {
		snprintf(p, sizeof p, "%s/pp_dpm_sclk", g->dev);
		if (sysfs_read_dpm(p, &v)) {
			r->v[TEL_SM_MHZ] = v;
			r->valid |= 1u << TEL_SM_MHZ;
		}
		snprintf(p, sizeof p, "%s/pp_dpm_mclk", g->dev);
		if (sysfs_read_dpm(p, &v)) {
			r->v[TEL_MEM_MHZ] = v;
			r->valid |= 1u << TEL_MEM_MHZ;
		}
	} else {
		/* the clock the GT runs at (i915's gt_act_freq_mhz, xe's act_freq),
		 * never the one requested (gt_cur_freq_mhz, cur_freq: what the
		 * driver asked for, which a power or thermal limit can deny) */
		snprintf(p, sizeof p, "%s/gt_act_freq_mhz", g->card);
		if (sysfs_read_num(p, &v) || (snprintf(p, sizeof p, "%s/tile0/gt0/freq0/act_freq", g->dev), sysfs_read_num(p, &v))) {
			r->v[TEL_SM_MHZ] = v;
			r->valid |= 1u << TEL_SM_MHZ;
		}
	}
	if (g->hwmon[0]) {
		snprintf(p, sizeof p, "%s/power1_average", g->hwmon);
		if (sysfs_read_num(p, &v) || (snprintf(p, sizeof p, "%s/power1_input", g->hwmon), sysfs_read_num(p, &v))) {
			r->v[TEL_POWER_W] = v * 1e-6; /* microwatts */
			r->valid |= 1u << TEL_POWER_W;
		}
		snprintf(p, sizeof p, "%s/temp1_input", g->hwmon);
		if (sysfs_read_num(p, &v)) {
			r->v[TEL_TEMP_C] = v * 1e-3; /* millidegrees */
			r->valid |= 1u << TEL_TEMP_C;
		}
	}
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
	snprintf(note, len, "%s sysfs (%.200s): %s%s%s", s->name, g->dev,
	         tel_has(&r, TEL_SM_MHZ) ? "clock" : "clock N/A",
	         tel_has(&r, TEL_POWER_W) ? ", power" : ", power N/A",
	         tel_has(&r, TEL_TEMP_C) ? ", temperature" : "");
	return true;
}

static bool gpu_sysfs_serves(const DeviceInfo *d)
{
	return d->vendor_id == 0x1002 || d->vendor_id == 0x8086;
}

const TelDriver tel_gpu_sysfs_driver = { .name = "gpu-sysfs", .serves = gpu_sysfs_serves, .open = tel_gpu_sysfs_open };
