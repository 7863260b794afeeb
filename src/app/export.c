/* export: --export FILE --csv | --svg OUT: a recorded session as CSV or SVG. */
#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "report.h"
#include "svg.h"

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
	if (!offline_load(o->export_file, &d))
		return 2;
	int rc = 0;
	char err[4400];
	if (o->svg && !fileio_may_replace(o->svg, o->export_file, o->force, err, sizeof err)) {
		fprintf(stderr, "flopscope: --svg: %s\n", err);
		rc = 2;
	} else if (o->svg) {
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
