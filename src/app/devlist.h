/* devlist: --list's machine-readable records, one table of columns: a JSON
 * Lines record or a CSV line an entry, named as the session log's session
 * record names the same facts. */
#ifndef FLOPSCOPE_DEVLIST_H
#define FLOPSCOPE_DEVLIST_H

#include <stdbool.h>
#include <stdio.h>

#include "devinfo.h"
#include "options.h"

/* The entries of l in format (FORMAT_JSON or FORMAT_CSV, with its header);
 * false when f failed. */
bool devlist_print(FILE *f, const DeviceList *l, OutFormat format);
/* A GPU of the host that Vulkan does not show (the inventory's): a
 * device_missing record (JSON) or a row of state missing with why (CSV, under
 * devlist_print's header); false when f failed. */
struct MissingGpu;
bool devlist_print_missing(FILE *f, const struct MissingGpu *m, OutFormat format);

/* --list-workloads: every workload, whether the entry d (number entry) can
 * run it and why not; as the table, CSV or JSON Lines (a "workload" record
 * each, docs/schema/workloads.schema.json). 0, or 1 when f failed. */
int devlist_workloads(FILE *f, const DeviceInfo *d, size_t entry, OutFormat format);

#endif
