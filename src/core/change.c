#include "change.h"
#include "throttle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "stats.h"

const char *const change_kind_names[CHANGE_KIND_COUNT] = { "step", "ramp" };
const char *const change_cause_names[CAUSE_COUNT] = {
	"power state", "not a power-state change", "unexplained",
};
const char *const change_cause_keys[CAUSE_COUNT] = { "power_state", "not_power_state", "unexplained" };
const char *const change_share_keys[SHARE_COUNT] = { "clock", "other_gpu", "other_cpu", "unexplained" };

void change_init(ChangeDetector *d)
{
	memset(d, 0, sizeof *d);
}

double change_median(const double *v, size_t n)
{
	double tmp[CHG_WIN > CHG_REF ? CHG_WIN : CHG_REF];
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			tmp[k++] = v[i];
	return k ? stats_median_inplace(tmp, k) : NAN;
}

/* The median of a telemetry field over rows of a ring. */
static double tel_median(const double (*rows)[TEL_FIELD_COUNT], size_t n, int f)
{
	double v[CHG_WIN > CHG_REF ? CHG_WIN : CHG_REF];
	for (size_t i = 0; i < n; i++)
		v[i] = rows[i][f];
	return change_median(v, n);
}

/* Throttle bits: the OR of the newest readings (a bit seen at all counts). */
static double tel_bits(const double (*rows)[TEL_FIELD_COUNT], size_t n)
{
	unsigned long long bits = 0;
	bool any = false;
	for (size_t i = 0; i < n; i++)
		if (isfinite(rows[i][TEL_THROTTLE])) {
			bits |= (unsigned long long)rows[i][TEL_THROTTLE];
			any = true;
		}
	return any ? (double)bits : NAN;
}

static void seg_push(ChangeDetector *d, double x, const double tel[TEL_FIELD_COUNT])
{
	size_t i = d->seg_head;
	d->seg_x[i] = x;
	memcpy(d->seg_tel[i], tel, sizeof d->seg_tel[i]);
	d->seg_head = (i + 1) % CHG_REF;
	if (d->seg_n < CHG_REF)
		d->seg_n++;
	d->seg_total++;
}

/* The level and threshold from the segment's samples. */
static void set_level(ChangeDetector *d)
{
	d->ref = change_median(d->seg_x, d->seg_n);
	double dev[CHG_REF];
	for (size_t i = 0; i < d->seg_n; i++)
		dev[i] = fabs(d->seg_x[i] - d->ref);
	double mad = change_median(dev, d->seg_n);
	double thr = d->ref > 0 ? 3 * 1.4826 * mad / d->ref : CHG_THRESHOLD;
	d->thr = thr > CHG_THR_MAX ? CHG_THR_MAX : thr > CHG_THRESHOLD ? thr : CHG_THRESHOLD;
	d->has_ref = d->ref > 0;
}

/* The departure's newest k samples (oldest first) into t, x, tel. */
static size_t win_newest(const ChangeDetector *d, size_t k, double *t, double *x,
                         double (*tel)[TEL_FIELD_COUNT])
{
	if (k > d->win_n)
		k = d->win_n;
	for (size_t j = 0; j < k; j++) {
		size_t i = (d->win_head + CHG_WIN - k + j) % CHG_WIN;
		if (t)
			t[j] = d->win_t[i];
		if (x)
			x[j] = d->win_x[i];
		if (tel)
			memcpy(tel[j], d->win_tel[i], sizeof tel[j]);
	}
	return k;
}

/* How many of the departure's newest samples tell its level. */
static size_t recent_n(const ChangeDetector *d)
{
	size_t k = d->win_n / 2;
	return k < CHG_SUSTAIN_N ? (d->win_n < CHG_SUSTAIN_N ? d->win_n : CHG_SUSTAIN_N) : k;
}

/* Whether the departure's samples held still move: the least-squares line
 * through them rises or falls by more than half the threshold over their
 * span. */
static bool moving(const ChangeDetector *d)
{
	double t[CHG_WIN], x[CHG_WIN];
	size_t n = win_newest(d, d->win_n, t, x, NULL);
	if (n < 3)
		return false;
	double mt = 0, mx = 0;
	for (size_t i = 0; i < n; i++) {
		mt += t[i];
		mx += x[i];
	}
	mt /= (double)n;
	mx /= (double)n;
	double sxy = 0, sxx = 0;
	for (size_t i = 0; i < n; i++) {
		sxy += (t[i] - mt) * (x[i] - mx);
		sxx += (t[i] - mt) * (t[i] - mt);
	}
	if (!(sxx > 0))
		return false;
	double rise = fabs(sxy / sxx) * (t[n - 1] - t[0]);
	return rise / d->ref > d->thr / 2;
}

static ChangeCause say_cause(const ChangeDetector *d, const double *b, const double *a, double ratio,
                             double share[SHARE_COUNT], char *out, size_t len);

/* The departure's level: the median of its newest samples. */
static double recent_level(const ChangeDetector *d)
{
	double rx[CHG_WIN];
	size_t k = win_newest(d, recent_n(d), NULL, rx, NULL);
	return change_median(rx, k);
}

static void add_excursion(ChangeDetector *d)
{
	size_t off = d->away_n - d->back; /* the samples before the return */
	double x[CHG_WIN], tel[CHG_WIN][TEL_FIELD_COUNT];
	size_t n = win_newest(d, d->win_n, NULL, x, tel);
	/* the level during it: its samples before the return */
	size_t m = n > d->back ? n - d->back : n;
	Excursion *e = &d->exc[d->nexc % CHG_KEEP];
	double before[TEL_FIELD_COUNT], during[TEL_FIELD_COUNT];
	for (int f = 0; f < TEL_FIELD_COUNT; f++) {
		before[f] = tel_median((const double (*)[TEL_FIELD_COUNT])d->seg_tel, d->seg_n, f);
		during[f] = tel_median((const double (*)[TEL_FIELD_COUNT])tel, m, f);
	}
	before[TEL_THROTTLE] = tel_bits((const double (*)[TEL_FIELD_COUNT])d->seg_tel, d->seg_n);
	during[TEL_THROTTLE] = tel_bits((const double (*)[TEL_FIELD_COUNT])tel, m);
	e->t_ms = d->t0;
	e->t_end_ms = d->last_off_t;
	e->samples = (unsigned)off;
	e->level = change_median(x, m);
	e->depth = e->level / d->ref;
	e->cause = say_cause(d, before, during, e->depth, e->share, e->why, sizeof e->why);
	d->nexc++;
	d->exc_ms += d->last_off_t - d->t0;
	d->away = false;
}

/* The power state's words: the clock's move (more than CHG_CLOCK), the
 * P-state's, the reasons that appeared; whether any. */
static bool power_words(const double *b, const double *a, char *out, size_t len)
{
	size_t w = 0;
	bool power = false;
	out[0] = '\0';
	double cb = b[TEL_SM_MHZ], ca = a[TEL_SM_MHZ];
	if (isfinite(cb) && isfinite(ca) && cb > 0 && fabs(ca / cb - 1) > CHG_CLOCK) {
		power = true;
		w += (size_t)snprintf(out + w, len - w, "clock %.0f -> %.0f MHz", cb, ca);
	}
	if (isfinite(b[TEL_PSTATE]) && isfinite(a[TEL_PSTATE]) && b[TEL_PSTATE] != a[TEL_PSTATE] && w < len) {
		w += (size_t)snprintf(out + w, len - w, "%sP%.0f -> P%.0f", power ? ", " : "", b[TEL_PSTATE],
		                      a[TEL_PSTATE]);
		power = true;
	}
	if (isfinite(a[TEL_THROTTLE])) {
		unsigned long long nb = isfinite(b[TEL_THROTTLE]) ? (unsigned long long)b[TEL_THROTTLE] : 0;
		unsigned long long na = (unsigned long long)a[TEL_THROTTLE];
		for (size_t i = 0; i < throttle_reason_count && w < len; i++)
			if ((na & throttle_reasons[i].bit) && !(nb & throttle_reasons[i].bit)) {
				w += (size_t)snprintf(out + w, len - w, "%s%s", power ? ", " : "", throttle_reasons[i].name);
				power = true;
			}
	}
	return power;
}

/* A factor's size, whichever way it goes. */
static double size_of(double f)
{
	return isfinite(f) && f > 0 ? fabs(log(f)) : 0;
}

/* The ratio's parts (apportioning, change.h): the clock's, other
 * processes', and what is left beyond the noise. */
static void apportion(const ChangeDetector *d, const double *b, const double *a, double ratio, bool power,
                      double share[SHARE_COUNT], bool *cpu_unsure)
{
	*cpu_unsure = false;
	for (int k = 0; k < SHARE_COUNT; k++)
		share[k] = NAN;
	double left = ratio;
	/* the clock that limits the workload, where the power state moved */
	int f = d->memory ? TEL_MEM_MHZ : TEL_SM_MHZ;
	if ((power || d->memory) && isfinite(b[f]) && isfinite(a[f]) && b[f] > 0 && a[f] > 0 &&
	    fabs(a[f] / b[f] - 1) > CHG_CLOCK) {
		share[SHARE_CLOCK] = a[f] / b[f];
		left /= share[SHARE_CLOCK];
	}
	/* the cores other processes left us (CPU devices): a part only where
	 * enough was left on both sides to divide by, in the direction the rate
	 * went, and never more than what is left to explain (bounded: the
	 * model is of shares, not of the scheduler's every choice) */
	double ob = b[TEL_OTHER_CPU], oa = a[TEL_OTHER_CPU];
	if (isfinite(ob) && isfinite(oa)) {
		if (100 - ob < CHG_CPU_LEFT_MIN || 100 - oa < CHG_CPU_LEFT_MIN) {
			*cpu_unsure = true;
		} else {
			double fc = (100 - oa) / (100 - ob);
			if (fabs(fc - 1) > CHG_CLOCK && (fc - 1) * (left - 1) > 0) {
				if (size_of(fc) > size_of(left))
					fc = left;
				share[SHARE_OTHER_CPU] = fc;
				left /= fc;
			}
		}
	}
	/* other processes come or go on the GPU: what the clock leaves, where
	 * it went their way */
	double gb = b[TEL_OTHER_GPU], ga = a[TEL_OTHER_GPU];
	if (isfinite(gb) && isfinite(ga) && ga != gb && ((ga > gb && left < 1) || (ga < gb && left > 1)) &&
	    size_of(left) > log(1 + d->thr / 2)) {
		share[SHARE_OTHER_GPU] = left;
		left = 1;
	}
	/* what the CPU's readings cannot apportion is not "unexplained" */
	if (size_of(left) > log(1 + d->thr) && !*cpu_unsure)
		share[SHARE_UNEXPLAINED] = left;
}

/* The cause of a level departure of `ratio` from the telemetry before and
 * during or after it: its parts into share, in words into out, largest
 * first. */
static ChangeCause say_cause(const ChangeDetector *d, const double *b, const double *a, double ratio,
                             double share[SHARE_COUNT], char *out, size_t len)
{
	char power_txt[160];
	bool power = power_words(b, a, power_txt, sizeof power_txt);
	bool cpu_unsure;
	apportion(d, b, a, ratio, power, share, &cpu_unsure);
	int f = d->memory ? TEL_MEM_MHZ : TEL_SM_MHZ;
	bool clock_read = isfinite(b[f]) && isfinite(a[f]);
	/* each part's words */
	char txt[SHARE_COUNT][192];
	if (d->memory && isfinite(share[SHARE_CLOCK]))
		snprintf(txt[SHARE_CLOCK], sizeof txt[0], "memory clock %.0f -> %.0f MHz%s%s%s", b[f], a[f],
		         power ? " (" : "", power_txt, power ? ")" : "");
	else
		snprintf(txt[SHARE_CLOCK], sizeof txt[0], "%s", power_txt);
	double gb = b[TEL_OTHER_GPU], ga = a[TEL_OTHER_GPU];
	snprintf(txt[SHARE_OTHER_GPU], sizeof txt[0], "%.0f other process%s on the GPU (%.0f before), about", ga,
	         ga == 1 ? "" : "es", gb);
	snprintf(txt[SHARE_OTHER_CPU], sizeof txt[0], "other processes used %.0f%% of the CPU (%.0f%% before)%s",
	         a[TEL_OTHER_CPU], b[TEL_OTHER_CPU],
	         cpu_unsure ? ": too little of it left to apportion the change, cannot tell its part" : "");
	snprintf(txt[SHARE_UNEXPLAINED], sizeof txt[0], "%s", "nothing read explains");
	/* largest first */
	int order[SHARE_COUNT], n = 0;
	for (int k = 0; k < SHARE_COUNT; k++)
		if (isfinite(share[k]))
			order[n++] = k;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && size_of(share[order[j]]) > size_of(share[order[j - 1]]); j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	size_t w = 0;
	out[0] = '\0';
	for (int i = 0; i < n && w < len; i++)
		w += (size_t)snprintf(out + w, len - w, "%s%s x%.2f", i ? "; " : "", txt[order[i]], share[order[i]]);
	/* what was read and explains nothing: said, without a factor */
	if (power && !isfinite(share[SHARE_CLOCK]) && w < len)
		w += (size_t)snprintf(out + w, len - w, "%s%s (%s)", w ? "; " : "", power_txt,
		                      d->memory ? "not the memory clock" : "the clock within 2%");
	else if (!power && clock_read && !isfinite(share[SHARE_CLOCK]) && w < len)
		w += (size_t)snprintf(out + w, len - w, "%s%s" HELD_CLOCK_SAME " %.0f MHz", w ? "; " : "", d->memory ? "memory " : "",
		                      a[f]);
	else if (!clock_read && w < len)
		w += (size_t)snprintf(out + w, len - w, "%sno clock reading", w ? "; " : "");
	if (isfinite(b[TEL_OTHER_CPU]) && isfinite(a[TEL_OTHER_CPU]) && !isfinite(share[SHARE_OTHER_CPU]) && w < len)
		w += (size_t)snprintf(out + w, len - w, "; %s", txt[SHARE_OTHER_CPU]);
	/* who else had the GPU: NVML's process lists, counted (the engine adds
	 * their names where it has them: change_name_processes) */
	if (isfinite(gb) && isfinite(ga) && (ga > 0 || gb > 0) && !isfinite(share[SHARE_OTHER_GPU]) && w < len)
		snprintf(out + w, len - w, "; %.0f other process%s on the GPU (%.0f before)", ga, ga == 1 ? "" : "es", gb);
	/* the cause follows the largest part */
	int top = n ? order[0] : SHARE_UNEXPLAINED;
	if (top == SHARE_CLOCK)
		return CAUSE_POWER_STATE;
	if (top == SHARE_OTHER_GPU || top == SHARE_OTHER_CPU)
		return CAUSE_NOT_POWER_STATE;
	return clock_read ? CAUSE_NOT_POWER_STATE : CAUSE_UNEXPLAINED;
}

static void add_change(ChangeDetector *d, double after, bool at_end)
{
	Change *c = &d->changes[d->nchanges % CHG_KEEP];
	memset(c, 0, sizeof *c);
	c->t_ms = d->t0;
	c->before = d->ref;
	c->after = after;
	c->ratio = after / d->ref;
	c->samples = (unsigned)d->away_n;
	c->at_end = at_end;
	/* where it got three quarters of the way to the new level (a median of
	 * 3, overshoot counting): at its first samples, a step; later, a ramp */
	double t[CHG_WIN], x[CHG_WIN], tel[CHG_WIN][TEL_FIELD_COUNT];
	size_t n = win_newest(d, d->win_n, t, x, tel);
	double shift = after - d->ref;
	size_t nf = d->away_n < 5 ? d->away_n : 5;
	bool start_held = d->away_n == n; /* the window still holds its first sample */
	size_t at = n;
	for (size_t i = 0; i < n; i++) {
		double w[3] = { x[i], i + 1 < n ? x[i + 1] : x[i], i + 2 < n ? x[i + 2] : x[i] };
		if ((change_median(w, 3) - d->ref) / shift >= 0.75) {
			at = i;
			break;
		}
	}
	/* the first 5 samples' median: less noisy than 3 */
	bool step = (change_median(d->first_x, nf) - d->ref) / shift >= 0.7 || (start_held && at == 0);
	c->kind = step ? CHANGE_STEP : CHANGE_RAMP;
	c->t_end_ms = step ? c->t_ms : at < n ? t[at] : (n ? t[n - 1] : c->t_ms);
	/* telemetry: the segment's newest samples before, the departure's newest after */
	size_t k = recent_n(d);
	for (int f = 0; f < TEL_FIELD_COUNT; f++) {
		c->tel_before[f] = tel_median((const double (*)[TEL_FIELD_COUNT])d->seg_tel, d->seg_n, f);
		c->tel_after[f] = tel_median((const double (*)[TEL_FIELD_COUNT])tel + (n - k), k, f);
	}
	c->tel_before[TEL_THROTTLE] = tel_bits((const double (*)[TEL_FIELD_COUNT])d->seg_tel, d->seg_n);
	c->tel_after[TEL_THROTTLE] = tel_bits((const double (*)[TEL_FIELD_COUNT])tel + (n - k), k);
	c->cause = say_cause(d, c->tel_before, c->tel_after, c->ratio, c->share, c->why, sizeof c->why);
	d->by_cause[c->cause]++;
	d->nchanges++;
	/* the new segment: the newest samples at the new level */
	d->seg_n = d->seg_head = d->seg_total = 0;
	size_t from = n > CHG_REF ? n - CHG_REF : 0;
	for (size_t i = from; i < n; i++)
		seg_push(d, x[i], tel[i]);
	set_level(d);
	d->away = false;
}

int change_add(ChangeDetector *d, double t_ms, double x, const double tel[TEL_FIELD_COUNT])
{
	if (!isfinite(x) || x < 0)
		return 0;
	if (!d->has_ref) {
		seg_push(d, x, tel);
		if (d->seg_n >= CHG_REF_MIN)
			set_level(d);
		return 0;
	}
	bool off = fabs(x / d->ref - 1) > d->thr;
	if (!d->away) {
		if (!off) {
			seg_push(d, x, tel);
			if (d->seg_total <= CHG_REF) /* the level settles, then is kept */
				set_level(d);
			return 0;
		}
		d->away = true;
		d->t0 = t_ms;
		d->away_n = d->back = d->win_n = d->win_head = 0;
	}
	size_t i = d->win_head;
	d->win_t[i] = t_ms;
	d->win_x[i] = x;
	memcpy(d->win_tel[i], tel, sizeof d->win_tel[i]);
	d->win_head = (i + 1) % CHG_WIN;
	if (d->win_n < CHG_WIN)
		d->win_n++;
	if (d->away_n < 5)
		d->first_x[d->away_n] = x;
	d->away_n++;
	if (off) {
		d->back = 0;
		d->last_off_t = t_ms;
	} else if (++d->back >= CHG_BACK) {
		add_excursion(d);
		return 2;
	}
	if (t_ms - d->t0 < CHG_SUSTAIN_MS || d->away_n < CHG_SUSTAIN_N)
		return 0;
	double level = recent_level(d);
	if (fabs(level / d->ref - 1) <= d->thr) {
		add_excursion(d); /* it wavered back: no new level */
		return 2;
	}
	/* still on its way (a ramp): over the samples held, the level moves by
	 * more than half the threshold; it is dated once it holds
	 * (CHG_SETTLE_MS at most) */
	if (moving(d) && t_ms - d->t0 < CHG_SETTLE_MS)
		return 0;
	add_change(d, level, false);
	return 1;
}

int change_finish(ChangeDetector *d)
{
	if (!d->away)
		return 0;
	if (d->away_n >= CHG_SUSTAIN_N && d->back == 0) {
		double level = recent_level(d);
		if (fabs(level / d->ref - 1) > d->thr) {
			add_change(d, level, true);
			return 1;
		}
	}
	add_excursion(d);
	return 2;
}

size_t change_kept(const ChangeDetector *d)
{
	return d->nchanges < CHG_KEEP ? d->nchanges : CHG_KEEP;
}

size_t change_excursions_kept(const ChangeDetector *d)
{
	return d->nexc < CHG_KEEP ? d->nexc : CHG_KEEP;
}

const Change *change_get(const ChangeDetector *d, size_t i)
{
	if (i >= change_kept(d))
		return NULL;
	return &d->changes[(d->nchanges - 1 - i) % CHG_KEEP];
}

void change_name_processes(ChangeDetector *d, size_t since, const char *names)
{
	if (!names || !names[0])
		return;
	for (size_t k = since; k < d->nchanges; k++) {
		if (d->nchanges - k > CHG_KEEP)
			continue; /* no longer kept */
		Change *c = &d->changes[k % CHG_KEEP];
		char *at = strstr(c->why, " on the GPU (");
		char *end = at ? strchr(at, ')') : NULL;
		if (!(c->tel_after[TEL_OTHER_GPU] > 0) || !end || end[1] == ':')
			continue;
		/* the names right after the count: "(0 before): 4711 python3" */
		char rest[sizeof c->why];
		snprintf(rest, sizeof rest, "%s", end + 1);
		size_t w = (size_t)(end + 1 - c->why);
		snprintf(c->why + w, sizeof c->why - w, ": %s%s", names, rest);
	}
}

const Excursion *change_excursion(const ChangeDetector *d, size_t i)
{
	if (i >= change_excursions_kept(d))
		return NULL;
	return &d->exc[(d->nexc - 1 - i) % CHG_KEEP];
}

void change_tel_of(const Sample *s, double tel[TEL_FIELD_COUNT])
{
	for (int f = 0; f < TEL_FIELD_COUNT; f++)
		tel[f] = sample_has_tel(s, (TelField)f) ? s->tel[f] : NAN;
}

void change_shares_short(const double share[SHARE_COUNT], char *out, size_t len)
{
	static const char *const names[SHARE_COUNT] = { "clock", "GPU others", "CPU others", "unexplained" };
	bool used[SHARE_COUNT] = { false };
	size_t w = 0;
	if (len)
		out[0] = '\0';
	for (;;) {
		int top = -1;
		for (int k = 0; k < SHARE_COUNT; k++)
			if (!used[k] && isfinite(share[k]) && (top < 0 || size_of(share[k]) > size_of(share[top])))
				top = k;
		if (top < 0 || w >= len)
			break;
		used[top] = true;
		w += (size_t)snprintf(out + w, len - w, "%s%s x%.2f", w ? ", " : "", names[top], share[top]);
	}
}

void change_format(const Change *c, const char *unit, char *out, size_t len)
{
	char a[FMT_SI_LEN], b[FMT_SI_LEN];
	fmt_si(c->before, a, sizeof a);
	fmt_si(c->after, b, sizeof b);
	char at[24], until[24];
	size_t w = (size_t)snprintf(out, len, "%s at %s: %s%s -> %s%s (x%.2f)", change_kind_names[c->kind],
	                            fmt_at_ms(c->t_ms, at, sizeof at), a, unit, b, unit, c->ratio);
	if (c->kind == CHANGE_RAMP && w < len)
		w += (size_t)snprintf(out + w, len - w, " until %s", fmt_at_ms(c->t_end_ms, until, sizeof until));
	if (c->at_end && w < len)
		w += (size_t)snprintf(out + w, len - w, ", held to the end");
	if (w < len)
		snprintf(out + w, len - w, "; %s: %s", change_cause_names[c->cause], c->why);
}

void change_format_cell(const ChangeDetector *d, char *out, size_t len)
{
	size_t power = d->by_cause[CAUSE_POWER_STATE];
	snprintf(out, len, "%zu/%zu", power, d->nchanges - power);
}

void change_format_counts(const ChangeDetector *d, char *out, size_t len)
{
	size_t w = 0;
	if (len)
		out[0] = '\0';
	for (int k = 0; k < CAUSE_COUNT && w < len; k++)
		w += (size_t)snprintf(out + w, len - w, "%s%zu %s", k ? ", " : "", d->by_cause[k], change_cause_names[k]);
}

void change_format_excursion(const Excursion *e, char *out, size_t len)
{
	char at[24], span[24];
	snprintf(out, len, "excursion at %s for %s (%u sample%s) to %.2f of the level; %s: %s",
	         fmt_at_ms(e->t_ms, at, sizeof at), fmt_at_ms(e->t_end_ms - e->t_ms, span, sizeof span), e->samples,
	         e->samples == 1 ? "" : "s", e->depth,
	         change_cause_names[e->cause], e->why);
}

double change_time_to_plateau(const double *t, const double *x, size_t n, double *level)
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
	if (t[n - 1] - t[at] < CHG_PLATEAU_HELD * (t[n - 1] - t[0]) || t[n - 1] <= t[0])
		return NAN;
	return t[at];
}
