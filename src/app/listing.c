#include "listing.h"
#include "fmt.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "columns.h"
#include "options.h"
#include "outputs.h"
#include "slog.h"
#include "workload.h"
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

void listing_csv_field(FILE *f, const char *s)
{
	char q[4096];
	size_t at = 0;
	fmt_csv_field(s, q, sizeof q, &at);
	fputs(q, f);
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

#define W_(f) offsetof(WorkloadLine, f)
/* a workload as a record: its table row's facts and this device's answer */
typedef struct WorkloadLine {
	const char *name, *unit, *kind, *supported, *what, *why;
	bool ok;
	RowIdentity id;
} WorkloadLine;
static const Column workload_cols[] = {
	{ "name", "workload", COL_TEXT, W_(name), NULL },
	{ "unit", "unit", COL_TEXT, W_(unit), NULL },
	{ "kind", "kind", COL_TEXT, W_(kind), NULL },
	{ "supported", NULL, COL_BOOL, W_(ok), NULL },
	{ NULL, "supported", COL_TEXT, W_(supported), NULL },
	{ "what", "what", COL_QUOTED, W_(what), NULL },
	{ "why", "why", COL_QUOTED, W_(why), NULL },
	{ "identity", "identity", COL_IDENTITY, W_(id), NULL },
};
#undef W_
#define NCOLS(c) (sizeof (c) / sizeof *(c))

/* A workload kind as records name it. */
static const char *kind_name(WorkloadKind k)
{
	static const char *const names[] = { [WL_FMA] = "arithmetic", [WL_COPY] = "copy", [WL_TRANSFER] = "transfer",
		                                 [WL_POWER] = "power" };
	return (size_t)k < sizeof names / sizeof *names && names[k] ? names[k] : "other";
}

int listing_workloads(FILE *f, const DeviceInfo *d, size_t entry, int format)
{
	if (format == FORMAT_TABLE)
		fprintf(f, "Workloads on %s (compute queue: %u):\n", d->name, d->queue_family);
	else if (format == FORMAT_CSV)
		columns_csv_header(f, workload_cols, NCOLS(workload_cols));
	int nw = 0;
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++)
		if ((int)strlen(workload_info[w].name) > nw)
			nw = (int)strlen(workload_info[w].name);
	WorkloadFeatures feat = devinfo_features(d);
	char prev[256] = "";
	bool out = true;
	for (int w = 0; w < WORKLOAD_TYPE_COUNT && out; w++) {
		const WorkloadInfo *wi = &workload_info[w];
		char why[256];
		bool ok = workload_supported((WorkloadType)w, feat, why, sizeof why);
		WorkloadLine l = { wi->name, workload_unit_names[wi->unit], kind_name(wi->kind), ok ? "yes" : "no", wi->what,
		                   ok ? NULL : why, ok, { d, entry } };
		if (format == FORMAT_JSON) {
			out = json_line(f, columns_json("workload", workload_cols, NCOLS(workload_cols), &l));
		} else if (format == FORMAT_CSV) {
			out = columns_csv(f, workload_cols, NCOLS(workload_cols), &l);
		} else {
			const char *shown = fmt_as_above(ok ? NULL : why, prev, sizeof prev);
			out = fprintf(f, "  %-*s %-5s  %-12s %s\n", nw, wi->name, l.unit, ok ? "supported" : "unsupported",
			              ok ? wi->what : shown) >= 0;
		}
	}
	return out && fflush(f) == 0 ? 0 : 1;
}
