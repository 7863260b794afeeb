#include "svg.h"

#include <math.h>
#include <string.h>

#include "fmt.h"

#define W 900
#define PANEL_H 230
#define LEFT 110
#define RIGHT 20
#define TOP 40

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

typedef struct Panel {
	double y0;          /* top of the plot area */
	double h;           /* its height */
	double xmin, xmax, ymin, ymax;
	bool log;
} Panel;

static double px(const Panel *p, double x)
{
	return LEFT + (x - p->xmin) / (p->xmax - p->xmin) * (W - LEFT - RIGHT);
}

static double py(const Panel *p, double y)
{
	double f = p->log ? (log10(y) - log10(p->ymin)) / (log10(p->ymax) - log10(p->ymin))
	                  : (y - p->ymin) / (p->ymax - p->ymin);
	return p->y0 + p->h - f * p->h;
}

typedef double (*Field)(const Sample *);
static double f_flops(const Sample *s) { return s->rate; }
static double f_groups(const Sample *s) { return (double)s->groups; }
static double f_gpu(const Sample *s) { return (s->flags & SAMPLE_GPU_TIMED) ? (double)s->gpu_ns * 1e-9 : NAN; }
static double f_cpu(const Sample *s) { return (double)s->cpu_ns * 1e-9; }

static void line(FILE *f, const Panel *p, const Sample *s, size_t n, Field get, const char *colour)
{
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"", colour);
	for (size_t i = 0; i < n; i++) {
		double v = get(&s[i]);
		if (isfinite(v) && (!p->log || v > 0))
			fprintf(f, "%.1f,%.1f ", px(p, s[i].t_ms * 1e-3), py(p, v));
	}
	fputs("\"/>\n", f);
}

static void axes(FILE *f, const Panel *p, const char *title, const char *unit)
{
	char a[FMT_SI_LEN];
	fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-weight=\"bold\">", LEFT, p->y0 - 8);
	esc(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<rect x=\"%d\" y=\"%.0f\" width=\"%d\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n",
	        LEFT, p->y0, W - LEFT - RIGHT, p->h);
	/* linear: five even ticks; log: one per decade */
	int ticks = p->log ? (int)lround(log10(p->ymax) - log10(p->ymin)) : 4;
	for (int i = 0; i <= ticks && i <= 24; i++) {
		double v = p->log ? p->ymin * pow(10, i) : p->ymin + i * (p->ymax - p->ymin) / 4;
		double y = py(p, v);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT, y,
		        W - RIGHT, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 6, y + 4);
		esc(f, fmt_si(v, a, sizeof a));
		esc(f, unit);
		fputs("</text>\n", f);
	}
	for (int i = 0; i <= 5; i++) {
		double t = p->xmin + i * (p->xmax - p->xmin) / 5;
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.2f s</text>\n", px(p, t),
		        p->y0 + p->h + 16, t);
	}
}

static void range(const Sample *s, size_t n, Field get, bool log, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++) {
		double v = get(&s[i]);
		if (!isfinite(v) || (log && !(v > 0)))
			continue;
		if (v < *lo) *lo = v;
		if (v > *hi) *hi = v;
	}
}

bool svg_write(FILE *f, const char *title, const Sample *s, size_t n, double target_ms,
               const ChangeDetector *changes)
{
	double t1 = n ? s[n - 1].t_ms * 1e-3 : 1;
	if (!(t1 > 0))
		t1 = 1;
	int height = TOP + 3 * (PANEL_H + 50);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	           "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
	           "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, height, W, height);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", LEFT);
	esc(f, title);
	fputs("</text>\n", f);

	Panel p[3];
	for (int i = 0; i < 3; i++)
		p[i] = (Panel){ TOP + 20 + i * (PANEL_H + 50), PANEL_H, 0, t1, 0, 1, false };
	double lo = INFINITY, hi = -INFINITY;
	range(s, n, f_flops, false, &lo, &hi);
	p[0].ymax = hi > 0 ? hi * 1.05 : 1;
	lo = INFINITY, hi = -INFINITY;
	range(s, n, f_groups, true, &lo, &hi);
	p[1].log = true;
	p[1].ymin = lo < INFINITY ? pow(10, floor(log10(lo))) : 1;
	p[1].ymax = hi > 0 ? pow(10, ceil(log10(hi))) : 10;
	if (p[1].ymax <= p[1].ymin)
		p[1].ymax = p[1].ymin * 10;
	lo = INFINITY, hi = -INFINITY;
	range(s, n, f_gpu, false, &lo, &hi);
	range(s, n, f_cpu, false, &lo, &hi);
	double tgt = target_ms * 1e-3;
	p[2].ymax = (hi > tgt ? hi : tgt) * 1.1;

	/* the samples' own unit: FLOPS, IOPS or B/s */
	const char *unit = n ? sample_unit(&s[0]) : "FLOPS";
	axes(f, &p[0], unit, unit);
	line(f, &p[0], s, n, f_flops, "#1a7f37");
	for (size_t j = 0; changes && j < change_kept(changes); j++) {
		const Change *c = change_get(changes, j);
		bool power = c->cause == CAUSE_POWER_STATE;
		const char *col = power ? "#cf222e" : "#8c959f";
		double x = px(&p[0], c->t_ms * 1e-3);
		char a[FMT_SI_LEN], b[FMT_SI_LEN];
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"%s\" "
		        "stroke-dasharray=\"4 3\"/>\n", x, p[0].y0, x, p[0].y0 + p[0].h, col);
		if (!power)
			continue;
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" fill=\"%s\">", x + 3, p[0].y0 + 12, col);
		esc(f, fmt_si(c->before, a, sizeof a));
		fputs("&#8594; ", f);
		esc(f, fmt_si(c->after, b, sizeof b));
		fputs("</text>\n", f);
	}
	/* a transfer's "groups" are copies per submission */
	axes(f, &p[1], n && s[0].size ? "copies per submission (log)" : "workgroups (log)", "");
	line(f, &p[1], s, n, f_groups, "#0969da");
	axes(f, &p[2], "dispatch time: GPU (orange), CPU (purple), target (red)", "s");
	line(f, &p[2], s, n, f_cpu, "#8250df");
	line(f, &p[2], s, n, f_gpu, "#bc4c00");
	double ty = py(&p[2], tgt);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#cf222e\" "
	        "stroke-dasharray=\"6 4\"/>\n", LEFT, ty, W - RIGHT, ty);
	fputs("</svg>\n", f);
	return !ferror(f);
}
