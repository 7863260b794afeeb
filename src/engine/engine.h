/* engine: the measuring thread. It owns the device, runs the adaptive loop and
 * hands every sample to one consumer through a lock-free ring; it never waits
 * for the consumer. Requests (stop, pause, restart) are honoured between two
 * dispatches. */
#ifndef FLOPSCOPE_ENGINE_H
#define FLOPSCOPE_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "adapt.h"
#include "compute.h"
#include "err.h"
#include "ring.h"
#include "shader.h"
#include "peak.h"
#include "slog.h"
#include "telemetry.h"
#include "vkctx.h"
#include "workload.h"

typedef enum EngineState {
	ENGINE_READY,    /* created, thread not started */
	ENGINE_GROWING,  /* dispatches below target/10: x10 per step */
	ENGINE_STEADY,   /* rescaled to the target time */
	ENGINE_PAUSED,
	ENGINE_DONE,     /* duration reached or stopped on request */
	ENGINE_ERROR,    /* see engine_error() */
	ENGINE_STATE_COUNT
} EngineState;

typedef struct EngineConfig {
	const VkCtx *ctx;
	const DeviceInfo *dev;
	double target_ms;
	double duration_s;      /* 0: until stopped */
	const char *shader_dir; /* resolved directory */
	unsigned check_every;   /* CPU check of every N-th dispatch (and the first ones) */
	size_t ring_capacity;
	const char *log_path;   /* session log to write; NULL: none */
	bool serial;            /* --serial: idle queue, submit, wait, for every dispatch */
	uint64_t launch_ns;     /* when the program started (compute_now_ns), 0 unknown */
	bool no_cache;          /* no SPIR-V or pipeline cache */
	WorkloadType workload;  /* fp32 (default), fp64, int32 */
	uint32_t trials;        /* --trials: dispatches per submission; 0: 1 */
	uint64_t size_lo, size_hi; /* --size: memory workloads' bytes (copy: the buffer;
	                              transfers: one size or a sweep); 0: default */
	bool transfer_queue;    /* run transfers on the device's transfer-only family */
} EngineConfig;

typedef struct Engine {
	EngineConfig cfg;
	SampleRing ring;
	Compute comp;
	FmaParams params;
	FmaCheck check;
	AdaptConfig adapt;
	uint64_t flop_per_invocation;
	WorkloadKind kind;
	DeviceInfo qdev;         /* the device with the queue family the work runs on */
	uint64_t sizes[MEM_SWEEP_MAX_SIZES]; /* transfers: the sweep (one size with --size) */
	size_t nsizes;
	uint64_t chunks;         /* copy: chunks of the buffer */
	uint64_t chunk_bytes;
	uint64_t shader_hash;
	char shader_path[4096];

	pthread_t thread;
	bool thread_started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool paused;             /* under mu */
	_Atomic bool stop;
	_Atomic unsigned restart;
	_Atomic int state;
	_Atomic uint64_t target_ns;   /* changed by engine_set_target_ms */
	_Atomic uint64_t checks_passed;
	char error[ERR_LEN];     /* written before state becomes ENGINE_ERROR */
	VkResult error_vk;
	Telemetry tel;
	Peak peak;
	/* where the start went, ms */
	double start_shader_ms, start_device_ms, start_warmup_ms;
	bool spirv_cached;
	_Atomic uint64_t first_sample_ns; /* after launch; 0 until the first */
	SessionMeta meta;
	SessionLog log;          /* written by the engine thread alone */
	Summary sum;             /* the engine's own, for the log's summary line */
	_Atomic bool log_failed; /* log.error is set before this */
} Engine;

/* Compiles the shader and builds the device and pipeline, in the caller's
 * thread, so a bad shader or device is reported before anything runs.
 * Returns 0; -2 for bad input (shader that does not compile, missing file);
 * -1 for a runtime failure. */
int engine_create(Engine *e, const EngineConfig *cfg, char *err);
bool engine_start(Engine *e, char *err);
void engine_request_stop(Engine *e);
void engine_set_paused(Engine *e, bool paused);
void engine_request_restart(Engine *e);
/* New dispatch target, taken at the next dispatch (the loop rescales to it). */
void engine_set_target_ms(Engine *e, double ms);
double engine_target_ms(Engine *e);
EngineState engine_state(Engine *e);
const char *engine_state_str(EngineState s);
/* Meaningful once engine_state() returned ENGINE_ERROR. */
const char *engine_error(Engine *e);
uint64_t engine_checks_passed(Engine *e);
/* The session log's path, or NULL without one. */
const char *engine_log_path(Engine *e);
/* NULL while the log is written fine; else why it stopped. */
const char *engine_log_error(Engine *e);
/* Waits for the thread to end (after a stop request, error or duration). */
void engine_join(Engine *e);
void engine_destroy(Engine *e);

#endif
