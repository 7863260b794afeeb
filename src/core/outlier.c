#include "outlier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* The median of sorted a[0..n) with one value equal to skip left out
 * (none where skip is NaN), through scratch; NaN for none left. */
static double median_without(const double *a, size_t n, double skip, double *scratch)
{
	size_t m = 0;
	bool skipped = !isfinite(skip);
	for (size_t t = 0; t < n; t++) {
		if (!skipped && a[t] == skip) {
			skipped = true;
			continue;
		}
		scratch[m++] = a[t];
	}
	return m ? stats_quantile_sorted(scratch, m, 0.5) : NAN;
}

/* One kind's devices d[mem[0..k)]: held to their median (computed once:
 * a fleet's thousand of a model each count, in O(k^2) at most). */
static size_t judge_kind(NodeDevice *d, const size_t *mem, size_t k, double pct, double *v, double *noise,
                         double *scratch)
{
	size_t found = 0, kn = 0;
	for (size_t t = 0; t < k; t++) {
		d[mem[t]].peers = k;
		v[t] = d[mem[t]].median;
		if (isfinite(d[mem[t]].noise))
			noise[kn++] = d[mem[t]].noise;
	}
	if (k < 2)
		return 0;
	double kind = stats_median_inplace(v, k);
	if (!(kind > 0))
		return 0;
	stats_sort(noise, kn);
	for (size_t t = 0; t < k; t++) {
		NodeDevice *x = &d[mem[t]];
		x->node_ratio = x->median / kind;
		/* the larger of its own noise and its peers' (their median) */
		double ref = x->noise, peers = median_without(noise, kn, x->noise, scratch);
		if (!isnan(peers) && !(ref >= peers))
			ref = isfinite(ref) ? peers : NAN;
		x->noise_ref = ref;
		if (x->node_ratio >= 1 - pct / 100)
			continue;
		if (isfinite(ref) && 1 - x->node_ratio > ref) {
			x->outlier = true;
			found++;
		} else {
			x->unsure = true;
		}
	}
	return found;
}

size_t outlier_apply(NodeDevice *d, size_t n, double pct)
{
	for (size_t i = 0; i < n; i++) {
		d[i].node_ratio = d[i].noise_ref = NAN;
		d[i].peers = 0;
		d[i].outlier = d[i].unsure = false;
	}
	double *buf = malloc(3 * (n ? n : 1) * sizeof *buf);
	size_t *mem = malloc((n ? n : 1) * sizeof *mem);
	bool *done = calloc(n ? n : 1, sizeof *done);
	size_t found = 0;
	for (size_t i = 0; buf && mem && done && i < n; i++) {
		if (done[i] || !isfinite(d[i].median))
			continue;
		size_t k = 0;
		for (size_t j = i; j < n; j++)
			if (!done[j] && isfinite(d[j].median) && !strcmp(d[j].name, d[i].name)) {
				done[j] = true;
				mem[k++] = j;
			}
		found += judge_kind(d, mem, k, pct, buf, buf + n, buf + 2 * n);
	}
	free(buf);
	free(mem);
	free(done);
	return found;
}

const char *outlier_status_word(bool failed, const NodeDevice *d)
{
	return failed ? "FAILED" : d->outlier ? "OUTLIER" : d->unsure ? "unsure" : "ok";
}

size_t outlier_unsure(const NodeDevice *d, size_t n)
{
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		u += d[i].unsure;
	return u;
}
