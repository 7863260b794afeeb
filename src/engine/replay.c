#include "replay.h"

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
}

void replay_done(Replay *r)
{
	session_data_done(&r->d);
	summary_done(&r->sum);
}

double replay_position(const Replay *r)
{
	if (r->paused)
		return r->base_t_ms;
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
	 * once the play is through, as the log's summary counts them */
	for (size_t k = 0; r->next == r->d.n && k < r->d.gaps; k++)
		summary_add_gap(&r->sum, r->d.gap_ms / (double)r->d.gaps);
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

static double rp_target(void *c) { return ((Replay *)c)->d.meta.target_ms; }
static uint64_t rp_checks(void *c) { return ((Replay *)c)->checks; }
static size_t rp_dropped(void *c) { (void)c; return 0; }

static const char *rp_error(void *c)
{
	Replay *r = c;
	return r->next >= r->d.n && r->d.engine_error[0] ? r->d.engine_error : NULL;
}

static void rp_pause(void *c, bool p)
{
	Replay *r = c;
	rebase(r);
	r->paused = p;
}

static void rp_restart(void *c)
{
	Replay *r = c;
	r->next = 0;
	r->checks = 0;
	summary_done(&r->sum);
	summary_init(&r->sum);
	r->base_t_ms = 0;
	r->base_ns = r->clock_ns();
}

static double rp_speed(void *c, int dir)
{
	Replay *r = c;
	rebase(r);
	if (dir > 0 && r->speed < 256)
		r->speed *= 2;
	else if (dir < 0 && r->speed > 1.0 / 8)
		r->speed /= 2;
	return r->speed;
}

static void rp_stop(void *c)
{
	Replay *r = c;
	r->paused = true;
}

void replay_source(SampleSource *src, Replay *r, const char *path)
{
	memset(src, 0, sizeof *src);
	const SessionMeta *m = &r->d.meta;
	src->ctx = r;
	snprintf(src->title, sizeof src->title, "%s (queue %u, %s), recorded %s", m->device,
	         m->queue_family, m->device_type, m->start_utc);
	src->workload = m->workload[0] ? m->workload : "?";
	src->timestamps = !strcmp(m->timing, "gpu");
	src->log_path = path;
	src->replay = true;
	src->next = rp_next;
	src->state = rp_state;
	src->target_ms = rp_target;
	src->checks = rp_checks;
	src->summary = rp_summary;
	src->dropped = rp_dropped;
	src->error = rp_error;
	src->ctl = (SourceControls){ .ctx = r, .pause = rp_pause, .restart = rp_restart, .speed = rp_speed,
	                             .stop = rp_stop };
}
