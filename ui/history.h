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
/* The level now: the median throughput of the last secs of samples (from
 * the newest's time back); NaN with none. */
double history_level_now(const History *h, double secs);
/* ... and its spread: the 10th-to-90th percentile range of those samples
 * over their median (the noise of the level now, each sample's: wider than
 * a run's of 1 s blocks); NaN with fewer than 5. */
double history_level_now_spread(const History *h, double secs, double *spread);
/* The smallest and largest known target of the samples from index from on;
 * false when none is known. */
bool history_target_span(const History *h, size_t from, double *lo, double *hi);
/* The longest dispatch (GPU or CPU time, seconds) of the samples from index
 * from on; 0 when none. */
double history_longest(const History *h, size_t from);
/* Whether the dispatch-time plot of the samples from index from on should
 * be logarithmic, and why into why (len bytes; "" when linear): the targets
 * in view span 4x or more, or a dispatch took more than 4x the largest
 * target (a stall would flatten every other sample on a linear axis). */
bool history_times_log(const History *h, size_t from, char *why, size_t len);

#endif
