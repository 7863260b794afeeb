/* fleet_read: Prometheus' answers to --fleet's queries (each a
 * data.result array, as cJSON) made into the fleet's rows, one a GPU and
 * workload (fleet.h), found by host, UUID and workload through two open-
 * addressing indexes; no network (fleet_cmd.c asks), so that a hostile
 * server's answers can be fuzzed (tests/fuzz/fuzz_fleet.c). */
#ifndef FLOPSCOPE_FLEET_READ_H
#define FLOPSCOPE_FLEET_READ_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "fleet.h"

#define FLEET_MAX_ROWS 65536

typedef struct Fleet {
	FleetRow *rows;
	size_t n, cap;
	bool full;            /* FLEET_MAX_ROWS reached, or out of memory: rows left out */
	/* two indexes of open addressing (SIZE_MAX: empty), rebuilt as the
	 * rows grow: a row by host, UUID and workload, a GPU's first row by
	 * host and UUID (a fleet's thousands of series each find theirs at once) */
	size_t *by_row, *by_gpu, nslot;
} Fleet;

/* What each query fills. */
typedef enum Fill { F_INFO, F_MEDIAN, F_NOISE, F_STATUS, F_CAUSE, F_MISSING, F_POWER, F_CLOCK, F_TEMP } Fill;

/* One answer's series into f (readings: power, clock and temperature by
 * host and UUID, into readings), each value times scale. */
void fleet_read_fill(Fleet *f, Fleet *readings, Fill what, const cJSON *res, double scale);
/* Each row's readings: flopscope's of its host and GPU, else dcgm-exporter's
 * of its GPU. */
void fleet_read_join(Fleet *f, Fleet *readings);
/* A GPU's row of no workload left out where it has rows of workloads. */
void fleet_read_drop_device_rows(Fleet *f);
/* The indexes freed (the rows stay, the caller's). */
void fleet_read_free_index(Fleet *f);

#endif
