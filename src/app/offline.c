#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "csvread.h"
#include "fileio.h"
#include "jump.h"
#include "fmt.h"
#include "report.h"
#include "slogread.h"
#include "svg.h"
#include "plot.h"

/* Reads a log; warnings go to stderr. Returns false (message printed) when
 * nothing is usable. */
static bool load(const char *path, SessionData *d)
{
	char err[1024];
	if (slog_read(path, d, err, sizeof err) < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		return false;
	}
	if (d->warning[0])
		fprintf(stderr, "flopscope: warning: %s\n", d->warning);
	if (d->engine_error[0])
		fprintf(stderr, "flopscope: the recorded run ended in an error: %s\n", d->engine_error);
	return true;
}

static void summarise(const SessionData *d, SummaryResult *r, size_t *verified)
{
	Summary s;
	summary_init(&s);
	for (size_t i = 0; i < d->n; i++)
		summary_add(&s, &d->samples[i]);
	summary_result(&s, r);
	*verified = s.verified;
	summary_done(&s);
}

int offline_replay_table(const Options *o)
{
	SessionData d;
	if (!load(o->replay, &d))
		return 2;
	const SessionMeta *m = &d.meta;
	char line[1024];
	if (o->format == FORMAT_TABLE) {
		printf("Replay of %s (recorded %s on %s, flopscope %s)\n", o->replay, m->start_utc, m->host,
		       m->flopscope_version);
		printf("Using device:\n   %s (compute queue: %u, type: %s)\n", m->device, m->queue_family,
		       m->device_type);
		printf("Workload: %s, %llu FLOP per invocation, %u invocations per workgroup\n", m->workload,
		       (unsigned long long)m->flop_per_invocation, m->local_size);
		printf("Timing: %s; target %.3g ms per dispatch\n",
		       strcmp(m->timing, "gpu") ? "CPU wall time (no timestamps)"
		                                : "GPU timestamps (CPU wall time alongside)", m->target_ms);
		printf("\n%s", report_table_header);
	} else if (o->format == FORMAT_CSV) {
		fputs(report_csv_header, stdout);
	}
	for (size_t i = 0; i < d.n; i++) {
		if (o->format == FORMAT_TABLE)
			report_table_row(&d.samples[i], line, sizeof line);
		else if (o->format == FORMAT_CSV)
			report_csv_row(&d.samples[i], line, sizeof line);
		else if (!record_sample_json(&d.samples[i], line, sizeof line))
			continue;
		printf("%s\n", line);
	}
	SummaryResult r;
	size_t verified;
	summarise(&d, &r, &verified);
	if (o->format == FORMAT_JSON)
		record_summary_json(stdout, &r, 0, verified);
	else
		report_summary_text(o->format == FORMAT_TABLE ? stdout : stderr, &r, 0, verified, m->target_ms);
	session_data_done(&d);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* The SVG of a session, written whole (fileio_create/commit). */
static int write_svg(const char *out, const SessionData *d)
{
	FileTmp t;
	char err[4400];
	FILE *f = fileio_create(out, &t, err, sizeof err);
	if (!f) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 1;
	}
	char title[600];
	snprintf(title, sizeof title, "%s, %s, %s, target %.3g ms", d->meta.device, d->meta.workload,
	         d->meta.start_utc, d->meta.target_ms);
	Summary sum;
	summary_init(&sum);
	for (size_t i = 0; i < d->n; i++)
		summary_add(&sum, &d->samples[i]);
	bool ok = svg_write(f, title, d->samples, d->n, d->meta.target_ms, sum.jumps.jumps, sum.jumps.njumps);
	summary_done(&sum);
	if (!fileio_commit(f, &t, ok, err, sizeof err)) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 1;
	}
	return 0;
}

int offline_export(const Options *o)
{
	SessionData d;
	if (!load(o->export_file, &d))
		return 2;
	int rc = 0;
	if (o->svg) {
		rc = write_svg(o->svg, &d);
	} else {
		char line[512];
		fputs(report_csv_header, stdout);
		for (size_t i = 0; i < d.n; i++) {
			report_csv_row(&d.samples[i], line, sizeof line);
			printf("%s\n", line);
		}
		if (fflush(stdout) != 0) {
			fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(errno));
			rc = 1;
		}
	}
	session_data_done(&d);
	return rc;
}

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
	if (!load(o->compare[0], &a))
		return 2;
	if (!load(o->compare[1], &b)) {
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

/* A CSV file with t_ms and flops columns (see csvread.h). */
static bool read_csv(const char *path, double **t, double **x, size_t *n)
{
	char err[1024];
	size_t len;
	char *text = fileio_read(path, 1u << 30, &len, err, sizeof err);
	if (!text) {
		fprintf(stderr, "flopscope: %s\n", err);
		return false;
	}
	bool ok = csv_parse_series(text, len, path, t, x, n, err, sizeof err) == 0;
	if (!ok)
		fprintf(stderr, "flopscope: %s\n", err);
	free(text);
	return ok;
}

int offline_analyze(const Options *o)
{
	double *t = NULL, *x = NULL;
	size_t n = 0;
	FILE *f = fopen(o->analyze, "r");
	int c = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	const char *unit = "FLOPS";
	if (c == '{') { /* a session log: its steady samples */
		SessionData d;
		if (!load(o->analyze, &d))
			return 2;
		if (d.n)
			unit = sample_flags_unit(d.samples[0].flags);
		size_t sizes = 0;
		for (size_t i = 0; i < d.n; i++)
			if (d.samples[i].size && (!i || d.samples[i].size != d.samples[i - 1].size))
				sizes++;
		if (sizes > 1) {
			/* levels that change with the copy size are not power states */
			printf("%s is a transfer sweep over %zu sizes: its level changes with the size, not the power "
			       "state; --replay FILE --headless gives the table by size, or record one size with --size\n",
			       o->analyze, sizes);
			session_data_done(&d);
			return 0;
		}
		t = malloc((d.n + 1) * sizeof *t);
		x = malloc((d.n + 1) * sizeof *x);
		for (size_t i = 0; t && x && i < d.n; i++)
			if (d.samples[i].flags & SAMPLE_STEADY) {
				t[n] = d.samples[i].t_ms;
				x[n++] = d.samples[i].rate;
			}
		session_data_done(&d);
		if (!t || !x) {
			free(t);
			free(x);
			fprintf(stderr, "flopscope: out of memory\n");
			return 1;
		}
	} else if (!read_csv(o->analyze, &t, &x, &n)) {
		return 2;
	}
	JumpDetector jd;
	jump_init(&jd);
	for (size_t i = 0; i < n; i++)
		jump_add(&jd, t[i], x[i]);
	double level;
	double plateau = jump_time_to_plateau(t, x, n, &level);
	char line[256], lv[FMT_SI_LEN];
	for (size_t i = 0; i < jd.njumps; i++) {
		if (o->format == FORMAT_JSON) {
			cJSON *j = record_jump_json(&jd.jumps[i], i);
			char *text = j ? cJSON_PrintUnformatted(j) : NULL;
			if (text)
				printf("%s\n", text);
			cJSON_free(text);
			cJSON_Delete(j);
		} else {
			jump_format(&jd.jumps[i], unit, line, sizeof line);
			printf("%s\n", line);
		}
	}
	if (o->format == FORMAT_JSON) {
		if (isnan(plateau))
			printf("{\"type\":\"plateau\",\"reached\":false,\"samples\":%zu}\n", n);
		else
			printf("{\"type\":\"plateau\",\"reached\":true,\"t_ms\":%.17g,\"flops\":%.17g,\"samples\":%zu}\n",
			       plateau, level, n);
	} else if (isnan(plateau)) {
		printf("plateau: not reached (%zu samples%s)\n", n, n < 6 ? ", too few" : "");
	} else {
		printf("plateau %.1f ms  %s%s\n", plateau, fmt_si(level, lv, sizeof lv), unit);
	}
	free(t);
	free(x);
	return fflush(stdout) == 0 ? 0 : 1;
}
