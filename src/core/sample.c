/* sample: the measured quantities' table (tel_rows.h: the names a
 * sample's telemetry fields have in logs, JSON and metrics, their units,
 * kinds and ranges), beside their enum (sample.h). Pure. */
#include "sample.h"
#include "peak.h" /* PCIE_MAX_REPLAYS, in a help text */

#include <stdio.h>

#define TEL_STR_(x) #x
#define TEL_STR(x) TEL_STR_(x)

const TelInfo tel_info[TEL_FIELD_COUNT] = {
#define TEL_ROW(ID, ...) [TEL_##ID] = { __VA_ARGS__ },
#include "tel_rows.h"
#undef TEL_ROW
};


int sample_power_str(const Sample *s, char *out, size_t len)
{
	double w = sample_power_w(s), lim = sample_tel(s, TEL_POWER_LIMIT_W);
	if (isnan(w))
		return snprintf(out, len, "%s", "");
	if (lim > 0)
		return snprintf(out, len, "%.0f / %.0f W (%.0f%%)", w, lim, 100 * w / lim);
	return snprintf(out, len, "%.0f W", w);
}
