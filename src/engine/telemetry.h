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
#include "tel_source.h"

#define TEL_PCIE_VALUES 5 /* telemetry_pcie_link's values */

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
	/* the PCIe link, whatever the source (sysfs, every vendor): its folder
	 * ("" none: a CPU device, no PCI address), read every 250 ms */
	char pcie_dir[512];
	double pcie[TEL_PCIE_VALUES];                   /* TEL_PCIE_GTS ... TEL_PCIE_REPLAYS; NaN unknown */
	uint64_t pcie_ns;                 /* when last read */
} Telemetry;

/* Opens the first source of the registry (tel_drivers) that takes the
 * device; false (note says why) when none. */
bool telemetry_open(Telemetry *t, const DeviceInfo *d);
/* The same for a process that holds no context on the device (--watch,
 * the load-free exporter): the device's processes are all others. */
bool telemetry_open_watch(Telemetry *t, const DeviceInfo *d);
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
/* The sysfs folder of the device's PCI function into dir; false for a CPU
 * device or one without a PCI address. */
bool telemetry_pcie_dir(const DeviceInfo *d, char *dir, size_t len);
/* The link now and at most under dir (tel[0..5): TEL_PCIE_GTS,
 * TEL_PCIE_WIDTH, TEL_PCIE_MAX_GTS, TEL_PCIE_MAX_WIDTH, and TEL_PCIE_REPLAYS
 * where the driver counts them there (amdgpu's pcie_replay_count); NaN
 * where not understood). */
void telemetry_pcie_link(const char *dir, double tel[TEL_PCIE_VALUES]);

#endif
