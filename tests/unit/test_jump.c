/* The jump detector on synthetic traces and the tutorial's printed run. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "jump.h"

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

static size_t run(JumpDetector *d, const double *x, size_t n)
{
	jump_init(d);
	for (size_t i = 0; i < n; i++)
		jump_add(d, 20.0 * (double)i, x[i]);
	return d->njumps;
}

/* Steps up (x(1+s)) and down (/(1+s)) under +-3% uniform and 2% Gaussian
 * noise: every one found within 3 samples of where it is. (Under +-5%
 * uniform noise the 9-sample reference itself can sit 3% off, so a /1.15
 * drop can look like -7.6%: below any threshold that keeps flat +-5% traces
 * free of false jumps; those are tested below.) */
static void steps_of_15_to_200_percent_should_be_found_where_they_are(void)
{
	const double sizes[] = { 0.15, 0.2, 0.3, 0.5, 1.0, 2.0 };
	double x[80];
	for (int noise = 0; noise < 2; noise++)
	for (int dir = 0; dir < 2; dir++)
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
			for (uint64_t seed = 1; seed <= 20; seed++) {
				rng = seed;
				double r = dir ? 1 / (1 + sizes[s]) : 1 + sizes[s];
				for (int i = 0; i < 80; i++)
					x[i] = 3e12 * (i < 40 ? 1 : r) * (1 + (noise ? 0.02 * gauss() : 0.03 * uniform()));
				JumpDetector d;
				size_t n = run(&d, x, 80);
				bool ok = n == 1 && fabs(d.jumps[0].t_ms / 20.0 - 40) <= 3 &&
				          fabs(d.jumps[0].ratio / r - 1) < 0.08 && d.jumps[0].kind == JUMP_STEP;
				if (!ok) {
					fprintf(stderr, "  %s step %s%.0f%% seed %llu: %zu jumps, first at sample %.1f x%.3f\n",
					        noise ? "gauss" : "uniform", dir ? "-" : "+", sizes[s] * 100, (unsigned long long)seed, n,
					        n ? d.jumps[0].t_ms / 20 : -1, n ? d.jumps[0].ratio : 0);
					check_failed_now = 1;
				}
			}
}

static void a_10_percent_step_should_be_found_in_low_noise(void)
{
	double x[80];
	rng = 7;
	for (int i = 0; i < 80; i++)
		x[i] = 1e11 * (i < 40 ? 1 : 1.10) * (1 + 0.01 * uniform());
	JumpDetector d;
	CHECK(run(&d, x, 80) == 1);
	CHECK(fabs(d.jumps[0].t_ms / 20 - 40) <= 3);
}

static void flat_noisy_traces_should_have_no_jump(void)
{
	enum { N = 2000 };
	static double x[N];
	for (uint64_t seed = 1; seed <= 20; seed++) {
		rng = seed;
		for (int i = 0; i < N; i++)
			x[i] = 6e12 * (1 + 0.05 * uniform());
		JumpDetector d;
		size_t n = run(&d, x, N);
		if (n) {
			fprintf(stderr, "  uniform 5%% seed %llu: %zu jumps\n", (unsigned long long)seed, n);
			check_failed_now = 1;
		}
		for (int i = 0; i < N; i++)
			x[i] = 6e12 * (1 + 0.02 * gauss());
		n = run(&d, x, N);
		if (n) {
			fprintf(stderr, "  gaussian 2%% seed %llu: %zu jumps\n", (unsigned long long)seed, n);
			check_failed_now = 1;
		}
	}
}

static void single_outliers_should_not_be_jumps(void)
{
	double x[300];
	rng = 3;
	for (int i = 0; i < 300; i++) {
		x[i] = 1e12 * (1 + 0.02 * uniform());
		if (i % 17 == 5)
			x[i] *= 2;
		if (i % 23 == 11)
			x[i] *= 0.3;
	}
	JumpDetector d;
	CHECK(run(&d, x, 300) == 0);
	/* two outliers in a row are still no jump */
	x[100] = x[101] = 2e12;
	CHECK(run(&d, x, 300) == 0);
}

static void a_gradual_climb_should_be_one_ramp(void)
{
	double x[150];
	rng = 11;
	for (int i = 0; i < 150; i++) {
		double level = i < 30 ? 3e12 : i < 90 ? 3e12 * (1 + (i - 30) / 60.0) : 6e12;
		x[i] = level * (1 + 0.01 * uniform());
	}
	JumpDetector d;
	size_t n = run(&d, x, 150);
	CHECK(n == 1);
	if (n >= 1) {
		CHECK(d.jumps[0].kind == JUMP_RAMP);
		CHECK(d.jumps[0].t_ms / 20 >= 25 && d.jumps[0].t_ms / 20 <= 45);
		CHECK(d.jumps[0].t_end_ms / 20 >= 75 && d.jumps[0].t_end_ms / 20 <= 100);
		CHECK(fabs(d.jumps[0].before / 3e12 - 1) < 0.05);
		CHECK(d.jumps[0].ratio > 1.7 && d.jumps[0].ratio < 2.1);
	}
}

static void a_fast_climb_in_steps_should_be_one_ramp(void)
{
	double x[100];
	for (int i = 0; i < 100; i++)
		x[i] = 1e12 * (i < 30 ? 1 : i < 45 ? 1 + (i - 30) * 0.2 : 4);
	JumpDetector d;
	size_t n = run(&d, x, 100);
	CHECK(n == 1);
	CHECK(n && d.jumps[0].kind == JUMP_RAMP && d.jumps[0].ratio > 3);
}

static void separate_changes_should_stay_separate(void)
{
	/* boost, plateau, boost again, then a throttle */
	double x[200];
	rng = 9;
	for (int i = 0; i < 200; i++)
		x[i] = 1e12 * (i < 40 ? 1 : i < 90 ? 1.5 : i < 150 ? 2.25 : 1.6) * (1 + 0.02 * uniform());
	JumpDetector d;
	CHECK(run(&d, x, 200) == 3);
	const double at[] = { 40, 90, 150 }, ratio[] = { 1.5, 1.5, 1.6 / 2.25 };
	for (size_t j = 0; j < d.njumps && j < 3; j++) {
		CHECK(d.jumps[j].kind == JUMP_STEP);
		CHECK(fabs(d.jumps[j].t_ms / 20 - at[j]) <= 3);
		CHECK(fabs(d.jumps[j].ratio / ratio[j] - 1) < 0.05);
	}
}

static void short_sessions_should_be_safe(void)
{
	const double x[] = { 1e9, 5e9, 5e9, 5e9, 5e9 };
	JumpDetector d;
	for (size_t n = 0; n <= 5; n++)
		CHECK(run(&d, x, n) == 0);
	const double bad[] = { NAN, -1, 0, INFINITY };
	CHECK(run(&d, bad, 4) == 0);
}

static void the_tutorials_trace_should_show_its_jump(void)
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
	JumpDetector d;
	jump_init(&d);
	for (size_t i = 0; i < n; i++)
		jump_add(&d, t[i], x[i]);
	CHECK(d.njumps == 1);
	char out[128];
	jump_format(&d.jumps[0], "FLOPS", out, sizeof out);
	/* before: the median of the 9 dispatches before the jump (2.87 .. 3.32) */
	CHECK_STR(out, "jump 241.5 ms  3.19 TFLOPS -> 6.15 TFLOPS  x1.93");
	CHECK(d.jumps[0].samples == JUMP_CONFIRM); /* confirmed at 276.27 ms */
	double level;
	double tp = jump_time_to_plateau(t, x, n, &level);
	CHECK(tp == 254.78);
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
	CHECK(jump_time_to_plateau(t, x, 100, &level) == 600);
	CHECK(fabs(level / 6e12 - 1) < 0.01);
	/* a session that climbs to its very end never holds a level */
	for (int i = 0; i < 100; i++)
		x[i] = 1e12 * (1 + i / 100.0);
	CHECK(isnan(jump_time_to_plateau(t, x, 100, &level)));
	CHECK(isnan(jump_time_to_plateau(t, x, 5, &level)));
}

int main(void)
{
	RUN(steps_of_15_to_200_percent_should_be_found_where_they_are);
	RUN(a_10_percent_step_should_be_found_in_low_noise);
	RUN(flat_noisy_traces_should_have_no_jump);
	RUN(single_outliers_should_not_be_jumps);
	RUN(a_gradual_climb_should_be_one_ramp);
	RUN(a_fast_climb_in_steps_should_be_one_ramp);
	RUN(separate_changes_should_stay_separate);
	RUN(short_sessions_should_be_safe);
	RUN(the_tutorials_trace_should_show_its_jump);
	RUN(time_to_plateau_should_find_where_the_level_holds);
	return CHECK_DONE();
}
