#include "outlier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

size_t outlier_apply(NodeDevice *d, size_t n, double pct)
{
	size_t found = 0;
	/* the peers' medians and noises, as many as there are devices (a fleet's
	 * thousand of one model: every one counts) */
	double stack_v[64], stack_noise[64];
	double *v = stack_v, *noise = stack_noise;
	if (n > 64) {
		v = malloc(2 * n * sizeof *v);
		noise = v ? v + n : NULL;
	}
	for (size_t i = 0; i < n; i++) {
		d[i].node_ratio = d[i].noise_ref = NAN;
		d[i].peers = 0;
		d[i].outlier = d[i].unsure = false;
		if (!isfinite(d[i].median) || !v)
			continue;
		size_t k = 0, kn = 0;
		for (size_t j = 0; j < n; j++) {
			if (!isfinite(d[j].median) || strcmp(d[j].name, d[i].name))
				continue;
			v[k++] = d[j].median;
			if (j != i && isfinite(d[j].noise))
				noise[kn++] = d[j].noise;
		}
		d[i].peers = k;
		if (k < 2)
			continue;
		double kind = stats_median_inplace(v, k);
		if (!(kind > 0))
			continue;
		d[i].node_ratio = d[i].median / kind;
		/* the larger of its own noise and its peers' (their median) */
		double ref = d[i].noise;
		if (kn) {
			double peers = stats_median_inplace(noise, kn);
			if (!(ref >= peers))
				ref = isfinite(ref) ? peers : NAN;
		}
		d[i].noise_ref = ref;
		if (d[i].node_ratio >= 1 - pct / 100)
			continue;
		if (isfinite(ref) && 1 - d[i].node_ratio > ref) {
			d[i].outlier = true;
			found++;
		} else {
			d[i].unsure = true;
		}
	}
	if (v != stack_v)
		free(v);
	return found;
}

size_t outlier_unsure(const NodeDevice *d, size_t n)
{
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		u += d[i].unsure;
	return u;
}
