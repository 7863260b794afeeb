/* engine_impl: the engine's state and what its three files share
 * (engine.c: the measuring loop and the interface; engine_build.c: the
 * build, the shader thread and the pipelines built ahead; engine_log.c:
 * the session log's records). Only those files include it: the engine is
 * opaque to everything else (tests/layering.sh). */
#ifndef FLOPSCOPE_ENGINE_IMPL_H
#define FLOPSCOPE_ENGINE_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "adapt.h"
#include "compute.h"
#include "devlock.h"
#include "engine.h"
#include "err.h"
#include "peak.h"
#include "ring.h"
#include "slog.h"
#include "telemetry.h"
#include "workloads.h"

/* What the consumer asks of the engine thread, all under one mutex, read
 * once per iteration of the loop. */
typedef struct Commands {
	bool stop, paused;
	unsigned restart;        /* restart requests so far */
	uint64_t target_ns;      /* the dispatch target */
	double targets[16];      /* each change of it, for the log (a ring) */
	unsigned pauses;         /* pause requests so far (a pause and resume between two
	                            looks of the loop is still recorded) */
	unsigned ntargets;       /* changes so far */
	char note[64];           /* why the run stops, for the log (engine_note_stop) */
} Commands;

struct Engine {
	EngineConfig cfg;
	SampleRing ring;
	Compute comp;
	const WorkloadOps *ops;  /* the workload's kind */
	Work work;               /* its plan and state */
	AdaptConfig adapt;
	DeviceInfo qdev;         /* the device with the queue family the work runs on */
	uint64_t shader_hash;
	char shader_path[4096];
	bool refresh_caches;     /* the caches are not read, only written afresh */
	DevLock lock;            /* the device's, shared, for the run (not a check's) */
	char lock_note[1200];
	char cache_note[1400];   /* why a cache was not used, or was replaced ("") */

	pthread_t thread;
	bool thread_started;
	pthread_mutex_t mu;
	pthread_cond_t cv;       /* signalled on every command */
	Commands cmd;            /* under mu: the one way requests reach the thread */
	_Atomic int state;
	_Atomic uint64_t checks_passed;
	_Atomic uint64_t checks_run;     /* since the last restart */
	atomic_bool wrong;               /* a result check failed */
	char error[ERR_LEN];     /* written before state becomes ENGINE_ERROR */
	VkResult error_vk;
	Telemetry tel;
	Peak peak;
	_Atomic uint64_t first_sample_ns; /* after launch; 0 until the first */
	SessionMeta meta;
	SessionLog log;          /* written by the engine thread alone */
	struct BurnCut *cut;     /* a burn's log: its windows, cut from every sample (engine_log_sample) */
	uint64_t log_win_bytes;  /* ... the bytes of its window records */
	/* The run's statistics: the log's summary line, the screens' and the
	 * metrics board's. The engine thread writes sum under sum_mu; a reader
	 * copies it under the lock (sum_ver tells it changed) into view and reads
	 * the result off there, under view_mu, at most every SUMMARY_EVERY_NS
	 * while the run goes on. */
	Summary sum;
	ProcTable procs;         /* the other processes on the device, newest reading (under sum_mu) */
	pthread_mutex_t sum_mu, view_mu;
	uint64_t sum_ver;        /* under sum_mu */
	Summary view;            /* under view_mu, as the rest below */
	SummaryResult view_res;
	uint64_t view_ver, view_ns; /* view_ver: sum_ver when read; UINT64_MAX: never */
	_Atomic bool log_failed; /* log.error is set before this */
	bool sync_ready;         /* mu and cv initialised */
	bool tel_open;           /* telemetry_open ran */
	RunInfo info;
};

typedef struct Push {
	unsigned char bytes[24];
	uint32_t size;
} Push;

/* engine_build.c */
/* A checked submission's results: the workload says whether the device did
 * all the work, rightly. */
bool engine_check_results(Engine *e, uint64_t groups, char *msg, size_t len);
Push engine_push(const Engine *e);
/* Everything engine_create made, the thread already ended. */
void engine_release(Engine *e);

/* engine_log.c: the session log's meta record, change records, end */
void engine_fill_meta(Engine *e);
/* A log write's outcome: its first failure is published (log_failed). */
void engine_log_step(Engine *e, bool ok);
/* Records for the changes and excursions found since the counts given. */
void engine_log_changes(Engine *e, size_t nchanges, size_t nexc);
/* The engine thread changes the statistics between these two. */
void engine_sum_begin(Engine *e);
void engine_sum_end(Engine *e);
/* The log's closing lines: the error if any, then the summary. */
void engine_log_finish(Engine *e, const char *error);
/* A sample into the log: a burn's windows cut from every one, each closed
 * window's record written; the sample itself where the log's budget
 * allows (every one without a budget). */
void engine_log_sample(Engine *e, const Sample *s);
/* A burn's run of one workload of several: its turn has ended, its log's
 * window is written now (not where its next turn's first sample comes). */
void engine_log_turn_end(Engine *e);
/* A burn's log: its window cutter; false out of memory. */
bool engine_log_burn_begin(Engine *e);

#endif
