#include "ring.h"

#include <stdlib.h>

bool ring_init(SampleRing *r, size_t capacity)
{
	size_t cap = 2;
	while (cap < capacity)
		cap <<= 1;
	r->slot = calloc(cap, sizeof *r->slot);
	if (!r->slot)
		return false;
	r->mask = cap - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->dropped, 0);
	return true;
}

void ring_done(SampleRing *r)
{
	free(r->slot);
	r->slot = NULL;
}

bool ring_push(SampleRing *r, const Sample *s)
{
	size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
	if (head - tail > r->mask) {
		atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
		return false;
	}
	r->slot[head & r->mask] = *s;
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

bool ring_pop(SampleRing *r, Sample *out)
{
	size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	size_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	if (tail == head)
		return false;
	*out = r->slot[tail & r->mask];
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return true;
}

size_t ring_dropped(SampleRing *r)
{
	return atomic_load_explicit(&r->dropped, memory_order_relaxed);
}
