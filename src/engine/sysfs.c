/* sysfs: reading the kernel's device files (FLOPSCOPE_SYSFS_ROOT replaces
 * /sys in tests); every sysfs reader in flopscope goes through these. */
#include "tel_impl.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
				snprintf(link, sizeof link, "PCI_SLOT_NAME=%04x:%02x:%02x.%x", d->pci_domain, d->pci_bus,
				         d->pci_device, d->pci_function);
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
