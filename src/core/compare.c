#include "compare.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Tagged {
	double v;
	int from_b;
} Tagged;

static int cmp_tagged(const void *x, const void *y)
{
	double a = ((const Tagged *)x)->v, b = ((const Tagged *)y)->v;
	return (a > b) - (a < b);
}

double compare_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u_out)
{
	size_t n = na + nb;
	Tagged *t = malloc(n * sizeof *t);
	if (!t || na == 0 || nb == 0) {
		free(t);
		*u_out = NAN;
		return NAN;
	}
	for (size_t i = 0; i < na; i++)
		t[i] = (Tagged){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		t[na + i] = (Tagged){ b[i], 1 };
	qsort(t, n, sizeof *t, cmp_tagged);
	double rank_b = 0, ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && t[j].v == t[i].v)
			j++;
		double avg = 0.5 * (double)(i + 1 + j); /* ranks i+1 .. j */
		double k = (double)(j - i);
		ties += k * k * k - k;
		for (size_t m = i; m < j; m++)
			if (t[m].from_b)
				rank_b += avg;
		i = j;
	}
	free(t);
	double u = rank_b - (double)nb * (double)(nb + 1) / 2;
	double mu = (double)na * (double)nb / 2;
	double dn = (double)n;
	double var = (double)na * (double)nb / 12.0 * ((dn + 1) - ties / (dn * (dn - 1)));
	*u_out = u;
	if (!(var > 0))
		return 1.0; /* every value equal */
	double d = fabs(u - mu) - 0.5; /* continuity correction */
	if (d < 0)
		d = 0;
	return erfc(d / sqrt(var) / sqrt(2.0));
}

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64*: a fixed seed keeps every report reproducible */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

bool compare_run(const double *a, size_t na, const double *b, size_t nb, CompareResult *r)
{
	memset(r, 0, sizeof *r);
	if (na < 2 || nb < 2 || !stats_compute(a, na, &r->a) || !stats_compute(b, nb, &r->b))
		return false;
	r->ratio = r->b.median / r->a.median;
	r->p = compare_mann_whitney(a, na, b, nb, &r->u);

	enum { ROUNDS = 2000 };
	double *ra = malloc(na * sizeof *ra), *rb = malloc(nb * sizeof *rb);
	double *ratios = malloc(ROUNDS * sizeof *ratios);
	if (!ra || !rb || !ratios) {
		free(ra);
		free(rb);
		free(ratios);
		return false;
	}
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int k = 0; k < ROUNDS; k++) {
		for (size_t i = 0; i < na; i++)
			ra[i] = a[next_rand(&seed) % na];
		for (size_t i = 0; i < nb; i++)
			rb[i] = b[next_rand(&seed) % nb];
		ratios[k] = stats_median_inplace(rb, nb) / stats_median_inplace(ra, na);
	}
	qsort(ratios, ROUNDS, sizeof *ratios, cmp_double);
	r->ratio_lo = ratios[(int)(0.025 * ROUNDS)];
	r->ratio_hi = ratios[(int)(0.975 * ROUNDS) - 1];
	free(ra);
	free(rb);
	free(ratios);

	if (r->p < 0.05 && r->ratio_lo > 1)
		r->verdict = COMPARE_FASTER;
	else if (r->p < 0.05 && r->ratio_hi < 1)
		r->verdict = COMPARE_SLOWER;
	else
		r->verdict = COMPARE_SAME;
	return true;
}
