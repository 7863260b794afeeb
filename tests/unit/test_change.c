/* The level-change detector on synthetic traces (uniform, Gaussian and
 * bursty bimodal contention noise; excursions of 1 to 10 samples; steps,
 * ramps, power-state steps with a clock change) and the tutorial's run. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "televent.h"
#include "throttle.h"
#include "procs.h"
#include "check.h"

static uint64_t rng;

static double uniform(void) /* -1 .. 1 */
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(rng >> 11) / 9007199254740992.0) * 2 - 1;
}

static double gauss(void)
{
	double u1 = (uniform() + 1) / 2 + 1e-12, u2 = (uniform() + 1) / 2;
	return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static double NONE[TEL_FIELD_COUNT];

static void no_tel(void)
{
	for (int f = 0; f < TEL_FIELD_COUNT; f++)
		NONE[f] = NAN;
}

/* Feeds x at 20 ms a sample, no telemetry; finishes the series. */
static size_t run(ChangeDetector *d, const double *x, size_t n)
{
	change_init(d);
	for (size_t i = 0; i < n; i++)
		change_add(d, 20.0 * (double)i, x[i], NONE);
	change_finish(d);
	return d->nchanges;
}

/* Steps up (x(1+s)) and down (/(1+s)) under +-3% uniform and 2% Gaussian
 * noise: each found once, within 3 samples of where it is, as a step. */
static void steps_of_15_to_200_percent_should_be_found_where_they_are(void)
{
	const double sizes[] = { 0.15, 0.2, 0.3, 0.5, 1.0, 2.0 };
	double x[100];
	for (int noise = 0; noise < 2; noise++)
		for (int dir = 0; dir < 2; dir++)
			for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
				for (uint64_t seed = 1; seed <= 20; seed++) {
					rng = seed;
					double r = dir ? 1 / (1 + sizes[s]) : 1 + sizes[s];
					for (int i = 0; i < 100; i++)
						x[i] = 3e12 * (i < 40 ? 1 : r) * (1 + (noise ? 0.02 * gauss() : 0.03 * uniform()));
					ChangeDetector d;
					size_t n = run(&d, x, 100);
					const Change *c = change_get(&d, 0);
					bool ok = n == 1 && fabs(c->t_ms / 20.0 - 40) <= 3 && fabs(c->ratio / r - 1) < 0.08 &&
					          c->kind == CHANGE_STEP && !c->at_end && d.nexc == 0;
					if (!ok) {
						fprintf(stderr, "  %s step %s%.0f%% seed %llu: %zu changes, %zu excursions; at %.1f "
						        "x%.3f %s%s\n", noise ? "gauss" : "uniform", dir ? "-" : "+", sizes[s] * 100,
						        (unsigned long long)seed, n, d.nexc, n ? c->t_ms / 20 : -1, n ? c->ratio : 0,
						        n ? change_kind_names[c->kind] : "", n && c->at_end ? " at end" : "");
						check_failed_now = 1;
					}
				}
}

static void flat_noisy_traces_should_have_no_change(void)
{
	enum { N = 2000 };
	static double x[N];
	for (uint64_t seed = 1; seed <= 20; seed++) {
		rng = seed;
		for (int i = 0; i < N; i++)
			x[i] = 6e12 * (1 + 0.05 * uniform());
		ChangeDetector d;
		CHECK(run(&d, x, N) == 0 && d.nexc == 0);
	}
}

/* Contention as a CPU device sees it: bursts of 1 to 10 samples at about
 * half the rate (bimodal, not Gaussian), now and then. Every burst is one
 * excursion; none is a change. */
static void contention_bursts_should_be_excursions_never_changes(void)
{
	enum { N = 3000 };
	static double x[N];
	for (uint64_t seed = 1; seed <= 20; seed++) {
		rng = seed;
		size_t bursts = 0;
		for (int i = 0; i < N;) {
			if (i > 20 && i < N - 20 && uniform() > 0.96) {
				int len = 1 + (int)((uniform() + 1) / 2 * 9.999); /* 1 .. 10 */
				double depth = 0.45 + 0.1 * uniform();
				for (int k = 0; k < len && i < N; k++, i++)
					x[i] = 1e11 * depth * (1 + 0.02 * uniform());
				bursts++;
				/* at least CHG_BACK samples at the level before the next */
				for (int k = 0; k < CHG_BACK && i < N; k++, i++)
					x[i] = 1e11 * (1 + 0.02 * uniform());
			} else {
				x[i++] = 1e11 * (1 + 0.02 * uniform());
			}
		}
		ChangeDetector d;
		size_t n = run(&d, x, N);
		if (n != 0 || d.nexc != bursts) {
			fprintf(stderr, "  seed %llu: %zu changes, %zu excursions for %zu bursts\n",
			        (unsigned long long)seed, n, d.nexc, bursts);
			check_failed_now = 1;
		}
	}
}

/* Each excursion of 1 to 10 samples: one excursion, with its length and depth. */
static void an_excursion_should_be_counted_with_its_length_and_depth(void)
{
	double x[200];
	for (int len = 1; len <= 10; len++) {
		rng = (uint64_t)len;
		for (int i = 0; i < 200; i++)
			x[i] = 5e12 * (i >= 100 && i < 100 + len ? 0.6 : 1) * (1 + 0.01 * uniform());
		ChangeDetector d;
		CHECK(run(&d, x, 200) == 0);
		const Excursion *e = change_excursion(&d, 0);
		CHECK(d.nexc == 1 && e && e->samples == (unsigned)len && e->t_ms == 2000.0);
		CHECK(e && fabs(e->depth - 0.6) < 0.03);
		CHECK(e && fabs(e->t_end_ms - (2000.0 + 20.0 * (len - 1))) < 1e-9);
	}
}

/* A real step among contention bursts: found, once, where it is. */
static void a_real_step_among_bursts_should_be_found(void)
{
	enum { N = 2000 };
	static double x[N];
	for (uint64_t seed = 1; seed <= 10; seed++) {
		rng = seed;
		for (int i = 0; i < N; i++) {
			double level = i < 1000 ? 1e11 : 0.5e11;
			x[i] = level * (1 + 0.02 * uniform());
			if (i % 97 == 50) /* a 2-sample burst now and then */
				x[i] *= 0.5;
		}
		ChangeDetector d;
		size_t n = run(&d, x, N);
		const Change *c = change_get(&d, 0);
		if (n != 1 || fabs(c->t_ms / 20 - 1000) > 3 || fabs(c->ratio - 0.5) > 0.03) {
			fprintf(stderr, "  seed %llu: %zu changes\n", (unsigned long long)seed, n);
			check_failed_now = 1;
		}
	}
}

static void a_gradual_decline_should_be_one_ramp(void)
{
	double x[300];
	rng = 3;
	for (int i = 0; i < 300; i++) {
		double level = i < 50 ? 1 : i < 150 ? 1 - 0.3 * (i - 50) / 100.0 : 0.7;
		x[i] = 2e12 * level * (1 + 0.01 * uniform());
	}
	ChangeDetector d;
	CHECK(run(&d, x, 300) == 1);
	const Change *c = change_get(&d, 0);
	CHECK(c->kind == CHANGE_RAMP);
	CHECK(fabs(c->ratio - 0.7) < 0.03);
	/* three quarters of the way down (0.775) near sample 125 */
	CHECK(c->t_end_ms > c->t_ms && fabs(c->t_end_ms / 20 - 125) < 10);
}

/* Telemetry beside the samples decides the cause. */
static void the_cause_should_follow_what_was_measured_beside(void)
{
	double tel[TEL_FIELD_COUNT];
	ChangeDetector d;
	/* the clock drops with the rate, and the power cap appears: power state */
	change_init(&d);
	for (int i = 0; i < 120; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = i < 60 ? 1980 : 1600;
		tel[TEL_THROTTLE] = i < 60 ? 0 : 0x4;
		change_add(&d, 20.0 * i, (i < 60 ? 6e13 : 4.8e13), tel);
	}
	change_finish(&d);
	const Change *c = change_get(&d, 0);
	CHECK(d.nchanges == 1 && c->cause == CAUSE_POWER_STATE && d.by_cause[CAUSE_POWER_STATE] == 1);
	CHECK_STR(c->why, "clock 1980 -> 1600 MHz, power cap x0.81");
	CHECK(fabs(c->share[SHARE_CLOCK] - 1600.0 / 1980) < 1e-12 && isnan(c->share[SHARE_UNEXPLAINED]));
	/* an AMD card's current limit (TDC, from gpu_metrics), mapped onto the
	 * same reasons: a power-state change, said in its words */
	change_init(&d);
	for (int i = 0; i < 120; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = i < 60 ? 2500 : 2100;
		tel[TEL_THROTTLE] = (double)throttle_from_amd(i < 60 ? 0 : 1ull << 16, 70);
		change_add(&d, 20.0 * i, (i < 60 ? 6e13 : 5e13), tel);
	}
	change_finish(&d);
	c = change_get(&d, 0);
	CHECK(d.nchanges == 1 && c->cause == CAUSE_POWER_STATE);
	CHECK_STR(c->why, "clock 2500 -> 2100 MHz, current/voltage limit x0.84");
	/* the clock unchanged, other processes took the CPU: not a power-state change */
	change_init(&d);
	for (int i = 0; i < 120; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = 2600 + (i % 3);
		tel[TEL_OTHER_CPU] = i < 60 ? 2 : 50;
		change_add(&d, 20.0 * i, i < 60 ? 1.4e11 : 0.7e11, tel);
	}
	change_finish(&d);
	c = change_get(&d, 0);
	CHECK(d.nchanges == 1 && c->cause == CAUSE_NOT_POWER_STATE);
	CHECK_STR(c->why, "other processes used 50% of the CPU (2% before) x0.51; clock unchanged at 2601 MHz");
	char line[400];
	change_format(c, "FLOPS", line, sizeof line);
	CHECK_STR(line, "step at 1.20 s: 140 GFLOPS -> 70.0 GFLOPS (x0.50); not a power-state change: other "
	                "processes used 50% of the CPU (2% before) x0.51; clock unchanged at 2601 MHz");
	/* the clock unchanged, two other processes joined on the GPU (NVML's lists):
	 * counted in the cause, named by the engine where it knows them */
	change_init(&d);
	for (int i = 0; i < 120; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = 1980;
		tel[TEL_OTHER_GPU] = i < 60 ? 0 : 2;
		change_add(&d, 20.0 * i, i < 60 ? 6e13 : 2e13, tel);
	}
	change_finish(&d);
	c = change_get(&d, 0);
	CHECK(d.nchanges == 1 && c->cause == CAUSE_NOT_POWER_STATE);
	CHECK_STR(c->why, "2 other processes on the GPU (0 before), about x0.33; clock unchanged at 1980 MHz");
	change_name_processes(&d, 0, "4711 flopscope, 4712 python3");
	CHECK_STR(c->why, "2 other processes on the GPU (0 before): 4711 flopscope, 4712 python3, about x0.33; clock "
	                 "unchanged at 1980 MHz");
	change_name_processes(&d, 0, "9 x"); /* named once */
	CHECK(!strstr(c->why, "9 x"));
	/* no clock on either side: unexplained */
	change_init(&d);
	for (int i = 0; i < 120; i++)
		change_add(&d, 20.0 * i, i < 60 ? 1e12 : 2e12, NONE);
	change_finish(&d);
	CHECK(d.nchanges == 1 && change_get(&d, 0)->cause == CAUSE_UNEXPLAINED);
	CHECK_STR(change_get(&d, 0)->why, "nothing read explains x2.00; no clock reading");
}

/* A change's ratio split among what was read (issue 44's H100 case: x0.31
 * while another process came onto the GPU and the power cap took the clock
 * from 1980 to 1875 MHz): the clock's part, the other process's, what is
 * left beyond the noise; the cause follows the largest. */
static void a_change_should_be_split_among_its_causes(void)
{
	double tel[TEL_FIELD_COUNT];
	ChangeDetector d;
	change_init(&d);
	for (int i = 0; i < 200; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = i < 100 ? 1980 : 1875;
		tel[TEL_THROTTLE] = i < 100 ? 0 : 0x4;
		tel[TEL_OTHER_GPU] = i < 100 ? 0 : 1;
		change_add(&d, 20.0 * i, (i < 100 ? 660e12 : 206e12) * (1 + 0.004 * ((i * 7) % 5 - 2)), tel);
	}
	change_finish(&d);
	const Change *c = change_get(&d, 0);
	CHECK(d.nchanges == 1 && c->cause == CAUSE_NOT_POWER_STATE);
	CHECK(fabs(c->share[SHARE_CLOCK] - 1875.0 / 1980) < 1e-12);
	CHECK(fabs(c->share[SHARE_CLOCK] * c->share[SHARE_OTHER_GPU] - c->ratio) < 1e-12);
	CHECK(fabs(c->share[SHARE_OTHER_GPU] - 0.33) < 0.01 && isnan(c->share[SHARE_UNEXPLAINED]));
	CHECK_STR(c->why, "1 other process on the GPU (0 before), about x0.33; clock 1980 -> 1875 MHz, power cap x0.95");
	/* the cap alone, with more lost than the clock explains: the clock's
	 * part is the larger, the rest unexplained beside it */
	change_init(&d);
	for (int i = 0; i < 200; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = i < 100 ? 1980 : 1320;
		tel[TEL_THROTTLE] = i < 100 ? 0 : 0x4;
		change_add(&d, 20.0 * i, i < 100 ? 600e12 : 600e12 * 0.5, tel);
	}
	change_finish(&d);
	c = change_get(&d, 0);
	CHECK(c->cause == CAUSE_POWER_STATE);
	CHECK_STR(c->why, "clock 1980 -> 1320 MHz, power cap x0.67; nothing read explains x0.75");
	/* a memory workload: its clock is the memory clock; an SM clock move
	 * explains none of it */
	change_init(&d);
	d.memory = true;
	for (int i = 0; i < 200; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = i < 100 ? 1980 : 1400;
		tel[TEL_MEM_MHZ] = 2619;
		tel[TEL_THROTTLE] = i < 100 ? 0 : 0x4;
		change_add(&d, 20.0 * i, i < 100 ? 3e12 : 2.4e12, tel);
	}
	change_finish(&d);
	c = change_get(&d, 0);
	CHECK(c->cause == CAUSE_NOT_POWER_STATE && isnan(c->share[SHARE_CLOCK]));
	CHECK_STR(c->why, "nothing read explains x0.80; clock 1980 -> 1400 MHz, power cap (not the memory clock)");
	change_init(&d);
	d.memory = true;
	for (int i = 0; i < 200; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = 1980;
		tel[TEL_MEM_MHZ] = i < 100 ? 2619 : 1593;
		change_add(&d, 20.0 * i, i < 100 ? 3e12 : 3e12 * 1593 / 2619, tel);
	}
	change_finish(&d);
	c = change_get(&d, 0);
	CHECK(c->cause == CAUSE_POWER_STATE && fabs(c->share[SHARE_CLOCK] - 1593.0 / 2619) < 1e-12);
	CHECK_STR(c->why, "memory clock 2619 -> 1593 MHz x0.61");
}

/* Other processes' share of the CPU (a CPU device) before and after a step
 * of `ratio`, the clock unchanged: the change it gives. */
static const Change *cpu_step(ChangeDetector *d, double busy_before, double busy_after, double ratio)
{
	double tel[TEL_FIELD_COUNT];
	change_init(d);
	for (int i = 0; i < 120; i++) {
		memcpy(tel, NONE, sizeof tel);
		tel[TEL_SM_MHZ] = 2600;
		tel[TEL_OTHER_CPU] = i < 60 ? busy_before : busy_after;
		change_add(d, 20.0 * i, i < 60 ? 5e10 : 5e10 * ratio, tel);
	}
	change_finish(d);
	return d->nchanges == 1 ? change_get(d, 0) : NULL;
}

/* The CPU's part stays bounded and honest at 0%, 50%, 98% and 100% busy
 * (issue 54: 98% -> 81% busy beside a drop x0.45 said "x10.04"): where
 * too little is left to divide by, "cannot tell", no factor; a part never
 * goes against the rate nor past it. */
static void the_cpus_part_should_stay_bounded_however_busy(void)
{
	ChangeDetector d;
	const Change *c = cpu_step(&d, 0, 50, 0.5);
	CHECK(c && fabs(c->share[SHARE_OTHER_CPU] - 0.5) < 1e-9 && isnan(c->share[SHARE_UNEXPLAINED]));
	CHECK(c && c->cause == CAUSE_NOT_POWER_STATE);
	/* 50% -> 98%: 2% left, nothing to divide by */
	c = cpu_step(&d, 50, 98, 0.5);
	CHECK(c && isnan(c->share[SHARE_OTHER_CPU]) && isnan(c->share[SHARE_UNEXPLAINED]));
	CHECK(c && strstr(c->why, "other processes used 98% of the CPU (50% before): too little of it left to "
	                         "apportion the change, cannot tell its part"));
	CHECK(c && !strstr(c->why, "nothing read explains"));
	/* the case: 98% -> 81% busy, the rate x0.45 */
	c = cpu_step(&d, 98, 81, 0.45);
	CHECK(c && isnan(c->share[SHARE_OTHER_CPU]) && !strstr(c->why, "x10") && strstr(c->why, "cannot tell"));
	/* 100% on both sides */
	c = cpu_step(&d, 100, 100, 0.5);
	CHECK(c && isnan(c->share[SHARE_OTHER_CPU]) && strstr(c->why, "cannot tell"));
	/* less busy, yet slower: the CPU is no part of it */
	c = cpu_step(&d, 40, 20, 0.5);
	CHECK(c && isnan(c->share[SHARE_OTHER_CPU]) && fabs(c->share[SHARE_UNEXPLAINED] - 0.5) < 0.01);
	/* more taken than the rate lost: the part is the rate's, no more */
	c = cpu_step(&d, 0, 50, 0.8);
	CHECK(c && fabs(c->share[SHARE_OTHER_CPU] - c->ratio) < 1e-9);
	/* every factor bounded by the change itself */
	static const double busy[] = { 0, 50, 98, 100 };
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			c = cpu_step(&d, busy[i], busy[j], 0.5);
			for (int k = 0; c && k < SHARE_COUNT; k++)
				CHECK(isnan(c->share[k]) || (c->share[k] > 0.49 && c->share[k] < 1.01));
		}
}

/* The telemetry's events: a cause turning on or off, a clock step alone of
 * more than 5%; the idle bit and a clock's wobble are none; the throughput
 * around each is the medians of 3 samples before and after. */
static void telemetry_events_should_mark_a_cause_and_a_clock_step_as_they_happen(void)
{
	TelEvents t;
	televent_init(&t);
	for (int i = 0; i < 60; i++) {
		Sample s = { .t_ms = 20.0 * i, .rate = i < 10 ? 600 : i < 40 ? 560 : i < 45 ? 520 : 560 };
		s.tel_valid = 1u << TEL_SM_MHZ | 1u << TEL_THROTTLE;
		s.tel[TEL_SM_MHZ] = i < 10 ? 1980 : i < 40 ? (i % 2 ? 1785 : 1800) : i < 45 ? 1560 : 1740;
		s.tel[TEL_THROTTLE] = i < 10 ? (i % 2 ? 0x1 : 0) : 0x4; /* the idle bit blinks: no event */
		if (i == 50)
			s.tel[TEL_THROTTLE] = 0x4 | 0x20; /* thermal (software) on, for one sample */
		televent_add(&t, &s);
	}
	televent_finish(&t);
	CHECK(t.total == 5 && t.n == 5);
	const TelEvent *e = &t.ev[0];
	CHECK(e->t_ms == 200 && e->on == 0x4 && !e->off && e->mhz_before == 1980 && e->mhz_after == 1800);
	CHECK(e->rate_before == 600 && e->rate_after == 560);
	char line[300];
	televent_format(e, "FLOPS", line, sizeof line);
	CHECK_STR(line, "0.20 s: power cap on, clock 1980 -> 1800 MHz, 600 FLOPS -> 560 FLOPS (x0.93)");
	CHECK(t.ev[1].t_ms == 800 && !t.ev[1].on && t.ev[1].mhz_after == 1560 && t.ev[1].rate_after == 520);
	CHECK(t.ev[2].t_ms == 900 && t.ev[2].mhz_after == 1740);
	CHECK(t.ev[3].on == 0x20 && t.ev[4].off == 0x20 && t.ev[4].mhz_before == t.ev[4].mhz_after);
	televent_format(&t.ev[4], "FLOPS", line, sizeof line);
	CHECK_STR(line, "1.02 s: thermal (software) off, clock unchanged at 1740 MHz, 560 FLOPS -> 560 FLOPS (x1.00)");
	/* no telemetry: no event */
	televent_init(&t);
	Sample bare = { .t_ms = 1, .rate = 5 };
	televent_add(&t, &bare);
	CHECK(t.total == 0);
}

/* A process in the pane: what is known of it, nothing made up. */
static void a_process_line_should_say_what_is_known(void)
{
	ProcInfo p = { .pid = 537, .name = "python3", .user = "ana", .mem_bytes = 1.5 * 1024 * 1024 * 1024, .sm_pct = 98 };
	char s[80];
	procs_line(&p, s, sizeof s);
	CHECK_STR(s, "537 python3 (ana) util 98% 1.5 GiB");
	ProcInfo q = { .pid = 9, .mem_bytes = NAN, .sm_pct = NAN };
	procs_line(&q, s, sizeof s);
	CHECK_STR(s, "9");
}

/* The process table sorted by any column, either way, an unknown figure
 * last whichever way; kill(2)'s rule for who may end a process. */
static void the_process_table_should_sort_by_any_column_and_say_who_may_end_one(void)
{
	ProcInfo p[4] = {
		{ .pid = 30, .user = "bo", .mem_bytes = 2e9, .sm_pct = NAN, .kind = PROC_GRAPHICS, .cmd = "b" },
		{ .pid = 10, .user = "ana", .mem_bytes = NAN, .sm_pct = 50, .kind = PROC_COMPUTE, .cmd = "c" },
		{ .pid = 20, .user = "cy", .mem_bytes = 1e9, .sm_pct = 90, .kind = PROC_BOTH, .cmd = "a" },
		{ .pid = 5, .user = "ana", .mem_bytes = 3e9, .sm_pct = 10, .kind = PROC_COMPUTE, .name = "d" },
	};
	procs_sort(p, 4, PROC_COL_MEM, true);
	CHECK(p[0].pid == 5 && p[1].pid == 30 && p[2].pid == 20 && p[3].pid == 10);
	procs_sort(p, 4, PROC_COL_MEM, false);
	CHECK(p[0].pid == 20 && p[1].pid == 30 && p[2].pid == 5 && p[3].pid == 10);
	procs_sort(p, 4, PROC_COL_UTIL, true);
	CHECK(p[0].pid == 20 && p[1].pid == 10 && p[2].pid == 5 && p[3].pid == 30);
	procs_sort(p, 4, PROC_COL_USER, false); /* ties by pid */
	CHECK(p[0].pid == 5 && p[1].pid == 10 && p[2].pid == 30 && p[3].pid == 20);
	procs_sort(p, 4, PROC_COL_CMD, false); /* the name where the command line is unknown */
	CHECK(p[0].pid == 20 && p[1].pid == 30 && p[2].pid == 10 && p[3].pid == 5);
	procs_sort(p, 4, PROC_COL_PID, true);
	CHECK(p[0].pid == 30 && p[3].pid == 5);
	CHECK_STR(procs_kind_names[p[0].kind], "graphics");
	char why[96] = "";
	CHECK(procs_may_signal(1000, 1000, 1000, why, sizeof why) && procs_may_signal(1000, 0, 0, why, sizeof why));
	CHECK(!procs_may_signal(1000, 1000, 0, why, sizeof why));
	CHECK_STR(why, "another user's process (uid 0): only root may end it");
	CHECK(!procs_may_signal(1000, 1000, -1, why, sizeof why) && strstr(why, "owner is unknown"));
	/* a zombie has ended, whatever its name holds */
	CHECK(procs_stat_ended("4711 (sleep) Z 1 4711 4711 0 -1"));
	CHECK(procs_stat_ended("4711 (a) b) X 1"));
	CHECK(!procs_stat_ended("4711 (a) Z) S 1 4711"));
	CHECK(!procs_stat_ended("4711 (sleep) S 1") && !procs_stat_ended("garbage"));
	/* its start time, field 22, after a name of spaces and parentheses */
	unsigned long long start = 0;
	CHECK(procs_stat_start("4711 (a) b (c) S 1 4711 4711 0 -1 4194560 95 0 0 0 0 0 0 0 20 0 1 0 987654 123 45",
	                       &start) && start == 987654);
	CHECK(procs_stat_start("1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 42", &start) && start == 42);
	CHECK(!procs_stat_start("1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18", &start));
	CHECK(!procs_stat_start("1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 4x", &start));
	CHECK(!procs_stat_start("garbage", &start));
}

/* NVML's process lists: this process left out, each other once, in words
 * that fit, the rest counted. */
static void other_gpu_processes_should_be_listed_once_and_fit(void)
{
	const unsigned pids[] = { 4712, 100, 4711, 4712, 100 }; /* 100: this one; 4712 twice (compute, graphics) */
	unsigned out[8];
	CHECK(procs_others(pids, 5, 100, out, 8) == 2 && out[0] == 4711 && out[1] == 4712);
	CHECK(procs_others(pids, 5, 100, out, 1) == 2 && out[0] == 4711); /* counted past cap */
	char s[40];
	const char *names[] = { "flopscope", NULL, "python3" };
	const unsigned ps[] = { 4711, 4712, 4713 };
	procs_describe(ps, names, 3, 3, s, sizeof s);
	CHECK_STR(s, "4711 flopscope, 4712, 4713 python3");
	procs_describe(ps, names, 3, 5, s, sizeof s);
	CHECK_STR(s, "4711 flopscope, 4712 and 3 more");
	CHECK(strlen(s) < sizeof s);
	procs_describe(ps, names, 0, 0, s, sizeof s);
	CHECK_STR(s, "");
}

/* Nothing is dropped silently: past CHG_KEEP the newest are kept, all counted. */
static void many_changes_should_all_be_counted(void)
{
	enum { N = 100 * 40 };
	static double x[N];
	for (int i = 0; i < N; i++)
		x[i] = (i / 40) % 2 ? 2e12 : 1e12;
	ChangeDetector d;
	CHECK(run(&d, x, N) == 99);
	CHECK(change_kept(&d) == CHG_KEEP);
	CHECK(change_get(&d, 0)->t_ms == 20.0 * 99 * 40);
	CHECK(change_get(&d, CHG_KEEP) == NULL);
}

static void short_or_bad_series_should_be_safe(void)
{
	const double x[] = { 1e9, 5e9, 5e9, 5e9, 5e9 };
	ChangeDetector d;
	for (size_t n = 0; n <= 5; n++)
		CHECK(run(&d, x, n) == 0);
	const double bad[] = { NAN, -1, 0, INFINITY, 0, 0, 0, 0, 0, 0, 0, 0 };
	CHECK(run(&d, bad, 12) == 0);
}

static void the_tutorials_trace_should_show_its_step(void)
{
	FILE *f = fopen("tests/data/tutorial_trace.csv", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	char line[256];
	double t[64], x[64];
	size_t n = 0;
	while (fgets(line, sizeof line, f) && n < 64) {
		double tt, g, tm, fl;
		if (sscanf(line, "%lf,%lf,%lf,%lf", &tt, &g, &tm, &fl) == 4) {
			t[n] = tt;
			x[n++] = fl;
		}
	}
	fclose(f);
	CHECK(n == 20);
	ChangeDetector d;
	change_init(&d);
	for (size_t i = 0; i < n; i++)
		change_add(&d, t[i], x[i], NONE);
	CHECK(d.nchanges == 0); /* 164 ms of the new level: not yet sustained */
	change_finish(&d);
	CHECK(d.nchanges == 1);
	char out[300];
	change_format(change_get(&d, 0), "FLOPS", out, sizeof out);
	/* before: the median of the 11 dispatches before it */
	CHECK_STR(out, "step at 241.5 ms: 3.18 TFLOPS -> 6.10 TFLOPS (x1.92), held to the end; unexplained: "
	               "nothing read explains x1.92; no clock reading");
	double level;
	CHECK(change_time_to_plateau(t, x, n, &level) == 254.78);
	CHECK(fabs(level / 6.16e12 - 1) < 0.01);
}

static void time_to_plateau_should_find_where_the_level_holds(void)
{
	double t[100], x[100];
	rng = 5;
	for (int i = 0; i < 100; i++) {
		t[i] = 20.0 * i;
		x[i] = (i < 30 ? 3e12 : 6e12) * (1 + 0.01 * uniform());
	}
	double level;
	CHECK(change_time_to_plateau(t, x, 100, &level) == 600);
	CHECK(fabs(level / 6e12 - 1) < 0.01);
	for (int i = 0; i < 100; i++)
		x[i] = 1e12 * (1 + i / 100.0);
	CHECK(isnan(change_time_to_plateau(t, x, 100, &level)));
	CHECK(isnan(change_time_to_plateau(t, x, 5, &level)));
	/* a rise that levels off only in its last samples: held for no time,
	 * no plateau (it said the run's length) */
	for (int i = 0; i < 100; i++)
		x[i] = i < 95 ? 1e12 * (1 + i / 50.0) : 3e12;
	CHECK(isnan(change_time_to_plateau(t, x, 100, &level)));
	/* held for the last 30% of the run: a plateau */
	for (int i = 0; i < 100; i++)
		x[i] = i < 70 ? 1e12 * (1 + i / 50.0) : 3e12;
	CHECK(change_time_to_plateau(t, x, 100, &level) == 1400);
}

/* A change or an excursion in CHANGE_TEXT_LEN whole, its why as long as it
 * holds and everything before it at its longest in a session (a year's
 * times, a ratio of a million, values from a nano- to a peta-unit):
 * --analyze cut its excursions at 200 characters ("clock unchanged at 23"). */
static void a_change_in_words_should_fit_whole(void)
{
	Change c = { .kind = CHANGE_RAMP, .cause = CAUSE_NOT_POWER_STATE, .t_ms = -3.2e10, .t_end_ms = 3.2e10,
	             .before = -1.23456e-9, .after = -999.999e15, .ratio = -999999.999, .at_end = true };
	Excursion e = { .t_ms = -3.2e10, .t_end_ms = 3.2e10, .samples = 4000000000u, .depth = -999999.999,
	                .cause = CAUSE_NOT_POWER_STATE };
	memset(c.why, 'w', sizeof c.why - 2);
	memcpy(c.why + sizeof c.why - 6, " end", 5);
	memcpy(e.why, c.why, sizeof e.why);
	for (int k = 0; k < CAUSE_COUNT; k++) /* the longest cause's name */
		if (strlen(change_cause_names[k]) > strlen(change_cause_names[c.cause]))
			c.cause = e.cause = (ChangeCause)k;
	char line[CHANGE_TEXT_LEN];
	change_format(&c, "FLOPS/s", line, sizeof line);
	CHECK(strlen(line) > strlen(c.why) && !strcmp(line + strlen(line) - strlen(c.why), c.why));
	change_format_excursion(&e, line, sizeof line);
	CHECK(strlen(line) > strlen(e.why) && !strcmp(line + strlen(line) - strlen(e.why), e.why));
}

int main(void)
{
	RUN(other_gpu_processes_should_be_listed_once_and_fit);
	no_tel();
	RUN(steps_of_15_to_200_percent_should_be_found_where_they_are);
	RUN(flat_noisy_traces_should_have_no_change);
	RUN(contention_bursts_should_be_excursions_never_changes);
	RUN(an_excursion_should_be_counted_with_its_length_and_depth);
	RUN(a_real_step_among_bursts_should_be_found);
	RUN(a_gradual_decline_should_be_one_ramp);
	RUN(the_cause_should_follow_what_was_measured_beside);
	RUN(a_change_should_be_split_among_its_causes);
	RUN(the_cpus_part_should_stay_bounded_however_busy);
	RUN(telemetry_events_should_mark_a_cause_and_a_clock_step_as_they_happen);
	RUN(a_process_line_should_say_what_is_known);
	RUN(many_changes_should_all_be_counted);
	RUN(short_or_bad_series_should_be_safe);
	RUN(the_tutorials_trace_should_show_its_step);
	RUN(time_to_plateau_should_find_where_the_level_holds);
	RUN(the_process_table_should_sort_by_any_column_and_say_who_may_end_one);
	RUN(a_change_in_words_should_fit_whole);
	return CHECK_DONE();
}
