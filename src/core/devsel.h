/* devsel: choosing one (device, compute queue family) entry, pure.
 * The tutorial's rules: "-N" picks entry N (1-based) of the list; a word picks
 * the entries it names and uses the first, or the N-th of them when both are
 * given. A word names a device by its UUID (as nvidia-smi prints it,
 * "GPU-98c4a1e2-...", or its hex digits alone; a unique prefix of 8 digits
 * or more will do), by its PCI address ("0000:1b:00.0", nvidia-smi's
 * "00000000:1B:00.0", or "1b:00.0"), or else by part of its name,
 * case-insensitively. */
#ifndef FLOPSCOPE_DEVSEL_H
#define FLOPSCOPE_DEVSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devinfo.h"

typedef struct DevselQuery {
	const char *word; /* NULL: no filter */
	unsigned index;   /* 1-based; 0: not given */
} DevselQuery;

/* Index into d[0..n) of the chosen entry, or -1 with a message in err.
 * Without word and index the first entry of the best-ranked type wins
 * (devinfo_type_rank: discrete GPU first). */
int devsel_pick(const DeviceInfo *d, size_t n, const DevselQuery *q, char *err, size_t errlen);

/* What a word names. */
typedef enum DevselKind { DEVSEL_NAME, DEVSEL_UUID, DEVSEL_PCI } DevselKind;
typedef struct DevselWord {
	DevselKind kind;
	char hex[33];          /* DEVSEL_UUID: the digits given, lowercase */
	bool has_domain;       /* DEVSEL_PCI */
	uint32_t domain, bus, device, function;
} DevselWord;
/* A word read: a UUID or a PCI address when it has that form, else a name. */
DevselWord devsel_word(const char *word);

/* Whether entry d is named by word (by its UUID or PCI address when the
 * word has that form, else by part of its name). */
bool devsel_matches(const DeviceInfo *d, const char *word);

/* How GPU indices were tied to devices (their gpu_index): by NVML (by
 * UUID: nvidia-smi's numbers), or where NVML has no GPUs by the DRM render
 * nodes' order (Slurm's GRES order of /dev/dri/renderD*); by is NULL where
 * neither could, why_not saying why. hint: where to see the mapper's list. */
typedef struct GpuMap {
	const char *by, *hint, *why_not;
} GpuMap;

/* A list of GPUs as a scheduler or an admin names them (--gpus,
 * SLURM_JOB_GPUS): comma-separated GPU indices (as nvidia-smi or Slurm number
 * them; ranges like 0-3 too), UUIDs or PCI addresses, each naming one device
 * (the indices through gpu_index, as map tied them). Fills idx[0..cap) with the first entry of each
 * device named, in the list's order, once each; returns how many, or 0
 * with why in err, naming the item and where it came from (from: "--gpus",
 * "SLURM_JOB_GPUS"). */
size_t devsel_gpu_list(const DeviceInfo *d, size_t n, const char *list, const char *from, const GpuMap *map,
                       int *idx, size_t cap, char *err, size_t errlen);

/* Whether list has the form of a list of GPUs (each item an index, a range
 * LOW-HIGH, a UUID or a PCI address), whatever the devices: a malformed
 * one ("garbage", "0,,1", "-1") is bad input, never a map's fault; why in
 * err. */
bool devsel_gpu_list_wellformed(const char *list, const char *from, char *err, size_t errlen);

/* Case-insensitive substring test (ASCII). */
int devsel_contains(const char *hay, const char *needle);

#endif
