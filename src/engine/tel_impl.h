/* tel_impl: what the telemetry sources share; only telemetry files include it. */
#ifndef FLOPSCOPE_TEL_IMPL_H
#define FLOPSCOPE_TEL_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "procfs.h"
#include "tel_source.h"

/* sysfs.c: the root of sysfs (FLOPSCOPE_SYSFS_ROOT in tests, else /sys) */
const char *sysfs_root(void);
/* The other processes that hold a DRM client of the device at PCI address
 * pdev ("0000:03:00.0"), from every process's fdinfo files (as nvtop reads
 * them): each with its memory and, against prev (the last scan's clients,
 * updated), its engines' busy share since; false where /proc cannot be
 * read. */
typedef struct DrmSeen {
	unsigned pid;
	unsigned long long id;
	double engine_ns, t;
} DrmSeen;
#define DRM_SEEN_MAX 64
bool sysfs_drm_procs(const char *pdev, ProcTable *out, DrmSeen *prev, size_t *nprev);
/* a file holding one number */
bool sysfs_read_num(const char *path, double *v);
/* the current level of a DPM clock table ("1: 1500Mhz *") */
bool sysfs_read_dpm(const char *path, double *mhz);
/* the DRM card of a device, matched by its PCI address */
bool sysfs_find_card(const DeviceInfo *d, char *dev, size_t len, char *card, size_t clen, char *why, size_t wlen);
/* the first path a glob pattern matches */
bool sysfs_first_glob(const char *pattern, char *out, size_t len);
/* a file's first line, without its newline; false when unreadable */
bool sysfs_read_line(const char *path, char *out, size_t len);

/* the sources, each with the devices it serves (tel_registry.c lists them) */
extern const TelDriver tel_nvml_driver, tel_gpu_sysfs_driver, tel_cpu_driver;

#endif
