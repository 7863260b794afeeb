/* offline: what every offline command shares. */
#include "offline.h"

#include <stdio.h>
#include <string.h>

/* The summary of the last run, kept as the log is read (every sample, not
 * the ones kept for a plot), then what the caller sees. */
typedef struct Chain {
	Summary *sum;
	const SlogVisitor *also;
} Chain;

static void on_sample(void *ctx, const Sample *s)
{
	Chain *c = ctx;
	if (c->sum)
		summary_add(c->sum, s);
	if (c->also && c->also->sample)
		c->also->sample(c->also->ctx, s);
}

static void on_restart(void *ctx)
{
	Chain *c = ctx;
	if (c->sum)
		summary_restart(c->sum); /* the summary covers every segment */
	if (c->also && c->also->restart)
		c->also->restart(c->also->ctx);
}

static void on_gap(void *ctx, double t_ms, double gap_ms)
{
	Chain *c = ctx;
	if (c->sum)
		summary_add_gap(c->sum, gap_ms);
	if (c->also && c->also->gap)
		c->also->gap(c->also->ctx, t_ms, gap_ms);
}

static void on_window(void *ctx, const struct BurnWindow *w)
{
	Chain *c = ctx;
	if (c->also && c->also->window)
		c->also->window(c->also->ctx, w);
}

SlogPick offline_pick(const Options *o)
{
	return (SlogPick){ .workload = o->workload, .transfer_queue = o->transfer_queue };
}

bool offline_load(const char *path, const SlogPick *pick, SessionData *d, Summary *sum, const SlogVisitor *also,
                  size_t keep_max)
{
	char err[1024];
	Chain c = { sum, also };
	SlogVisitor v = { .ctx = &c, .sample = on_sample, .restart = on_restart, .gap = on_gap, .window = on_window };
	if (sum)
		summary_init(sum);
	if (slog_read_visit(path, pick, &v, keep_max, d, err, sizeof err) < 0) {
		if (sum)
			summary_done(sum);
		fprintf(stderr, "flopscope: %s\n", err);
		return false;
	}
	if (sum)
		summary_finish(sum); /* the log's end ends a change still open */
	if (d->warning[0])
		fprintf(stderr, "flopscope: warning: %s\n", d->warning);
	if (d->stride > 1 && keep_max != OFFLINE_KEEP_NONE)
		fprintf(stderr, "flopscope: note: %s is long (%zu samples): plots and the dashboard replay keep 1 in %zu; "
		        "the table and the CSV export show every sample\n", path, d->run_samples, d->stride);
	if (d->gaps)
		fprintf(stderr, "flopscope: note: the recorded run was stopped %zu time%s (SIGSTOP, Ctrl-Z) for "
		        "%.1f s in all: not measured\n", d->gaps, d->gaps == 1 ? "" : "s", d->gap_ms * 1e-3);
	if (d->engine_error[0])
		fprintf(stderr, "flopscope: the recorded run ended in an error: %s\n", d->engine_error);
	return true;
}

void offline_summarise(const Summary *s, const SessionData *d, SummaryResult *r, size_t *checks)
{
	summary_result(s, r);
	/* one count in every view: the run's own (its summary record: the
	 * warm-up's check and any dispatch not recorded too), as the live run
	 * and the replay's play said it; the checked samples where it ended
	 * without one */
	*checks = d->has_summary && d->summary_checks > s->verified ? (size_t)d->summary_checks : s->verified;
}

static void blocks_on_sample(void *ctx, const Sample *s)
{
	OfflineBlocks *l = ctx;
	if (!l->any) {
		l->flags = s->flags;
		l->any = true;
	}
	if ((s->flags & SAMPLE_STEADY) && !(s->flags & SAMPLE_IMPLAUSIBLE))
		blocks_add(&l->blocks, s->t_ms, s->rate);
}

static void blocks_on_cut(void *ctx)
{
	blocks_cut(&((OfflineBlocks *)ctx)->blocks);
}

static void blocks_on_gap(void *ctx, double t, double ms)
{
	(void)t;
	(void)ms;
	blocks_cut(&((OfflineBlocks *)ctx)->blocks); /* no block spans a stop */
}

bool offline_load_blocks(const char *path, const SlogPick *pick, OfflineBlocks *l)
{
	memset(l, 0, sizeof *l);
	blocks_init(&l->blocks);
	SlogVisitor v = { .ctx = l, .sample = blocks_on_sample, .restart = blocks_on_cut, .gap = blocks_on_gap };
	if (!offline_load(path, pick, &l->d, NULL, &v, 0))
		return false;
	blocks_cut(&l->blocks);
	return true;
}
