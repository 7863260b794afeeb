/* replay_table: --replay FILE --headless: a recorded session as the table it
 * printed, with its summary. */
#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "report.h"

/* The table is printed as the log is read: memory stays bounded however
 * long the session was. */
typedef struct Table {
	const Options *o;
	const SessionData *d;
	bool header;
	size_t restarts;
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
		printf("Timing: %s; target %.3g ms per dispatch\n",
		       strcmp(m->timing, "gpu") ? "CPU wall time (no timestamps)"
		                                : "GPU timestamps (CPU wall time alongside)", m->target_ms);
		printf("\n%s", report_table_header);
	} else if (t->o->format == FORMAT_CSV) {
		fputs(report_csv_header, stdout);
	}
}

static void row(void *ctx, const Sample *s)
{
	Table *t = ctx;
	char line[1024];
	header(t);
	if (t->o->format == FORMAT_TABLE)
		report_table_row(s, line, sizeof line);
	else if (t->o->format == FORMAT_CSV)
		report_csv_row(s, line, sizeof line);
	else if (!record_sample_json(s, line, sizeof line))
		return;
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
		printf("{\"type\":\"restart\"}\n");
}

static void gap(void *ctx, double t_ms, double gap_ms)
{
	Table *t = ctx;
	header(t);
	if (t->o->format == FORMAT_TABLE)
		printf("-- stopped at %.1f ms for %.1f s (SIGSTOP or Ctrl-Z): not measured --\n", t_ms, gap_ms * 1e-3);
	else if (t->o->format == FORMAT_JSON)
		printf("{\"type\":\"gap\",\"t_ms\":%.17g,\"gap_ms\":%.17g}\n", t_ms, gap_ms);
}

int offline_replay_table(const Options *o)
{
	SessionData d;
	Summary sum;
	Table t = { .o = o, .d = &d };
	SlogVisitor v = { &t, row, restart, gap };
	if (!offline_load(o->replay, &d, &sum, &v, OFFLINE_KEEP_NONE))
		return 2;
	header(&t);
	SummaryResult r;
	size_t verified;
	offline_summarise(&sum, &r, &verified);
	if (o->format == FORMAT_JSON)
		record_summary_json(stdout, &r, 0, verified);
	else
		report_summary_text(o->format == FORMAT_TABLE ? stdout : stderr, &r, 0, verified, d.meta.target_ms);
	summary_done(&sum);
	session_data_done(&d);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
