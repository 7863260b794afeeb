/* ring: lock-free single-producer/single-consumer ring of samples.
 * The engine pushes and never waits; when the ring is full the sample is
 * counted as dropped. Head and tail run free; capacity is a power of two. */
#ifndef FLOPSCOPE_RING_H
#define FLOPSCOPE_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

typedef struct SampleRing {
	_Alignas(64) _Atomic size_t head; /* next slot the producer writes */
	_Alignas(64) _Atomic size_t tail; /* next slot the consumer reads */
	_Alignas(64) _Atomic size_t dropped;
	size_t mask;
	Sample *slot;
} SampleRing;

/* capacity is rounded up to a power of two (at least 2). */
bool ring_init(SampleRing *r, size_t capacity);
void ring_done(SampleRing *r);

/* Producer side. Returns false, and counts a drop, when full. */
bool ring_push(SampleRing *r, const Sample *s);

/* Consumer side. Returns false when empty. */
bool ring_pop(SampleRing *r, Sample *out);

size_t ring_dropped(SampleRing *r);

#endif
