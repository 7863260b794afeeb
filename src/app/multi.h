/* multi: several devices (or one entry several times) at once, headless. */
#ifndef FLOPSCOPE_MULTI_H
#define FLOPSCOPE_MULTI_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "engine.h"

/* The exit status when the outlier rule names a device. */
#define MULTI_EXIT_OUTLIER STATUS_OUTLIER

/* One device's row of the combined table, as a run ended. */
typedef struct DeviceRow {
	const char *name;
	const SummaryResult *sum;  /* NULL: it never ran */
	uint64_t checks;           /* result checks passed */
	const char *error;         /* why it failed; NULL or "" when it did not */
	double first_ms;           /* its first sample after launch, ms; 0: unknown (a replay) */
	const DeviceInfo *dev;     /* the entry measured, and its number (1-based); NULL: a replay */
	size_t entry;
	const struct SessionMeta *meta; /* a replay: the device as its log recorded it */
} DeviceRow;

/* Applies the outlier rule (pct) to the rows and prints the table: a row
 * per device and the rule's verdict as text to f, or JSON Lines
 * (device_summary objects, then a node object) when json. host_shared:
 * the devices ran a host transfer at once (each figure a share of the
 * host: said, with the sum). Returns the number of outliers. */
size_t multi_print_table(FILE *f, bool json, const DeviceRow *rows, size_t n, const char *unit, double pct,
                         bool host_shared);

struct VkCtx;
struct MetricsOut; /* metrics_live.h: NULL or no board: no metrics */
/* One engine per entry idx[0..n) (entries may repeat), all at once; their
 * samples as they come (CSV and JSON carry the device's number), then a row
 * per device and the outlier rule (--outlier). Exit 0, 1 when a device
 * failed (the others go on), MULTI_EXIT_OUTLIER when one is an outlier. */
int multi_run(const struct VkCtx *ctx, const Options *o, const int *idx, size_t n, WorkloadType wl,
              uint64_t launch, struct MetricsOut *mo, atomic_int *quit);

#endif
