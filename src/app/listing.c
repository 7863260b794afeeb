#include "listing.h"
#include "fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "slog.h"
#include "telemetry.h"
#include "version.h"

void listing_entry(const DeviceInfo *d, size_t number, char *buf, size_t len)
{
	snprintf(buf, len, "%4zu: %s (compute queue: %u, type: %s)", number, d->name,
	         d->queue_family, devinfo_type_str(d->type));
}

void listing_details(FILE *f, const DeviceInfo *d)
{
	char text[4096];
	devinfo_details(d, text, sizeof text);
	fputs(text, f);
	/* the PCIe link, now (a GPU at rest may have trained down: the check
	 * reads it under load) and at most */
	char dir[512];
	double l[TEL_PCIE_VALUES];
	if (!telemetry_pcie_dir(d, dir, sizeof dir))
		return;
	telemetry_pcie_link(dir, l);
	char now[32] = "unknown", max[32] = "unknown", replays[80] = "";
	if (l[0] > 0)
		pcie_link_str(l[0], l[1], now, sizeof now);
	if (l[2] > 0)
		pcie_link_str(l[2], l[3], max, sizeof max);
	/* its replays: the driver's telemetry (NVML) read once, else sysfs's */
	Telemetry t;
	TelReading r;
	bool opened = telemetry_open(&t, d);
	if (opened && t.src.read(&t.src, &r) && tel_has(&r, TEL_PCIE_REPLAYS))
		l[4] = r.v[TEL_PCIE_REPLAYS];
	telemetry_close(&t); /* also after a failed open, which made its lock */
	if (!isnan(l[4]))
		snprintf(replays, sizeof replays, ", %.0f replays since the driver started", l[4]);
	fprintf(f, "      PCIe link: %s now, %s at most%s\n", now, max, replays);
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

/* The host's name, read once. */
static const char *host_name(void)
{
	static char host[128]; /* as SessionMeta.host */
	if (!host[0])
		slog_host_name(host, sizeof host);
	return host;
}

void listing_identity_json(cJSON *o, const DeviceInfo *d, size_t entry)
{
	char uuid[40], pci[DEVINFO_PCI_LEN];
	devinfo_uuid_str(d->uuid, uuid, sizeof uuid);
	devinfo_pci_str(d, pci, sizeof pci);
	cJSON_AddNumberToObject(o, "entry", (double)entry);
	if (d->has_gpu_index)
		cJSON_AddNumberToObject(o, "gpu", d->gpu_index);
	else
		cJSON_AddNullToObject(o, "gpu");
	char driver[DEVINFO_DRIVER_STR_LEN];
	devinfo_driver_str(d, driver, sizeof driver);
	cJSON_AddStringToObject(o, "device", d->name);
	cJSON_AddStringToObject(o, "driver", driver);
	cJSON_AddStringToObject(o, "uuid", uuid);
	if (pci[0])
		cJSON_AddStringToObject(o, "pci_bus_id", pci);
	else
		cJSON_AddNullToObject(o, "pci_bus_id");
	cJSON_AddStringToObject(o, "host", host_name());
	cJSON_AddStringToObject(o, "flopscope", FLOPSCOPE_VERSION);
	cJSON_AddNumberToObject(o, "schema", FLOPSCOPE_SCHEMA_VERSION);
}

void listing_identity_json_meta(cJSON *o, const SessionMeta *m, size_t entry)
{
	char driver[600];
	snprintf(driver, sizeof driver, "%s %s", m->driver_name, m->driver_info[0] ? m->driver_info : m->driver_version);
	cJSON_AddNumberToObject(o, "entry", (double)entry);
	cJSON_AddNullToObject(o, "gpu");
	cJSON_AddStringToObject(o, "device", m->device);
	cJSON_AddStringToObject(o, "driver", driver);
	cJSON_AddStringToObject(o, "uuid", m->uuid);
	if (m->pci_bus_id[0])
		cJSON_AddStringToObject(o, "pci_bus_id", m->pci_bus_id);
	else
		cJSON_AddNullToObject(o, "pci_bus_id");
	cJSON_AddStringToObject(o, "host", m->host);
	cJSON_AddStringToObject(o, "flopscope", FLOPSCOPE_VERSION);
	cJSON_AddNumberToObject(o, "schema", FLOPSCOPE_SCHEMA_VERSION);
}

void listing_csv_field(FILE *f, const char *s)
{
	char q[4096];
	size_t at = 0;
	fmt_csv_field(s, q, sizeof q, &at);
	fputs(q, f);
}

void listing_identity_csv_missing(FILE *f, int gpu, const char *name, const char *uuid, const char *pci)
{
	fputc(',', f);
	if (gpu >= 0)
		fprintf(f, "%d", gpu);
	fputc(',', f);
	listing_csv_field(f, name);
	fputs(",,", f);
	listing_csv_field(f, uuid);
	fputc(',', f);
	listing_csv_field(f, pci);
	fputc(',', f);
	listing_csv_field(f, host_name());
	fprintf(f, ",%s", FLOPSCOPE_VERSION);
}

void listing_identity_csv(FILE *f, const DeviceInfo *d, size_t entry)
{
	char uuid[40], pci[DEVINFO_PCI_LEN];
	devinfo_uuid_str(d->uuid, uuid, sizeof uuid);
	devinfo_pci_str(d, pci, sizeof pci);
	char driver[DEVINFO_DRIVER_STR_LEN];
	devinfo_driver_str(d, driver, sizeof driver);
	fprintf(f, "%zu,", entry);
	if (d->has_gpu_index)
		fprintf(f, "%u", d->gpu_index);
	fputc(',', f);
	listing_csv_field(f, d->name);
	fputc(',', f);
	listing_csv_field(f, driver);
	fprintf(f, ",%s,%s,", uuid, pci);
	listing_csv_field(f, host_name());
	fprintf(f, ",%s", FLOPSCOPE_VERSION);
}
