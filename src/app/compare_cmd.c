/* compare_cmd: --compare A B: two recorded sessions, a verdict and an overlay. */
#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "fmt.h"
#include "plot.h"

static double *steady(const SessionData *d, size_t *n)
{
	double *v = malloc((d->n ? d->n : 1) * sizeof *v);
	*n = 0;
	for (size_t i = 0; v && i < d->n; i++)
		if (d->samples[i].flags & SAMPLE_STEADY)
			v[(*n)++] = d->samples[i].rate;
	return v;
}

/* Both FLOPS curves on one Braille plot, A green and B magenta. */
static void overlay(const SessionData *a, const SessionData *b)
{
	enum { WC = 70, HC = 12 };
	PlotCanvas c;
	if (!plot_canvas_init(&c, WC, HC, true))
		return;
	const SessionData *sd[2] = { a, b };
	double tmax = 0, fmax = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sd[k]->n; i++) {
			if (sd[k]->samples[i].t_ms * 1e-3 > tmax) tmax = sd[k]->samples[i].t_ms * 1e-3;
			if (sd[k]->samples[i].rate > fmax) fmax = sd[k]->samples[i].rate;
		}
	PlotAxis ax = { 0, tmax > 0 ? tmax : 1, false }, ay = { 0, fmax > 0 ? fmax * 1.05 : 1, false };
	for (int k = 0; k < 2; k++) {
		double *x = malloc((sd[k]->n + 1) * sizeof *x), *y = malloc((sd[k]->n + 1) * sizeof *y);
		for (size_t i = 0; x && y && i < sd[k]->n; i++) {
			x[i] = sd[k]->samples[i].t_ms * 1e-3;
			y[i] = sd[k]->samples[i].rate;
		}
		if (x && y)
			plot_series(&c, &ax, &ay, x, y, sd[k]->n, k);
		free(x);
		free(y);
	}
	char lab[FMT_SI_LEN], cell[8];
	printf("\nFLOPS over time: \033[32mA\033[0m, \033[35mB\033[0m\n");
	for (int r = 0; r < HC; r++) {
		if (r == 0)
			printf("%8sFLOPS|", fmt_si(ay.max, lab, sizeof lab));
		else if (r == HC - 1)
			printf("%13s|", "0");
		else
			printf("%13s|", "");
		for (int col = 0; col < WC; col++) {
			plot_cell(&c, col, r, cell);
			int sid = c.series[(size_t)r * WC + col];
			printf("%s%s%s", sid == 1 ? "\033[32m" : sid == 2 ? "\033[35m" : "", cell, sid ? "\033[0m" : "");
		}
		putchar('\n');
	}
	printf("%14s0 s%*s%.1f s\n", "", WC - 8, "", ax.max);
	plot_canvas_done(&c);
}

int offline_compare(const Options *o)
{
	SessionData a, b;
	if (!offline_load(o->compare[0], &a, NULL, NULL))
		return 2;
	if (!offline_load(o->compare[1], &b, NULL, NULL)) {
		session_data_done(&a);
		return 2;
	}
	size_t na, nb;
	double *va = steady(&a, &na), *vb = steady(&b, &nb);
	CompareResult r;
	int rc = 0;
	if (!va || !vb || !compare_run(va, na, vb, nb, &r)) {
		fprintf(stderr, "flopscope: --compare needs at least 2 samples at the target time in each "
		        "session (A has %zu, B has %zu)\n", na, nb);
		rc = 2;
		goto out;
	}
	char s1[FMT_SI_LEN], s2[FMT_SI_LEN];
	printf("A: %s\n   %s, %s, target %.3g ms\n", o->compare[0], a.meta.device, a.meta.start_utc, a.meta.target_ms);
	printf("B: %s\n   %s, %s, target %.3g ms\n\n", o->compare[1], b.meta.device, b.meta.start_utc, b.meta.target_ms);
	printf("%-22s %14s %14s\n", "FLOPS at target", "A", "B");
	const Stats *sa = &r.a, *sb = &r.b;
#define ROW(name, x, y) printf("%-22s %13sFLOPS %13sFLOPS\n", name, fmt_si(x, s1, sizeof s1), fmt_si(y, s2, sizeof s2))
	printf("%-22s %14zu %14zu\n", "samples", sa->n, sb->n);
	ROW("median", sa->median, sb->median);
	ROW("mean", sa->mean, sb->mean);
	ROW("95% CI of the mean +-", sa->ci95, sb->ci95);
	ROW("std", sa->std, sb->std);
	ROW("min", sa->min, sb->min);
	ROW("max", sa->max, sb->max);
#undef ROW
	printf("\nratio of medians B/A: %.4f (95%% bootstrap CI %.4f .. %.4f)\n", r.ratio, r.ratio_lo, r.ratio_hi);
	printf("Mann-Whitney U test: U = %.0f, p = %.3g\n", r.u, r.p);
	if (r.verdict == COMPARE_FASTER)
		printf("verdict: B is faster than A by %.1f%%\n", 100 * (r.ratio - 1));
	else if (r.verdict == COMPARE_SLOWER)
		printf("verdict: B is slower than A by %.1f%%\n", 100 * (1 - r.ratio));
	else
		printf("verdict: indistinguishable (p = %.3g; the interval of the ratio %s 1)\n", r.p,
		       r.ratio_lo <= 1 && r.ratio_hi >= 1 ? "contains" : "is near");
	if (isatty(STDOUT_FILENO))
		overlay(&a, &b);
out:
	free(va);
	free(vb);
	session_data_done(&a);
	session_data_done(&b);
	return rc;
}
