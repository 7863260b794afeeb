#include "interval.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void reset(Interval *iv, double t0_ms)
{
	iv->t0_ms = t0_ms;
	iv->n = iv->verified = iv->mhz_n = iv->w_n = 0;
	iv->mhz_sum = iv->w_sum = 0;
	iv->reasons = 0;
	iv->has_reasons = false;
	iv->others = NAN;
}

void interval_init(Interval *iv, double seconds)
{
	memset(iv, 0, sizeof *iv);
	iv->len_ms = seconds * 1e3;
	reset(iv, 0);
}

void interval_done(Interval *iv)
{
	free(iv->rates);
	iv->rates = NULL;
	iv->n = iv->cap = 0;
}

/* The open interval, to t1 (ms), into out; the next opens at its end. */
static bool close_at(Interval *iv, double t1_ms, IntervalRow *out)
{
	if (!iv->n)
		return false;
	double lo = iv->rates[0], hi = iv->rates[0];
	for (size_t k = 1; k < iv->n; k++) {
		lo = iv->rates[k] < lo ? iv->rates[k] : lo;
		hi = iv->rates[k] > hi ? iv->rates[k] : hi;
	}
	*out = (IntervalRow){
		.t0_s = iv->t0_ms * 1e-3,
		.t1_s = t1_ms * 1e-3,
		.samples = iv->n,
		.verified = iv->verified,
		.median = stats_median_inplace(iv->rates, iv->n),
		.min = lo,
		.max = hi,
		.sm_mhz = iv->mhz_n ? iv->mhz_sum / (double)iv->mhz_n : NAN,
		.power_w = iv->w_n ? iv->w_sum / (double)iv->w_n : NAN,
		.reasons = iv->reasons,
		.has_reasons = iv->has_reasons,
		.others = iv->others,
	};
	reset(iv, iv->t0_ms + iv->len_ms);
	return true;
}

bool interval_flush(Interval *iv, IntervalRow *out)
{
	return close_at(iv, iv->last_ms, out); /* the run's end: its last sample */
}

bool interval_idle(Interval *iv, double now_ms, IntervalRow *out)
{
	return interval_due(iv, now_ms - INTERVAL_GRACE_MS, out);
}

bool interval_due(Interval *iv, double t_ms, IntervalRow *out)
{
	double end = iv->t0_ms + iv->len_ms;
	if (!(iv->len_ms > 0) || !(t_ms >= end))
		return false;
	if (close_at(iv, end, out))
		return true;
	*out = (IntervalRow){ .t0_s = iv->t0_ms * 1e-3, .t1_s = end * 1e-3, .median = NAN, .min = NAN, .max = NAN,
		                  .sm_mhz = NAN, .power_w = NAN, .others = NAN };
	reset(iv, end);
	return true;
}

void interval_add(Interval *iv, const Sample *s)
{
	if (iv->n == iv->cap) {
		size_t cap = iv->cap ? 2 * iv->cap : 256;
		double *r = realloc(iv->rates, cap * sizeof *r);
		if (!r) {
			iv->oom = true; /* the row goes on with the samples it holds */
			return;
		}
		iv->rates = r;
		iv->cap = cap;
	}
	iv->rates[iv->n++] = s->rate;
	iv->last_ms = s->t_ms;
	if (s->flags & SAMPLE_VERIFIED)
		iv->verified++;
	if (sample_has_tel(s, TEL_SM_MHZ)) {
		iv->mhz_sum += s->tel[TEL_SM_MHZ];
		iv->mhz_n++;
	}
	if (!isnan(sample_power_w(s))) {
		iv->w_sum += sample_power_w(s);
		iv->w_n++;
	}
	if (sample_has_tel(s, TEL_THROTTLE)) {
		iv->reasons |= (uint32_t)s->tel[TEL_THROTTLE];
		iv->has_reasons = true;
	}
	if (sample_has_tel(s, TEL_OTHER_GPU) && !(s->tel[TEL_OTHER_GPU] <= iv->others))
		iv->others = s->tel[TEL_OTHER_GPU];
}
