/* devinfo: formatting the plain facts of a DeviceInfo. Pure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "devinfo.h"
#include "memwork.h"

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

void devinfo_driver_str(const DeviceInfo *d, char *out, size_t len)
{
	char ver[64];
	devinfo_driver_version_str(d, ver, sizeof ver);
	snprintf(out, len, "%s %s", d->driver_name, d->driver_info[0] ? d->driver_info : ver);
}

void devinfo_uuid_str(const uint8_t u[DEVINFO_UUID_LEN], char *out, size_t len)
{
	snprintf(out, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
	         u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
	         u[12], u[13], u[14], u[15]);
}

void devinfo_pci_str(const DeviceInfo *d, char *out, size_t len)
{
	if (d->has_pci)
		snprintf(out, len, "%08X:%02X:%02X.%X", d->pci_domain, d->pci_bus, d->pci_device, d->pci_function);
	else if (len)
		out[0] = '\0';
}

void devinfo_pci_slot(const DeviceInfo *d, char *out, size_t len)
{
	if (d->has_pci)
		snprintf(out, len, "%04x:%02x:%02x.%x", d->pci_domain, d->pci_bus, d->pci_device, d->pci_function);
	else if (len)
		out[0] = '\0';
}

bool devinfo_at_slot(const DeviceInfo *d, const char *slot)
{
	char a[DEVINFO_PCI_LEN];
	devinfo_pci_slot(d, a, sizeof a);
	return a[0] && !strcasecmp(a, slot);
}

bool devinfo_slot_bus_id(const char *slot, char *out, size_t len)
{
	unsigned dom, bus, dev, fn;
	int end = 0;
	if (len)
		out[0] = '\0';
	if (sscanf(slot, "%x:%x:%x.%x%n", &dom, &bus, &dev, &fn, &end) != 4 || slot[end])
		return false;
	snprintf(out, len, "%08X:%02X:%02X.%X", dom, bus, dev, fn);
	return true;
}

WorkloadFeatures devinfo_features(const DeviceInfo *d)
{
	WorkloadFeatures f = { .has = d->features, .coopmat_listed = d->coopmat_ext[0] != '\0' || d->coopmat_khr };
	/* for each matrix workload, the subgroup shape of its types with the
	 * most work a step */
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
		const MatrixTypes *t = &workload_info[w].mtypes;
		uint64_t best = 0;
		for (uint32_t i = 0; i < d->ncoopmat && workload_info[w].matrix; i++) {
			const CoopMatShape *s = &d->coopmat[i];
			uint64_t work = (uint64_t)s->m * s->n * s->k;
			if (s->a == t->in && s->b == t->in && s->c == t->acc && s->d == t->acc && s->scope == 3 &&
			    work > best) {
				best = work;
				f.mm[w][0] = s->m;
				f.mm[w][1] = s->n;
				f.mm[w][2] = s->k;
			}
		}
	}
	return f;
}

void devinfo_coopmat_str(const CoopMatShape *s, char *out, size_t len)
{
	snprintf(out, len, "%ux%ux%u %s*%s+%s->%s (%s)", s->m, s->n, s->k, matrix_component_str(s->a),
	         matrix_component_str(s->b), matrix_component_str(s->c), matrix_component_str(s->d),
	         s->scope == 3 ? "subgroup" : s->scope == 2 ? "workgroup" : s->scope == 1 ? "device" : "queue family");
}

/* add: printf at *at into out, cut at len (then *at stays len - 1). */
static void add(char *out, size_t len, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *out, size_t len, size_t *at, const char *fmt, ...)
{
	if (*at + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
}

size_t devinfo_details(const DeviceInfo *d, char *out, size_t len)
{
	size_t at = 0;
	if (len)
		out[0] = '\0';
	char api[32], drv[32], uuid[40];
	devinfo_version_str(d->api_version, api, sizeof api);
	devinfo_driver_version_str(d, drv, sizeof drv);
	devinfo_uuid_str(d->uuid, uuid, sizeof uuid);
	add(out, len, &at, "        vendor id 0x%04x, device id 0x%04x\n", d->vendor_id, d->device_id);
	add(out, len, &at, "        driver: %s %s%s%s%s\n", d->driver_name[0] ? d->driver_name : "(name not reported)",
	        drv, d->driver_info[0] ? " (" : "", d->driver_info, d->driver_info[0] ? ")" : "");
	add(out, len, &at, "        API version %s, device UUID %s\n", api, uuid);
	/* VkQueueFlagBits by name (graphics 1, compute 2, transfer 4, sparse 8,
	 * protected 16) */
	static const char *const qf[] = { "graphics", "compute", "transfer", "sparse binding", "protected" };
	char flags[96] = "";
	for (unsigned b = 0; b < 5; b++)
		if (d->queue_flags & (1u << b))
			snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s", flags[0] ? ", " : "", qf[b]);
	add(out, len, &at, "        queues in family %u: %u (%s)\n", d->queue_family, d->queue_count,
	        flags[0] ? flags : "no capability flags");
	if (d->timestamp_valid_bits)
		add(out, len, &at, "        timestamps: %u valid bits, period %g ns\n", d->timestamp_valid_bits,
		        (double)d->timestamp_period);
	else
		add(out, len, &at, "        timestamps: none on this queue family (CPU timing only)\n");
	add(out, len, &at, "        subgroup size %u\n", d->subgroup_size);
	add(out, len, &at, "        max workgroup count %u x %u x %u, size %u x %u x %u, %u invocations\n",
	        d->max_group_count[0], d->max_group_count[1], d->max_group_count[2],
	        d->max_group_size[0], d->max_group_size[1], d->max_group_size[2], d->max_invocations);
	char sz[32], sz2[32];
	for (uint32_t h = 0; h < d->heap_count; h++)
		add(out, len, &at, "        memory heap %u: %s%s\n", h, mem_size_str(d->heap_size[h], sz, sizeof sz),
		        d->heap_device_local[h] ? " device-local" : "");
	add(out, len, &at, "        largest allocation %s, storage buffer range %s\n",
	        mem_size_str(d->max_alloc, sz, sizeof sz), mem_size_str(d->max_storage_range, sz2, sizeof sz2));
	if (d->transfer_family >= 0)
		add(out, len, &at, "        transfer-only queue family %d (timestamps: %u bits)\n", d->transfer_family,
		        d->transfer_ts_bits);
	else
		add(out, len, &at, "        no transfer-only queue family\n");
	if (d->has_pci) {
		char pci[DEVINFO_PCI_LEN];
		devinfo_pci_str(d, pci, sizeof pci);
		add(out, len, &at, "        PCI %s\n", pci);
	}
	if (d->cu_count)
		add(out, len, &at, "        CUs: %u (VK_AMD_shader_core_properties)\n", d->cu_count);
	if (d->sm_count)
		add(out, len, &at, "        SMs: %u (VK_NV_shader_sm_builtins)\n", d->sm_count);
	const char *sep = "        ";
	for (int b = 0; b < FEAT_COUNT; b++)
		if (dev_features[b].label) {
			add(out, len, &at, "%s%s %s", sep, dev_features[b].label, d->features & FEAT(b) ? "yes" : "no");
			sep = ", ";
		}
	add(out, len, &at, "\n");
	if (!d->coopmat_ext[0]) {
		add(out, len, &at, "        cooperative matrices: none (the driver lists %s)\n",
		        d->coopmat_khr ? "VK_KHR_cooperative_matrix only, which this build's Vulkan headers predate"
		                       : "neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix");
	} else {
		add(out, len, &at, "        cooperative matrices (%s%s): %u shape%s\n", d->coopmat_ext,
		        d->coopmat_khr ? "; VK_KHR_cooperative_matrix listed too" : "", d->ncoopmat,
		        d->ncoopmat == 1 ? "" : "s");
		for (uint32_t i = 0; i < d->ncoopmat; i++) {
			char s[96];
			devinfo_coopmat_str(&d->coopmat[i], s, sizeof s);
			add(out, len, &at, "          %s\n", s);
		}
	}
	return at;
}

uint32_t devinfo_amd_cus(uint32_t engines, uint32_t arrays, uint32_t cus_per_array, uint32_t active)
{
	uint64_t all = (uint64_t)engines * arrays * cus_per_array;
	if (active && active <= all)
		return active;
	return all <= UINT32_MAX ? (uint32_t)all : 0;
}
