/* dashboard: the live screen of one engine run. */
#ifndef FLOPSCOPE_DASHBOARD_H
#define FLOPSCOPE_DASHBOARD_H

#include "engine.h"
#include "screen.h"

typedef enum DashExit {
	DASH_QUIT,   /* q, or a signal */
	DASH_BACK,   /* d: back to the picker */
} DashExit;

/* Starts the engine and shows it until the user leaves. *failed is set when
 * the engine stopped with an error (shown on screen). */
DashExit dashboard_run(Screen *s, Engine *e, bool *failed);

#endif
