/* engine: the measuring thread. It owns the device, runs the adaptive loop and
 * hands every sample to one consumer through a lock-free ring; it never waits
 * for the consumer. Requests (stop, pause, restart) are honoured between two
 * dispatches. The Engine is opaque: a consumer reads the plain RunInfo, the
 * next Sample and the run's statistics (the one set: the log's summary line,
 * the screens' panels, the metrics board), and never a Vulkan type. */
#ifndef FLOPSCOPE_ENGINE_H
#define FLOPSCOPE_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devinfo.h"
#include "error.h"
#include "procs.h"
#include "runstate.h"
#include "sample.h"
#include "slog.h"
#include "summary.h"
#include "workload.h"

struct VkCtx; /* gpu/vkctx.h: the instance the device list came from */

typedef struct EngineConfig {
	const struct VkCtx *ctx;
	const DeviceInfo *dev;
	double target_ms;
	double duration_s;      /* 0: until stopped */
	double extend_s;        /* a run that reached no steady sample by duration_s
	                           goes on, at most this much longer (a suite's row
	                           with no sample is a result no one can use) */
	const char *shader_dir; /* resolved directory */
	unsigned check_every;   /* CPU check of every N-th dispatch (and the first ones) */
	size_t ring_capacity;
	const char *log_path;   /* session log to write; NULL: none */
	SlogMode log_mode;      /* how its path is taken (slog.h) */
	bool serial;            /* --serial: idle queue, submit, wait, for every dispatch */
	uint64_t launch_ns;     /* when the program started (clock_mono_ns), 0 unknown */
	bool no_cache;          /* no SPIR-V or pipeline cache */
	WorkloadType workload;  /* what it runs (workload.h's table) */
	uint32_t trials;        /* --trials: dispatches per submission; 0: 1 */
	uint64_t size_lo, size_hi; /* --size: memory workloads' bytes (copy: the buffer;
	                              transfers: one size or a sweep); 0: default */
	bool transfer_queue;    /* run transfers on the device's transfer-only family */
	unsigned ordinal;       /* its number among several devices at once (1..); 0 alone */
	unsigned devices;       /* ... how many, and the id their logs share (slog_node_id) */
	const char *node_id;
	bool device_locked;     /* the caller holds the device's lock (a check): the
	                           run takes no shared lock of its own */
	/* a burn's (0: none), kept in its log so that its report can be remade */
	double burn_s, burn_window_s, burn_margin_pct;
	/* a burn's log kept within this many bytes: its samples thinned to it,
	 * each window's figures (from every sample) a record; 0: every sample */
	uint64_t burn_log_budget_b;
	/* a burn of several workloads (core/burn.h's turns): this run's turn of
	 * burn_turns, its engine waiting out the others'; burn_turns 0 or 1: none */
	unsigned burn_turn, burn_turns;
} EngineConfig;

/* What a run is, fixed once it is created: plain facts for the screens. */
typedef struct RunInfo {
	const DeviceInfo *dev;        /* the entry (the config's) */
	WorkloadType workload;
	uint64_t work_per_invocation; /* FLOP, integer ops or bytes (workload_info's unit) */
	uint32_t local_size;          /* invocations per workgroup */
	bool timestamps;              /* GPU timestamps time the dispatches */
	const char *log_path;         /* the session log, NULL without one */
	const char *peak_how;         /* the theoretical peak's formula, or why unknown */
	double max_mhz;               /* the highest shader clock the telemetry gives; 0 unknown */
	bool telemetry_active;
	const char *telemetry_note;   /* which source, or why none */
	/* where the start went, ms */
	double start_shader_ms, start_device_ms, start_pipeline_ms, start_warmup_ms;
	bool spirv_cached, pipeline_cache_loaded;
	const char *cache_note;  /* why a cache entry was not used or was replaced; "" none */
	const char *lock_note;   /* the device is under a check now (devlock.h); "" none */
	bool shader_on_thread;   /* compiled beside the device's creation (start_shader_ms: its own time) */
} RunInfo;

typedef struct Engine Engine;

/* Compiles the shader and builds the device and pipeline, in the caller's
 * thread, so a bad shader or device is reported before anything runs.
 * NULL on failure: err says why, with STATUS_USAGE for bad input (a shader
 * that does not compile, a missing file, an unwritable log) and
 * STATUS_FAILED for a runtime failure. */
Engine *engine_create(const EngineConfig *cfg, Error *err);

/* Pipelines built ahead: for each of n configs (a workload a device will
 * run, one after another), its shader compiled through the SPIR-V cache and
 * its pipeline built on a device of its own into the pipeline cache file,
 * then destroyed, on up to `threads` threads (this one among them), all
 * ended on return: engine_create for it then starts as from warm caches
 * (shaderc and the driver's compiles in parallel, not one workload after
 * another). A config whose caches are both there is only found; nothing
 * where the configs keep no cache; no config is taken once *quit is set.
 * Best effort: what fails here fails again, and is said, in engine_create.
 * Returns how many were built or found. */
#define ENGINE_PREBUILD_THREADS 16
size_t engine_prebuild(const EngineConfig *cfg, size_t n, unsigned threads, const atomic_int *quit);
const RunInfo *engine_info(const Engine *e);
/* The session record the log starts with (device, workload, unit, target). */
const SessionMeta *engine_meta(const Engine *e);
bool engine_start(Engine *e, Error *err);
/* The next sample, without waiting; false when none is ready. */
bool engine_next(Engine *e, Sample *out);
/* Samples the consumer was too slow to take (they are in the log and the
 * engine's summary all the same). */
size_t engine_dropped(Engine *e);
void engine_request_stop(Engine *e);
void engine_set_paused(Engine *e, bool paused);
void engine_request_restart(Engine *e);
/* New dispatch target, taken at the next dispatch (the loop rescales to it). */
void engine_set_target_ms(Engine *e, double ms);
double engine_target_ms(Engine *e);
EngineState engine_state(Engine *e);
/* Meaningful once engine_state() returned ENGINE_ERROR. */
const char *engine_error(Engine *e);
uint64_t engine_checks_passed(Engine *e);
/* Whether a result check failed: the device computed wrong values (the
 * engine then stopped with ENGINE_ERROR, or engine_create failed with
 * STATUS_WRONG at the warm-up). */
bool engine_results_wrong(Engine *e);
/* Result checks passed since the last restart (r): the live counter. */
uint64_t engine_checks_this_run(Engine *e);
/* Why the run is about to stop (e.g. "workload fp64": the dashboard's w),
 * recorded in the log as a control record when it does. */
void engine_note_stop(Engine *e, const char *why);
/* NULL while the log is written fine; else why it stopped. */
const char *engine_log_error(Engine *e);
/* Mean cost of one telemetry reading, microseconds. */
double engine_telemetry_read_us(Engine *e);
/* The first sample's time after launch, ms; 0 before it (or launch unknown). */
double engine_first_sample_ms(Engine *e);
/* The run's statistics, of every sample of every segment (a restart adds
 * one): what the session log's summary line says, and the one set screens
 * and the metrics board read. From any thread at any time; while the run
 * goes on it is at most SUMMARY_EVERY_NS old (reading costs the engine
 * thread no more than a copy under its lock), once it has stopped exact. */
#define SUMMARY_EVERY_NS 250000000ull
void engine_summary(Engine *e, SummaryResult *out);
/* The other processes on the device as the newest telemetry reading lists
 * them (NVML's; none where the source cannot tell). From any thread. */
void engine_procs(Engine *e, ProcTable *out);
/* engine_summary as a SummaryReader. */
SummaryReader engine_summary_reader(Engine *e);
/* Waits for the thread to end (after a stop request, error or duration). */
void engine_join(Engine *e);
void engine_destroy(Engine *e);

/* Takes every sample ready, passing each to on_sample (NULL: none) until it
 * returns false, then on_sample(ctx, NULL) once for the batch (to flush
 * output once, not per sample); waits a little when none is ready; returns once the engine
 * is done or failed and every sample has been taken, or when *quit is set
 * (after asking the engine to stop). */
void engine_drain(Engine *e, bool (*on_sample)(void *ctx, const Sample *s), void *ctx,
                  atomic_int *quit);

/* The same for engines e[0..n) running at once (NULL entries skipped; at
 * most ENGINE_DRAIN_MAX): on_sample(ctx, k, s) for each sample of engine
 * k as it comes, on_sample(ctx, n, NULL) at each batch's end; once it
 * returns false (or *quit is set) every engine is asked to stop and the
 * rest is taken silently. Returns when every engine has ended. */
#define ENGINE_DRAIN_MAX 64
void engine_drain_all(Engine *const *e, size_t n, bool (*on_sample)(void *ctx, size_t k, const Sample *s),
                      void *ctx, atomic_int *quit);

#endif
