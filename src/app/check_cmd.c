#include "check_cmd.h"
#include "check_impl.h"
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "clock.h"
#include "columns.h"
#include "compare.h"
#include "fmt.h"
#include "inventory.h"
#include "listing.h"
#include "devlock.h"
#include "metrics_live.h"
#include "offline.h"
#include "outlier.h"
#include "peak.h"
#include "runcfg.h"
#include "suite.h"

/* The first workload's start-up (shader, pipeline, warm-up, the growth
 * phase) before any was measured, s; later ones use the longest measured. */
#define CHECK_FIRST_OVERHEAD_S 1.5
/* Below this a window says too little to hold to a threshold, s. */
#define CHECK_MIN_WINDOW_S 0.5
/* Kept for the end (engines joined, the table and the metrics written), s;
 * more once a run's end has taken longer (a memory workload's buffers
 * freed: 0.05 s on lavapipe, 0.6 s or more under ThreadSanitizer). */
#define CHECK_TEARDOWN_S 0.3
/* The longest a check waits for a device another check holds, s. */
#define CHECK_LOCK_WAIT_S 10.0


/* What the samples of one workload's run feed: the metrics and the block
 * means a baseline is compared with. */
typedef struct Feed {
	MetricsBoard *board;
	int *rows;
	BlockMeans *blocks;
	uint64_t deadline_ns;   /* the budget's end: the run stops there */
	bool cut;               /* ... and did */
	uint64_t last_batch_ns; /* when the last batch ended; 0: none */
} Feed;

static bool feed(void *arg, size_t k, const Sample *s)
{
	Feed *f = arg;
	if (!s) { /* a batch's end: the budget is a bound, not a plan */
		f->last_batch_ns = clock_mono_ns();
		f->cut = f->last_batch_ns >= f->deadline_ns;
		return !f->cut;
	}
	mboard_sample(f->board, f->rows[k], s);
	if ((s->flags & SAMPLE_STEADY) && !(s->flags & SAMPLE_IMPLAUSIBLE))
		blocks_add(&f->blocks[k], s->t_ms, s->rate);
	return true;
}

/* The board reads device k's statistics from its engine while it runs,
 * and keeps the last reading when it ends. */
static void feed_live(void *arg, size_t k, SummaryReader rd)
{
	Feed *f = arg;
	if (rd.read)
		mboard_attach(f->board, f->rows[k], rd);
	else
		mboard_end(f->board, f->rows[k]);
}

/* One check's state, from its start to its end line. */
typedef struct CheckRun {
	const VkCtx *ctx;
	const int *idx;
	size_t n;
	const Options *o;
	uint64_t t0;                 /* the budget counts from the program's start */
	Progress *progress;          /* the line on a terminal's stderr; NULL: none */
	double budget;
	int wl[WORKLOAD_TYPE_COUNT];
	size_t nwl;
	bool runs_on[WORKLOAD_TYPE_COUNT][CLI_MAX_DEVICES * 4];
	size_t runs, done_runs;      /* the workloads some device runs; measured so far */
	double overhead;             /* a run's start-up and end, beyond its window */
	double teardown;             /* the longest end of a run (its last batch to its return), s */
	bool out_of_time;
	OfflineBlocks *bl;           /* the baselines */
	size_t nbl;
	MetricsBoard *board;
	MetricsServer *server;
	SuiteLogPath *logs;
	SuiteDev *sd;
	DevLock *locks;              /* each device's, held for the whole check */
	int *rows;
	BlockMeans *blocks;
	NodeDevice *nd;
	Verdict *v;
	size_t *nd_of;
	size_t counts[CHECK_STATUS_COUNT];
	bool whole_host;             /* every GPU of the host is the check's: its inventory is taken */
	Inventory inv;               /* the host's GPUs Vulkan does not show */
	MetricsMissingGpu missing[INVENTORY_MAX];
	char log_err[ERR_LEN];       /* the first session log that could not be written; "" none */
} CheckRun;

/* Whether workload i runs each device alone, then all at once: a transfer
 * (it shares the host) on several devices. */
static bool check_alone_first(const CheckRun *c, size_t i, size_t m)
{
	return m > 1 && workload_uses_host((WorkloadType)c->wl[i]);
}

/* Each device's lock, exclusive, for the whole check: a second check (a
 * dashboard, the nightly timer, two prologs) would measure this one and be
 * measured by it. Waits up to CHECK_LOCK_WAIT_S (a quarter of the budget at
 * most) for one held; then STATUS_NOT_RUN, said. A lock that cannot be made
 * at all (no lock folder) is said and the check goes on. */
static int check_lock_devices(CheckRun *c, const atomic_int *quit)
{
	if (!(c->locks = calloc(c->n, sizeof *c->locks)))
		return 1;
	for (size_t k = 0; k < c->n; k++)
		c->locks[k].fd = -1;
	double wait = c->budget / 4 < CHECK_LOCK_WAIT_S ? c->budget / 4 : CHECK_LOCK_WAIT_S;
	uint64_t t0 = clock_mono_ns();
	for (size_t k = 0; k < c->n; k++) {
		const DeviceInfo *d = &c->ctx->entries[c->idx[k]];
		char uuid[40], why[700];
		devinfo_uuid_str(d->uuid, uuid, sizeof uuid);
		bool again = false; /* one device named twice (-1 -1): its lock is this check's already */
		for (size_t j = 0; j < k; j++)
			again |= !memcmp(c->ctx->entries[c->idx[j]].uuid, d->uuid, sizeof d->uuid);
		if (again)
			continue;
		double left = wait - (double)(clock_mono_ns() - t0) * 1e-9;
		DevLockResult r = devlock_take(&c->locks[k], uuid, true, left > 0 ? left : 0, quit, why, sizeof why);
		if (r == DEVLOCK_STOPPED) /* check_end says it, with the signal's status */
			return STATUS_NOT_RUN;
		if (r == DEVLOCK_BUSY) {
			fprintf(stderr, "flopscope: [%d] %s: %s; waited %.0f s: not checked (exit %d, the check could not "
			        "run: no verdict on the device)\n", c->idx[k] + 1, d->name, why, wait, STATUS_NOT_RUN);
			return STATUS_NOT_RUN;
		}
		if (r == DEVLOCK_NONE)
			fprintf(stderr, "flopscope: note: [%d] %s: %s: another check could run beside this one unseen\n",
			        c->idx[k] + 1, d->name, why);
	}
	return 0;
}

/* Everything the check needs before it runs: a bad baseline, log or
 * address is bad input (2); 0 when ready. */
static int check_open(CheckRun *c)
{
	size_t n = c->n;
	c->board = mboard_create();
	c->sd = calloc(n, sizeof *c->sd);
	c->rows = calloc(n, sizeof *c->rows);
	c->blocks = calloc(n, sizeof *c->blocks);
	c->nd = calloc(n, sizeof *c->nd);
	c->v = calloc(n, sizeof *c->v);
	c->nd_of = calloc(n, sizeof *c->nd_of);
	if (!c->board || !c->sd || !c->rows || !c->blocks || !c->nd || !c->v || !c->nd_of) {
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	if (!check_load_baselines(c->o, &c->bl, &c->nbl))
		return 2;
	bool log_failed;
	if (!(c->logs = suite_logs_open(c->ctx, c->idx, n, c->o, "check", &log_failed)) && log_failed)
		return 2;
	if (c->o->metrics_listen) {
		char url[300], err[512];
		if (!(c->server = metrics_serve(c->board, c->o->metrics_listen, url, sizeof url, err, sizeof err))) {
			fprintf(stderr, "flopscope: %s\n", err);
			return 2;
		}
		fprintf(stderr, "flopscope: metrics at %s\n", url);
	}
	/* the runs: the workloads some device runs (a transfer on several:
	 * one a device alone, then one all at once) */
	for (size_t i = 0; i < c->nwl; i++) {
		size_t on = 0;
		for (size_t k = 0; k < n; k++) {
			char why[256];
			c->runs_on[i][k] = workload_supported((WorkloadType)c->wl[i],
			                                      devinfo_features(&c->ctx->entries[c->idx[k]]), why, sizeof why);
			on += c->runs_on[i][k];
		}
		c->runs += check_alone_first(c, i, on) ? on + 1 : on > 0;
	}
	return 0;
}

static void check_close(CheckRun *c, bool say_logs)
{
	for (size_t k = 0; c->locks && k < c->n; k++)
		devlock_release(&c->locks[k]);
	free(c->locks);
	suite_logs_close(c->logs, c->n, say_logs);
	metrics_server_stop(c->server);
	check_baselines_done(c->bl, c->nbl);
	mboard_destroy(c->board);
	free(c->sd);
	free(c->rows);
	free(c->blocks);
	free(c->nd);
	free(c->v);
	free(c->nd_of);
}

/* The table's head (what is checked, against what), or the CSV header. */
static void check_head(const CheckRun *c)
{
	const Options *o = c->o;
	if (o->format == FORMAT_TABLE) {
		char b[32];
		char thr[160];
		if (o->threshold_pct > 0)
			snprintf(thr, sizeof thr, "%g%% of the %s", o->threshold_pct,
			         o->nbaselines ? "baselines' median, else of the theoretical peak" : "theoretical peak");
		else
		{
			char base[64] = "", classes[120];
			if (o->nbaselines)
				snprintf(base, sizeof base, "%g%% of the baselines' median, else ", CLI_DEFAULT_THRESHOLD_PCT);
			peak_thresholds_text_of(classes, sizeof classes, "%", c->wl, c->nwl);
			/* "90% of the theoretical peak for FMA chains, 55% tensor, ..." */
			const char *sp = strchr(classes, ' ');
			snprintf(thr, sizeof thr, "%s%.*s of the theoretical peak for%s", base, sp ? (int)(sp - classes) : 0,
			         classes, sp ? sp : "");
		}
		printf("Check of %zu device%s: %zu workload%s in %s (%s); threshold %s, where known; outlier rule %g%%\n",
		       c->n, c->n == 1 ? "" : "s", c->nwl, c->nwl == 1 ? "" : "s", fmt_ms(c->budget * 1e3, b, sizeof b),
		       o->workload ? o->workload : CHECK_DEFAULT_WORKLOADS, thr, o->outlier_pct);
		for (size_t k = 0; k < c->n; k++)
			printf("  [%d] %s (compute queue %u)\n", c->idx[k] + 1, c->ctx->entries[c->idx[k]].name,
			       c->ctx->entries[c->idx[k]].queue_family);
		putchar('\n');
	} else if (o->format == FORMAT_CSV) {
		check_print_csv_header();
	}
	fflush(stdout);
}

/* Workload i's devices that cannot run it, each a SKIP line; the others
 * into sd (returns how many). */
static size_t check_devices_of(CheckRun *c, size_t i)
{
	const WorkloadInfo *wi = &workload_info[c->wl[i]];
	size_t m = 0;
	for (size_t k = 0; k < c->n; k++)
		if (c->runs_on[i][k])
			c->sd[m++] = (SuiteDev){ .idx = c->idx[k], .log = c->logs ? c->logs[k].path : NULL };
	bool hidden = false;
	for (size_t k = 0; k < c->n; k++) {
		if (c->runs_on[i][k])
			continue;
		if (!hidden) /* the line goes out whole, never over the progress line */
			progress_hide(c->progress);
		hidden = true;
		Verdict s = { .st = CHECK_SKIP, .median = NAN, .ratio = NAN, .threshold = NAN, .ref = "", .peer = NAN };
		char why[256];
		workload_supported((WorkloadType)c->wl[i], devinfo_features(&c->ctx->entries[c->idx[k]]), why, sizeof why);
		verdict_add(&s.causes, false, VC_UNSUPPORTED, NULL, "unsupported: %s", why);
		SuiteDev u = { .idx = c->idx[k] };
		check_print_line(c->o, c->ctx, &u, wi, &s);
		c->counts[CHECK_SKIP]++;
	}
	if (hidden) {
		fflush(stdout);
		progress_show(c->progress);
	}
	return m;
}

/* The outlier rule's word on a verdict: named, an outlier (a threshold
 * missed, or an error, stays what it is, the rule said beside); below them
 * but within the noise, said (a device with no other reference: unsure);
 * else a device with no other reference is held to its peers and passes. */
static void hold_to_peers(Verdict *x, const NodeDevice *nd, double pct)
{
	x->peer = nd->node_ratio;
	double f[] = { nd->node_ratio, (double)nd->peers, nd->noise_ref };
	if (nd->outlier) {
		/* the worse verdict first, the rule beside; else the rule is the verdict */
		bool worse = x->st == CHECK_FAIL || x->st == CHECK_ERROR;
		verdict_add(&x->causes, !worse, VC_OUTLIER, f, "an outlier: %.1f%% of the median of its %zu identical "
		            "devices (rule: more than %g%% below, and beyond the runs' noise, %.1f%%)",
		            100 * nd->node_ratio, nd->peers, pct, 100 * nd->noise_ref);
		if (!worse)
			x->st = CHECK_OUTLIER;
	} else if (nd->unsure) {
		/* more than the rule below them, within the runs' noise: said; a
		 * line with no other reference cannot pass on its peers */
		bool lead = x->st == CHECK_NOREF;
		if (lead) {
			x->st = CHECK_UNSURE;
			x->ref = "peers";
		}
		if (isfinite(nd->noise_ref))
			verdict_add(&x->causes, lead, VC_PEERS_UNSURE, f, "%.1f%% of the median of its %zu identical devices, "
			            "more than %g%% below but within the runs' noise (%.1f%%): cannot tell",
			            100 * nd->node_ratio, nd->peers, pct, 100 * nd->noise_ref);
		else
			verdict_add(&x->causes, lead, VC_PEERS_UNSURE, f, "%.1f%% of the median of its %zu identical devices, "
			            "more than %g%% below, with too few samples to know the runs' noise: cannot tell",
			            100 * nd->node_ratio, nd->peers, pct);
	} else if (x->st == CHECK_NOREF && nd->peers > 1) {
		x->st = CHECK_PASS;
		x->ref = "peers";
		verdict_drop(&x->causes, VC_NO_REFERENCE); /* its peers are its reference */
		verdict_add(&x->causes, true, VC_AT_PEERS, f, "held to its %zu identical devices: %.1f%% of their median "
		            "(the outlier rule: more than %g%% below; no peak known, no baseline)", nd->peers,
		            100 * nd->node_ratio, pct);
	}
}

/* Each of the m devices alone, then the outlier rule among identical ones;
 * a line each. cut: the run was cut short at the budget's end. */
static void check_judge(CheckRun *c, const WorkloadInfo *wi, size_t m, bool cut)
{
	const Options *o = c->o;
	Verdict *v = c->v;
	size_t nn = 0;
	for (size_t k = 0; k < m; k++) {
		blocks_cut(&c->blocks[k]);
		check_verdict(o, c->ctx, &c->sd[k], &c->blocks[k], c->bl, c->nbl, wi, &v[k]);
		if (cut)
			verdict_add(&v[k].causes, false, VC_CUT_SHORT, NULL, "cut short at the budget's end");
		if (!isnan(v[k].median) && v[k].st != CHECK_WRONG) {
			c->nd[nn] = (NodeDevice){ .name = c->ctx->entries[c->sd[k].idx].name, .median = v[k].median,
			                          .noise = c->sd[k].r.noise };
			c->nd_of[nn++] = k;
		}
	}
	outlier_apply(c->nd, nn, o->outlier_pct);
	for (size_t j = 0; j < nn; j++)
		hold_to_peers(&v[c->nd_of[j]], &c->nd[j], o->outlier_pct);
	for (size_t k = 0; k < m; k++) {
		if (c->sd[k].wrong)
			mboard_check_failed(c->board, c->rows[k]);
		mboard_verdict(c->board, c->rows[k], v[k].st, v[k].ratio, v[k].threshold, v[k].ref, v[k].peer,
		               verdict_code_bits(&v[k].causes));
		check_print_line(o, c->ctx, &c->sd[k], wi, &v[k]);
		c->counts[v[k].st]++;
	}
	fflush(stdout);
}

/* The least share of the budget a run can be measured in: the minimum
 * window, the start-up measured so far (none before the first run) and a
 * margin. */
static double check_min_share(const CheckRun *c)
{
	return CHECK_MIN_WINDOW_S + (c->done_runs ? c->overhead : 0) + 0.1;
}

/* A FAIL line for each of sd[0..m): the budget could not hold its run. */
static void check_out_of_time(CheckRun *c, const WorkloadInfo *wi, const SuiteDev *sd, size_t m)
{
	double elapsed = (double)(clock_mono_ns() - c->t0) * 1e-9;
	for (size_t k = 0; k < m; k++) {
		Verdict s = { .st = CHECK_FAIL, .median = NAN, .ratio = NAN, .threshold = NAN, .ref = "", .peer = NAN };
		double f[] = { c->budget, elapsed };
		verdict_add(&s.causes, false, VC_BUDGET_EXHAUSTED, f, "not measured: the budget (%g s) ran out after %.1f s",
		            c->budget, elapsed);
		check_print_line(c->o, c->ctx, &sd[k], wi, &s);
		c->counts[CHECK_FAIL]++;
	}
}

/* One measuring pass of workload i on sd[0..m) at once, in its share of
 * what is left of the budget (rows: their metrics rows, -1 for none; what:
 * the progress line's name; no_log: a pass recorded in no log); false,
 * nothing measured, when the share cannot hold a window. */
static bool check_pass(CheckRun *c, size_t i, SuiteDev *sd, int *rows, BlockMeans *blocks, size_t m,
                       const char *what, bool no_log, bool *cut, atomic_int *quit)
{
	double elapsed = (double)(clock_mono_ns() - c->t0) * 1e-9;
	/* this run's share of what is left before the end's teardown, less its
	 * start-up and a margin (the teardown left out of the shares cut every
	 * default check's last run short at the budget's end) */
	double share = (c->budget - c->teardown - elapsed) / (double)(c->runs - c->done_runs);
	double window = share - 1.2 * c->overhead - 0.1;
	/* the start-up is an estimate until a run has measured it (the first
	 * is a cold GPU's, 1.5 s, where lavapipe takes 0.2 s: an 8 s budget gave
	 * up on all four workloads at 0.1 s), and a share too small for every
	 * run left is still enough for this one: a window below the minimum is
	 * raised to it while what is left holds it and the start-up measured
	 * (a run measured rather than none; the budget's end cuts the last) */
	if (window < CHECK_MIN_WINDOW_S && c->budget - elapsed - c->teardown >= check_min_share(c))
		window = CHECK_MIN_WINDOW_S;
	c->done_runs++;
	if (window < CHECK_MIN_WINDOW_S || c->out_of_time) {
		c->out_of_time = true;
		return false;
	}
	Options oc = *c->o;
	oc.duration_s = window;
	oc.duration_given = true;
	oc.log = NULL;
	oc.no_log |= no_log;
	uint64_t r0 = clock_mono_ns();
	progress_step(c->progress, c->done_runs, what, window + c->overhead, c->budget - elapsed);
	/* what is left of the budget, less the end's teardown */
	Feed f = { c->board, rows, blocks, c->t0 + (uint64_t)((c->budget - c->teardown) * 1e9), false, 0 };
	suite_measure(c->ctx, sd, m, &oc, (WorkloadType)c->wl[i], false, (unsigned)i + 1,
	              &(SuiteWatch){ feed, feed_live, &f }, quit);
	for (size_t k = 0; k < m && !c->log_err[0]; k++)
		snprintf(c->log_err, sizeof c->log_err, "%s", sd[k].log_err);
	uint64_t r1 = clock_mono_ns();
	double took = (double)(r1 - r0) * 1e-9;
	double end = f.last_batch_ns ? (double)(r1 - f.last_batch_ns) * 1e-9 + 0.1 : 0; /* and a margin */
	if (end > c->teardown)
		c->teardown = end;
	if (took - window > c->overhead || c->done_runs == 1)
		c->overhead = took - window;
	*cut |= f.cut;
	return true;
}

/* The m devices of a transfer that the budget left no window to measure
 * together: a SHARED line each all the same, saying so (never left out). */
static void shared_not_measured(CheckRun *c, const WorkloadInfo *wi, size_t m)
{
	char why[160];
	snprintf(why, sizeof why, "the budget (%g s) ran out after %.1f s", c->budget,
	         (double)(clock_mono_ns() - c->t0) * 1e-9);
	progress_hide(c->progress);
	for (size_t k = 0; k < m; k++)
		check_print_shared(c->o, c->ctx, &c->sd[k], wi, NAN, m, 0, 0, why);
	fflush(stdout);
	progress_show(c->progress);
}

/* A transfer on several devices, after each ran alone: all of them at
 * once, a SHARED line each (the host's share, no threshold; no log, so a
 * baseline from the check's logs is the link's alone). */
static void check_together(CheckRun *c, size_t i, size_t m, atomic_int *quit)
{
	const WorkloadInfo *wi = &workload_info[c->wl[i]];
	SuiteDev *sd = calloc(m, sizeof *sd);
	int *rows = malloc(m * sizeof *rows);
	BlockMeans *blocks = calloc(m, sizeof *blocks);
	bool cut = false;
	if (sd && rows && blocks) {
		for (size_t k = 0; k < m; k++) {
			sd[k] = (SuiteDev){ .idx = c->sd[k].idx };
			rows[k] = -1; /* the devices' rows are their links' */
			blocks_init(&blocks[k]);
		}
		char what[64];
		snprintf(what, sizeof what, "%s, the %zu at once", wi->name, m);
		if (check_pass(c, i, sd, rows, blocks, m, what, true, &cut, quit) && !*quit) {
			double sum = 0;
			size_t got = 0;
			for (size_t k = 0; k < m; k++)
				if (!sd[k].rc && sd[k].r.flops.n) {
					sum += sd[k].r.flops.median;
					got++;
				}
			progress_hide(c->progress);
			for (size_t k = 0; k < m; k++) {
				double med = !sd[k].rc && sd[k].r.flops.n ? sd[k].r.flops.median : NAN;
				/* a device whose window reached no steady sample: said, and
				 * the sum says whose it is */
				const char *none = !isnan(med) ? NULL : sd[k].rc && sd[k].err[0] ? sd[k].err
				                   : "its window reached no steady sample";
				mboard_shared(c->board, c->rows[k], med);
				check_print_shared(c->o, c->ctx, &sd[k], wi, med, m, sum, got, none);
			}
			fflush(stdout);
			progress_show(c->progress);
		} else if (!*quit) {
			shared_not_measured(c, wi, m);
		}
		for (size_t k = 0; k < m; k++)
			blocks_done(&blocks[k]);
	}
	free(sd);
	free(rows);
	free(blocks);
}

/* Workload i on the devices that run it, in its share of what is left of
 * the budget (a FAIL line each once the budget is spent): all at once, or
 * (a transfer on several) each alone for its verdict, then all at once. */
static void check_workload(CheckRun *c, size_t i, atomic_int *quit)
{
	const WorkloadInfo *wi = &workload_info[c->wl[i]];
	size_t m = check_devices_of(c, i);
	if (!m)
		return;
	for (size_t k = 0; k < m; k++) {
		c->rows[k] = mboard_row(c->board, (unsigned)c->sd[k].idx + 1, &c->ctx->entries[c->sd[k].idx], wi->name,
		                        wi->unit);
		blocks_init(&c->blocks[k]);
	}
	bool cut = false, alone = check_alone_first(c, i, m);
	size_t measured = 0;
	if (!alone) {
		measured = check_pass(c, i, c->sd, c->rows, c->blocks, m, wi->name, false, &cut, quit) ? m : 0;
	} else {
		/* each link alone, held to the thresholds: four H100s' h2d at once
		 * read 54% of the PCIe peak each, 80% alone (the host is shared) */
		for (; measured < m && !*quit; measured++) {
			char what[64];
			snprintf(what, sizeof what, "%s [%d] alone", wi->name, c->sd[measured].idx + 1);
			if (!check_pass(c, i, &c->sd[measured], &c->rows[measured], &c->blocks[measured], 1, what, false, &cut,
			                quit))
				break;
		}
	}
	progress_hide(c->progress); /* the lines go out whole */
	if (measured < m && !*quit) {
		check_out_of_time(c, wi, &c->sd[measured], m - measured);
	}
	if (measured && !*quit)
		check_judge(c, wi, measured, cut);
	progress_show(c->progress);
	if (alone && measured == m && !*quit)
		check_together(c, i, m, quit);
	else if (alone && !*quit) /* the budget ended among the links alone */
		shared_not_measured(c, wi, m);
	/* measured, out of time or stopped by a signal: the means go */
	for (size_t k = 0; k < m; k++)
		blocks_done(&c->blocks[k]);
}

/* The end line, the metrics file; returns the exit status (not_run: the
 * check could not start, STATUS_NOT_RUN whatever the counts). */
static int check_end(CheckRun *c, atomic_int *quit, bool not_run, bool *say_logs)
{
	const Options *o = c->o;
	size_t *counts = c->counts;
	int status;
	double secs = (double)(clock_mono_ns() - c->t0) * 1e-9;
	if (*quit) {
		fprintf(stderr, "flopscope: the check was stopped by a signal; incomplete\n");
		status = STATUS_SIGNAL + (int)*quit;
	} else if (not_run) {
		status = STATUS_NOT_RUN;
	} else {
		/* a device's verdict first; a run that failed for flopscope's,
		 * the driver's or the system's part (an ERROR row: a lost device,
		 * a shader that would not build) is a check that could not run */
		status = counts[CHECK_WRONG]                        ? STATUS_WRONG
		       : counts[CHECK_FAIL] || counts[CHECK_MISSING] ? STATUS_FAILED
		       : counts[CHECK_OUTLIER]                      ? STATUS_OUTLIER
		       : counts[CHECK_ERROR]                        ? STATUS_NOT_RUN
		       : !counts[CHECK_PASS] && !counts[CHECK_UNSURE] ? STATUS_NOT_JUDGED : STATUS_OK;
	}
	/* a session log short of its samples (a full disk): flopscope's
	 * trouble, not a device's, as an unwritable metrics file below */
	if (c->log_err[0]) {
		if (!status || status == STATUS_NOT_JUDGED)
			status = STATUS_NOT_RUN;
		fprintf(stderr, "flopscope: %s (exit %d unless a device failed)\n", c->log_err, STATUS_NOT_RUN);
	}
	mboard_check_end(c->board, secs, status);
	/* the metrics file before the end line: the line says the exit status
	 * the check ends with (an unwritable file made it 1 after "exit 0") */
	if (o->metrics_file) {
		char err[4400];
		if (!mboard_write_file(c->board, o->metrics_file, err, sizeof err)) {
			/* flopscope's trouble, not a device's: a verdict that failed
			 * a device stays; a pass is no pass without its record */
			if (!status || status == STATUS_NOT_JUDGED)
				status = STATUS_NOT_RUN;
			fprintf(stderr, "flopscope: --metrics-file: %s (exit %d unless a device failed)\n", err, STATUS_NOT_RUN);
		}
	}
	if (o->format == FORMAT_JSON) {
		cJSON *j = cJSON_CreateObject();
		bool ok = j && cJSON_AddStringToObject(j, "type", "check_end") && record_utc(j) && record_stamp(j) &&
		          cJSON_AddNumberToObject(j, "seconds", round(secs * 1e3) / 1e3) &&
		          cJSON_AddNumberToObject(j, "exit", status);
		/* the rows by status, an object of their own: a row's "outlier" or
		 * "missing" is a flag elsewhere (one type a key) */
		cJSON *cs = ok ? cJSON_AddObjectToObject(j, "counts") : NULL;
		ok = cs != NULL;
		for (int s = 0; ok && s < CHECK_STATUS_COUNT; s++)
			ok = cJSON_AddNumberToObject(cs, check_status_names[s], (double)counts[s]) != NULL;
		if (ok)
			check_print_record(j);
		else
			cJSON_Delete(j);
	} else if (o->format == FORMAT_TABLE) {
		printf("\n%zu pass, %zu fail, %zu outlier, %zu wrong, %zu error, %zu unsure, %zu noref, %zu skip in %.1f s "
		       "of a %g s budget: exit %d\n", counts[CHECK_PASS], counts[CHECK_FAIL], counts[CHECK_OUTLIER],
		       counts[CHECK_WRONG], counts[CHECK_ERROR], counts[CHECK_UNSURE], counts[CHECK_NOREF], counts[CHECK_SKIP],
		       secs, c->budget, status);
		if (counts[CHECK_MISSING])
			printf("%zu MISSING line%s above (the host's GPUs against Vulkan's): the check fails the node\n",
			       counts[CHECK_MISSING], counts[CHECK_MISSING] == 1 ? "" : "s");
		if (counts[CHECK_UNSURE] || counts[CHECK_NOREF])
			printf("(unsure: below the threshold within what the data can tell; noref: nothing to hold it to "
			       "but the result checks)\n");
		*say_logs = true;
	}
	fflush(stdout);
	if (status == STATUS_NOT_JUDGED)
		fprintf(stderr, "flopscope: the check held nothing to a reference (exit %d): give it one with --baseline "
		        "LOG (a good run's log: each check writes one a device), or check identical devices together "
		        "for the outlier rule\n", STATUS_NOT_JUDGED);
	return status;
}

/* The host's GPUs that Vulkan does not show, where the check is of every
 * device: a MISSING line each (a GPU passed over in silence passes a node
 * short of one), and the metrics' count. */
static void check_inventory(CheckRun *c)
{
	if (!c->whole_host)
		return;
	inventory_take(c->ctx->entries, c->ctx->entry_count, &c->inv);
	for (size_t k = 0; k < c->inv.nmissing; k++) {
		const MissingGpu *m = &c->inv.missing[k];
		c->missing[k] = (MetricsMissingGpu){ m->gpu, m->uuid, m->pci, m->name };
		check_print_missing(c->o, m);
		c->counts[CHECK_MISSING]++;
	}
	/* fewer than the node should have: a GPU gone from NVML and the bus
	 * too is seen only so */
	if (c->o->expect_gpus && c->inv.gpus < c->o->expect_gpus) {
		check_print_gpu_count(c->o, c->o->expect_gpus, c->inv.gpus, c->inv.nmissing);
		c->counts[CHECK_MISSING]++;
	}
	mboard_gpus(c->board, &(MetricsGpus){ c->inv.gpus, c->missing, c->inv.nmissing });
	if (c->inv.note[0])
		fprintf(stderr, "flopscope: note: the host's GPUs: %s\n", c->inv.note);
	fflush(stdout);
}

int check_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, bool whole_host, uint64_t launch_ns,
              atomic_int *quit)
{
	CheckRun *c = calloc(1, sizeof *c);
	if (!c) {
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	*c = (CheckRun){ .ctx = ctx, .idx = idx, .n = n, .o = o, .whole_host = whole_host,
	                 .t0 = launch_ns ? launch_ns : clock_mono_ns(),
	                 .budget = o->budget_s > 0 ? o->budget_s : CLI_DEFAULT_BUDGET_S,
	                 .overhead = CHECK_FIRST_OVERHEAD_S, .teardown = CHECK_TEARDOWN_S };
	if (!run_workloads(o->workload ? o->workload : CHECK_DEFAULT_WORKLOADS, c->wl, &c->nwl)) {
		free(c);
		return 2;
	}
	bool say_logs = false;
	int status = check_open(c);
	/* a budget that cannot hold the workloads asked is bad input, said
	 * before anything runs (it gave FAIL rows, "the budget ran out", exit 1:
	 * the device blamed for the command line) */
	double least = (double)c->runs * check_min_share(c) + CHECK_FIRST_OVERHEAD_S + CHECK_TEARDOWN_S;
	if (!status && c->budget < least) {
		/* a user who named no workload asked for the default's */
		fprintf(stderr, "flopscope: --budget %g s cannot hold the %zu workload run%s %s: at least %.1f s (%g s "
		        "windows, the start-up and the end), or fewer with --workload\n", c->budget, c->runs,
		        c->runs == 1 ? "" : "s", o->workload ? "asked" : "of the default check (" CHECK_DEFAULT_WORKLOADS
		        ", those the devices run)", ceil(least * 10) / 10, CHECK_MIN_WINDOW_S);
		status = STATUS_USAGE;
	}
	/* a device whose lock is held (exit 6) still gets its header and end
	 * line: every record a reader waits for, and the metrics file */
	int lock = status ? 0 : check_lock_devices(c, quit);
	if (!status) {
		check_head(c);
		check_inventory(c);
		if (!lock) {
			c->progress = progress_start("check", c->runs);
			for (size_t i = 0; i < c->nwl && !*quit; i++)
				check_workload(c, i, quit);
			progress_end(c->progress);
		}
		status = check_end(c, quit, lock != 0, &say_logs);
	}
	check_close(c, say_logs);
	free(c);
	return status;
}
