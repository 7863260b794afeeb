/* interactive: the interactive program: the device picker, then the live
 * dashboard or the node view, over the curses screens of ui/ (which call
 * nothing of app/: they read plain structs and sample sources). */
#ifndef FLOPSCOPE_INTERACTIVE_H
#define FLOPSCOPE_INTERACTIVE_H

#include <stdatomic.h>
#include <stdint.h>

#include "cli.h"
#include "devinfo.h"

struct VkCtx;


struct MetricsOut;
/* The most devices the node view shows at once (more run headless). */
#define NODE_VIEW_MAX 16

/* Runs the picker over devs, the entries of ctx (unless npre entries are
 * given in pre), then the dashboard for one device or the node view for
 * several, until the user quits or *quit is set. Returns the exit status
 * (4: the outlier rule named a device), or -1 when the terminal cannot be
 * used (the caller then falls back to headless output). wl: the first
 * run's workload (w moves to the next). mo: the metrics
 * of the runs (metrics_live.h); NULL: none. launch: the program's start
 * (clock_mono_ns), from which the first run on devices given in pre times
 * each device's first sample (the final table says it). */
int interactive_run(const struct VkCtx *ctx, const DeviceList *devs, const Options *o, const int *pre, size_t npre,
                    WorkloadType wl, uint64_t launch, struct MetricsOut *mo, atomic_int *quit);

/* The dashboard on a recorded session log (--replay FILE). Returns the exit
 * status, or -1 when the terminal cannot be used. */
int interactive_replay(const Options *o, atomic_int *quit);

#endif
