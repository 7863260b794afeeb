/* tel_source: what a telemetry source is, and the registry of them. The
 * leaf of the telemetry files: a source includes this (through tel_impl.h),
 * never the dispatcher's telemetry.h; the dispatcher walks tel_drivers and
 * names no vendor. */
#ifndef FLOPSCOPE_TEL_SOURCE_H
#define FLOPSCOPE_TEL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devinfo.h"
#include "procs.h"
#include "sample.h" /* TelField */

typedef struct TelReading {
	double v[TEL_FIELD_COUNT];
	uint32_t valid;   /* bit per TelField */
	char who[128];    /* with TEL_OTHER_GPU: those processes ("4711 flopscope, ..."); "" none */
	ProcTable procs;  /* ... each as the process pane shows it */
} TelReading;

static inline bool tel_has(const TelReading *r, TelField f)
{
	return r->valid & (1u << f);
}

/* f read as v */
static inline void tel_set(TelReading *r, TelField f, double v)
{
	if (!tel_plausible(f, v)) /* a reading the hardware cannot give is none (tel_rows.h) */
		return;
	r->v[f] = v;
	r->valid |= 1u << f;
}

typedef struct TelSource TelSource;
struct TelSource {
	const char *name;                 /* "nvml", "cpu", ... */
	bool (*read)(TelSource *s, TelReading *out);
	void (*close)(TelSource *s);
	void *state;
	double max_mhz;                   /* highest clock, 0 if unknown */
	double mem_max_mhz;               /* highest memory clock, 0 if unknown */
	unsigned mem_bus_bits;            /* memory bus width, 0 if unknown */
	bool no_context;                  /* set before open: this process holds no context on the
	                                     device (--watch), so its absence from the device's
	                                     process list says nothing of PID namespaces */
};

/* A kind of source: which devices it serves and how it opens. open fills s
 * and says which source it is in note, or why not (false). may_serve
 * (NULL: none): devices it serves only where it opens and reads (NVML for a
 * device whose UUID it lists, whatever Vulkan's vendor); where it does not,
 * the next source is tried, its reason not said. */
typedef struct TelDriver {
	const char *name;
	bool (*serves)(const DeviceInfo *d);
	bool (*open)(TelSource *s, const DeviceInfo *d, char *note, size_t len);
	bool (*may_serve)(const DeviceInfo *d);
} TelDriver;

/* The registry, in the order the dispatcher tries them (tel_registry.c);
 * NULL-terminated. */
extern const TelDriver *const tel_drivers[];

#endif
