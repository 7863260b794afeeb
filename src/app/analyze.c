/* analyze: --analyze FILE: level changes (with their causes), excursions and
 * the time to plateau of a session log or a CSV trace. */
#include "offline.h"
#include "outputs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "csvread.h"
#include "fileio.h"
#include "fmt.h"
#include "change.h"
#include "records.h"
#include "report.h"

/* A CSV file with t_ms and flops columns, and sm_mhz where it has one
 * (flopscope's own export; see csvread.h). */
static bool read_csv(const char *path, double **t, double **x, double (**tel)[TEL_FIELD_COUNT], size_t *n)
{
	char err[1024];
	size_t len;
	char *text = fileio_read(path, 1u << 30, &len, err, sizeof err);
	if (!text) {
		fprintf(stderr, "flopscope: %s\n", err);
		return false;
	}
	bool ok = csv_parse_trace(text, len, path, t, x, tel, n, err, sizeof err) == 0;
	if (!ok)
		fprintf(stderr, "flopscope: %s\n", err);
	free(text);
	return ok;
}

/* A log's steady samples, seen as it is read: the level changes found
 * online, the copy sizes counted (a sweep is no power-state series). */
typedef struct Scan {
	ChangeDetector cd;
	TelEvents ev;           /* the telemetry's events, over every sample */
	size_t sizes, steady;
	uint64_t last_size;
	uint32_t flags;
} Scan;

static void scan_sample(void *ctx, const Sample *s)
{
	Scan *c = ctx;
	televent_add(&c->ev, s);
	if (!c->steady && !c->sizes)
		c->flags = s->flags;
	if (s->size && s->size != c->last_size)
		c->sizes++;
	c->last_size = s->size;
	if (s->flags & SAMPLE_STEADY) {
		double tel[TEL_FIELD_COUNT];
		change_tel_of(s, tel);
		c->steady++;
		c->cd.memory = (s->flags & SAMPLE_BYTES) != 0;
		change_add(&c->cd, s->t_ms, s->rate, tel);
	}
}

/* A restart: the growth comes in between; a departure open then ends there. */
static void scan_restart(void *ctx)
{
	change_finish(&((Scan *)ctx)->cd);
}

/* Whether the samples' times t[0..n) only go forward: times that run
 * backwards (lines out of order, two sessions spliced) or a sample twice (a
 * duplicated line) are no trace of one session, and the plateau and the
 * changes would be computed from them silently; said with the sample. */
static bool in_order(const char *path, const double *t, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (t[i] > t[i - 1])
			continue;
		if (t[i] == t[i - 1])
			fprintf(stderr, "flopscope: %s: steady sample %zu is at %.3f ms as the one before it: a sample "
			        "given twice (a duplicated line?); not analysed\n", path, i + 1, t[i]);
		else
			fprintf(stderr, "flopscope: %s: the times run backwards at steady sample %zu (%.3f ms after %.3f "
			        "ms): lines out of order or sessions spliced; not analysed\n", path, i + 1, t[i], t[i - 1]);
		return false;
	}
	return true;
}

/* Prints a record on a line of its own and frees it. */
static void print_json(cJSON *j)
{
	json_line(stdout, j);
}

/* The file is read twice (its first byte tells a log from a CSV trace): a
 * FIFO or a device cannot be, nor an empty file. */
static bool analyzable(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "flopscope: cannot open %s: %s\n", path, strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "flopscope: --analyze: %s is not a regular file (a folder, FIFO or device)\n", path);
		return false;
	}
	if (st.st_size == 0) {
		fprintf(stderr, "flopscope: %s: empty file, neither a session log nor a CSV trace\n", path);
		return false;
	}
	return true;
}

/* A session log's steady samples, through the change detector and into
 * t, x (n): 0, the exit status (2 bad input, 1 no memory), or -1 for a
 * transfer sweep, said so. */
static int read_log(const Options *o, Scan *scan, double **t, double **x, size_t *n, const char **unit)
{
	SlogPick pick = offline_pick(o);
	SessionData d;
	SlogVisitor v = { .ctx = scan, .sample = scan_sample, .restart = scan_restart };
	if (!offline_load(o->analyze, &pick, &d, NULL, &v, 0))
		return 2;
	/* a replay reads such a log once each (said); a trace to analyse is
	 * refused, as times that run backwards are (in_order) */
	if (d.repeated) {
		fprintf(stderr, "flopscope: %s:%zu: a sample given twice or out of order (its seq repeats or goes back: a "
		        "duplicated line?, lines out of order or sessions spliced); not analysed\n", o->analyze,
		        d.first_repeated);
		session_data_done(&d);
		return 2;
	}
	*unit = sample_flags_unit(scan->flags);
	if (scan->sizes > 1) {
		/* levels that change with the copy size are not power states */
		printf("%s is a transfer sweep over %zu sizes: its level changes with the size, not the power "
		       "state; --replay FILE --headless gives the table by size, or record one size with --size\n",
		       o->analyze, scan->sizes);
		session_data_done(&d);
		return -1;
	}
	/* the plateau from the samples kept (all of them unless the log is long) */
	*t = malloc((d.n + 1) * sizeof **t);
	*x = malloc((d.n + 1) * sizeof **x);
	for (size_t i = 0; *t && *x && i < d.n; i++)
		if (d.samples[i].flags & SAMPLE_STEADY) {
			(*t)[*n] = d.samples[i].t_ms;
			(*x)[(*n)++] = d.samples[i].rate;
		}
	session_data_done(&d);
	if (!*t || !*x) {
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	return 0;
}

/* The changes, excursions and plateau found: JSON records, or lines. */
static void analyze_print(const Options *o, const Scan *scan, const char *unit, double plateau, double level,
                          size_t n)
{
	const ChangeDetector *cd = &scan->cd;
	size_t kept = change_kept(cd), ekept = change_excursions_kept(cd);
	char lv[FMT_SI_LEN];
if (o->format == FORMAT_JSON) {
	/* one object per change, oldest first, then each excursion, then the analysis */
	for (size_t i = kept; i-- > 0;)
		print_json(record_change_json(change_get(cd, i), cd->nchanges - 1 - i, unit));
	for (size_t i = ekept; i-- > 0;)
		print_json(record_excursion_json(change_excursion(cd, i), unit));
	for (size_t i = 0; i < scan->ev.n; i++)
		print_json(record_event_json(&scan->ev.ev[i], unit));
	cJSON *a = cJSON_CreateObject();
	bool ok = a && cJSON_AddStringToObject(a, "type", "analysis") && record_stamp(a) &&
	          cJSON_AddStringToObject(a, "unit", unit) &&
	          cJSON_AddNumberToObject(a, "samples", (double)scan->steady) &&
	          record_change_counts(a, cd) &&
	          cJSON_AddNumberToObject(a, "changes_listed", (double)kept) &&
	          cJSON_AddNumberToObject(a, "excursions_listed", (double)ekept) &&
	          cJSON_AddNumberToObject(a, "sustain_ms", CHG_SUSTAIN_MS) &&
	          cJSON_AddNumberToObject(a, "events", (double)scan->ev.total) &&
	          cJSON_AddBoolToObject(a, "plateau_reached", !isnan(plateau));
	if (ok && !isnan(plateau))
		ok = cJSON_AddNumberToObject(a, "plateau_t_ms", plateau) &&
		     cJSON_AddNumberToObject(a, "plateau_level", level);
	if (ok)
		print_json(a);
	else
		cJSON_Delete(a);
} else {
	report_changes(stdout, cd, unit, "", 0);
	for (size_t i = ekept; i-- > 0;) {
		char line[CHANGE_TEXT_LEN];
		change_format_excursion(change_excursion(cd, i), line, sizeof line);
		printf("  %s\n", line);
	}
	if (cd->nexc > ekept)
		printf("  (%zu earlier excursions not listed)\n", cd->nexc - ekept);
	report_events(stdout, &scan->ev, unit, "", 0);
	char pt[32];
	if (isnan(plateau))
		printf("plateau: not reached (%zu samples%s)\n", n, n < 6 ? ", too few" : "");
	else
		printf("plateau %s  %s%s\n", fmt_ms(plateau, pt, sizeof pt), fmt_si(level, lv, sizeof lv), unit);
}
}

int offline_analyze(const Options *o)
{
	double *t = NULL, *x = NULL, (*tel)[TEL_FIELD_COUNT] = NULL;
	size_t n = 0;
	if (!analyzable(o->analyze))
		return 2;
	FILE *f = fopen(o->analyze, "r");
	int c = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	const char *unit = "FLOPS";
	Scan *scan = calloc(1, sizeof *scan);
	if (!scan) {
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	change_init(&scan->cd);
	televent_init(&scan->ev);
	int rc = 0;
	if (c == '{') { /* a session log: its steady samples */
		rc = read_log(o, scan, &t, &x, &n, &unit);
	} else if (!read_csv(o->analyze, &t, &x, &tel, &n)) {
		rc = 2;
	} else {
		/* a CSV trace carries what its columns name (flopscope's export: the
		 * clock): with it a cause can be told, without it it is unexplained */
		for (size_t i = 0; i < n; i++) {
			change_add(&scan->cd, t[i], x[i], tel[i]);
			Sample s = { .t_ms = t[i], .rate = x[i] };
			for (int k = 0; k < TEL_FIELD_COUNT; k++)
				if (!isnan(tel[i][k])) {
					s.tel[k] = tel[i][k];
					s.tel_valid |= 1u << k;
				}
			televent_add(&scan->ev, &s);
		}
		scan->steady = n;
	}
	if (!rc && !in_order(o->analyze, t, n))
		rc = 2;
	if (!rc) {
		change_finish(&scan->cd);
		televent_finish(&scan->ev);
		double level;
		double plateau = change_time_to_plateau(t, x, n, &level);
		analyze_print(o, scan, unit, plateau, level, n);
	}
	free(scan);
	free(t);
	free(x);
	free(tel);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (outputs_stdout_failed())
		return 1;
	return 0;
}
