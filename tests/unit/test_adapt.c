#include <math.h>

#include "adapt.h"
#include "check.h"
#include "options.h"

static const AdaptConfig TUTORIAL = { 0.020, { 65535, 65535, 65535 } };

static GroupCount gc(uint32_t x, uint32_t y, uint32_t z)
{
	return (GroupCount){ x, y, z };
}

static int same(GroupCount a, GroupCount b)
{
	return a.x == b.x && a.y == b.y && a.z == b.z;
}

static void adapt_should_start_at_one_group(void)
{
	CHECK(same(adapt_initial(), gc(1, 1, 1)));
}

static void adapt_should_multiply_x_by_ten_below_two_ms(void)
{
	GroupCount n;
	CHECK(adapt_next(&TUTORIAL, gc(1, 1, 1), 0.000846, &n) == ADAPT_GROW);
	CHECK(same(n, gc(10, 1, 1)));
	CHECK(adapt_next(&TUTORIAL, gc(1000, 1, 1), 0.0019999, &n) == ADAPT_GROW);
	CHECK(same(n, gc(10000, 1, 1)));
}

static void adapt_should_grow_y_once_x_passes_1000_then_z(void)
{
	GroupCount n;
	adapt_next(&TUTORIAL, gc(10000, 1, 1), 0.001, &n);
	CHECK(same(n, gc(10000, 10, 1)));
	adapt_next(&TUTORIAL, gc(10000, 1000, 1), 0.001, &n);
	CHECK(same(n, gc(10000, 10000, 1)));
	adapt_next(&TUTORIAL, gc(10000, 10000, 1), 0.001, &n);
	CHECK(same(n, gc(10000, 10000, 10)));
}

static void adapt_should_rescale_at_or_above_two_ms(void)
{
	GroupCount n;
	/* exactly target/10 is not "less than" */
	CHECK(adapt_next(&TUTORIAL, gc(100, 1, 1), 0.002, &n) == ADAPT_RESCALE);
	CHECK(same(n, gc(1000, 1, 1)));
	/* the tutorial's 10000 groups in 8.72 ms: 22935 groups over y = 3 */
	CHECK(adapt_next(&TUTORIAL, gc(10000, 1, 1), 0.00872, &n) == ADAPT_RESCALE);
	CHECK(same(n, gc(7645, 3, 1)));
	/* a slow dispatch shrinks the count */
	adapt_next(&TUTORIAL, gc(400, 1, 1), 0.040, &n);
	CHECK(same(n, gc(200, 1, 1)));
}

static void adapt_should_split_over_z_beyond_1e8_groups(void)
{
	GroupCount n = adapt_split(&TUTORIAL, 300000000ull);
	CHECK(same(n, gc(10000, 10000, 3)));
	n = adapt_split(&TUTORIAL, 250000001ull);
	/* z = 3, remainder 83333333, y = 8334, x = 9999 */
	CHECK(same(n, gc(9999, 8334, 3)));
	n = adapt_split(&TUTORIAL, 100000000ull);
	CHECK(same(n, gc(10000, 10000, 1)));
}

static void adapt_should_never_produce_zero(void)
{
	GroupCount n;
	adapt_next(&TUTORIAL, gc(1, 1, 1), 1000.0, &n);
	CHECK(same(n, gc(1, 1, 1)));
	n = adapt_split(&TUTORIAL, 0);
	CHECK(same(n, gc(1, 1, 1)));
}

static void adapt_should_respect_the_device_maximum(void)
{
	AdaptConfig small = { 0.020, { 64, 64, 64 } };
	GroupCount n;
	/* 10 -> 100 would pass max x = 64: y grows instead */
	adapt_next(&small, gc(10, 1, 1), 0.0001, &n);
	CHECK(same(n, gc(10, 10, 1)));
	/* rescale splits with each dimension <= 64 */
	n = adapt_split(&small, 5000);
	CHECK(n.x <= 64 && n.y <= 64 && n.z <= 64 && n.z == 2);
	CHECK(adapt_total(n) <= 5000 && adapt_total(n) >= 4900);
	/* more than fits is clamped to 64^3 */
	n = adapt_split(&small, 1ull << 40);
	CHECK(same(n, gc(64, 64, 64)));
	/* the lavapipe maximum 65535 never caps the tutorial's 10000 */
	n = adapt_split(&TUTORIAL, 1ull << 40);
	CHECK(same(n, gc(10000, 10000, 10000)));
}

static void adapt_should_rescale_when_nothing_can_grow(void)
{
	AdaptConfig small = { 0.020, { 10, 10, 10 } };
	GroupCount n;
	CHECK(adapt_next(&small, gc(10, 10, 10), 0.001, &n) == ADAPT_RESCALE);
	CHECK(same(n, gc(10, 10, 10)));
}

static void adapt_should_grow_on_zero_or_nan_time(void)
{
	GroupCount n;
	CHECK(adapt_next(&TUTORIAL, gc(1, 1, 1), 0.0, &n) == ADAPT_GROW);
	CHECK(same(n, gc(10, 1, 1)));
	CHECK(adapt_next(&TUTORIAL, gc(1, 1, 1), NAN, &n) == ADAPT_GROW);
	CHECK(same(n, gc(10, 1, 1)));
}

static void adapt_should_follow_the_tutorials_trace(void)
{
	/* times of the tutorial's run (seed 002), fed back in turn */
	const double t[] = { 846e-6, 520e-6, 407e-6, 852e-6, 8.72e-3 };
	const uint64_t want[] = { 10, 100, 1000, 10000, 22935 };
	GroupCount g = adapt_initial();
	for (int i = 0; i < 5; i++) {
		adapt_next(&TUTORIAL, g, t[i], &g);
		CHECK(adapt_total(g) == want[i]);
	}
}

/* + and - walk round values and always come back to 20 ms; the range is
 * --target-ms's. */
static void target_steps_should_be_round_and_reach_20_ms(void)
{
	CHECK(adapt_target_step(20, 1) == 50 && adapt_target_step(50, 1) == 100 && adapt_target_step(100, 1) == 200);
	CHECK(adapt_target_step(20, -1) == 10 && adapt_target_step(10, -1) == 5 && adapt_target_step(5, -1) == 2);
	CHECK(adapt_target_step(30, -1) == 20 && adapt_target_step(30, 1) == 50);   /* from any value */
	CHECK(adapt_target_step(CLI_MAX_TARGET_MS, 1) == CLI_MAX_TARGET_MS);
	CHECK(adapt_target_step(CLI_MIN_TARGET_MS, -1) == CLI_MIN_TARGET_MS);
	/* from the bottom of the range to the top and back, through 20 ms */
	double t = CLI_MIN_TARGET_MS;
	int steps = 0, seen20 = 0;
	while (t < CLI_MAX_TARGET_MS && steps < 100) {
		t = adapt_target_step(t, 1);
		seen20 += t == 20;
		steps++;
	}
	CHECK(t == CLI_MAX_TARGET_MS && steps == 21 && seen20 == 1);
	while (t > 20)
		t = adapt_target_step(t, -1);
	CHECK(t == 20);
}

int main(void)
{
	RUN(adapt_should_start_at_one_group);
	RUN(adapt_should_multiply_x_by_ten_below_two_ms);
	RUN(adapt_should_grow_y_once_x_passes_1000_then_z);
	RUN(adapt_should_rescale_at_or_above_two_ms);
	RUN(adapt_should_split_over_z_beyond_1e8_groups);
	RUN(adapt_should_never_produce_zero);
	RUN(adapt_should_respect_the_device_maximum);
	RUN(adapt_should_rescale_when_nothing_can_grow);
	RUN(adapt_should_grow_on_zero_or_nan_time);
	RUN(adapt_should_follow_the_tutorials_trace);
	RUN(target_steps_should_be_round_and_reach_20_ms);
	return CHECK_DONE();
}
