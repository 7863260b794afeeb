/* dashboard: the live screen of one engine run. */
#ifndef FLOPSCOPE_DASHBOARD_H
#define FLOPSCOPE_DASHBOARD_H

#include "engine.h"
#include "report.h"
#include "screen.h"

typedef enum DashExit {
	DASH_QUIT,   /* q, or a signal */
	DASH_BACK,   /* d: back to the picker */
} DashExit;

/* Starts the engine and shows it until the user leaves, redrawing at most fps
 * times a second and only when something changed. *failed is set when the
 * engine stopped with an error (shown on screen); *summary receives the
 * statistics of the run. */
DashExit dashboard_run(Screen *s, Engine *e, unsigned fps, bool *failed, SummaryResult *summary);

#endif
