#include "csvread.h"

#include <stdbool.h>

#include "fileio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 256

/* Splits line (modified) at commas into at most MAX_COLS fields. */
static int split(char *line, char **f)
{
	int n = 0;
	for (char *p = line;; p++) {
		if (n < MAX_COLS)
			f[n] = p;
		n++;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
	}
	return n < MAX_COLS ? n : MAX_COLS;
}

int csv_parse_series(const char *text, size_t len, const char *name, double **t, double **x, size_t *n,
                     char *err, size_t errlen)
{
	*t = *x = NULL;
	*n = 0;
	int ct = -1, cf = -1, cs = -1, rc = 0;
	size_t cap = 0, lineno = 0, pos = 0;
	char *line = NULL;
	size_t lcap = 0;
	while (rc == 0) {
		bool nl, oom;
		long got = fileio_next_line(text, len, &pos, &line, &lcap, &nl, &oom);
		if (got < 0) {
			if (oom) {
				snprintf(err, errlen, "%s: out of memory", name);
				rc = -1;
			}
			break;
		}
		size_t l = (size_t)got;
		lineno++;
		if (l && line[l - 1] == '\r')
			line[--l] = '\0';
		if (memchr(line, '\0', l)) {
			snprintf(err, errlen, "%s:%zu: not text (a NUL byte)", name, lineno);
			rc = -1;
			break;
		}
		if (!line[0] || line[0] == '#')
			continue;
		char *f[MAX_COLS];
		int nf = split(line, f);
		if (ct < 0) {
			for (int i = 0; i < nf; i++) {
				char *c = f[i];
				while (*c == ' ')
					c++;
				if (!strcmp(c, "t_ms")) ct = i;
				else if (!strcmp(c, "flops") || !strcmp(c, "rate")) cf = i;
				else if (!strcmp(c, "steady")) cs = i;
			}
			if (ct < 0 || cf < 0) {
				snprintf(err, errlen, "%s:%zu: the header has no t_ms and flops (or rate) columns", name, lineno);
				rc = -1;
			}
			continue;
		}
		int need = ct > cf ? ct : cf;
		if (cs > need)
			need = cs;
		if (nf <= need) {
			snprintf(err, errlen, "%s:%zu: too few columns (%d, need %d)", name, lineno, nf, need + 1);
			rc = -1;
			break;
		}
		double v[3];
		int cols[3] = { ct, cf, cs };
		for (int k = 0; k < 3 && rc == 0; k++) {
			if (cols[k] < 0) {
				v[k] = 1;
				continue;
			}
			char *end;
			v[k] = strtod(f[cols[k]], &end);
			if (end == f[cols[k]] || *end || !isfinite(v[k])) {
				snprintf(err, errlen, "%s:%zu: column %d is not a number: \"%.40s\"", name, lineno,
				         cols[k] + 1, f[cols[k]]);
				rc = -1;
			}
		}
		if (rc || !v[2])
			continue;
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			double *gt = realloc(*t, nc * sizeof *gt);
			if (gt)
				*t = gt;
			double *gx = gt ? realloc(*x, nc * sizeof *gx) : NULL;
			if (!gx) {
				snprintf(err, errlen, "%s: out of memory", name);
				rc = -1;
				break;
			}
			*x = gx;
			cap = nc;
		}
		(*t)[*n] = v[0];
		(*x)[(*n)++] = v[1];
	}
	free(line);
	if (rc == 0 && ct < 0) {
		snprintf(err, errlen, "%s: no header line with t_ms and flops", name);
		rc = -1;
	}
	if (rc) {
		free(*t);
		free(*x);
		*t = *x = NULL;
		*n = 0;
	}
	return rc;
}
