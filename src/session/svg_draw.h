/* svg_draw: what the SVG pictures share (svg.c's sessions and sweeps,
 * svg_burn.c's soak): the page's geometry, labels that stay valid XML and
 * fit their room, a panel's axes, frame and legend, and the document around
 * a picture's content. Pure: writes to a FILE. */
#ifndef FLOPSCOPE_SVG_DRAW_H
#define FLOPSCOPE_SVG_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plot.h"

#define SVG_W 1000
#define SVG_LEFT 110
#define SVG_RIGHT 80          /* room for a right axis (power) */
#define SVG_PANEL_H 200
#define SVG_PLOT_W (SVG_W - SVG_LEFT - SVG_RIGHT)
#define SVG_TICK_PX 11        /* tick labels */

/* The width a label of len bytes takes at font size px: a generous
 * average for sans-serif glyphs (0.62 em). */
#define SVG_CHAR_EM 0.62
static inline double svg_text_width(size_t len, double px)
{
	return (double)len * px * SVG_CHAR_EM;
}


typedef struct SvgPanel {
	double y0, h;       /* the plot area's top and height */
	PlotAxis x, y, y2;  /* y2: the right axis (max > min when used) */
} SvgPanel;

typedef struct SvgLegend {
	const char *name;
	const char *style;  /* the line's attributes */
} SvgLegend;

/* the lines' colours, one a series, told apart on white */
#define SVG_COLOURS 8
extern const char *const svg_colours[SVG_COLOURS];

/* raw as XML character data (the five specials escaped; control bytes and
 * bytes that are not UTF-8 as '?') */
void svg_esc(FILE *f, const char *raw);
/* A label; anchor "start", "middle" or "end"; extra: more attributes. */
void svg_label(FILE *f, double x, double y, const char *anchor, int px, const char *extra, const char *s);
/* s cut to what fits in width px at size px ("..." marks the cut), into out. */
const char *svg_fit(const char *s, double width, int px, char *out, size_t len);
/* a value's place on the panel: x (time, or size on a log axis), y on axis a */
double svg_px(const SvgPanel *p, double x);
double svg_py(const SvgPanel *p, const PlotAxis *a, double v);
/* The panel's title and its legend below; returns the plot area's top. */
double svg_header(FILE *f, double y, const char *title, const SvgLegend *lg, size_t n);
/* The frame, the y ticks of axis a (left, or right when right), and the
 * time ticks under the plot (left axis only). */
void svg_frame(FILE *f, const SvgPanel *p, const PlotAxis *a, const char *unit, bool right, double step);
/* s in lines of at most width, broken at spaces; at most max; how many. */
size_t svg_wrap(const char *s, double width, int px, char lines[][200], size_t max);
/* The title whole, on as many lines as it takes; returns the y under it. */
double svg_title_lines(FILE *f, const char *title);
/* A picture: draw(f, ctx) writes its content and returns its height; the
 * <svg> element around it (an XML declaration first where declaration: a
 * file of its own, not a picture inside a page). */
typedef double (*SvgDraw)(FILE *f, const void *ctx);
bool svg_document(FILE *f, SvgDraw draw, const void *ctx, bool declaration);

#endif
