/* panel: the dashboard's statistics and power-state panels, drawn from
 * plain structs (the run's statistics, the newest sample, the other
 * processes): no source, no engine. */
#ifndef FLOPSCOPE_PANEL_H
#define FLOPSCOPE_PANEL_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "procs.h"
#include "sample.h"
#include "screen.h"
#include "summary.h"

typedef struct PanelView {
	Screen *s;
	const SummaryResult *stats; /* the run's */
	const Sample *last;         /* the newest sample */
	uint64_t total;             /* samples seen */
	size_t dropped;             /* samples the screen was too slow to take */
	ProcTable procs;            /* the other processes on the device (total 0: none known) */
	const char *dev;            /* the device's title (its name: what comes before " (") */
} PanelView;

/* The statistics at the target time, the other processes, the peak and
 * the loop's figures, in r. */
void panel_stats(const PanelView *v, Rect r);
/* The power-state changes (newest last), the telemetry's first event, the
 * other changes counted and the newest of them, in r. */
void panel_jumps(const PanelView *v, Rect r);

#endif
