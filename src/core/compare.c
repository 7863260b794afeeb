#include "compare.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static uint64_t next_rand(uint64_t *s)
{
	/* xorshift64*: a fixed seed keeps every report reproducible */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}


void blocks_init(BlockMeans *b)
{
	memset(b, 0, sizeof *b);
}

static void close_block(BlockMeans *b)
{
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		double *g = realloc(b->means, nc * sizeof *g);
		if (!g) {
			b->oom = true;
			b->k = 0;
			return;
		}
		b->means = g;
		b->cap = nc;
	}
	b->means[b->n++] = b->sum / (double)b->k;
	b->k = 0;
	b->sum = 0;
}

void blocks_add(BlockMeans *b, double t_ms, double x)
{
	if (!isfinite(x) || !isfinite(t_ms))
		return;
	if (b->k == 0)
		b->t0 = t_ms;
	b->sum += x;
	b->k++;
	b->samples++;
	if (b->k >= COMPARE_BLOCK_N && t_ms - b->t0 >= COMPARE_BLOCK_MS)
		close_block(b);
}

void blocks_cut(BlockMeans *b)
{
	if (b->k >= COMPARE_BLOCK_N)
		close_block(b);
	b->k = 0;
	b->sum = 0;
}

void blocks_done(BlockMeans *b)
{
	free(b->means);
	blocks_init(b);
}


/* The 10th-to-90th percentile range of sorted v over its median. */
static double noise_sorted(const double *v, size_t n)
{
	double med = n ? stats_quantile_sorted(v, n, 0.5) : 0;
	return med > 0 ? (stats_quantile_sorted(v, n, COMPARE_NOISE_HI) - stats_quantile_sorted(v, n, COMPARE_NOISE_LO)) / med : NAN;
}

double compare_noise(double *v, size_t n)
{
	stats_sort(v, n);
	return noise_sorted(v, n);
}

static bool side_stats(const CompareSide *s, SideStats *st, double **all)
{
	memset(st, 0, sizeof *st);
	st->sessions = s->n;
	for (size_t i = 0; i < s->n; i++) {
		st->blocks += s->sessions[i].n;
		st->samples += s->sessions[i].samples;
	}
	*all = malloc((st->blocks ? st->blocks : 1) * sizeof **all);
	if (!*all)
		return false;
	size_t k = 0;
	st->best = 0;
	for (size_t i = 0; i < s->n; i++) {
		const BlockMeans *b = &s->sessions[i];
		if (!b->n)
			continue;
		double *v = *all + k;
		memcpy(v, b->means, b->n * sizeof *v);
		stats_sort(v, b->n);
		double med = stats_quantile_sorted(v, b->n, 0.5);
		if (i < COMPARE_MAX_SESSIONS)
			st->session_median[i] = med;
		double spread = med > 0 ? (v[b->n - 1] - v[0]) / med : 0;
		if (spread > st->spread)
			st->spread = spread;
		double noise = noise_sorted(v, b->n);
		if (noise > st->noise) /* NaN (a median not above 0) counts as none */
			st->noise = noise;
		if (v[b->n - 1] > st->best)
			st->best = v[b->n - 1];
		double top = stats_quantile_sorted(v, b->n, COMPARE_NOISE_HI);
		if (top > st->top)
			st->top = top;
		k += b->n;
	}
	if (s->n > 1) {
		double m[COMPARE_MAX_SESSIONS];
		size_t nm = s->n < COMPARE_MAX_SESSIONS ? s->n : COMPARE_MAX_SESSIONS;
		memcpy(m, st->session_median, nm * sizeof *m);
		st->median = stats_median_inplace(m, nm);
	} else {
		/* in place: the bootstrap draws from them in any order */
		st->median = k ? stats_median_inplace(*all, k) : NAN;
	}
	return true;
}

/* The 95% interval of median(B blocks) / median(A blocks), resampling blocks. */
static bool block_bootstrap(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	enum { ROUNDS = 2000 };
	double *ra = malloc(na * sizeof *ra), *rb = malloc(nb * sizeof *rb);
	double *ratios = malloc(ROUNDS * sizeof *ratios);
	bool ok = ra && rb && ratios;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int k = 0; ok && k < ROUNDS; k++) {
		for (size_t i = 0; i < na; i++)
			ra[i] = a[next_rand(&seed) % na];
		for (size_t i = 0; i < nb; i++)
			rb[i] = b[next_rand(&seed) % nb];
		ratios[k] = stats_median_inplace(rb, nb) / stats_median_inplace(ra, na);
	}
	if (ok) {
		stats_sort(ratios, ROUNDS);
		*lo = ratios[(int)(0.025 * ROUNDS)];
		*hi = ratios[(int)(0.975 * ROUNDS) - 1];
	}
	free(ra);
	free(rb);
	free(ratios);
	return ok;
}

/* Welch's interval for mean(log B sessions) - mean(log A sessions). */
static void welch(const SideStats *a, const SideStats *b, double *ratio, double *lo, double *hi)
{
	double ma = 0, mb = 0, va = 0, vb = 0;
	size_t na = a->sessions < COMPARE_MAX_SESSIONS ? a->sessions : COMPARE_MAX_SESSIONS;
	size_t nb = b->sessions < COMPARE_MAX_SESSIONS ? b->sessions : COMPARE_MAX_SESSIONS;
	for (size_t i = 0; i < na; i++)
		ma += log(a->session_median[i]) / (double)na;
	for (size_t i = 0; i < nb; i++)
		mb += log(b->session_median[i]) / (double)nb;
	for (size_t i = 0; i < na; i++)
		va += pow(log(a->session_median[i]) - ma, 2) / (double)(na - 1);
	for (size_t i = 0; i < nb; i++)
		vb += pow(log(b->session_median[i]) - mb, 2) / (double)(nb - 1);
	double se2 = va / (double)na + vb / (double)nb;
	double df = se2 > 0 ? se2 * se2 / (pow(va / (double)na, 2) / (double)(na - 1) +
	                                   pow(vb / (double)nb, 2) / (double)(nb - 1))
	                    : (double)(na + nb - 2);
	double t = stats_t95(df >= 1 ? (size_t)df : 1);
	double d = mb - ma, h = t * sqrt(se2);
	*ratio = exp(d);
	*lo = exp(d - h);
	*hi = exp(d + h);
}

double compare_default_min_effect(const char *device_type)
{
	return strstr(device_type, "Gpu") ? COMPARE_MIN_EFFECT_GPU : COMPARE_MIN_EFFECT;
}

bool compare_sides(const CompareSide *a, const CompareSide *b, double min_effect, CompareResult *r, char *err,
                   size_t errlen)
{
	memset(r, 0, sizeof *r);
	double *va = NULL, *vb = NULL;
	bool ok = side_stats(a, &r->a, &va) && side_stats(b, &r->b, &vb);
	if (!ok) {
		snprintf(err, errlen, "out of memory");
	} else if (!r->a.blocks || !r->b.blocks) {
		snprintf(err, errlen, "%s has no steady second to compare (a block is %.0f ms and %d samples at "
		         "the target)", r->a.blocks ? "B" : "A", COMPARE_BLOCK_MS, COMPARE_BLOCK_N);
		ok = false;
	}
	if (!ok) {
		free(va);
		free(vb);
		return false;
	}
	r->spread = r->a.spread > r->b.spread ? r->a.spread : r->b.spread;
	r->noise = r->a.noise > r->b.noise ? r->a.noise : r->b.noise;
	r->min_effect = min_effect;
	r->best_ratio = r->b.best / r->a.best;
	r->top_ratio = r->b.top / r->a.top;
	r->sessions_method = a->n >= 2 && b->n >= 2;
	r->verdict = COMPARE_CANNOT_TELL;
	double pct = 100 * min_effect;
	if (r->sessions_method) {
		welch(&r->a, &r->b, &r->ratio, &r->ratio_lo, &r->ratio_hi);
		double d = fabs(r->ratio - 1);
		if (r->ratio_lo <= 1 && r->ratio_hi >= 1) {
			snprintf(r->why, sizeof r->why, "the 95%% interval of the ratio over %zu and %zu sessions "
			         "contains 1: the sessions differ among themselves as much", r->a.sessions, r->b.sessions);
		} else if (d <= min_effect) {
			snprintf(r->why, sizeof r->why, "the 95%% interval over %zu and %zu sessions excludes 1, but the "
			         "difference (%.1f%%) is below the minimum effect (%.0f%%, --min-effect)", r->a.sessions,
			         r->b.sessions, 100 * d, pct);
		} else {
			r->verdict = r->ratio > 1 ? COMPARE_FASTER : COMPARE_SLOWER;
			snprintf(r->why, sizeof r->why, "the 95%% interval of the ratio over %zu and %zu sessions "
			         "excludes 1 and the difference exceeds the minimum effect (%.0f%%)", r->a.sessions,
			         r->b.sessions, pct);
		}
		free(va);
		free(vb);
		return true;
	}
	r->ratio = r->b.median / r->a.median;
	double d = fabs(r->ratio - 1), bd = r->top_ratio - 1;
	if (r->a.blocks < COMPARE_MIN_BLOCKS || r->b.blocks < COMPARE_MIN_BLOCKS) {
		r->ratio_lo = r->ratio_hi = NAN;
		snprintf(r->why, sizeof r->why, "too short: %zu and %zu blocks of %.0f s (record %d s or more)",
		         r->a.blocks, r->b.blocks, COMPARE_BLOCK_MS * 1e-3, COMPARE_MIN_BLOCKS);
	} else if (!block_bootstrap(va, r->a.blocks, vb, r->b.blocks, &r->ratio_lo, &r->ratio_hi)) {
		free(va);
		free(vb);
		snprintf(err, errlen, "out of memory");
		return false;
	} else if (r->ratio_lo <= 1 && r->ratio_hi >= 1) {
		snprintf(r->why, sizeof r->why, "the 95%% interval of the ratio contains 1");
	} else if (d <= min_effect) {
		snprintf(r->why, sizeof r->why, "the difference (%.1f%%) is below the minimum effect (%.0f%%, "
		         "--min-effect): sessions of one configuration can land that far apart; record several "
		         "per side (--compare A1 A2 -- B1 B2)", 100 * d, pct);
	} else if (d <= r->noise) {
		snprintf(r->why, sizeof r->why, "the difference (%.1f%%) is within one session's noise (%.1f%%, its "
		         "1 s blocks from the 10th to the 90th percentile)", 100 * d, 100 * r->noise);
	} else if (bd * (r->ratio - 1) <= 0 || fabs(bd) <= min_effect) {
		snprintf(r->why, sizeof r->why, "the medians differ by %.1f%% but the best blocks by %.1f%%: one "
		         "session was interrupted more, not %s when undisturbed", 100 * d, 100 * fabs(bd),
		         r->ratio > 1 ? "slower" : "faster");
		if (bd * (r->ratio - 1) < 0)
			snprintf(r->why + strlen(r->why), sizeof r->why - strlen(r->why), " (the best blocks point the "
			         "other way)");
	} else {
		r->verdict = r->ratio > 1 ? COMPARE_FASTER : COMPARE_SLOWER;
		snprintf(r->why, sizeof r->why, "the 95%% interval excludes 1; the difference (%.1f%%) exceeds the "
		         "minimum effect (%.0f%%) and one session's noise (%.1f%%); the best blocks differ by %.1f%%",
		         100 * d, pct, 100 * r->noise, 100 * fabs(bd));
	}
	free(va);
	free(vb);
	return true;
}

CompareVerdict compare_threshold(const CompareResult *r, double t, char *why, size_t len)
{
	if (r->ratio >= t) {
		snprintf(why, len, "%.1f%% of the baseline's median, threshold %.0f%%", 100 * r->ratio, 100 * t);
		return COMPARE_FASTER;
	}
	if (isnan(r->ratio_hi)) {
		snprintf(why, len, "%.1f%% of the baseline's median, below the threshold %.0f%%, but %s", 100 * r->ratio,
		         100 * t, "too few 1 s blocks to tell (a longer --budget)");
		return COMPARE_CANNOT_TELL;
	}
	if (r->ratio_hi >= t) {
		snprintf(why, len, "%.1f%% of the baseline's median, but its 95%% interval (%.1f%% to %.1f%%) reaches "
		         "the threshold %.0f%%", 100 * r->ratio, 100 * r->ratio_lo, 100 * r->ratio_hi, 100 * t);
		return COMPARE_CANNOT_TELL;
	}
	if (!r->sessions_method && t - r->ratio <= r->noise) {
		snprintf(why, len, "%.1f%% of the baseline's median, below the threshold %.0f%% by less than one "
		         "session's noise (%.1f%%, its 1 s blocks from the 10th to the 90th percentile)", 100 * r->ratio,
		         100 * t, 100 * r->noise);
		return COMPARE_CANNOT_TELL;
	}
	snprintf(why, len, "%.1f%% of the baseline's median (95%% interval %.1f%% to %.1f%%), below the threshold "
	         "%.0f%%", 100 * r->ratio, 100 * r->ratio_lo, 100 * r->ratio_hi, 100 * t);
	return COMPARE_SLOWER;
}
