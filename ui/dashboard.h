/* dashboard: the live screen of one run, fed by a source: the engine (live)
 * or a recorded session log (replay). */
#ifndef FLOPSCOPE_DASHBOARD_H
#define FLOPSCOPE_DASHBOARD_H

#include "source.h"
#include "summary.h"
#include "screen.h"

typedef enum DashExit {
	DASH_QUIT,   /* q, or a signal */
	DASH_BACK,   /* d: back to the picker */
	DASH_NEXT_WORKLOAD, /* w: the same device, the next workload */
} DashExit;



/* Shows the source until the user leaves, redrawing at most fps times a
 * second and only when something changed. *failed is set when the source
 * stopped with an error (shown on screen); *summary receives the statistics. */
DashExit dashboard_run(Screen *s, SampleSource *src, unsigned fps, bool *failed, SummaryResult *summary);

#endif
