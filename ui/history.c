#include "history.h"
#include "plot.h"
#include "fmt.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool history_init(History *h, size_t cap)
{
	memset(h, 0, sizeof *h);
	cap = cap < 2 ? 2 : cap + (cap & 1);
	double **arr[] = { &h->t_s, &h->flops, &h->groups, &h->gpu_s, &h->cpu_s, &h->clk_hz, &h->power_w,
	                   &h->target_s };
	for (size_t i = 0; i < sizeof arr / sizeof *arr; i++) {
		*arr[i] = malloc(cap * sizeof(double));
		if (!*arr[i]) {
			history_done(h);
			return false;
		}
	}
	h->cap = cap;
	h->stride = 1;
	return true;
}

void history_clear(History *h)
{
	h->n = 0;
	h->stride = 1;
	h->skipped = 0;
	h->total = 0;
	h->seen_steady = false;
	memset(&h->last, 0, sizeof h->last);
}

static void halve(History *h)
{
	double *arr[] = { h->t_s, h->flops, h->groups, h->gpu_s, h->cpu_s, h->clk_hz, h->power_w, h->target_s };
	for (size_t a = 0; a < sizeof arr / sizeof *arr; a++)
		for (size_t i = 0; i < h->n / 2; i++)
			arr[a][i] = arr[a][2 * i];
	h->n /= 2;
	h->stride *= 2;
}

void history_add(History *h, const Sample *s)
{
	h->last = *s;
	h->total++;
	bool steady = s->flags & SAMPLE_STEADY;
	bool regrowth = s->size && !steady && h->seen_steady;
	h->seen_steady |= steady;
	if (h->skipped + 1 < h->stride) {
		h->skipped++;
		return;
	}
	h->skipped = 0;
	if (h->n == h->cap)
		halve(h);
	size_t i = h->n++;
	h->t_s[i] = s->t_ms * 1e-3;
	h->flops[i] = regrowth ? NAN : s->rate;
	h->groups[i] = (double)s->groups;
	h->gpu_s[i] = (s->flags & SAMPLE_GPU_TIMED) ? (double)s->gpu_ns * 1e-9 : NAN;
	h->cpu_s[i] = (double)s->cpu_ns * 1e-9;
	h->clk_hz[i] = sample_tel(s, TEL_SM_MHZ) * 1e6;
	h->power_w[i] = sample_power_w(s);
	h->target_s[i] = s->target_ms > 0 ? s->target_ms * 1e-3 : NAN;
}

void history_done(History *h)
{
	free(h->t_s);
	free(h->flops);
	free(h->groups);
	free(h->gpu_s);
	free(h->cpu_s);
	free(h->clk_hz);
	free(h->power_w);
	free(h->target_s);
	memset(h, 0, sizeof *h);
}

size_t history_from(const History *h, double t_min)
{
	size_t lo = 0, hi = h->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->t_s[mid] < t_min)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool history_target_span(const History *h, size_t from, double *lo, double *hi)
{
	bool any = false;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = from; i < h->n; i++) {
		double t = h->target_s[i];
		if (isnan(t))
			continue;
		any = true;
		if (t < *lo)
			*lo = t;
		if (t > *hi)
			*hi = t;
	}
	return any;
}

double history_longest(const History *h, size_t from)
{
	double m = 0;
	for (size_t i = from; i < h->n; i++) {
		if (h->gpu_s[i] > m) /* false for NaN */
			m = h->gpu_s[i];
		if (h->cpu_s[i] > m)
			m = h->cpu_s[i];
	}
	return m;
}

bool history_times_log(const History *h, size_t from, char *why, size_t len)
{
	double lo, hi;
	if (len)
		why[0] = '\0';
	if (!history_target_span(h, from, &lo, &hi))
		return false;
	return plot_times_log(lo, hi, history_longest(h, from), why, len);
}

double history_level_now_spread(const History *h, double secs, double *spread)
{
	*spread = NAN;
	if (!h->n)
		return NAN;
	size_t from = history_from(h, h->t_s[h->n - 1] - secs), m = 0;
	double *v = malloc((h->n - from) * sizeof *v);
	if (!v)
		return NAN;
	for (size_t i = from; i < h->n; i++)
		if (isfinite(h->flops[i]))
			v[m++] = h->flops[i];
	stats_sort(v, m);
	double level = m ? stats_quantile_sorted(v, m, 0.5) : NAN;
	if (m >= 5 && level > 0)
		*spread = (stats_quantile_sorted(v, m, 0.9) - stats_quantile_sorted(v, m, 0.1)) / level;
	free(v);
	return level;
}

double history_level_now(const History *h, double secs)
{
	double spread;
	return history_level_now_spread(h, secs, &spread);
}
