/* suite: every supported workload for a short window each, one table. */
#ifndef FLOPSCOPE_SUITE_H
#define FLOPSCOPE_SUITE_H

#include <stdatomic.h>

#include "cli.h"
#include "engine.h"
#include "vkctx.h"

/* One device's run of one workload (each its own engine, all running
 * together): its statistics and status (err says why). */
typedef struct SuiteDev {
	int idx;               /* the entry */
	const char *log;       /* the device's file of sessions, appended to; NULL: a
	                          log of its own for the run (the default place) */
	SummaryResult r;
	int rc;                /* 0; STATUS_WRONG when a result check failed */
	bool wrong;
	uint64_t checks;       /* result checks passed */
	bool spirv_cached;     /* its start found its SPIR-V in the cache ... */
	bool pipeline_cached;  /* ... and its pipeline cache's data */
	char err[ERR_LEN];
	char log_err[ERR_LEN]; /* its session log could not be written (a full disk): why; "" it could */
} SuiteDev;

/* What a caller watches of suite_measure's run. */
typedef struct SuiteWatch {
	/* each sample of device k as the devices run, and (s NULL) each
	 * batch's end; false ends the run of every device (engine_drain_all) */
	bool (*sample)(void *arg, size_t k, const Sample *s);
	/* device k's statistics can be read with rd from now; rd.read NULL:
	 * its run has ended, rd is read no more (a last read now is exact) */
	void (*live)(void *arg, size_t k, SummaryReader rd);
	void *arg;
} SuiteWatch;

/* Runs workload w on the devices d[0..n) (idx set) at once for the
 * suite's window (--duration), the transfers at one size; fills the rest
 * of each SuiteDev. nth numbers the runs of one invocation (log names). */
void suite_measure(const VkCtx *ctx, SuiteDev *d, size_t n, const Options *o, WorkloadType w, bool tq,
                   unsigned nth, const SuiteWatch *watch, atomic_int *quit);

/* Before a run of several workloads measures: the pipelines of
 * wl[0..nwl) on the devices idx[0..n) that support them built in parallel
 * (engine_prebuild), so that each workload's engine, made one after
 * another, starts as from warm caches. Nothing is measured while builds
 * run (on a GPU the medians of the workloads measured beside them could
 * not be shown to be undisturbed, PERFORMANCE.md). Nothing with
 * --no-cache; where the caches are there already the builds only find them. */
void suite_prebuild(const VkCtx *ctx, const int *idx, size_t n, const Options *o, const int *wl, size_t nwl,
                    const atomic_int *quit);

/* One session log a device for a run of several workloads (--suite,
 * --check): created empty, so that a name taken or a folder that cannot be
 * written stops the run before it measures; each workload's session is
 * appended (SuiteDev.log, opened SLOG_APPEND: the lock is this one's). NULL with --no-log, or when one cannot be
 * created (*failed, said on stderr). */
typedef struct SuiteLogPath {
	char path[4096];
	int fd; /* held open and locked for the whole run: no other writer, no
	           retention, takes it between two sessions (-1: none) */
} SuiteLogPath;
/* Named TIME-DEVICE-what.jsonl by default ("suite", "check"). */
SuiteLogPath *suite_logs_open(const VkCtx *ctx, const int *idx, size_t n, const Options *o, const char *what,
                              bool *failed);
/* A file that holds no session (nothing ran) goes; with say, the others are
 * named on standard output. Frees logs. */
void suite_logs_close(SuiteLogPath *logs, size_t n, bool say);

/* Runs the suite on entry idx; returns the exit status. */
/* Every workload on the devices idx[0..n) (an entry may repeat), all of
 * them at once for each workload; a row per device and workload. */
int suite_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, uint64_t launch_ns,
              atomic_int *quit);

#endif
