/* node: several devices at once on one screen: a panel per device
 * (throughput on one scale for all, the headline figure, clock, power,
 * state), the combined table (median, % of peak, % of its identical peers'
 * median, checks, level changes, status) with the outlier rule, and a key
 * to zoom one device to the full dashboard. Reads SampleSources only. */
#ifndef FLOPSCOPE_NODE_H
#define FLOPSCOPE_NODE_H

#include <stdbool.h>
#include <stddef.h>

#include "dashboard.h"
#include "screen.h"
#include "source.h"

/* A burn's view (flopscope --burn on a terminal), filled by the burn as
 * its windows close: a line for the header (the window, the time left) and
 * each device's verdict so far in the table's status column. */
typedef struct NodeBurnDev {
	char text[48];        /* "window 3: PASS", "FAIL (window 2: DRIFT)" */
	int severity;         /* 0 pass, 1 a warning or unsure, 2 failed */
} NodeBurnDev;
typedef struct NodeBurn {
	char header[160];
	size_t devices;       /* the burn's devices (its rows: a device's workloads taking turns each a row); 0: a row each */
	char what[64];        /* its workloads ("power, copy"); "": the first row's */
	NodeBurnDev dev[NODE_MAX];
} NodeBurn;

typedef struct NodeOptions {
	unsigned fps;
	double outlier_pct;   /* the outlier rule's threshold, % */
	bool whole;           /* a zoomed device: the whole run on its time axis */
	/* a burn's (NULL: a measuring run's): the keys that change a run (pause,
	 * restart, target, workload, devices, a device in full) are refused,
	 * since a burn runs as planned; the view leaves by itself (DASH_DONE)
	 * when every run has ended */
	const NodeBurn *burn;
} NodeOptions;

/* Shows src[0..n) until the user leaves: DASH_QUIT (q, a signal),
 * DASH_BACK (d: the picker) or DASH_NEXT_WORKLOAD (w); a burn's, DASH_DONE
 * when every run ended. Pausing, restarting
 * and the target apply to every device; a device that fails stops alone.
 * failed[k] is set for each device that stopped with an error. The sources
 * are stopped on leaving. */
DashExit node_run(Screen *s, SampleSource *src, size_t n, const NodeOptions *opt, bool *failed);

#endif
