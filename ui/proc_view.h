/* proc_view: the processes on the device, as nvtop shows them (p in the
 * dashboard): pid, user, type (compute, graphics), GPU utilization, GPU
 * memory and command line of every process the driver lists, sorted by
 * any column either way, scrolled, and one ended on request: F9 asks,
 * y sends SIGTERM, and SIGKILL follows after PROC_VIEW_KILL_WAIT_S if it
 * still runs; another user's process is refused unless root, said. The
 * table is the source's (engine telemetry): a plain struct, read here. */
#ifndef FLOPSCOPE_PROC_VIEW_H
#define FLOPSCOPE_PROC_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procs.h"
#include "screen.h"

#define PROC_VIEW_KILL_WAIT_S 3.0

typedef struct ProcView {
	bool open;
	ProcCol col;             /* the sort column */
	bool desc;
	int sel, top;            /* the highlighted row, the first shown */
	unsigned sel_pid;        /* the highlighted process (rows move as they sort) */
	/* the process F9 asked about, held from the question on (its pidfd):
	 * asking, y confirms; then sent SIGTERM, SIGKILL at kill_ns if it
	 * still runs; none: claim.pid 0 */
	ProcClaim claim;
	bool asking;
	uint64_t kill_ns;
	const ProcOps *ops;      /* the source's; NULL: none ended here */
} ProcView;

/* Opens it, sorted by GPU memory, largest first; its processes ended
 * through ops (a live run's source controls; NULL: a view that ends none). */
void proc_view_open(ProcView *v, const ProcOps *ops);
/* Closes it, letting go of a process it held. */
void proc_view_close(ProcView *v);
/* Draws it over the screen: the table t of the device named dev. */
void proc_view_draw(Screen *s, ProcView *v, const ProcTable *t, const char *dev);
/* A key while it is open; false when the key closes it. */
bool proc_view_key(Screen *s, ProcView *v, const ProcTable *t, int ch);
/* Every turn: SIGKILL where a SIGTERM was not enough; true when it said
 * something (a redraw). */
bool proc_view_tick(Screen *s, ProcView *v, uint64_t now_ns);

#endif
