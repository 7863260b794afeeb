#include "throttle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const ThrottleReason throttle_reasons[] = {
	{ THR_POWER_CAP, "power cap", "power_cap" }, { THR_HW_SLOWDOWN, "HW slowdown", "hw_slowdown" },
	{ THR_THERMAL_SW, "thermal (software)", "thermal_sw" }, { THR_THERMAL_HW, "thermal (hardware)", "thermal_hw" },
	{ THR_POWER_BRAKE, "power brake", "power_brake" }, { THR_CURRENT, "current/voltage limit", "current" },
};
const size_t throttle_reason_count = sizeof throttle_reasons / sizeof *throttle_reasons;

/* AMD's throttler bits (drivers/gpu/drm/amd/pm/swsmu/inc/amdgpu_smu.h,
 * SMU_THROTTLER_*_BIT): 16 bits a kind */
static const struct {
	unsigned lo, hi;
	uint64_t reason;
} AMD_BITS[] = {
	{ 0, 7, THR_POWER_CAP },    /* PPT0-3, SPL, FPPT, SPPT, SPPT_APU */
	{ 16, 23, THR_CURRENT },    /* TDC_GFX/SOC/MEM/VDD/CVIP, EDC_CPU/GFX, APCC */
	{ 32, 45, THR_THERMAL_HW }, /* TEMP_GPU ... TEMP_LIQUID1, VRHOT0/1 */
	{ 46, 47, THR_HW_SLOWDOWN }, /* PROCHOT_CPU, PROCHOT_GFX */
};
#define AMD_HOTSPOT_BIT 36

uint64_t throttle_from_amd(uint64_t indep, double hotspot_c)
{
	if (!isnan(hotspot_c) && hotspot_c < 90)
		indep &= ~(1ull << AMD_HOTSPOT_BIT);
	uint64_t r = 0;
	for (size_t i = 0; i < sizeof AMD_BITS / sizeof *AMD_BITS; i++)
		for (unsigned b = AMD_BITS[i].lo; b <= AMD_BITS[i].hi; b++)
			if (indep & (1ull << b))
				r |= AMD_BITS[i].reason;
	return r;
}

/* i915's and xe's reason files, by the name after throttle_reason_ or reason_ */
static const struct {
	const char *name;
	uint64_t reason;
} INTEL[] = {
	{ "pl1", THR_POWER_CAP }, { "pl2", THR_POWER_CAP }, { "pl4", THR_POWER_CAP },
	{ "thermal", THR_THERMAL_HW }, { "prochot", THR_HW_SLOWDOWN }, { "ratl", THR_THERMAL_SW },
	{ "vr_thermalert", THR_THERMAL_HW }, { "vr_tdc", THR_CURRENT },
};

uint64_t throttle_from_intel(const char *name, bool set)
{
	if (!set)
		return 0;
	for (size_t i = 0; i < sizeof INTEL / sizeof *INTEL; i++)
		if (!strcmp(name, INTEL[i].name))
			return INTEL[i].reason;
	return 0;
}

const char *throttle_intel_name(size_t i)
{
	return i < sizeof INTEL / sizeof *INTEL ? INTEL[i].name : NULL;
}

static unsigned u16_at(const unsigned char *b, size_t off)
{
	return (unsigned)b[off] | (unsigned)b[off + 1] << 8;
}

static uint64_t u64_at(const unsigned char *b, size_t off)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[off + (size_t)i];
	return v;
}

/* a u16 field: NaN where the firmware left it unset */
static double field(const unsigned char *b, size_t off, double scale)
{
	unsigned v = u16_at(b, off);
	return v == 0xffff ? NAN : v * scale;
}

/* The gpu_metrics layouts read (kgd_pp_interface.h: naturally aligned,
 * little-endian; the kernel fills the table with 0xff before setting what
 * the firmware gave): a field's byte offset, 0 where the format has none.
 * One row a format; the fields after a format's own size are not read. */
typedef struct GpmLayout {
	unsigned format, content, min_size;
	unsigned edge, hotspot, power, gfx, uclk, indep;
	double temp_scale, power_scale;  /* to C and W: v2.4 states centi-C and mW */
	const char *what;
} GpmLayout;

static const GpmLayout GPM[] = {
	/* discrete GPUs: temperature_edge, _hotspot, average_socket_power (W),
	 * current_gfxclk, current_uclk; v1.3 indep_throttle_status */
	{ 1, 1, 96, 4, 6, 22, 54, 58, 0, 1, 1, "v1.1" },
	{ 1, 2, 96, 4, 6, 22, 54, 58, 0, 1, 1, "v1.2" },
	{ 1, 3, 120, 4, 6, 22, 54, 58, 112, 1, 1, "v1.3" },
	/* MI300 (SMU 13.0.6): no edge temperature, curr_socket_power (W),
	 * current_gfxclk[0] (the first XCC's), current_uclk; throttling only
	 * as an ASIC-specific word (v1.4, v1.5) or accumulated residencies
	 * (v1.6+): no reason read */
	{ 1, 4, 288, 0, 4, 10, 240, 280, 0, 1, 1, "v1.4 (MI300)" },
	{ 1, 5, 328, 0, 4, 10, 280, 320, 0, 1, 1, "v1.5 (MI300)" },
	{ 1, 6, 1664, 0, 4, 10, 264, 304, 0, 1, 1, "v1.6 (MI300)" },
	{ 1, 7, 2208, 0, 4, 10, 296, 336, 0, 1, 1, "v1.7 (MI300, MI350)" },
	{ 1, 8, 3360, 0, 4, 10, 296, 336, 0, 1, 1, "v1.8 (MI350)" },
	/* APUs: temperature_gfx, average_socket_power, current_gfxclk,
	 * current_uclk, indep_throttle_status (v2.2+); v2.2 and v2.3 state no
	 * unit for temperature and power, so those are not read */
	{ 2, 2, 128, 0, 0, 0, 76, 80, 120, 1, 1, "v2.2 (APU)" },
	{ 2, 3, 152, 0, 0, 0, 76, 80, 120, 1, 1, "v2.3 (APU)" },
	{ 2, 4, 168, 4, 0, 40, 76, 80, 120, 0.01, 0.001, "v2.4 (APU)" },
};

const char *gpu_metrics_formats(void)
{
	return "v1.1-v1.8, v2.2-v2.4";
}

bool gpu_metrics_parse(const void *blob, size_t n, GpuMetrics *out, char *why, size_t len)
{
	const unsigned char *b = blob;
	memset(out, 0, sizeof *out);
	out->gfx_mhz = out->mem_mhz = out->power_w = out->edge_c = out->hotspot_c = NAN;
	if (n < 4) {
		snprintf(why, len, "gpu_metrics: %zu bytes, no header", n);
		return false;
	}
	unsigned size = u16_at(b, 0);
	out->format = b[2];
	out->content = b[3];
	if (size > n) {
		snprintf(why, len, "gpu_metrics v%u.%u: %zu bytes of the %u its header states", out->format, out->content,
		         n, size);
		return false;
	}
	const GpmLayout *l = NULL;
	for (size_t i = 0; i < sizeof GPM / sizeof *GPM && !l; i++)
		if (GPM[i].format == out->format && GPM[i].content == out->content && size >= GPM[i].min_size)
			l = &GPM[i];
	if (!l) {
		snprintf(why, len, "gpu_metrics v%u.%u (%u bytes): a format flopscope does not read (%s)", out->format,
		         out->content, size, gpu_metrics_formats());
		return false;
	}
	if (l->edge)
		out->edge_c = field(b, l->edge, l->temp_scale);
	if (l->hotspot)
		out->hotspot_c = field(b, l->hotspot, l->temp_scale);
	if (l->power)
		out->power_w = field(b, l->power, l->power_scale);
	out->gfx_mhz = field(b, l->gfx, 1);
	out->mem_mhz = field(b, l->uclk, 1);
	if (l->indep) {
		out->indep_throttle = u64_at(b, l->indep);
		out->has_throttle = out->indep_throttle != UINT64_MAX;
	}
	return true;
}

void throttle_names(uint64_t bits, char *out, size_t len)
{
	size_t n = 0;
	if (len)
		out[0] = '\0';
	for (size_t k = 0; k < throttle_reason_count && n < len; k++)
		if (bits & throttle_reasons[k].bit)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "", throttle_reasons[k].name);
}
