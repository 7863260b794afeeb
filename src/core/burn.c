#include "burn.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "outlier.h"
#include "peak.h"
#include "stats.h"
#include "summary.h"
#include "error.h"
#include "throttle.h"

const char *const burn_status_names[BURN_STATUS_COUNT] = {
	[BURN_PASS] = "pass", [BURN_UNSURE] = "unsure", [BURN_OUTLIER] = "outlier",
	[BURN_FAIL] = "fail", [BURN_WRONG] = "wrong",   [BURN_ERROR] = "error",
};
const char *const burn_status_words[BURN_STATUS_COUNT] = {
	[BURN_PASS] = "PASS", [BURN_UNSURE] = "UNSURE", [BURN_OUTLIER] = "OUTLIER",
	[BURN_FAIL] = "FAIL", [BURN_WRONG] = "WRONG",   [BURN_ERROR] = "ERROR",
};

/* the median of v[0..n) that are finite, sorting v; NaN for none */
static double median_of(double *v, size_t n)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (isfinite(v[k]))
			v[m++] = v[k];
	return m ? stats_median_inplace(v, m) : NAN;
}

/* The 10th-to-90th percentile range of the 1 s block means of the steady
 * samples over their median (the node rule's noise); NaN under 3 blocks. */
static double block_noise(const Sample *s, size_t n, double t0_ms, double *v)
{
	size_t nb = 0;
	double sum = 0;
	size_t cnt = 0;
	long cur = -1;
	for (size_t k = 0; k <= n; k++) {
		bool steady = k < n && (s[k].flags & SAMPLE_STEADY) && isfinite(s[k].rate);
		long b = k < n ? (long)floor((s[k].t_ms - t0_ms) / 1000.0) : -2;
		if (k == n || (steady && b != cur)) {
			if (cnt)
				v[nb++] = sum / (double)cnt;
			sum = 0;
			cnt = 0;
			cur = b;
		}
		if (steady) {
			sum += s[k].rate;
			cnt++;
		}
	}
	if (nb < 3)
		return NAN;
	stats_sort(v, nb);
	double med = stats_quantile_sorted(v, nb, 0.5);
	return med > 0 ? (stats_quantile_sorted(v, nb, 0.9) - stats_quantile_sorted(v, nb, 0.1)) / med : NAN;
}

bool burn_window_stats(BurnWindow *w, const Sample *s, size_t n)
{
	w->samples = n;
	w->steady = w->verified = 0;
	w->median = w->min = w->max = w->noise = NAN;
	w->mhz = w->watts = w->temp_max = w->temp_slowdown = w->others = w->replays = w->ecc_new = NAN;
	w->remap_pending = w->remap_failed = false;
	w->held_power = w->held_thermal = w->held_hw = NAN;
	w->status = BURN_PASS;
	w->drift = w->peer_ratio = NAN;
	w->causes.n = 0;
	double *v = malloc((n ? n : 1) * sizeof *v);
	if (!v)
		return false;
	size_t m = 0, reasons = 0, power = 0, thermal = 0, hw = 0;
	LinkSeen link = { .replays_first = NAN, .replays_last = NAN };
	double ecc_first = NAN, ecc_last = NAN;
	for (size_t k = 0; k < n; k++) {
		if (s[k].flags & SAMPLE_VERIFIED)
			w->verified++;
		if ((s[k].flags & SAMPLE_STEADY) && isfinite(s[k].rate)) {
			v[m++] = s[k].rate;
			w->min = isnan(w->min) || s[k].rate < w->min ? s[k].rate : w->min;
			w->max = isnan(w->max) || s[k].rate > w->max ? s[k].rate : w->max;
		}
		if (sample_has_tel(&s[k], TEL_TEMP_C) && !(s[k].tel[TEL_TEMP_C] <= w->temp_max))
			w->temp_max = s[k].tel[TEL_TEMP_C];
		if (sample_has_tel(&s[k], TEL_TEMP_SLOWDOWN_C))
			w->temp_slowdown = s[k].tel[TEL_TEMP_SLOWDOWN_C];
		if (sample_has_tel(&s[k], TEL_ECC_UNCORRECTED)) {
			if (isnan(ecc_first))
				ecc_first = s[k].tel[TEL_ECC_UNCORRECTED];
			ecc_last = s[k].tel[TEL_ECC_UNCORRECTED];
		}
		w->remap_pending |= sample_has_tel(&s[k], TEL_REMAP_PENDING) && s[k].tel[TEL_REMAP_PENDING] > 0;
		w->remap_failed |= sample_has_tel(&s[k], TEL_REMAP_FAILED) && s[k].tel[TEL_REMAP_FAILED] > 0;
		if (sample_has_tel(&s[k], TEL_PCIE_REPLAYS)) {
			if (isnan(link.replays_first))
				link.replays_first = s[k].tel[TEL_PCIE_REPLAYS];
			link.replays_last = s[k].tel[TEL_PCIE_REPLAYS];
		}
		if (sample_has_tel(&s[k], TEL_OTHER_GPU) && !(s[k].tel[TEL_OTHER_GPU] <= w->others))
			w->others = s[k].tel[TEL_OTHER_GPU];
		if (sample_has_tel(&s[k], TEL_THROTTLE)) {
			uint64_t bits = (uint64_t)s[k].tel[TEL_THROTTLE];
			reasons++;
			power += (bits & THR_POWER_CAP) != 0;
			thermal += (bits & (THR_THERMAL_SW | THR_THERMAL_HW)) != 0;
			hw += (bits & (THR_HW_SLOWDOWN | THR_POWER_BRAKE)) != 0;
		}
	}
	w->steady = m;
	w->replays = link_replays(&link); /* as a run's: a counter that wrapped or went back */
	w->ecc_new = ecc_last >= ecc_first ? ecc_last - ecc_first : NAN; /* went back: the driver reloaded */
	w->median = m ? stats_median_inplace(v, m) : NAN;
	if (reasons) {
		w->held_power = (double)power / (double)reasons;
		w->held_thermal = (double)thermal / (double)reasons;
		w->held_hw = (double)hw / (double)reasons;
	}
	for (size_t k = 0; k < n; k++)
		v[k] = sample_has_tel(&s[k], TEL_SM_MHZ) ? s[k].tel[TEL_SM_MHZ] : NAN;
	w->mhz = median_of(v, n);
	for (size_t k = 0; k < n; k++)
		v[k] = sample_power_w(&s[k]);
	w->watts = median_of(v, n);
	w->noise = block_noise(s, n, w->t0_s * 1000.0, v);
	free(v);
	return true;
}

static void raise_to(BurnWindow *w, BurnStatus st)
{
	if (st > w->status)
		w->status = st;
}

void burn_judge(BurnWindow *w, const BurnWindow *first, double margin_pct, const char *who)
{
	if (w->error) {
		raise_to(w, BURN_ERROR);
		verdict_add(&w->causes, true, VC_RUN_ERROR, NULL, "the run failed in this window");
	}
	if (w->wrong) {
		raise_to(w, BURN_WRONG);
		verdict_add(&w->causes, true, VC_WRONG_RESULT, NULL, "a result was wrong in this window");
	}
	double held = (isnan(w->held_thermal) ? 0 : w->held_thermal) + (isnan(w->held_hw) ? 0 : w->held_hw);
	if (held >= BURN_HOLD_SHARE) {
		char th[40] = "", hw[40] = "";
		if (w->held_thermal > 0)
			snprintf(th, sizeof th, "thermal %.0f%%", 100 * w->held_thermal);
		if (w->held_hw > 0)
			snprintf(hw, sizeof hw, "HW slowdown %.0f%%", 100 * w->held_hw);
		raise_to(w, BURN_FAIL);
		verdict_add(&w->causes, true, VC_THROTTLE_HW, NULL, "held by: %s%s%s of its samples, a fault", th,
		            th[0] && hw[0] ? ", " : "", hw);
	}
	if (isfinite(w->temp_max) && isfinite(w->temp_slowdown)) {
		double f[] = { w->temp_max, w->temp_slowdown };
		if (w->temp_max >= w->temp_slowdown) {
			raise_to(w, BURN_FAIL);
			verdict_add(&w->causes, true, VC_TEMP_AT_SLOWDOWN, f, "hottest %.0f C, at or past its slowdown "
			            "threshold (%.0f C)", w->temp_max, w->temp_slowdown);
		} else if (w->temp_max >= w->temp_slowdown - BURN_SLOWDOWN_MARGIN_C) {
			verdict_add(&w->causes, false, VC_TEMP_NEAR_SLOWDOWN, f, "hottest %.0f C, within %.0f C of its "
			            "slowdown threshold (%.0f C)", w->temp_max, BURN_SLOWDOWN_MARGIN_C, w->temp_slowdown);
		}
	}
	if (w->ecc_new > 0) {
		double f[] = { w->ecc_new };
		raise_to(w, BURN_FAIL);
		verdict_add(&w->causes, true, VC_ECC_UNCORRECTED, f, "%.0f new uncorrected ECC error%s in this window",
		            w->ecc_new, w->ecc_new == 1 ? "" : "s");
	}
	if (w->remap_failed) {
		raise_to(w, BURN_FAIL);
		verdict_add(&w->causes, true, VC_ROW_REMAP_FAILED, NULL, "a row remap of its memory failed");
	} else if (w->remap_pending) {
		verdict_add(&w->causes, false, VC_ROW_REMAP_PENDING, NULL, "a row remap of its memory waits for a GPU reset");
	}
	if (w->replays > PCIE_MAX_REPLAYS) {
		double f[] = { w->replays, PCIE_MAX_REPLAYS };
		raise_to(w, BURN_FAIL);
		verdict_add(&w->causes, true, VC_PCIE_REPLAYS, f, "%.0f PCIe replays in this window (more than %d: a link "
		            "retransmitting)", w->replays, PCIE_MAX_REPLAYS);
	}
	if (w->held_power > 0)
		verdict_add(&w->causes, false, VC_POWER_CAP, NULL, "held by: power cap %.0f%% of its samples (reported, "
		            "not failed)", 100 * w->held_power);
	if (first && first != w && isfinite(first->median) && first->median > 0 && isfinite(w->median)) {
		w->drift = w->median / first->median;
		if (w->drift < 1 - margin_pct / 100) {
			/* the reference's noise: the window's own spread holds its step
			 * (another process starting within it), no doubt about the level */
			double noise = isfinite(first->noise) ? first->noise : w->noise;
			double f[] = { w->drift, (double)first->index + 1, noise };
			if (isfinite(noise) && 1 - w->drift > noise) {
				raise_to(w, BURN_FAIL);
				verdict_add(&w->causes, true, VC_DRIFT, f, "%.1f%% of window %u's median, beyond the noise "
				            "(%.1f%%)", 100 * w->drift, first->index + 1, 100 * noise);
			} else {
				raise_to(w, BURN_UNSURE);
				verdict_add(&w->causes, false, VC_DRIFT_UNSURE, f, "%.1f%% of window %u's median, within the "
				            "noise%s", 100 * w->drift, first->index + 1, isfinite(noise) ? "" : " (unknown)");
			}
		}
	}
	if (w->others > 0) {
		double f[] = { w->others };
		verdict_add(&w->causes, false, VC_OTHER_PROCESS, f, "other processes on the GPU: %.0f at most%s%s",
		            w->others, who && who[0] ? ": " : "", who ? who : "");
	}
}

size_t burn_judge_peers(BurnWindow *const *w, const char *const *names, size_t n, double margin_pct)
{
	NodeDevice *d = calloc(n ? n : 1, sizeof *d);
	if (!d)
		return 0;
	for (size_t k = 0; k < n; k++) {
		d[k].name = names[k] ? names[k] : "";
		d[k].median = w[k] && !w[k]->wrong && !w[k]->error ? w[k]->median : NAN;
		d[k].noise = w[k] ? w[k]->noise : NAN;
	}
	size_t found = outlier_apply(d, n, margin_pct);
	for (size_t k = 0; k < n; k++) {
		if (!w[k])
			continue;
		w[k]->peer_ratio = d[k].peers >= 2 ? d[k].node_ratio : NAN;
		double f[] = { d[k].node_ratio, (double)d[k].peers, d[k].noise_ref };
		if (d[k].outlier) {
			raise_to(w[k], BURN_OUTLIER);
			verdict_add(&w[k]->causes, true, VC_OUTLIER, f, "%.1f%% of its %zu identical peers' median, beyond the "
			            "noise (%.1f%%)", 100 * d[k].node_ratio, d[k].peers, 100 * d[k].noise_ref);
		} else if (d[k].unsure) {
			raise_to(w[k], BURN_UNSURE);
			verdict_add(&w[k]->causes, false, VC_PEERS_UNSURE, f, "%.1f%% of its %zu identical peers' median, "
			            "within the noise", 100 * d[k].node_ratio, d[k].peers);
		}
	}
	free(d);
	return found;
}

void burn_trace_init(BurnTrace *t, double burn_s)
{
	t->span_s = fmax(burn_s / (BURN_TRACE_POINTS / 2), 0.1);
	if (!isfinite(t->span_s))
		t->span_s = 1;
	t->n = 0;
}

static void agg_merge(BurnAgg *a, const BurnAgg *b)
{
	if (!b->n)
		return;
	a->min = a->n && a->min <= b->min ? a->min : b->min;
	a->max = a->n && a->max >= b->max ? a->max : b->max;
	a->sum += b->sum;
	a->n += b->n;
}

static void agg_add(BurnAgg *a, double v)
{
	if (isfinite(v))
		agg_merge(a, &(BurnAgg){ .min = v, .max = v, .sum = v, .n = 1 });
}

double burn_agg_mean(const BurnAgg *a)
{
	return a->n ? a->sum / (double)a->n : NAN;
}

/* Each two neighbouring spans into one of twice the length. */
static void trace_halve(BurnTrace *t)
{
	size_t m = 0;
	for (size_t k = 0; k < t->n; k++) {
		long slot = t->p[k].slot / 2;
		if (m && t->p[m - 1].slot == slot) {
			for (int q = 0; q < BURN_Q_COUNT; q++)
				agg_merge(&t->p[m - 1].q[q], &t->p[k].q[q]);
			continue;
		}
		t->p[m] = t->p[k];
		t->p[m++].slot = slot;
	}
	t->n = m;
	t->span_s *= 2;
}

void burn_trace_add(BurnTrace *t, const Sample *s, double t_s)
{
	if (!(t_s >= 0))
		return;
	for (;;) {
		long slot = (long)floor(t_s / t->span_s);
		/* the run longer than the points cover: halve */
		if (slot >= (long)BURN_TRACE_POINTS) {
			trace_halve(t);
			continue;
		}
		if (!t->n || t->p[t->n - 1].slot < slot) {
			if (t->n == BURN_TRACE_POINTS) {
				trace_halve(t);
				continue;
			}
			t->p[t->n++] = (BurnPoint){ .slot = slot };
		}
		break;
	}
	BurnPoint *p = &t->p[t->n - 1]; /* a sample older than the last span joins it */
	agg_add(&p->q[BURN_Q_RATE], (s->flags & SAMPLE_STEADY) ? s->rate : NAN);
	agg_add(&p->q[BURN_Q_MHZ], sample_has_tel(s, TEL_SM_MHZ) ? s->tel[TEL_SM_MHZ] : NAN);
	agg_add(&p->q[BURN_Q_WATTS], sample_power_w(s));
	agg_add(&p->q[BURN_Q_TEMP], sample_has_tel(s, TEL_TEMP_C) ? s->tel[TEL_TEMP_C] : NAN);
}

/* Each two neighbouring spans into one until t's span is span_s. */
static void trace_coarsen(BurnTrace *t, double span_s)
{
	while (t->span_s < span_s * (1 - 1e-9))
		trace_halve(t);
}

/* b's point k in into's spans (ratio: b's span over into's, at most 1). */
static long trace_mapped(const BurnTrace *b, size_t k, double ratio)
{
	return (long)floor(((double)b->p[k].slot + 0.5) * ratio);
}

/* The points into and b would make together: their distinct slots. */
static size_t trace_union(const BurnTrace *into, const BurnTrace *b, double ratio)
{
	size_t total = 0, i = 0, k = 0;
	long last = LONG_MIN;
	while (i < into->n || k < b->n) {
		long si = i < into->n ? into->p[i].slot : LONG_MAX, sk = k < b->n ? trace_mapped(b, k, ratio) : LONG_MAX;
		long s = si <= sk ? si : sk;
		if (si <= sk)
			i++;
		else
			k++;
		total += s != last;
		last = s;
	}
	return total;
}

void burn_trace_merge(BurnTrace *into, const BurnTrace *b)
{
	trace_coarsen(into, b->span_s);
	double ratio = b->span_s / into->span_s;
	size_t total;
	/* traces of one burn fit as they are; any others as they must */
	while ((total = trace_union(into, b, ratio)) > BURN_TRACE_POINTS) {
		trace_halve(into);
		ratio = b->span_s / into->span_s;
	}
	/* from the back, so that into's points move up before they are
	 * overwritten: a slot of both (or of several of b's) one point */
	size_t at = total, i = into->n, k = b->n;
	while (i > 0 || k > 0) {
		long si = i ? into->p[i - 1].slot : LONG_MIN, sk = k ? trace_mapped(b, k - 1, ratio) : LONG_MIN;
		bool from_b = sk > si;
		BurnPoint pt = from_b ? b->p[--k] : into->p[--i];
		pt.slot = from_b ? sk : si;
		if (at < total && into->p[at].slot == pt.slot)
			for (int q = 0; q < BURN_Q_COUNT; q++)
				agg_merge(&into->p[at].q[q], &pt.q[q]);
		else
			into->p[--at] = pt;
	}
	into->n = total;
}

bool burn_turn_owns(double t_s, double window_s, unsigned turn, unsigned turns)
{
	return turns < 2 || (unsigned long)floor(t_s / window_s) % turns == turn;
}

double burn_turn_wait(double t_s, double burn_s, double window_s, unsigned turn, unsigned turns)
{
	if (burn_turn_owns(t_s, window_s, turn, turns))
		return 0;
	double i = floor(t_s / window_s);
	double next = i + (double)((turn + turns - (unsigned long)i % turns) % turns);
	double at = next * window_s;
	return at < burn_s - 1e-9 ? at - t_s : -1;
}

unsigned burn_turn_windows(unsigned windows, unsigned turn, unsigned turns)
{
	if (turns < 2)
		return windows;
	return windows > turn ? (windows - turn + turns - 1) / turns : 0;
}

void burn_run_name(const char *device, const char *workload, unsigned turns, char *out, size_t len)
{
	if (turns > 1)
		snprintf(out, len, "%.255s (%.40s)", device, workload);
	else
		snprintf(out, len, "%.255s", device);
}

void burn_cut_turns(BurnCut *c, unsigned turn, unsigned turns)
{
	c->turn = turns > 1 ? turn : 0;
	c->turns = turns > 1 ? turns : 1;
	c->cur = c->turn;
}

bool burn_cut_turn_end(BurnCut *c, BurnWindow *closed)
{
	if (c->turns < 2 || !c->seen || c->cur + 1 >= c->windows)
		return false;
	burn_cut_close(c, closed, false, c->cur + c->turns);
	return true;
}

bool burn_cut_more(const BurnCut *c)
{
	unsigned turns = c->turns ? c->turns : 1;
	return c->cur + turns < c->windows;
}

bool burn_cut_init(BurnCut *c, double burn_s, double window_s)
{
	*c = (BurnCut){ .burn_s = burn_s, .window_s = window_s, .windows = (unsigned)ceil(burn_s / window_s - 1e-9),
	                .turns = 1, .stride = 1, .min = NAN, .max = NAN, .temp = NAN };
	c->buf = malloc(BURN_KEEP_SAMPLES * sizeof *c->buf);
	return c->buf != NULL;
}

void burn_cut_free(BurnCut *c)
{
	free(c->buf);
	c->buf = NULL;
}

static void cut_keep(BurnCut *c, const Sample *s)
{
	c->samples++;
	if (s->flags & SAMPLE_VERIFIED)
		c->verified++;
	if ((s->flags & SAMPLE_STEADY) && isfinite(s->rate)) {
		c->min = isnan(c->min) || s->rate < c->min ? s->rate : c->min;
		c->max = isnan(c->max) || s->rate > c->max ? s->rate : c->max;
	}
	if (sample_has_tel(s, TEL_TEMP_C) && !(s->tel[TEL_TEMP_C] <= c->temp))
		c->temp = s->tel[TEL_TEMP_C];
	if (c->seen++ % c->stride)
		return;
	if (c->n == BURN_KEEP_SAMPLES) {
		for (size_t k = 0; k < c->n / 2; k++)
			c->buf[k] = c->buf[2 * k];
		c->n /= 2;
		c->stride *= 2;
		if ((c->seen - 1) % c->stride)
			return;
	}
	c->buf[c->n++] = *s;
}

bool burn_cut_close(BurnCut *c, BurnWindow *w, bool partial, unsigned next)
{
	double end = c->window_s * (c->cur + 1);
	*w = (BurnWindow){ .index = c->cur, .t0_s = c->window_s * c->cur, .t1_s = end < c->burn_s ? end : c->burn_s,
	                   .partial = partial };
	bool ok = burn_window_stats(w, c->buf, c->n);
	w->error = !ok; /* out of memory: no figure */
	w->samples = c->samples;
	w->verified = c->verified;
	w->min = c->min;
	w->max = c->max;
	w->temp_max = c->temp;
	if (partial && c->n)
		w->t1_s = c->buf[c->n - 1].t_ms / 1000.0;
	c->cur = next;
	c->n = c->seen = c->samples = c->verified = 0;
	c->stride = 1;
	c->min = c->max = c->temp = NAN;
	return ok;
}

bool burn_cut_add(BurnCut *c, const Sample *s, BurnWindow *closed)
{
	unsigned index = (unsigned)floor(s->t_ms / 1000.0 / c->window_s);
	if (index < c->cur) /* of a window closed at its turn's end (burn_cut_turn_end) */
		return false;
	if (index < c->windows && !burn_turn_owns(s->t_ms / 1000.0, c->window_s, c->turn, c->turns))
		return false; /* past its turn (its run waits for the next) */
	bool later = index > c->cur && index < c->windows;
	if (later)
		burn_cut_close(c, closed, false, index);
	cut_keep(c, s);
	return later;
}

BurnStatus burn_worst(const size_t count[BURN_STATUS_COUNT])
{
	for (int st = BURN_STATUS_COUNT - 1; st > 0; st--)
		if (count[st])
			return (BurnStatus)st;
	return BURN_PASS;
}

int burn_exit_status(const size_t count[BURN_STATUS_COUNT], size_t devices_failed)
{
	if (count[BURN_WRONG])
		return STATUS_WRONG;
	if (count[BURN_FAIL])
		return 1;
	if (count[BURN_OUTLIER])
		return STATUS_OUTLIER;
	if (count[BURN_ERROR] || devices_failed)
		return STATUS_NOT_RUN;
	return 0;
}
