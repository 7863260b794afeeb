#include "csvread.h"

#include <stdbool.h>


#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 256

/* One record of RFC 4180 CSV at text[*pos..len): fields separated by
 * commas, a field in double quotes may hold commas, line breaks and "" for
 * a quote; the record ends at an unquoted LF or CRLF. The fields go into
 * buf (NUL-separated, *buf grown as needed), their starts into f. Returns
 * the number of fields, 0 at the end of the text, -1 with why (and the
 * record's first line in *lineno) in err. *lines: the lines it took. */
static int record(const char *text, size_t len, size_t *pos, char **buf, size_t *cap, size_t *off, size_t *lines,
                  char *err, size_t errlen)
{
	size_t i = *pos, n = 0;
	int nf = 0;
	*lines = 0;
	if (i >= len)
		return 0;
	bool more = true;
	while (more) {
		/* room for the rest of the record, at most: one pass grows it once */
		if (*cap < len - *pos + 2) {
			char *g = realloc(*buf, len - *pos + 2);
			if (!g) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			*buf = g;
			*cap = len - *pos + 2;
		}
		if (nf < MAX_COLS)
			off[nf] = n;
		nf++;
		if (i < len && text[i] == '"') {
			i++;
			for (;;) {
				if (i >= len) {
					snprintf(err, errlen, "a quoted field is not closed (an opening \" with no closing one)");
					return -1;
				}
				if (text[i] == '"') {
					if (i + 1 < len && text[i + 1] == '"') {
						(*buf)[n++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (text[i] == '\n')
					(*lines)++;
				(*buf)[n++] = text[i++];
			}
			if (i < len && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n') &&
			    !(text[i] == '\r' && i + 1 == len)) {
				snprintf(err, errlen, "text after a closing quote (\"%.1s\"): a quoted field ends at a comma or "
				         "the line's end", &text[i]);
				return -1;
			}
		} else {
			while (i < len && text[i] != ',' && text[i] != '\n') {
				if (text[i] == '"') {
					snprintf(err, errlen, "a \" inside an unquoted field (RFC 4180 quotes the whole field)");
					return -1;
				}
				if (text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n')) {
					i++; /* CRLF */
					continue;
				}
				(*buf)[n++] = text[i++];
			}
		}
		(*buf)[n++] = '\0';
		if (i < len && text[i] == '\r')
			i++;
		if (i >= len || text[i] == '\n') {
			more = false;
			if (i < len)
				i++;
			(*lines)++;
		} else {
			i++; /* the comma */
		}
	}
	*pos = i;
	return nf < MAX_COLS ? nf : MAX_COLS;
}

static char *trim(char *c)
{
	while (*c == ' ')
		c++;
	size_t l = strlen(c);
	while (l && c[l - 1] == ' ')
		c[--l] = '\0';
	return c;
}

/* The columns of a trace: t_ms, flops (or rate), steady and the telemetry
 * fields by their log names (tel_info[].key: sm_mhz, throttle,
 * other_gpu, ...); -1: none. */
typedef struct TraceCols {
	int t, f, s;
	int tel[TEL_FIELD_COUNT];
} TraceCols;

static bool trace_header(char **f, int nf, TraceCols *c)
{
	for (int i = 0; i < nf; i++) {
		char *name = trim(f[i]);
		if (!strcmp(name, "t_ms"))
			c->t = i;
		else if (!strcmp(name, "flops") || !strcmp(name, "rate"))
			c->f = i;
		else if (!strcmp(name, "steady"))
			c->s = i;
		for (int k = 0; k < TEL_FIELD_COUNT; k++)
			if (!strcmp(name, tel_info[k].key))
				c->tel[k] = i;
	}
	return c->t >= 0 && c->f >= 0;
}

/* A cell as a number into *v; an empty one (no reading) NaN where empty_ok. */
static int cell_num(char **f, int col, bool empty_ok, double *v, const char *name, size_t at, char *err, size_t errlen)
{
	char *end, *cell = trim(f[col]);
	if (empty_ok && !*cell) {
		*v = NAN;
		return 0;
	}
	*v = strtod(cell, &end);
	if (end == cell || *end || !isfinite(*v)) {
		snprintf(err, errlen, "%s:%zu: column %d is not a number: \"%.40s\"", name, at, col + 1, cell);
		return -1;
	}
	return 0;
}

/* A row's time, rate and steady flag (1 without the column) into v, its
 * telemetry into tel (NaN without the column or where its cell is empty:
 * no reading). */
static int trace_row(char **f, int nf, const TraceCols *c, double v[3], double tel[TEL_FIELD_COUNT],
                     const char *name, size_t at, char *err, size_t errlen)
{
	int need = c->t > c->f ? c->t : c->f;
	if (c->s > need)
		need = c->s;
	for (int k = 0; k < TEL_FIELD_COUNT; k++)
		if (c->tel[k] > need)
			need = c->tel[k];
	if (nf <= need) {
		snprintf(err, errlen, "%s:%zu: too few columns (%d, need %d)", name, at, nf, need + 1);
		return -1;
	}
	int cols[3] = { c->t, c->f, c->s };
	for (int k = 0; k < 3; k++) {
		v[k] = 1;
		if (cols[k] >= 0 && cell_num(f, cols[k], false, &v[k], name, at, err, errlen))
			return -1;
	}
	for (int k = 0; k < TEL_FIELD_COUNT; k++) {
		tel[k] = NAN;
		if (c->tel[k] >= 0 && cell_num(f, c->tel[k], true, &tel[k], name, at, err, errlen))
			return -1;
		if (!isnan(tel[k]) && !tel_plausible((TelField)k, tel[k])) /* none the hardware can read (tel_rows.h) */
			tel[k] = NAN;
	}
	return 0;
}

/* One more point of the series (and its telemetry, where asked), growing
 * the arrays by doubling. */
static int trace_add(double **t, double **x, double (**tel)[TEL_FIELD_COUNT], size_t *n, size_t *cap,
                     const double v[3], const double tv[TEL_FIELD_COUNT], const char *name, char *err, size_t errlen)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		double *gt = realloc(*t, nc * sizeof *gt);
		if (gt)
			*t = gt;
		double *gx = gt ? realloc(*x, nc * sizeof *gx) : NULL;
		if (gx)
			*x = gx;
		double(*gc)[TEL_FIELD_COUNT] = gx && tel ? realloc(*tel, nc * sizeof *gc) : NULL;
		if (gc)
			*tel = gc;
		if (!gx || (tel && !gc)) {
			snprintf(err, errlen, "%s: out of memory", name);
			return -1;
		}
		*cap = nc;
	}
	(*t)[*n] = v[0];
	if (tel)
		memcpy((*tel)[*n], tv, sizeof (*tel)[*n]);
	(*x)[(*n)++] = v[1];
	return 0;
}

int csv_parse_series(const char *text, size_t len, const char *name, double **t, double **x, size_t *n,
                     char *err, size_t errlen)
{
	return csv_parse_trace(text, len, name, t, x, NULL, n, err, errlen);
}

int csv_parse_trace(const char *text, size_t len, const char *name, double **t, double **x,
                    double (**tel)[TEL_FIELD_COUNT], size_t *n, char *err, size_t errlen)
{
	*t = *x = NULL;
	if (tel)
		*tel = NULL;
	*n = 0;
	TraceCols cols = { -1, -1, -1, { 0 } };
	for (int k = 0; k < TEL_FIELD_COUNT; k++)
		cols.tel[k] = -1;
	int rc = 0;
	size_t cap = 0, lineno = 1, pos = 0, bcap = 0, lines = 0;
	char *buf = NULL;
	size_t off[MAX_COLS];
	double last_t = -INFINITY;
	size_t last_line = 0;
	const char *z = memchr(text, '\0', len);
	if (z) {
		size_t l = 1;
		for (const char *p = text; p < z; p++)
			l += *p == '\n';
		snprintf(err, errlen, "%s:%zu: not text (a NUL byte)", name, l);
		return -1;
	}
	while (rc == 0) {
		size_t at = lineno;
		char why[200];
		int nf = record(text, len, &pos, &buf, &bcap, off, &lines, why, sizeof why);
		if (nf == 0)
			break;
		if (nf < 0) {
			snprintf(err, errlen, "%s:%zu: %s", name, at, why);
			rc = -1;
			break;
		}
		lineno += lines;
		char *f[MAX_COLS];
		for (int i = 0; i < nf; i++)
			f[i] = buf + off[i];
		/* blank lines and # comments */
		if ((nf == 1 && !*trim(f[0])) || f[0][0] == '#')
			continue;
		if (cols.t < 0) {
			if (!trace_header(f, nf, &cols)) {
				snprintf(err, errlen, "%s:%zu: the header has no t_ms and flops (or rate) columns", name, at);
				rc = -1;
			}
			continue;
		}
		double v[3], tv[TEL_FIELD_COUNT];
		if ((rc = trace_row(f, nf, &cols, v, tv, name, at, err, errlen)))
			break;
		/* a time series runs forward: a row before the last is an error
		 * (two traces pasted together, a clock reset), not a silent dip */
		if (v[0] < last_t) {
			snprintf(err, errlen, "%s:%zu: time runs backwards (t_ms %g after %g at line %zu): one trace a file, "
			         "in time order", name, at, v[0], last_t, last_line);
			rc = -1;
			break;
		}
		last_t = v[0];
		last_line = at;
		if (v[2])
			rc = trace_add(t, x, tel, n, &cap, v, tv, name, err, errlen);
	}
	free(buf);
	if (rc == 0 && cols.t < 0) {
		snprintf(err, errlen, "%s: no header line with t_ms and flops", name);
		rc = -1;
	}
	if (rc) {
		free(*t);
		free(*x);
		*t = *x = NULL;
		if (tel) {
			free(*tel);
			*tel = NULL;
		}
		*n = 0;
	}
	return rc;
}
