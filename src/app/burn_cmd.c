/* burn_cmd: the soak (core/burn.h judges its windows): one engine a device
 * and workload, all at once (several workloads on a device take turns, a
 * window each: each run's engine waits out the others'); each run's samples
 * cut into windows by its time, a window held until every running device
 * has closed the same one (peers judge each other), then printed and kept
 * for the report. A run is judged against its own first window: a device's
 * power windows against its first power window, its copy windows against
 * its first copy window. */
#include "burn_cmd.h"

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "burn.h"
#include "burn_report.h"
#include "clock.h"
#include "columns.h"
#include "engine_set.h"
#include "error.h"
#include "fileio.h"
#include "fmt.h"
#include "metrics_live.h"
#include "node.h"
#include "records.h"
#include "runcfg.h"
#include "screen.h"
#include "source.h"
#include "slog.h"
#include "throttle.h"
#include "version.h"
#include "vkctx.h"

#define PENDING 8 /* windows a device may close ahead of a slower one's */

typedef struct Dev {
	int idx;
	const DeviceInfo *info;
	size_t dev;                /* the device's number (1..) among the burn's */
	WorkloadType wl;           /* what it runs: in its turn's windows (turn of the burn's turns) */
	unsigned turn;
	const char *unit;
	char peer_name[300];       /* whom it is judged beside: the model, and with turns its workload */
	char label[48];            /* "1", or with turns "1 copy": the table's and records' */
	RunPaths paths;
	bool active;               /* its engine runs: windows of others wait for its */
	bool ended;                /* its engine stopped with an error: its last window closed then */
	BurnCut cut;               /* the window being filled */
	/* closed, awaiting their peers */
	BurnWindow pend[PENDING];
	size_t npend;
	BurnWindow first;          /* its first window with a steady median (drift's reference) */
	bool has_first;
	BurnKept *kept;
	BurnTrace *trace;          /* its soak for the report's plots */
	size_t nkept;
	size_t count[BURN_STATUS_COUNT];
	uint64_t codes;            /* its windows' causes so far (verdict_code_bits) */
	double peer;               /* its last window's share of its peers' median; NaN none */
	unsigned first_bad;        /* its first window worse than PASS, + 1; 0 none */
	char first_bad_codes[96];
	int row;                   /* its row of the metrics (--metrics-file); -1 none */
	char error[ERR_LEN];       /* it could not run, or failed: why */
} Dev;

typedef struct Burn {
	const Options *o;
	const EngineSet *set;
	Dev *d;
	size_t n;                  /* runs: devices x turns */
	unsigned turns;            /* workloads taking turns (1: one workload, every window its) */
	const int *wl;             /* the turns' workloads */
	unsigned windows;          /* planned */
	unsigned printed_index;    /* the table's last window header + 1 */
	bool out_ok;
	size_t count[BURN_STATUS_COUNT];
	BurnWindow **peers;        /* n: the windows of one index, judged together */
	const char **names;        /* n: the devices' models */
	MetricsBoard *board;       /* --metrics-file: the verdicts so far, written as windows close */
	bool board_dirty, board_said;
	NodeBurn *view;            /* the node view's burn lines while it shows (no window lines printed) */
	long view_left_s;          /* the time left its header says */
	bool by_key;               /* ended from the view's keyboard (q, Ctrl-C): interrupted, as SIGINT */
	SlogRunIds ids;            /* when planned: the logs' default names and the reports' share its stamp */
} Burn;

/* The reports' paths ("" not written) and why one could not be. */
typedef struct Reports {
	char md[4200], html[4200];
	char err[ERR_LEN];
} Reports;

/* the JSON record of a window: a column table, as every record's */
typedef struct BurnLine {
	double dev, window, t0, t1, median, min, mhz, watts, temp, slowdown, held_power, held_thermal, held_hw, others,
	    replays, ecc_new, remap_pending, remap_failed, drift, peer;
	bool partial;
	const char *status, *unit, *workload;
	uint64_t samples, steady, verified;
	RowIdentity id;
} BurnLine;
#define B_(f) offsetof(BurnLine, f)
static const Column burn_cols[] = {
	{ "utc", NULL, COL_UTC, 0, NULL },
	{ "dev", NULL, COL_NUMBER, B_(dev), "%.0f" },
	{ "window", NULL, COL_NUMBER, B_(window), "%.0f" },
	{ "workload", NULL, COL_STRING, B_(workload), NULL },
	{ "t_start_s", NULL, COL_NUMBER, B_(t0), "%.3f" },
	{ "t_end_s", NULL, COL_NUMBER, B_(t1), "%.3f" },
	{ "partial", NULL, COL_BOOL, B_(partial), NULL },
	{ "status", NULL, COL_STRING, B_(status), NULL },
	{ "median", NULL, COL_NUMBER, B_(median), "%.6g" },
	{ "min", NULL, COL_NUMBER, B_(min), "%.6g" },
	{ "unit", NULL, COL_STRING, B_(unit), NULL },
	{ "samples", NULL, COL_COUNT, B_(samples), NULL },
	{ "steady_samples", NULL, COL_COUNT, B_(steady), NULL },
	{ "verified_samples", NULL, COL_COUNT, B_(verified), NULL },
	{ TEL_KEY_SM_MHZ, NULL, COL_NUMBER, B_(mhz), "%.0f" },
	{ TEL_KEY_POWER_W, NULL, COL_NUMBER, B_(watts), "%.1f" },
	{ "temp_max_c", NULL, COL_NUMBER, B_(temp), "%.0f" },
	{ "temp_slowdown_c", NULL, COL_NUMBER, B_(slowdown), "%.0f" },
	{ "held_power_cap", NULL, COL_NUMBER, B_(held_power), "%.3f" },
	{ "held_thermal", NULL, COL_NUMBER, B_(held_thermal), "%.3f" },
	{ "held_hw_slowdown", NULL, COL_NUMBER, B_(held_hw), "%.3f" },
	{ "other_gpu", NULL, COL_NUMBER, B_(others), "%.0f" },
	{ TEL_KEY_PCIE_REPLAYS, NULL, COL_NUMBER, B_(replays), "%.0f" },
	{ "ecc_uncorrected_new", NULL, COL_NUMBER, B_(ecc_new), "%.0f" },
	{ "rows_remap_pending", NULL, COL_NUMBER, B_(remap_pending), "%.0f" },
	{ "rows_remap_failed", NULL, COL_NUMBER, B_(remap_failed), "%.0f" },
	{ "drift", NULL, COL_NUMBER, B_(drift), "%.4f" },
	{ "peer_ratio", NULL, COL_NUMBER, B_(peer), "%.4f" },
	{ "identity", NULL, COL_IDENTITY, B_(id), NULL },
};
#undef B_

static void print_window(Burn *b, size_t k, const BurnWindow *w);

/* Judges d's closed window w against its first and puts it in its pending
 * list (wrong, error: the run stopped in it). */
static void judge_window(Burn *b, Dev *d, size_t k, BurnWindow w, bool wrong, bool error)
{
	w.wrong = wrong;
	w.error = w.error || error;
	char who[160] = "";
	if (w.others > 0 && b->set->m[k].e) {
		ProcTable t;
		engine_procs(b->set->m[k].e, &t);
		procs_table_describe(&t, who, sizeof who);
	}
	burn_judge(&w, d->has_first ? &d->first : NULL, b->o->outlier_pct, who);
	const EngineMember *m = &b->set->m[k];
	const char *found = m->error[0] ? m->error : m->e ? engine_error(m->e) : "";
	if (wrong && found && found[0]) /* what the result check found */
		for (size_t c = 0; c < w.causes.n; c++)
			if (w.causes.c[c].code == VC_WRONG_RESULT)
				snprintf(w.causes.c[c].text, sizeof w.causes.c[c].text, "a result was wrong in this window: %.200s",
				         found);
	if (!d->has_first && isfinite(w.median) && !w.partial) {
		d->first = w;
		d->has_first = true;
	}
	if (d->npend == PENDING) { /* a device this far ahead: its oldest goes out without its peers */
		print_window(b, k, &d->pend[0]);
		memmove(d->pend, d->pend + 1, (PENDING - 1) * sizeof *d->pend);
		d->npend--;
	}
	d->pend[d->npend++] = w;
}

static BurnStatus worst(const Dev *d);

/* A device's verdict so far in the node view's status column: its worst
 * window's status and how many windows of the planned were judged ("PASS 3
 * of 8"), or the window where it first went wrong with the causes' codes
 * ("FAIL w2: DRIFT"). */
static void view_device(Burn *b, size_t k)
{
	const Dev *d = &b->d[k];
	NodeBurnDev *v = &b->view->dev[k];
	BurnStatus st = worst(d);
	const char *wl = b->turns > 1 ? workload_info[d->wl].name : "";
	if (!d->first_bad) /* short: the table's last column at 120 columns has 14 */
		snprintf(v->text, sizeof v->text, "%s%s%s %zu%s%u", wl, wl[0] ? " " : "", burn_status_words[st], d->nkept,
		         wl[0] ? "/" : " of ", burn_turn_windows(b->windows, d->turn, b->turns));
	else
		snprintf(v->text, sizeof v->text, "%s%s%s w%u: %.30s", wl, wl[0] ? " " : "", burn_status_words[st],
		         d->first_bad, d->first_bad_codes);
	v->severity = st == BURN_PASS ? 0 : st == BURN_UNSURE ? 1 : 2;
}

/* The view's header: the window now and the time left (ran_s of the burn). */
/* The view's header at ran_s; false where its second has not changed. */
static bool view_header(Burn *b, double ran_s)
{
	long left = lround(b->o->burn_s - ran_s);
	if (left < 0)
		left = 0;
	if (left == b->view_left_s)
		return false;
	b->view_left_s = left;
	unsigned w = (unsigned)(ran_s / b->o->window_s) + 1;
	w = w < b->windows ? w : b->windows;
	char win[32], rest[32];
	snprintf(b->view->header, sizeof b->view->header, "window %u of %u (%s each%s%s), %s left", w, b->windows,
	         fmt_seconds(b->o->window_s, win, sizeof win), b->turns > 1 ? ", " : "",
	         b->turns > 1 ? workload_info[b->wl[(w - 1) % b->turns]].name : "",
	         fmt_seconds((double)left, rest, sizeof rest));
	return true;
}

static void print_window(Burn *b, size_t k, const BurnWindow *w)
{
	Dev *d = &b->d[k];
	const Options *o = b->o;
	char why[VC_MAX * VC_TEXT_LEN], codes[96];
	verdict_text(&w->causes, why, sizeof why);
	verdict_codes(&w->causes, " ", codes, sizeof codes);
	if (d->nkept < (size_t)b->windows + 1) { /* its kept rows' room (a window an index, and one) */
		BurnKept *kp = &d->kept[d->nkept++];
		burn_kept_of(w, kp);
		snprintf(kp->why, sizeof kp->why, "%.*s", (int)sizeof kp->why - 1, why);
		snprintf(kp->codes, sizeof kp->codes, "%.*s", (int)sizeof kp->codes - 1, codes);
	}
	d->count[w->status]++;
	b->count[w->status]++;
	d->codes |= verdict_code_bits(&w->causes);
	d->peer = w->peer_ratio;
	b->board_dirty = true;
	if (w->status != BURN_PASS && !d->first_bad) {
		d->first_bad = w->index + 1;
		snprintf(d->first_bad_codes, sizeof d->first_bad_codes, "%s", codes);
	}
	if (b->view) { /* the node view says it: no line under the screen */
		view_device(b, k);
		return;
	}
	if (o->format == FORMAT_JSON) {
		BurnLine l = { .dev = (double)d->dev, .window = w->index + 1.0, .t0 = w->t0_s, .t1 = w->t1_s,
		               .median = w->median, .min = w->min, .mhz = w->mhz, .watts = w->watts, .temp = w->temp_max,
		               .slowdown = w->temp_slowdown, .held_power = w->held_power, .held_thermal = w->held_thermal,
		               .held_hw = w->held_hw, .others = w->others, .replays = w->replays, .ecc_new = w->ecc_new,
		               .drift = w->drift, .peer = w->peer_ratio, .partial = w->partial,
		               .remap_pending = w->remap_pending, .remap_failed = w->remap_failed, /* 0 or 1, as the readings */
		               .status = burn_status_names[w->status], .unit = d->unit,
		               .workload = workload_info[d->wl].name, .samples = w->samples,
		               .steady = w->steady, .verified = w->verified,
		               .id = { .dev = d->info, .entry = (size_t)d->idx + 1 } };
		cJSON *j = columns_json("burn_window", burn_cols, NCOLS(burn_cols), &l);
		if (j && !record_causes(j, &w->causes)) {
			cJSON_Delete(j);
			j = NULL;
		}
		if (j && !cJSON_AddStringToObject(j, "why", why)) {
			cJSON_Delete(j);
			j = NULL;
		}
		b->out_ok = json_line(stdout, j) && b->out_ok;
		return;
	}
	if (w->index + 1 > b->printed_index) {
		char left[32];
		/* the window's span as planned (a device's own may end early: partial) */
		double t1 = o->window_s * (w->index + 1) < o->burn_s ? o->window_s * (w->index + 1) : o->burn_s;
		double rest = round(o->burn_s - t1);
		printf("window %u of %u (%.4g-%.4g s%s%s)%s%s%s\n", w->index + 1, b->windows, w->t0_s, t1,
		       b->turns > 1 ? ", " : "", b->turns > 1 ? workload_info[d->wl].name : "", rest > 0 ? ", " : "",
		       rest > 0 ? fmt_seconds(rest, left, sizeof left) : "", rest > 0 ? " left" : "");
		b->printed_index = w->index + 1;
	}
	char fig[40] = "-", mhz[16], watts[16], temp[16];
	if (isfinite(w->median)) {
		fmt_si(w->median, fig, sizeof fig);
		snprintf(fig + strlen(fig), sizeof fig - strlen(fig), "%s", d->unit);
	}
	fmt_cell(w->mhz, "%.0f MHz", mhz, sizeof mhz);
	fmt_cell(w->watts, "%.0f W", watts, sizeof watts);
	fmt_cell(w->temp_max, "%.0f C", temp, sizeof temp);
	printf("  [%s] %-7s %14s %9s %6s %5s%s%s%s\n", d->label, burn_status_words[w->status], fig, mhz, watts, temp,
	       w->partial ? " (partial)" : "", why[0] ? "  " : "", why);
	if (fflush(stdout) != 0)
		b->out_ok = false;
}

/* Closes d's window now (its samples so far; partial: the burn ended in
 * it, or the run did) and judges it. */
static void close_window(Burn *b, Dev *d, size_t k, bool partial, bool wrong, bool error)
{
	BurnWindow w;
	burn_cut_close(&d->cut, &w, partial, d->cut.cur + 1);
	judge_window(b, d, k, w, wrong, error);
}

/* Prints every window index all running devices have closed, peers judged
 * together; all: the burn is over, every pending window goes. */
static void flush(Burn *b, bool all)
{
	/* a device whose run failed (a wrong result, a lost device) closes its
	 * window now, said while the others burn on, and holds no one's */
	for (size_t k = 0; k < b->n; k++) {
		Dev *d = &b->d[k];
		Engine *e = b->set->m[k].e;
		if (!d->active || !e || engine_state(e) != ENGINE_ERROR)
			continue;
		bool wrong = engine_results_wrong(e);
		if (!wrong && !d->error[0])
			snprintf(d->error, sizeof d->error, "%s", engine_error(e));
		d->active = false;
		d->ended = true;
		close_window(b, d, k, true, wrong, !wrong);
	}
	for (;;) {
		unsigned lo = UINT32_MAX;
		bool blocked = false;
		for (size_t k = 0; k < b->n; k++)
			if (b->d[k].npend)
				lo = b->d[k].pend[0].index < lo ? b->d[k].pend[0].index : lo;
		if (lo == UINT32_MAX)
			return;
		/* a run whose turn it is may still close window lo */
		for (size_t k = 0; !all && k < b->n; k++)
			if (b->d[k].active && b->d[k].npend == 0 && lo % b->turns == b->d[k].turn)
				blocked = true;
		if (blocked && !all) {
			/* a device far ahead (its list full) goes on alone */
			bool full = false;
			for (size_t k = 0; k < b->n; k++)
				full |= b->d[k].npend == PENDING;
			if (!full)
				return;
		}
		BurnWindow **w = b->peers;
		size_t m = b->n;
		for (size_t k = 0; k < m; k++)
			w[k] = b->d[k].npend && b->d[k].pend[0].index == lo ? &b->d[k].pend[0] : NULL;
		burn_judge_peers(w, b->names, m, b->o->outlier_pct);
		for (size_t k = 0; k < m; k++) {
			if (!w[k])
				continue;
			print_window(b, k, w[k]);
			Dev *d = &b->d[k];
			memmove(d->pend, d->pend + 1, (--d->npend) * sizeof *d->pend);
		}
	}
}

/* A device's burn verdict so far as a check's (the metrics' families:
 * flopscope_check_status, _cause, ...; workload the burn's). */
static CheckStatus check_status_of(BurnStatus st)
{
	static const CheckStatus map[BURN_STATUS_COUNT] = {
		[BURN_PASS] = CHECK_PASS, [BURN_UNSURE] = CHECK_UNSURE, [BURN_OUTLIER] = CHECK_OUTLIER,
		[BURN_FAIL] = CHECK_FAIL, [BURN_WRONG] = CHECK_WRONG,     [BURN_ERROR] = CHECK_ERROR,
	};
	return map[st];
}


/* --metrics-file: every device's verdict so far, the file replaced whole
 * (after each window, and at the end with the exit status); a write that
 * fails is said once and the burn goes on (false). */
static bool board_write(Burn *b)
{
	if (!b->board)
		return true;
	for (size_t k = 0; k < b->n; k++) {
		const Dev *d = &b->d[k];
		if (d->row < 0)
			continue;
		bool any = false;
		for (int st = 0; st < BURN_STATUS_COUNT; st++)
			any |= d->count[st] > 0;
		if (any || d->error[0])
			mboard_verdict(b->board, d->row, any ? check_status_of(worst(d)) : CHECK_ERROR, NAN, NAN, "", d->peer,
			               d->codes);
	}
	b->board_dirty = false;
	char err[ERR_LEN];
	if (mboard_write_file(b->board, b->o->metrics_file, err, sizeof err))
		return true;
	if (!b->board_said)
		fprintf(stderr, "flopscope: --metrics-file: %s\n", err);
	b->board_said = true;
	return false;
}

/* Each run whose turn has ended (its engine holds, or has ended with no
 * turn left: what was in flight has completed) closes its window then,
 * not where its next turn's first sample comes, or at the burn's end: its
 * verdict would wait out the other workloads' windows. */
static void close_turns(Burn *b)
{
	for (size_t k = 0; b->turns > 1 && k < b->n; k++) {
		Dev *d = &b->d[k];
		Engine *e = b->set->m[k].e;
		EngineState st = e ? engine_state(e) : ENGINE_ERROR;
		BurnWindow w;
		if (d->active && (st == ENGINE_PAUSED || st == ENGINE_DONE) && burn_cut_turn_end(&d->cut, &w))
			judge_window(b, d, k, w, false, false);
	}
}

static bool take_sample(void *ctx, size_t k, const Sample *s)
{
	Burn *b = ctx;
	if (!s) { /* a batch's end */
		close_turns(b);
		flush(b, false);
		if (b->board_dirty)
			board_write(b);
		return b->out_ok;
	}
	if (b->board)
		mboard_sample(b->board, b->d[k].row, s);
	Dev *d = &b->d[k];
	burn_trace_add(d->trace, s, s->t_ms / 1000.0);
	BurnWindow closed;
	if (burn_cut_add(&d->cut, s, &closed))
		judge_window(b, d, k, closed, false, false);
	return b->out_ok;
}

/* The node view's tap on a device's samples: each one the burn's; the
 * windows judged with their peers' (and a failed run's closed) where one
 * closed, else once a second with the header's time left. */
typedef struct BurnTap {
	Burn *b;
	size_t k;
	uint64_t t0;
} BurnTap;

static void burn_tap(void *ctx, const Sample *s)
{
	BurnTap *t = ctx;
	size_t pending = t->b->d[t->k].npend;
	take_sample(t->b, t->k, s);
	bool tick = view_header(t->b, (double)(clock_mono_ns() - t->t0) / 1e9);
	if (tick || t->b->d[t->k].npend != pending)
		take_sample(t->b, t->k, NULL);
}

/* The burn in the node view, on a terminal (not --headless, --format or a
 * pipe), until every run ends or the user ends it (q, Ctrl-C: as SIGINT);
 * false where it cannot show (a device without its run, no terminal): the
 * caller drains the runs headless. */
static bool burn_view(Burn *b, EngineSet *set, uint64_t t0, atomic_int *quit)
{
	if (b->o->headless || b->o->format != FORMAT_TABLE || b->n > NODE_MAX)
		return false;
	for (size_t k = 0; k < b->n; k++)
		if (!set->m[k].e)
			return false;
	SampleSource src[NODE_MAX];
	BurnTap taps[NODE_MAX];
	bool failed[NODE_MAX] = { false };
	NodeBurn nb;
	memset(&nb, 0, sizeof nb);
	b->view = &nb;
	b->view_left_s = -1;
	nb.devices = b->n / b->turns;
	for (unsigned t = 0; t < b->turns; t++)
		snprintf(nb.what + strlen(nb.what), sizeof nb.what - strlen(nb.what), "%s%s", t ? ", " : "",
		         workload_info[b->wl[t]].name);
	view_header(b, 0);
	for (size_t k = 0; k < b->n; k++) {
		snprintf(nb.dev[k].text, sizeof nb.dev[k].text, "window 1");
		source_engine(&src[k], set->m[k].e);
		taps[k] = (BurnTap){ b, k, t0 };
		src[k].tap = burn_tap;
		src[k].tap_ctx = &taps[k];
	}
	Screen s;
	if (!screen_open(&s, b->o->theme, quit)) {
		b->view = NULL;
		fprintf(stderr, "flopscope: cannot use this terminal; printing the windows instead\n");
		return false;
	}
	DashExit how = node_run(&s, src, b->n, &(NodeOptions){ .fps = b->o->fps, .outlier_pct = b->o->outlier_pct,
	                                                     .whole = b->o->whole, .burn = &nb }, failed);
	screen_close(&s);
	b->view = NULL;
	b->by_key = how != DASH_DONE && !atomic_load(quit);
	return true;
}

static BurnStatus worst(const Dev *d)
{
	return burn_worst(d->count);
}

/* The reports' path less its extension: burn-<stamp> in the first log's
 * folder, the stamp the logs' default names carry; "" with no log. */
static void report_path(const Burn *b, char *out, size_t len)
{
	out[0] = '\0';
	for (size_t k = 0; k < b->n; k++) {
		const char *log = b->d[k].paths.log;
		const char *slash = log[0] ? strrchr(log, '/') : NULL;
		if (!b->set->m[k].e || !engine_info(b->set->m[k].e)->log_path)
			continue;
		if (slash)
			snprintf(out, len, "%.*s/burn-%s", (int)(slash - log), log, b->ids.stamp);
		else
			snprintf(out, len, "burn-%s", b->ids.stamp);
		return;
	}
}

static void print_end(Burn *b, double ran_s, int sig, int status, const Reports *rp)
{
	const char *report = rp->md, *report_err = rp->err;
	const size_t *c = b->count;
	if (b->o->format == FORMAT_JSON) {
		cJSON *j = cJSON_CreateObject();
		bool ok = j && cJSON_AddStringToObject(j, "type", "burn_end") && record_utc(j) && record_stamp(j) &&
		          cJSON_AddNumberToObject(j, "seconds", round(ran_s * 1e3) / 1e3) &&
		          cJSON_AddNumberToObject(j, "burn_s", b->o->burn_s) &&
		          cJSON_AddNumberToObject(j, "window_s", b->o->window_s) &&
		          cJSON_AddNumberToObject(j, "devices", (double)(b->n / b->turns)) &&
		          cJSON_AddBoolToObject(j, "interrupted", sig != 0) &&
		          (sig ? cJSON_AddNumberToObject(j, "signal", sig) : cJSON_AddNullToObject(j, "signal")) &&
		          (report[0] ? cJSON_AddStringToObject(j, "report", report) : cJSON_AddNullToObject(j, "report")) &&
		          (rp->html[0] ? cJSON_AddStringToObject(j, "report_html", rp->html)
		                       : cJSON_AddNullToObject(j, "report_html")) &&
		          cJSON_AddNumberToObject(j, "exit", sig ? STATUS_SIGNAL + sig : status);
		cJSON *cs = ok ? cJSON_AddObjectToObject(j, "counts") : NULL; /* the windows by status */
		ok = cs != NULL;
		for (int s = 0; ok && s < BURN_STATUS_COUNT; s++)
			ok = cJSON_AddNumberToObject(cs, burn_status_names[s], (double)c[s]) != NULL;
		if (ok)
			b->out_ok = json_line(stdout, j) && b->out_ok;
		else
			cJSON_Delete(j);
	} else {
		printf("\nBurn verdicts:\n");
		for (size_t k = 0; k < b->n; k++) {
			const Dev *d = &b->d[k];
			printf("  [%zu] %s%s%s: %s", d->dev, d->info->name, b->turns > 1 ? ", " : "",
			       b->turns > 1 ? workload_info[d->wl].name : "", d->error[0] ? "ERROR" : burn_status_words[worst(d)]);
			if (d->error[0])
				printf(": %s", d->error);
			printf(" (%zu window%s: %zu pass, %zu unsure, %zu outlier, %zu fail, %zu wrong, %zu error)\n", d->nkept,
			       d->nkept == 1 ? "" : "s", d->count[BURN_PASS], d->count[BURN_UNSURE], d->count[BURN_OUTLIER],
			       d->count[BURN_FAIL], d->count[BURN_WRONG], d->count[BURN_ERROR]);
		}
		if (report[0])
			printf("Report: %s\n", report);
		if (rp->html[0])
			printf("Report (HTML): %s\n", rp->html);
		if (sig)
			printf("%.1f s of a %g s burn, interrupted %s%d: exit %d\n", ran_s, b->o->burn_s,
			       b->by_key ? "from the keyboard (q, Ctrl-C), as by signal " : "by signal ", sig,
			       STATUS_SIGNAL + sig);
		else
			printf("%.1f s of a %g s burn: exit %d\n", ran_s, b->o->burn_s, status);
	}
	if (report_err[0])
		fprintf(stderr, "flopscope: the burn's report: %s\n", report_err);
	else if (!report[0])
		fprintf(stderr, "flopscope: no report written: the burn kept no session log (--no-log)\n");
	fflush(stdout);
}

/* The Markdown and HTML reports beside the first log (none without a log). */
static void write_reports(const Burn *b, double ran_s, int sig, int status, Reports *rp)
{
	char base[4190];
	report_path(b, base, sizeof base);
	rp->md[0] = rp->html[0] = '\0';
	if (!base[0])
		return;
	BurnReportDev *dv = calloc(b->n, sizeof *dv);
	if (!dv) {
		snprintf(rp->err, sizeof rp->err, "out of memory");
		return;
	}
	BurnReport r = { .burn_s = b->o->burn_s, .window_s = b->o->window_s, .ran_s = ran_s, .sig = sig, .by_key = b->by_key,
	                 .status = status, .count = b->count, .d = dv, .n = b->n };
	for (size_t k = 0; k < b->n; k++) {
		const Dev *d = &b->d[k];
		const SessionMeta *m = b->set->m[k].e ? engine_meta(b->set->m[k].e) : NULL;
		r.m0 = r.m0 ? r.m0 : m;
		dv[k] = (BurnReportDev){ d->dev, d->peer_name, d->unit, m,
		                         d->error[0] ? "ERROR" : burn_status_words[worst(d)], d->error, d->kept, d->nkept,
		                         d->trace };
	}
	snprintf(rp->md, sizeof rp->md, "%s.md", base);
	snprintf(rp->html, sizeof rp->html, "%s.html", base);
	if (!burn_report_md(&r, rp->md, false, rp->err, sizeof rp->err))
		rp->md[0] = '\0';
	else if (!burn_report_html(&r, rp->html, false, rp->err, sizeof rp->err))
		rp->html[0] = '\0';
	if (!rp->md[0])
		rp->html[0] = '\0';
	free(dv);
}

/* After the engines ended: each device's last window (cut short, or where
 * it failed), every window left printed, the report, the end; the exit
 * status. */
static int finish(Burn *b, double ran_s, int sig)
{
	size_t failed = 0;
	for (size_t k = 0; k < b->n; k++) {
		Dev *d = &b->d[k];
		const EngineMember *m = &b->set->m[k];
		if (m->e && m->failed && !m->wrong && !d->error[0])
			snprintf(d->error, sizeof d->error, "%s", m->error);
		if (!m->e || (m->failed && !m->wrong))
			failed++;
		d->active = false;
		if (m->e && !d->ended && (d->cut.seen > 0 || m->failed))
			close_window(b, d, k, burn_cut_more(&d->cut) || sig || m->failed, m->wrong, m->failed && !m->wrong);
	}
	flush(b, true);
	int status = burn_exit_status(b->count, failed);
	if (b->board) {
		mboard_check_end(b->board, ran_s, sig ? STATUS_SIGNAL + sig : status); /* the exit, as the process's */
		b->board_said = false; /* the last write's failure is the exit's */
		if (!board_write(b) && !status)
			status = STATUS_NOT_RUN;
	}
	Reports rp = { .err = "" };
	write_reports(b, ran_s, sig, status, &rp);
	print_end(b, ran_s, sig, status, &rp);
	return status; /* a closed pipe is a normal end (main says so for other errors) */
}

/* The burn's memory: its devices, each one's window and kept rows, the
 * peers' lists; false out of memory (burn_free frees what was had). */
static bool burn_alloc(Burn *b)
{
	b->d = calloc(b->n, sizeof *b->d);
	b->peers = calloc(b->n, sizeof *b->peers);
	b->names = calloc(b->n, sizeof *b->names);
	bool ok = b->d && b->peers && b->names;
	for (size_t k = 0; b->d && k < b->n; k++) {
		ok = burn_cut_init(&b->d[k].cut, b->o->burn_s, b->o->window_s) && ok;
		b->d[k].kept = malloc(((size_t)b->windows + 1) * sizeof *b->d[k].kept);
		b->d[k].trace = malloc(sizeof *b->d[k].trace);
		ok = ok && b->d[k].kept && b->d[k].trace;
		/* the burn's planned length over half the points (room to overrun),
		 * 0.1 s at least: a few samples a span */
		if (b->d[k].trace)
			burn_trace_init(b->d[k].trace, b->o->burn_s);
	}
	return ok;
}

static void burn_free(Burn *b)
{
	mboard_destroy(b->board);
	for (size_t k = 0; b->d && k < b->n; k++) {
		burn_cut_free(&b->d[k].cut);
		free(b->d[k].kept);
		free(b->d[k].trace);
	}
	free(b->d);
	free(b->peers);
	free(b->names);
}

/* Each run's plan: device k / turns running workload k % turns in its
 * turns (device-major: a device's runs together). */
static void plan_runs(Burn *b, const struct VkCtx *ctx, const int *idx, uint64_t launch, EngineConfig *cfg)
{
	for (size_t k = 0; k < b->n; k++) {
		Dev *d = &b->d[k];
		d->turn = (unsigned)(k % b->turns);
		d->wl = (WorkloadType)b->wl[d->turn];
		d->dev = k / b->turns + 1;
		burn_cut_turns(&d->cut, d->turn, b->turns);
		d->unit = workload_unit_names[workload_info[d->wl].unit];
		d->peer = NAN;
		d->row = b->board ? mboard_row(b->board, (unsigned)idx[d->dev - 1] + 1, &ctx->entries[idx[d->dev - 1]],
		                               workload_info[d->wl].name, workload_info[d->wl].unit)
		                  : -1;
		d->idx = idx[d->dev - 1];
		d->info = &ctx->entries[d->idx];
		burn_run_name(d->info->name, workload_info[d->wl].name, b->turns, d->peer_name, sizeof d->peer_name);
		if (b->turns > 1)
			snprintf(d->label, sizeof d->label, "%zu %s", d->dev, workload_info[d->wl].name);
		else
			snprintf(d->label, sizeof d->label, "%zu", d->dev);
		b->names[k] = d->peer_name;
		RunSlot slot = { .ordinal = (unsigned)k + 1, .devices = (unsigned)b->n, .node_id = b->ids.node,
		                 .stamp = b->ids.stamp, .burn_turn = d->turn, .burn_turns = b->turns };
		run_plan(b->o, RUN_BURN, ctx, d->info, d->wl, (unsigned)k + 1, launch, &slot, &d->paths, &cfg[k]);
	}
}

/* --workload's list for the burn (the power workload alone by default)
 * and what goes with it; false with why said (exit 2). */
static bool burn_workloads(const Options *o, unsigned windows, int *wl, size_t *nwl)
{
	*nwl = 1;
	wl[0] = WORKLOAD_POWER;
	if (o->workload && !run_workloads(o->workload, wl, nwl))
		return false;
	if (*nwl > windows) {
		fprintf(stderr, "flopscope: --workload: %zu workloads take turns a window each: the burn has %u window%s "
		        "(--burn over --window)\n", *nwl, windows, windows == 1 ? "" : "s");
		return false;
	}
	bool memory = false;
	for (size_t i = 0; i < *nwl; i++)
		memory |= workload_is_memory((WorkloadType)wl[i]);
	if ((o->size_lo || o->transfer_queue) && !memory) {
		fprintf(stderr, "flopscope: --size and --transfer-queue go with a memory workload (--workload copy, h2d, ...)\n");
		return false;
	}
	return true;
}

int burn_run(const struct VkCtx *ctx, const Options *o, const int *idx, size_t devices, uint64_t launch,
             atomic_int *quit)
{
	double nw = ceil(o->burn_s / o->window_s - 1e-9); /* at most CLI_BURN_MAX_WINDOWS: cli.c */
	int wl[WORKLOAD_TYPE_COUNT];
	size_t nwl;
	if (!burn_workloads(o, (unsigned)nw, wl, &nwl))
		return 2;
	size_t n = devices * nwl;
	Burn b = { .o = o, .n = n, .turns = (unsigned)nwl, .wl = wl, .windows = (unsigned)nw, .out_ok = true };
	EngineConfig *cfg = calloc(n, sizeof *cfg);
	if (!cfg || !burn_alloc(&b)) {
		fprintf(stderr, "flopscope: out of memory for the burn\n");
		burn_free(&b);
		free(cfg);
		return STATUS_NOT_RUN;
	}
	slog_run_ids(&b.ids);
	if (o->metrics_file && !(b.board = mboard_create())) {
		fprintf(stderr, "flopscope: out of memory for the metrics\n");
		burn_free(&b);
		free(cfg);
		return STATUS_NOT_RUN;
	}
	plan_runs(&b, ctx, idx, launch, cfg);
	EngineSet set;
	Error err;
	int status = STATUS_NOT_RUN;
	if (!engine_set_create(&set, cfg, n, false, &err) && !set.m) {
		fprintf(stderr, "flopscope: %s\n", err.msg);
		goto out;
	}
	b.set = &set;
	if (o->format == FORMAT_TABLE) {
		char dur[32], win[32], what[256] = "";
		for (size_t t = 0; t < nwl; t++)
			snprintf(what + strlen(what), sizeof what - strlen(what), "%s%s", t ? ", " : "", workload_info[wl[t]].name);
		printf("Burn-in of %zu device%s: %s%s for %s, judged every %s\n", devices, devices == 1 ? "" : "s", what,
		       nwl > 1 ? " taking turns" : "", fmt_seconds(o->burn_s, dur, sizeof dur),
		       fmt_seconds(o->window_s, win, sizeof win));
	}
	for (size_t k = 0; k < n; k++) {
		const Dev *d = &b.d[k];
		if (!set.m[k].e) {
			snprintf(b.d[k].error, sizeof b.d[k].error, "%s", set.m[k].err.msg);
			fprintf(stderr, "flopscope: device %s: %s\n", d->label, set.m[k].err.msg);
		} else if (o->format == FORMAT_JSON) {
			slog_print_session(stdout, engine_meta(set.m[k].e), (unsigned)d->dev);
		} else {
			const RunInfo *in = engine_info(set.m[k].e);
			printf("  %s: %s%s%s\n", d->label, in->dev->name, in->log_path ? ", log " : "", in->log_path ? in->log_path : "");
		}
	}
	fflush(stdout);
	bool started = engine_set_start(&set, false);
	for (size_t k = 0; k < n; k++) {
		b.d[k].active = set.m[k].e != NULL;
		if (b.board && set.m[k].e)
			mboard_attach(b.board, b.d[k].row, engine_summary_reader(set.m[k].e));
	}
	uint64_t t0 = clock_mono_ns();
	if (started && !burn_view(&b, &set, t0, quit))
		engine_set_drain(&set, take_sample, &b, quit);
	double ran_s = (double)(clock_mono_ns() - t0) / 1e9;
	engine_set_finish(&set);
	status = finish(&b, ran_s, b.by_key ? SIGINT : atomic_load(quit));
	if (b.by_key) /* a signal's 128+N is main's; the keyboard's is the burn's */
		status = STATUS_SIGNAL + SIGINT;
	for (size_t k = 0; b.board && k < n; k++)
		if (set.m[k].e)
			mboard_end(b.board, b.d[k].row);
	engine_set_destroy(&set);
out:
	burn_free(&b);
	free(cfg);
	return status;
}
