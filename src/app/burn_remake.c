/* burn_remake: --export LOG... --report OUT.md|OUT.html: a burn's report
 * made again from the session logs of its devices. Each device's windows,
 * as its log's window records give them (the engine's, from every sample;
 * the samples themselves thinned where the log had a budget), else cut from
 * its samples (burn_window_s), are judged as the burn judged them (core/burn.h: against the device's first
 * window, then beside its peers of the same window), its soak traced for
 * the plots. What the logs do not hold is not in it: other processes are
 * counted, not named; a signal that ended the burn is not known. */
#include "burn_remake.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burn.h"
#include "burn_report.h"
#include "error.h"
#include "offline.h"
#include "verdict.h"

typedef struct RDev {
	SessionData d;             /* the log's session (samples not kept) */
	const char *path;
	char name[300];            /* whom it is judged beside: its model, with turns its workload (as the burn) */
	bool cut_ok, oom;
	BurnCut cut;
	BurnTrace *trace;
	BurnWindow *w;             /* cut from the samples; judged once the log is read */
	size_t nw, cap;
	BurnWindow *lw;            /* the log's window records (the engine's, from every sample) */
	size_t nlw, lcap;
	double last_s;             /* its last sample's time */
	BurnKept *kept;
	size_t count[BURN_STATUS_COUNT];
} RDev;

/* A window onto a list that grows (a log's records may overrun the plan). */
static bool push(BurnWindow **list, size_t *n, size_t *cap, const BurnWindow *w)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		BurnWindow *p = realloc(*list, c * sizeof *p);
		if (!p)
			return false;
		*list = p;
		*cap = c;
	}
	(*list)[(*n)++] = *w;
	return true;
}

/* Each sample as the burn took it: the session record is read by then. */
static void on_sample(void *ctx, const Sample *s)
{
	RDev *r = ctx;
	const SessionMeta *m = &r->d.meta;
	if (!r->cut_ok && !r->oom && m->burn_window_s > 0 && m->burn_s > 0) {
		r->cut_ok = burn_cut_init(&r->cut, m->burn_s, m->burn_window_s);
		burn_cut_turns(&r->cut, m->burn_turn, m->burn_turns);
		r->trace = malloc(sizeof *r->trace);
		r->oom = !r->cut_ok || !r->trace;
		if (r->trace)
			burn_trace_init(r->trace, m->burn_s);
	}
	if (!r->cut_ok || r->oom)
		return;
	BurnWindow closed;
	burn_trace_add(r->trace, s, s->t_ms / 1000.0);
	r->last_s = s->t_ms / 1000.0;
	/* a log with window records is judged by them: its samples no longer cut */
	if (!r->nlw && burn_cut_add(&r->cut, s, &closed))
		r->oom |= !push(&r->w, &r->nw, &r->cap, &closed);
}

static void on_window(void *ctx, const BurnWindow *w)
{
	RDev *r = ctx;
	r->oom |= !push(&r->lw, &r->nlw, &r->lcap, w);
	r->last_s = fmax(r->last_s, w->t1_s);
}

/* The device's windows judged in order against its first: the log's
 * window records where it has them (its samples may be thinned: its
 * session's burn_log_budget_b), else cut from its samples; the last one
 * where the run stopped with an error, wrong or failed. */
static void judge_device(RDev *r)
{
	if (r->nlw) {
		free(r->w);
		r->w = r->lw, r->nw = r->nlw, r->cap = r->lcap;
		r->lw = NULL, r->nlw = r->lcap = 0;
	}
	const char *err = r->d.engine_error;
	bool wrong = err[0] && strstr(err, "verification") != NULL;
	if (r->nw && err[0]) {
		BurnWindow *last = &r->w[r->nw - 1];
		last->wrong = wrong;
		last->error = last->error || !wrong;
	}
	const BurnWindow *first = NULL;
	for (size_t j = 0; j < r->nw; j++) {
		burn_judge(&r->w[j], first, r->d.meta.burn_margin_pct, "");
		if (!first && isfinite(r->w[j].median) && !r->w[j].partial)
			first = &r->w[j];
	}
}

/* One device's log read and its windows judged against its first; false
 * with why said. */
static bool read_device(RDev *r)
{
	SlogPick pick = { 0 };
	SlogVisitor v = { .ctx = r, .sample = on_sample, .window = on_window };
	if (!offline_load(r->path, &pick, &r->d, NULL, &v, OFFLINE_KEEP_NONE))
		return false;
	const SessionMeta *m = &r->d.meta;
	if (!(m->burn_window_s > 0 && m->burn_s > 0)) {
		fprintf(stderr, "flopscope: --report: %s is not a burn's log (its session record has no burn_window_s)\n",
		        r->path);
		return false;
	}
	burn_run_name(m->device, m->workload, m->burn_turns, r->name, sizeof r->name);
	if (r->cut_ok && r->cut.seen && !r->nlw) { /* the window the log ends in */
		BurnWindow w;
		burn_cut_close(&r->cut, &w, burn_cut_more(&r->cut) || r->d.engine_error[0], r->cut.cur + 1);
		r->oom |= !push(&r->w, &r->nw, &r->cap, &w);
	}
	if (r->oom) {
		fprintf(stderr, "flopscope: --report: out of memory for %s\n", r->path);
		return false;
	}
	judge_device(r);
	return true;
}

/* Every window index beside its peers of the other devices (each device's
 * windows are cut in index order: one cursor a device). */
static bool judge_peers(RDev *dev, size_t n)
{
	BurnWindow **w = calloc(n, sizeof *w);
	const char **names = calloc(n, sizeof *names);
	size_t *at = calloc(n, sizeof *at);
	bool ok = w && names && at;
	unsigned most = 0;
	for (size_t k = 0; ok && k < n; k++) {
		names[k] = dev[k].name;
		most = dev[k].nw > most ? (unsigned)dev[k].nw : most;
	}
	for (unsigned i = 0; ok && i < most; i++) {
		for (size_t k = 0; k < n; k++) {
			while (at[k] < dev[k].nw && dev[k].w[at[k]].index < i)
				at[k]++;
			w[k] = at[k] < dev[k].nw && dev[k].w[at[k]].index == i ? &dev[k].w[at[k]] : NULL;
		}
		burn_judge_peers(w, names, n, dev[0].d.meta.burn_margin_pct);
	}
	free(w);
	free(names);
	free(at);
	return ok;
}

/* The devices' windows as the report keeps them; the counts. */
static bool keep_rows(RDev *dev, size_t n, BurnReportDev *rd, size_t *count, size_t *failed)
{
	for (size_t k = 0; k < n; k++) {
		RDev *r = &dev[k];
		r->kept = calloc(r->nw ? r->nw : 1, sizeof *r->kept);
		if (!r->kept)
			return false;
		for (size_t j = 0; j < r->nw; j++) {
			BurnWindow *w = &r->w[j];
			BurnKept *kp = &r->kept[j];
			burn_kept_of(w, kp);
			verdict_text(&w->causes, kp->why, sizeof kp->why);
			verdict_codes(&w->causes, " ", kp->codes, sizeof kp->codes);
			r->count[w->status]++;
			count[w->status]++;
		}
		*failed += r->d.engine_error[0] && !strstr(r->d.engine_error, "verification");
		/* the device's number: its runs' ordinals run device by device */
		const SessionMeta *m = &r->d.meta;
		size_t number = m->ordinal ? (m->ordinal - 1) / (m->burn_turns > 1 ? m->burn_turns : 1) + 1 : k + 1;
		rd[k] = (BurnReportDev){ number, r->name, m->unit, m, burn_status_words[burn_worst(r->count)],
		                         r->d.engine_error, r->kept, r->nw, r->trace };
	}
	return true;
}

/* The logs in the burn's order of its runs (its report's), whatever the
 * order named; false out of memory. */
static bool in_burns_order(RDev *dev, size_t n)
{
	const SessionMeta **metas = calloc(n, sizeof *metas);
	size_t *perm = calloc(n, sizeof *perm);
	RDev *was = malloc(n * sizeof *was);
	bool ok = metas && perm && was;
	for (size_t k = 0; ok && k < n; k++)
		metas[k] = &dev[k].d.meta;
	if (ok && slog_node_order(metas, n, perm)) {
		memcpy(was, dev, n * sizeof *was);
		for (size_t k = 0; k < n; k++)
			dev[k] = was[perm[k]];
	}
	free(metas);
	free(perm);
	free(was);
	return ok;
}

static int remake(RDev *dev, size_t n, const Options *o)
{
	for (size_t k = 0; k < n; k++)
		if (!read_device(&dev[k]))
			return 2;
	for (size_t k = 1; k < n; k++)
		if (strcmp(dev[k].d.meta.node, dev[0].d.meta.node) || !dev[0].d.meta.node[0]) {
			fprintf(stderr, "flopscope: --report: %s and %s are not the logs of one burn (their node ids differ)\n",
			        dev[0].path, dev[k].path);
			return 2;
		}
	if (!in_burns_order(dev, n)) {
		fprintf(stderr, "flopscope: --report: out of memory\n");
		return 1;
	}
	BurnReportDev *rd = calloc(n, sizeof *rd);
	size_t count[BURN_STATUS_COUNT] = { 0 }, failed = 0;
	if (!rd || !judge_peers(dev, n) || !keep_rows(dev, n, rd, count, &failed)) {
		free(rd);
		fprintf(stderr, "flopscope: --report: out of memory\n");
		return 1;
	}
	double ran = 0;
	for (size_t k = 0; k < n; k++)
		ran = fmax(ran, dev[k].last_s);
	const SessionMeta *m0 = &dev[0].d.meta;
	BurnReport r = { .m0 = m0, .burn_s = m0->burn_s, .window_s = m0->burn_window_s, .ran_s = ran,
	                 .status = burn_exit_status(count, failed), .count = count, .d = rd, .n = n,
	                 .remade = true };
	char err[4400];
	size_t l = strlen(o->report);
	bool html = l > 5 && !strcmp(o->report + l - 5, ".html");
	bool ok = html ? burn_report_html(&r, o->report, o->force, err, sizeof err)
	               : burn_report_md(&r, o->report, o->force, err, sizeof err);
	free(rd);
	if (!ok) {
		fprintf(stderr, "flopscope: --report: %s\n", err);
		return 1;
	}
	return 0;
}

int burn_remake(const Options *o)
{
	size_t n = o->nexports;
	RDev *dev = calloc(n, sizeof *dev);
	if (!dev) {
		fprintf(stderr, "flopscope: --report: out of memory\n");
		return 1;
	}
	for (size_t k = 0; k < n; k++)
		dev[k].path = o->exports[k];
	int rc = remake(dev, n, o);
	for (size_t k = 0; k < n; k++) {
		if (dev[k].cut_ok)
			burn_cut_free(&dev[k].cut);
		free(dev[k].w);
		free(dev[k].lw);
		free(dev[k].trace);
		free(dev[k].kept);
		session_data_done(&dev[k].d);
	}
	free(dev);
	return rc;
}
