#include "devlist.h"

#include <stddef.h>

#include "columns.h"
#include "records.h"

/* One entry, as its columns read it. */
typedef struct ListRow {
	RowIdentity id;
	const char *device_type, *driver_name, *driver_info, *driver_version, *api_version;
	double vendor_id, device_id, queue_family;
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
};
#undef L_
#define LIST_COLS (sizeof list_cols / sizeof *list_cols)

static void list_row(ListRow *r, const DeviceInfo *d, size_t entry)
{
	devinfo_driver_version_str(d, r->drv, sizeof r->drv);
	devinfo_version_str(d->api_version, r->api, sizeof r->api);
	r->id = (RowIdentity){ d, entry };
	r->device_type = devinfo_type_str(d->type);
	r->driver_name = d->driver_name;
	r->driver_info = d->driver_info;
	r->driver_version = r->drv;
	r->api_version = r->api;
	r->vendor_id = d->vendor_id;
	r->device_id = d->device_id;
	r->queue_family = d->queue_family;
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
