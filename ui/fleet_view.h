/* fleet_view: --fleet on a terminal: the fleet's rows (core/fleet.h) as a
 * table grouped by host, read again every few seconds, sorted and filtered
 * by keys; the rows come from the caller's fetch (app/fleet_cmd.c reads
 * Prometheus). */
#ifndef FLOPSCOPE_FLEET_VIEW_H
#define FLOPSCOPE_FLEET_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet.h"
#include "screen.h"

/* The fleet's rows now (*rows malloc'd, the caller's to free); false with
 * why (nothing read). warn: a partial answer's warning, "" none. */
typedef bool (*FleetFetch)(void *ctx, FleetRow **rows, size_t *n, char *why, size_t len, char *warn, size_t wlen);

typedef struct FleetViewOptions {
	const char *source;    /* shown in the header: the server's URL */
	double every_s;        /* read again this often */
	double outlier_pct;
	unsigned fps;
} FleetViewOptions;

void fleet_view_run(Screen *s, FleetFetch fetch, void *ctx, const FleetViewOptions *o);

#endif
