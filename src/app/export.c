/* export: --export FILE --csv | --svg OUT: a recorded session as CSV or SVG. */
#include "offline.h"
#include "outputs.h"
#include "fmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "burn_remake.h"
#include "fileio.h"
#include "report.h"
#include "svg.h"

/* An output written whole: a temporary (fileio_create) that out_close
 * renames over OUT when ok. NULL with why said. */
static FILE *out_open(const char *out, bool force, FileTmp *t)
{
	char err[4400];
	FILE *f = fileio_create(out, FILE_NEW, force, t, err, sizeof err);
	if (!f)
		fprintf(stderr, "flopscope: %s\n", err);
	return f;
}

/* 0, or 1 with why said (f NULL: out_open said it). */
static int out_close(FILE *f, FileTmp *t, bool ok)
{
	char err[4400];
	if (!f)
		return 1;
	if (!fileio_commit(f, t, ok, err, sizeof err)) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 1;
	}
	return 0;
}

/* The SVG of a session. */
static bool draw_session(FILE *f, const SessionData *d, const Summary *sum)
{
	char title[600], targets[200];
	svg_targets_str(d->samples, d->n, d->meta.target_ms, targets, sizeof targets);
	if (snprintf(title, sizeof title, "%s, %s, %s, %s", d->meta.device, d->meta.workload, d->meta.start_utc,
	             targets) < 0)
		title[0] = '\0';
	SummaryResult r;
	summary_result(sum, &r);
	return svg_write(f, title, d->samples, d->n, d->meta.target_ms, &r);
}

/* Several sweeps in one SVG chart by copy size, a line a log: each log
 * must be a sweep (its samples name a copy size) of one unit. */
static int write_sweeps(const Options *o, const SlogPick *pick)
{
	unsigned n = o->nexports;
	SessionData *d = calloc(n, sizeof *d);
	Summary *sum = calloc(n, sizeof *sum);
	SummaryResult *res = calloc(n, sizeof *res);
	SvgSweep *sw = calloc(n, sizeof *sw);
	char (*label)[200] = calloc(n, sizeof *label);
	int rc = 0;
	unsigned loaded = 0;
	const char *unit0 = ""; /* the first log's unit: every other's */
	if (!d || !sum || !res || !sw || !label) {
		fprintf(stderr, "flopscope: --export: out of memory\n");
		rc = 1;
	}
	for (unsigned i = 0; !rc && i < n; i++) {
		if (!offline_load(o->exports[i], pick, &d[i], &sum[i], NULL, 0)) {
			rc = 2;
			break;
		}
		loaded++;
		const char *unit = d[i].n ? sample_unit(&d[i].samples[0]) : "";
		if (!d[i].n || !d[i].samples[0].size) {
			fprintf(stderr, "flopscope: --export %s: its session (%s) is not a sweep of copy sizes: several logs "
			        "are drawn only as sweeps in one chart by size (one log: --export FILE --svg OUT)\n",
			        o->exports[i], d[i].meta.workload);
			rc = 2;
		} else if (!i) {
			unit0 = unit;
		} else if (strcmp(unit, unit0)) {
			fprintf(stderr, "flopscope: --export %s: its unit is %s, %s's %s\n", o->exports[i], unit,
			        o->exports[0], unit0);
			rc = 2;
		}
	}
	if (!rc) {
		/* a line's name: the workload and queue; the device too where
		 * the logs' devices differ */
		bool one_dev = true;
		for (unsigned i = 1; i < n; i++)
			one_dev = one_dev && !strcmp(d[i].meta.device, d[0].meta.device);
		for (unsigned i = 0; i < n; i++) {
			snprintf(label[i], sizeof label[i], "%s%s%s%s", d[i].meta.workload,
			         !strcmp(d[i].meta.queue, "transfer") ? " (transfer queue)" : "", one_dev ? "" : ", ",
			         one_dev ? "" : d[i].meta.device);
			fmt_printable(label[i]);
			summary_result(&sum[i], &res[i]);
			sw[i] = (SvgSweep){ label[i], &res[i] };
		}
		char title[600];
		snprintf(title, sizeof title, "%s, %u sweeps of copy sizes, from %s", one_dev ? d[0].meta.device
		         : "several devices", n, d[0].meta.start_utc);
		FileTmp t;
		FILE *f = out_open(o->svg, o->force, &t);
		rc = out_close(f, &t, f && svg_write_sweeps(f, title, sw, n, unit0));
	}
	for (unsigned i = 0; i < loaded; i++) {
		session_data_done(&d[i]);
		summary_done(&sum[i]);
	}
	free(d);
	free(sum);
	free(res);
	free(sw);
	free(label);
	return rc;
}

/* CSV rows as the log is read: every sample, in bounded memory; the header
 * with the first (a log refused writes nothing). */
typedef struct CsvOut {
	FILE *f;
	bool head;
	const SessionData *d;   /* its session record, read before any sample */
	char ident[REPORT_CSV_IDENT_LEN];
} CsvOut;

static void csv_head(CsvOut *c)
{
	if (!c->head)
		fputs(report_csv_header(), c->f);
	c->head = true;
}

static void csv_row(void *ctx, const Sample *s)
{
	CsvOut *c = ctx;
	char line[REPORT_CSV_ROW_LEN];
	if (!c->head)
		report_csv_identity(&c->d->meta, c->ident, sizeof c->ident);
	report_csv_row(s, c->d->meta.ordinal, c->ident, line, sizeof line);
	csv_head(ctx);
	fprintf(((CsvOut *)ctx)->f, "%s\n", line);
}

int offline_export(const Options *o)
{
	SlogPick pick = offline_pick(o);
	char err[4400];
	/* the outputs were held against the input and the rules up front (outputs_check) */
	SessionData d;
	Summary sum;
	int rc = 0;
	if (o->report)
		return burn_remake(o);
	if (o->svg && o->nexports > 1)
		return write_sweeps(o, &pick);
	if (o->svg) {
		if (!offline_load(o->export_file, &pick, &d, &sum, NULL, 0))
			return 2;
		FileTmp t;
		FILE *f = out_open(o->svg, o->force, &t);
		rc = out_close(f, &t, f && draw_session(f, &d, &sum));
		summary_done(&sum);
	} else {
		/* standard output, or the file written whole (temporary, then renamed) */
		FileTmp t;
		FILE *f = o->csv_out ? fileio_create(o->csv_out, FILE_NEW, o->force, &t, err, sizeof err) : stdout;
		if (!f) {
			fprintf(stderr, "flopscope: %s\n", err);
			return 1;
		}
		CsvOut c = { f, false, &d, "" };
		SlogVisitor v = { .ctx = &c, .sample = csv_row };
		bool loaded = offline_load(o->export_file, &pick, &d, NULL, &v, OFFLINE_KEEP_NONE);
		if (loaded)
			csv_head(&c); /* a log without samples: the header alone */
		if (o->csv_out) {
			if (!fileio_commit(f, &t, loaded, err, sizeof err)) {
				if (loaded)
					fprintf(stderr, "flopscope: %s\n", err);
				rc = 1;
			}
		} else if (outputs_stdout_failed()) {
			rc = 1;
		}
		if (!loaded)
			return 2;
	}
	session_data_done(&d);
	return rc;
}
