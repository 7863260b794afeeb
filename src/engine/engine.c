#include "engine.h"
#include "devlock.h"
#include "clock.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "adapt.h"
#include "compute.h"
#include "err.h"
#include "peak.h"
#include "ring.h"
#include "sched.h"
#include "shader.h"
#include "slog.h"
#include "telemetry.h"
#include "threadname.h"
#include "version.h"
#include "vkctx.h"
#include "workloads.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>


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
	/* The run's statistics: the log's summary line, the screens' and the
	 * metrics board's. The engine thread writes sum under sum_mu; a reader
	 * copies it under the lock (sum_ver tells it changed) into view and reads
	 * the result off there, under view_mu, at most every SUMMARY_EVERY_NS
	 * while the run goes on. */
	Summary sum;
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



/* A checked submission's results: the workload says whether the device did
 * all the work, rightly. */
static bool check_results(Engine *e, uint64_t groups, char *msg, size_t len)
{
	if (!e->ops->check(&e->work, &e->comp, groups, msg, len)) {
		atomic_store(&e->wrong, true);
		return false;
	}
	atomic_fetch_add(&e->checks_passed, 1);
	atomic_fetch_add(&e->checks_run, 1);
	return true;
}

/* The time the adaptive loop sizes: the whole submission (all its trials),
 * GPU when timed. */
static double sample_secs(const DispatchTiming *t)
{
	return (double)(t->gpu_valid ? t->gpu_ns : t->cpu_ns) * 1e-9;
}

typedef struct Push {
	unsigned char bytes[24];
	uint32_t size;
} Push;

static Push push_constants(const Engine *e)
{
	Push p;
	p.size = e->ops->push(&e->work, p.bytes);
	return p;
}

static bool warm_up(Engine *e, char *err)
{
	DispatchTiming t;
	VkResult vr;
	Push push = push_constants(e);
	e->ops->prepare_check(&e->work, &e->comp, adapt_initial());
	if (!compute_dispatch(&e->comp, adapt_initial(), push.bytes, true, &t, &vr, err))
		return false;
	return check_results(e, 1, err, ERR_LEN);
}

static void fill_meta(Engine *e)
{
	SessionMeta *m = &e->meta;
	const DeviceInfo *d = e->cfg.dev;
	slog_host_facts(m);
	snprintf(m->flopscope_version, sizeof m->flopscope_version, "%s", FLOPSCOPE_VERSION);
	snprintf(m->device, sizeof m->device, "%s", d->name);
	snprintf(m->device_type, sizeof m->device_type, "%s", devinfo_type_str(d->type));
	m->vendor_id = d->vendor_id;
	m->device_id = d->device_id;
	devinfo_uuid_str(d->uuid, m->uuid, sizeof m->uuid);
	devinfo_pci_str(d, m->pci_bus_id, sizeof m->pci_bus_id);
	snprintf(m->driver_name, sizeof m->driver_name, "%s", d->driver_name);
	snprintf(m->driver_info, sizeof m->driver_info, "%s", d->driver_info);
	devinfo_driver_version_str(d, m->driver_version, sizeof m->driver_version);
	devinfo_version_str(d->api_version, m->api_version, sizeof m->api_version);
	m->queue_family = e->qdev.queue_family; /* the family the work runs on */
	snprintf(m->queue, sizeof m->queue, "%s", e->cfg.transfer_queue ? "transfer" : "compute");
	snprintf(m->workload, sizeof m->workload, "%s", workload_info[e->cfg.workload].name);
	m->flop_per_invocation = e->work.per_invocation;
	m->local_size = e->work.local_size;
	snprintf(m->shader_hash, sizeof m->shader_hash, "%016llx", (unsigned long long)e->shader_hash);
	m->target_ms = e->cfg.target_ms;
	m->trials = e->work.trials;
	snprintf(m->timing, sizeof m->timing, "%s", e->comp.timestamps ? "gpu" : "cpu");
	snprintf(m->peak, sizeof m->peak, "%s", e->peak.how);
	m->peak_max_flops = peak_flops(&e->peak, e->peak.max_mhz);
	snprintf(m->unit, sizeof m->unit, "%s", workload_unit_names[workload_info[e->cfg.workload].unit]);
	snprintf(m->telemetry, sizeof m->telemetry, "%s", e->tel.note);
	if (e->cfg.node_id && e->cfg.ordinal) {
		snprintf(m->node, sizeof m->node, "%s", e->cfg.node_id);
		m->ordinal = e->cfg.ordinal;
		m->devices = e->cfg.devices;
	}
}

static void log_step(Engine *e, bool ok)
{
	if (!ok && e->log.failed && !atomic_load(&e->log_failed))
		atomic_store_explicit(&e->log_failed, true, memory_order_release);
}

/* Records for the changes and excursions found since the counts given. */
static void log_changes(Engine *e, size_t nchanges, size_t nexc)
{
	const ChangeDetector *cd = &e->sum.changes;
	const char *unit = sample_flags_unit(e->sum.unit_flags);
	for (size_t i = cd->nchanges - nchanges; e->log.f && i-- > 0;)
		if (change_get(cd, i))
			log_step(e, slog_write_change(&e->log, change_get(cd, i), cd->nchanges - 1 - i, unit));
	for (size_t i = cd->nexc - nexc; e->log.f && i-- > 0;)
		if (change_excursion(cd, i))
			log_step(e, slog_write_excursion(&e->log, change_excursion(cd, i), unit));
}

/* The engine thread changes the statistics between these two. */
static void sum_begin(Engine *e)
{
	pthread_mutex_lock(&e->sum_mu);
}

static void sum_end(Engine *e)
{
	e->sum_ver++;
	pthread_mutex_unlock(&e->sum_mu);
}

static void log_finish(Engine *e, const char *error)
{
	/* a departure still open at the end is settled, and recorded */
	size_t nc = e->sum.changes.nchanges, ne = e->sum.changes.nexc;
	sum_begin(e);
	summary_finish(&e->sum);
	sum_end(e);
	log_changes(e, nc, ne);
	if (!e->log.f)
		return;
	if (error)
		log_step(e, slog_write_error(&e->log, error));
	SummaryResult r;
	summary_result(&e->sum, &r);
	log_step(e, slog_write_summary(&e->log, &r, ring_dropped(&e->ring), engine_checks_passed(e)));
	slog_close(&e->log);
	log_step(e, !e->log.failed);
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
		.push_size = push_constants(e).size,
		.result_size = e->work.result_size,
		.features = wl->needs,
		.ordinal = e->cfg.ordinal,
		.trials = e->work.trials,
		.fence_timeout_ns = (uint64_t)(timeout_s * 1e9),
		.rec = e->ops->recorder,
		.src_mem = wl->src,
		.dst_mem = wl->dst,
		.mem_bytes = e->work.mem_bytes,
		.marks = e->work.nsizes > 0,
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

/* Telemetry, and the theoretical peak it makes known. */
static void open_telemetry(Engine *e)
{
	const DeviceInfo *d = e->cfg.dev;
	telemetry_open(&e->tel, d);
	e->tel_open = true;
	/* the stated maximum clock only: a VM's /proc/cpuinfo shows a nominal
	 * figure below what its cores really run at */
	double max_mhz = e->tel.active ? e->tel.src.max_mhz : 0;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
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
	fill_meta(e);
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
	if (devlock_take(&e->lock, uuid, false, 0, why, sizeof why) == DEVLOCK_BUSY)
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

/* Builds the engine; the first failure returns, and release() takes apart
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
		log_finish(e, err); /* the log says why the run never started */
		return atomic_load(&e->wrong) ? STATUS_WRONG : STATUS_FAILED;
	}
	e->info.start_warmup_ms = (double)(clock_mono_ns() - t0) * 1e-6;
	return STATUS_OK;
}

static void release(Engine *e)
{
	if (e->thread_started) {
		engine_request_stop(e);
		engine_join(e);
	}
	/* a run that never started still closes its log properly */
	log_finish(e, NULL);
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
		release(e);
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
	in->telemetry_active = e->tel.active;
	in->telemetry_note = e->tel.note;
	in->start_pipeline_ms = e->comp.pipeline_ms;
	in->pipeline_cache_loaded = e->comp.cache_loaded;
	in->cache_note = e->cache_note;
	in->lock_note = e->lock_note;
	return e;
}

const RunInfo *engine_info(const Engine *e)
{
	return &e->info;
}

const SessionMeta *engine_meta(const Engine *e)
{
	return &e->meta;
}

static void fail(Engine *e, VkResult vr, const char *fmt, const char *detail)
{
	snprintf(e->error, sizeof e->error, fmt, detail);
	e->error_vk = vr;
	log_finish(e, e->error);
	atomic_store_explicit(&e->state, ENGINE_ERROR, memory_order_release);
}

/* One dispatch on its way: what was submitted in a slot. */
typedef struct Pending {
	GroupCount g;
	bool check, steady;
	uint64_t seq;
	uint64_t size;   /* transfers: bytes of each copy */
} Pending;

/* A dispatch that is not recorded is still checked; false (the engine has
 * failed) when its results are wrong. */
static bool checked(Engine *e, const Pending *p, char *err)
{
	if (check_results(e, adapt_total(p->g), err, ERR_LEN))
		return true;
	fail(e, VK_SUCCESS, "%s", err);
	return false;
}

/* Turns a finished dispatch into a sample: checks its results if asked,
 * adds telemetry and the plausibility guard, hands it to the consumer and
 * the log. false (the engine has failed) when the check failed. */
static bool emit(Engine *e, const Pending *p, const DispatchTiming *t, bool pipelined, uint64_t start,
                 char *err)
{
	uint64_t groups = adapt_total(p->g);
	uint64_t work = e->ops->work(&e->work, groups, p->size);
	if (p->check && !check_results(e, groups, err, ERR_LEN)) {
		fail(e, VK_SUCCESS, "%s", err);
		return false;
	}
	Sample s = {
		.seq = p->seq,
		.t_ms = (double)(clock_mono_ns() - start) * 1e-6,
		.x = p->g.x, .y = p->g.y, .z = p->g.z,
		.groups = groups,
		.work = work,
		.size = p->size,
		/* per dispatch: a submission's times divided by its trials */
		.gpu_ns = t->gpu_valid ? t->gpu_ns / e->work.trials : 0,
		.cpu_ns = t->cpu_ns / e->work.trials,
		.trials = e->work.trials,
		.target_ms = e->adapt.target_s * 1e3,
		.gpu_end_ns = t->gpu_valid ? t->gpu_end_ns : 0,
		.flags = (t->gpu_valid ? SAMPLE_GPU_TIMED : 0) | (p->steady ? SAMPLE_STEADY : 0) |
		         (p->check ? SAMPLE_VERIFIED : 0) | (pipelined ? SAMPLE_PIPELINED : 0) | work_sample_flags(&e->work),
	};
	double secs = sample_time_s(&s);
	s.rate = secs > 0 ? (double)s.work / secs : 0.0;
	TelReading tr;
	telemetry_latest(&e->tel, &tr);
	s.tel_valid = tr.valid;
	memcpy(s.tel, tr.v, sizeof s.tel);
	double mhz = tel_has(&tr, TEL_SM_MHZ) ? tr.v[TEL_SM_MHZ] : e->peak.max_mhz;
	s.peak_flops = peak_flops(&e->peak, mhz);
	/* the guard: above 105% of the peak at the highest clock the device
	 * has, or this reading if higher, is not believed */
	double limit = PEAK_IMPLAUSIBLE * peak_flops(&e->peak, mhz > e->peak.max_mhz ? mhz : e->peak.max_mhz);
	if (limit > 0 && s.rate > limit)
		s.flags |= SAMPLE_IMPLAUSIBLE;
	ring_push(&e->ring, &s);
	if (!atomic_load_explicit(&e->first_sample_ns, memory_order_relaxed) && e->cfg.launch_ns)
		atomic_store(&e->first_sample_ns, clock_mono_ns() - e->cfg.launch_ns);
	size_t nc = e->sum.changes.nchanges, ne = e->sum.changes.nexc;
	sum_begin(e);
	summary_add(&e->sum, &s);
	/* who else was on the GPU: the names NVML's lists give, now */
	if (e->sum.changes.nchanges > nc && tel_has(&tr, TEL_OTHER_GPU))
		change_name_processes(&e->sum.changes, nc, tr.who);
	sum_end(e);
	if (e->log.f) {
		log_step(e, slog_write_sample(&e->log, &s));
		log_changes(e, nc, ne);
	}
	return true;
}

/* The measuring loop's state, owned by the engine thread. */
typedef struct Loop {
	Push push;
	uint64_t duration_ns;    /* 0: until stopped */
	uint64_t extend_ns;      /* ... and while no steady sample came, up to this more */
	bool can_pipe;           /* not --serial */
	bool sweep;              /* a transfer sweep over several sizes */
	SchedConfig sc;
	Sched sched;             /* which submissions are checked, when more may go in */
	GroupCount g;            /* the next submission's size */
	AdaptRule rule;
	uint64_t start;          /* the run's (or restart's) start */
	uint64_t last_done;      /* the last completion; 0 after a pause */
	Pending pend[COMPUTE_SLOTS];
	unsigned head;           /* the oldest in flight */
	unsigned seen_restart;
	size_t size_i;           /* transfers: the size measured now */
	uint64_t cur_size;
	unsigned size_steady;    /* its steady samples so far */
	uint64_t size_since;     /* the first of them */
	unsigned resumes;        /* clock_resumes() as last seen */
	unsigned logged_targets; /* target changes the log has */
	unsigned logged_pauses;  /* pauses the log has */
	unsigned discard;        /* in flight across a stop: completed, checked, not recorded */
	uint64_t stopped_ns;     /* time stopped: not counted in --duration */
	char err[ERR_LEN];
} Loop;

/* Whether the process was stopped (SIGSTOP, Ctrl-Z) while a submission
 * made at since_ns ran: the stop is no measurement. The consumer's SIGCONT
 * handler counts the resume; it runs on another thread, so a submission that
 * took far longer than the target waits briefly for the count before it is
 * believed. The gap is logged and summarised; it does not count toward
 * --duration. */
static bool was_stopped(Engine *e, Loop *L, uint64_t since_ns, uint64_t now)
{
	unsigned r = clock_resumes();
	uint64_t expect = 2 * (uint64_t)(e->adapt.target_s * 1e9) * e->work.trials + 50000000ull;
	for (int i = 0; r == L->resumes && now - since_ns > expect && i < 20; i++) {
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
		r = clock_resumes();
	}
	if (r == L->resumes)
		return false;
	L->resumes = r;
	uint64_t resumed = clock_last_resume_ns();
	if (resumed <= since_ns)
		return false; /* it went on before this submission began */
	uint64_t gap = resumed - since_ns;
	L->stopped_ns += gap;
	/* a SIGCONT with no stop, or a stop shorter than a dispatch or two,
	 * costs the sample(s) across it and is not called a stop */
	if (now - since_ns <= expect)
		return true;
	sum_begin(e);
	summary_add_gap(&e->sum, (double)gap * 1e-6);
	sum_end(e);
	if (e->log.f)
		log_step(e, slog_write_gap(&e->log, (double)(since_ns - L->start) * 1e-6, (double)gap * 1e-6));
	return true;
}

/* A control action in the log: {"type":"control","action":..,"t_ms":..}
 * with the new target or a note. */
static void log_control(Engine *e, const Loop *L, const char *action, double target_ms, const char *note)
{
	if (e->log.f)
		log_step(e, slog_write_control(&e->log, action, (double)(clock_mono_ns() - L->start) * 1e-6,
		                               target_ms, note));
}

/* steady time per size of a sweep, s (and at least 3 samples) */
#define SWEEP_WINDOW_S 0.3

/* Completes the oldest submission in flight; false when the engine failed. */
static bool complete_one(Engine *e, Loop *L)
{
	unsigned slot = L->head;
	const Pending *p = &L->pend[slot];
	DispatchTiming t;
	VkResult vr;
	if (!compute_wait(&e->comp, slot, p->check, &t, &vr, L->err)) {
		fail(e, vr, "%s", L->err);
		return false;
	}
	uint64_t now = clock_mono_ns();
	t.cpu_ns = now - L->last_done; /* the interval between completions */
	bool stopped = was_stopped(e, L, L->last_done, now);
	L->last_done = now;
	L->head = (L->head + 1) % COMPUTE_SLOTS;
	sched_complete(&L->sched, p->check);
	if (stopped)
		L->discard = L->sched.inflight; /* the rest in flight ran across it too */
	else if (L->discard)
		L->discard--, stopped = true;
	if (stopped) /* the device's work is still checked; its times are no measurement */
		return !p->check || checked(e, p, L->err);
	if (!emit(e, p, &t, true, L->start, L->err))
		return false;
	if (p->steady && p->size == L->cur_size && !L->size_steady++)
		L->size_since = now;
	L->rule = adapt_next(&e->adapt, p->g, sample_secs(&t), &L->g);
	return true;
}

static bool complete_all(Engine *e, Loop *L)
{
	while (L->sched.inflight)
		if (!complete_one(e, L))
			return false;
	return true;
}

/* Growing (or the first at the target): the seed's serial step, one
 * submission waited for. */
static bool step_serial(Engine *e, Loop *L, bool steady)
{
	if (!complete_all(e, L))
		return false;
	uint64_t seq = L->sched.seq;
	Pending p = { L->g, sched_serial(&L->sched, &L->sc, steady), steady, seq, L->cur_size };
	if (p.check)
		e->ops->prepare_check(&e->work, &e->comp, L->g);
	DispatchTiming t;
	VkResult vr;
	uint64_t sent = clock_mono_ns();
	if (!compute_dispatch(&e->comp, L->g, L->push.bytes, p.check, &t, &vr, L->err)) {
		fail(e, vr, "%s", L->err);
		return false;
	}
	L->last_done = clock_mono_ns();
	if (was_stopped(e, L, sent, L->last_done)) {
		return !p.check || checked(e, &p, L->err);
	}
	if (!emit(e, &p, &t, false, L->start, L->err))
		return false;
	if (steady && !L->size_steady++)
		L->size_since = L->last_done;
	L->rule = adapt_next(&e->adapt, L->g, sample_secs(&t), &L->g);
	return true;
}

/* At the target: keep the queue full, then complete the oldest. */
static bool step_pipelined(Engine *e, Loop *L)
{
	while (sched_may_submit(&L->sched, &L->sc)) {
		unsigned slot = (L->head + L->sched.inflight) % COMPUTE_SLOTS;
		uint64_t seq = L->sched.seq;
		Pending p = { L->g, sched_submit(&L->sched, &L->sc), true, seq, L->cur_size };
		if (p.check)
			e->ops->prepare_check(&e->work, &e->comp, L->g);
		VkResult vr;
		if (!compute_submit(&e->comp, slot, L->g, L->push.bytes, p.check, &vr, L->err)) {
			fail(e, vr, "%s", L->err);
			return false;
		}
		L->pend[slot] = p;
	}
	return complete_one(e, L);
}

/* The adaptive loop starts over: a restart (a new run: numbering, the first
 * size, the statistics and the clock) or a sweep's next size. */
static void begin_phase(Engine *e, Loop *L, bool restart)
{
	if (restart) {
		/* a new segment of the same run: numbering and the loop start over;
		 * the clock goes on and the summary covers every segment */
		L->size_i = 0;
		if (e->log.f)
			log_step(e, slog_write_restart(&e->log, (double)(clock_mono_ns() - L->start) * 1e-6));
		size_t nc = e->sum.changes.nchanges, ne = e->sum.changes.nexc;
		sum_begin(e);
		summary_restart(&e->sum);
		sum_end(e);
		log_changes(e, nc, ne);
		atomic_store(&e->checks_run, 0);
	}
	if (e->work.nsizes) {
		L->cur_size = e->work.sizes[L->size_i];
		compute_set_copy_size(&e->comp, L->cur_size);
	}
	L->g = adapt_initial();
	L->rule = ADAPT_GROW;
	L->size_steady = 0;
	sched_begin(&L->sched, restart);
	atomic_store(&e->state, ENGINE_GROWING);
}

/* Whether --duration is over: its time run (stops not counted), and a
 * steady sample recorded or the extension spent too. */
static bool duration_over(const Loop *L)
{
	/* a resume not yet accounted (the submission across the stop has not
	 * completed): the stop is not in stopped_ns yet, and would be counted
	 * as measured time (a 3 s run ended 0.7 s in after a 2.5 s stop) */
	if (clock_resumes() != L->resumes)
		return false;
	uint64_t ran = clock_mono_ns() - L->start - L->stopped_ns;
	return ran >= L->duration_ns && (L->size_steady || ran >= L->duration_ns + L->extend_ns);
}

/* A sweep's size had its steady window. */
static bool size_done(const Loop *L)
{
	return L->sweep && L->size_steady >= 3 &&
	       clock_mono_ns() - L->size_since >= (uint64_t)(SWEEP_WINDOW_S * 1e9);
}

/* Paused with nothing in flight: waits for resume or stop. */
static void wait_while_paused(Engine *e, Loop *L)
{
	pthread_mutex_lock(&e->mu);
	int before = atomic_load(&e->state);
	atomic_store(&e->state, ENGINE_PAUSED);
	while (e->cmd.paused && !e->cmd.stop)
		pthread_cond_wait(&e->cv, &e->mu);
	atomic_store(&e->state, before);
	pthread_mutex_unlock(&e->mu);
	L->last_done = 0; /* the next completion interval starts afresh */
	L->resumes = clock_resumes(); /* a stop while paused measured nothing */
}

/* The loop's state at the start of the run. */
static void loop_init(Engine *e, Loop *L)
{
	L->push = push_constants(e);
	L->duration_ns = (uint64_t)(e->cfg.duration_s * 1e9);
	L->extend_ns = e->cfg.extend_s > 0 ? (uint64_t)(e->cfg.extend_s * 1e9) : 0;
	L->can_pipe = !e->cfg.serial;
	L->sweep = e->work.nsizes > 1;
	/* Where the host reads the destination itself, later copies would
	 * overwrite it: nothing goes in behind a checked submission. */
	L->sc = (SchedConfig){ .slots = COMPUTE_SLOTS, .check_every = e->cfg.check_every,
	                       .hold_checks = e->comp.dst_map != NULL };
	pthread_mutex_lock(&e->mu);
	L->seen_restart = e->cmd.restart;
	pthread_mutex_unlock(&e->mu);
	L->start = clock_mono_ns();
	L->resumes = clock_resumes();
	begin_phase(e, L, false);
}

/* The dashboard's commands since the last step, each a record of the log:
 * a pause that began and ended while a dispatch ran, and every change of
 * the target (+ or -), however fast they came. */
static void log_commands(Engine *e, Loop *L, const Commands *cmd)
{
	for (; L->logged_pauses != cmd->pauses; L->logged_pauses++) {
		log_control(e, L, "pause", 0, "resumed within one submission: the engine never held");
		log_control(e, L, "resume", 0, NULL);
	}
	if (cmd->ntargets - L->logged_targets > 16)
		L->logged_targets = cmd->ntargets - 16;
	for (; L->logged_targets != cmd->ntargets; L->logged_targets++)
		log_control(e, L, "target", cmd->targets[L->logged_targets % 16], NULL);
}

typedef enum Turn { TURN_STEP, TURN_AGAIN, TURN_END, TURN_FAILED } Turn;

/* A pause, a restart or the end of a sweep's size: what is in flight
 * belongs to the old phase and is completed first. What the loop does next. */
static Turn phase_change(Engine *e, Loop *L, const Commands *cmd)
{
	bool restart = cmd->restart != L->seen_restart;
	if (!(cmd->paused || restart || size_done(L)))
		return TURN_STEP;
	if (!complete_all(e, L))
		return TURN_FAILED;
	if (cmd->paused) {
		L->logged_pauses = cmd->pauses;
		log_control(e, L, "pause", 0, NULL);
		wait_while_paused(e, L);
		log_control(e, L, "resume", 0, NULL);
		return TURN_AGAIN;
	}
	if (restart) {
		L->seen_restart = cmd->restart;
		begin_phase(e, L, true);
		return TURN_STEP;
	}
	if (++L->size_i == e->work.nsizes)
		return TURN_END;
	begin_phase(e, L, false);
	return TURN_AGAIN;
}

static void *engine_main(void *arg)
{
	Engine *e = arg;
	thread_name("fs-engine", e->cfg.ordinal ? e->cfg.ordinal : 1);
	Loop *L = calloc(1, sizeof *L);
	if (!L) {
		fail(e, VK_SUCCESS, "%s", "out of memory for the engine loop");
		return NULL;
	}
	loop_init(e, L);
	bool ok = true;
	for (;;) {
		pthread_mutex_lock(&e->mu);
		Commands cmd = e->cmd;
		pthread_mutex_unlock(&e->mu);
		if (cmd.stop)
			break;
		Turn turn = phase_change(e, L, &cmd);
		if (turn == TURN_FAILED)
			ok = false;
		if (turn == TURN_FAILED || turn == TURN_END)
			break;
		if (turn == TURN_AGAIN)
			continue;
		e->adapt.target_s = (double)cmd.target_ns * 1e-9;
		log_commands(e, L, &cmd);
		bool steady = L->rule == ADAPT_RESCALE;
		if (!(L->can_pipe && steady) || !L->last_done)
			ok = step_serial(e, L, steady);
		else
			ok = step_pipelined(e, L);
		if (!ok)
			break;
		if (L->rule == ADAPT_RESCALE && atomic_load(&e->state) == ENGINE_GROWING)
			atomic_store(&e->state, ENGINE_STEADY);
		if (L->duration_ns && !L->sweep && duration_over(L))
			break;
	}
	/* what is still in flight was measured: record it */
	if (ok)
		ok = complete_all(e, L);
	pthread_mutex_lock(&e->mu);
	Commands last = e->cmd;
	pthread_mutex_unlock(&e->mu);
	if (last.note[0])
		log_control(e, L, "stop", 0, last.note);
	free(L);
	if (ok) {
		log_finish(e, NULL);
		atomic_store_explicit(&e->state, ENGINE_DONE, memory_order_release);
	}
	return NULL;
}

bool engine_start(Engine *e, Error *err)
{
	/* telemetry first: clocks are known from the first dispatch */
	telemetry_start(&e->tel, 10);
	/* Signals belong to the consumer's thread: block them in the engine. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&e->thread, NULL, engine_main, e);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		err->status = STATUS_FAILED;
		err->vk = 0;
		snprintf(err->msg, sizeof err->msg, "cannot start the engine thread: %s", strerror(rc));
		return false;
	}
	e->thread_started = true;
	return true;
}

/* Every command: one field under the mutex, and a signal to a waiting thread. */
void engine_request_stop(Engine *e)
{
	pthread_mutex_lock(&e->mu);
	e->cmd.stop = true;
	pthread_cond_signal(&e->cv);
	pthread_mutex_unlock(&e->mu);
}

void engine_set_paused(Engine *e, bool paused)
{
	pthread_mutex_lock(&e->mu);
	if (paused && !e->cmd.paused)
		e->cmd.pauses++;
	e->cmd.paused = paused;
	pthread_cond_signal(&e->cv);
	pthread_mutex_unlock(&e->mu);
}

void engine_request_restart(Engine *e)
{
	pthread_mutex_lock(&e->mu);
	e->cmd.restart++;
	pthread_cond_signal(&e->cv);
	pthread_mutex_unlock(&e->mu);
}

void engine_set_target_ms(Engine *e, double ms)
{
	pthread_mutex_lock(&e->mu);
	e->cmd.target_ns = (uint64_t)(ms * 1e6);
	e->cmd.targets[e->cmd.ntargets++ % 16] = ms;
	pthread_mutex_unlock(&e->mu);
}

double engine_target_ms(Engine *e)
{
	pthread_mutex_lock(&e->mu);
	uint64_t ns = e->cmd.target_ns;
	pthread_mutex_unlock(&e->mu);
	return (double)ns * 1e-6;
}

EngineState engine_state(Engine *e)
{
	return (EngineState)atomic_load_explicit(&e->state, memory_order_acquire);
}

const char *engine_state_str(EngineState s)
{
	static const char *const names[ENGINE_STATE_COUNT] = {
		"ready", "growing", "at target", "paused", "done", "error",
	};
	return (unsigned)s < ENGINE_STATE_COUNT ? names[s] : "?";
}

const char *engine_log_error(Engine *e)
{
	return atomic_load_explicit(&e->log_failed, memory_order_acquire) ? e->log.error : NULL;
}

const char *engine_error(Engine *e)
{
	return e->error;
}

uint64_t engine_checks_this_run(Engine *e)
{
	return atomic_load(&e->checks_run);
}

void engine_note_stop(Engine *e, const char *why)
{
	pthread_mutex_lock(&e->mu);
	snprintf(e->cmd.note, sizeof e->cmd.note, "%s", why);
	pthread_mutex_unlock(&e->mu);
}

bool engine_results_wrong(Engine *e)
{
	return atomic_load(&e->wrong);
}

uint64_t engine_checks_passed(Engine *e)
{
	return atomic_load(&e->checks_passed);
}

void engine_join(Engine *e)
{
	if (e->thread_started) {
		pthread_join(e->thread, NULL);
		e->thread_started = false;
	}
}

void engine_destroy(Engine *e)
{
	if (!e)
		return;
	release(e);
	free(e);
}

bool engine_next(Engine *e, Sample *out)
{
	return ring_pop(&e->ring, out);
}

size_t engine_dropped(Engine *e)
{
	return ring_dropped(&e->ring);
}

double engine_telemetry_read_us(Engine *e)
{
	return telemetry_read_us(&e->tel);
}

double engine_first_sample_ms(Engine *e)
{
	return (double)atomic_load(&e->first_sample_ns) * 1e-6;
}

void engine_summary(Engine *e, SummaryResult *out)
{
	pthread_mutex_lock(&e->view_mu);
	EngineState st = engine_state(e);
	bool running = st == ENGINE_GROWING || st == ENGINE_STEADY;
	uint64_t now = clock_mono_ns();
	pthread_mutex_lock(&e->sum_mu);
	uint64_t ver = e->sum_ver;
	/* while it runs a result a moment old will do; stopped, the last word */
	bool fresh = ver == e->view_ver || (e->view_ver != UINT64_MAX && running && now - e->view_ns < SUMMARY_EVERY_NS);
	if (!fresh)
		summary_copy(&e->view, &e->sum); /* short of memory: the result says oom */
	pthread_mutex_unlock(&e->sum_mu);
	if (!fresh) {
		summary_result(&e->view, &e->view_res);
		e->view_ver = ver;
		e->view_ns = now;
	}
	*out = e->view_res;
	pthread_mutex_unlock(&e->view_mu);
}

static void summary_read(void *e, SummaryResult *out)
{
	engine_summary(e, out);
}

SummaryReader engine_summary_reader(Engine *e)
{
	return (SummaryReader){ e, summary_read };
}

void engine_drain_all(Engine *const *e, size_t n, bool (*on_sample)(void *ctx, size_t k, const Sample *s),
                      void *ctx, atomic_int *quit)
{
	bool taking = on_sample != NULL, stopping = false;
	bool done[ENGINE_DRAIN_MAX] = { false };
	if (n > ENGINE_DRAIN_MAX)
		n = ENGINE_DRAIN_MAX;
	for (;;) {
		/* a signal, or the consumer gave up (a closed pipe): every engine stops */
		if (!stopping && ((quit && *quit) || (on_sample && !taking))) {
			stopping = true;
			for (size_t k = 0; k < n; k++)
				if (e[k])
					engine_request_stop(e[k]);
		}
		bool any = false, running = false;
		for (size_t k = 0; k < n; k++) {
			if (!e[k] || done[k])
				continue;
			/* the state first: samples an engine that has ended pushed are all in its ring */
			EngineState st = engine_state(e[k]);
			Sample s;
			while (ring_pop(&e[k]->ring, &s)) {
				any = true;
				if (taking && !on_sample(ctx, k, &s))
					taking = false;
			}
			if (st == ENGINE_DONE || st == ENGINE_ERROR)
				done[k] = true;
			else
				running = true;
		}
		if (any && taking && !on_sample(ctx, n, NULL)) /* the batch's end */
			taking = false;
		if (!running)
			break;
		if (!any)
			clock_sleep_ms(2);
	}
}

typedef struct DrainOne {
	bool (*on_sample)(void *ctx, const Sample *s);
	void *ctx;
} DrainOne;

static bool drain_one(void *ctx, size_t k, const Sample *s)
{
	(void)k;
	const DrainOne *d = ctx;
	return d->on_sample(d->ctx, s);
}

void engine_drain(Engine *e, bool (*on_sample)(void *ctx, const Sample *s), void *ctx,
                  atomic_int *quit)
{
	DrainOne d = { on_sample, ctx };
	engine_drain_all(&e, 1, on_sample ? drain_one : NULL, &d, quit);
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
