#include "summary.h"
#include "compare.h"
#include "peak.h"

#include "throttle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void summary_init(Summary *s)
{
	memset(s, 0, sizeof *s);
	s->stride = s->rstride = 1;
	s->segments = 1;
	energy_init(&s->energy);
	s->shared.max = NAN;
	s->link.gts = s->link.width = s->link.max_gts = s->link.max_width = NAN;
	s->link.replays_first = s->link.replays_last = NAN;
	change_init(&s->changes);
	televent_init(&s->events);
}

static void push(double **arr, size_t *cap, size_t n, double v, bool *oom)
{
	if (n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		double *g = realloc(*arr, nc * sizeof *g);
		if (!g) {
			*oom = true;
			return;
		}
		*arr = g;
		*cap = nc;
	}
	(*arr)[n] = v;
}

/* A transfer sweep's steady sample: each size on its own; no jumps across
 * sizes. */
static void add_size(Summary *s, const Sample *x)
{
	size_t k = 0;
	while (k < s->nsizes && s->size_of[k] != x->size)
		k++;
	if (k == s->nsizes && k < SUMMARY_SIZES) {
		s->size_of[k] = x->size;
		s->nsizes++;
	}
	if (k < s->nsizes && s->size_n[k] < SUMMARY_SIZE_CAP) {
		if (!s->size_vals[k] && !(s->size_vals[k] = malloc(SUMMARY_SIZE_CAP * sizeof(double))))
			s->oom = true;
		else
			s->size_vals[k][s->size_n[k]++] = x->rate;
	}
}

/* A steady sample kept (every stride-th): full arrays keep every other one
 * and the stride doubles, so memory stays bounded over any run. */
static void keep_steady(Summary *s, const Sample *x)
{
	s->skip = 0;
	if (s->steady == SUMMARY_CAP) {
		double *arr[] = { s->steady_mhz, s->peak, s->steady_flops, s->steady_t };
		for (size_t a = 0; a < 4; a++)
			for (size_t i = 0; i < SUMMARY_CAP / 2; i++)
				arr[a][i] = arr[a][2 * i];
		s->steady /= 2;
		s->stride *= 2;
	}
	push(&s->steady_mhz, &s->cap_mhz, s->steady, sample_tel(x, TEL_SM_MHZ), &s->oom);
	push(&s->peak, &s->cap_peak, s->steady, x->peak_flops > 0 ? x->rate / x->peak_flops : NAN, &s->oom);
	push(&s->steady_flops, &s->cap_flops, s->steady, x->rate, &s->oom);
	push(&s->steady_t, &s->cap_t, s->steady, x->t_ms, &s->oom);
	if (!s->oom)
		s->steady++;
}

/* A GPU/CPU time ratio kept, the same way. */
static void keep_ratio(Summary *s, const Sample *x)
{
	s->rskip = 0;
	if (s->gpu_timed == SUMMARY_CAP) {
		for (size_t i = 0; i < SUMMARY_CAP / 2; i++)
			s->ratio[i] = s->ratio[2 * i];
		s->gpu_timed /= 2;
		s->rstride *= 2;
	}
	push(&s->ratio, &s->cap_ratio, s->gpu_timed, (double)x->gpu_ns / (double)x->cpu_ns, &s->oom);
	if (!s->oom)
		s->gpu_timed++;
}

/* A steady sample's PCIe link. */
static void add_link(LinkSeen *l, const Sample *x)
{
	if (!sample_has_tel(x, TEL_PCIE_GTS) || !sample_has_tel(x, TEL_PCIE_WIDTH) ||
	    !sample_has_tel(x, TEL_PCIE_MAX_GTS) || !sample_has_tel(x, TEL_PCIE_MAX_WIDTH))
		return;
	double g = x->tel[TEL_PCIE_GTS], w = x->tel[TEL_PCIE_WIDTH];
	l->max_gts = x->tel[TEL_PCIE_MAX_GTS];
	l->max_width = x->tel[TEL_PCIE_MAX_WIDTH];
	l->n++;
	char why[8];
	if (!pcie_link_degraded(g, w, l->max_gts, l->max_width, why, sizeof why))
		return;
	l->low++;
	if (isnan(l->gts) || g * w < l->gts * l->width) {
		l->gts = g;
		l->width = w;
	}
}

/* The card's energy counter (read every 250 ms or so, and updated by the
 * card in steps): each new value is a point (its sample's time). The run's
 * energy is the counter's difference between its first and last points,
 * and the readings' integral before the first and after the last (a short
 * run's ramp at its start is outside the counter's span: its mean over the
 * span alone made a 2 s run 8% too high on an H200). The first value seen
 * is not a point: it may be a reading older than the run. A counter that
 * went back (the driver reloaded) starts over. */
#define ENERGY_COUNTER_MIN_MS 200.0 /* points closer than this: the readings' integral */
static void energy_counter(Energy *e, const Sample *x)
{
	if (!sample_has_tel(x, TEL_ENERGY_J))
		return;
	double c = x->tel[TEL_ENERGY_J];
	if (isnan(e->ctr_last) || c == e->ctr_last) {
		e->ctr_last = c;
		return;
	}
	if (isnan(e->ctr_t0) || c < e->ctr_last) {
		e->ctr_t0 = x->t_ms;
		e->ctr_e0 = c;
		e->ctr_r0 = e->read_joules;
		e->ctr_s0 = e->read_seconds;
		e->ctr_t1 = e->ctr_e1 = NAN;
	} else {
		e->ctr_t1 = x->t_ms;
		e->ctr_e1 = c;
		e->ctr_r1 = e->read_joules;
		e->ctr_s1 = e->read_seconds;
	}
	e->ctr_last = c;
	e->counter = e->power && e->ctr_t1 - e->ctr_t0 >= ENERGY_COUNTER_MIN_MS && e->ctr_e1 > e->ctr_e0;
}

/* The sample's power over its time; its reasons' time. */
static void add_energy(Energy *e, const Sample *x)
{
	double dt = (double)x->cpu_ns * sample_trials(x) * 1e-9;
	double w = sample_power_w(x);
	if (w >= 0) {
		e->power = true;
		e->read_joules += w * dt;
		e->read_seconds += dt;
		e->work += (double)x->work * sample_trials(x);
		if (w > e->max_w)
			e->max_w = w;
	}
	energy_counter(e, x);
	/* the counter's joules over its own wall span: the samples' times summed
	 * over it exceed the span where completions overlap (pipelined on a
	 * slow host: a mean 13-15% low under ThreadSanitizer) */
	e->joules = e->counter ? e->read_joules - (e->ctr_r1 - e->ctr_r0) + (e->ctr_e1 - e->ctr_e0) : e->read_joules;
	e->seconds = e->counter ? e->read_seconds - (e->ctr_s1 - e->ctr_s0) + (e->ctr_t1 - e->ctr_t0) * 1e-3
	                        : e->read_seconds;
	if (sample_has_tel(x, TEL_POWER_LIMIT_W))
		e->limit_w = x->tel[TEL_POWER_LIMIT_W];
	for (size_t k = 0; k < ENERGY_VIOLATIONS; k++) {
		TelField f = k == VIOL_POWER ? TEL_VIOL_POWER_S : TEL_VIOL_THERMAL_S;
		if (!sample_has_tel(x, f))
			continue;
		if (isnan(e->viol_first[k]))
			e->viol_first[k] = x->tel[f];
		e->viol_last[k] = x->tel[f];
	}
	if (sample_has_tel(x, TEL_THROTTLE)) {
		e->reasons = true;
		e->reasons_seconds += dt;
		uint64_t bits = (uint64_t)x->tel[TEL_THROTTLE];
		for (size_t k = 0; k < throttle_reason_count && k < SUMMARY_REASONS; k++)
			if (bits & throttle_reasons[k].bit)
				e->reason_s[k] += dt;
	}
}

const char *const energy_violation_keys[ENERGY_VIOLATIONS] = { "power", "thermal" };

void energy_init(Energy *e)
{
	memset(e, 0, sizeof *e);
	e->limit_w = NAN;
	e->ctr_last = e->ctr_t0 = e->ctr_e0 = e->ctr_t1 = e->ctr_e1 = NAN;
	for (size_t k = 0; k < ENERGY_VIOLATIONS; k++)
		e->viol_first[k] = e->viol_last[k] = NAN;
}

bool energy_held_by(const Energy *e, char *out, size_t len)
{
	if (!len)
		return false;
	out[0] = '\0';
	if (!e->reasons)
		return false;
	int n = snprintf(out, len, HELD_BY ": ");
	bool any = false;
	for (size_t k = 0; k < throttle_reason_count && k < SUMMARY_REASONS; k++)
		if (e->reason_s[k] > 0 && n >= 0 && (size_t)n < len) {
			n += snprintf(out + n, len - (size_t)n, "%s%s %.2f s", any ? ", " : "", throttle_reasons[k].name,
			              e->reason_s[k]);
			any = true;
		}
	if (!any && n >= 0 && (size_t)n < len)
		snprintf(out + n, len - (size_t)n, "nothing (no reason bit set)");
	return true;
}

double energy_violation_s(const Energy *e, EnergyViolation k)
{
	if ((size_t)k >= ENERGY_VIOLATIONS || isnan(e->viol_first[k]))
		return NAN;
	double d = e->viol_last[k] - e->viol_first[k];
	return d > 0 ? d : 0; /* a counter that went back (a driver reload): none seen */
}

bool energy_known(const Energy *e)
{
	return e->power && e->seconds > 0;
}

double energy_mean_w(const Energy *e)
{
	return energy_known(e) ? e->joules / e->seconds : NAN;
}

double energy_per_joule(const Energy *e)
{
	return energy_known(e) && e->joules > 0 ? e->work / e->joules : NAN;
}

bool energy_fault(const Energy *e, char *out, size_t len, char *cap, size_t cap_len)
{
	size_t n = 0;
	if (out && len)
		out[0] = '\0';
	if (cap && cap_len)
		cap[0] = '\0';
	double all = e->reasons_seconds > 0 ? e->reasons_seconds : e->seconds > 0 ? e->seconds : NAN;
	double thermal_bits = 0;
	for (size_t k = 0; e->reasons && k < throttle_reason_count && k < SUMMARY_REASONS; k++) {
		if (!(e->reason_s[k] > 0))
			continue;
		if (throttle_reasons[k].bit == THR_POWER_CAP) {
			if (cap)
				snprintf(cap, cap_len, HELD_BY " the power cap %.2f s of %.2f (%.0f%%)", e->reason_s[k],
				         all, 100 * e->reason_s[k] / all);
			continue;
		}
		if (throttle_reasons[k].bit & (THR_THERMAL_SW | THR_THERMAL_HW))
			thermal_bits += e->reason_s[k];
		if (out && n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%s %.2f s (%.0f%%)", n ? ", " : "", throttle_reasons[k].name,
			                      e->reason_s[k], 100 * e->reason_s[k] / all);
		else
			n++;
	}
	/* the driver's counters miss nothing between readings: its power count
	 * is the cap's time where it keeps one; a thermal count the bits never
	 * showed is a fault of its own */
	double vp = energy_violation_s(e, VIOL_POWER), vt = energy_violation_s(e, VIOL_THERMAL);
	/* the counters span the readings' first to last, the dispatches a little
	 * less (their gaps): not more than all of it */
	if (vp > all)
		vp = all;
	if (vt > all)
		vt = all;
	if (cap && vp > 0)
		snprintf(cap, cap_len, HELD_AT_LIMIT ": power %.2f s of %.2f (%.0f%%)", vp, all, 100 * vp / all);
	if (vt > 0 && !(thermal_bits > 0)) {
		if (out && n < len)
			n += (size_t)snprintf(out + n, len - n, "%sthermal (" HELD_AT_LIMIT ") %.2f s (%.0f%%)", n ? ", " : "",
			                      vt, 100 * vt / all);
		else
			n++;
	}
	return n > 0;
}

PowerVerdict energy_verdict(const Energy *e, double min_ratio, double *ratio, char *why, size_t len)
{
	*ratio = NAN;
	if (!energy_known(e)) {
		snprintf(why, len, "power N/A (no power reading): only the result checks held");
		return POWER_NA;
	}
	double mean = energy_mean_w(e);
	if (!(e->limit_w > 0)) {
		snprintf(why, len, "mean %.0f W, but no power limit read to hold it to: only the result checks held", mean);
		return POWER_NA;
	}
	*ratio = mean / e->limit_w;
	/* the causes that are not the limit doing its job */
	char slow[256], cap[128];
	if (energy_fault(e, slow, sizeof slow, cap, sizeof cap)) {
		snprintf(why, len, HELD_BY ": %s (mean %.0f W, %.0f%% of the %.0f W limit)", slow, mean,
		         100 * *ratio, e->limit_w);
		return POWER_SLOWED;
	}
	bool ok = *ratio >= min_ratio;
	snprintf(why, len, "mean %.0f W, %.0f%% of the %.0f W limit, %s %.0f%%%s%s%s", mean, 100 * *ratio, e->limit_w,
	         ok ? "reaches" : "below", 100 * min_ratio, cap[0] ? "; " : "", cap, cap[0] ? ", as expected at the limit" : "");
	return ok ? POWER_REACHED : POWER_SHORT;
}

void summary_add(Summary *s, const Sample *x)
{
	s->samples++;
	add_energy(&s->energy, x);
	televent_add(&s->events, x);
	if (sample_has_tel(x, TEL_PCIE_REPLAYS)) { /* every sample: a replay is no less one outside the steady */
		if (isnan(s->link.replays_first))
			s->link.replays_first = x->tel[TEL_PCIE_REPLAYS];
		s->link.replays_last = x->tel[TEL_PCIE_REPLAYS];
	}
	if (sample_has_tel(x, TEL_OTHER_GPU) && !(x->tel[TEL_OTHER_GPU] <= s->shared.max)) {
		if (x->tel[TEL_OTHER_GPU] > s->shared.max) { /* more than the named ones: named again */
			s->shared.who[0] = '\0';
			s->shared.procs.n = 0;
		}
		s->shared.max = x->tel[TEL_OTHER_GPU];
	}
	s->unit_flags |= x->flags & (SAMPLE_INTEGER | SAMPLE_BYTES);
	if (x->flags & SAMPLE_VERIFIED)
		s->verified++;
	if (x->flags & SAMPLE_IMPLAUSIBLE) {
		s->implausible++;
		return;
	}
	if ((x->flags & SAMPLE_STEADY) && (x->flags & SAMPLE_GPU_TIMED) && x->gpu_end_ns) {
		/* on the device's own clock, from the end of the first steady
		 * dispatch (its GPU time lies before) to the end of the last */
		if (s->duty_n++ == 0)
			s->duty_first_ms = (double)x->gpu_end_ns * 1e-6;
		else /* per dispatch: a submission of N trials ran N of them */
			s->duty_gpu_ns += (double)x->gpu_ns * sample_trials(x);
		s->duty_last_ms = (double)x->gpu_end_ns * 1e-6;
	}
	if ((x->flags & SAMPLE_STEADY) && x->size)
		add_size(s, x);
	if (x->flags & SAMPLE_STEADY) {
		s->steady_total++;
		if (x->peak_max_flops > 0)
			s->peak_max = x->peak_max_flops;
		if (x->target_ms > 0) {
			if (!(s->target_lo > 0) || x->target_ms < s->target_lo)
				s->target_lo = x->target_ms;
			if (x->target_ms > s->target_hi)
				s->target_hi = x->target_ms;
		}
		add_link(&s->link, x);
		if (!x->size) {
			double tel[TEL_FIELD_COUNT];
			change_tel_of(x, tel);
			s->changes.memory = (x->flags & SAMPLE_BYTES) != 0; /* its clock: the memory clock */
			change_add(&s->changes, x->t_ms, x->rate, tel);
		}
		if (s->skip + 1 < s->stride)
			s->skip++;
		else
			keep_steady(s, x);
	}
	if ((x->flags & SAMPLE_GPU_TIMED) && x->cpu_ns > 0) {
		if (s->rskip + 1 < s->rstride)
			s->rskip++;
		else
			keep_ratio(s, x);
	}
}

void summary_done(Summary *s)
{
	free(s->steady_flops);
	free(s->steady_t);
	free(s->steady_mhz);
	free(s->peak);
	free(s->ratio);
	for (size_t k = 0; k < SUMMARY_SIZES; k++)
		free(s->size_vals[k]);
	memset(s, 0, sizeof *s);
}

/* n values of src into *dst, grown to hold them. */
static bool copy_values(double **dst, size_t *cap, const double *src, size_t n)
{
	if (n > *cap) {
		double *g = realloc(*dst, n * sizeof *g);
		if (!g)
			return false;
		*dst = g;
		*cap = n;
	}
	if (n)
		memcpy(*dst, src, n * sizeof **dst);
	return true;
}

bool summary_copy(Summary *dst, const Summary *src)
{
	/* dst's buffers, kept across the copy of the figures */
	double *bufs[5] = { dst->steady_flops, dst->steady_t, dst->steady_mhz, dst->peak, dst->ratio };
	size_t caps[5] = { dst->cap_flops, dst->cap_t, dst->cap_mhz, dst->cap_peak, dst->cap_ratio };
	double *sizes[SUMMARY_SIZES];
	memcpy(sizes, dst->size_vals, sizeof sizes);
	*dst = *src;
	const double *from[5] = { src->steady_flops, src->steady_t, src->steady_mhz, src->peak, src->ratio };
	const size_t n[5] = { src->steady, src->steady, src->steady, src->steady, src->gpu_timed };
	bool ok = true;
	for (size_t a = 0; a < 5; a++)
		ok &= copy_values(&bufs[a], &caps[a], from[a], n[a]);
	for (size_t k = 0; k < SUMMARY_SIZES; k++) {
		/* a size's buffer, once there, holds SUMMARY_SIZE_CAP values */
		if (src->size_n[k] && !sizes[k] && !(sizes[k] = malloc(SUMMARY_SIZE_CAP * sizeof(double))))
			ok = false;
		else if (src->size_n[k])
			memcpy(sizes[k], src->size_vals[k], src->size_n[k] * sizeof(double));
	}
	dst->steady_flops = bufs[0], dst->steady_t = bufs[1], dst->steady_mhz = bufs[2], dst->peak = bufs[3];
	dst->ratio = bufs[4];
	dst->cap_flops = caps[0], dst->cap_t = caps[1], dst->cap_mhz = caps[2], dst->cap_peak = caps[3];
	dst->cap_ratio = caps[4];
	memcpy(dst->size_vals, sizes, sizeof sizes);
	if (!ok) { /* nothing half copied is read */
		dst->steady = dst->gpu_timed = dst->nsizes = 0;
		memset(dst->size_n, 0, sizeof dst->size_n);
		dst->oom = true;
	}
	return ok;
}

void summary_restart(Summary *s)
{
	s->segments++;
	change_finish(&s->changes);
	/* the duty cycle's span must not take in the growth after the restart:
	 * the segment's span and GPU time are carried, a new span begins */
	if (s->duty_n >= 2) {
		s->duty_prev_span_ms += s->duty_last_ms - s->duty_first_ms - s->duty_gap_ms;
		s->duty_prev_gpu_ns += s->duty_gpu_ns;
	}
	s->duty_n = 0;
	s->duty_first_ms = s->duty_last_ms = s->duty_gpu_ns = s->duty_gap_ms = 0;
}

int summary_finish(Summary *s)
{
	return change_finish(&s->changes);
}

void summary_add_gap(Summary *s, double gap_ms)
{
	s->gaps++;
	s->gap_ms += gap_ms;
	if (s->duty_n)
		s->duty_gap_ms += gap_ms; /* the device idled with the process: not its duty */
}

double link_replays(const LinkSeen *l)
{
	double d = l->replays_last - l->replays_first;
	/* NVML's counter is 32 bits: one that went back by more than half of
	 * it crossed 2^32 (a difference modulo 2^32); one that went back less
	 * was reset (the driver restarted): no count */
	const double wrap = 4294967296.0;
	if (d < 0 && l->replays_first < wrap && d + wrap < wrap / 2)
		d += wrap;
	return d >= 0 ? d : NAN; /* NaN: never read, or the count went back (the driver restarted) */
}

bool link_replays_excess(const LinkSeen *l, char *why, size_t len)
{
	double d = link_replays(l);
	if (len)
		why[0] = '\0';
	if (!(d > PCIE_MAX_REPLAYS))
		return false;
	snprintf(why, len, "%.0f PCIe replays during the run (more than %d: a link retransmitting)", d, PCIE_MAX_REPLAYS);
	return true;
}

bool link_degraded(const LinkSeen *l, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (!l->n || 2 * l->low <= l->n)
		return false;
	return pcie_link_degraded(l->gts, l->width, l->max_gts, l->max_width, why, len);
}

void summary_note_shared(Summary *s, double count, const char *who, const ProcTable *procs)
{
	if (count > 0 && count >= s->shared.max && who && who[0])
		snprintf(s->shared.who, sizeof s->shared.who, "%s", who);
	/* the first reading with the most of them: a table copied when the count
	 * grows, not at every sample that repeats it */
	if (count > 0 && count >= s->shared.max && procs && !procs->foreign && procs->n &&
	    (!s->shared.procs.n || count > s->shared.procs.total))
		s->shared.procs = *procs;
}

/* The run's noise (SummaryResult's noise, blocks and noise_of_samples). */
static void summary_noise(const Summary *s, SummaryResult *r)
{
	r->noise = NAN;
	BlockMeans b;
	blocks_init(&b);
	for (size_t i = 0; i < s->steady; i++)
		blocks_add(&b, s->steady_t ? s->steady_t[i] : NAN, s->steady_flops[i]);
	blocks_cut(&b);
	r->blocks = b.n;
	if (b.n >= COMPARE_MIN_BLOCKS && !b.oom) {
		r->noise = compare_noise(b.means, b.n);
	} else if (s->steady >= SUMMARY_NOISE_MIN) {
		double *v = malloc(s->steady * sizeof *v);
		if (v) {
			memcpy(v, s->steady_flops, s->steady * sizeof *v);
			r->noise = compare_noise(v, s->steady);
			r->noise_of_samples = true;
			free(v);
		}
	}
	blocks_done(&b);
}

void summary_result(const Summary *s, SummaryResult *r)
{
	memset(r, 0, sizeof *r);
	r->duty = NAN;
	r->samples = s->samples;
	r->unit = sample_flags_unit(s->unit_flags);
	r->steady = s->steady_total;
	r->steady_kept = s->steady;
	r->gpu_timed = s->gpu_timed;
	r->verified = s->verified;
	stats_compute(s->steady_flops, s->steady, &r->flops);
	r->changes = s->changes;
	r->events = s->events;
	televent_finish(&r->events);
	r->shared = s->shared;
	r->link = s->link;
	r->implausible = s->implausible;
	r->gaps = s->gaps;
	r->segments = s->segments;
	r->target_lo = s->target_lo;
	r->target_hi = s->target_hi;
	r->gap_ms = s->gap_ms;
	r->oom = s->oom;
	for (size_t k = 0; k < s->nsizes; k++) {
		Stats st;
		SizeRow *row = &r->sizes[r->nsizes];
		if (!stats_compute(s->size_vals[k], s->size_n[k], &st))
			continue;
		*row = (SizeRow){ s->size_of[k], st.n, st.median, st.max, st.min };
		r->nsizes++;
	}
	double span_ms = s->duty_prev_span_ms, gpu_ns = s->duty_prev_gpu_ns;
	if (s->duty_n >= 2) {
		span_ms += s->duty_last_ms - s->duty_first_ms - s->duty_gap_ms;
		gpu_ns += s->duty_gpu_ns;
	}
	r->duty = (s->duty_n >= 3 || s->duty_prev_span_ms > 0) && span_ms > 0 ? gpu_ns * 1e-6 / span_ms : NAN;
	Stats ps;
	r->pct_peak = stats_compute(s->peak, s->steady, &ps) ? 100 * ps.median : NAN;
	r->plateau_ms = change_time_to_plateau(s->steady_t, s->steady_flops, s->steady, &r->plateau_flops);
	if (s->nsizes > 1) /* a sweep: levels differ by size, not by power state */
		r->plateau_ms = r->duty = NAN;
	r->energy = s->energy;
	if (s->nsizes <= 1) /* a sweep's samples differ by size: no noise of one level */
		summary_noise(s, r);
	else
		r->noise = NAN;
	r->pct_peak_max = r->flops.n && s->peak_max > 0 && r->nsizes <= 1 ? 100 * r->flops.median / s->peak_max : NAN;
	r->ratio_median = NAN;
	if (s->gpu_timed) {
		Stats st;
		if (stats_compute(s->ratio, s->gpu_timed, &st))
			r->ratio_median = st.median;
	}
}
