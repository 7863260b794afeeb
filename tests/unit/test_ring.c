#include "check.h"
#include "ring.h"

static void ring_should_round_capacity_up_to_a_power_of_two(void)
{
	SampleRing r;
	CHECK(ring_init(&r, 5));
	CHECK(r.mask == 7);
	ring_done(&r);
	CHECK(ring_init(&r, 0));
	CHECK(r.mask == 1);
	ring_done(&r);
}

static void ring_should_keep_order_and_count_drops_when_full(void)
{
	SampleRing r;
	CHECK(ring_init(&r, 4));
	Sample s = { 0 }, out;
	for (uint64_t i = 0; i < 4; i++) {
		s.seq = i;
		CHECK(ring_push(&r, &s));
	}
	s.seq = 99;
	CHECK(!ring_push(&r, &s));
	CHECK(ring_dropped(&r) == 1);
	for (uint64_t i = 0; i < 4; i++) {
		CHECK(ring_pop(&r, &out));
		CHECK(out.seq == i);
	}
	CHECK(!ring_pop(&r, &out));
	ring_done(&r);
}

static void ring_should_wrap_around_many_times(void)
{
	SampleRing r;
	CHECK(ring_init(&r, 8));
	Sample s = { 0 }, out;
	uint64_t next = 0;
	for (uint64_t i = 0; i < 1000; i++) {
		s.seq = i;
		CHECK(ring_push(&r, &s));
		if (i % 3 == 2)
			while (ring_pop(&r, &out))
				CHECK(out.seq == next++);
	}
	while (ring_pop(&r, &out))
		CHECK(out.seq == next++);
	CHECK(next == 1000 && ring_dropped(&r) == 0);
	ring_done(&r);
}

int main(void)
{
	RUN(ring_should_round_capacity_up_to_a_power_of_two);
	RUN(ring_should_keep_order_and_count_drops_when_full);
	RUN(ring_should_wrap_around_many_times);
	return CHECK_DONE();
}
