#include "svg_draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

const char *const svg_colours[SVG_COLOURS] = { "#1a7f37", "#0969da", "#bc4c00", "#8250df",
                                               "#cf222e", "#1b7c83", "#4d2d00", "#57606a" };

/* s as XML character data: the five specials escaped, and (fmt_printable)
 * control characters and bytes that are not UTF-8 as '?': a device name
 * from a log with a stray Latin-1 byte made the SVG invalid XML. */
void svg_esc(FILE *f, const char *raw)
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
void svg_label(FILE *f, double x, double y, const char *anchor, int px, const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>", x, y, anchor, px,
	        extra && *extra ? " " : "", extra ? extra : "");
	svg_esc(f, s);
	fputs("</text>\n", f);
}

/* s cut to what fits in width px at size px (an ellipsis of three dots
 * marks the cut), into out. */
const char *svg_fit(const char *s, double width, int px, char *out, size_t len)
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


double svg_px(const SvgPanel *p, double x)
{
	if (p->x.log) /* the chart by size */
		return SVG_LEFT + (log(x) - log(p->x.min)) / (log(p->x.max) - log(p->x.min)) * SVG_PLOT_W;
	return SVG_LEFT + (x - p->x.min) / (p->x.max - p->x.min) * SVG_PLOT_W;
}

double svg_py(const SvgPanel *p, const PlotAxis *a, double v)
{
	double f = a->log ? (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min)) : (v - a->min) / (a->max - a->min);
	return p->y0 + p->h - f * p->h;
}


/* The panel's title and, on the line below, its legend: a short line of
 * each series' style and its name. Returns the plot area's top. */
double svg_header(FILE *f, double y, const char *title, const SvgLegend *lg, size_t n)
{
	svg_label(f, SVG_LEFT, y, "start", 13, "font-weight=\"bold\"", title);
	double x = SVG_LEFT;
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n", x, y + 13, x + 22, y + 13,
		        lg[k].style);
		svg_label(f, x + 27, y + 17, "start", 11, NULL, lg[k].name);
		x += 27 + svg_text_width(strlen(lg[k].name), 11) + 18;
	}
	return y + 28;
}

/* The frame, the y ticks of axis a (left, or right when right), and the
 * time ticks under the plot (left axis only). */
void svg_frame(FILE *f, const SvgPanel *p, const PlotAxis *a, const char *unit, bool right, double step)
{
	char v[FMT_SI_LEN], lab[64];
	if (!right) {
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n",
		        SVG_LEFT, p->y0, SVG_PLOT_W, p->h);
		double tstep = plot_nice_step(p->x.max - p->x.min, 10);
		for (double t = p->x.min; !p->x.log && t <= p->x.max + tstep * 1e-6; t += tstep) {
			snprintf(lab, sizeof lab, "%g s", fabs(t) < tstep * 1e-6 ? 0.0 : t);
			svg_label(f, svg_px(p, t), p->y0 + p->h + 18, "middle", SVG_TICK_PX, NULL, lab);
		}
	}
	/* linear: the round steps; log: one tick a decade */
	int ticks = a->log ? (int)lround(log10(a->max) - log10(a->min)) : (int)lround((a->max - a->min) / step);
	for (int i = 0; i <= ticks && i <= 24; i++) {
		double val = a->log ? a->min * pow(10, i) : a->min + i * step;
		double y = svg_py(p, a, val);
		if (!right)
			fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", SVG_LEFT, y,
			        SVG_W - SVG_RIGHT, y);
		snprintf(lab, sizeof lab, "%s%s", fabs(val) < step * 1e-9 ? "0 " : fmt_si(val, v, sizeof v), unit);
		svg_label(f, right ? SVG_W - SVG_RIGHT + 6 : SVG_LEFT - 6, y + 4, right ? "start" : "end", SVG_TICK_PX, NULL, lab);
	}
}

/* text in lines of at most width, broken at spaces (a word longer than a
 * line is broken where it must be); at most max lines into lines; how many */
size_t svg_wrap(const char *s, double width, int px, char lines[][200], size_t max)
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

/* The title whole, on as many lines as it takes; returns the y under it. */
double svg_title_lines(FILE *f, const char *title)
{
	char tl[3][200];
	size_t ntl = svg_wrap(title, SVG_PLOT_W, 15, tl, 3);
	for (size_t k = 0; k < ntl; k++)
		svg_label(f, SVG_LEFT, 24 + 19 * (double)k, "start", 15, "font-weight=\"bold\"", tl[k]);
	return 40 + 19 * (double)(ntl ? ntl - 1 : 0);
}

/* The document: its content first, to know the height the header states. */
bool svg_document(FILE *f, SvgDraw draw, const void *ctx, bool declaration)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return false;
	double height = draw(m, ctx);
	bool ok = !ferror(m);
	if (fclose(m) != 0)
		ok = false;
	int h = (int)ceil(height);
	if (declaration)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	           "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
	           "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", SVG_W, h, SVG_W, h);
	if (buf)
		fwrite(buf, 1, len, f);
	free(buf);
	fputs("</svg>\n", f);
	return ok && !ferror(f);
}

