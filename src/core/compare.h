/* compare: is B faster than A? Pure statistics that hold up to how
 * benchmark samples behave: consecutive samples are strongly autocorrelated
 * and sessions differ from each other more than samples within one do.
 *
 * Samples are grouped into batches of at least COMPARE_BLOCK_MS (1 s) and
 * COMPARE_BLOCK_N (5) samples (batch means: a block's mean is close to
 * independent of the next one's); a restart ends a block.
 *  - One session on a side: the ratio of the medians of B's and A's block
 *    means, with a 95% interval from resampling whole blocks (block
 *    bootstrap). A verdict needs, beside the interval excluding 1:
 *     - the difference beyond the minimum effect (--min-effect; by default
 *       15% on a CPU device, 5% on a GPU): one session cannot measure how
 *       far the next one lands; sessions of one configuration landed up to
 *       17% apart on the shared CI machine's CPU, within 0.06% on an H100
 *       (docs/INTERPRETATION.md, the calibration);
 *     - the difference beyond the noise of one session: the larger side's
 *       10th-to-90th percentile range of its block means, relative to their
 *       median (a few interrupted blocks do not move it, as they moved the
 *       lowest-to-highest range the rule used before);
 *     - the best blocks agreeing: the ratio of the 90th percentiles of the
 *       block means on the same side of 1 and beyond the minimum effect too
 *       (a session interrupted more than the other has a lower median but
 *       not lower best blocks).
 *    Fewer than COMPARE_MIN_BLOCKS blocks: cannot tell.
 *  - Several sessions on both sides: each session is one value (the median
 *    of its block means); a Welch t interval of the ratio of the geometric
 *    means of the sessions, which measures the session-to-session spread
 *    itself; the difference must exceed the minimum effect too.
 * Beside the median, the best block (the highest block mean: the fewest
 * interruptions, what seed 004 calls performance without interference). */
#ifndef FLOPSCOPE_COMPARE_H
#define FLOPSCOPE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

#define COMPARE_BLOCK_MS 1000.0
#define COMPARE_BLOCK_N 5
#define COMPARE_MIN_BLOCKS 4
#define COMPARE_MAX_SESSIONS 16
#define COMPARE_MIN_EFFECT 0.15     /* the default on a CPU device (or one not named); --min-effect PCT */
#define COMPARE_MIN_EFFECT_GPU 0.05 /* the default on a GPU */
#define COMPARE_NOISE_LO 0.10       /* one session's noise: these quantiles of its block means */
#define COMPARE_NOISE_HI 0.90

typedef enum CompareVerdict {
	COMPARE_SLOWER = -1,
	COMPARE_CANNOT_TELL = 0,
	COMPARE_FASTER = 1,
} CompareVerdict;

/* Batch means, fed one steady sample at a time (bounded memory). */
typedef struct BlockMeans {
	double *means;              /* one per closed block */
	size_t n, cap;
	double t0, sum;             /* the open block */
	size_t k;
	size_t samples;
	bool oom;
} BlockMeans;

void blocks_init(BlockMeans *b);
void blocks_add(BlockMeans *b, double t_ms, double x);
/* A restart, or the end of a session: the open block closes if it holds
 * COMPARE_BLOCK_N samples and half a block's time; else it is let go. */
void blocks_cut(BlockMeans *b);
void blocks_done(BlockMeans *b);
/* One run's noise: the COMPARE_NOISE_LO-to-HI quantile range of v (its
 * block means, or its samples) over their median; sorts v. NaN for none or
 * a median not above 0. */
double compare_noise(double *v, size_t n);

/* One side: its sessions' block means. */
typedef struct CompareSide {
	const BlockMeans *sessions;
	size_t n;
} CompareSide;

typedef struct SideStats {
	size_t sessions, blocks, samples;
	double median;              /* of the block means (of the session medians, several) */
	double best;                /* the highest block mean */
	double top;                 /* the 90th percentile of block means (the best blocks, one lucky one aside) */
	double spread;              /* the largest within-session (max-min)/median of block means */
	double noise;               /* the largest within-session (q90-q10)/median of block means */
	double session_median[COMPARE_MAX_SESSIONS];
} SideStats;

typedef struct CompareResult {
	SideStats a, b;
	double ratio;               /* B / A */
	double ratio_lo, ratio_hi;  /* its 95% interval */
	double best_ratio;          /* best(B) / best(A) */
	double top_ratio;           /* top(B) / top(A): the best blocks' ratio the verdict uses */
	double spread;              /* the larger side's within-session spread */
	double noise;               /* the larger side's within-session noise (q10 to q90) */
	double min_effect;          /* the smallest difference claimed, as a fraction */
	bool sessions_method;       /* Welch over sessions (else block bootstrap) */
	CompareVerdict verdict;
	char why[240];              /* the verdict's reason in words */
} CompareResult;

/* The default minimum effect for sessions of a device of this type, as the
 * session record names it ("Cpu", "DiscreteGpu", ...; "" for an old log):
 * COMPARE_MIN_EFFECT_GPU for a GPU, else COMPARE_MIN_EFFECT. */
double compare_default_min_effect(const char *device_type);

/* min_effect: the smallest difference claimed, a fraction (the default
 * above unless the user says). False (err says why) when a side has no usable
 * block. */
bool compare_sides(const CompareSide *a, const CompareSide *b, double min_effect, CompareResult *r, char *err,
                   size_t errlen);

/* Whether B reaches t times A (a --check against a baseline, t its
 * threshold as a ratio), by the same rules as the verdict: FASTER when the
 * ratio is at least t, SLOWER only when its 95% interval ends below t and
 * (one session a side) the shortfall exceeds the noise of one session, else
 * CANNOT_TELL; why says which in words. */
CompareVerdict compare_threshold(const CompareResult *r, double t, char *why, size_t len);

#endif
