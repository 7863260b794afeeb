/* devinfo: formatting the plain facts of a DeviceInfo. Pure. */
#include <stdio.h>

#include "devinfo.h"

const char *devinfo_type_str(DevType t)
{
	switch (t) {
	case DEV_INTEGRATED_GPU: return "IntegratedGpu";
	case DEV_DISCRETE_GPU: return "DiscreteGpu";
	case DEV_VIRTUAL_GPU: return "VirtualGpu";
	case DEV_CPU: return "Cpu";
	default: return "Other";
	}
}

int devinfo_type_rank(DevType t)
{
	switch (t) {
	case DEV_DISCRETE_GPU: return 0;
	case DEV_INTEGRATED_GPU: return 1;
	case DEV_VIRTUAL_GPU: return 2;
	case DEV_CPU: return 3;
	default: return 4;
	}
}

void devinfo_version_str(uint32_t v, char *out, size_t len)
{
	snprintf(out, len, "%u.%u.%u", (v >> 22) & 0x7fu, (v >> 12) & 0x3ffu, v & 0xfffu);
}

void devinfo_driver_version_str(const DeviceInfo *d, char *out, size_t len)
{
	uint32_t v = d->driver_version;
	if (d->vendor_id == 0x10de) /* NVIDIA: 10.8.8.6 */
		snprintf(out, len, "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff, v & 0x3f);
	else
		devinfo_version_str(v, out, len);
}

void devinfo_uuid_str(const uint8_t u[DEVINFO_UUID_LEN], char *out, size_t len)
{
	snprintf(out, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
	         u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
	         u[12], u[13], u[14], u[15]);
}

WorkloadFeatures devinfo_features(const DeviceInfo *d)
{
	return (WorkloadFeatures){ .float64 = d->float64, .float16 = d->float16, .int_dot = d->int_dot };
}
