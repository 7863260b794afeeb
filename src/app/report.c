#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "fmt.h"
#include "memwork.h"
#include "throttle.h"

const char report_table_header[] =
	" Measurement        Number of         Computation     Performance       CPU\n"
	"  time stamp     local workgroups         time                          time\n";

/* One header whatever the device count (dev 1 for one device), every
 * field of a JSON sample record a column (each telemetry field by its
 * name, in sample.h's order); work and rate are in the row's units. */
#define CSV_HEAD "dev,seq,t_ms,x,y,z,groups,work,gpu_ns,cpu_ns,gpu_end_ns,pipelined,rate,gpu_timed,steady,verified,"
#define CSV_TAIL "peak_rate,peak_max_rate,implausible,unit,work_unit,groups_unit,trials,size,target_ms," \
	"device,uuid,pci_bus_id,host,flopscope\n"

const char *report_csv_header(void)
{
	static char h[1024];
	if (!h[0]) {
		size_t at = (size_t)snprintf(h, sizeof h, "%s", CSV_HEAD);
		for (int i = 0; i < SAMPLE_TEL_COUNT && at < sizeof h; i++)
			at += (size_t)snprintf(h + at, sizeof h - at, "%s,", tel_info[i].key);
		snprintf(h + at, at < sizeof h ? sizeof h - at : 0, "%s", CSV_TAIL);
	}
	return h;
}

static void with_unit(double v, const char *unit, char *out, size_t len)
{
	char n[FMT_SI_LEN];
	fmt_si(v, n, sizeof n);
	snprintf(out, len, "%s%s", n, unit);
}

void report_table_row(const Sample *s, char *buf, size_t len)
{
	char t[40], f[40], c[40];
	with_unit(sample_time_s(s), "s", t, sizeof t);
	with_unit(s->rate, sample_unit(s), f, sizeof f);
	with_unit((double)s->cpu_ns * 1e-9, "s", c, sizeof c);
	snprintf(buf, len, "%9.2fms %16" PRIu64 " %20s %18s %13s", s->t_ms, s->groups, t, f, c);
}

void report_csv_identity(const SessionMeta *m, char *out, size_t len)
{
	size_t o = 0;
	out[0] = '\0';
	const char *text[] = { m->device, m->uuid, m->pci_bus_id, m->host, m->flopscope_version };
	for (size_t k = 0; k < sizeof text / sizeof *text; k++) {
		if (o + 1 < len)
			out[o++] = ',';
		out[o] = '\0';
		/* the UUID, the address and the version are never quoted: no comma can be in them */
		if (k == 0 || k == 3) {
			fmt_csv_field(text[k], out, len, &o);
		} else {
			int w = snprintf(out + o, len - o, "%s", text[k]);
			o = w < 0 ? o : o + (size_t)w < len ? o + (size_t)w : len - 1;
		}
	}
}

void report_csv_row(const Sample *s, unsigned dev, const char *ident, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%u,%" PRIu64 ",%.3f,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	                             ",%" PRIu64 ",%d,%.9g,%d,%d,%d,", dev ? dev : 1, s->seq, s->t_ms, s->x, s->y, s->z,
	                             s->groups, s->work, s->gpu_ns, s->cpu_ns, s->gpu_end_ns,
	                             !!(s->flags & SAMPLE_PIPELINED), s->rate, !!(s->flags & SAMPLE_GPU_TIMED),
	                             !!(s->flags & SAMPLE_STEADY), !!(s->flags & SAMPLE_VERIFIED));
	for (int i = 0; i < SAMPLE_TEL_COUNT && at < len; i++)
		at += (size_t)(sample_has_tel(s, (TelField)i) ? snprintf(buf + at, len - at, "%.17g,", s->tel[i])
		                                               : snprintf(buf + at, len - at, ","));
	char pk[32] = "", pm[32] = "", tr[16] = "", sz[24] = "", tg[32] = "";
	if (s->peak_flops > 0)
		snprintf(pk, sizeof pk, "%.9g", s->peak_flops);
	if (s->peak_max_flops > 0)
		snprintf(pm, sizeof pm, "%.9g", s->peak_max_flops);
	if (s->trials > 1)
		snprintf(tr, sizeof tr, "%u", (unsigned)s->trials);
	if (s->size)
		snprintf(sz, sizeof sz, "%" PRIu64, (uint64_t)s->size);
	if (s->target_ms > 0)
		snprintf(tg, sizeof tg, "%.17g", s->target_ms);
	if (at < len)
		snprintf(buf + at, len - at, "%s,%s,%d,%s,%s,%s,%s,%s,%s%s", pk, pm, !!(s->flags & SAMPLE_IMPLAUSIBLE),
		         sample_unit(s), sample_work_unit(s), sample_groups_unit(s), tr, sz, tg, ident);
}

/* How far a change moved the level, either way: 0.5x and 2x alike. */
static double change_size(const Change *c)
{
	return c->ratio > 0 ? fabs(log(c->ratio)) : INFINITY;
}

void report_events(FILE *f, const TelEvents *t, const char *unit, const char *indent, size_t most)
{
	if (!t->total)
		return;
	size_t shown = most && most < t->n ? most : t->n;
	fprintf(f, "%spower-state events: %zu (a cause of reduced clocks on or off, or the clock's step, as the "
	        "telemetry read them)%s\n", indent, t->total, t->total > shown ? "; the first ones:" : "");
	for (size_t i = 0; i < shown; i++) {
		char line[400];
		televent_format(&t->ev[i], unit, line, sizeof line);
		fprintf(f, "%s  %s\n", indent, line);
	}
	if (t->total > shown)
		fprintf(f, "%s  ... %zu more (the summary record lists the first %zu)\n", indent, t->total - shown, t->n);
}

void report_changes(FILE *f, const ChangeDetector *cd, const char *unit, const char *indent, size_t most)
{
	if (!cd->nchanges && !cd->nexc) {
		fprintf(f, "%slevel changes: none (no excursion either)\n", indent);
		return;
	}
	char counts[160];
	change_format_counts(cd, counts, sizeof counts);
	fprintf(f, "%slevel changes: %s; %zu excursion%s (%.2f s in all: departures, down or up, that came back "
	        "within %.0f ms)\n", indent, counts, cd->nexc, cd->nexc == 1 ? "" : "s", cd->exc_ms * 1e-3, CHG_SUSTAIN_MS);
	size_t kept = change_kept(cd);
	/* the `most` largest of those kept (all when most is 0), in time order */
	bool show[CHG_KEEP] = { false };
	size_t shown = most && most < kept ? most : kept;
	for (size_t n = 0; n < shown; n++) {
		size_t best = kept;
		for (size_t i = 0; i < kept; i++)
			if (!show[i] && (best == kept || change_size(change_get(cd, i)) > change_size(change_get(cd, best))))
				best = i;
		show[best] = true;
	}
	if (shown < cd->nchanges)
		fprintf(f, "%s  the %zu largest of %zu, in time order (flopscope --analyze on the session log lists "
		        "every one%s):\n", indent, shown, cd->nchanges,
		        cd->nchanges > kept ? "; the log has one record each" : "");
	for (size_t i = kept; i-- > 0;) {
		if (!show[i])
			continue;
		char line[CHANGE_TEXT_LEN];
		change_format(change_get(cd, i), unit, line, sizeof line);
		fprintf(f, "%s  %s\n", indent, line);
	}
}

void report_energy_text(FILE *f, const Energy *e, const char *unit, const char *indent)
{
	if (!energy_known(e)) {
		fprintf(f, "%senergy: N/A (no power reading)\n", indent);
		return;
	}
	char j[FMT_SI_LEN], pj[FMT_SI_LEN], lim[64] = "", per[FMT_SI_LEN + 16] = "";
	double mean = energy_mean_w(e);
	if (e->limit_w > 0)
		snprintf(lim, sizeof lim, " of a %.0f W limit (mean %.0f%%)", e->limit_w, 100 * mean / e->limit_w);
	if (!isnan(energy_per_joule(e))) /* no joule read: no work per joule */
		snprintf(per, sizeof per, "; %s%s/J", fmt_si(energy_per_joule(e), pj, sizeof pj), sample_unit_work(unit));
	fprintf(f, "%senergy: %sJ over %.2f s of dispatches, mean %.0f W, max %.0f W%s%s (%s)\n", indent,
	        fmt_si(e->joules, j, sizeof j), e->seconds, mean, e->max_w, lim, per,
	        e->counter ? "the card's energy counter" : "power readings integrated: no energy counter read");
	double vp = energy_violation_s(e, VIOL_POWER), vt = energy_violation_s(e, VIOL_THERMAL);
	if (!isnan(vp) || !isnan(vt)) {
		char p_[32] = "N/A", t_[32] = "N/A";
		if (!isnan(vp))
			snprintf(p_, sizeof p_, "%.2f s", vp);
		if (!isnan(vt))
			snprintf(t_, sizeof t_, "%.2f s", vt);
		fprintf(f, "%s" HELD_AT_LIMIT ": power %s, thermal %s\n", indent, p_, t_);
	}
	char line[512];
	if (energy_held_by(e, line, sizeof line))
		fprintf(f, "%s%s\n", indent, line);
}

void report_summary_text(FILE *f, const SummaryResult *r, size_t dropped,
                         uint64_t checks_passed, double target_ms)
{
	/* the targets the samples carry (+ and - change it during a run) */
	char tg[96], lo[32], hi[32];
	if (r->target_lo > 0 && r->target_hi > r->target_lo)
		snprintf(tg, sizeof tg, "at targets from %s to %s", fmt_ms(r->target_lo, lo, sizeof lo),
		         fmt_ms(r->target_hi, hi, sizeof hi));
	else
		snprintf(tg, sizeof tg, "at the %s target", fmt_ms(r->target_lo > 0 ? r->target_lo : target_ms, lo, sizeof lo));
	fprintf(f, "\nSummary: %zu samples, %zu %s, %zu dropped, "
	        "%" PRIu64 " result checks passed\n", r->samples, r->steady, tg, dropped,
	        checks_passed);
	if (r->segments > 1)
		fprintf(f, "  over %zu segments (restarted %zu time%s with r): every statistic covers them all\n",
		        r->segments, r->segments - 1, r->segments == 2 ? "" : "s");
	if (r->steady_kept < r->steady)
		fprintf(f, "  statistics over %zu of them, evenly spread (memory stays fixed)\n", r->steady_kept);
	if (r->nsizes) {
		fprintf(f, "  %12s %14s %14s %14s %8s\n", "size", "median", "max", "min", "samples");
		for (size_t k = 0; k < r->nsizes; k++) {
			char sz[32], a[FMT_SI_LEN], b[FMT_SI_LEN], c[FMT_SI_LEN];
			const SizeRow *w = &r->sizes[k];
			fprintf(f, "  %12s %10s%-4s %10s%-4s %10s%-4s %8zu\n", mem_size_str(w->size, sz, sizeof sz),
			        fmt_si(w->median, a, sizeof a), r->unit, fmt_si(w->max, b, sizeof b), r->unit,
			        fmt_si(w->min, c, sizeof c), r->unit, w->n);
		}
	}
	if (r->flops.n && r->nsizes > 1) {
		fprintf(f, "  (%zu sizes: statistics by size above; none over all of them)\n", r->nsizes);
	} else if (r->flops.n) {
		char med[FMT_SI_LEN], max[FMT_SI_LEN], min[FMT_SI_LEN], mean[FMT_SI_LEN], ci[FMT_SI_LEN];
		fmt_si(r->flops.median, med, sizeof med);
		fmt_si(r->flops.max, max, sizeof max);
		fmt_si(r->flops.min, min, sizeof min);
		fmt_si(r->flops.mean, mean, sizeof mean);
		fmt_si(r->flops.ci95, ci, sizeof ci);
		const char *u = r->unit;
		fprintf(f, "  %s at target: median %s%s, max %s%s, min %s%s\n", u, med, u, max, u, min, u);
		if (r->flops.n < 2) /* one value has no spread: a CI of 0 would claim certainty */
			fprintf(f, "                   mean %s%s (one sample: no spread, no CI)\n", mean, u);
		else
			fprintf(f, "                   mean %s%s +- %s%s (95%% CI), std %.2f%%\n", mean, u, ci, u,
			        r->flops.mean > 0 ? 100.0 * r->flops.std / r->flops.mean : 0.0);
	} else {
		fprintf(f, "  no sample reached the target time: run longer (--duration)\n");
	}
	if (r->steady)
		report_changes(f, &r->changes, r->unit, "  ", REPORT_SUMMARY_CHANGES);
	report_events(f, &r->events, r->unit, "  ", REPORT_SUMMARY_EVENTS);
	if (!isnan(r->duty))
		fprintf(f, "  duty cycle: %.2f%% (GPU time / device timeline at the target)\n", 100 * r->duty);
	if (!isnan(r->pct_peak) && !isnan(r->pct_peak_max))
		fprintf(f, "  %% of theoretical peak: median %.1f%% of the rated peak (at the maximum clock), %.1f%% at "
		        "the clock read\n", r->pct_peak_max, r->pct_peak);
	else if (!isnan(r->pct_peak))
		fprintf(f, "  %% of theoretical peak (at each sample's clock): median %.1f%%\n", r->pct_peak);
	if (r->gaps)
		fprintf(f, "  stopped %zu time%s (SIGSTOP, Ctrl-Z) for %.1f s in all: not measured, not counted "
		        "in --duration\n", r->gaps, r->gaps == 1 ? "" : "s", r->gap_ms * 1e-3);
	if (r->implausible)
		fprintf(f, "  %zu sample%s above 105%% of the theoretical peak: flagged implausible, "
		        "left out of the statistics\n", r->implausible, r->implausible == 1 ? "" : "s");
	if (!isnan(r->plateau_ms)) {
		char lv[FMT_SI_LEN];
		char pt[32];
		fprintf(f, "  time to plateau: %s (held within 3%% of %s%s)\n", fmt_ms(r->plateau_ms, pt, sizeof pt),
		        fmt_si(r->plateau_flops, lv, sizeof lv), r->unit);
	} else if (r->steady >= 6) {
		fprintf(f, "  time to plateau: none reached (no level held for a tenth of the run)\n");
	}
	if (!isnan(r->ratio_median))
		fprintf(f, "  GPU/CPU time: median %.4f (GPU timestamps drive the loop)\n", r->ratio_median);
	else if (r->samples == 0)
		fprintf(f, "  GPU/CPU time: no sample to tell\n");
	else
		fprintf(f, "  GPU/CPU time: no GPU timestamps on this queue; CPU wall time drives the loop\n");
	if (r->samples)
		report_energy_text(f, &r->energy, r->unit, "  ");
}
