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
	WorkloadFeatures f = { .float64 = d->float64, .float16 = d->float16, .int_dot = d->int_dot,
	                       .int16 = d->int16, .int64 = d->int64, .int8 = d->int8,
	                       .coopmat = d->coopmat_ext[0] != '\0' || d->coopmat_khr,
	                       .nv_coopmat = d->coopmat_ext[0] != '\0', .bf16_coopmat = d->bf16_coopmat };
	/* for each matrix workload, the subgroup shape of its types with the
	 * most work a step */
	for (int m = 0; m < WORKLOAD_MATRIX_COUNT; m++) {
		const MatrixTypes *t = &workload_matrix_types[m];
		uint64_t best = 0;
		for (uint32_t i = 0; i < d->ncoopmat; i++) {
			const CoopMatShape *s = &d->coopmat[i];
			uint64_t w = (uint64_t)s->m * s->n * s->k;
			if (s->a == t->in && s->b == t->in && s->c == t->acc && s->d == t->acc && s->scope == 3 &&
			    w > best) {
				best = w;
				f.mm[m][0] = s->m;
				f.mm[m][1] = s->n;
				f.mm[m][2] = s->k;
			}
		}
	}
	return f;
}

const char *devinfo_component_str(uint32_t type)
{
	static const char *const names[] = { "fp16", "fp32", "fp64", "int8", "int16", "int32", "int64",
	                                     "uint8", "uint16", "uint32", "uint64" };
	if (type < sizeof names / sizeof *names)
		return names[type];
	switch (type) {
	case 1000141000: return "bf16";       /* VK_COMPONENT_TYPE_BFLOAT16_KHR */
	case 1000491002: return "fp8-e4m3";   /* VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT */
	case 1000491003: return "fp8-e5m2";
	case 1000491000: return "int8-packed";
	case 1000491001: return "uint8-packed";
	default: return "other";
	}
}

void devinfo_coopmat_str(const CoopMatShape *s, char *out, size_t len)
{
	snprintf(out, len, "%ux%ux%u %s*%s+%s->%s (%s)", s->m, s->n, s->k, devinfo_component_str(s->a),
	         devinfo_component_str(s->b), devinfo_component_str(s->c), devinfo_component_str(s->d),
	         s->scope == 3 ? "subgroup" : s->scope == 2 ? "workgroup" : s->scope == 1 ? "device" : "queue family");
}
