/* The sample ring with a real producer and consumer thread, built with
 * -fsanitize=thread: every sample arrives once, in order, intact, or is
 * counted as dropped. alarm() bounds the run. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ring.h"

#define N 2000000ull

static SampleRing ring;
static _Atomic int producer_done;

static uint64_t checksum(const Sample *s)
{
	return s->seq * 0x9e3779b97f4a7c15ull ^ (s->seq >> 7);
}

static void *producer(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < N; i++) {
		Sample s = { .seq = i, .groups = i * 3, .work = 0 };
		s.work = checksum(&s);
		ring_push(&ring, &s);
	}
	atomic_store(&producer_done, 1);
	return NULL;
}

int main(void)
{
	alarm(120);
	if (!ring_init(&ring, 1024))
		return 1;
	pthread_t t;
	if (pthread_create(&t, NULL, producer, NULL))
		return 1;
	uint64_t got = 0, last = 0, bad = 0;
	int first = 1;
	for (;;) {
		int done = atomic_load(&producer_done);
		Sample s;
		int any = 0;
		while (ring_pop(&ring, &s)) {
			any = 1;
			if (s.work != checksum(&s) || s.groups != s.seq * 3 || (!first && s.seq <= last))
				bad++;
			first = 0;
			last = s.seq;
			got++;
		}
		if (done && !any)
			break;
	}
	pthread_join(t, NULL);
	size_t dropped = ring_dropped(&ring);
	ring_done(&ring);
	int ok = bad == 0 && got + dropped == N;
	printf("%s: ring_stress_should_deliver_every_sample_or_count_it (%llu received, %zu dropped, %llu bad)\n",
	       ok ? "PASS" : "FAIL", (unsigned long long)got, dropped, (unsigned long long)bad);
	return ok ? 0 : 1;
}
