#include "outlier.h"

#include <math.h>
#include <string.h>

#include "stats.h"

size_t outlier_apply(NodeDevice *d, size_t n, double pct)
{
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		d[i].node_ratio = NAN;
		d[i].peers = 0;
		d[i].outlier = false;
		if (!isfinite(d[i].median))
			continue;
		double v[64];
		size_t k = 0;
		for (size_t j = 0; j < n && k < 64; j++)
			if (isfinite(d[j].median) && !strcmp(d[j].name, d[i].name))
				v[k++] = d[j].median;
		d[i].peers = k;
		if (k < 2)
			continue;
		double kind = stats_median_inplace(v, k);
		if (!(kind > 0))
			continue;
		d[i].node_ratio = d[i].median / kind;
		if (d[i].node_ratio < 1 - pct / 100) {
			d[i].outlier = true;
			found++;
		}
	}
	return found;
}
