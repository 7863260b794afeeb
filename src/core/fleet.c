/* fleet: the fleet's rows judged and sorted (fleet.h). */
#include "fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "outlier.h"

const char *const fleet_sort_names[FLEET_SORT_COUNT] = { "host", "verdict", "of fleet", "power" };

void fleet_host_of(const char *instance, char *out, size_t len)
{
	size_t n = strlen(instance);
	const char *colon = strrchr(instance, ':');
	/* a port: digits after the last colon, and that colon not inside an
	 * IPv6 address without brackets (one colon, or "]:" before it) */
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    (strchr(instance, ':') == colon || (colon > instance && colon[-1] == ']')))
		n = (size_t)(colon - instance);
	snprintf(out, len, "%.*s", (int)n, instance);
}

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

void fleet_cells(const FleetRow *r, FleetCells *c)
{
	char si[FMT_SI_LEN];
	snprintf(c->median, sizeof c->median, "-");
	if (!isnan(r->median))
		snprintf(c->median, sizeof c->median, "%s%s", fmt_si(r->median, si, sizeof si),
		         !strcmp(r->unit, "flops") ? "FLOPS" : !strcmp(r->unit, "ops") ? "OPS" : "B/s");
	snprintf(c->ratio, sizeof c->ratio, isnan(r->fleet_ratio) ? "-" : "%.1f%%", 100 * r->fleet_ratio);
	snprintf(c->verdict, sizeof c->verdict, "%s", r->missing ? "MISSING" : r->outlier ? "OUTLIER" :
	                                              r->verdict[0] ? r->verdict : r->unsure ? "unsure" : "-");
	snprintf(c->power, sizeof c->power, isnan(r->power_w) ? "-" : "%.0f W", r->power_w);
	snprintf(c->clock, sizeof c->clock, isnan(r->clock_mhz) ? "-" : "%.0f MHz", r->clock_mhz);
	snprintf(c->temp, sizeof c->temp, isnan(r->temp_c) ? "-" : "%.0f C", r->temp_c);
}

void fleet_head(char *out, size_t len)
{
	snprintf(out, len, FLEET_HEAD_FMT, "host", "gpu", "model", "workload", "median", "of fleet", "verdict", "power",
	         "clock", "temp", "causes");
}

void fleet_line(const FleetRow *r, const char *host, char *out, size_t len)
{
	FleetCells c;
	fleet_cells(r, &c);
	snprintf(out, len, FLEET_HEAD_FMT, host, r->gpu[0] ? r->gpu : "-", r->name, r->workload[0] ? r->workload : "-",
	         c.median, c.ratio, c.verdict, c.power, c.clock, c.temp, r->codes);
}

bool fleet_row_shown(const FleetRow *r, const char *model, bool bad_only)
{
	return (!model[0] || !strcmp(r->name, model)) && (!bad_only || fleet_row_bad(r));
}

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

/* By key, then host, GPU, UUID and workload: qsort's comparators, one a
 * key (no state between calls: fleet_sort is reentrant). */
static int cmp_by(const FleetRow *a, const FleetRow *b, FleetSort key)
{
	int c = 0;
	switch (key) {
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

static int cmp_verdict(const void *a, const void *b) { return cmp_by(a, b, FLEET_BY_VERDICT); }
static int cmp_ratio(const void *a, const void *b) { return cmp_by(a, b, FLEET_BY_RATIO); }
static int cmp_power(const void *a, const void *b) { return cmp_by(a, b, FLEET_BY_POWER); }
static int cmp_host(const void *a, const void *b) { return cmp_by(a, b, FLEET_BY_HOST); }

void fleet_sort(FleetRow *rows, size_t n, FleetSort key)
{
	int (*cmp)(const void *, const void *) = key == FLEET_BY_VERDICT ? cmp_verdict
	                                         : key == FLEET_BY_RATIO ? cmp_ratio
	                                         : key == FLEET_BY_POWER ? cmp_power : cmp_host;
	if (n > 1)
		qsort(rows, n, sizeof *rows, cmp);
}
