/* metrics: flopscope's figures in the Prometheus text exposition format
 * (version 0.0.4, what node_exporter's textfile collector and every
 * Prometheus scrape read). Pure: plain rows in, text out.
 *
 * Every series names its device with the labels dcgm-exporter gives GPU
 * telemetry, so that the two join without relabelling: gpu (NVML's index,
 * where NVML knows the device), UUID (nvidia-smi's "GPU-..." form) and
 * pci_bus_id (where the device has one); a second engine on the same device
 * and workload adds engine="2". The static facts (name, driver, flopscope's
 * entry number) are the labels of one flopscope_device_info series a
 * device. The workload's series add workload; a throughput's unit is in
 * its family's name (_flops, _ops, _bytes_per_second), one unit a family.
 * A figure that is not known is left out, never written as 0. */
#ifndef FLOPSCOPE_METRICS_H
#define FLOPSCOPE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "summary.h"

#include "change.h"
#include "workload.h"

/* The verdict of a --check on one device and workload. */
typedef enum CheckStatus {
	CHECK_NONE = -1,   /* not a check (a live run) */
	CHECK_PASS,        /* held to its threshold, and met it */
	CHECK_FAIL,        /* a threshold missed (or the budget) */
	CHECK_WRONG,       /* a result check failed: the device computed wrong values */
	CHECK_UNSURE,      /* below the threshold, but within what the data can tell */
	CHECK_NOREF,       /* nothing to hold it to (no peak known, no baseline): checks only */
	CHECK_SKIP,        /* the device cannot run the workload */
	CHECK_ERROR,       /* the run failed (not wrong values: a device or driver error) */
	CHECK_OUTLIER,     /* the outlier rule named it among its identical peers */
	CHECK_MISSING,     /* a GPU of the host that Vulkan does not show (engine/inventory.h) */
	CHECK_STATUS_COUNT
} CheckStatus;

/* "pass", "fail", ...: label values and the words the check prints. */
extern const char *const check_status_names[CHECK_STATUS_COUNT];

#define METRICS_REASONS 8 /* at least throttle_reason_count */

typedef struct MetricsRow {
	/* the device */
	unsigned entry;           /* flopscope's entry number, 1-based (in the _info series) */
	bool has_gpu;             /* NVML knows the device: */
	unsigned gpu;             /* its index */
	unsigned engine;          /* one device and workload measured by several engines at
	                             once: its number among them (an "engine" label); 0: alone */
	const char *uuid;         /* "8-4-4-4-12" hex, as devinfo_uuid_str writes it */
	const char *pci_bus_id;   /* "00000000:1B:00.0"; "" none */
	const char *name, *driver;
	bool device_only;         /* the device's readings alone (--watch): no workload, no run */
	/* the workload */
	const char *workload;
	WorkloadUnit unit;
	bool has_now;
	double now;               /* the latest steady sample's rate */
	double median;            /* NaN: none yet */
	double peak_ratio;        /* median / theoretical peak at the clock read; NaN unknown */
	double rated_peak_ratio;  /* median / theoretical peak at the maximum clock; NaN unknown */
	double peer_ratio;        /* median / its identical peers' median; NaN: no peer */
	double duty;              /* GPU busy time / wall time; NaN unknown */
	double noise;             /* the run's noise (SummaryResult's: the 10th-to-90th percentile range of
	                             its 1 s block means over their median); NaN unknown */
	uint64_t samples, checks_passed, checks_failed;
	size_t changes[CAUSE_COUNT]; /* level changes by cause */
	double tel[TEL_FIELD_COUNT]; /* the latest readings, in the fields' units (tel_rows.h: each row
	                             with a .metric is a family); NaN unknown */
	double energy_j;          /* the run's energy so far (summary.h's Energy); NaN: no power reading */
	bool has_reasons;         /* reason bits were read: */
	double clock_reduced_s[METRICS_REASONS]; /* seconds at each of throttle_reasons[] */
	double violation_s[ENERGY_VIOLATIONS]; /* the driver's counts (summary.h's order); NaN: none */
	/* a --check's verdict (CHECK_NONE in a live run) */
	CheckStatus check;
	double check_ratio;       /* the figure held to the threshold: of the peak or the
	                             baseline; NaN when none */
	double check_threshold;   /* the threshold as a ratio; NaN when none */
	const char *check_reference; /* "peak", "baseline" or "" */
	uint64_t check_codes;     /* the verdict's causes: bit 1 << VC_x (verdict.h) */
	double shared_median;     /* a transfer's median while every device checked ran it at
	                             once (each link was measured alone for the verdict): the
	                             host's share, held to no threshold; NaN: not measured so */
} MetricsRow;

/* A GPU of the host that no Vulkan device is (engine/inventory.h), and
 * the host's count of them beside the GPUs Vulkan shows: a check's. */
typedef struct MetricsMissingGpu {
	int gpu;                  /* NVML's index; -1 none */
	const char *uuid;         /* NVML's "GPU-..."; "" unknown */
	const char *pci_bus_id;   /* "00000000:1B:00.0"; "" unknown */
	const char *name;
} MetricsMissingGpu;

typedef struct MetricsGpus {
	size_t visible;           /* the GPUs Vulkan shows */
	const MetricsMissingGpu *missing;
	size_t nmissing;
} MetricsGpus;

/* A row with every figure unknown and no check: fill what is known. */
void metrics_row_init(MetricsRow *r);

/* The exposition of rows[0..n): every metric family once, with HELP and
 * TYPE, its series grouped under it. check_duration_s and exit_code
 * describe a whole check (NaN / -1: not a check). Returns a malloc'd
 * string, NULL when memory ran out. */
char *metrics_render(const MetricsRow *rows, size_t n, const char *version, double check_duration_s,
                     int exit_code);
/* The same with the host's GPUs as a check's inventory counted them
 * (flopscope_gpus{state}, a flopscope_gpu_missing series a GPU Vulkan does
 * not show); gpus NULL: not taken. */
char *metrics_render_host(const MetricsRow *rows, size_t n, const char *version, double check_duration_s,
                          int exit_code, const MetricsGpus *gpus);

/* The family name's unit suffix of a throughput in unit u: "flops", "ops",
 * "bytes_per_second". */
extern const char *const metrics_unit_suffix[UNIT_COUNT];

/* A label value escaped as the format wants (\\, \" and \n) into out;
 * false when it did not fit (out then holds a truncated, valid value). */
bool metrics_escape(const char *value, char *out, size_t len);

#endif
