#include "check.h"
#include "replay.h"

#include <math.h>
#include <stdlib.h>

/* A recorded session as a source, on a clock the test moves: seek,
 * step, the end and "as fast as possible" release exactly the samples up
 * to the play position, and a seek back plays again from the start. */
static uint64_t now_ns;
static uint64_t test_clock(void) { return now_ns; }

/* n samples 100 ms apart (t = 100, 200 ... ms), every 4th checked */
static void make_replay(Replay *r, SampleSource *src, size_t n)
{
	SessionData d = { 0 };
	/* its summary counts 2 checks more than its samples: the warm-up's and
	 * another dispatch it did not record */
	d.has_summary = true;
	d.summary_checks = (n + 3) / 4 + 2;
	d.samples = calloc(n, sizeof *d.samples);
	d.n = d.cap = n;
	d.meta.target_ms = 20;
	for (size_t i = 0; i < n; i++) {
		Sample *s = &d.samples[i];
		s->seq = i;
		s->t_ms = 100.0 * (double)(i + 1);
		s->rate = 1e9;
		s->flags = SAMPLE_STEADY | (i % 4 == 0 ? SAMPLE_VERIFIED : 0);
		s->target_ms = i < 200 ? 20 : 50; /* a + at 20 s in the recorded run */
	}
	now_ns = 0;
	replay_init(r, &d, test_clock);
	replay_source(src, r, "x.jsonl");
}

static size_t drain(SampleSource *src, Sample *last)
{
	size_t k = 0;
	Sample s;
	while (src->next(src->ctx, &s)) {
		*last = s;
		k++;
	}
	return k;
}

static void replay_should_seek_step_and_end_on_its_time_line(void)
{
	Replay r;
	SampleSource src;
	Sample last = { 0 };
	make_replay(&r, &src, 300); /* 30 s */
	now_ns = 1000000000ull;     /* 1 s at x1: 10 samples */
	CHECK(drain(&src, &last) == 10 && last.seq == 9);
	CHECK(src.target_ms(src.ctx) == 20);
	/* 10 s on: samples up to 11 s */
	CHECK(!src.ctl.seek(src.ctl.ctx, 10e3));
	CHECK(drain(&src, &last) == 100 && last.seq == 109);
	double len, at = src.ctl.position(src.ctl.ctx, &len);
	CHECK_NEAR(at, 11000, 1e-6);
	CHECK_NEAR(len, 30000, 1e-6);
	/* 10 s back: from the start again, up to 1 s */
	CHECK(src.ctl.seek(src.ctl.ctx, -10e3));
	CHECK(src.checks(src.ctx) == 0);
	CHECK(drain(&src, &last) == 10 && last.seq == 9);
	CHECK(src.checks(src.ctx) == 3); /* samples 0, 4, 8 */
	/* a step pauses and releases exactly one, however the clock runs */
	src.ctl.step(src.ctl.ctx);
	now_ns += 5000000000ull;
	CHECK(drain(&src, &last) == 1 && last.seq == 10);
	CHECK(src.state(src.ctx) == ENGINE_PAUSED);
	src.ctl.step(src.ctl.ctx);
	CHECK(drain(&src, &last) == 1 && last.seq == 11);
	/* the end: everything, and the statistics of every sample */
	CHECK(!src.ctl.seek(src.ctl.ctx, INFINITY));
	CHECK(drain(&src, &last) == 300 - 12 && last.seq == 299);
	CHECK(src.target_ms(src.ctx) == 50); /* the header follows the recorded target */
	CHECK(src.state(src.ctx) == ENGINE_DONE);
	SummaryResult res;
	src.summary(src.ctx, &res);
	CHECK(res.flops.n == 300 && src.checks(src.ctx) == 75 + 2); /* the log's own count */
	/* before the start and past the end: held to the time line */
	CHECK(src.ctl.seek(src.ctl.ctx, -1e9));
	CHECK(drain(&src, &last) == 0);
	CHECK(!src.ctl.seek(src.ctl.ctx, 1e9));
	CHECK(drain(&src, &last) == 300);
	replay_done(&r);
}

static void replay_should_go_as_fast_as_asked_and_back(void)
{
	Replay r;
	SampleSource src;
	Sample last = { 0 };
	make_replay(&r, &src, 50);
	double x = 1;
	/* asking (dir 0) changes nothing */
	CHECK(src.ctl.speed(src.ctl.ctx, 0) == 1 && src.ctl.speed(src.ctl.ctx, 0) == 1);
	for (int i = 0; i < 8; i++)
		x = src.ctl.speed(src.ctl.ctx, 1);
	CHECK(x == 256);
	CHECK(isinf(src.ctl.speed(src.ctl.ctx, 1)));
	CHECK(isinf(src.ctl.speed(src.ctl.ctx, 1))); /* the fastest stays */
	/* no time has passed: every sample is due at once */
	CHECK(drain(&src, &last) == 50 && last.seq == 49);
	CHECK(src.ctl.speed(src.ctl.ctx, -1) == 256);
	replay_done(&r);
	/* slowed from the fastest midway: on from what was released */
	make_replay(&r, &src, 50);
	for (int i = 0; i < 9; i++)
		src.ctl.speed(src.ctl.ctx, 1);
	Sample s;
	for (int i = 0; i < 20; i++)
		CHECK(src.next(src.ctx, &s));
	CHECK(src.ctl.speed(src.ctl.ctx, -1) == 256);
	CHECK(drain(&src, &last) == 0); /* the clock has not moved */
	now_ns += 1000000ull;           /* 1 ms at x256: 256 ms of the time line, 2 samples */
	CHECK(drain(&src, &last) == 2 && last.seq == 21);
	replay_done(&r);
}

/* At its end a replay settles a departure still open, as the run settled
 * it: its counts are those of the same samples summarised and finished. */
static void replay_should_end_with_the_runs_settled_counts(void)
{
	Replay r;
	SampleSource src;
	Sample last = { 0 };
	make_replay(&r, &src, 120);
	for (size_t i = 117; i < 120; i++) /* the last 3 samples (300 ms) at half the rate: open at the end */
		r.d.samples[i].rate = 0.5e9;
	Summary ref;
	summary_init(&ref);
	for (size_t i = 0; i < 120; i++)
		summary_add(&ref, &r.d.samples[i]);
	summary_finish(&ref);
	SummaryResult want, got;
	summary_result(&ref, &want);
	CHECK(want.changes.nchanges + want.changes.nexc >= 1); /* the case this is about */
	CHECK(!src.ctl.seek(src.ctl.ctx, INFINITY));
	CHECK(drain(&src, &last) == 120);
	src.summary(src.ctx, &got);
	CHECK(got.changes.nchanges == want.changes.nchanges && got.changes.nexc == want.changes.nexc);
	summary_done(&ref);
	replay_done(&r);
}

int main(void)
{
	RUN(replay_should_end_with_the_runs_settled_counts);
	RUN(replay_should_seek_step_and_end_on_its_time_line);
	RUN(replay_should_go_as_fast_as_asked_and_back);
	return CHECK_DONE();
}
