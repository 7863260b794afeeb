/* dashboard: the live screen of one run, fed by a source: the engine (live)
 * or a recorded session log (replay). */
#ifndef FLOPSCOPE_DASHBOARD_H
#define FLOPSCOPE_DASHBOARD_H

#include "history.h"
#include "source.h"
#include "summary.h"
#include "screen.h"

typedef enum DashExit {
	DASH_QUIT,   /* q, or a signal */
	DASH_BACK,   /* d: back to the picker (zoomed: d or Esc, back to all devices) */
	DASH_NEXT_WORKLOAD, /* w: the same device, the next workload */
	DASH_DONE,   /* every run ended: a burn's view leaves by itself */
} DashExit;

typedef struct DashOptions {
	unsigned fps;
	bool whole;          /* the whole run on the time axis from the start (z) */
	/* Zoomed from the node view (several devices): the device's history
	 * so far, shown and extended, and handed back on leaving; the source is
	 * not stopped then. NULL: a run of its own. (The statistics are the
	 * source's: nothing to hand over.) */
	History *history;
	/* Called every turn of the loop (the node view takes the other
	 * devices' samples meanwhile); false: back to the node view (a burn
	 * that has ended); NULL: none. */
	bool (*idle)(void *ctx);
	void *idle_ctx;
	/* A run that goes as planned (a burn's device in full): the keys that
	 * would change it (pause, restart, the target, a workload, the device
	 * list) are refused with this message. NULL: all offered. */
	const char *locked;
	/* S: saves the settings shown (theme, target, window) as the defaults;
	 * msg says where or why not. NULL: not offered. */
	bool (*save)(void *ctx, const char *theme, double target_ms, bool whole, char *msg, size_t len);
	void *save_ctx;
} DashOptions;

/* Shows the source until the user leaves, redrawing at most opt->fps times
 * a second and only when something changed. *failed is set when the source
 * stopped with an error (shown on screen); *summary receives the source's
 * statistics as they are when it is left. */
DashExit dashboard_run(Screen *s, SampleSource *src, const DashOptions *opt, bool *failed, SummaryResult *summary);

#endif
