/* tel_pcie: the PCIe link a device sits on, from sysfs: the peak of host <->
 * device transfers. */
#include "telemetry.h"
#include "tel_impl.h"

#include <stdio.h>

void telemetry_pcie_peak(const DeviceInfo *d, Peak *p)
{
	if (d->type == DEV_CPU || !d->has_pci) {
		snprintf(p->how, sizeof p->how, "unknown: %s", d->type == DEV_CPU
		         ? "a CPU device shares the host's memory" : "no PCI address (VK_EXT_pci_bus_info)");
		return;
	}
	char dir[512], path[600], speed[64], width[16];
	snprintf(dir, sizeof dir, "%s/bus/pci/devices/%04x:%02x:%02x.%x", sysfs_root(), d->pci_domain, d->pci_bus,
	         d->pci_device, d->pci_function);
	snprintf(path, sizeof path, "%s/current_link_speed", dir);
	sysfs_read_line(path, speed, sizeof speed);
	snprintf(path, sizeof path, "%s/current_link_width", dir);
	sysfs_read_line(path, width, sizeof width);
	peak_pcie(speed, width, p);
}
