/* A burn's windows (core/burn.h): figures from samples, each judged against
 * the device's first window, its holds, its results and its peers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "burn.h"
#include "check.h"
#include "throttle.h"

/* n steady samples from t0_s, 20 ms apart, rates around rate (a spread of
 * +-spread, the same for every second), with reasons bits where hold_from
 * (a share of the samples from the end) is reached */
static Sample *samples(size_t n, double t0_s, double rate, double spread, uint64_t bits, double bits_share)
{
	Sample *s = calloc(n, sizeof *s);
	for (size_t k = 0; s && k < n; k++) {
		s[k].t_ms = t0_s * 1000 + 20.0 * (double)k;
		s[k].flags = SAMPLE_STEADY | (k % 10 == 0 ? SAMPLE_VERIFIED : 0);
		s[k].rate = rate * (1 + spread * ((double)(k % 7) - 3) / 3);
		s[k].tel_valid = 1u << TEL_THROTTLE | 1u << TEL_SM_MHZ | 1u << TEL_TEMP_C;
		s[k].tel[TEL_THROTTLE] = (double)((double)k >= (double)n * (1 - bits_share) ? bits : 0);
		s[k].tel[TEL_SM_MHZ] = 1800;
		s[k].tel[TEL_TEMP_C] = 60 + (double)k / (double)n * 10;
	}
	return s;
}

static BurnWindow window(unsigned index, double rate, double spread, uint64_t bits, double share)
{
	BurnWindow w = { .index = index, .t0_s = 10.0 * index, .t1_s = 10.0 * (index + 1) };
	Sample *s = samples(500, w.t0_s, rate, spread, bits, share);
	CHECK(s && burn_window_stats(&w, s, 500));
	free(s);
	return w;
}

static void a_window_should_have_its_figures_from_its_samples(void)
{
	BurnWindow w = window(0, 100e12, 0.01, THR_POWER_CAP, 0.5);
	CHECK(w.samples == 500 && w.steady == 500 && w.verified == 50);
	CHECK_NEAR(w.median, 100e12, 1e10);
	CHECK_NEAR(w.min, 99e12, 1e9);
	CHECK(w.mhz == 1800 && w.temp_max < 70 && w.temp_max > 69);
	CHECK_NEAR(w.held_power, 0.5, 0.01);
	CHECK(w.held_thermal == 0 && w.held_hw == 0 && isnan(w.watts) && isnan(w.others));
	/* ten 1 s blocks of the same spread: no noise between them */
	CHECK(isfinite(w.noise) && w.noise < 0.01);
	burn_judge(&w, NULL, 5, "");
	CHECK(w.status == BURN_PASS && verdict_has(&w.causes, VC_POWER_CAP)); /* the cap: reported, not failed */
}

static void a_sinking_window_should_fail_as_drift_beyond_the_noise(void)
{
	BurnWindow first = window(0, 100e12, 0.01, 0, 0);
	burn_judge(&first, &first, 5, "");
	CHECK(first.status == BURN_PASS && first.causes.n == 0);
	BurnWindow same = window(1, 98e12, 0.01, 0, 0);
	burn_judge(&same, &first, 5, "");
	CHECK(same.status == BURN_PASS && same.causes.n == 0); /* 2% below: within the margin */
	BurnWindow sunk = window(2, 90e12, 0.01, 0, 0);
	burn_judge(&sunk, &first, 5, "");
	CHECK(sunk.status == BURN_FAIL && verdict_has(&sunk.causes, VC_DRIFT));
	CHECK_NEAR(sunk.drift, 0.9, 0.001);
	/* the same shortfall in windows whose own noise reaches past it: cannot tell */
	BurnWindow a = window(0, 100e12, 0.01, 0, 0), b = window(1, 90e12, 0.01, 0, 0);
	a.noise = 0.2;
	burn_judge(&b, &a, 5, "");
	CHECK(b.status == BURN_UNSURE && verdict_has(&b.causes, VC_DRIFT_UNSURE) && !verdict_has(&b.causes, VC_DRIFT));
	/* a window whose own spread holds a step (another process began in it,
	 * as on the H200: 568 then 160 TFLOPS) is held to the first window's noise */
	BurnWindow c = window(0, 100e12, 0.01, 0, 0), d = window(1, 30e12, 0.01, 0, 0);
	d.noise = 0.7;
	burn_judge(&d, &c, 5, "");
	CHECK(d.status == BURN_FAIL && verdict_has(&d.causes, VC_DRIFT));
}

static void holds_wrong_results_and_failures_should_fail_the_window(void)
{
	BurnWindow hot = window(1, 100e12, 0.01, THR_THERMAL_HW, 0.2);
	burn_judge(&hot, NULL, 5, "");
	CHECK(hot.status == BURN_FAIL && verdict_has(&hot.causes, VC_THROTTLE_HW));
	char text[400];
	verdict_text(&hot.causes, text, sizeof text);
	CHECK(strstr(text, "held by: thermal 20% of its samples, a fault"));
	/* a glitch under the share: no fault */
	BurnWindow glitch = window(1, 100e12, 0.01, THR_HW_SLOWDOWN, 0.02);
	burn_judge(&glitch, NULL, 5, "");
	CHECK(glitch.status == BURN_PASS);
	BurnWindow wrong = window(1, 100e12, 0.01, 0, 0);
	wrong.wrong = true;
	burn_judge(&wrong, NULL, 5, "4711 python3");
	CHECK(wrong.status == BURN_WRONG && wrong.causes.c[0].code == VC_WRONG_RESULT);
	BurnWindow shared = window(1, 100e12, 0.01, 0, 0);
	shared.others = 1;
	burn_judge(&shared, NULL, 5, "4711 python3");
	verdict_text(&shared.causes, text, sizeof text);
	CHECK(shared.status == BURN_PASS && strstr(text, "other processes on the GPU: 1 at most: 4711 python3"));
}

static void a_window_far_below_its_peers_should_be_an_outlier(void)
{
	BurnWindow w[4];
	for (unsigned k = 0; k < 4; k++)
		w[k] = window(3, k == 2 ? 60e12 : 100e12, 0.01, 0, 0);
	BurnWindow *p[4] = { &w[0], &w[1], &w[2], NULL };
	const char *names[4] = { "H200", "H200", "H200", "H200" };
	for (unsigned k = 0; k < 3; k++)
		burn_judge(&w[k], NULL, 5, "");
	CHECK(burn_judge_peers(p, names, 4, 5) == 1);
	CHECK(w[2].status == BURN_OUTLIER && verdict_has(&w[2].causes, VC_OUTLIER));
	CHECK_NEAR(w[2].peer_ratio, 0.6, 0.01);
	CHECK(w[0].status == BURN_PASS && w[1].status == BURN_PASS);
	/* a model of its own has no peers */
	const char *apart[4] = { "H200", "H200", "H100", "H200" };
	BurnWindow x = window(3, 60e12, 0.01, 0, 0);
	BurnWindow *q[4] = { &w[0], &w[1], &x, NULL };
	CHECK(burn_judge_peers(q, apart, 4, 5) == 0 && x.status == BURN_PASS && isnan(x.peer_ratio));
}

/* The hottest reading against the GPU's own slowdown threshold (its
 * samples'): far below it nothing, within 5 C a warning, at it a failure;
 * no threshold read, nothing. The samples run 60 to 70 C. */
static void a_window_near_its_slowdown_threshold_should_be_said(void)
{
	static const struct {
		double slowdown;
		VerdictCode code;
		BurnStatus st;
	} cases[] = { { 90, VC_COUNT, BURN_PASS }, { 74, VC_TEMP_NEAR_SLOWDOWN, BURN_PASS },
		          { 69.5, VC_TEMP_AT_SLOWDOWN, BURN_FAIL }, { NAN, VC_COUNT, BURN_PASS } };
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		BurnWindow w = { .index = 1, .t0_s = 10, .t1_s = 20 };
		Sample *s = samples(500, w.t0_s, 100e12, 0.01, 0, 0);
		CHECK(s != NULL);
		for (size_t k = 0; s && k < 500 && !isnan(cases[i].slowdown); k++) {
			s[k].tel_valid |= 1u << TEL_TEMP_SLOWDOWN_C;
			s[k].tel[TEL_TEMP_SLOWDOWN_C] = cases[i].slowdown;
		}
		CHECK(s && burn_window_stats(&w, s, 500));
		free(s);
		burn_judge(&w, NULL, 5, "");
		CHECK(w.status == cases[i].st);
		CHECK(verdict_has(&w.causes, VC_TEMP_NEAR_SLOWDOWN) == (cases[i].code == VC_TEMP_NEAR_SLOWDOWN));
		CHECK(verdict_has(&w.causes, VC_TEMP_AT_SLOWDOWN) == (cases[i].code == VC_TEMP_AT_SLOWDOWN));
		CHECK(isnan(cases[i].slowdown) ? isnan(w.temp_slowdown) : w.temp_slowdown == cases[i].slowdown);
	}
}

/* The link's replays within a window (the driver's counter, first to
 * last reading): more than the check's limit fail it; a few do not; a
 * counter never read says nothing. */
static void a_window_of_pcie_replays_should_fail(void)
{
	static const struct {
		double rise;
		bool read;
		BurnStatus st;
	} cases[] = { { 100, true, BURN_FAIL }, { 10, true, BURN_PASS }, { 0, false, BURN_PASS } };
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		BurnWindow w = { .index = 1, .t0_s = 10, .t1_s = 20 };
		Sample *s = samples(500, w.t0_s, 100e12, 0.01, 0, 0);
		CHECK(s != NULL);
		for (size_t k = 0; s && cases[i].read && k < 500; k++) {
			s[k].tel_valid |= 1u << TEL_PCIE_REPLAYS;
			s[k].tel[TEL_PCIE_REPLAYS] = 1000 + cases[i].rise * (double)k / 499;
		}
		CHECK(s && burn_window_stats(&w, s, 500));
		free(s);
		burn_judge(&w, NULL, 5, "");
		CHECK(w.status == cases[i].st);
		CHECK(verdict_has(&w.causes, VC_PCIE_REPLAYS) == (cases[i].st == BURN_FAIL));
		CHECK(cases[i].read ? fabs(w.replays - cases[i].rise) < 1e-6 : isnan(w.replays));
	}
}

/* The memory's errors within a window: new uncorrected ECC errors fail
 * it, a failed row remap fails it, a pending one is said; a count that
 * went back (the driver reloaded) is no count. */
static void a_window_of_memory_errors_should_fail(void)
{
	static const struct {
		double first, last;
		double pending, failed;
		BurnStatus st;
		VerdictCode code;
	} cases[] = {
		{ 3, 5, 0, 0, BURN_FAIL, VC_ECC_UNCORRECTED },  { 3, 3, 0, 0, BURN_PASS, VC_COUNT },
		{ 3, 3, 1, 0, BURN_PASS, VC_ROW_REMAP_PENDING }, { 3, 3, 1, 1, BURN_FAIL, VC_ROW_REMAP_FAILED },
		{ 9, 2, 0, 0, BURN_PASS, VC_COUNT },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		BurnWindow w = { .index = 1, .t0_s = 10, .t1_s = 20 };
		Sample *s = samples(500, w.t0_s, 100e12, 0.01, 0, 0);
		CHECK(s != NULL);
		for (size_t k = 0; s && k < 500; k++) {
			s[k].tel_valid |= 1u << TEL_ECC_UNCORRECTED | 1u << TEL_REMAP_PENDING | 1u << TEL_REMAP_FAILED;
			s[k].tel[TEL_ECC_UNCORRECTED] = k < 250 ? cases[i].first : cases[i].last;
			s[k].tel[TEL_REMAP_PENDING] = k == 400 ? cases[i].pending : 0;
			s[k].tel[TEL_REMAP_FAILED] = k == 400 ? cases[i].failed : 0;
		}
		CHECK(s && burn_window_stats(&w, s, 500));
		free(s);
		burn_judge(&w, NULL, 5, "");
		CHECK(w.status == cases[i].st);
		for (int c = VC_ECC_UNCORRECTED; c <= VC_ROW_REMAP_FAILED; c++)
			CHECK(verdict_has(&w.causes, (VerdictCode)c) == (c == (int)cases[i].code));
	}
}

/* A 4-hour soak at 20 ms (720000 samples) into a trace planned for 10
 * minutes: it halves its spans as the run goes on and keeps at most its
 * points; one sample's dip (a window's minimum) and the hottest reading
 * survive every halving; each point's mean is its samples'. */
static void a_trace_should_stay_small_and_keep_every_minimum(void)
{
	static BurnTrace t;
	burn_trace_init(&t, 600.0);
	CHECK(fabs(t.span_s - 600.0 / (BURN_TRACE_POINTS / 2)) < 1e-9);
	Sample s = { .flags = SAMPLE_STEADY, .tel_valid = 1u << TEL_SM_MHZ | 1u << TEL_TEMP_C };
	size_t n = 4 * 3600 * 50, dip = 654321;
	for (size_t k = 0; k < n; k++) {
		s.t_ms = 20.0 * (double)k;
		s.rate = k == dip ? 1e9 : 100e12;
		s.tel[TEL_SM_MHZ] = k % 2 ? 1800 : 1700;
		s.tel[TEL_TEMP_C] = k == dip + 1 ? 95 : 60;
		burn_trace_add(&t, &s, s.t_ms / 1000);
	}
	CHECK(t.n <= BURN_TRACE_POINTS && t.n >= BURN_TRACE_POINTS / 4);
	CHECK(t.span_s * BURN_TRACE_POINTS >= 4 * 3600.0);
	size_t total = 0, mins = 0, hot = 0;
	for (size_t k = 0; k < t.n; k++) {
		const BurnPoint *p = &t.p[k];
		CHECK(k == 0 || p->slot > t.p[k - 1].slot);
		total += p->q[BURN_Q_RATE].n;
		mins += p->q[BURN_Q_RATE].min == 1e9;
		hot += p->q[BURN_Q_TEMP].max == 95;
		CHECK(fabs(burn_agg_mean(&p->q[BURN_Q_MHZ]) - 1750) < 1);
		CHECK(p->q[BURN_Q_WATTS].n == 0 && isnan(burn_agg_mean(&p->q[BURN_Q_WATTS])));
		/* the dip's point is the one whose span holds its time */
		if (p->q[BURN_Q_RATE].min == 1e9)
			CHECK(p->slot == (long)floor(20.0 * (double)dip / 1000 / t.span_s));
	}
	CHECK(total == n && mins == 1 && hot == 1);
	/* a sample that is not steady is no throughput, its readings count */
	burn_trace_init(&t, 1); /* spans of 0.1 s at the least */
	CHECK(t.span_s == 0.1);
	s.flags = 0;
	s.t_ms = 0;
	burn_trace_add(&t, &s, 0);
	CHECK(t.n == 1 && t.p[0].q[BURN_Q_RATE].n == 0 && t.p[0].q[BURN_Q_MHZ].n == 1);
}

/* Two runs of one device taking turns (2 s windows, one run's trace
 * coarsened by a late sample): merged, they are the trace of all their
 * samples together, a point a span, whichever was coarser. */
static void the_runs_of_a_device_should_merge_into_one_trace(void)
{
	static BurnTrace a, b, both;
	burn_trace_init(&a, 8);
	burn_trace_init(&b, 8);
	burn_trace_init(&both, 8);
	Sample s = { .flags = SAMPLE_STEADY, .tel_valid = 1u << TEL_SM_MHZ };
	for (int k = 0; k < 400; k++) { /* 0 to 8 s, 20 ms apart */
		double t = 0.02 * k;
		bool turn_b = (int)floor(t / 2) % 2;
		s.rate = turn_b ? 3e12 : 5e12;
		s.tel[TEL_SM_MHZ] = 1500 + k % 7;
		burn_trace_add(turn_b ? &b : &a, &s, t);
		burn_trace_add(&both, &s, t);
	}
	s.rate = 1e9; /* past the points: b's spans double */
	burn_trace_add(&b, &s, 60); /* spans of 0.1 s: slot 600 */
	burn_trace_add(&both, &s, 60);
	CHECK(b.span_s == 2 * a.span_s);
	burn_trace_merge(&a, &b);
	CHECK(a.span_s == both.span_s && a.n == both.n);
	for (size_t k = 0; k < a.n && k < both.n; k++) {
		CHECK(a.p[k].slot == both.p[k].slot);
		for (int q = 0; q < BURN_Q_COUNT; q++) {
			const BurnAgg *x = &a.p[k].q[q], *y = &both.p[k].q[q];
			CHECK(x->n == y->n && (!x->n || (x->min == y->min && x->max == y->max)));
			CHECK(fabs(x->sum - y->sum) <= 1e-9 * fabs(y->sum));
		}
	}
	/* merged into the coarser one: the same points */
	static BurnTrace c;
	burn_trace_init(&c, 8);
	burn_trace_add(&c, &s, 60);
	burn_trace_merge(&c, &both);
	CHECK(c.n == both.n && c.p[c.n - 1].q[BURN_Q_RATE].n == 2 && c.p[0].q[BURN_Q_RATE].n == both.p[0].q[BURN_Q_RATE].n);
}

/* A run cut into its windows by the samples' time: each closed as the
 * first sample of the next comes, with its span, counts and extremes; the
 * last closed at the end, partial, to its last sample; past the planned
 * windows the last one takes what comes. */
static void a_run_should_be_cut_into_its_windows(void)
{
	BurnCut c;
	CHECK(burn_cut_init(&c, 3.5, 1.0) && c.windows == 4);
	Sample *s = samples(200, 0, 100e12, 0.01, 0, 0); /* 0 to 3.98 s, 20 ms apart */
	CHECK(s != NULL);
	s[10].rate = 1e9; /* window 0's dip */
	BurnWindow w[4];
	size_t nw = 0;
	for (size_t k = 0; k < 200; k++) {
		BurnWindow closed;
		if (burn_cut_add(&c, &s[k], &closed))
			w[nw++] = closed;
	}
	CHECK(nw == 3);
	burn_cut_close(&c, &w[nw++], true, c.cur + 1);
	for (size_t i = 0; i < 4; i++)
		CHECK(w[i].index == i && w[i].t0_s == (double)i && w[i].samples == 50 && w[i].steady == 50);
	CHECK(w[0].min == 1e9 && w[1].min > 1e12 && w[0].t1_s == 1.0 && w[2].t1_s == 3.0);
	CHECK(w[3].partial && fabs(w[3].t1_s - 3.98) < 1e-9);
	free(s);
	burn_cut_free(&c);
}

/* Two workloads taking turns over 5 windows of 1 s: turn 0 has windows 0,
 * 2, 4 and turn 1 windows 1, 3; each run's cut begins at its first window,
 * leaves out what falls in the other's (a dispatch that ended past its
 * turn) and is cut short only where a window of its remains. */
static void workloads_taking_turns_should_each_keep_their_own_windows(void)
{
	CHECK(burn_turn_owns(0.5, 1, 0, 2) && !burn_turn_owns(1.5, 1, 0, 2) && burn_turn_owns(1.5, 1, 1, 2));
	CHECK(burn_turn_owns(7.5, 1, 0, 1) && burn_turn_owns(7.5, 1, 0, 0));
	CHECK(burn_turn_wait(0.2, 5, 1, 0, 2) == 0 && fabs(burn_turn_wait(0.2, 5, 1, 1, 2) - 0.8) < 1e-9);
	CHECK(fabs(burn_turn_wait(1.25, 5, 1, 0, 2) - 0.75) < 1e-9 && fabs(burn_turn_wait(2.5, 5, 1, 1, 3) - 1.5) < 1e-9);
	/* past turn 1's last window (3) of five: nothing left to wait for */
	CHECK(burn_turn_wait(4.2, 5, 1, 1, 2) < 0 && burn_turn_wait(3.5, 5, 1, 1, 2) == 0);
	CHECK(burn_turn_windows(5, 0, 2) == 3 && burn_turn_windows(5, 1, 2) == 2 && burn_turn_windows(2, 2, 3) == 0);
	CHECK(burn_turn_windows(5, 0, 1) == 5);
	Sample *s = samples(250, 0, 1e9, 0, 0, 0); /* 5 s at 20 ms */
	BurnCut c;
	CHECK(s && burn_cut_init(&c, 5, 1));
	burn_cut_turns(&c, 1, 2);
	CHECK(c.cur == 1);
	BurnWindow w[4], closed;
	size_t nw = 0;
	for (size_t k = 0; s && k < 250; k++)
		if (burn_cut_add(&c, &s[k], &closed))
			w[nw++] = closed;
	/* window 1 closed where window 3's first sample came; window 3 is the
	 * last of turn 1's: not cut short, though the burn has one more */
	CHECK(nw == 1 && w[0].index == 1 && w[0].samples == 50 && w[0].t0_s == 1.0 && w[0].t1_s == 2.0);
	CHECK(c.cur == 3 && c.samples == 50 && !burn_cut_more(&c));
	burn_cut_close(&c, &w[nw++], burn_cut_more(&c), c.cur + 1);
	CHECK(!w[1].partial && w[1].index == 3 && w[1].t1_s == 4.0);
	burn_cut_free(&c);
	/* turn 0's cut, ended after window 2: window 4 of its remains */
	CHECK(burn_cut_init(&c, 5, 1));
	burn_cut_turns(&c, 0, 2);
	for (size_t k = 0; s && k < 150; k++)
		burn_cut_add(&c, &s[k], &closed);
	CHECK(c.cur == 2 && burn_cut_more(&c));
	/* its turn ends: window 2 closed then, window 4 next; a late sample of
	 * window 2 is left out of it; the plan's last window is the end's */
	CHECK(burn_cut_turn_end(&c, &closed) && closed.index == 2 && closed.samples == 50 && !closed.partial);
	CHECK(c.cur == 4 && !burn_cut_turn_end(&c, &closed));
	CHECK(!burn_cut_add(&c, &s[120], &closed) && c.samples == 0);
	CHECK(!burn_cut_add(&c, &s[210], &closed) && c.samples == 1 && !burn_cut_turn_end(&c, &closed));
	burn_cut_free(&c);
	free(s);
}

int main(void)
{
	RUN(workloads_taking_turns_should_each_keep_their_own_windows);
	RUN(a_run_should_be_cut_into_its_windows);
	RUN(a_trace_should_stay_small_and_keep_every_minimum);
	RUN(the_runs_of_a_device_should_merge_into_one_trace);
	RUN(a_window_of_memory_errors_should_fail);
	RUN(a_window_of_pcie_replays_should_fail);
	RUN(a_window_near_its_slowdown_threshold_should_be_said);
	RUN(a_window_should_have_its_figures_from_its_samples);
	RUN(a_sinking_window_should_fail_as_drift_beyond_the_noise);
	RUN(holds_wrong_results_and_failures_should_fail_the_window);
	RUN(a_window_far_below_its_peers_should_be_an_outlier);
	return CHECK_DONE();
}
