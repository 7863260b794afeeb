#include "jump.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "stats.h"

void jump_init(JumpDetector *d)
{
	memset(d, 0, sizeof *d);
	d->since_last = 1000000;
}

static double median_of(const double *x, size_t n)
{
	double v[JUMP_HIST];
	memcpy(v, x, n * sizeof *v);
	return stats_median_inplace(v, n);
}

/* 2.5 standard deviations of the reference, relative, at least 10%. The
 * deviation is the larger of the robust one (1.4826 x MAD) and the plain
 * one with the single farthest sample left out: a window that wanders
 * (like the tutorial's 2.87 .. 3.32 TFLOPS) needs a bigger change to count,
 * one outlier in it does not. */
static double threshold(const double *x, size_t n, double level)
{
	if (n < 5)
		return JUMP_THRESHOLD;
	double dev[JUMP_HIST], sum = 0, sum2 = 0, far = 0;
	for (size_t i = 0; i < n; i++) {
		double r = x[i] / level - 1;
		dev[i] = fabs(r);
		sum += r;
		sum2 += r * r;
		if (fabs(r) > fabs(far))
			far = r;
	}
	sum -= far;
	sum2 -= far * far;
	double m = (double)(n - 1);
	double sd = sqrt(fmax(0, (sum2 - sum * sum / m) / (m - 1)));
	double mad = 1.4826 * stats_median_inplace(dev, n);
	double sigma = fmax(sd, mad);
	return 2.5 * sigma > JUMP_THRESHOLD ? 2.5 * sigma : JUMP_THRESHOLD;
}

static bool report(JumpDetector *d, JumpKind kind, double t0, double t1, double before, double after,
                   unsigned samples)
{
	/* a change right after one in the same direction: one ramp */
	Jump *last = d->njumps ? &d->jumps[d->njumps - 1] : NULL;
	bool same_dir = last && ((after > before) == (last->after > last->before));
	bool close = d->since_last <= JUMP_MERGE || !d->settled;
	d->since_last = 0;
	d->settled = false;
	d->held = 0;
	d->hold_level = after;
	if (last && same_dir && close) {
		last->kind = JUMP_RAMP;
		last->t_end_ms = t1;
		last->after = after;
		last->ratio = last->after / last->before;
		last->samples += samples;
		return true;
	}
	if (d->njumps == JUMP_MAX) {
		d->dropped++;
		return false;
	}
	d->jumps[d->njumps++] = (Jump){ kind, t0, t1, before, after, after / before, samples };
	return true;
}

/* Keeps samples [from, n) as the start of a new segment. */
static void restart_at(JumpDetector *d, size_t from)
{
	memmove(d->t, d->t + from, (d->n - from) * sizeof *d->t);
	memmove(d->x, d->x + from, (d->n - from) * sizeof *d->x);
	d->n -= from;
	d->seg_n = d->n;
	d->anchored = false;
}

bool jump_add(JumpDetector *d, double t, double x)
{
	if (!(x > 0) || !isfinite(x) || !isfinite(t))
		return false;
	size_t since = d->since_last + 1;
	if (d->n == JUMP_HIST) {
		memmove(d->t, d->t + 1, (JUMP_HIST - 1) * sizeof *d->t);
		memmove(d->x, d->x + 1, (JUMP_HIST - 1) * sizeof *d->x);
		d->n--;
	}
	d->t[d->n] = t;
	d->x[d->n++] = x;
	d->seg_n++;
	d->since_last = since;
	if (d->n < JUMP_CONFIRM + JUMP_MIN_REF)
		return false;

	/* Candidates: the newest k samples (k = 3, 4, 5), all of 3, 3 of 4 or
	 * 4 of 5 beyond 3/4 of the threshold on one side and their median
	 * beyond it; the reference: up to JUMP_WINDOW samples right before
	 * them. Longer blocks keep a noisy sample of the new level from hiding
	 * the change until the reference fills with new-level samples. */
	for (size_t k = JUMP_CONFIRM; k <= JUMP_BLOCK_MAX && d->n >= k + JUMP_MIN_REF; k++) {
		size_t s = d->n - k;
		size_t r0 = s > JUMP_WINDOW ? s - JUMP_WINDOW : 0;
		double before = median_of(d->x + r0, s - r0);
		double thr = threshold(d->x + r0, s - r0, before);
		size_t up = 0, down = 0;
		for (size_t i = s; i < d->n; i++) {
			up += d->x[i] / before - 1 > 0.75 * thr;
			down += d->x[i] / before - 1 < -0.75 * thr;
		}
		size_t need = k == JUMP_CONFIRM ? k : k - 1;
		bool rising = up >= need;
		if ((up < need && down < need) || !(fabs(median_of(d->x + s, k) / before - 1) > thr))
			continue;
		/* it starts at the block's first sample that left the old level,
		 * or earlier ones that did too */
		size_t first = s;
		while (first < d->n && !(rising ? d->x[first] / before - 1 > 0.75 * thr
		                                : d->x[first] / before - 1 < -0.75 * thr))
			first++;
		while (first > r0 + 1 && (rising ? d->x[first - 1] / before - 1 > 0.75 * thr
		                                 : d->x[first - 1] / before - 1 < -0.75 * thr))
			first--;
		double after = median_of(d->x + first, d->n - first);
		bool rep = report(d, JUMP_STEP, d->t[first], d->t[first], before, after,
		                  (unsigned)(d->n - first));
		restart_at(d, first);
		return rep;
	}
	size_t s = d->n - JUMP_CONFIRM;
	size_t r0 = s > JUMP_WINDOW ? s - JUMP_WINDOW : 0;
	double before = median_of(d->x + r0, s - r0);
	double thr = threshold(d->x + r0, s - r0, before);

	/* has the level settled since the last change? */
	if (d->hold_level > 0 && fabs(before / d->hold_level - 1) <= thr / 2) {
		if (++d->held >= JUMP_WINDOW)
			d->settled = true;
	} else {
		d->hold_level = before;
		d->held = 0;
	}

	/* drift: the level walked away from where the segment settled */
	if (!d->anchored && d->seg_n >= JUMP_WINDOW + JUMP_CONFIRM) {
		d->anchor = before;
		d->anchored = true;
	}
	if (d->anchored && fabs(before / d->anchor - 1) > (2 * thr > JUMP_DRIFT ? 2 * thr : JUMP_DRIFT)) {
		bool rep = report(d, JUMP_RAMP, d->t[r0], d->t[s - 1], d->anchor, before, (unsigned)(s - r0));
		restart_at(d, r0);
		return rep;
	}
	return false;
}

double jump_time_to_plateau(const double *t, const double *x, size_t n, double *level)
{
	*level = NAN;
	if (n < 6)
		return NAN;
	size_t tail = n / 3 < 3 ? 3 : n / 3;
	double *v = malloc(tail * sizeof *v);
	if (!v)
		return NAN;
	memcpy(v, x + n - tail, tail * sizeof *v);
	*level = stats_median_inplace(v, tail);
	free(v);
	/* the earliest window of 5 that is within 3% and from which at least
	 * 80% of the windows stay within 3% (noise may push a few out) */
	size_t nw = n - 4, good = 0, first = n;
	for (size_t i = nw; i-- > 0;) {
		double w[5];
		memcpy(w, x + i, sizeof w);
		bool ok = fabs(stats_median_inplace(w, 5) / *level - 1) <= 0.03;
		good += ok;
		if (ok && (double)good >= 0.8 * (double)(nw - i))
			first = i;
	}
	if (first == n)
		return NAN;
	/* the first sample of that window already at the level */
	size_t at = first;
	while (at + 1 < n && at < first + 4 && fabs(x[at] / *level - 1) > 0.03)
		at++;
	return t[at];
}

void jump_format(const Jump *j, const char *unit, char *out, size_t len)
{
	char a[FMT_SI_LEN], b[FMT_SI_LEN];
	fmt_si(j->before, a, sizeof a);
	fmt_si(j->after, b, sizeof b);
	if (j->kind == JUMP_RAMP)
		snprintf(out, len, "jump %.1f ms  %s%s -> %s%s  x%.2f  ramp until %.1f ms", j->t_ms, a, unit, b, unit,
		         j->ratio, j->t_end_ms);
	else
		snprintf(out, len, "jump %.1f ms  %s%s -> %s%s  x%.2f", j->t_ms, a, unit, b, unit, j->ratio);
}
