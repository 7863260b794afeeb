#include "source.h"

#include "engine.h"
#include "procfs.h"

#include <stdio.h>

static bool eng_next(void *c, Sample *out) { return engine_next(c, out); }
static EngineState eng_state(void *c) { return engine_state(c); }
static double eng_target(void *c) { return engine_target_ms(c); }
static uint64_t eng_checks(void *c) { return engine_checks_this_run(c); }
static void eng_summary(void *c, SummaryResult *out) { engine_summary(c, out); }
static size_t eng_dropped(void *c) { return engine_dropped(c); }
static const char *eng_error(void *c) { return engine_state(c) == ENGINE_ERROR ? engine_error(c) : NULL; }
static const char *eng_log_error(void *c) { return engine_log_error(c); }
static void eng_pause(void *c, bool p) { engine_set_paused(c, p); }
static void eng_restart(void *c) { engine_request_restart(c); }
static void eng_set_target(void *c, double ms) { engine_set_target_ms(c, ms); }
static void eng_note_stop(void *c, const char *why) { engine_note_stop(c, why); }

static void eng_stop(void *c)
{
	engine_request_stop(c);
	engine_join(c);
}

static void eng_procs(void *c, ProcTable *out)
{
	engine_procs(c, out);
}

/* The engine's reads and controls: every engine's the same (its ctx aside). */
static const SampleSource engine_ops = {
	.next = eng_next,
	.state = eng_state,
	.target_ms = eng_target,
	.checks = eng_checks,
	.summary = eng_summary,
	.dropped = eng_dropped,
	.procs = eng_procs,
	.error = eng_error,
	.log_error = eng_log_error,
	.ctl = { .pause = eng_pause, .restart = eng_restart, .set_target = eng_set_target, .note_stop = eng_note_stop,
	         .stop = eng_stop, .procs = &procfs_ops },
};

void source_engine(SampleSource *src, Engine *e)
{
	const RunInfo *in = engine_info(e);
	const DeviceInfo *dev = in->dev;
	*src = engine_ops;
	src->ctx = e;
	src->ctl.ctx = e;
	snprintf(src->title, sizeof src->title, "%s (queue %u, %s)", dev->name, dev->queue_family,
	         devinfo_type_str(dev->type));
	src->workload = workload_info[in->workload].name;
	src->timestamps = in->timestamps;
	src->log_path = in->log_path;
	src->max_mhz = in->max_mhz;
}
