#include "plot.h"
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

bool plot_canvas_init(PlotCanvas *c, int w, int h, bool braille)
{
	memset(c, 0, sizeof *c);
	if (w < 1 || h < 1)
		return false;
	c->bits = calloc((size_t)w * h, 1);
	c->series = calloc((size_t)w * h, 1);
	if (!c->bits || !c->series) {
		plot_canvas_done(c);
		return false;
	}
	c->w = w;
	c->h = h;
	c->braille = braille;
	c->dx = braille ? 2 : 1;
	c->dy = braille ? 4 : 3;
	return true;
}

void plot_canvas_clear(PlotCanvas *c)
{
	memset(c->bits, 0, (size_t)c->w * c->h);
	memset(c->series, 0, (size_t)c->w * c->h);
}

void plot_canvas_done(PlotCanvas *c)
{
	free(c->bits);
	free(c->series);
	c->bits = c->series = NULL;
}

static void set_dot(PlotCanvas *c, int px, int py, int series)
{
	int W = c->w * c->dx, H = c->h * c->dy;
	if (px < 0 || py < 0 || px >= W || py >= H)
		return;
	int col = px / c->dx, row = py / c->dy, sx = px % c->dx, sy = py % c->dy;
	uint8_t bit;
	if (c->braille) {
		static const uint8_t B[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };
		bit = B[sx][sy];
	} else {
		bit = (uint8_t)(1u << sy);
	}
	size_t i = (size_t)row * c->w + col;
	c->bits[i] |= bit;
	c->series[i] = (uint8_t)(series + 1);
}

static double axis_pos(const PlotAxis *a, double v)
{
	if (a->log) {
		if (!(v > 0))
			return NAN;
		return (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	}
	return (v - a->min) / (a->max - a->min);
}

/* Dot coordinates; false when the point is NaN or far outside. */
static bool to_dot(const PlotCanvas *c, const PlotAxis *ax, const PlotAxis *ay, double x, double y,
                   long *px, long *py)
{
	double fx = axis_pos(ax, x), fy = axis_pos(ay, y);
	if (!isfinite(fx) || !isfinite(fy) || fabs(fx) > 1e6 || fabs(fy) > 1e6)
		return false;
	int W = c->w * c->dx, H = c->h * c->dy;
	*px = lround(fx * (W - 1));
	*py = (H - 1) - lround(fy * (H - 1));
	return true;
}

static void line(PlotCanvas *c, long x0, long y0, long x1, long y1, int series)
{
	long dx = labs(x1 - x0), dy = -labs(y1 - y0);
	long sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;
	for (long guard = 0; guard < 1000000; guard++) {
		set_dot(c, (int)x0, (int)y0, series);
		if (x0 == x1 && y0 == y1)
			break;
		long e2 = 2 * e;
		if (e2 >= dy) {
			e += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}

void plot_series(PlotCanvas *c, const PlotAxis *ax, const PlotAxis *ay, const double *x,
                 const double *y, size_t n, int series)
{
	plot_series_gaps(c, ax, ay, x, y, n, series, INFINITY);
}

void plot_series_gaps(PlotCanvas *c, const PlotAxis *ax, const PlotAxis *ay, const double *x,
                      const double *y, size_t n, int series, double max_dx)
{
	long px = 0, py = 0;
	bool have = false;
	double last_x = 0;
	for (size_t i = 0; i < n; i++) {
		long qx, qy;
		if (!to_dot(c, ax, ay, x[i], y[i], &qx, &qy)) {
			have = false;
			continue;
		}
		if (have && !(x[i] - last_x > max_dx))
			line(c, px, py, qx, qy, series);
		else
			set_dot(c, (int)qx, (int)qy, series);
		px = qx;
		py = qy;
		last_x = x[i];
		have = true;
	}
}

bool plot_flat(const double *v, size_t n, double rel, double *lo, double *hi)
{
	double mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (v[i] < mn) mn = v[i];
		if (v[i] > mx) mx = v[i];
	}
	if (mn > mx)
		return false;
	*lo = mn;
	*hi = mx;
	return mx > 0 && mx - mn <= rel * mx;
}

double plot_gap(const double *x, size_t n, double at_least)
{
	if (n < 3)
		return INFINITY;
	double *dx = malloc((n - 1) * sizeof *dx);
	if (!dx)
		return at_least;
	for (size_t i = 1; i < n; i++)
		dx[i - 1] = x[i] - x[i - 1];
	double med = stats_median_inplace(dx, n - 1);
	free(dx);
	return med * 10 > at_least ? med * 10 : at_least;
}

void plot_hline(PlotCanvas *c, const PlotAxis *ay, double y, int series)
{
	double f = axis_pos(ay, y);
	if (!(f >= 0 && f <= 1))
		return;
	int H = c->h * c->dy;
	int py = (H - 1) - (int)lround(f * (H - 1));
	for (int px = 0; px < c->w * c->dx; px += 2) /* dotted */
		set_dot(c, px, py, series);
}

void plot_vline(PlotCanvas *c, const PlotAxis *ax, double x, int series, bool dotted)
{
	double f = axis_pos(ax, x);
	if (!(f >= 0 && f <= 1))
		return;
	int px = (int)lround(f * (c->w * c->dx - 1));
	/* dotted: a dot in every other dot row, or every other cell where a
	 * cell is one dot (ASCII) */
	for (int py = 0; py < c->h * c->dy; py++)
		if (!dotted || py % 2 == 0)
			set_dot(c, px, py, series);
}

void plot_cell(const PlotCanvas *c, int col, int row, char out[8])
{
	uint8_t b = c->bits[(size_t)row * c->w + col];
	if (!b) {
		out[0] = ' ';
		out[1] = '\0';
		return;
	}
	if (c->braille) {
		unsigned cp = 0x2800u + b; /* U+2800..U+28FF: three UTF-8 bytes */
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		out[3] = '\0';
		return;
	}
	/* ASCII: top, middle, bottom third; several: a vertical stroke */
	out[0] = b == 1 ? '\'' : b == 2 ? '-' : b == 4 ? '.' : '|';
	out[1] = '\0';
}

void plot_row_text(const PlotCanvas *c, int row, char *out, size_t len)
{
	size_t n = 0;
	for (int col = 0; col < c->w; col++) {
		char cell[8];
		plot_cell(c, col, row, cell);
		size_t l = strlen(cell);
		if (n + l + 1 > len)
			break;
		memcpy(out + n, cell, l);
		n += l;
	}
	if (len)
		out[n] = '\0';
}

void plot_axis_fit(const double *v, size_t n, bool log, PlotAxis *out)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]) || (log && !(v[i] > 0)))
			continue;
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	out->log = log;
	if (!(lo <= hi)) {
		out->min = log ? 1 : 0;
		out->max = log ? 10 : 1;
		return;
	}
	if (log) {
		out->min = pow(10, floor(log10(lo)));
		out->max = pow(10, ceil(log10(hi)));
		if (out->max <= out->min)
			out->max = out->min * 10;
		return;
	}
	out->min = lo >= 0 ? 0 : lo - 0.05 * (hi - lo);
	out->max = hi + 0.05 * (hi - out->min);
	if (out->max <= out->min)
		out->max = out->min + 1;
}

double plot_nice_step(double span, int max_ticks)
{
	if (!(span > 0) || !isfinite(span) || max_ticks < 1)
		return 1;
	double raw = span / max_ticks;
	double mag = pow(10, floor(log10(raw)));
	double norm = raw / mag;
	/* a hair over a round value (float noise) still takes that value */
	double k = norm <= 1.000001 ? 1 : norm <= 2.000001 ? 2 : norm <= 5.000001 ? 5 : 10;
	return k * mag;
}

double plot_axis_round(PlotAxis *a, int max_ticks)
{
	double step = plot_nice_step(a->max - a->min, max_ticks);
	for (int tries = 0; tries < 8; tries++) {
		double lo = floor(a->min / step + 1e-9) * step, hi = ceil(a->max / step - 1e-9) * step;
		if ((hi - lo) / step <= max_ticks + 1e-9) {
			a->min = lo;
			a->max = hi > lo ? hi : lo + step;
			return step;
		}
		step = plot_nice_step(step * max_ticks * 1.01, max_ticks);
	}
	return step;
}

bool plot_times_log(double lo, double hi, double longest, char *why, size_t len)
{
	char a[32], b[32];
	if (len)
		why[0] = '\0';
	if (!(lo > 0 && hi >= lo))
		return false;
	if (hi >= 4 * lo) {
		snprintf(why, len, "targets %s-%s in view", fmt_ms(lo * 1e3, a, sizeof a), fmt_ms(hi * 1e3, b, sizeof b));
		return true;
	}
	if (longest > 4 * hi) {
		snprintf(why, len, "a dispatch of %s, %.0fx the target", fmt_ms(longest * 1e3, a, sizeof a), longest / hi);
		return true;
	}
	return false;
}
