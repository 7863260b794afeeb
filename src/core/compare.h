/* compare: is session B faster than session A? Pure statistics over the
 * steady FLOPS samples of each: the ratio of medians with a bootstrap 95%
 * confidence interval, and the Mann-Whitney U test (seed 004's advice). */
#ifndef FLOPSCOPE_COMPARE_H
#define FLOPSCOPE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

typedef enum CompareVerdict {
	COMPARE_SLOWER = -1,
	COMPARE_SAME = 0,      /* indistinguishable at the 5% level */
	COMPARE_FASTER = 1,
} CompareVerdict;

typedef struct CompareResult {
	Stats a, b;
	double ratio;              /* median(B) / median(A) */
	double ratio_lo, ratio_hi; /* 95% bootstrap interval of the ratio */
	double u;                  /* Mann-Whitney U of B */
	double p;                  /* two-sided p-value (normal approximation, ties corrected) */
	CompareVerdict verdict;    /* faster/slower only when p < 0.05 and the interval excludes 1 */
} CompareResult;

/* false when either side has fewer than 2 values or memory runs out. */
bool compare_run(const double *a, size_t na, const double *b, size_t nb, CompareResult *r);

/* Mann-Whitney U of b against a and its two-sided p-value. */
double compare_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);

#endif
