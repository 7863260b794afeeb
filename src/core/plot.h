/* plot: rasterising sample series into a grid of terminal cells. Pure: the
 * canvas is plain memory; Braille cells (2x4 dots) in a UTF-8 locale, ASCII
 * (1x3 levels) otherwise. Every dot remembers the series that drew it last so
 * the screen can colour it. */
#ifndef FLOPSCOPE_PLOT_H
#define FLOPSCOPE_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct PlotCanvas {
	int w, h;          /* cells */
	int dx, dy;        /* dots per cell: 2x4 Braille, 1x3 ASCII */
	bool braille;
	uint8_t *bits;     /* w*h dot masks */
	uint8_t *series;   /* w*h: 1 + the last series drawn into the cell, 0 = empty */
} PlotCanvas;

typedef struct PlotAxis {
	double min, max;
	bool log;          /* log10 scale; min and max > 0 */
} PlotAxis;

bool plot_canvas_init(PlotCanvas *c, int w, int h, bool braille);
void plot_canvas_clear(PlotCanvas *c);
void plot_canvas_done(PlotCanvas *c);

/* Connects consecutive points (x[i], y[i]) with lines; NaN points break the
 * line. Points outside the axes are clipped. */
void plot_series(PlotCanvas *c, const PlotAxis *ax, const PlotAxis *ay, const double *x,
                 const double *y, size_t n, int series);
/* The same, and points further apart in x than max_dx are not joined: a
 * stretch without samples is drawn as a gap. */
void plot_series_gaps(PlotCanvas *c, const PlotAxis *ax, const PlotAxis *ay, const double *x,
                      const double *y, size_t n, int series, double max_dx);
/* Where a gap starts for the points x[0..n) (ascending): ten times their
 * median spacing, and at least at_least; INFINITY for fewer than 3. */
double plot_gap(const double *x, size_t n, double at_least);
/* Whether v[0..n) (NaN skipped) stays within rel of its largest value:
 * (max - min) <= rel * max. False without values or where max <= 0; the
 * extremes in *lo and *hi where it has values. A flat series needs a row
 * of text, not a plot. */
bool plot_flat(const double *v, size_t n, double rel, double *lo, double *hi);
/* Whether dispatch times want a log axis, and why in words: targets
 * lo..hi (s) 4x or more apart, or a dispatch (longest, s) 4x or more the
 * target (a stall: the 20 ms ones flattened to nothing beside it on a
 * linear axis). The dashboard's rule and the SVG's. */
bool plot_times_log(double lo, double hi, double longest, char *why, size_t len);
void plot_hline(PlotCanvas *c, const PlotAxis *ay, double y, int series);
void plot_vline(PlotCanvas *c, const PlotAxis *ax, double x, int series, bool dotted);

/* The cell's text (UTF-8, NUL-terminated; " " when empty). */
void plot_cell(const PlotCanvas *c, int col, int row, char out[8]);
/* A whole row as text, for tests and goldens. */
void plot_row_text(const PlotCanvas *c, int row, char *out, size_t len);

/* An axis covering v[0..n) (NaN skipped) with 5% headroom above; linear axes
 * start at 0 when all values are positive; log axes span whole decades.
 * Falls back to [0, 1] (log: [1, 10]) without data. */
void plot_axis_fit(const double *v, size_t n, bool log, PlotAxis *out);

/* The 1-2-5 step (... 0.5, 1, 2, 5, 10 ...) that cuts span into at most
 * max_ticks intervals; 1 when span is not positive. */
double plot_nice_step(double span, int max_ticks);
/* A linear axis widened to whole steps (min down, max up) with at most
 * max_ticks intervals: round numbers at every tick. Returns the step. */
double plot_axis_round(PlotAxis *a, int max_ticks);

#endif
