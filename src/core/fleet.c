/* fleet: the fleet's rows judged and sorted (fleet.h). */
#include "fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outlier.h"

const char *const fleet_sort_names[FLEET_SORT_COUNT] = { "host", "verdict", "of fleet", "power" };

size_t fleet_judge(FleetRow *rows, size_t n, double pct)
{
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		rows[i].fleet_ratio = rows[i].noise_ref = NAN;
		rows[i].peers = 0;
		rows[i].outlier = rows[i].unsure = false;
	}
	NodeDevice *nd = malloc((n ? n : 1) * sizeof *nd);
	size_t *of = malloc((n ? n : 1) * sizeof *of);
	char (*kind)[200] = malloc((n ? n : 1) * sizeof *kind);
	bool *done = calloc(n ? n : 1, sizeof *done);
	if (!nd || !of || !kind || !done)
		goto out;
	/* a kind: the model and the workload */
	for (size_t i = 0; i < n; i++) {
		size_t a = strlen(rows[i].name), b = strlen(rows[i].workload);
		memcpy(kind[i], rows[i].name, a);
		kind[i][a] = '\x1f';
		memcpy(kind[i] + a + 1, rows[i].workload, b + 1);
	}
	for (size_t i = 0; i < n; i++) {
		if (done[i] || !rows[i].workload[0] || !rows[i].name[0])
			continue;
		size_t m = 0;
		for (size_t j = i; j < n; j++) {
			if (done[j] || strcmp(kind[j], kind[i]))
				continue;
			done[j] = true;
			nd[m] = (NodeDevice){ .name = kind[j], .median = rows[j].median, .noise = rows[j].noise };
			of[m++] = j;
		}
		found += outlier_apply(nd, m, pct);
		for (size_t k = 0; k < m; k++) {
			FleetRow *r = &rows[of[k]];
			r->fleet_ratio = nd[k].node_ratio;
			r->noise_ref = nd[k].noise_ref;
			r->peers = nd[k].peers;
			r->outlier = nd[k].outlier;
			r->unsure = nd[k].unsure;
		}
	}
out:
	free(nd);
	free(of);
	free(kind);
	free(done);
	return found;
}

bool fleet_row_bad(const FleetRow *r)
{
	static const char *const fine[] = { "", "pass", "noref", "skip", "unsure" };
	if (r->missing || r->outlier)
		return true;
	for (size_t k = 0; k < sizeof fine / sizeof *fine; k++)
		if (!strcmp(r->verdict, fine[k]))
			return false;
	return true;
}

static FleetSort sort_key;

/* NaN last, then by value (ascending: the worst ratio first; power: the
 * highest first). */
static int cmp_num(double a, double b, bool high_first)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	if (a == b)
		return 0;
	return (a < b) != high_first ? -1 : 1;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const FleetRow *a = pa, *b = pb;
	int c = 0;
	switch (sort_key) {
	case FLEET_BY_VERDICT:
		c = (int)fleet_row_bad(b) - (int)fleet_row_bad(a);
		break;
	case FLEET_BY_RATIO:
		c = cmp_num(a->fleet_ratio, b->fleet_ratio, false);
		break;
	case FLEET_BY_POWER:
		c = cmp_num(a->power_w, b->power_w, true);
		break;
	default:
		break;
	}
	if (!c)
		c = strcmp(a->host, b->host);
	if (!c)
		c = strcmp(a->gpu, b->gpu);
	if (!c)
		c = strcmp(a->uuid, b->uuid);
	if (!c)
		c = strcmp(a->workload, b->workload);
	return c;
}

void fleet_sort(FleetRow *rows, size_t n, FleetSort key)
{
	sort_key = key;
	if (n > 1)
		qsort(rows, n, sizeof *rows, cmp_rows);
}
