#include "listing.h"

#include <string.h>

void listing_entry(const DeviceInfo *d, size_t number, char *buf, size_t len)
{
	snprintf(buf, len, "%4zu: %s (compute queue: %u, type: %s)", number, d->name,
	         d->queue_family, devinfo_type_str(d->type));
}

void listing_details(FILE *f, const DeviceInfo *d)
{
	char api[32], drv[32], uuid[40];
	devinfo_version_str(d->api_version, api, sizeof api);
	devinfo_driver_version_str(d, drv, sizeof drv);
	devinfo_uuid_str(d->uuid, uuid, sizeof uuid);
	fprintf(f, "        vendor id 0x%04x, device id 0x%04x\n", d->vendor_id, d->device_id);
	fprintf(f, "        driver: %s %s%s%s%s\n", d->driver_name[0] ? d->driver_name : "(name not reported)",
	        drv, d->driver_info[0] ? " (" : "", d->driver_info, d->driver_info[0] ? ")" : "");
	fprintf(f, "        API version %s, device UUID %s\n", api, uuid);
	/* VkQueueFlagBits by name (graphics 1, compute 2, transfer 4, sparse 8,
	 * protected 16) */
	static const char *const qf[] = { "graphics", "compute", "transfer", "sparse binding", "protected" };
	char flags[96] = "";
	for (unsigned b = 0; b < 5; b++)
		if (d->queue_flags & (1u << b))
			snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s", flags[0] ? ", " : "", qf[b]);
	fprintf(f, "        queues in family %u: %u (%s)\n", d->queue_family, d->queue_count,
	        flags[0] ? flags : "no capability flags");
	if (d->timestamp_valid_bits)
		fprintf(f, "        timestamps: %u valid bits, period %g ns\n", d->timestamp_valid_bits,
		        (double)d->timestamp_period);
	else
		fprintf(f, "        timestamps: none on this queue family (CPU timing only)\n");
	fprintf(f, "        subgroup size %u\n", d->subgroup_size);
	fprintf(f, "        max workgroup count %u x %u x %u, size %u x %u x %u, %u invocations\n",
	        d->max_group_count[0], d->max_group_count[1], d->max_group_count[2],
	        d->max_group_size[0], d->max_group_size[1], d->max_group_size[2], d->max_invocations);
	for (uint32_t h = 0; h < d->heap_count; h++)
		fprintf(f, "        memory heap %u: %.2f GiB%s\n", h,
		        (double)d->heap_size[h] / (1024.0 * 1024 * 1024),
		        d->heap_device_local[h] ? " device-local" : "");
	fprintf(f, "        largest allocation %.2f GiB, storage buffer range %.2f GiB\n",
	        (double)d->max_alloc / (1024.0 * 1024 * 1024), (double)d->max_storage_range / (1024.0 * 1024 * 1024));
	if (d->transfer_family >= 0)
		fprintf(f, "        transfer-only queue family %d (timestamps: %u bits)\n", d->transfer_family,
		        d->transfer_ts_bits);
	else
		fprintf(f, "        no transfer-only queue family\n");
	if (d->has_pci)
		fprintf(f, "        PCI %04x:%02x:%02x.%x\n", d->pci_domain, d->pci_bus, d->pci_device,
		        d->pci_function);
	if (d->cu_count)
		fprintf(f, "        CUs: %u (VK_AMD_shader_core_properties)\n", d->cu_count);
	if (d->sm_count)
		fprintf(f, "        SMs: %u (VK_NV_shader_sm_builtins)\n", d->sm_count);
	fprintf(f, "        float16 %s, float64 %s, int8 %s, int16 %s, int64 %s, integer dot product %s\n",
	        d->float16 ? "yes" : "no", d->float64 ? "yes" : "no", d->int8 ? "yes" : "no",
	        d->int16 ? "yes" : "no", d->int64 ? "yes" : "no", d->int_dot ? "yes" : "no");
	if (!d->coopmat_ext[0]) {
		fprintf(f, "        cooperative matrices: none (the driver lists %s)\n",
		        d->coopmat_khr ? "VK_KHR_cooperative_matrix only, which this build's Vulkan headers predate"
		                       : "neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix");
	} else {
		fprintf(f, "        cooperative matrices (%s%s): %u shape%s\n", d->coopmat_ext,
		        d->coopmat_khr ? "; VK_KHR_cooperative_matrix listed too" : "", d->ncoopmat,
		        d->ncoopmat == 1 ? "" : "s");
		for (uint32_t i = 0; i < d->ncoopmat; i++) {
			char s[96];
			devinfo_coopmat_str(&d->coopmat[i], s, sizeof s);
			fprintf(f, "          %s\n", s);
		}
	}
}

void listing_print(FILE *f, const DeviceList *l, bool verbose)
{
	char line[512];
	fprintf(f, "Compatible devices:\n");
	for (size_t i = 0; i < l->count; i++) {
		listing_entry(&l->entries[i], i + 1, line, sizeof line);
		fprintf(f, "%s\n", line);
		if (verbose)
			listing_details(f, &l->entries[i]);
	}
}
