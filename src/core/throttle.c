#include "throttle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const ThrottleReason throttle_reasons[] = {
	{ THR_POWER_CAP, "power cap" }, { THR_HW_SLOWDOWN, "HW slowdown" }, { THR_THERMAL_SW, "thermal (software)" },
	{ THR_THERMAL_HW, "thermal (hardware)" }, { THR_POWER_BRAKE, "power brake" },
	{ THR_CURRENT, "current/voltage limit" },
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

/* gpu_metrics_v1_1 ... v1_3: naturally aligned, little-endian; the
 * offsets of the fields read (the layout in the header's comment) */
enum {
	V1_TEMP_EDGE = 4, V1_TEMP_HOTSPOT = 6, V1_SOCKET_POWER = 22, V1_CUR_GFXCLK = 54, V1_CUR_UCLK = 58,
	V1_1_SIZE = 96,  /* up to temperature_hbm */
	V1_3_INDEP = 112, V1_3_SIZE = 120,
};

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
	if (out->format != 1 || out->content < 1 || out->content > 3 || size < V1_1_SIZE) {
		snprintf(why, len, "gpu_metrics v%u.%u (%u bytes): a format flopscope does not read (v1.1-v1.3)",
		         out->format, out->content, size);
		return false;
	}
	out->edge_c = field(b, V1_TEMP_EDGE, 1);
	out->hotspot_c = field(b, V1_TEMP_HOTSPOT, 1);
	out->power_w = field(b, V1_SOCKET_POWER, 1);
	out->gfx_mhz = field(b, V1_CUR_GFXCLK, 1);
	out->mem_mhz = field(b, V1_CUR_UCLK, 1);
	if (out->content >= 3 && size >= V1_3_SIZE) {
		out->indep_throttle = u64_at(b, V1_3_INDEP);
		out->has_throttle = out->indep_throttle != UINT64_MAX;
	}
	return true;
}
