/* engine_build: an engine made in named steps (the workload's plan, the
 * device lock, the device and its pipeline with the shader compiled beside
 * it on a thread of its own, the caches, telemetry, the log, the warm-up)
 * and released; and the pipelines built ahead for several engines. */
#include "engine_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "shader.h"
#include "threadname.h"
#include "vkctx.h"

/* A checked submission's results: the workload says whether the device did
 * all the work, rightly. */
bool engine_check_results(Engine *e, uint64_t groups, char *msg, size_t len)
{
	if (!e->ops->check(&e->work, &e->comp, groups, msg, len)) {
		atomic_store(&e->wrong, true);
		return false;
	}
	atomic_fetch_add(&e->checks_passed, 1);
	atomic_fetch_add(&e->checks_run, 1);
	return true;
}

Push engine_push(const Engine *e)
{
	Push p;
	p.size = e->ops->push(&e->work, p.bytes);
	return p;
}

static bool warm_up(Engine *e, char *err)
{
	DispatchTiming t;
	VkResult vr;
	Push push = engine_push(e);
	e->ops->prepare_check(&e->work, &e->comp, adapt_initial());
	if (!compute_dispatch(&e->comp, adapt_initial(), push.bytes, true, &t, &vr, err))
		return false;
	return engine_check_results(e, 1, err, ERR_LEN);
}

/* --- building the engine, in named steps ------------------------------ */

/* The configuration's defaults and the workload's plan; the queue it runs on. */
static Status plan_run(Engine *e, const EngineConfig *cfg, char *err)
{
	e->cfg = *cfg;
	if (!e->cfg.check_every)
		e->cfg.check_every = 25;
	if (!e->cfg.ring_capacity)
		e->cfg.ring_capacity = 4096;
	e->cmd.target_ns = (uint64_t)(cfg->target_ms * 1e6);
	const DeviceInfo *d = cfg->dev;
	e->ops = workload_ops(workload_info[cfg->workload].kind);
	WorkInput in = {
		.ctx = cfg->ctx,
		.dev = d,
		.type = cfg->workload,
		.trials = cfg->trials, /* 0: 1, in the plan */
		.size_lo = cfg->size_lo,
		.size_hi = cfg->size_hi,
		.transfer_queue = cfg->transfer_queue,
	};
	Status st = work_plan(&e->work, &in, err);
	if (st != STATUS_OK)
		return st;
	/* the queue the work runs on: the entry's, or its copy engine */
	e->qdev = *d;
	if (cfg->transfer_queue) {
		e->qdev.queue_family = (uint32_t)d->transfer_family;
		e->qdev.queue_flags = VK_QUEUE_TRANSFER_BIT;
		e->qdev.timestamp_valid_bits = d->transfer_ts_bits;
	}
	e->adapt.target_s = cfg->target_ms * 1e-3;
	memcpy(e->adapt.max, e->work.max_groups, sizeof e->adapt.max);
	return STATUS_OK;
}

/* The shader compiled (through the SPIR-V cache) on a thread of its own
 * while the device and its buffers are made; the pipeline waits for it. */
typedef struct ShaderJob {
	const char *path;
	const ShaderDefine *defs;
	size_t ndefs;
	const char *cache_dir;      /* NULL: no cache */
	bool refresh;               /* not read, only written */
	const DeviceInfo *dev;
	pthread_t thread;
	bool started, joined;
	int rc;                     /* shader_compile_cached's */
	Spirv spv;
	bool hit;
	uint64_t ns;                /* the compile's own time */
	char pcache[4300];          /* the pipeline cache's file for this SPIR-V */
	char err[ERR_LEN];
} ShaderJob;

static void *shader_main(void *arg)
{
	ShaderJob *j = arg;
	thread_name("fs-shaderc", j->dev->phys_index + 1);
	uint64_t t0 = clock_mono_ns();
	j->rc = shader_compile_cached(j->path, j->defs, j->ndefs, j->cache_dir, j->refresh, &j->spv, &j->hit, j->err);
	j->ns = clock_mono_ns() - t0;
	return NULL;
}

/* The job's result, once (compute_create's SpirvLater.wait; also after a
 * failure before the pipeline, so that the thread never outlives start_device). */
static bool shader_join(ShaderJob *j)
{
	if (j->started && !j->joined) {
		pthread_join(j->thread, NULL);
		j->joined = true;
	}
	return j->rc >= 0;
}

static bool shader_wait(void *ctx, const uint32_t **words, size_t *size, const char **pipeline_cache, char *err)
{
	ShaderJob *j = ctx;
	if (!shader_join(j)) {
		snprintf(err, ERR_LEN, "%s", j->err);
		return false;
	}
	*words = j->spv.words;
	*size = j->spv.size;
	if (j->cache_dir) {
		char uuid[40];
		devinfo_uuid_str(j->dev->uuid, uuid, sizeof uuid);
		snprintf(j->pcache, sizeof j->pcache, "%s/pipeline-%s-%08x-%016llx.bin", j->cache_dir, uuid,
		         j->dev->driver_version, (unsigned long long)j->spv.hash);
		*pipeline_cache = j->pcache;
	}
	return true;
}

/* The specialisation constants: the work per invocation and the local size. */
static const VkSpecializationMapEntry spec_map[2] = {
	{ 0, 0, sizeof(uint32_t) },
	{ 1, sizeof(uint32_t), sizeof(uint32_t) },
};

/* What compute_create makes for the planned work (the SPIR-V apart). */
static ComputeSetup compute_setup(const Engine *e)
{
	const WorkloadInfo *wl = e->work.info;
	/* A dispatch may take a few times the target before the loop rescales;
	 * beyond this something is wrong with the device. */
	double timeout_s = 100.0 * e->adapt.target_s;
	if (timeout_s < 10.0)
		timeout_s = 10.0;
	return (ComputeSetup){
		.spec_map = spec_map,
		.spec_count = 2,
		.spec_data = e->work.spec,
		.spec_size = sizeof e->work.spec,
		.push_size = engine_push(e).size,
		.result_size = e->work.result_size,
		.features = wl->needs | e->work.features,
		.ordinal = e->cfg.ordinal,
		.trials = e->work.trials,
		.fence_timeout_ns = (uint64_t)(timeout_s * 1e9),
		.rec = e->ops->recorder,
		.src_mem = wl->src,
		.dst_mem = wl->dst,
		.mem_bytes = e->work.mem_bytes,
		.marks = e->work.nsizes > 0,
		.input = e->work.input,
		.push_sequence = e->work.push_sequence,
	};
}

/* The shader on its thread (or here, where no thread can start), then the
 * device, its buffers and pipeline (through the pipeline cache). */
static Status start_device(Engine *e, char *err)
{
	const EngineConfig *cfg = &e->cfg;
	char cache_dir[4096];
	const char *shader = e->work.shader;
	bool cache = !cfg->no_cache && shader && shader_cache_dir(cache_dir, sizeof cache_dir);
	ShaderJob job = { .defs = e->work.defs, .ndefs = e->work.ndefs, .cache_dir = cache ? cache_dir : NULL,
	                  .refresh = e->refresh_caches, .dev = cfg->dev };
	if (shader) {
		snprintf(e->shader_path, sizeof e->shader_path, "%s/%s", cfg->shader_dir, shader);
		job.path = e->shader_path;
		job.started = pthread_create(&job.thread, NULL, shader_main, &job) == 0;
		if (!job.started)
			shader_main(&job); /* no thread: one after the other, as before */
	}

	ComputeSetup s = compute_setup(e);
	s.later = (SpirvLater){ shader ? shader_wait : NULL, &job };
	s.cache_refresh = e->refresh_caches;
	uint64_t t0 = clock_mono_ns();
	bool ok = compute_create(&e->comp, cfg->ctx, &e->qdev, &s, err);
	e->info.start_device_ms = (double)(clock_mono_ns() - t0) * 1e-6;
	bool compiled = !shader || shader_join(&job);
	e->info.start_shader_ms = (double)job.ns * 1e-6;
	e->info.spirv_cached = job.hit;
	e->info.shader_on_thread = job.started;
	e->shader_hash = job.spv.hash;
	const char *notes[2] = { job.spv.cache_note, e->comp.cache_note };
	for (int k = 0; k < 2; k++) /* said once, in the start's line */
		if (notes[k][0] && !strstr(e->cache_note, notes[k])) {
			size_t l = strlen(e->cache_note);
			snprintf(e->cache_note + l, sizeof e->cache_note - l, "%s%s", l ? "; " : "", notes[k]);
		}
	if (shader)
		shader_free(&job.spv);
	if (!compiled) {
		snprintf(err, ERR_LEN, "%s", job.err); /* a shader that does not compile: bad input */
		return STATUS_USAGE;
	}
	if (!ok)
		return STATUS_FAILED;
	if (e->work.nsizes)
		compute_set_copy_size(&e->comp, e->work.sizes[0]);
	return STATUS_OK;
}

/* The sample ring and the command lock. */
static Status open_sync(Engine *e, char *err)
{
	if (!ring_init(&e->ring, e->cfg.ring_capacity)) {
		snprintf(err, ERR_LEN, "out of memory for the sample ring");
		return STATUS_FAILED;
	}
	if ((errno = pthread_mutex_init(&e->mu, NULL))) {
		snprintf(err, ERR_LEN, "pthread_mutex_init: %s", strerror(errno));
		return STATUS_FAILED;
	}
	if ((errno = pthread_cond_init(&e->cv, NULL))) {
		snprintf(err, ERR_LEN, "pthread_cond_init: %s", strerror(errno));
		pthread_mutex_destroy(&e->mu);
		return STATUS_FAILED;
	}
	e->sync_ready = true;
	return STATUS_OK;
}

/* The CPU cores a CPU device computes on: lavapipe (Mesa's llvmpipe) runs
 * a dispatch on a thread per online CPU, or on LP_NUM_THREADS where that is
 * set (0: on the submitting thread alone); more threads than cores add no
 * lanes. */
static long device_cores(const DeviceInfo *d)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	const char *lp = getenv("LP_NUM_THREADS");
	if (d->type != DEV_CPU || !strstr(d->name, "llvmpipe") || !lp || !*lp || cores <= 0)
		return cores;
	char *end;
	errno = 0;
	long n = strtol(lp, &end, 0);
	if (errno || end == lp || n < 0)
		return cores; /* as Mesa reads it: a number, else its default */
	n = n ? n : 1;
	return n < cores ? n : cores;
}

/* Telemetry, and the theoretical peak it makes known. */
static void open_telemetry(Engine *e)
{
	const DeviceInfo *d = e->cfg.dev;
	telemetry_open(&e->tel, d);
	e->tel_open = true;
	/* the stated maximum clock only: a VM's /proc/cpuinfo shows a nominal
	 * figure below what its cores really run at */
	double max_mhz = e->tel.active ? e->tel.src.max_mhz : 0;
	long cores = device_cores(d);
	peak_compute(d, e->cfg.workload, cores > 0 ? (unsigned)cores : 0, max_mhz, &e->peak);
	PeakKind pk = peak_kind(e->cfg.workload);
	if (pk == PEAK_PCIE)
		telemetry_pcie_peak(d, &e->peak);
	else if (pk == PEAK_MEMORY)
		peak_memory(e->tel.active ? e->tel.src.mem_max_mhz : 0, e->tel.active ? e->tel.src.mem_bus_bits : 0,
		            &e->peak);
}

/* The session log and its first line. */
static Status open_log(Engine *e, char *err)
{
	engine_fill_meta(e);
	if (!e->cfg.log_path)
		return STATUS_OK;
	if (!slog_open(&e->log, e->cfg.log_path, e->cfg.log_mode, err, ERR_LEN))
		return STATUS_USAGE;
	if (!slog_write_session(&e->log, &e->meta)) {
		/* nothing measured yet: not "goes on unrecorded", a log that cannot
		 * be used; a full disk or an I/O error is the system's failure, not
		 * bad input (exit 1), and the empty file it made goes */
		snprintf(err, ERR_LEN, "cannot write the session log %.900s: %s (--log PATH chooses another "
		         "file, --no-log records nothing)", e->log.path, strerror(e->log.err_no));
		slog_abandon(&e->log);
		return STATUS_FAILED;
	}
	if (!engine_log_burn_begin(e)) {
		snprintf(err, ERR_LEN, "out of memory for the burn's windows in the log %.900s", e->log.path);
		return STATUS_FAILED;
	}
	return STATUS_OK;
}

/* A measuring run holds its device's lock shared: a check (exclusive)
 * finds it, and a run on a device under check says so (the two measure
 * each other) and goes on. */
static void take_device_lock(Engine *e)
{
	e->lock.fd = -1;
	if (e->cfg.device_locked)
		return;
	char uuid[40], why[600];
	devinfo_uuid_str(e->cfg.dev->uuid, uuid, sizeof uuid);
	if (devlock_take(&e->lock, uuid, false, 0, NULL, why, sizeof why) == DEVLOCK_BUSY)
		snprintf(e->lock_note, sizeof e->lock_note, "%s is under a check now (%s): this run and the check "
		         "measure each other", e->cfg.dev->name, why);
}

/* Whether the device's shader or pipeline came from a cache that could be
 * refreshed (not already). */
static bool from_cache(const Engine *e)
{
	return !e->refresh_caches && (e->info.spirv_cached || e->comp.cache_loaded);
}

/* The device built again with the caches not read (compiled from the
 * source, the caches written afresh): a cache is a hint, never the reason
 * a device is blamed. what: why, for the start's line. */
static Status start_fresh(Engine *e, const char *what, char *err)
{
	size_t l = strlen(e->cache_note);
	snprintf(e->cache_note + l, sizeof e->cache_note - l, "%sthe cached SPIR-V and pipeline were used and %s (%s): "
	         "built again from the source, the caches replaced", l ? "; " : "", what, err);
	compute_destroy(&e->comp);
	e->refresh_caches = true;
	atomic_store(&e->checks_passed, 0);
	atomic_store(&e->checks_run, 0);
	return start_device(e, err);
}

/* Builds the engine; the first failure returns, and engine_release() takes apart
 * whatever was built. */
static Status build(Engine *e, const EngineConfig *cfg, char *err)
{
	atomic_init(&e->log_failed, false);
	atomic_init(&e->state, ENGINE_READY);
	atomic_init(&e->checks_passed, 0);
	atomic_init(&e->checks_run, 0);
	atomic_init(&e->wrong, false);
	atomic_init(&e->first_sample_ns, 0);
	Status st;
	if ((st = plan_run(e, cfg, err)) != STATUS_OK)
		return st;
	take_device_lock(e);
	st = start_device(e, err);
	if (st == STATUS_FAILED && from_cache(e))
		st = start_fresh(e, "the pipeline could not be built from them", err);
	if (st != STATUS_OK || (st = open_sync(e, err)) != STATUS_OK)
		return st;
	open_telemetry(e);
	if ((st = open_log(e, err)) != STATUS_OK)
		return st;
	/* Warm-up: drivers compile the pipeline lazily (lavapipe's JIT takes tens
	 * of ms at the first dispatch). One checked dispatch of one group, not
	 * recorded, so the loop's first sample measures the device. A shader
	 * from the cache that fails its result check is built again from its
	 * source before the device is blamed. */
	uint64_t t0 = clock_mono_ns();
	bool warm = warm_up(e, err);
	if (!warm && atomic_load(&e->wrong) && from_cache(e)) {
		atomic_store(&e->wrong, false);
		warm = start_fresh(e, "their shader failed its result check", err) == STATUS_OK && warm_up(e, err);
	}
	if (!warm) {
		engine_log_finish(e, err); /* the log says why the run never started */
		return atomic_load(&e->wrong) ? STATUS_WRONG : STATUS_FAILED;
	}
	e->info.start_warmup_ms = (double)(clock_mono_ns() - t0) * 1e-6;
	return STATUS_OK;
}

void engine_release(Engine *e)
{
	/* a run that never started still closes its log properly */
	engine_log_finish(e, NULL);
	summary_done(&e->sum);
	summary_done(&e->view);
	pthread_mutex_destroy(&e->view_mu);
	pthread_mutex_destroy(&e->sum_mu);
	if (e->tel_open)
		telemetry_close(&e->tel);
	devlock_release(&e->lock);
	compute_destroy(&e->comp);
	work_end(&e->work);
	ring_done(&e->ring);
	if (e->sync_ready) {
		pthread_cond_destroy(&e->cv);
		pthread_mutex_destroy(&e->mu);
	}
}

Engine *engine_create(const EngineConfig *cfg, Error *err)
{
	memset(err, 0, sizeof *err);
	Engine *e = calloc(1, sizeof *e);
	if (!e) {
		err->status = STATUS_FAILED;
		snprintf(err->msg, sizeof err->msg, "out of memory for the engine");
		return NULL;
	}
	int rc = pthread_mutex_init(&e->sum_mu, NULL);
	if (!rc && (rc = pthread_mutex_init(&e->view_mu, NULL)))
		pthread_mutex_destroy(&e->sum_mu);
	if (rc) {
		err->status = STATUS_FAILED;
		snprintf(err->msg, sizeof err->msg, "cannot make the engine's locks: %s", strerror(rc));
		free(e);
		return NULL;
	}
	e->lock.fd = -1; /* none held until build takes it */
	summary_init(&e->sum);
	summary_init(&e->view);
	e->view_ver = UINT64_MAX;
	Status st = build(e, cfg, err->msg);
	if (st != STATUS_OK) {
		err->status = st;
		size_t l = strlen(err->msg);
		if (e->cache_note[0]) /* a cache refreshed before the device was blamed: said */
			snprintf(err->msg + l, sizeof err->msg - l, " [%s]", e->cache_note);
		engine_release(e);
		free(e);
		return NULL;
	}
	/* the plain facts; the start-up times were written there while building */
	RunInfo *in = &e->info;
	in->dev = cfg->dev;
	in->workload = cfg->workload;
	in->work_per_invocation = e->work.per_invocation;
	in->local_size = e->work.local_size;
	in->timestamps = e->comp.timestamps;
	in->log_path = cfg->log_path ? e->log.path : NULL;
	in->peak_how = e->peak.how;
	in->max_mhz = e->tel.active ? e->tel.src.max_mhz : 0;
	in->telemetry_active = e->tel.active;
	in->telemetry_note = e->tel.note;
	in->start_pipeline_ms = e->comp.pipeline_ms;
	in->pipeline_cache_loaded = e->comp.cache_loaded;
	in->cache_note = e->cache_note;
	in->lock_note = e->lock_note;
	return e;
}

/* --- pipelines built ahead --------------------------------------------------- */

/* One config's pipeline into the caches: its plan, its shader through the
 * SPIR-V cache, its pipeline on a device of its own into the pipeline cache
 * file the engine will read. False where there is nothing to build (no
 * shader, no cache) or it failed (the engine says why when it starts). */
static bool prebuild_one(const EngineConfig *cfg)
{
	char cache_dir[4096], err[ERR_LEN];
	Engine *e = calloc(1, sizeof *e);
	if (!e)
		return false;
	bool ok = false;
	if (!cfg->no_cache && plan_run(e, cfg, err) == STATUS_OK && e->work.shader &&
	    shader_cache_dir(cache_dir, sizeof cache_dir)) {
		snprintf(e->shader_path, sizeof e->shader_path, "%s/%s", cfg->shader_dir, e->work.shader);
		ShaderJob job = { .path = e->shader_path, .defs = e->work.defs, .ndefs = e->work.ndefs,
		                  .cache_dir = cache_dir, .dev = cfg->dev };
		job.rc = shader_compile_cached(job.path, job.defs, job.ndefs, cache_dir, false, &job.spv, &job.hit, job.err);
		ComputeSetup s = compute_setup(e);
		ok = shader_wait(&job, &s.spirv, &s.spirv_size, &s.pipeline_cache, err);
		/* both caches there already (a warm start): nothing to build */
		if (ok && !(job.hit && access(s.pipeline_cache, R_OK) == 0))
			ok = compute_build_pipeline(cfg->ctx, &e->qdev, &s, err);
		shader_free(&job.spv);
	}
	work_end(&e->work);
	free(e);
	return ok;
}

typedef struct Prebuild {
	const EngineConfig *cfg;
	size_t n;
	atomic_size_t next, built;
	const atomic_int *quit;
} Prebuild;

/* Takes configs until none is left or a signal came. */
static void prebuild_take(Prebuild *p)
{
	for (size_t i; !(p->quit && atomic_load(p->quit)) && (i = atomic_fetch_add(&p->next, 1)) < p->n;)
		if (prebuild_one(&p->cfg[i]))
			atomic_fetch_add(&p->built, 1);
}

static void *prebuild_main(void *arg)
{
	thread_name("fs-prebuild", 0);
	prebuild_take(arg);
	return NULL;
}

size_t engine_prebuild(const EngineConfig *cfg, size_t n, unsigned threads, const atomic_int *quit)
{
	if (!n || cfg[0].no_cache)
		return 0;
	Prebuild p = { .cfg = cfg, .n = n, .quit = quit };
	atomic_init(&p.next, 0);
	atomic_init(&p.built, 0);
	pthread_t t[ENGINE_PREBUILD_THREADS];
	size_t started = 0;
	if (threads > ENGINE_PREBUILD_THREADS)
		threads = ENGINE_PREBUILD_THREADS;
	while (started + 1 < threads && started + 1 < n && !pthread_create(&t[started], NULL, prebuild_main, &p))
		started++;
	prebuild_take(&p); /* this thread too */
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	return atomic_load(&p.built);
}
