#include "engine_impl.h"
#include "devlock.h"
#include "clock.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "adapt.h"
#include "burn.h"
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


/* The time the adaptive loop sizes: the whole submission (all its trials),
 * GPU when timed. */
static double sample_secs(const DispatchTiming *t)
{
	return (double)(t->gpu_valid ? t->gpu_ns : t->cpu_ns) * 1e-9;
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
	engine_log_finish(e, e->error);
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
	if (engine_check_results(e, adapt_total(p->g), err, ERR_LEN))
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
	if (p->check && !engine_check_results(e, groups, err, ERR_LEN)) {
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
	s.peak_max_flops = peak_flops(&e->peak, e->peak.max_mhz);
	/* the guard: above 105% of the peak at the highest clock the device
	 * has, or this reading if higher, is not believed */
	double limit = PEAK_IMPLAUSIBLE * peak_flops(&e->peak, mhz > e->peak.max_mhz ? mhz : e->peak.max_mhz);
	if (limit > 0 && s.rate > limit)
		s.flags |= SAMPLE_IMPLAUSIBLE;
	ring_push(&e->ring, &s);
	if (!atomic_load_explicit(&e->first_sample_ns, memory_order_relaxed) && e->cfg.launch_ns)
		atomic_store(&e->first_sample_ns, clock_mono_ns() - e->cfg.launch_ns);
	size_t nc = e->sum.changes.nchanges, ne = e->sum.changes.nexc;
	engine_sum_begin(e);
	summary_add(&e->sum, &s);
	/* who else was on the GPU: the names NVML's lists give, now */
	if (e->sum.changes.nchanges > nc && tel_has(&tr, TEL_OTHER_GPU))
		change_name_processes(&e->sum.changes, nc, tr.who);
	if (tel_has(&tr, TEL_OTHER_GPU)) {
		summary_note_shared(&e->sum, tr.v[TEL_OTHER_GPU], tr.procs.foreign ? "" : tr.who, &tr.procs);
		e->procs = tr.procs; /* the process pane's, under sum_mu */
	}
	engine_sum_end(e);
	if (e->log.f) {
		engine_log_sample(e, &s);
		engine_log_changes(e, nc, ne);
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
 * believed. The stop ran from the signal thread's last sign of life before
 * the resume (or the submission, if later) to the resume: one longer than a
 * dispatch or two is logged and summarised as a gap; none counts toward
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
	uint64_t began = clock_last_stop_began_ns();
	began = began > since_ns && began < resumed ? began : since_ns;
	uint64_t gap = resumed - began;
	L->stopped_ns += gap;
	/* a SIGCONT with no stop (the signal thread alive a tick before it),
	 * or a stop shorter than a dispatch or two, costs the sample(s) across
	 * it and is not called a stop: a slow submission is not one */
	if (gap <= expect)
		return true;
	engine_sum_begin(e);
	summary_add_gap(&e->sum, (double)gap * 1e-6);
	engine_sum_end(e);
	if (e->log.f)
		engine_log_step(e, slog_write_gap(&e->log, (double)(began - L->start) * 1e-6, (double)gap * 1e-6));
	return true;
}

/* A control action in the log: {"type":"control","action":..,"t_ms":..}
 * with the new target or a note. */
static void log_control(Engine *e, const Loop *L, const char *action, double target_ms, const char *note)
{
	if (e->log.f)
		engine_log_step(e, slog_write_control(&e->log, action, (double)(clock_mono_ns() - L->start) * 1e-6,
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
	/* shorter than the device's own time, the completion was seen late
	 * (the drain at a run's end finds them done at once): the device's
	 * time, which the CPU's cannot be below (submission to completion
	 * would count the queue's wait too: the run's seconds twice over) */
	if (t.gpu_valid && t.cpu_ns < t.gpu_ns)
		t.cpu_ns = t.gpu_ns;
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
			engine_log_step(e, slog_write_restart(&e->log, (double)(clock_mono_ns() - L->start) * 1e-6));
		size_t nc = e->sum.changes.nchanges, ne = e->sum.changes.nexc;
		engine_sum_begin(e);
		summary_restart(&e->sum);
		engine_sum_end(e);
		engine_log_changes(e, nc, ne);
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

/* Held PAUSED with nothing in flight until a stop, and: until_ns 0, the
 * user's resume; else that time (a burn's other workload's turn; a stop
 * heard within 20 ms). */
static void hold(Engine *e, Loop *L, uint64_t until_ns)
{
	pthread_mutex_lock(&e->mu);
	int before = atomic_load(&e->state);
	atomic_store(&e->state, ENGINE_PAUSED);
	for (uint64_t now; !e->cmd.stop;) {
		if (!until_ns) {
			if (!e->cmd.paused)
				break;
			pthread_cond_wait(&e->cv, &e->mu);
			continue;
		}
		if ((now = clock_mono_ns()) >= until_ns)
			break;
		uint64_t ns = until_ns - now < 20000000u ? until_ns - now : 20000000u;
		pthread_mutex_unlock(&e->mu);
		nanosleep(&(struct timespec){ .tv_sec = 0, .tv_nsec = (long)ns }, NULL);
		pthread_mutex_lock(&e->mu);
	}
	atomic_store(&e->state, before);
	pthread_mutex_unlock(&e->mu);
	L->last_done = 0; /* the next completion interval starts afresh */
	L->resumes = clock_resumes(); /* a stop while held measured nothing */
}

/* The loop's state at the start of the run. */
static void loop_init(Engine *e, Loop *L)
{
	L->push = engine_push(e);
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

/* A burn of several workloads (core/burn.h): this run waits out the other
 * workloads' windows, what is in flight completed first, as a pause of the
 * log's; TURN_END where no window of its is left. */
static Turn burn_turn(Engine *e, Loop *L)
{
	if (e->cfg.burn_turns < 2)
		return TURN_STEP;
	double t_s = (double)(clock_mono_ns() - L->start) * 1e-9;
	double wait = burn_turn_wait(t_s, e->cfg.burn_s, e->cfg.burn_window_s, e->cfg.burn_turn, e->cfg.burn_turns);
	if (wait == 0)
		return TURN_STEP;
	if (!complete_all(e, L))
		return TURN_FAILED;
	if (wait < 0)
		return TURN_END;
	engine_log_turn_end(e);
	log_control(e, L, "pause", 0, "the burn's other workload's turn");
	hold(e, L, clock_mono_ns() + (uint64_t)(wait * 1e9));
	log_control(e, L, "resume", 0, NULL);
	return TURN_AGAIN;
}

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
		hold(e, L, 0);
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
		if ((turn = burn_turn(e, L)) == TURN_FAILED)
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
		engine_log_finish(e, NULL);
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
	if (e->thread_started) {
		engine_request_stop(e);
		engine_join(e);
	}
	engine_release(e);
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

void engine_procs(Engine *e, ProcTable *out)
{
	pthread_mutex_lock(&e->sum_mu);
	*out = e->procs;
	pthread_mutex_unlock(&e->sum_mu);
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
	uint64_t told = clock_mono_ns(); /* the last batch's end the consumer was told */
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
		/* the batch's end; with no sample, every 100 ms still (the
		 * consumer's clock goes on: --interval's empty rows, metrics) */
		uint64_t now = clock_mono_ns();
		if ((any || now - told >= 100000000u) && taking) {
			told = now;
			if (!on_sample(ctx, n, NULL))
				taking = false;
		}
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

