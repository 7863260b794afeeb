/* loglist: --logs: the sessions of the default log folder, newest first:
 * when, device, workload, median and samples from the summary record at
 * the session's end (or "cut short" without one), and the path; a row a
 * session (a suite's file holds several). Parses the session and summary
 * records only (slog_index). */
#include "offline.h"
#include "outputs.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "fmt.h"
#include "memwork.h"
#include "slog.h"

/* One row of the table; the columns are sized to the widest cell once all
 * are known, so that no device name is cut (as ls -l sizes its columns). */
typedef struct LogRow {
	char start[32], dev[256], workload[96], median[FMT_SI_LEN + 8], samples[24];
	char *path;
} LogRow;

typedef struct LogTable {
	LogRow *rows;
	size_t n, cap;
	bool oom;
} LogTable;

/* One session of a log (e NULL: a log that cannot be read): printed at
 * once as JSON, kept for the table. */
static void list_row(const Options *o, LogTable *t, const SlogEntry *e, const char *path, uint64_t bytes)
{
	char workload[96] = "?", dev[256] = "? (not readable)";
	if (!e && !bytes)
		snprintf(dev, sizeof dev, "? (empty: no line recorded)");
	if (e) {
		/* the suite table's short form: "d2h-cached (tq)" */
		snprintf(workload, sizeof workload, "%s%s", e->workload, e->transfer_queue ? " (tq)" : "");
		snprintf(dev, sizeof dev, "%s", e->device);
		fmt_printable(dev);
	}
	bool med = e && !isnan(e->median), cnt = e && !isnan(e->samples);
	if (o->format == FORMAT_JSON) {
		cJSON *j = cJSON_CreateObject();
		if (!j)
			return;
		cJSON_AddStringToObject(j, "type", "log");
		record_stamp(j);
		cJSON_AddStringToObject(j, "path", path);
		cJSON_AddStringToObject(j, "start_utc", e ? e->start_utc : "?");
		cJSON_AddStringToObject(j, "device", e ? e->device : "?");
		cJSON_AddStringToObject(j, "workload", e ? e->workload : "?");
		if (e && e->transfer_queue)
			cJSON_AddStringToObject(j, "queue", "transfer");
		if (med) {
			cJSON_AddNumberToObject(j, "median", e->median);
			cJSON_AddStringToObject(j, "unit", e->unit);
		}
		if (cnt)
			cJSON_AddNumberToObject(j, "samples", e->samples);
		cJSON_AddBoolToObject(j, "complete", e && e->complete);
		cJSON_AddNumberToObject(j, "bytes", (double)bytes);
		json_line(stdout, j);
		return;
	}
	if (t->n == t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 16;
		LogRow *g = realloc(t->rows, nc * sizeof *g);
		if (!g) {
			t->oom = true;
			return;
		}
		t->rows = g;
		t->cap = nc;
	}
	LogRow *r = &t->rows[t->n];
	r->path = strdup(path);
	if (!r->path) {
		t->oom = true;
		return;
	}
	t->n++;
	char v[FMT_SI_LEN];
	snprintf(r->start, sizeof r->start, "%s", e ? e->start_utc : "?");
	snprintf(r->dev, sizeof r->dev, "%s", dev);
	snprintf(r->workload, sizeof r->workload, "%s", workload);
	snprintf(r->median, sizeof r->median, "cut short");
	if (med)
		snprintf(r->median, sizeof r->median, "%s%s", fmt_si(e->median, v, sizeof v), e->unit);
	else if (!e || e->complete)
		snprintf(r->median, sizeof r->median, "-");
	snprintf(r->samples, sizeof r->samples, "-");
	if (cnt)
		snprintf(r->samples, sizeof r->samples, "%.0f", e->samples);
}

static int widest(const LogTable *t, size_t off, const char *head)
{
	size_t w = strlen(head);
	for (size_t i = 0; i < t->n; i++) {
		size_t k = strlen((const char *)&t->rows[i] + off);
		if (k > w)
			w = k;
	}
	return (int)w;
}

static void print_table(LogTable *t)
{
	int ws = widest(t, offsetof(LogRow, start), "start (UTC)");
	int wd = widest(t, offsetof(LogRow, dev), "device");
	int ww = widest(t, offsetof(LogRow, workload), "workload");
	int wm = widest(t, offsetof(LogRow, median), "median");
	int wn = widest(t, offsetof(LogRow, samples), "samples");
	printf("%-*s  %-*s  %-*s  %*s  %*s  %s\n", ws, "start (UTC)", wd, "device", ww, "workload", wm, "median", wn,
	       "samples", "log");
	for (size_t i = 0; i < t->n; i++) {
		LogRow *r = &t->rows[i];
		printf("%-*s  %-*s  %-*s  %*s  %*s  %s\n", ws, r->start, wd, r->dev, ww, r->workload, wm, r->median, wn,
		       r->samples, r->path);
		free(r->path);
	}
	free(t->rows);
}

int offline_list_logs(const Options *o)
{
	char dir[4096], why[4600];
	if (slog_default_dir(dir, sizeof dir) && !slog_private_dir(dir, false, why, sizeof why)) {
		fprintf(stderr, "flopscope: %s\n", why);
		return 1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT) {
			if (o->format == FORMAT_TABLE)
				printf("No session logs yet (%s does not exist).\n", dir);
			return 0;
		}
		fprintf(stderr, "flopscope: cannot read %s: %s\n", dir, strerror(errno));
		return 1;
	}
	closedir(d); /* it exists: list it */
	char **names;
	size_t n = slog_list_logs(dir, &names);
	int status = 0;
	uint64_t total = 0;
	LogTable table = { 0 };
	for (size_t k = n; k-- > 0;) { /* newest first */
		char path[4400];
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		struct stat st;
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		total += (uint64_t)st.st_size;
		SlogEntry *e = NULL;
		size_t ne = 0;
		char err[4600];
		if (st.st_size == 0) {
			/* a run killed before its first line: listed, empty; nothing
			 * was lost that the listing could show, so not an error */
		} else if (!slog_index(path, &e, &ne, err, sizeof err)) {
			/* listed, as unreadable: a log of the folder is never hidden */
			fprintf(stderr, "flopscope: %s\n", err);
			status = 1;
		}
		/* a suite's file: a row a session, newest first too */
		for (size_t i = ne ? ne : 1; i-- > 0;)
			list_row(o, &table, ne ? &e[i] : NULL, path, (uint64_t)st.st_size);
		free(e);
	}
	if (table.oom) {
		fprintf(stderr, "flopscope: --logs: out of memory\n");
		status = 1;
	}
	if (o->format == FORMAT_TABLE) {
		print_table(&table);
		char v[32], c[32] = "no size limit";
		if (o->log_cap)
			mem_size_str(o->log_cap, c, sizeof c);
		printf("%zu logs, %s in %s (kept: at most %u logs and %s; --log-keep, --log-cap)\n", n,
		       mem_size_str(total, v, sizeof v), dir, o->log_keep, c);
	}
	slog_free_list(names, n);
	if (outputs_stdout_failed())
		return 1;
	return status;
}
