#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_double);
}

double stats_quantile_sorted(const double *v, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[n - 1];
}

double stats_median_inplace(double *v, size_t n)
{
	stats_sort(v, n);
	return stats_quantile_sorted(v, n, 0.5);
}

double stats_t95(size_t df)
{
	static const double t[] = {
		NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
		2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
		2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
		2.042,
	};
	if (df < sizeof t / sizeof t[0])
		return t[df];
	/* Cornish-Fisher expansion around the normal quantile; within 1e-3 of
	 * the exact value for df > 30. */
	double z = 1.959964, d = (double)df;
	return z + (z * z * z + z) / (4 * d) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

bool stats_compute(const double *v, size_t n, Stats *out)
{
	memset(out, 0, sizeof *out);
	double *s = malloc((n ? n : 1) * sizeof *s);
	if (!s)
		return false;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[m++] = v[i];
	if (m == 0) {
		free(s);
		return false;
	}
	double sum = 0;
	for (size_t i = 0; i < m; i++)
		sum += s[i];
	double mean = sum / (double)m, ss = 0;
	for (size_t i = 0; i < m; i++)
		ss += (s[i] - mean) * (s[i] - mean);
	out->n = m;
	out->mean = mean;
	out->median = stats_median_inplace(s, m);
	out->min = s[0];
	out->max = s[m - 1];
	if (m > 1) {
		out->std = sqrt(ss / (double)(m - 1));
		out->ci95 = stats_t95(m - 1) * out->std / sqrt((double)m);
	}
	free(s);
	return true;
}
