#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "memwork.h"
#include "plot.h"
#include "stats.h"
#include "televent.h"

#define W 1000
#define LEFT 110
#define RIGHT 80          /* room for a right axis (power) */
#define PANEL_H 200
#define PLOT_W (W - LEFT - RIGHT)
#define TICK_PX 11        /* tick labels */
#define MARK_ROWS 4       /* rows of numbered change markers */
#define TABLE_MAX 15      /* changes listed under the plot */

/* s as XML character data: the five specials escaped, and (fmt_printable)
 * control characters and bytes that are not UTF-8 as '?': a device name
 * from a log with a stray Latin-1 byte made the SVG invalid XML. */
static void esc(FILE *f, const char *raw)
{
	char *copy = strdup(raw);
	if (!copy)
		return; /* out of memory: the label is left out, the XML stays valid */
	fmt_printable(copy);
	for (const char *s = copy; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, f);
		}
	}
	free(copy);
}

/* A label; anchor "start", "middle" or "end"; extra: more attributes. */
static void text(FILE *f, double x, double y, const char *anchor, int px, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>", x, y, anchor, px,
	        extra && *extra ? " " : "", extra ? extra : "");
	esc(f, s);
	fputs("</text>\n", f);
}

/* s cut to what fits in width px at size px (an ellipsis of three dots
 * marks the cut), into out. */
static const char *fit(const char *s, double width, int px, char *out, size_t len)
{
	size_t max = (size_t)(width / svg_text_width(1, px)), n = strlen(s);
	if (n <= max || max < 4) {
		if (n >= len)
			n = len - 1;
		memcpy(out, s, n);
		out[n] = '\0';
		return out;
	}
	size_t cut = max - 3;
	while (cut && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--; /* never inside a character */
	snprintf(out, len, "%.*s...", (int)cut, s);
	return out;
}

typedef struct Panel {
	double y0, h;       /* the plot area's top and height */
	PlotAxis x, y, y2;  /* y2: the right axis (max > min when used) */
} Panel;

static double px(const Panel *p, double x)
{
	if (p->x.log) /* the chart by size */
		return LEFT + (log(x) - log(p->x.min)) / (log(p->x.max) - log(p->x.min)) * PLOT_W;
	return LEFT + (x - p->x.min) / (p->x.max - p->x.min) * PLOT_W;
}

static double py_axis(const Panel *p, const PlotAxis *a, double v)
{
	double f = a->log ? (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min)) : (v - a->min) / (a->max - a->min);
	return p->y0 + p->h - f * p->h;
}

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
static void series(FILE *f, const Panel *p, const PlotAxis *a, const Sample *s, size_t n, Field get,
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
		fprintf(f, "%.1f,%.1f ", px(p, s[i].t_ms * 1e-3), py_axis(p, a, v));
		last_t = s[i].t_ms;
	}
	if (open)
		fputs("\"/>\n", f);
}

typedef struct Legend {
	const char *name;
	const char *style;  /* the line's attributes */
} Legend;

/* The panel's title and, on the line below, its legend: a short line of
 * each series' style and its name. Returns the plot area's top. */
static double header(FILE *f, double y, const char *title, const Legend *lg, size_t n)
{
	text(f, LEFT, y, "start", 13, "font-weight=\"bold\"", title);
	double x = LEFT;
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n", x, y + 13, x + 22, y + 13,
		        lg[k].style);
		text(f, x + 27, y + 17, "start", 11, NULL, lg[k].name);
		x += 27 + svg_text_width(strlen(lg[k].name), 11) + 18;
	}
	return y + 28;
}

/* The frame, the y ticks of axis a (left, or right when right), and the
 * time ticks under the plot (left axis only). */
static void frame(FILE *f, const Panel *p, const PlotAxis *a, const char *unit, bool right, double step)
{
	char v[FMT_SI_LEN], lab[64];
	if (!right) {
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n",
		        LEFT, p->y0, PLOT_W, p->h);
		double tstep = plot_nice_step(p->x.max - p->x.min, 10);
		for (double t = p->x.min; !p->x.log && t <= p->x.max + tstep * 1e-6; t += tstep) {
			snprintf(lab, sizeof lab, "%g s", fabs(t) < tstep * 1e-6 ? 0.0 : t);
			text(f, px(p, t), p->y0 + p->h + 18, "middle", TICK_PX, NULL, lab);
		}
	}
	/* linear: the round steps; log: one tick a decade */
	int ticks = a->log ? (int)lround(log10(a->max) - log10(a->min)) : (int)lround((a->max - a->min) / step);
	for (int i = 0; i <= ticks && i <= 24; i++) {
		double val = a->log ? a->min * pow(10, i) : a->min + i * step;
		double y = py_axis(p, a, val);
		if (!right)
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", LEFT, y,
			        W - RIGHT, y);
		snprintf(lab, sizeof lab, "%s%s", fabs(val) < step * 1e-9 ? "0 " : fmt_si(val, v, sizeof v), unit);
		text(f, right ? W - RIGHT + 6 : LEFT - 6, y + 4, right ? "start" : "end", TICK_PX, NULL, lab);
	}
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
	double width = PLOT_W - 20;
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
	        LEFT, y, PLOT_W, 12.0 + 17.0 * (double)nl);
	char cut[512];
	for (size_t k = 0; k < nl; k++)
		text(f, LEFT + 10, y + 21 + 17.0 * (double)k, "start", size, NULL, fit(line[k], width, size, cut, sizeof cut));
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
static void change_marks(FILE *f, const Panel *p, const SummaryResult *r, size_t nchg)
{
	double row_end[MARK_ROWS];
	for (int k = 0; k < MARK_ROWS; k++)
		row_end[k] = -INFINITY;
	for (size_t j = 0; j < nchg; j++) {
		const Change *ch = change_get(&r->changes, nchg - 1 - j);
		bool pw = ch->cause == CAUSE_POWER_STATE;
		const char *col = pw ? "#cf222e" : "#8c959f";
		double x = px(p, ch->t_ms * 1e-3);
		/* a power-state change solid and wider, the others dashed: told
		 * apart by shape, not by red against grey alone */
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" %s/>\n", x, p->y0, x,
		        p->y0 + p->h, col, pw ? "stroke-width=\"2\"" : "stroke-dasharray=\"4 3\"");
		char num[24], fill[32];
		snprintf(num, sizeof num, "%zu", j + 1);
		snprintf(fill, sizeof fill, "fill=\"%s\"", col);
		double w = svg_text_width(strlen(num), 10);
		for (int k = 0; k < MARK_ROWS; k++) {
			if (x + 2 > row_end[k] + 3 && x + 2 + w <= W - RIGHT) {
				text(f, x + 2, p->y0 + 11 + 12 * k, "start", 10, fill, num);
				row_end[k] = x + 2 + w;
				break;
			}
		}
	}
}

/* text in lines of at most width, broken at spaces (a word longer than a
 * line is broken where it must be); at most max lines into lines; how many */
static size_t wrap(const char *s, double width, int px, char lines[][200], size_t max)
{
	size_t per = (size_t)(width / svg_text_width(1, px));
	if (per < 10)
		per = 10;
	if (per > 199)
		per = 199;
	size_t n = 0;
	while (*s && n < max) {
		size_t len = strlen(s), take = len <= per ? len : per;
		if (take < len) {
			size_t sp = take;
			while (sp > per / 2 && s[sp] != ' ')
				sp--;
			if (s[sp] == ' ')
				take = sp;
		}
		snprintf(lines[n++], 200, "%.*s", (int)take, s);
		s += take;
		while (*s == ' ')
			s++;
	}
	return n;
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
	text(f, LEFT, y, "start", 11, "font-weight=\"bold\"", head);
	double at = y;
	if (all > nchg) {
		char more[120];
		snprintf(more, sizeof more, "%zu earlier changes not kept here", all - nchg);
		text(f, LEFT, at += 13, "start", 10, NULL, more);
	}
	for (size_t j = 0; j < nchg; j++) {
		const Change *ch = change_get(&r->changes, nchg - 1 - j);
		char line[400], row[420], lines[4][200];
		change_format(ch, unit, line, sizeof line);
		snprintf(row, sizeof row, "%zu  %s", j + 1 + (all - nchg), line);
		size_t nl = wrap(row, PLOT_W, 10, lines, 4);
		for (size_t k = 0; k < nl; k++)
			text(f, LEFT + (k ? 20 : 0), at += 13, "start", 10,
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

static const char *const SWEEP_COLOURS[] = { "#1a7f37", "#0969da", "#bc4c00", "#8250df",
                                             "#cf222e", "#1b7c83", "#4d2d00", "#57606a" };

/* Throughput against copy size (log axis), one line a sweep, each size a
 * point; returns the y below. */
static double sweep_chart(FILE *f, double y, const char *title, const SweepLine *ln, size_t nl, const char *unit)
{
	Legend lg[8] = { { 0 } };
	char style[8][80];
	size_t nlg = nl < 8 ? nl : 8;
	for (size_t i = 0; i < nlg; i++) {
		snprintf(style[i], sizeof style[i], "stroke=\"%s\" stroke-width=\"1.6\"", ln[i].colour);
		lg[i] = (Legend){ ln[i].label, style[i] };
	}
	Panel p = { header(f, y, title, lg, nlg), PANEL_H, { 0, 1, true }, { 0, 1, false }, { 0, 0, false } };
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
	frame(f, &p, &p.y, unit, false, step);
	for (size_t i = 0; i < nl; i++) {
		fprintf(f, "<polyline fill=\"none\" %s points=\"", style[i < 8 ? i : 7]);
		for (size_t j = 0; j < ln[i].k; j++)
			if (isfinite(ln[i].med[j]))
				fprintf(f, "%.1f,%.1f ", px(&p, (double)ln[i].sizes[j]), py_axis(&p, &p.y, ln[i].med[j]));
		fputs("\"/>\n", f);
		for (size_t j = 0; j < ln[i].k; j++)
			if (isfinite(ln[i].med[j]))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
				        px(&p, (double)ln[i].sizes[j]), py_axis(&p, &p.y, ln[i].med[j]), ln[i].colour);
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
		double x = px(&p, (double)ticks[j]);
		double w = svg_text_width(strlen(lab), TICK_PX);
		if (x - w / 2 > last + 4) {
			text(f, x, p.y0 + p.h + 14, "middle", TICK_PX, NULL, lab);
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
	SweepLine ln = { "median of each size's samples at the target", SWEEP_COLOURS[0], { 0 }, { 0 }, 0 };
	ln.k = sweep_line(r, &ln);
	return ln.k ? sweep_chart(f, y, "throughput by copy size (log)", &ln, 1, unit) : y;
}

/* The throughput, its level changes numbered and listed; returns the y below. */
static double throughput(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, const SummaryResult *r,
                         const char *unit, double gap)
{
	size_t nchg = r ? change_kept(&r->changes) : 0;
	const char *green = "stroke=\"#1a7f37\" stroke-width=\"1.3\"";
	Legend lg1[] = { { unit, green }, { "level change: power state", "stroke=\"#cf222e\" stroke-width=\"2\"" },
	                 { "other level change", "stroke=\"#8c959f\" stroke-dasharray=\"4 3\"" } };
	Panel p = { header(f, y, "throughput", lg1, nchg ? 3 : 1), PANEL_H, xt, { 0, 1, false }, { 0, 0, false } };
	double step = linear_axis(s, n, f_rate, NULL, 0, &p.y);
	frame(f, &p, &p.y, unit, false, step);
	series(f, &p, &p.y, s, n, f_rate, green, gap);
	change_marks(f, &p, r, nchg);
	return change_list(f, p.y0 + p.h + 36, r, nchg, unit);
}

/* Workgroups (a transfer's copies per submission) on a log axis. */
static double groups(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, double gap)
{
	const char *blue = "stroke=\"#0969da\" stroke-width=\"1.3\"";
	bool copies = n && s[0].size;
	Legend lg2[] = { { copies ? "copies per submission" : "workgroups per dispatch", blue } };
	Panel p = { header(f, y, copies ? "copies per submission (log)" : "workgroups (log)", lg2, 1), PANEL_H, xt,
	            { 0, 1, false }, { 0, 0, false } };
	double *g = malloc((n ? n : 1) * sizeof *g);
	for (size_t i = 0; g && i < n; i++)
		g[i] = (double)s[i].groups;
	plot_axis_fit(g, g ? n : 0, true, &p.y);
	free(g);
	frame(f, &p, &p.y, "", false, 1);
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
	Legend lg3[] = { { "GPU (timestamps)", gpu }, { "CPU (wall)", cpu }, { "target", tgt } };
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
	Panel p = { header(f, y, title, lg3, 3), PANEL_H, xt, { 0, 1, false }, { 0, 0, false } };
	double step = 0;
	if (logy)
		log_axis(s, n, f_gpu, f_cpu, lo, &p.y);
	else
		step = linear_axis(s, n, f_gpu, f_cpu, svg_targets_max(s, n, target_ms) * 1e-3, &p.y);
	frame(f, &p, &p.y, "s", false, step);
	series(f, &p, &p.y, s, n, f_cpu, cpu, gap);
	series(f, &p, &p.y, s, n, f_gpu, gpu, gap);
	/* the target each sample was measured at (+ and - in the dashboard,
	 * the log's control records); the session's one for an older log */
	if (any_value(s, n, f_target)) {
		series(f, &p, &p.y, s, n, f_target, tgt, gap);
	} else {
		double ty = py_axis(&p, &p.y, target_ms * 1e-3);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" %s/>\n", LEFT, ty, W - RIGHT, ty, tgt);
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
	Legend lg4[2];
	size_t nl = 0;
	if (clock)
		lg4[nl++] = (Legend){ "shader clock (left axis)", ck };
	if (power)
		lg4[nl++] = (Legend){ clock ? "power (right axis)" : "power", pw };
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
		text(f, LEFT, y + 12, "start", 12, "font-weight=\"bold\"", line);
		return y + 40;
	}
	Panel p = { header(f, y, clock && power ? "clock and power" : clock ? "clock" : "power", lg4, nl), PANEL_H, xt,
	            { 0, 1, false }, { 0, 0, false } };
	PlotAxis ca, pa;
	double cstep = linear_axis(s, n, f_clock, NULL, 0, &ca);
	double pstep = linear_axis(s, n, f_power, NULL, 0, &pa);
	/* MHz read as Hz for the SI labels */
	PlotAxis ca_hz = { ca.min * 1e6, ca.max * 1e6, false };
	if (clock) {
		frame(f, &p, &ca_hz, "Hz", false, cstep * 1e6);
		series(f, &p, &ca, s, n, f_clock, ck, gap);
	}
	if (power) {
		frame(f, &p, &pa, "W", clock, pstep);
		series(f, &p, &pa, s, n, f_power, pw, gap);
	}
	return p.y0 + p.h + 40;
}

/* The title whole, on as many lines as it takes; returns the y under it. */
static double title_lines(FILE *f, const char *title)
{
	char tl[3][200];
	size_t ntl = wrap(title, PLOT_W, 15, tl, 3);
	for (size_t k = 0; k < ntl; k++)
		text(f, LEFT, 24 + 19 * (double)k, "start", 15, "font-weight=\"bold\"", tl[k]);
	return 40 + 19 * (double)(ntl ? ntl - 1 : 0);
}

/* The picture's content; returns its height. */
static double content(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r)
{
	const char *unit = n ? sample_unit(&s[0]) : "FLOPS";
	double gap = gap_ms(s, n);
	/* the title whole (every target named) */
	double y = stats_items(f, title_lines(f, title), s, n, r, unit);
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

static double session_content(FILE *f, const Doc *d)
{
	return content(f, d->title, d->s, d->n, d->target_ms, d->r);
}

/* Several sweeps: one chart by copy size, a line each. */
static double sweeps_content(FILE *f, const Doc *d)
{
	double y = title_lines(f, d->title) + 16;
	SweepLine *ln = calloc(d->nsw ? d->nsw : 1, sizeof *ln);
	if (!ln)
		return y;
	size_t nl = 0;
	for (size_t i = 0; i < d->nsw; i++) {
		ln[nl] = (SweepLine){ d->sw[i].label, SWEEP_COLOURS[i % 8], { 0 }, { 0 }, 0 };
		ln[nl].k = sweep_line(d->sw[i].r, &ln[nl]);
		nl += ln[nl].k > 0;
	}
	y = sweep_chart(f, y, "throughput by copy size (log): each size's median at the target", ln, nl, d->unit);
	free(ln);
	return y;
}

/* The document: its content first, to know the height the header states. */
static bool document(FILE *f, double (*draw)(FILE *, const Doc *), const Doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return false;
	double height = draw(m, d);
	bool ok = !ferror(m);
	if (fclose(m) != 0)
		ok = false;
	int h = (int)ceil(height);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	           "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
	           "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, h, W, h);
	if (buf)
		fwrite(buf, 1, len, f);
	free(buf);
	fputs("</svg>\n", f);
	return ok && !ferror(f);
}

bool svg_write(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r)
{
	Doc d = { title, s, n, target_ms, r, NULL, 0, NULL };
	return document(f, session_content, &d);
}

bool svg_write_sweeps(FILE *f, const char *title, const SvgSweep *sw, size_t n, const char *unit)
{
	Doc d = { title, NULL, 0, 0, NULL, sw, n, unit };
	return document(f, sweeps_content, &d);
}
