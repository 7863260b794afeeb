#include "clock.h"

#include <errno.h>
#include <stdatomic.h>
#include <time.h>

/* lock-free on every target flopscope builds for: safe in a signal handler */
static atomic_uint resumes;
static atomic_uint_least64_t last_resume;
static atomic_uint_least64_t alive, stop_began;

uint64_t clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void clock_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void clock_note_resume(void)
{
	/* the times first: a reader that sees the new count sees them */
	uint64_t now = clock_mono_ns();
	atomic_store_explicit(&stop_began, atomic_load_explicit(&alive, memory_order_relaxed), memory_order_relaxed);
	atomic_store_explicit(&last_resume, now, memory_order_relaxed);
	atomic_store_explicit(&alive, now, memory_order_relaxed);
	atomic_fetch_add_explicit(&resumes, 1, memory_order_release);
}

void clock_note_alive(void)
{
	atomic_store_explicit(&alive, clock_mono_ns(), memory_order_relaxed);
}

uint64_t clock_last_stop_began_ns(void)
{
	return atomic_load_explicit(&stop_began, memory_order_relaxed);
}

unsigned clock_resumes(void)
{
	return atomic_load_explicit(&resumes, memory_order_acquire);
}

uint64_t clock_last_resume_ns(void)
{
	return atomic_load_explicit(&last_resume, memory_order_relaxed);
}
