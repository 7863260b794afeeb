#include <math.h>

#include "check.h"
#include "interval.h"
#include "outlier.h"
#include "stats.h"

static void stats_should_match_hand_computed_values(void)
{
	const double v[] = { 5, 1, 4, 2, 3 };
	Stats s;
	CHECK(stats_compute(v, 5, &s));
	CHECK(s.n == 5);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 5, 0);
	CHECK_NEAR(s.median, 3, 0);
	CHECK_NEAR(s.mean, 3, 1e-12);
	CHECK_NEAR(s.std, sqrt(2.5), 1e-12);
	CHECK_NEAR(s.ci95, 2.776 * sqrt(2.5) / sqrt(5.0), 1e-9);
}

static void stats_should_average_the_middle_pair_for_even_counts(void)
{
	const double v[] = { 4, 1, 3, 2 };
	Stats s;
	CHECK(stats_compute(v, 4, &s));
	CHECK_NEAR(s.median, 2.5, 0);
}

static void stats_should_skip_nan_and_refuse_empty_input(void)
{
	const double v[] = { NAN, 7, NAN };
	Stats s;
	CHECK(stats_compute(v, 3, &s));
	CHECK(s.n == 1);
	CHECK_NEAR(s.median, 7, 0);
	CHECK_NEAR(s.std, 0, 0);
	CHECK_NEAR(s.ci95, 0, 0);
	CHECK(!stats_compute(v, 0, &s));
	CHECK(s.n == 0);
	const double only_nan[] = { NAN };
	CHECK(!stats_compute(only_nan, 1, &s));
}

static void stats_t95_should_follow_students_table(void)
{
	CHECK_NEAR(stats_t95(1), 12.706, 1e-3);
	CHECK_NEAR(stats_t95(10), 2.228, 1e-3);
	CHECK_NEAR(stats_t95(30), 2.042, 1e-3);
	CHECK_NEAR(stats_t95(40), 2.021, 2e-3);
	CHECK_NEAR(stats_t95(100), 1.984, 2e-3);
	CHECK_NEAR(stats_t95(100000), 1.960, 1e-3);
}

static void stats_median_inplace_should_sort(void)
{
	double v[] = { 3, 1, 2 };
	CHECK_NEAR(stats_median_inplace(v, 3), 2, 0);
	CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3);
	CHECK(isnan(stats_median_inplace(v, 0)));
}

/* The node rule: identical devices judged against their kind's median. */
static void outliers_should_be_judged_by_identical_peers(void)
{
	NodeDevice d[] = {
		{ .name = "H200", .median = 66.5 }, { .name = "H200", .median = 66.4 },
		{ .name = "H200", .median = 60.0 }, { .name = "H200", .median = 66.6 },
		{ .name = "L40S", .median = 40.0 },  /* alone of its kind: no one to judge it */
		{ .name = "H200", .median = NAN },   /* failed: judged by no one */
	};
	CHECK(outlier_apply(d, 6, 5) == 1);
	CHECK(d[2].outlier && !d[0].outlier && !d[1].outlier && !d[3].outlier);
	/* the kind's median of 66.4, 66.5, 60.0, 66.6 is 66.45 */
	CHECK(fabs(d[2].node_ratio - 60.0 / 66.45) < 1e-12 && d[2].peers == 4);
	CHECK(isnan(d[4].node_ratio) && d[4].peers == 1 && !d[4].outlier);
	CHECK(isnan(d[5].node_ratio) && !d[5].outlier);
	/* a looser threshold lets it pass; two of a kind, 10% apart */
	CHECK(outlier_apply(d, 6, 10) == 0);
	NodeDevice two[] = { { .name = "x", .median = 100 }, { .name = "x", .median = 90 } };
	CHECK(outlier_apply(two, 2, 5) == 1 && two[1].outlier && fabs(two[1].node_ratio - 90 / 95.0) < 1e-12);
}

/* The rule holds a shortfall to the runs' noise as well as the threshold:
 * within the larger of a device's own noise and its peers' median noise,
 * or with no noise known, "cannot tell" (unsure), never an outlier. */
static void outliers_should_stand_out_of_the_runs_noise(void)
{
	/* 100 and 90: 94.7% of their median, 5.3% below */
	NodeDevice quiet[] = { { .name = "x", .median = 100, .noise = 0.01 }, { .name = "x", .median = 90, .noise = 0.02 } };
	CHECK(outlier_apply(quiet, 2, 5) == 1 && quiet[1].outlier && !quiet[1].unsure);
	CHECK_NEAR(quiet[1].noise_ref, 0.02, 1e-12);
	NodeDevice noisy[] = { { .name = "x", .median = 100, .noise = 0.01 }, { .name = "x", .median = 90, .noise = 0.08 } };
	CHECK(outlier_apply(noisy, 2, 5) == 0 && !noisy[1].outlier && noisy[1].unsure && outlier_unsure(noisy, 2) == 1);
	/* its own run quiet, its peers' noisy: theirs */
	NodeDevice d[] = {
		{ .name = "x", .median = 100, .noise = 0.2 }, { .name = "x", .median = 101, .noise = 0.2 },
		{ .name = "x", .median = 99, .noise = 0.01 }, { .name = "x", .median = 85, .noise = 0.01 },
	};
	CHECK(outlier_apply(d, 4, 5) == 0 && d[3].unsure && !d[0].unsure && !d[2].unsure);
	CHECK_NEAR(d[3].noise_ref, 0.2, 1e-12);
	/* no noise of its own known (too few samples): cannot tell */
	NodeDevice none[] = { { .name = "x", .median = 100, .noise = 0.01 }, { .name = "x", .median = 50, .noise = NAN } };
	CHECK(outlier_apply(none, 2, 5) == 0 && none[1].unsure && isnan(none[1].noise_ref));
	/* within the threshold, however noisy: neither */
	NodeDevice near[] = { { .name = "x", .median = 100, .noise = 0.5 }, { .name = "x", .median = 97, .noise = 0.5 } };
	CHECK(outlier_apply(near, 2, 5) == 0 && outlier_unsure(near, 2) == 0);
}

/* --interval's rows: a sample in the row its time falls in, rows of no
 * sample (a stopped run) skipped, the last row to the last sample; each
 * row's median, extremes, checked samples and telemetry its own. */
static void intervals_should_tile_the_run_and_hold_each_sample_once(void)
{
	Interval iv;
	interval_init(&iv, 1.0);
	IntervalRow r[8];
	size_t nr = 0;
	const double t[] = { 100, 400, 900, 1000, 1500, 4200, 4300 }, rate[] = { 3, 1, 2, 10, 20, 7, 9 };
	for (size_t k = 0; k < 7; k++) {
		Sample s = { .t_ms = t[k], .rate = rate[k], .flags = k == 1 ? SAMPLE_VERIFIED : 0 };
		s.tel[TEL_SM_MHZ] = k < 3 ? 1000 : 2000;
		s.tel_valid = 1u << TEL_SM_MHZ;
		if (k == 4) {
			s.tel[TEL_THROTTLE] = 4;
			s.tel_valid |= 1u << TEL_THROTTLE;
		}
		while (interval_due(&iv, s.t_ms, &r[nr]))
			nr++;
		interval_add(&iv, &s);
	}
	CHECK(interval_flush(&iv, &r[nr]));
	nr++;
	CHECK(!interval_flush(&iv, &r[nr])); /* nothing left */
	interval_done(&iv);
	CHECK(nr == 5);
	CHECK(r[0].t0_s == 0 && r[0].t1_s == 1 && r[0].samples == 3 && r[0].verified == 1);
	CHECK(r[0].median == 2 && r[0].min == 1 && r[0].max == 3 && r[0].sm_mhz == 1000 && !r[0].has_reasons);
	CHECK(r[1].t0_s == 1 && r[1].t1_s == 2 && r[1].samples == 2 && r[1].median == 15);
	CHECK(r[1].has_reasons && r[1].reasons == 4 && isnan(r[1].power_w) && isnan(r[1].others));
	/* 2-4 s had no sample: a row of 0 samples each, none skipped; the last row ends at the last sample */
	CHECK(r[2].t0_s == 2 && r[2].t1_s == 3 && r[2].samples == 0 && isnan(r[2].median));
	CHECK(r[3].t0_s == 3 && r[3].t1_s == 4 && r[3].samples == 0);
	CHECK(r[4].t0_s == 4 && fabs(r[4].t1_s - 4.3) < 1e-12 && r[4].samples == 2 && r[4].median == 8);
}

/* The run's clock goes on with no sample: an interval that ended more than
 * the grace ago is a row as it ends, of 0 samples where none ended in it. */
static void an_interval_without_a_sample_should_be_a_row_as_it_ends(void)
{
	Interval iv;
	interval_init(&iv, 0.5);
	IntervalRow r;
	Sample s = { .t_ms = 100, .rate = 5 };
	CHECK(!interval_due(&iv, s.t_ms, &r));
	interval_add(&iv, &s);
	CHECK(!interval_idle(&iv, 500 + INTERVAL_GRACE_MS / 2, &r)); /* within the grace: a sample may be on its way */
	CHECK(interval_idle(&iv, 1600, &r) && r.t0_s == 0 && r.t1_s == 0.5 && r.samples == 1 && r.median == 5);
	CHECK(interval_idle(&iv, 1600, &r) && r.t0_s == 0.5 && r.t1_s == 1 && r.samples == 0 && isnan(r.median) &&
	      isnan(r.min) && isnan(r.max) && isnan(r.sm_mhz) && !r.has_reasons);
	CHECK(interval_idle(&iv, 1600, &r) && r.t0_s == 1 && r.t1_s == 1.5 && r.samples == 0);
	CHECK(!interval_idle(&iv, 1600, &r)); /* 1.5-2.0 is open */
	s.t_ms = 1700;
	CHECK(!interval_due(&iv, s.t_ms, &r)); /* into the open one */
	interval_add(&iv, &s);
	CHECK(interval_flush(&iv, &r) && r.t0_s == 1.5 && r.samples == 1);
	interval_done(&iv);
	Interval none;
	interval_init(&none, 0); /* no --interval */
	CHECK(!interval_idle(&none, 1e9, &r));
	interval_done(&none);
}

/* One percentile rule for every output (latency's spread, the compare
 * noise): linear between ranks, the median the mean of the middle pair. */
static void quantiles_should_interpolate_between_ranks(void)
{
	double v[] = { 4, 1, 3, 2 };
	stats_sort(v, 4);
	CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 4);
	CHECK_NEAR(stats_quantile_sorted(v, 4, 0.5), 2.5, 1e-12);
	CHECK_NEAR(stats_quantile_sorted(v, 4, 0.1), 1.3, 1e-12);
	CHECK_NEAR(stats_quantile_sorted(v, 4, 0.9), 3.7, 1e-12);
	CHECK(stats_quantile_sorted(v, 4, 0) == 1 && stats_quantile_sorted(v, 4, 1) == 4);
	CHECK(stats_quantile_sorted(v, 1, 0.9) == 1 && isnan(stats_quantile_sorted(v, 0, 0.5)));
	double w[] = { 5, 1, 3 };
	CHECK(stats_median_inplace(w, 3) == 3);
}

int main(void)
{
	RUN(quantiles_should_interpolate_between_ranks);
	RUN(intervals_should_tile_the_run_and_hold_each_sample_once);
	RUN(an_interval_without_a_sample_should_be_a_row_as_it_ends);
	RUN(outliers_should_be_judged_by_identical_peers);
	RUN(outliers_should_stand_out_of_the_runs_noise);
	RUN(stats_should_match_hand_computed_values);
	RUN(stats_should_average_the_middle_pair_for_even_counts);
	RUN(stats_should_skip_nan_and_refuse_empty_input);
	RUN(stats_t95_should_follow_students_table);
	RUN(stats_median_inplace_should_sort);
	return CHECK_DONE();
}
