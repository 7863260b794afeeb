#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "memwork.h"
#include "plot.h"
#include "svg_draw.h"
#include "stats.h"
#include "televent.h"

#define MARK_ROWS 4       /* rows of numbered change markers */
#define TABLE_MAX 15      /* changes listed under the plot */

typedef double (*Field)(const Sample *);
/* in a sweep, each size's growth from 1 copy is left out (a gap, as the
 * dashboard draws it), not drawn as a dip */
static double f_rate(const Sample *s) { return s->size && !(s->flags & SAMPLE_STEADY) ? NAN : s->rate; }
static double f_target(const Sample *s) { return s->target_ms > 0 ? s->target_ms * 1e-3 : NAN; }
static double f_groups(const Sample *s) { return (double)s->groups; }
static double f_gpu(const Sample *s) { return (s->flags & SAMPLE_GPU_TIMED) ? (double)s->gpu_ns * 1e-9 : NAN; }
static double f_cpu(const Sample *s) { return (double)s->cpu_ns * 1e-9; }
static double f_clock(const Sample *s)
{
	return (s->tel_valid & (1u << TEL_SM_MHZ)) ? s->tel[TEL_SM_MHZ] : NAN;
}
static double f_power(const Sample *s)
{
	return sample_power_w(s);
}

/* A gap: consecutive samples further apart than this (ms) are not joined
 * (plot_gap: ten times the median interval, and at least 1 s). */
static double gap_ms(const Sample *s, size_t n)
{
	double *t = calloc(n ? n : 1, sizeof *t);
	if (!t)
		return 1000;
	for (size_t i = 0; i < n; i++)
		t[i] = s[i].t_ms;
	double g = plot_gap(t, n, 1000);
	free(t);
	return g;
}

/* One series: a polyline per stretch without a gap; a point without a
 * value (NaN, or not positive on a log axis) is left out and ends the
 * stretch. */
static void series(FILE *f, const SvgPanel *p, const PlotAxis *a, const Sample *s, size_t n, Field get,
                   const char *style, double gap)
{
	bool open = false;
	double last_t = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double v = get(&s[i]);
		if (!isfinite(v) || (a->log && !(v > 0))) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
			continue;
		}
		if (open && s[i].t_ms - last_t > gap) {
			fputs("\"/>\n", f);
			open = false;
		}
		if (!open) {
			fprintf(f, "<polyline fill=\"none\" %s points=\"", style);
			open = true;
		}
		fprintf(f, "%.1f,%.1f ", svg_px(p, s[i].t_ms * 1e-3), svg_py(p, a, v));
		last_t = s[i].t_ms;
	}
	if (open)
		fputs("\"/>\n", f);
}

/* A linear axis from 0 over the values of get (and at least at_least). */
static double linear_axis(const Sample *s, size_t n, Field a, Field b, double at_least, PlotAxis *ax)
{
	double hi = at_least;
	for (size_t i = 0; i < n; i++) {
		double v = a(&s[i]), w = b ? b(&s[i]) : NAN;
		if (isfinite(v) && v > hi) hi = v;
		if (isfinite(w) && w > hi) hi = w;
	}
	*ax = (PlotAxis){ 0, hi > 0 ? hi * 1.02 : 1, false };
	return plot_axis_round(ax, 5);
}

/* A log axis over a's and b's positive values and at_least_lo (a target),
 * whole decades. */
static void log_axis(const Sample *s, size_t n, Field a, Field b, double at_least_lo, PlotAxis *ax)
{
	double lo = at_least_lo, hi = at_least_lo;
	for (size_t i = 0; i < n; i++) {
		double v[2] = { a(&s[i]), b ? b(&s[i]) : NAN };
		for (int k = 0; k < 2; k++)
			if (isfinite(v[k]) && v[k] > 0) {
				lo = v[k] < lo ? v[k] : lo;
				hi = v[k] > hi ? v[k] : hi;
			}
	}
	*ax = (PlotAxis){ pow(10, floor(log10(lo))), pow(10, ceil(log10(hi * 1.02))), true };
	if (!(ax->max > ax->min))
		ax->max = ax->min * 10;
}

/* Whether any sample has a value of get. */
static bool any_value(const Sample *s, size_t n, Field get)
{
	for (size_t i = 0; i < n; i++)
		if (isfinite(get(&s[i])))
			return true;
	return false;
}

/* The statistics box: items laid into lines that fit its width. Returns
 * the y below it. */
static double stats_box(FILE *f, double y, char items[][160], size_t n)
{
	const int size = 12;
	double width = SVG_PLOT_W - 20;
	char line[8][512];
	size_t nl = 0;
	line[0][0] = '\0';
	for (size_t k = 0; k < n && nl < 8; k++) {
		size_t cur = strlen(line[nl]);
		if (cur && svg_text_width(cur + 5 + strlen(items[k]), size) > width) {
			if (++nl == 8)
				break;
			line[nl][0] = '\0';
			cur = 0;
		}
		snprintf(line[nl] + cur, sizeof line[nl] - cur, "%s%s", cur ? "  |  " : "", items[k]);
	}
	if (nl < 8 && line[nl][0])
		nl++;
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#f6f8fa\" stroke=\"#d0d7de\"/>\n",
	        SVG_LEFT, y, SVG_PLOT_W, 12.0 + 17.0 * (double)nl);
	char cut[512];
	for (size_t k = 0; k < nl; k++)
		svg_label(f, SVG_LEFT + 10, y + 21 + 17.0 * (double)k, "start", size, NULL, svg_fit(line[k], width, size, cut, sizeof cut));
	return y + 12 + 17.0 * (double)nl;
}

/* The distinct targets the samples were measured at, in the order they
 * came (at most cap); how many. */
static size_t targets_of(const Sample *s, size_t n, double *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double t = s[i].target_ms;
		bool seen = !(t > 0);
		for (size_t j = 0; j < k && !seen; j++)
			seen = out[j] == t;
		if (!seen && k < cap)
			out[k++] = t;
	}
	return k;
}

double svg_targets_max(const Sample *s, size_t n, double session_target_ms)
{
	double t[16], m = session_target_ms;
	size_t k = targets_of(s, n, t, 16);
	for (size_t i = 0; i < k; i++)
		if (t[i] > m)
			m = t[i];
	return m;
}

size_t svg_targets_str(const Sample *s, size_t n, double session_target_ms, char *out, size_t len)
{
	double t[16];
	size_t k = targets_of(s, n, t, 16), w = 0;
	char a[32];
	if (!k)
		snprintf(out, len, "target %s", fmt_ms(session_target_ms, a, sizeof a));
	for (size_t i = 0; i < k && w < len; i++)
		w += (size_t)snprintf(out + w, len - w, "%s%s", i ? ", " : k > 1 ? "targets " : "target ",
		                      fmt_ms(t[i], a, sizeof a));
	return k ? k : 1;
}

/* With several targets: each one's statistics of its own (the steady
 * samples measured at it), an item each. */
static size_t per_target_items(const Sample *s, size_t n, const char *unit, char items[][160], size_t cap)
{
	double t[16];
	size_t k = targets_of(s, n, t, 16), ni = 0;
	double *v = malloc((n ? n : 1) * sizeof *v);
	if (k < 2 || !v) {
		free(v);
		return 0;
	}
	for (size_t j = 0; j < k && ni < cap; j++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (s[i].target_ms == t[j] && (s[i].flags & SAMPLE_STEADY) && !(s[i].flags & SAMPLE_IMPLAUSIBLE))
				v[m++] = s[i].rate;
		char a[32], b[FMT_SI_LEN];
		if (m)
			snprintf(items[ni++], 160, "at %s: median %s%s of %zu samples", fmt_ms(t[j], a, sizeof a),
			         fmt_si(stats_median_inplace(v, m), b, sizeof b), unit, m);
		else
			snprintf(items[ni++], 160, "at %s: no sample at the target", fmt_ms(t[j], a, sizeof a));
	}
	free(v);
	return ni;
}

/* The statistics box under the title; returns the y below it. */
static double stats_items(FILE *f, double y, const Sample *s, size_t n, const SummaryResult *r, const char *unit)
{
	bool clock = any_value(s, n, f_clock), power = any_value(s, n, f_power);
	char items[24][160], a[FMT_SI_LEN], b[FMT_SI_LEN], c[FMT_SI_LEN];
	size_t ni = 0;
	bool sweep = r && r->nsizes > 1; /* a transfer at one size is no sweep */
	if (sweep) {
		/* one median over every size would mean nothing: the chart by size says it */
		snprintf(items[ni++], sizeof items[0], "a sweep of copy sizes: each size's median in the chart by size");
	} else if (r && r->flops.n) {
		ni += per_target_items(s, n, unit, items, 8);
		const char *all = ni ? "every target: " : "";
		snprintf(items[ni++], sizeof items[0], "%smedian %s%s", all, fmt_si(r->flops.median, a, sizeof a), unit);
		snprintf(items[ni++], sizeof items[0], "mean %s%s, sd %.1f%%", fmt_si(r->flops.mean, a, sizeof a), unit,
		         r->flops.mean > 0 ? 100 * r->flops.std / r->flops.mean : 0.0);
		snprintf(items[ni++], sizeof items[0], "min %s%s, max %s%s", fmt_si(r->flops.min, b, sizeof b), unit,
		         fmt_si(r->flops.max, c, sizeof c), unit);
	} else {
		snprintf(items[ni++], sizeof items[0], "no sample at the target: no statistics");
	}
	if (r) {
		snprintf(items[ni++], sizeof items[0], "%zu samples, %zu at the target", r->samples, r->steady);
		snprintf(items[ni++], sizeof items[0], "%zu result checks passed", r->verified);
		if (!isnan(r->pct_peak))
			snprintf(items[ni++], sizeof items[0], "%.1f%% of the theoretical peak", r->pct_peak);
		else
			snprintf(items[ni++], sizeof items[0], "theoretical peak unknown");
		if (!isnan(r->duty))
			snprintf(items[ni++], sizeof items[0], "duty cycle %.1f%%", 100 * r->duty);
		char counts[120];
		change_format_counts(&r->changes, counts, sizeof counts);
		snprintf(items[ni++], sizeof items[0], "level changes: %s", counts);
		/* the first power-state event (the cap's engagement), what held the clock */
		if (r->events.n) {
			char ev[160];
			televent_format(&r->events.ev[0], unit, ev, sizeof ev);
			snprintf(items[ni++], sizeof items[0], "first of %zu power-state events, %.*s", r->events.total, 100, ev);
		}
		if (energy_held_by(&r->energy, items[ni], sizeof items[0]))
			ni++;
		if (r->gaps)
			snprintf(items[ni++], sizeof items[0], "%zu stops (%.1f s not measured)", r->gaps, r->gap_ms * 1e-3);
		const Energy *e = &r->energy;
		if (energy_known(e)) {
			char lim[48] = "";
			if (e->limit_w > 0)
				snprintf(lim, sizeof lim, " of a %.0f W limit", e->limit_w);
			snprintf(items[ni++], sizeof items[0], "energy %sJ, mean %.0f W, max %.0f W%s", fmt_si(e->joules, a, sizeof a),
			         energy_mean_w(e), e->max_w, lim);
			if (!isnan(energy_per_joule(e)))
				snprintf(items[ni++], sizeof items[0], "%s%s per joule", fmt_si(energy_per_joule(e), b, sizeof b),
				         sample_unit_work(unit));
		}
	}
	if (!clock && !power)
		snprintf(items[ni++], sizeof items[0], "no clock or power readings");
	return stats_box(f, y, items, ni) + 34;
}

/* The level changes' marks on the throughput plot, numbered oldest first
 * (change_get numbers the newest 0) in the first row with room. */
static void change_marks(FILE *f, const SvgPanel *p, const SummaryResult *r, size_t nchg)
{
	double row_end[MARK_ROWS];
	for (int k = 0; k < MARK_ROWS; k++)
		row_end[k] = -INFINITY;
	for (size_t j = 0; j < nchg; j++) {
		const Change *ch = change_get(&r->changes, nchg - 1 - j);
		bool pw = ch->cause == CAUSE_POWER_STATE;
		const char *col = pw ? "#cf222e" : "#8c959f";
		double x = svg_px(p, ch->t_ms * 1e-3);
		/* a power-state change solid and wider, the others dashed: told
		 * apart by shape, not by red against grey alone */
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" %s/>\n", x, p->y0, x,
		        p->y0 + p->h, col, pw ? "stroke-width=\"2\"" : "stroke-dasharray=\"4 3\"");
		char num[24], fill[32];
		snprintf(num, sizeof num, "%zu", j + 1);
		snprintf(fill, sizeof fill, "fill=\"%s\"", col);
		double w = svg_text_width(strlen(num), 10);
		for (int k = 0; k < MARK_ROWS; k++) {
			if (x + 2 > row_end[k] + 3 && x + 2 + w <= SVG_W - SVG_RIGHT) {
				svg_label(f, x + 2, p->y0 + 11 + 12 * k, "start", 10, fill, num);
				row_end[k] = x + 2 + w;
				break;
			}
		}
	}
}

/* The list of level changes under the throughput plot, every one kept,
 * each whole (wrapped); returns the y below. */
static double change_list(FILE *f, double y, const SummaryResult *r, size_t nchg, const char *unit)
{
	if (!nchg)
		return y + 4;
	size_t all = r->changes.nchanges;
	char head[200];
	snprintf(head, sizeof head, "level changes, numbered on the plot where there is room%s",
	         all > nchg ? " (the newest kept; all of them: flopscope --analyze LOG)" : "");
	svg_label(f, SVG_LEFT, y, "start", 11, "font-weight=\"bold\"", head);
	double at = y;
	if (all > nchg) {
		char more[120];
		snprintf(more, sizeof more, "%zu earlier changes not kept here", all - nchg);
		svg_label(f, SVG_LEFT, at += 13, "start", 10, NULL, more);
	}
	for (size_t j = 0; j < nchg; j++) {
		const Change *ch = change_get(&r->changes, nchg - 1 - j);
		char line[CHANGE_TEXT_LEN], row[CHANGE_TEXT_LEN + 24], lines[8][200];
		change_format(ch, unit, line, sizeof line);
		snprintf(row, sizeof row, "%zu  %s", j + 1 + (all - nchg), line);
		size_t nl = svg_wrap(row, SVG_PLOT_W, 10, lines, 8);
		for (size_t k = 0; k < nl; k++)
			svg_label(f, SVG_LEFT + (k ? 20 : 0), at += 13, "start", 10,
			     ch->cause == CAUSE_POWER_STATE ? "fill=\"#cf222e\"" : NULL, lines[k]);
	}
	return at + 30;
}

/* The most sizes a line of a chart by copy size draws. */
#define SWEEP_SIZES SUMMARY_SIZES

/* One line of a chart by copy size. */
typedef struct SweepLine {
	const char *label;
	const char *colour;
	uint64_t sizes[SWEEP_SIZES];
	double med[SWEEP_SIZES];
	size_t k;
} SweepLine;

/* The line's points: each size's median, as the summary has them (the
 * statistics' own figures: the table and the chart agree). */
static size_t sweep_line(const SummaryResult *r, SweepLine *ln)
{
	ln->k = 0;
	for (size_t i = 0; i < r->nsizes && ln->k < SWEEP_SIZES; i++, ln->k++) {
		ln->sizes[ln->k] = r->sizes[i].size;
		ln->med[ln->k] = r->sizes[i].n ? r->sizes[i].median : NAN;
	}
	return ln->k;
}


/* Throughput against copy size (log axis), one line a sweep, each size a
 * point; returns the y below. */
static double sweep_chart(FILE *f, double y, const char *title, const SweepLine *ln, size_t nl, const char *unit)
{
	SvgLegend lg[8] = { { 0 } };
	char style[8][80];
	size_t nlg = nl < 8 ? nl : 8;
	for (size_t i = 0; i < nlg; i++) {
		snprintf(style[i], sizeof style[i], "stroke=\"%s\" stroke-width=\"1.6\"", ln[i].colour);
		lg[i] = (SvgLegend){ ln[i].label, style[i] };
	}
	SvgPanel p = { svg_header(f, y, title, lg, nlg), SVG_PANEL_H, { 0, 1, true }, { 0, 1, false }, { 0, 0, false } };
	double lo = INFINITY, hi = -INFINITY, top = 0;
	for (size_t i = 0; i < nl; i++)
		for (size_t j = 0; j < ln[i].k; j++) {
			lo = fmin(lo, (double)ln[i].sizes[j]);
			hi = fmax(hi, (double)ln[i].sizes[j]);
			if (ln[i].med[j] > top)
				top = ln[i].med[j];
		}
	if (!(lo <= hi))
		return y;
	p.x = (PlotAxis){ lo / 1.5, hi * 1.5, true };
	p.y = (PlotAxis){ 0, top > 0 ? top * 1.1 : 1, false };
	double step = plot_axis_round(&p.y, 4);
	svg_frame(f, &p, &p.y, unit, false, step);
	for (size_t i = 0; i < nl; i++) {
		fprintf(f, "<polyline fill=\"none\" %s points=\"", style[i < 8 ? i : 7]);
		for (size_t j = 0; j < ln[i].k; j++)
			if (isfinite(ln[i].med[j]))
				fprintf(f, "%.1f,%.1f ", svg_px(&p, (double)ln[i].sizes[j]), svg_py(&p, &p.y, ln[i].med[j]));
		fputs("\"/>\n", f);
		for (size_t j = 0; j < ln[i].k; j++)
			if (isfinite(ln[i].med[j]))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
				        svg_px(&p, (double)ln[i].sizes[j]), svg_py(&p, &p.y, ln[i].med[j]), ln[i].colour);
	}
	/* the size axis: every size of any line a tick, labelled as the sweep
	 * names them, no two labels overlapping */
	uint64_t ticks[SWEEP_SIZES];
	size_t nt = 0;
	for (size_t i = 0; i < nl; i++)
		for (size_t j = 0; j < ln[i].k; j++) {
			size_t at = 0;
			while (at < nt && ticks[at] < ln[i].sizes[j])
				at++;
			if ((at < nt && ticks[at] == ln[i].sizes[j]) || nt == SWEEP_SIZES)
				continue;
			memmove(ticks + at + 1, ticks + at, (nt - at) * sizeof *ticks);
			ticks[at] = ln[i].sizes[j];
			nt++;
		}
	double last = -INFINITY;
	for (size_t j = 0; j < nt; j++) {
		char lab[32];
		mem_size_str(ticks[j], lab, sizeof lab);
		double x = svg_px(&p, (double)ticks[j]);
		double w = svg_text_width(strlen(lab), SVG_TICK_PX);
		if (x - w / 2 > last + 4) {
			svg_label(f, x, p.y0 + p.h + 14, "middle", SVG_TICK_PX, NULL, lab);
			last = x + w / 2;
		}
	}
	return p.y0 + p.h + 40;
}

/* A sweep: each size's median throughput (its steady samples) against the
 * size on a log axis; returns the y below (y itself when not a sweep). */
static double by_size(FILE *f, double y, const SummaryResult *r, const char *unit)
{
	if (!r || r->nsizes < 2) /* one size: no chart by size (it was an empty one) */
		return y;
	SweepLine ln = { "median of each size's samples at the target", svg_colours[0], { 0 }, { 0 }, 0 };
	ln.k = sweep_line(r, &ln);
	return ln.k ? sweep_chart(f, y, "throughput by copy size (log)", &ln, 1, unit) : y;
}

/* The throughput, its level changes numbered and listed; returns the y below. */
static double throughput(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, const SummaryResult *r,
                         const char *unit, double gap)
{
	size_t nchg = r ? change_kept(&r->changes) : 0;
	const char *green = "stroke=\"#1a7f37\" stroke-width=\"1.3\"";
	SvgLegend lg1[] = { { unit, green }, { "level change: power state", "stroke=\"#cf222e\" stroke-width=\"2\"" },
	                 { "other level change", "stroke=\"#8c959f\" stroke-dasharray=\"4 3\"" } };
	SvgPanel p = { svg_header(f, y, "throughput", lg1, nchg ? 3 : 1), SVG_PANEL_H, xt, { 0, 1, false }, { 0, 0, false } };
	double step = linear_axis(s, n, f_rate, NULL, 0, &p.y);
	svg_frame(f, &p, &p.y, unit, false, step);
	series(f, &p, &p.y, s, n, f_rate, green, gap);
	change_marks(f, &p, r, nchg);
	return change_list(f, p.y0 + p.h + 36, r, nchg, unit);
}

/* Workgroups (a transfer's copies per submission) on a log axis. */
static double groups(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, double gap)
{
	const char *blue = "stroke=\"#0969da\" stroke-width=\"1.3\"";
	bool copies = n && s[0].size;
	SvgLegend lg2[] = { { copies ? "copies per submission" : "workgroups per dispatch", blue } };
	SvgPanel p = { svg_header(f, y, copies ? "copies per submission (log)" : "workgroups (log)", lg2, 1), SVG_PANEL_H, xt,
	            { 0, 1, false }, { 0, 0, false } };
	double *g = malloc((n ? n : 1) * sizeof *g);
	for (size_t i = 0; g && i < n; i++)
		g[i] = (double)s[i].groups;
	plot_axis_fit(g, g ? n : 0, true, &p.y);
	free(g);
	svg_frame(f, &p, &p.y, "", false, 1);
	series(f, &p, &p.y, s, n, f_groups, blue, gap);
	return p.y0 + p.h + 40;
}

/* Dispatch time: CPU under GPU (the GPU line drawn last, on top), the
 * target its own style. */
static double times(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, double target_ms, double gap)
{
	const char *cpu = "stroke=\"#8250df\" stroke-width=\"1\" stroke-dasharray=\"3 2\"";
	const char *gpu = "stroke=\"#bc4c00\" stroke-width=\"1.6\"";
	const char *tgt = "stroke=\"#24292f\" stroke-width=\"1\" stroke-dasharray=\"8 4\"";
	SvgLegend lg3[] = { { "GPU (timestamps)", gpu }, { "CPU (wall)", cpu }, { "target", tgt } };
	/* the dashboard's rule: a log axis where the targets are 4x apart or a
	 * dispatch is 4x the target (one 1.28 s stall flattened every 20 ms
	 * dispatch onto zero), said in the title */
	double lo = INFINITY, hi = 0, longest = 0;
	for (size_t i = 0; i < n; i++) {
		double t = f_target(&s[i]), g = f_gpu(&s[i]), c = f_cpu(&s[i]);
		t = isfinite(t) ? t : target_ms * 1e-3;
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
		longest = isfinite(g) && g > longest ? g : longest;
		longest = isfinite(c) && c > longest ? c : longest;
	}
	char title[160] = "dispatch time", why[120];
	bool logy = plot_times_log(lo, hi, longest, why, sizeof why);
	if (logy)
		snprintf(title, sizeof title, "dispatch time (log: %s)", why);
	SvgPanel p = { svg_header(f, y, title, lg3, 3), SVG_PANEL_H, xt, { 0, 1, false }, { 0, 0, false } };
	double step = 0;
	if (logy)
		log_axis(s, n, f_gpu, f_cpu, lo, &p.y);
	else
		step = linear_axis(s, n, f_gpu, f_cpu, svg_targets_max(s, n, target_ms) * 1e-3, &p.y);
	svg_frame(f, &p, &p.y, "s", false, step);
	series(f, &p, &p.y, s, n, f_cpu, cpu, gap);
	series(f, &p, &p.y, s, n, f_gpu, gpu, gap);
	/* the target each sample was measured at (+ and - in the dashboard,
	 * the log's control records); the session's one for an older log */
	if (any_value(s, n, f_target)) {
		series(f, &p, &p.y, s, n, f_target, tgt, gap);
	} else {
		double ty = svg_py(&p, &p.y, target_ms * 1e-3);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" %s/>\n", SVG_LEFT, ty, SVG_W - SVG_RIGHT, ty, tgt);
	}
	return p.y0 + p.h + 40;
}

/* Clock (left) and power (right), where the samples have them. */
static double clock_power(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, double gap)
{
	bool clock = any_value(s, n, f_clock), power = any_value(s, n, f_power);
	if (!clock && !power)
		return y;
	const char *ck = "stroke=\"#0550ae\" stroke-width=\"1.3\"";
	const char *pw = "stroke=\"#953800\" stroke-width=\"1.3\"";
	SvgLegend lg4[2];
	size_t nl = 0;
	if (clock)
		lg4[nl++] = (SvgLegend){ "shader clock (left axis)", ck };
	if (power)
		lg4[nl++] = (SvgLegend){ clock ? "power (right axis)" : "power", pw };
	/* a clock that held within 1% and no power: one line, not a panel */
	double *cv = malloc((n ? n : 1) * sizeof *cv), lo, hi;
	size_t nc = 0;
	for (size_t i = 0; cv && i < n; i++)
		if (isfinite(f_clock(&s[i])))
			cv[nc++] = f_clock(&s[i]);
	bool flat = clock && !power && cv && plot_flat(cv, nc, 0.01, &lo, &hi);
	free(cv);
	if (flat) {
		char line[160];
		snprintf(line, sizeof line, "shader clock %.0f-%.0f MHz throughout (within 1%%: no panel for it)", lo, hi);
		svg_label(f, SVG_LEFT, y + 12, "start", 12, "font-weight=\"bold\"", line);
		return y + 40;
	}
	SvgPanel p = { svg_header(f, y, clock && power ? "clock and power" : clock ? "clock" : "power", lg4, nl), SVG_PANEL_H, xt,
	            { 0, 1, false }, { 0, 0, false } };
	PlotAxis ca, pa;
	double cstep = linear_axis(s, n, f_clock, NULL, 0, &ca);
	double pstep = linear_axis(s, n, f_power, NULL, 0, &pa);
	/* MHz read as Hz for the SI labels */
	PlotAxis ca_hz = { ca.min * 1e6, ca.max * 1e6, false };
	if (clock) {
		svg_frame(f, &p, &ca_hz, "Hz", false, cstep * 1e6);
		series(f, &p, &ca, s, n, f_clock, ck, gap);
	}
	if (power) {
		svg_frame(f, &p, &pa, "W", clock, pstep);
		series(f, &p, &pa, s, n, f_power, pw, gap);
	}
	return p.y0 + p.h + 40;
}

/* The picture's content; returns its height. */
static double content(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r)
{
	const char *unit = n ? sample_unit(&s[0]) : "FLOPS";
	double gap = gap_ms(s, n);
	/* the title whole (every target named) */
	double y = stats_items(f, svg_title_lines(f, title), s, n, r, unit);
	double t1 = n ? s[n - 1].t_ms * 1e-3 : 1;
	PlotAxis xt = { 0, t1 > 0 ? t1 : 1, false };
	plot_axis_round(&xt, 10);
	y = by_size(f, y, r, unit);
	y = throughput(f, y, s, n, xt, r, unit, gap);
	y = groups(f, y, s, n, xt, gap);
	y = times(f, y, s, n, xt, target_ms, gap);
	return clock_power(f, y, s, n, xt, gap);
}

/* What a picture's content function needs. */
typedef struct Doc {
	const char *title;
	const Sample *s;
	size_t n;
	double target_ms;
	const SummaryResult *r;
	const SvgSweep *sw;
	size_t nsw;
	const char *unit;
} Doc;

static double session_content(FILE *f, const void *ctx)
{
	const Doc *d = ctx;
	return content(f, d->title, d->s, d->n, d->target_ms, d->r);
}

/* Several sweeps: one chart by copy size, a line each. */
static double sweeps_content(FILE *f, const void *ctx)
{
	const Doc *d = ctx;
	double y = svg_title_lines(f, d->title) + 16;
	SweepLine *ln = calloc(d->nsw ? d->nsw : 1, sizeof *ln);
	if (!ln)
		return y;
	size_t nl = 0;
	for (size_t i = 0; i < d->nsw; i++) {
		ln[nl] = (SweepLine){ d->sw[i].label, svg_colours[i % SVG_COLOURS], { 0 }, { 0 }, 0 };
		ln[nl].k = sweep_line(d->sw[i].r, &ln[nl]);
		nl += ln[nl].k > 0;
	}
	y = sweep_chart(f, y, "throughput by copy size (log): each size's median at the target", ln, nl, d->unit);
	free(ln);
	return y;
}

bool svg_write(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r)
{
	Doc d = { title, s, n, target_ms, r, NULL, 0, NULL };
	return svg_document(f, session_content, &d, true);
}

bool svg_write_sweeps(FILE *f, const char *title, const SvgSweep *sw, size_t n, const char *unit)
{
	Doc d = { title, NULL, 0, 0, NULL, sw, n, unit };
	return svg_document(f, sweeps_content, &d, true);
}
