#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "plot.h"

#define W 1000
#define LEFT 110
#define RIGHT 80          /* room for a right axis (power) */
#define PANEL_H 200
#define PLOT_W (W - LEFT - RIGHT)
#define TICK_PX 11        /* tick labels */
#define MARK_ROWS 4       /* rows of numbered change markers */
#define TABLE_MAX 15      /* changes listed under the plot */

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
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
	size_t max = (size_t)(width / svg_text_width(1, px));
	if (strlen(s) <= max || max < 4) {
		snprintf(out, len, "%s", s);
		return out;
	}
	snprintf(out, len, "%.*s...", (int)(max - 3), s);
	return out;
}

typedef struct Panel {
	double y0, h;       /* the plot area's top and height */
	PlotAxis x, y, y2;  /* y2: the right axis (max > min when used) */
} Panel;

static double px(const Panel *p, double x)
{
	return LEFT + (x - p->x.min) / (p->x.max - p->x.min) * PLOT_W;
}

static double py_axis(const Panel *p, const PlotAxis *a, double v)
{
	double f = a->log ? (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min)) : (v - a->min) / (a->max - a->min);
	return p->y0 + p->h - f * p->h;
}

typedef double (*Field)(const Sample *);
static double f_rate(const Sample *s) { return s->rate; }
static double f_groups(const Sample *s) { return (double)s->groups; }
static double f_gpu(const Sample *s) { return (s->flags & SAMPLE_GPU_TIMED) ? (double)s->gpu_ns * 1e-9 : NAN; }
static double f_cpu(const Sample *s) { return (double)s->cpu_ns * 1e-9; }
static double f_clock(const Sample *s)
{
	return (s->tel_valid & (1u << TEL_SM_MHZ)) ? s->tel[TEL_SM_MHZ] : NAN;
}
static double f_power(const Sample *s)
{
	return (s->tel_valid & (1u << TEL_POWER_W)) ? s->tel[TEL_POWER_W] : NAN;
}

/* A gap: consecutive samples further apart than this (ms) are not joined
 * (plot_gap: ten times the median interval, and at least 1 s). */
static double gap_ms(const Sample *s, size_t n)
{
	double *t = malloc((n ? n : 1) * sizeof *t);
	if (!t)
		return 1000;
	for (size_t i = 0; i < n; i++)
		t[i] = s[i].t_ms;
	double g = plot_gap(t, n, 1000);
	free(t);
	return g;
}

/* One series: a polyline per stretch without a gap; points without a
 * value (NaN, or not positive on a log axis) are left out. */
static void series(FILE *f, const Panel *p, const PlotAxis *a, const Sample *s, size_t n, Field get,
                   const char *style, double gap)
{
	bool open = false;
	double last_t = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double v = get(&s[i]);
		if (!isfinite(v) || (a->log && !(v > 0)))
			continue;
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
		for (double t = p->x.min; t <= p->x.max + tstep * 1e-6; t += tstep) {
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

/* The statistics box under the title; returns the y below it. */
static double stats_items(FILE *f, const Sample *s, size_t n, const SummaryResult *r, const char *unit)
{
	bool clock = any_value(s, n, f_clock), power = any_value(s, n, f_power);
	char items[12][160], a[FMT_SI_LEN], b[FMT_SI_LEN], c[FMT_SI_LEN];
	size_t ni = 0;
	if (r && r->flops.n) {
		snprintf(items[ni++], sizeof items[0], "median %s%s", fmt_si(r->flops.median, a, sizeof a), unit);
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
		snprintf(items[ni++], sizeof items[0], "level changes: %zu power state, %zu other, %zu unexplained",
		         r->changes.by_cause[CAUSE_POWER_STATE], r->changes.by_cause[CAUSE_NOT_POWER_STATE],
		         r->changes.by_cause[CAUSE_UNEXPLAINED]);
		if (r->gaps)
			snprintf(items[ni++], sizeof items[0], "%zu stops (%.1f s not measured)", r->gaps, r->gap_ms * 1e-3);
	}
	if (!clock && !power)
		snprintf(items[ni++], sizeof items[0], "no clock or power readings");
	return stats_box(f, 40, items, ni) + 34;
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
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
		        x, p->y0, x, p->y0 + p->h, col);
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

/* The list of level changes under the throughput plot; returns the y below. */
static double change_list(FILE *f, double y, const SummaryResult *r, size_t nchg, const char *unit)
{
	char cut[600];
	size_t listed = nchg < TABLE_MAX ? nchg : TABLE_MAX;
	if (!nchg)
		return y + 4;
	text(f, LEFT, y, "start", 11, "font-weight=\"bold\"",
	     "level changes, numbered on the plot where there is room (all of them: flopscope --analyze LOG)");
	for (size_t j = 0; j < listed; j++) {
		const Change *ch = change_get(&r->changes, nchg - 1 - j);
		char line[400], row[420];
		change_format(ch, unit, line, sizeof line);
		snprintf(row, sizeof row, "%zu  %s", j + 1, line);
		text(f, LEFT, y + 13 * (double)(j + 1), "start", 10,
		     ch->cause == CAUSE_POWER_STATE ? "fill=\"#cf222e\"" : NULL, fit(row, PLOT_W, 10, cut, sizeof cut));
	}
	if (nchg > listed) {
		char more[80];
		snprintf(more, sizeof more, "... and %zu more", nchg - listed);
		text(f, LEFT, y + 13 * (double)(listed + 1), "start", 10, NULL, more);
	}
	return y + 13 * (double)(listed + 1) + 30;
}

/* The throughput, its level changes numbered and listed; returns the y below. */
static double throughput(FILE *f, double y, const Sample *s, size_t n, PlotAxis xt, const SummaryResult *r,
                         const char *unit, double gap)
{
	size_t nchg = r ? change_kept(&r->changes) : 0;
	const char *green = "stroke=\"#1a7f37\" stroke-width=\"1.3\"";
	Legend lg1[] = { { unit, green }, { "level change: power state", "stroke=\"#cf222e\" stroke-dasharray=\"4 3\"" },
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
	Panel p = { header(f, y, "dispatch time", lg3, 3), PANEL_H, xt, { 0, 1, false }, { 0, 0, false } };
	double step = linear_axis(s, n, f_gpu, f_cpu, target_ms * 1e-3, &p.y);
	frame(f, &p, &p.y, "s", false, step);
	series(f, &p, &p.y, s, n, f_cpu, cpu, gap);
	series(f, &p, &p.y, s, n, f_gpu, gpu, gap);
	double ty = py_axis(&p, &p.y, target_ms * 1e-3);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" %s/>\n", LEFT, ty, W - RIGHT, ty, tgt);
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

/* The picture's content; returns its height. */
static double content(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r)
{
	const char *unit = n ? sample_unit(&s[0]) : "FLOPS";
	double gap = gap_ms(s, n);
	char cut[600];
	text(f, LEFT, 24, "start", 15, "font-weight=\"bold\"", fit(title, PLOT_W, 15, cut, sizeof cut));
	double y = stats_items(f, s, n, r, unit);
	double t1 = n ? s[n - 1].t_ms * 1e-3 : 1;
	PlotAxis xt = { 0, t1 > 0 ? t1 : 1, false };
	plot_axis_round(&xt, 10);
	y = throughput(f, y, s, n, xt, r, unit, gap);
	y = groups(f, y, s, n, xt, gap);
	y = times(f, y, s, n, xt, target_ms, gap);
	return clock_power(f, y, s, n, xt, gap);
}

bool svg_write(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r)
{
	/* the content first, to know the height the header states */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return false;
	double height = content(m, title, s, n, target_ms, r);
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
