/* sample: the names a sample's telemetry fields have in logs, JSON and
 * metrics, beside their enum (sample.h). Pure. */
#include "sample.h"

#include <stdio.h>

const char *const sample_tel_names[SAMPLE_TEL_COUNT] = {
	"sm_mhz", "mem_mhz", "power_w", "temp_c", "pstate", "throttle", "other_cpu", "other_gpu", "power_limit_w",
	"viol_power_s", "viol_thermal_s", "pcie_gts", "pcie_width", "pcie_max_gts", "pcie_max_width",
	"pcie_replays",
};

int sample_power_str(const Sample *s, char *out, size_t len)
{
	if (!sample_has_tel(s, TEL_POWER_W))
		return snprintf(out, len, "%s", "");
	double w = s->tel[TEL_POWER_W], lim = sample_tel(s, TEL_POWER_LIMIT_W);
	if (lim > 0)
		return snprintf(out, len, "%.0f / %.0f W (%.0f%%)", w, lim, 100 * w / lim);
	return snprintf(out, len, "%.0f W", w);
}
