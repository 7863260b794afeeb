#include "devlist.h"

#include <stddef.h>
#include <string.h>

#include "columns.h"
#include "fmt.h"
#include "outputs.h"
#include "workload.h"
#include "records.h"
#include "check_impl.h"
#include "inventory.h"
#include <math.h>

/* One entry, as its columns read it. */
typedef struct ListRow {
	RowIdentity id;
	const char *device_type, *driver_name, *driver_info, *driver_version, *api_version;
	double vendor_id, device_id, queue_family;
	const char *state, *why; /* CSV: "visible", or "missing" and its likeliest cause */
	char drv[64], api[32];
} ListRow;

#define L_(f) offsetof(ListRow, f)
static const Column list_cols[] = {
	{ "identity", "", COL_IDENTITY, L_(id), NULL },
	{ "device_type", "device_type", COL_STRING, L_(device_type), NULL },
	{ "vendor_id", "vendor_id", COL_NUMBER, L_(vendor_id), "%.0f" },
	{ "device_id", "device_id", COL_NUMBER, L_(device_id), "%.0f" },
	{ "driver_name", "driver_name", COL_STRING, L_(driver_name), NULL },
	{ "driver_info", "driver_info", COL_STRING, L_(driver_info), NULL },
	{ "driver_version", "driver_version", COL_STRING, L_(driver_version), NULL },
	{ "api_version", "api_version", COL_STRING, L_(api_version), NULL },
	{ "queue_family", "queue_family", COL_NUMBER, L_(queue_family), "%.0f" },
	/* JSON gives a GPU Vulkan does not show a record of its own (device_missing) */
	{ NULL, "state", COL_TEXT, L_(state), NULL },
	{ NULL, "why", COL_QUOTED, L_(why), NULL },
};
#undef L_
#define LIST_COLS (sizeof list_cols / sizeof *list_cols)

static void list_row(ListRow *r, const DeviceInfo *d, size_t entry)
{
	devinfo_driver_version_str(d, r->drv, sizeof r->drv);
	devinfo_version_str(d->api_version, r->api, sizeof r->api);
	r->id = (RowIdentity){ .dev = d, .entry = entry };
	r->device_type = devinfo_type_str(d->type);
	r->driver_name = d->driver_name;
	r->driver_info = d->driver_info;
	r->driver_version = r->drv;
	r->api_version = r->api;
	r->vendor_id = d->vendor_id;
	r->device_id = d->device_id;
	r->queue_family = d->queue_family;
	r->state = "visible";
	r->why = "";
}

bool devlist_print_missing(FILE *f, const MissingGpu *m, OutFormat format)
{
	if (format == FORMAT_JSON) {
		missing_print(FORMAT_JSON, m, "device_missing");
		return !ferror(f);
	}
	ListRow r = { .id = { .missing = m }, .device_type = "", .driver_name = "", .driver_info = "",
	              .driver_version = "", .api_version = "", .vendor_id = NAN, .device_id = NAN,
	              .queue_family = NAN, .state = "missing", .why = m->why };
	return columns_csv(f, list_cols, LIST_COLS, &r);
}

bool devlist_print(FILE *f, const DeviceList *l, OutFormat format)
{
	if (format == FORMAT_CSV)
		columns_csv_header(f, list_cols, LIST_COLS);
	for (size_t i = 0; i < l->count; i++) {
		ListRow r;
		list_row(&r, &l->entries[i], i + 1);
		bool ok = format == FORMAT_CSV ? columns_csv(f, list_cols, LIST_COLS, &r)
		                               : json_line(f, columns_json("device", list_cols, LIST_COLS, &r));
		if (!ok)
			return false;
	}
	return !ferror(f);
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

int devlist_workloads(FILE *f, const DeviceInfo *d, size_t entry, OutFormat format)
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
		WorkloadLine l = { wi->name, workload_unit_names[wi->unit], workload_kind_names[wi->kind], ok ? "yes" : "no", wi->what,
		                   ok ? NULL : why, ok, { .dev = d, .entry = entry } };
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
