/* tel_pcie: the PCIe link a device sits on, from sysfs: the peak of host <->
 * device transfers. */
#include "telemetry.h"
#include "tel_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

bool telemetry_pcie_dir(const DeviceInfo *d, char *dir, size_t len)
{
	if (d->type == DEV_CPU || !d->has_pci)
		return false;
	char slot[DEVINFO_PCI_LEN];
	devinfo_pci_slot(d, slot, sizeof slot);
	snprintf(dir, len, "%s/bus/pci/devices/%s", sysfs_root(), slot);
	return true;
}

void telemetry_pcie_link(const char *dir, double tel[TEL_PCIE_VALUES])
{
	static const char *const files[2][2] = { { "current_link_speed", "current_link_width" },
		                                     { "max_link_speed", "max_link_width" } };
	for (int k = 0; k < 2; k++) {
		char path[700], speed[64] = "", width[16] = "";
		snprintf(path, sizeof path, "%s/%s", dir, files[k][0]);
		sysfs_read_line(path, speed, sizeof speed);
		snprintf(path, sizeof path, "%s/%s", dir, files[k][1]);
		sysfs_read_line(path, width, sizeof width);
		double gts;
		unsigned lanes;
		bool ok = pcie_link_parse(speed, width, &gts, &lanes);
		tel[2 * k] = ok ? gts : NAN;
		tel[2 * k + 1] = ok ? lanes : NAN;
	}
	/* amdgpu's count of the link's replays (NVIDIA's: NVML) */
	char path[700], count[32] = "", *end;
	snprintf(path, sizeof path, "%s/pcie_replay_count", dir);
	tel[4] = NAN;
	if (sysfs_read_line(path, count, sizeof count) && count[0]) {
		/* a count: a whole number a 64-bit counter holds ("1e400" read as inf) */
		double v = strtod(count, &end);
		if (end != count && !*end && v >= 0 && v < 18446744073709551616.0 && v == floor(v))
			tel[4] = v;
	}
}

void telemetry_pcie_peak(const DeviceInfo *d, Peak *p)
{
	char dir[512], path[600], speed[64], width[16];
	if (!telemetry_pcie_dir(d, dir, sizeof dir)) {
		snprintf(p->how, sizeof p->how, "unknown: %s", d->type == DEV_CPU
		         ? "a CPU device shares the host's memory" : "no PCI address (VK_EXT_pci_bus_info)");
		return;
	}
	snprintf(path, sizeof path, "%s/current_link_speed", dir);
	sysfs_read_line(path, speed, sizeof speed);
	snprintf(path, sizeof path, "%s/current_link_width", dir);
	sysfs_read_line(path, width, sizeof width);
	peak_pcie(speed, width, p);
}
