/* sample: the names a sample's telemetry fields have in logs, JSON and
 * metrics, beside their enum (sample.h). Pure. */
#include "sample.h"

const char *const sample_tel_names[SAMPLE_TEL_COUNT] = {
	"sm_mhz", "mem_mhz", "power_w", "temp_c", "pstate", "throttle", "other_cpu", "other_gpu",
};
