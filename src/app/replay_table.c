/* replay_table: --replay FILE --headless: a recorded session as the table it
 * printed, with its summary. */
#include "offline.h"
#include "outputs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "multi.h"
#include "report.h"

/* The table is printed as the log is read: memory stays bounded however
 * long the session was. */
typedef struct Table {
	const Options *o;
	const SessionData *d;
	bool header;
	size_t restarts;
	char ident[REPORT_CSV_IDENT_LEN]; /* the CSV rows' identity columns */
} Table;

static void header(Table *t)
{
	if (t->header)
		return;
	t->header = true;
	const SessionMeta *m = &t->d->meta;
	if (t->o->format == FORMAT_TABLE) {
		printf("Replay of %s (recorded %s on %s, flopscope %s)\n", t->o->replay, m->start_utc, m->host,
		       m->flopscope_version);
		printf("Using device:\n   %s (compute queue: %u, type: %s)\n", m->device, m->queue_family,
		       m->device_type);
		printf("Workload: %s, %llu FLOP per invocation, %u invocations per workgroup\n", m->workload,
		       (unsigned long long)m->flop_per_invocation, m->local_size);
		char tms[32];
		printf("Timing: %s; target %s per dispatch\n",
		       strcmp(m->timing, "gpu") ? "CPU wall time (no timestamps)"
		                                : "GPU timestamps (CPU wall time alongside)", fmt_ms(m->target_ms, tms, sizeof tms));
		printf("\n%s", report_table_header);
	} else if (t->o->format == FORMAT_CSV) {
		fputs(report_csv_header(), stdout);
		report_csv_identity(m, t->ident, sizeof t->ident);
	}
}

static void row(void *ctx, const Sample *s)
{
	Table *t = ctx;
	char line[REPORT_CSV_ROW_LEN];
	header(t);
	if (t->o->format == FORMAT_JSON) {
		json_line(stdout, record_sample_obj(s, 0));
		return;
	}
	if (t->o->format == FORMAT_TABLE)
		report_table_row(s, line, sizeof line);
	else
		report_csv_row(s, t->d->meta.ordinal, t->ident, line, sizeof line);
	printf("%s\n", line);
}

static void restart(void *ctx)
{
	Table *t = ctx;
	header(t);
	t->restarts++;
	if (t->o->format == FORMAT_TABLE)
		printf("-- restarted (r): a new segment begins; the summary covers every segment --\n");
	else if (t->o->format == FORMAT_JSON)
		json_line(stdout, record_mark_obj("restart", NAN, NAN));
}

static void gap(void *ctx, double t_ms, double gap_ms)
{
	Table *t = ctx;
	header(t);
	char at[24];
	if (t->o->format == FORMAT_TABLE)
		printf("-- stopped at %s for %.1f s (SIGSTOP or Ctrl-Z): not measured --\n", fmt_at_ms(t_ms, at, sizeof at),
		       gap_ms * 1e-3);
	else if (t->o->format == FORMAT_JSON)
		json_line(stdout, record_mark_obj("gap", t_ms, gap_ms));
}

int offline_replay_table(const Options *o)
{
	SlogPick pick = offline_pick(o);
	SessionData d;
	Summary sum;
	Table t = { .o = o, .d = &d };
	SlogVisitor v = { .ctx = &t, .sample = row, .restart = restart, .gap = gap };
	if (!offline_load(o->replay, &pick, &d, &sum, &v, OFFLINE_KEEP_NONE))
		return 2;
	header(&t);
	SummaryResult r;
	size_t verified;
	offline_summarise(&sum, &d, &r, &verified);
	if (o->format == FORMAT_JSON)
		record_summary_json(stdout, &r, 0, verified);
	else
		report_summary_text(o->format == FORMAT_TABLE ? stdout : stderr, &r, 0, verified, d.meta.target_ms);
	summary_done(&sum);
	session_data_done(&d);
	if (outputs_stdout_failed())
		return 1;
	return 0;
}

/* --replay A B ...: the logs of several devices side by side, as the table a
 * multi-device run prints: a row per log (median, % of peak, % of its
 * identical peers' median, checks, power-state changes) and the outlier
 * rule. Says whether the logs are one run (the same node id) or not. */
/* The table of n logs read (d), their summaries (r) and checked samples. */
int offline_node_table(const Options *o, const SessionData *d, const SummaryResult *r, const size_t *verified,
                       size_t n)
{
	size_t perm[CLI_MAX_DEVICES];
	const SessionMeta *metas[CLI_MAX_DEVICES] = { NULL };
	DeviceRow *rows = calloc(n, sizeof *rows);
	if (!rows) {
		fprintf(stderr, "flopscope: out of memory for %zu logs\n", n);
		return 1;
	}
	/* one run: in its devices' order */
	for (size_t k = 0; k < n; k++)
		metas[k] = &d[k].meta;
	bool one_run = slog_node_order(metas, n, perm);
	for (size_t k = 0; k < n; k++)
		rows[k] = (DeviceRow){ d[perm[k]].meta.device, &r[perm[k]], verified[perm[k]], NULL, 0, NULL, 0, &d[perm[k]].meta };
	const char *unit = d[0].meta.unit[0] ? d[0].meta.unit : "FLOPS";
	for (size_t k = 1; k < n; k++)
		if (strcmp(d[k].meta.unit[0] ? d[k].meta.unit : "FLOPS", unit) && !o->force) {
			fprintf(stderr, "flopscope: %s is in %s, %s in %s: one table holds one unit (--force shows them "
			        "anyway)\n", o->replays[0], unit, o->replays[k], d[k].meta.unit);
			free(rows);
			return 2;
		}
	if (o->format == FORMAT_TABLE) {
		if (one_run)
			printf("Replay of %zu devices measured together (run %s, %u devices then), %s:\n", n,
			       d[0].meta.node, d[0].meta.devices, d[0].meta.workload);
		else
			printf("Replay of %zu logs side by side (not one run: their node ids differ or are absent), %s:\n",
			       n, d[0].meta.workload);
		for (size_t k = 0; k < n; k++) {
			const SessionMeta *m = &d[perm[k]].meta;
			printf("  %zu: %s (%s, recorded %s on %s)%s%s\n", k + 1, o->replays[perm[k]], m->device, m->start_utc,
			       m->host, strcmp(m->workload, d[0].meta.workload) ? ", " : "",
			       strcmp(m->workload, d[0].meta.workload) ? m->workload : "");
		}
	}
	int wl = workload_find(d[0].meta.workload);
	multi_print_table(stdout, o->format == FORMAT_JSON, rows, n, unit, o->outlier_pct,
	                  one_run && wl >= 0 && workload_uses_host((WorkloadType)wl));
	free(rows);
	return outputs_stdout_failed() ? 1 : 0;
}

bool offline_node_load(const Options *o, SessionData *d, SummaryResult *r, size_t *verified, size_t keep_max)
{
	SlogPick pick = offline_pick(o);
	for (size_t k = 0; k < o->nreplays; k++) {
		Summary sum;
		if (!offline_load(o->replays[k], &pick, &d[k], &sum, NULL, keep_max)) {
			while (k-- > 0)
				session_data_done(&d[k]);
			return false;
		}
		offline_summarise(&sum, &d[k], &r[k], &verified[k]);
		summary_done(&sum);
	}
	return true;
}

int offline_replay_node_table(const Options *o)
{
	size_t n = o->nreplays;
	if (o->format == FORMAT_CSV) {
		fprintf(stderr, "flopscope: --format csv does not apply to several replays (they print a table "
		        "or JSON Lines; --replay FILE --format csv gives one log's samples)\n");
		return 2;
	}
	SessionData *d = calloc(n, sizeof *d);
	SummaryResult *r = calloc(n, sizeof *r);
	size_t verified[CLI_MAX_DEVICES];
	int status = 2;
	if (!d || !r) {
		fprintf(stderr, "flopscope: out of memory for %zu logs\n", n);
		status = 1;
	} else if (offline_node_load(o, d, r, verified, OFFLINE_KEEP_NONE)) {
		status = offline_node_table(o, d, r, verified, n);
		for (size_t k = 0; k < n; k++)
			session_data_done(&d[k]);
	}
	free(d);
	free(r);
	return status;
}
