/* listing: the device list as the tutorial prints it, and --list --verbose. */
#ifndef FLOPSCOPE_LISTING_H
#define FLOPSCOPE_LISTING_H

#include <stdbool.h>
#include <stdio.h>

#include "devinfo.h"

/* "   N: name (compute queue: F, type: T)" */
void listing_entry(const DeviceInfo *d, size_t number, char *buf, size_t len);
void listing_print(FILE *f, const DeviceList *l, bool verbose);

/* What names a device in every machine-readable record (suite rows, check
 * records, the list): "entry" (its 1-based place in the list), "gpu"
 * (NVML's index, nvidia-smi's; null where NVML does not know it), "device"
 * (its name), "driver" (devinfo_driver_str), "uuid", "pci_bus_id" (null without one), "host",
 * "flopscope" (the version) and "schema" (FLOPSCOPE_SCHEMA_VERSION). o is a cJSON object. */
struct cJSON;
void listing_identity_json(struct cJSON *o, const DeviceInfo *d, size_t entry);
/* ... of a device a session log recorded (a replay): its name, driver,
 * UUID, address and host as the log has them; NVML's index unknown (null). */
struct SessionMeta;
void listing_identity_json_meta(struct cJSON *o, const struct SessionMeta *m, size_t entry);
/* The same as CSV columns, after a comma-led header part
 * (LISTING_IDENTITY_CSV): each field quoted as RFC 4180 says. */
#define LISTING_IDENTITY_CSV "entry,gpu,device,driver,uuid,pci_bus_id,host,flopscope"
void listing_identity_csv(FILE *f, const DeviceInfo *d, size_t entry);
/* ... of a GPU Vulkan does not show: no entry, no driver; gpu -1: none. */
void listing_identity_csv_missing(FILE *f, int gpu, const char *name, const char *uuid, const char *pci);
/* One CSV field, quoted (RFC 4180: "" for a quote). */
void listing_csv_field(FILE *f, const char *s);
/* The --verbose facts of one entry, indented lines. */
void listing_details(FILE *f, const DeviceInfo *d);

#endif
