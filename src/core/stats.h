/* stats: spread statistics over a series of measurements, pure. */
#ifndef FLOPSCOPE_STATS_H
#define FLOPSCOPE_STATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Stats {
	size_t n;
	double min, max, median, mean;
	double std;      /* sample standard deviation (n - 1); 0 when n < 2 */
	double ci95;     /* half-width of the 95% confidence interval of the mean (Student t) */
} Stats;

/* Statistics of v[0..n). NaN values are skipped. Sorts a private copy;
 * returns false (and zeroes out) when no value is left or memory runs out. */
bool stats_compute(const double *v, size_t n, Stats *out);

/* Median of v[0..n), sorting v in place; NaN when n == 0. */
double stats_median_inplace(double *v, size_t n);
/* v sorted ascending, in place (the one comparison of doubles: NaN-free v). */
void stats_sort(double *v, size_t n);
/* The q-quantile of sorted v, linear between ranks (q 0.5: the median, the
 * mean of the two middle values for an even n); the one percentile rule of
 * every output (latency's spread, the compare noise). NaN for n 0. */
double stats_quantile_sorted(const double *v, size_t n, double q);

/* Two-sided 95% critical value of Student's t with df degrees of freedom. */
double stats_t95(size_t df);

#endif
