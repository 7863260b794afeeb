/* tel_registry: the telemetry sources, in the order they are tried: the
 * first that serves a device opens for it. A new source is a file and a
 * row here. */
#include "tel_impl.h"

const TelDriver *const tel_drivers[] = {
	&tel_nvml_driver,      /* NVIDIA: NVML, loaded at run time */
	&tel_cpu_driver,       /* CPU devices (lavapipe): cpufreq, RAPL, /proc/stat */
	&tel_gpu_sysfs_driver, /* AMD and Intel GPUs: the DRM card's sysfs files */
	NULL,
};
