/* runcfg: the one function from the options to a run's engine
 * configuration, for every mode that measures; the rules that differ by mode
 * (how long a run lasts) are here and nowhere else. */
#ifndef FLOPSCOPE_RUNCFG_H
#define FLOPSCOPE_RUNCFG_H

#include <stdint.h>

#include "cli.h"
#include "devinfo.h"
#include "engine.h"

typedef enum RunUse {
	RUN_HEADLESS,   /* --duration, 3 s unless given; 0 runs until stopped */
	RUN_DASHBOARD,  /* until the user quits, unless --duration is given */
	RUN_SUITE,      /* each workload: --duration (2 s unless given) of window,
	                   plus 0.25 s for the growth phase */
	RUN_BURN,       /* --burn's time */
} RunUse;

/* Where the strings of an EngineConfig live. */
typedef struct RunPaths {
	char shader_dir[4096];
	char log[4096];
} RunPaths;

/* The suite's window per workload when --duration is not given, s. */
#define RUN_SUITE_WINDOW_S 2.0
/* A suite's window that reached no steady sample goes on, at most this much
 * longer (a busy machine, two engines on two cores). */
#define RUN_SUITE_EXTEND_S 5.0

/* The suite measures transfers at one size: --size (the top of a range),
 * else this. */
#define RUN_SUITE_TRANSFER_SIZE (64ull << 20)

/* Where a run stands among the devices measured with it, and what the
 * suite gives it beyond the options. */
typedef struct RunSlot {
	unsigned ordinal;        /* 1..devices among several measured together; 0: alone */
	unsigned devices;
	const char *node_id;     /* the run's id (slog_node_id); NULL alone */
	const char *stamp;       /* when the run was planned (slog_stamp_now), in its logs' default
	                            names; NULL: now */
	const char *log;         /* RUN_SUITE: the device's log of every workload, appended to (NULL: none) */
	bool transfer_queue;     /* RUN_SUITE: the pass on the copy engine (elsewhere --transfer-queue) */
	unsigned burn_turn, burn_turns; /* RUN_BURN of several workloads: the run's turn (burn.h) */
	bool check;              /* RUN_SUITE for a check: its devices' locks are the check's, and a
	                            window ends where its share of the budget does (a suite's window
	                            without a steady sample goes on, RUN_SUITE_EXTEND_S at most) */
} RunSlot;

/* The one plan of a run: cfg for workload wl on dev (an entry of ctx), from
 * the options, the mode's rules and the run's slot (NULL: alone, the
 * options'). nth numbers the runs of one invocation (the default log names
 * differ by it). */
void run_plan(const Options *o, RunUse use, const struct VkCtx *ctx, const DeviceInfo *dev, WorkloadType wl,
              unsigned nth, uint64_t launch_ns, const RunSlot *slot, RunPaths *paths, EngineConfig *cfg);

/* The workloads of --workload A,B (--check's, --burn's) into wl (room for
 * WORKLOAD_TYPE_COUNT), *n of them: false with the reason printed for a
 * name that is not a workload or is given twice, or none. */
bool run_workloads(const char *list, int *wl, size_t *n);

#endif
