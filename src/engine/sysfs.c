/* sysfs: reading the kernel's device files (FLOPSCOPE_SYSFS_ROOT replaces
 * /sys in tests) and the DRM clients in its process files (through
 * session/procfs.c's root); every reader of them in flopscope goes through
 * these. */
#include "tel_impl.h"
#include "gpumap.h"
#include "fmt.h"

#include <dirent.h>
#include <errno.h>
#include <unistd.h>
#include <time.h>
#include <math.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *sysfs_root(void)
{
	const char *r = getenv("FLOPSCOPE_SYSFS_ROOT");
	return r && *r ? r : "/sys";
}

bool sysfs_read_num(const char *path, double *v)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fscanf(f, "%lf", v) == 1;
	fclose(f);
	return ok;
}

/* pp_dpm_sclk / pp_dpm_mclk: "1: 1800Mhz *" marks the current level */
bool sysfs_read_dpm(const char *path, double *mhz)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[128];
	bool ok = false;
	while (!ok && fgets(line, sizeof line, f)) {
		unsigned idx;
		double v;
		if (strchr(line, '*') && sscanf(line, "%u: %lf", &idx, &v) == 2) {
			*mhz = v;
			ok = true;
		}
	}
	fclose(f);
	return ok;
}

/* The device folder of a GPU: by its PCI address when Vulkan gave it,
 * else the first DRM card of the vendor. */
bool sysfs_find_card(const DeviceInfo *d, char *dev, size_t len, char *card, size_t clen, char *why, size_t wlen)
{
	const char *root = sysfs_root();
	glob_t g;
	char pat[600];
	snprintf(pat, sizeof pat, "%s/class/drm/card[0-9]*", root);
	bool found = false;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && !found; i++) {
			char p[700], link[700];
			double vendor;
			snprintf(p, sizeof p, "%s/device/vendor", g.gl_pathv[i]);
			if (!sysfs_read_num(p, &vendor) || (uint32_t)vendor != d->vendor_id)
				continue;
			if (d->has_pci) {
				/* device/uevent names PCI_SLOT_NAME=0000:03:00.0 */
				snprintf(p, sizeof p, "%s/device/uevent", g.gl_pathv[i]);
				char slot[DEVINFO_PCI_LEN];
				devinfo_pci_slot(d, slot, sizeof slot);
				snprintf(link, sizeof link, "PCI_SLOT_NAME=%s", slot);
				FILE *f = fopen(p, "r");
				char line[256];
				bool match = false;
				while (f && fgets(line, sizeof line, f))
					if (!strncmp(line, link, strlen(link)))
						match = true;
				if (f)
					fclose(f);
				if (!match)
					continue;
			}
			snprintf(dev, len, "%s/device", g.gl_pathv[i]);
			snprintf(card, clen, "%s", g.gl_pathv[i]);
			found = true;
		}
		globfree(&g);
	}
	if (!found)
		snprintf(why, wlen, "no DRM card of vendor 0x%04x%s under %s/class/drm", d->vendor_id,
		         d->has_pci ? " at the device's PCI address" : "", root);
	return found;
}

bool sysfs_first_glob(const char *pattern, char *out, size_t len)
{
	glob_t g;
	bool ok = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	if (ok)
		snprintf(out, len, "%s", g.gl_pathv[0]);
	if (ok || g.gl_pathc == 0)
		globfree(&g);
	return ok;
}


bool sysfs_read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(out, (int)len, f);
	if (f)
		fclose(f);
	if (!ok) {
		out[0] = '\0';
		return false;
	}
	out[strcspn(out, "\n")] = '\0';
	return true;
}

/* One process's DRM clients of the device: each fdinfo file read, the
 * clients told apart by their id (fds of one client counted once). */
static size_t drm_clients_of(unsigned pid, const char *pdev, DrmClient *c, size_t cap)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/%u/fdinfo", procfs_root(), pid);
	DIR *d = opendir(dir);
	if (!d)
		return 0; /* gone, or another user's without the right to read it */
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < cap) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char path[900], text[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(text, 1, sizeof text - 1, f);
		fclose(f);
		text[len] = '\0';
		DrmClient one;
		if (!procs_drm_client(text, pdev, &one))
			continue;
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = c[k].id == one.id;
		if (!seen)
			c[n++] = one;
	}
	closedir(d);
	return n;
}

bool sysfs_drm_procs(const char *pdev, ProcTable *out, DrmSeen *prev, size_t *nprev)
{
	memset(out, 0, sizeof *out);
	DIR *d = opendir(procfs_root());
	if (!d)
		return false;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double now = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	DrmSeen seen[DRM_SEEN_MAX];
	size_t nseen = 0;
	unsigned self = (unsigned)getpid();
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		unsigned long pid = strtoul(e->d_name, &end, 10);
		if (*end || end == e->d_name || pid == self)
			continue;
		DrmClient c[8];
		size_t n = drm_clients_of((unsigned)pid, pdev, c, 8);
		if (!n)
			continue;
		ProcInfo p = { .pid = (unsigned)pid, .mem_bytes = NAN, .sm_pct = NAN };
		double busy = 0;
		bool timed = false;
		for (size_t k = 0; k < n; k++) {
			if (!isnan(c[k].mem_bytes))
				p.mem_bytes = (isnan(p.mem_bytes) ? 0 : p.mem_bytes) + c[k].mem_bytes;
			for (size_t j = 0; j < *nprev; j++)
				if (prev[j].pid == p.pid && prev[j].id == c[k].id && now > prev[j].t && c[k].engine_ns >= prev[j].engine_ns) {
					busy += (c[k].engine_ns - prev[j].engine_ns) * 1e-9 / (now - prev[j].t);
					timed = true;
				}
			if (nseen < DRM_SEEN_MAX)
				seen[nseen++] = (DrmSeen){ p.pid, c[k].id, c[k].engine_ns, now };
		}
		if (timed)
			p.sm_pct = 100 * busy;
		out->total++;
		/* the first PROCS_SHOWN by pid */
		size_t at = out->n < PROCS_SHOWN ? out->n++ : PROCS_SHOWN;
		if (at == PROCS_SHOWN) {
			if (p.pid > out->p[PROCS_SHOWN - 1].pid)
				continue;
			at = PROCS_SHOWN - 1;
		}
		while (at > 0 && out->p[at - 1].pid > p.pid) {
			out->p[at] = out->p[at - 1];
			at--;
		}
		procfs_names(&p);
		out->p[at] = p;
	}
	closedir(d);
	memcpy(prev, seen, nseen * sizeof *seen);
	*nprev = nseen;
	return true;
}

/* The PCI address a DRM node's device sits at (its device/uevent's
 * PCI_SLOT_NAME=0000:03:00.0); "" where none. */
static void pci_slot_of(const char *node, char *slot, size_t len)
{
	char path[700], line[256], fmt[32];
	snprintf(path, sizeof path, "%s/device/uevent", node);
	snprintf(fmt, sizeof fmt, "PCI_SLOT_NAME=%%%zus", len - 1);
	slot[0] = '\0';
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, fmt, slot) == 1)
			break;
	if (f)
		fclose(f);
}

bool amd_uuid_slot(const char *uuid, char *slot, size_t len)
{
	const char *hex = strncmp(uuid, "GPU-", 4) ? uuid : uuid + 4;
	char pat[600];
	glob_t g;
	bool found = false;
	slot[0] = '\0';
	snprintf(pat, sizeof pat, "%s/class/drm/card[0-9]*", sysfs_root());
	if (!*hex || glob(pat, 0, NULL, &g) != 0)
		return false;
	for (size_t i = 0; i < g.gl_pathc && !found; i++) {
		char path[700], id[64];
		snprintf(path, sizeof path, "%s/device/unique_id", g.gl_pathv[i]);
		if (!sysfs_read_line(path, id, sizeof id) || strcasecmp(id, hex))
			continue;
		pci_slot_of(g.gl_pathv[i], slot, len);
		found = slot[0] != '\0';
	}
	globfree(&g);
	return found;
}

/* A render node's number: renderD128 -> 128; -1 not one. */
static long render_number(const char *name)
{
	char *end;
	if (strncmp(name, "renderD", 7) || !name[7])
		return -1;
	long v = strtol(name + 7, &end, 10);
	return *end || v < 0 ? -1 : v;
}

static int by_number(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int drm_index_devices(DeviceInfo *e, size_t n, char *why, size_t len)
{
	char dir[600];
	snprintf(dir, sizeof dir, "%s/class/drm", sysfs_root());
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(why, len, "no DRM render node (%s: %s)", dir, strerror(errno));
		return -1;
	}
	long nums[256];
	size_t count = 0;
	for (struct dirent *de; (de = readdir(d)) && count < sizeof nums / sizeof *nums;) {
		long v = render_number(de->d_name);
		if (v >= 0)
			nums[count++] = v;
	}
	closedir(d);
	if (!count) {
		snprintf(why, len, "no DRM render node under %s", dir);
		return -1;
	}
	qsort(nums, count, sizeof *nums, by_number);
	int mapped = 0;
	for (size_t k = 0; k < count; k++) {
		char node[640], slot[32];
		snprintf(node, sizeof node, "%s/renderD%ld", dir, nums[k]);
		pci_slot_of(node, slot, sizeof slot);
		for (size_t i = 0; slot[0] && i < n; i++) {
			/* NVIDIA's GRES are /dev/nvidiaN, in NVML's order, not these */
			if (e[i].type != DEV_CPU && e[i].vendor_id != 0x10de && devinfo_at_slot(&e[i], slot)) {
				e[i].has_gpu_index = true;
				e[i].gpu_index = (uint32_t)k;
				mapped++;
			}
		}
	}
	if (!mapped)
		snprintf(why, len, "none of the %zu DRM render nodes under %s is a device Vulkan shows", count, dir);
	return mapped;
}

/* Appends item to the comma-separated list; false when it does not fit. */
static bool list_add(char *list, size_t len, const char *item)
{
	size_t at = strlen(list);
	int w = snprintf(list + at, len - at, "%s%s", at ? "," : "", item);
	return w > 0 && (size_t)w < len - at;
}

/* ROCR_VISIBLE_DEVICES: every item a UUID whose card sysfs knows. */
static int rocr_list(const char *rocr, char *list, size_t len, char *why, size_t wlen)
{
	for (const char *p = rocr; *p;) {
		char item[64], slot[32];
		size_t k = strcspn(p, ",");
		snprintf(item, sizeof item, "%.*s", (int)(k < sizeof item ? k : sizeof item - 1), p);
		if (strncmp(item, "GPU-", 4)) {
			snprintf(why, wlen, "ROCR_VISIBLE_DEVICES=%s numbers GPUs as ROCm enumerates them, which no Vulkan "
			         "driver shares (a UUID, GPU-<hex>, can be tied)", rocr);
			return -1;
		}
		if (!amd_uuid_slot(item, slot, sizeof slot)) {
			snprintf(why, wlen, "ROCR_VISIBLE_DEVICES: no amdgpu card under %s/class/drm has the unique_id of %s",
			         sysfs_root(), item);
			return -1;
		}
		if (!list_add(list, len, slot)) {
			snprintf(why, wlen, "ROCR_VISIBLE_DEVICES: too many GPUs");
			return -1;
		}
		p += k + (p[k] == ',');
	}
	return 1;
}

static int by_pci(const void *a, const void *b)
{
	const DeviceInfo *x = *(const DeviceInfo *const *)a, *y = *(const DeviceInfo *const *)b;
	uint64_t kx = (uint64_t)x->pci_domain << 32 | x->pci_bus << 16 | x->pci_device << 8 | x->pci_function;
	uint64_t ky = (uint64_t)y->pci_domain << 32 | y->pci_bus << 16 | y->pci_device << 8 | y->pci_function;
	return (kx > ky) - (kx < ky);
}

/* ZE_AFFINITY_MASK in PCI order: device N the N-th Intel GPU by address. */
static int ze_list(const DeviceInfo *e, size_t n, const char *ze, char *list, size_t len, char *why, size_t wlen)
{
	const DeviceInfo *gpu[64];
	size_t m = 0;
	for (size_t i = 0; i < n && m < sizeof gpu / sizeof *gpu; i++) {
		bool seen = false;
		for (size_t j = 0; j < m; j++)
			seen |= gpu[j]->phys_index == e[i].phys_index;
		if (!seen && e[i].vendor_id == 0x8086 && e[i].type != DEV_CPU && e[i].has_pci)
			gpu[m++] = &e[i];
	}
	qsort(gpu, m, sizeof *gpu, by_pci);
	for (const char *p = ze; *p;) {
		char *end;
		errno = 0;
		unsigned long k = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : (end = (char *)p, 0);
		if (end == p || errno || (*end && *end != ',' && *end != '.')) { /* "-1" is no device */
			snprintf(why, wlen, "ZE_AFFINITY_MASK=%s: not a list of devices (0,1 or 0.1)", ze);
			return -1;
		}
		if (k >= m) {
			snprintf(why, wlen, "ZE_AFFINITY_MASK names device %lu; Vulkan shows %zu Intel GPU%s with a PCI address",
			         k, m, m == 1 ? "" : "s");
			return -1;
		}
		char slot[DEVINFO_PCI_LEN];
		devinfo_pci_slot(gpu[k], slot, sizeof slot);
		if (!strstr(list, slot) && !list_add(list, len, slot)) { /* N.0 and N.1 are one device */
			snprintf(why, wlen, "ZE_AFFINITY_MASK: too many GPUs");
			return -1;
		}
		p = end + strcspn(end, ",");
		p += *p == ',';
	}
	return 1;
}

int gpumap_runtime_list(const DeviceInfo *e, size_t n, const char *rocr, const char *ze, const char *ze_order,
                        char *list, size_t len, const char **from, char *why, size_t wlen)
{
	list[0] = '\0';
	why[0] = '\0';
	if (rocr && *rocr) {
		*from = "ROCR_VISIBLE_DEVICES";
		return rocr_list(rocr, list, len, why, wlen);
	}
	if (ze && *ze) {
		*from = "ZE_AFFINITY_MASK";
		if (!ze_order || strcmp(ze_order, "1")) {
			snprintf(why, wlen, "ZE_AFFINITY_MASK=%s numbers GPUs in Level Zero's driver order, which Vulkan does "
			         "not share (ZE_ENABLE_PCI_ID_DEVICE_ORDER=1 would make it PCI order)", ze);
			return -1;
		}
		return ze_list(e, n, ze, list, len, why, wlen);
	}
	return 0;
}
