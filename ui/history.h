/* history: the samples a dashboard plots, as plain arrays. Bounded: when full,
 * every other sample is dropped and later ones are thinned the same way, so a
 * session of any length keeps its whole shape in fixed memory. Pure. */
#ifndef FLOPSCOPE_HISTORY_H
#define FLOPSCOPE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

typedef struct History {
	size_t n, cap;
	size_t stride;      /* keep one sample in stride */
	size_t skipped;     /* since the last kept one */
	double *t_s, *flops, *groups, *gpu_s, *cpu_s, *clk_hz, *power_w; /* NaN when N/A */
	double *target_s;   /* the dispatch target each was measured at; NaN unknown */
	Sample last;        /* newest sample, kept or not */
	size_t total;       /* samples offered since the last clear */
	bool seen_steady;   /* a sample at the target since the last clear */
} History;

bool history_init(History *h, size_t cap);  /* cap is made even, at least 2 */
/* Takes s. In a sweep of copy sizes each size grows from 1 workgroup
 * again: those growth samples (a sized sample not at the target after one
 * that was) are kept as gaps in flops, not as dips to near 0 between the
 * sizes' levels; the first growth of a run is drawn as it is. */
void history_add(History *h, const Sample *s);
void history_clear(History *h);
void history_done(History *h);
/* First index whose time is >= t_min. */
size_t history_from(const History *h, double t_min);
/* The smallest and largest known target of the samples from index from on;
 * false when none is known. */
bool history_target_span(const History *h, size_t from, double *lo, double *hi);

#endif
