/* inventory: the host's GPUs against Vulkan's (inventory.h). */
#include "inventory.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "nvml.h"
#include "tel_impl.h"

/* Whether an entry of e[0..n) has the UUID NVML writes as "GPU-...". */
static bool vulkan_has_uuid(const DeviceInfo *e, size_t n, const char *nvml_uuid)
{
	const char *want = strncmp(nvml_uuid, "GPU-", 4) ? nvml_uuid : nvml_uuid + 4;
	for (size_t i = 0; i < n; i++) {
		char u[48];
		devinfo_uuid_str(e[i].uuid, u, sizeof u);
		if (!strcasecmp(u, want))
			return true;
	}
	return false;
}

static void from_nvml(const DeviceInfo *e, size_t n, const NvmlGpu *g, size_t ng, Inventory *inv)
{
	for (size_t k = 0; k < ng && inv->nmissing < INVENTORY_MAX; k++) {
		if (g[k].uuid[0] && vulkan_has_uuid(e, n, g[k].uuid))
			continue;
		MissingGpu *m = &inv->missing[inv->nmissing++];
		*m = (MissingGpu){ .gpu = (int)g[k].index };
		snprintf(m->uuid, sizeof m->uuid, "%s", g[k].uuid);
		snprintf(m->name, sizeof m->name, "%s", g[k].name[0] ? g[k].name : "NVIDIA GPU");
		if (!g[k].uuid[0])
			snprintf(m->why, sizeof m->why, "NVML counts it but cannot open it: an error state, or fallen off "
			         "the bus (nvidia-smi -q, the kernel log)");
		else if (g[k].mig == 1)
			snprintf(m->why, sizeof m->why, "MIG mode is on (NVML): a GPU in MIG mode has no Vulkan device");
		else
			snprintf(m->why, sizeof m->why, "NVML lists it, Vulkan does not: no NVIDIA Vulkan driver (ICD) "
			         "loaded, or a container without the driver's graphics capability "
			         "(NVIDIA_DRIVER_CAPABILITIES)");
	}
}

/* A PCI device's hex file (class, vendor, device) under dir; false unread. */
static bool pci_hex(const char *dir, const char *file, unsigned *v)
{
	char p[600], line[32];
	snprintf(p, sizeof p, "%s/%s", dir, file);
	if (!sysfs_read_line(p, line, sizeof line))
		return false;
	char *end;
	unsigned long x = strtoul(line, &end, 16);
	if (end == line || x > 0xffffff)
		return false;
	*v = (unsigned)x;
	return true;
}

static const char *vendor_name(unsigned v)
{
	return v == 0x10de ? "NVIDIA" : v == 0x1002 ? "AMD" : "Intel";
}

/* One PCI device (slot "0000:1b:00.0" under dir) against the entries: a
 * GPU's display controller no entry is. nvml: NVML listed the NVIDIA GPUs
 * (its list is theirs, the GPUs it cannot open among them). */
static void from_pci(const DeviceInfo *e, size_t n, const char *dir, const char *slot, bool nvml, Inventory *inv)
{
	unsigned cls, vendor, device = 0;
	if (!pci_hex(dir, "class", &cls) || !pci_hex(dir, "vendor", &vendor))
		return;
	/* VGA (0x0300) and 3D (0x0302) controllers of a GPU vendor: a
	 * server's BMC display (ASPEED, Matrox) and a VM's are not GPUs */
	if (((cls >> 8) != 0x0300 && (cls >> 8) != 0x0302) ||
	    (vendor != 0x10de && vendor != 0x1002 && vendor != 0x8086))
		return;
	if (vendor == 0x10de && nvml)
		return;
	for (size_t i = 0; i < n; i++) {
		if (e[i].type == DEV_CPU || e[i].vendor_id != vendor)
			continue;
		if (!e[i].has_pci) {
			/* a GPU of the vendor with no address to match: cannot tell */
			snprintf(inv->note, sizeof inv->note, "a %s device without VK_EXT_pci_bus_info: its PCI GPUs "
			         "cannot be matched", vendor_name(vendor));
			return;
		}
		if (devinfo_at_slot(&e[i], slot))
			return;
	}
	if (inv->nmissing >= INVENTORY_MAX)
		return;
	pci_hex(dir, "device", &device);
	MissingGpu *m = &inv->missing[inv->nmissing++];
	*m = (MissingGpu){ .gpu = -1 };
	devinfo_slot_bus_id(slot, m->pci, sizeof m->pci);
	snprintf(m->name, sizeof m->name, "%s GPU (PCI %04x:%04x)", vendor_name(vendor), vendor, device);
	char link[1000], target[256];
	snprintf(link, sizeof link, "%s/driver", dir);
	ssize_t l = readlink(link, target, sizeof target - 1);
	if (l > 0) {
		target[l] = '\0';
		const char *drv = strrchr(target, '/');
		snprintf(m->why, sizeof m->why, "the kernel's %.40s driver has it, but no Vulkan driver (ICD) shows it",
		         drv ? drv + 1 : target);
	} else {
		snprintf(m->why, sizeof m->why, "no kernel driver has it (the driver did not take it: the kernel log)");
	}
}

/* The last part of link (under dir) in out; false when it is no link. */
static bool link_base(const char *dir, const char *link, char *out, size_t len)
{
	char p[1100], target[512];
	snprintf(p, sizeof p, "%s/%s", dir, link);
	ssize_t l = readlink(p, target, sizeof target - 1);
	if (l <= 0)
		return false;
	target[l] = '\0';
	const char *b = strrchr(target, '/');
	return snprintf(out, len, "%s", b ? b + 1 : target) < (int)len;
}

/* DRM drivers of no GPU: virtual devices, a VM's or a BMC's display. */
static bool drm_virtual(const char *drv)
{
	static const char *const v[] = { "vgem", "vkms", "virtio_gpu", "virtio-pci", "vmwgfx", "qxl", "bochs-drm",
	                                 "bochs", "cirrus", "simpledrm", "udl", "evdi", "ast", "mgag200", "hyperv_drm" };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (!strcmp(drv, v[i]))
			return true;
	return false;
}

/* The Vulkan vendor of a DRM driver of a GPU off the PCI bus (a system on a
 * chip's); 0 unknown. */
static uint32_t drm_vendor(const char *drv)
{
	static const struct { const char *drv; uint32_t vendor; } v[] = {
		{ "panfrost", 0x13b5 }, { "panthor", 0x13b5 }, { "msm", 0x5143 }, { "v3d", 0x14e4 },
		{ "etnaviv", 0x10001 }, { "powervr", 0x1010 },
	};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (!strcmp(drv, v[i].drv))
			return v[i].vendor;
	return 0;
}

/* The DRM render nodes (class/drm/renderD*): a GPU whose kernel driver has
 * it, off the PCI bus (a system on a chip's: the PCI scan never sees it) or
 * on it of a vendor the PCI scan does not read, that no entry is. */
static void from_drm(const DeviceInfo *e, size_t n, Inventory *inv)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/class/drm", sysfs_root());
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) && inv->nmissing < INVENTORY_MAX) {
		if (strncmp(de->d_name, "renderD", 7))
			continue;
		char node[900], drv[64], bus[32] = "", slot[64] = "";
		snprintf(node, sizeof node, "%s/%s/device", dir, de->d_name);
		if (!link_base(node, "driver", drv, sizeof drv) || drm_virtual(drv))
			continue;
		link_base(node, "subsystem", bus, sizeof bus);
		char self[1000];
		snprintf(self, sizeof self, "%s/%s", dir, de->d_name);
		link_base(self, "device", slot, sizeof slot);
		bool seen = false;
		if (!strcmp(bus, "pci")) {
			unsigned vendor;
			if (pci_hex(node, "vendor", &vendor) && (vendor == 0x10de || vendor == 0x1002 || vendor == 0x8086))
				continue; /* the PCI scan's */
			for (size_t i = 0; i < n && !seen; i++)
				seen = e[i].type != DEV_CPU && (!e[i].has_pci || devinfo_at_slot(&e[i], slot));
		} else {
			/* no address to match: an entry of the driver's vendor (or,
			 * where the table does not know it, any GPU's) without one */
			uint32_t v = drm_vendor(drv);
			for (size_t i = 0; i < n && !seen; i++)
				seen = e[i].type != DEV_CPU && !e[i].has_pci && (!v || e[i].vendor_id == v);
		}
		if (seen)
			continue;
		MissingGpu *m = &inv->missing[inv->nmissing++];
		*m = (MissingGpu){ .gpu = -1 };
		if (!strcmp(bus, "pci"))
			devinfo_slot_bus_id(slot, m->pci, sizeof m->pci);
		snprintf(m->name, sizeof m->name, "%.36s GPU (%.20s, %.24s)", drv, de->d_name, slot);
		snprintf(m->why, sizeof m->why, "the kernel's %.40s driver has it (DRM render node %.20s), but no Vulkan "
		         "driver (ICD) shows it", drv, de->d_name);
	}
	closedir(d);
}

void inventory_take(const DeviceInfo *e, size_t n, Inventory *inv)
{
	*inv = (Inventory){ .gpus = 0 };
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen |= !memcmp(e[i].uuid, e[j].uuid, sizeof e[i].uuid);
		inv->gpus += e[i].type != DEV_CPU && !seen;
	}
	NvmlGpu g[INVENTORY_MAX];
	char why[256];
	int ng = nvml_list_gpus(g, INVENTORY_MAX, why, sizeof why);
	if (ng > 0)
		from_nvml(e, n, g, (size_t)ng, inv);
	from_drm(e, n, inv);
	char dir[600];
	snprintf(dir, sizeof dir, "%s/bus/pci/devices", sysfs_root());
	DIR *d = opendir(dir);
	if (!d)
		return; /* no PCI bus to read (a container without /sys): NVML's word only */
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char sub[900];
		snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
		from_pci(e, n, sub, de->d_name, ng > 0, inv);
	}
	closedir(d);
}
