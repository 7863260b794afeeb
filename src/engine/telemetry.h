/* telemetry: clocks, power and temperature where the system exposes them.
 * Optional at run time: each source is tried in turn and loaded only if
 * present (NVML through dlopen, sysfs, procfs); every field carries a valid
 * bit and absent ones read N/A. A thread of its own samples the source every
 * few milliseconds and publishes the newest reading, so a slow call (NVML
 * takes up to milliseconds) never sits on the measured path: the engine only
 * copies the latest snapshot. */
#ifndef FLOPSCOPE_TELEMETRY_H
#define FLOPSCOPE_TELEMETRY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "devinfo.h"

#include "peak.h"
#include "sample.h" /* TelField */

typedef struct TelReading {
	double v[TEL_FIELD_COUNT];
	uint32_t valid;   /* bit per TelField */
} TelReading;

static inline bool tel_has(const TelReading *r, TelField f)
{
	return r->valid & (1u << f);
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
};

typedef struct Telemetry {
	TelSource src;
	bool active;
	pthread_t thread;
	bool thread_started;
	_Atomic bool stop;
	unsigned period_ms;
	pthread_mutex_t mu;               /* held only to copy `latest` */
	TelReading latest;
	_Atomic uint64_t reads;
	_Atomic uint64_t read_ns;         /* total time spent reading */
	char note[1024];                  /* which source, or why none */
} Telemetry;

/* Finds a source for the device; false (note says why) when none. */
bool telemetry_open(Telemetry *t, const DeviceInfo *d);
bool telemetry_start(Telemetry *t, unsigned period_ms);
/* The newest reading (valid = 0 before the first). */
void telemetry_latest(Telemetry *t, TelReading *out);
/* Mean cost of one read, microseconds. */
double telemetry_read_us(Telemetry *t);
void telemetry_close(Telemetry *t);

/* Host <-> device transfers: the peak of the PCIe link the device sits on
 * (sysfs's current_link_speed and current_link_width); p->how says why
 * not when unknown. */
void telemetry_pcie_peak(const DeviceInfo *d, Peak *p);

#endif
