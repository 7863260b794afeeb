#include "replay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void replay_init(Replay *r, SessionData *d, uint64_t (*clock_ns)(void))
{
	memset(r, 0, sizeof *r);
	r->d = *d;
	memset(d, 0, sizeof *d);
	r->speed = 1;
	r->clock_ns = clock_ns;
	r->base_ns = clock_ns();
	summary_init(&r->sum);
	uint64_t verified = 0;
	for (size_t i = 0; i < r->d.n; i++)
		verified += (r->d.samples[i].flags & SAMPLE_VERIFIED) != 0;
	if (r->d.has_summary && r->d.summary_checks > verified)
		r->unrecorded_checks = r->d.summary_checks - verified;
}

void replay_done(Replay *r)
{
	session_data_done(&r->d);
	summary_done(&r->sum);
}

/* the recorded time line's end: the last sample's time */
static double replay_length(const Replay *r)
{
	return r->d.n ? r->d.samples[r->d.n - 1].t_ms : 0;
}

double replay_position(const Replay *r)
{
	if (r->paused)
		return r->base_t_ms;
	if (isinf(r->speed)) /* as fast as possible: everything is due */
		return replay_length(r);
	return r->base_t_ms + (double)(r->clock_ns() - r->base_ns) * 1e-6 * r->speed;
}

static void rebase(Replay *r)
{
	r->base_t_ms = replay_position(r);
	r->base_ns = r->clock_ns();
}

static bool rp_next(void *c, Sample *out)
{
	Replay *r = c;
	if (r->next >= r->d.n || r->d.samples[r->next].t_ms > replay_position(r))
		return false;
	*out = r->d.samples[r->next++];
	if (out->flags & SAMPLE_VERIFIED)
		r->checks++;
	/* a recorded restart: a new segment, as the log's own summary has it */
	if (out->seq == 0 && r->sum.samples)
		summary_restart(&r->sum);
	summary_add(&r->sum, out);
	/* the recorded stops (SIGSTOP), whose totals the log keeps: counted
	 * once the play is through, as the log's summary counts them; and a
	 * departure still open then is settled, as the run settled it */
	for (size_t k = 0; r->next == r->d.n && k < r->d.gaps; k++)
		summary_add_gap(&r->sum, r->d.gap_ms / (double)r->d.gaps);
	if (r->next == r->d.n && r->d.has_summary)
		summary_finish(&r->sum);
	return true;
}

static void rp_summary(void *c, SummaryResult *out)
{
	summary_result(&((Replay *)c)->sum, out);
}

static EngineState rp_state(void *c)
{
	Replay *r = c;
	if (r->next >= r->d.n)
		return r->d.engine_error[0] ? ENGINE_ERROR : ENGINE_DONE;
	if (r->paused)
		return ENGINE_PAUSED;
	return r->next && (r->d.samples[r->next - 1].flags & SAMPLE_STEADY) ? ENGINE_STEADY : ENGINE_GROWING;
}

/* the target the played samples ran at: the last one's (a +/- in the
 * recorded run changed it), the session's before any */
static double rp_target(void *c)
{
	const Replay *r = c;
	double t = r->next ? r->d.samples[r->next - 1].target_ms : 0;
	return t > 0 ? t : r->d.meta.target_ms;
}
/* the checked samples played; at the end, the log's own count */
static uint64_t rp_checks(void *c)
{
	Replay *r = c;
	return r->checks + (r->next >= r->d.n ? r->unrecorded_checks : 0);
}
static size_t rp_dropped(void *c) { (void)c; return 0; }

static const char *rp_error(void *c)
{
	Replay *r = c;
	return r->next >= r->d.n && r->d.engine_error[0] ? r->d.engine_error : NULL;
}

static void rp_pause(void *c, bool p)
{
	Replay *r = c;
	if (isinf(r->speed) && !r->paused) { /* paused where the released samples end */
		r->base_t_ms = r->next ? r->d.samples[r->next - 1].t_ms : 0;
		r->base_ns = r->clock_ns();
	} else {
		rebase(r);
	}
	r->paused = p;
}

static void clear_played(Replay *r);

static void rp_restart(void *c)
{
	Replay *r = c;
	clear_played(r);
	r->base_t_ms = 0;
	r->base_ns = r->clock_ns();
}

static double rp_speed(void *c, int dir)
{
	Replay *r = c;
	if (dir == 0)
		return r->speed;
	if (isinf(r->speed)) { /* back from "as fast as possible": on from what was released */
		r->base_t_ms = r->next ? r->d.samples[r->next - 1].t_ms : 0;
		r->base_ns = r->clock_ns();
	} else {
		rebase(r);
	}
	if (dir > 0 && !isinf(r->speed))
		r->speed = r->speed >= 256 ? INFINITY : r->speed * 2;
	else if (dir < 0 && isinf(r->speed))
		r->speed = 256;
	else if (dir < 0 && r->speed > 1.0 / 8)
		r->speed /= 2;
	return r->speed;
}

static void clear_played(Replay *r)
{
	r->next = 0;
	r->checks = 0;
	summary_done(&r->sum);
	summary_init(&r->sum);
}

static bool rp_seek(void *c, double delta_ms)
{
	Replay *r = c;
	double len = replay_length(r), at = isinf(r->speed) ? len : replay_position(r);
	double to = isinf(delta_ms) ? len : at + delta_ms;
	to = to < 0 ? 0 : to > len ? len : to;
	if (isinf(r->speed)) /* a seek from "as fast as possible" plays on at x1 */
		r->speed = 1;
	bool back = r->next && to < r->d.samples[r->next - 1].t_ms;
	if (back) /* play again from the start up to there */
		clear_played(r);
	r->base_t_ms = to;
	r->base_ns = r->clock_ns();
	return back;
}

static void rp_step(void *c)
{
	Replay *r = c;
	rp_pause(r, true);
	if (r->next < r->d.n)
		r->base_t_ms = r->d.samples[r->next].t_ms;
}

static double rp_position(void *c, double *length)
{
	Replay *r = c;
	*length = replay_length(r);
	double at = replay_position(r);
	return at < *length ? at : *length;
}

static void rp_stop(void *c)
{
	Replay *r = c;
	r->paused = true;
}

/* A replay's reads and controls: every replay's the same (its ctx aside). */
static const SampleSource replay_ops = {
	.replay = true,
	.next = rp_next,
	.state = rp_state,
	.target_ms = rp_target,
	.checks = rp_checks,
	.summary = rp_summary,
	.dropped = rp_dropped,
	.error = rp_error,
	.ctl = { .pause = rp_pause, .restart = rp_restart, .speed = rp_speed, .seek = rp_seek, .step = rp_step,
	         .position = rp_position, .stop = rp_stop },
};

void replay_source(SampleSource *src, Replay *r, const char *path)
{
	const SessionMeta *m = &r->d.meta;
	*src = replay_ops;
	src->ctx = r;
	src->ctl.ctx = r;
	snprintf(src->title, sizeof src->title, "%s (queue %u, %s), recorded %s", m->device,
	         m->queue_family, m->device_type, m->start_utc);
	src->workload = m->workload[0] ? m->workload : "?";
	src->timestamps = !strcmp(m->timing, "gpu");
	src->log_path = path;
	src->max_mhz = m->sm_max_mhz;
}
