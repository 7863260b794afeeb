#include "televent.h"

#include "change.h"
#include "fmt.h"
#include "throttle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void televent_init(TelEvents *t)
{
	memset(t, 0, sizeof *t);
	t->mhz = NAN;
}

/* The table's reasons among bits (an idle GPU's bit, an application clock's
 * and the rest NVML sets are no event). */
static uint64_t known_bits(uint64_t bits)
{
	uint64_t mask = 0;
	for (size_t k = 0; k < throttle_reason_count; k++)
		mask |= throttle_reasons[k].bit;
	return bits & mask;
}

void televent_finish(TelEvents *t)
{
	if (t->pending && t->nafter)
		t->ev[t->pending - 1].rate_after = change_median(t->after, t->nafter);
	t->pending = 0;
	t->nafter = 0;
}

static void take_rate(TelEvents *t, double rate, bool at_event)
{
	if (!(rate > 0))
		return;
	if (t->pending && !at_event) {
		t->after[t->nafter++] = rate;
		if (t->nafter == TEV_RATES)
			televent_finish(t);
	}
	t->before[t->nbefore++ % TEV_RATES] = rate;
}

void televent_add(TelEvents *t, const Sample *s)
{
	/* only a telemetry that names its causes (reason bits: NVML, amdgpu,
	 * Intel's GPUs): a CPU's clock moves with its governor all the time */
	bool has_bits = sample_has_tel(s, TEL_THROTTLE), has_mhz = sample_has_tel(s, TEL_SM_MHZ);
	if (!has_bits) {
		take_rate(t, s->rate, false);
		return;
	}
	uint64_t bits = has_bits ? known_bits((uint64_t)s->tel[TEL_THROTTLE]) : t->bits;
	double mhz = has_mhz ? s->tel[TEL_SM_MHZ] : t->mhz;
	bool event = false;
	if (t->have) {
		uint64_t on = bits & ~t->bits, off = t->bits & ~bits;
		double step = isfinite(mhz) && isfinite(t->mhz) && t->mhz > 0 ? fabs(mhz / t->mhz - 1) : 0;
		/* a clock's move beside a cause's is the cause's; alone, a step of more than TEV_CLOCK_STEP */
		if (on || off || step > TEV_CLOCK_STEP) {
			televent_finish(t);
			TelEvent e = { .t_ms = s->t_ms, .on = on, .off = off, .mhz_before = t->mhz, .mhz_after = mhz,
				           .rate_before = change_median(t->before, t->nbefore < TEV_RATES ? t->nbefore : TEV_RATES),
				           .rate_after = NAN };
			if (!(step > CHG_CLOCK))
				e.mhz_before = e.mhz_after = mhz; /* said as unchanged */
			if (t->n < TEV_KEEP) {
				t->ev[t->n++] = e;
				t->pending = t->n;
			}
			t->total++;
			event = true;
		}
	}
	t->have = true;
	t->bits = bits;
	t->mhz = mhz;
	take_rate(t, s->rate, event);
}

void televent_format(const TelEvent *e, const char *unit, char *out, size_t len)
{
	char on[160] = "", off[160] = "", clk[64] = "", rate[128] = "", a[FMT_SI_LEN], b[FMT_SI_LEN];
	size_t w = (size_t)snprintf(out, len, "%.2f s:", e->t_ms * 1e-3);
	if (e->on) {
		throttle_names(e->on, on, sizeof on);
		w += (size_t)snprintf(out + w, w < len ? len - w : 0, " %s on", on);
	}
	if (e->off) {
		throttle_names(e->off, off, sizeof off);
		w += (size_t)snprintf(out + w, w < len ? len - w : 0, "%s %s off", e->on ? "," : "", off);
	}
	if (isfinite(e->mhz_before) && isfinite(e->mhz_after) && e->mhz_before != e->mhz_after)
		snprintf(clk, sizeof clk, "clock %.0f -> %.0f MHz", e->mhz_before, e->mhz_after);
	else if (isfinite(e->mhz_after))
		snprintf(clk, sizeof clk, HELD_CLOCK_SAME " %.0f MHz", e->mhz_after);
	if (clk[0])
		w += (size_t)snprintf(out + w, w < len ? len - w : 0, "%s %s", e->on || e->off ? "," : "", clk);
	if (isfinite(e->rate_before) && isfinite(e->rate_after) && e->rate_before > 0) {
		snprintf(rate, sizeof rate, "%s%s -> %s%s (x%.2f)", fmt_si(e->rate_before, a, sizeof a), unit,
		         fmt_si(e->rate_after, b, sizeof b), unit, e->rate_after / e->rate_before);
		snprintf(out + w, w < len ? len - w : 0, ", %s", rate);
	}
}
