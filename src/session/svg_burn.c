/* svg_burn: a soak's plots for the burn's report (svg.h): one chart of a
 * quantity over the whole run, a line a device. */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg_draw.h"

/* What each chart draws beside the spans' means: the extreme that matters
 * (throughput and clock: the least, a dip; power and temperature: the
 * greatest, a peak), its words, the axis's unit and its scale to it. */
typedef struct BurnChart {
	const char *title, *extreme_words, *axis_unit;
	bool least;
	double scale;
} BurnChart;
static const BurnChart charts[BURN_Q_COUNT] = {
	[BURN_Q_RATE] = { "throughput", "the least of each span", NULL, true, 1 },
	[BURN_Q_MHZ] = { "shader clock", "the least of each span", "Hz", true, 1e6 },
	[BURN_Q_WATTS] = { "power", "the greatest of each span", "W", false, 1 },
	[BURN_Q_TEMP] = { "temperature", "the greatest of each span", "C", false, 1 },
};

typedef struct BurnDoc {
	BurnQuantity q;
	const char *unit;
	const SvgBurnDev *d;
	size_t n;
	double window_s, ran_s;
} BurnDoc;

static double extreme(const BurnChart *c, const BurnAgg *a)
{
	return a->n ? (c->least ? a->min : a->max) : NAN;
}

/* One line of a trace: the means (or the extremes), a polyline a stretch
 * of spans (a span without a reading, or a second without one, ends it). */
static void trace_line(FILE *f, const SvgPanel *p, const BurnDoc *doc, const BurnTrace *t, bool ext,
                       const char *style)
{
	const BurnChart *c = &charts[doc->q];
	bool open = false;
	long last = t->n ? t->p[0].slot - 1 : 0;
	for (size_t k = 0; k < t->n; k++) {
		const BurnAgg *a = &t->p[k].q[doc->q];
		double v = ext ? extreme(c, a) : burn_agg_mean(a);
		/* a second or more without a span: a gap, not joined */
		bool gap = (double)(t->p[k].slot - last - 1) * t->span_s >= 1.0;
		if (!isfinite(v) || gap) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
		}
		last = t->p[k].slot;
		if (!isfinite(v))
			continue;
		if (!open)
			fprintf(f, "<polyline fill=\"none\" %s points=\"", style);
		open = true;
		fprintf(f, "%.1f,%.1f ", svg_px(p, ((double)t->p[k].slot + 0.5) * t->span_s), svg_py(p, &p->y, v));
	}
	if (open)
		fputs("\"/>\n", f);
}

/* A device's colour, the same in every chart of the report. */
static const char *colour(const SvgBurnDev *d)
{
	return svg_colours[(d->number ? d->number - 1 : 0) % SVG_COLOURS];
}

static double burn_content(FILE *f, const void *ctx)
{
	const BurnDoc *doc = ctx;
	const BurnChart *c = &charts[doc->q];
	double hi = 0, t1 = doc->ran_s > 0 ? doc->ran_s : 1;
	for (size_t k = 0; k < doc->n; k++) {
		const BurnTrace *t = doc->d[k].trace;
		for (size_t i = 0; t && i < t->n; i++) {
			const BurnAgg *a = &t->p[i].q[doc->q];
			if (a->n && a->max > hi)
				hi = a->max;
			t1 = fmax(t1, (double)(t->p[i].slot + 1) * t->span_s);
		}
	}
	char title[200];
	snprintf(title, sizeof title, "%s over the burn: each span's mean, %s dotted", c->title, c->extreme_words);
	SvgLegend lg[SVG_COLOURS];
	char names[SVG_COLOURS][96], style[SVG_COLOURS][64];
	size_t nl = doc->n < SVG_COLOURS ? doc->n : SVG_COLOURS;
	for (size_t k = 0; k < nl; k++) {
		snprintf(names[k], sizeof names[k], "[%zu] %.80s", doc->d[k].number, doc->d[k].label);
		snprintf(style[k], sizeof style[k], "stroke=\"%s\" stroke-width=\"1.5\"", colour(&doc->d[k]));
		lg[k] = (SvgLegend){ names[k], style[k] };
	}
	SvgPanel p = { svg_header(f, 20, title, lg, nl), SVG_PANEL_H, { 0, t1, false }, { 0, hi > 0 ? hi * 1.05 : 1, false },
	               { 0, 0, false } };
	plot_axis_round(&p.x, 10);
	double step = plot_axis_round(&p.y, 5);
	PlotAxis shown = { p.y.min * c->scale, p.y.max * c->scale, false };
	svg_frame(f, &p, &shown, c->axis_unit ? c->axis_unit : doc->unit, false, step * c->scale);
	/* the windows' edges, where they are few enough to tell apart */
	for (double w = doc->window_s; doc->window_s > 0 && t1 / doc->window_s <= 120 && w < p.x.max; w += doc->window_s)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d0d7de\" stroke-dasharray=\"2 3\"/>\n",
		        svg_px(&p, w), p.y0, svg_px(&p, w), p.y0 + p.h);
	for (size_t k = 0; k < doc->n; k++) {
		if (!doc->d[k].trace)
			continue;
		char solid[96], dotted[128];
		const char *col = colour(&doc->d[k]);
		snprintf(solid, sizeof solid, "stroke=\"%s\" stroke-width=\"1.5\"", col);
		snprintf(dotted, sizeof dotted, "stroke=\"%s\" stroke-width=\"1\" stroke-dasharray=\"1 2\"", col);
		trace_line(f, &p, doc, doc->d[k].trace, true, dotted);
		trace_line(f, &p, doc, doc->d[k].trace, false, solid);
	}
	return p.y0 + p.h + 30;
}

bool svg_write_burn(FILE *f, BurnQuantity q, const char *unit, const SvgBurnDev *d, size_t n, double window_s,
                    double ran_s)
{
	BurnDoc doc = { q, unit, d, n, window_s, ran_s };
	return svg_document(f, burn_content, &doc, false);
}
