#include "interactive.h"
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "config.h"
#include "dashboard.h"
#include "engine.h"
#include "engine_set.h"
#include "metrics_live.h"
#include "multi.h"
#include "node.h"
#include "offline.h"
#include "picker.h"
#include "replay.h"
#include "report.h"
#include "screen.h"
#include "runcfg.h"
#include "slog.h"

/* S in the dashboard: the options of this run with what the screen shows,
 * into the config file. */
static bool save_settings(void *ctx, const char *theme, double target_ms, bool whole, char *msg, size_t len)
{
	Options o = *(const Options *)ctx;
	if (theme) {
		snprintf(o.theme_buf, sizeof o.theme_buf, "%s", theme);
		o.theme = o.theme_buf;
	}
	o.target_ms = target_ms;
	o.whole = whole;
	return config_save(&o, msg, len) == 0;
}

/* The next workload every device of sel runs, after wl. */
static WorkloadType next_workload(const DeviceList *devs, const int *sel, size_t n, WorkloadType wl)
{
	char why[256];
	for (int tries = 0; tries < WORKLOAD_TYPE_COUNT; tries++) {
		wl = (WorkloadType)((wl + 1) % WORKLOAD_TYPE_COUNT);
		bool all = true;
		for (size_t k = 0; k < n && all; k++)
			all = workload_supported(wl, devinfo_features(&devs->entries[sel[k]]), why, sizeof why);
		if (all)
			return wl;
	}
	return wl;
}

/* What ended one run: how the screen was left, the exit status so far, and
 * whether the program ends now (fatal: the screen is already closed). */
typedef struct RunEnd {
	DashExit how;
	int status;
	bool fatal;
	double target_ms;       /* the target the run ended at (+ and - move it): the next run's */
	char err[ERR_LEN + 32]; /* an error shown on the screen, to repeat after it */
} RunEnd;

/* Builds and starts one engine per entry of sel, all or none; false with
 * end filled when one cannot be (a usage error closes the screen). */
static bool start_engines(Screen *s, const struct VkCtx *ctx, const DeviceList *devs, const Options *o,
                          const int *sel, size_t n, WorkloadType wl, unsigned *runs, uint64_t launch,
                          RunPaths *paths, EngineConfig *cfg, EngineSet *set, RunEnd *end)
{
	SlogRunIds ids;
	slog_run_ids(&ids);
	for (size_t k = 0; k < n; k++) {
		RunSlot slot = { .ordinal = n > 1 ? (unsigned)k + 1 : 0, .devices = (unsigned)n, .node_id = ids.node,
		                 .stamp = ids.stamp };
		/* the nth run of a --log name takes "-n"; a default name is the run's
		 * own (time, device, workload: a w wrote "...-fp64-2.jsonl" beside no
		 * "...-fp64.jsonl"), two alike in one second kept apart when opened */
		++*runs;
		run_plan(o, RUN_DASHBOARD, ctx, &devs->entries[sel[k]], wl, o->log ? *runs : 1, launch, &slot, &paths[k],
		         &cfg[k]);
	}
	Error err;
	bool built = engine_set_create(set, cfg, n, true, &err);
	if (built && engine_set_start(set, true)) {
		for (size_t k = 0; k < n; k++) { /* a cache that was not used: said once */
			const RunInfo *in = engine_info(set->m[k].e);
			if (in->cache_note && in->cache_note[0])
				screen_message(s, ROLE_STATUS_WARN, "%s", in->cache_note);
			if (in->lock_note && in->lock_note[0])
				screen_message(s, ROLE_STATUS_WARN, "%s", in->lock_note);
		}
		return true;
	}
	if (built) /* the first that did not start says why */
		for (size_t k = 0; k < n; k++)
			if (set->m[k].err.msg[0]) {
				err = set->m[k].err;
				break;
			}
	engine_set_destroy(set);
	if (!built && err.status == STATUS_USAGE) { /* a broken shader or an unwritable log: say it plainly */
		screen_close(s);
		fprintf(stderr, "flopscope: %s\n", err.msg);
		end->status = 2;
		end->fatal = true;
		return false;
	}
	char msg[ERR_LEN + 32];
	snprintf(msg, sizeof msg, "%s%s", n > 1 ? "a device: " : "", err.msg);
	screen_message(s, ROLE_STATUS_ERROR, "%s", msg);
	snprintf(end->err, sizeof end->err, "%s", msg);
	end->status = 1;
	end->how = DASH_BACK;
	return false;
}

/* One device (the dashboard) or several (the node view), until the user
 * leaves; on quit the screen is closed and the summaries printed. */
static void run_devices(Screen *s, const struct VkCtx *ctx, const DeviceList *devs, const Options *o,
                        const int *sel, size_t n, WorkloadType wl, unsigned *runs, uint64_t launch, RunEnd *end,
                        FILE *out, MetricsOut *mo)
{
	MetricsTap taps[NODE_MAX];
	int mrows[NODE_MAX]; /* their metrics rows */
	RunPaths paths[NODE_MAX];
	EngineConfig cfg[NODE_MAX];
	EngineSet set;
	SampleSource src[NODE_MAX];
	bool failed[NODE_MAX] = { false };
	if (!start_engines(s, ctx, devs, o, sel, n, wl, runs, launch, paths, cfg, &set, end))
		return;
	for (size_t k = 0; k < n; k++) {
		source_engine(&src[k], set.m[k].e);
		/* --metrics-listen, --metrics-file: the samples the screen takes */
		mrows[k] = mo && mo->board ? mboard_row(mo->board, (unsigned)sel[k] + 1, &devs->entries[sel[k]],
		                                       workload_info[wl].name, workload_info[wl].unit) : -1;
		if (mrows[k] >= 0)
			metrics_tap(&taps[k], &src[k], mo->board, mrows[k]);
	}
	SummaryResult sum;
	if (n == 1)
		end->how = dashboard_run(s, &src[0], &(DashOptions){ .fps = o->fps, .whole = o->whole, .save = save_settings, .save_ctx = (void *)o },
		                          &failed[0], &sum);
	else
		end->how = node_run(s, src, n, &(NodeOptions){ .fps = o->fps, .outlier_pct = o->outlier_pct, .whole = o->whole }, failed);
	end->status = 0;
	/* what the screen showed stays on record after it is gone: every run's
	 * summary (the engines' own statistics, as the logs' summary lines have
	 * them), printed when the program ends */
	engine_set_finish(&set);
	end->target_ms = engine_target_ms(set.m[0].e);
	for (size_t k = 0; k < n; k++) {
		if (failed[k] || set.m[k].failed)
			end->status = 1;
		if (mrows[k] >= 0)
			mboard_end(mo->board, mrows[k]); /* before the engines go */
	}
	if (end->how == DASH_QUIT) {
		screen_close(s);
		end->fatal = true;
	}
	if (n == 1) {
		Engine *e = set.m[0].e;
		const char *log = engine_info(e)->log_path;
		fprintf(out, "%s%s on %s, log %s\n", ftell(out) > 0 ? "\n" : "", workload_info[wl].name,
		        devs->entries[sel[0]].name, log ? log : "off (--no-log)");
		report_summary_text(out, &set.m[0].sum, engine_dropped(e), set.m[0].checks, engine_target_ms(e));
	} else {
		DeviceRow rows[NODE_MAX];
		fprintf(out, "%s%zu devices at once, %s:\n", ftell(out) > 0 ? "\n" : "", n, workload_info[wl].name);
		for (size_t k = 0; k < n; k++) {
			const EngineMember *m = &set.m[k];
			const char *log = engine_info(m->e)->log_path;
			fprintf(out, "  %zu: %s, log %s\n", k + 1, devs->entries[sel[k]].name, log ? log : "off (--no-log)");
			rows[k] = (DeviceRow){ devs->entries[sel[k]].name, &m->sum, m->checks, m->error, m->first_ms,
			                       &devs->entries[sel[k]], (size_t)sel[k] + 1, NULL };
		}
		size_t outliers = multi_print_table(out, false, rows, n, workload_unit_names[workload_info[wl].unit],
		                                    o->outlier_pct, workload_uses_host(wl));
		/* quitting a view is no verdict unless one was asked for */
		if (outliers && o->outlier_given && !end->status && end->how == DASH_QUIT)
			end->status = MULTI_EXIT_OUTLIER;
	}
	for (size_t k = 0; k < n && end->how == DASH_QUIT; k++)
		if (set.m[k].failed)
			fprintf(stderr, "flopscope: %s%s\n", n > 1 ? "a device: " : "", set.m[k].error);
	for (size_t k = 0; k < n; k++)
		if (mo && mrows[k] >= 0 && end->how != DASH_QUIT)
			mboard_retire(mo->board, mrows[k]); /* another run follows */
	engine_set_destroy(&set);
}

int interactive_run(const struct VkCtx *ctx, const DeviceList *devs, const Options *given, const int *pre,
                    size_t npre, WorkloadType wl, uint64_t launch, MetricsOut *mo, atomic_int *quit)
{
	/* the options, with the target the last run ended at: w (the next
	 * workload) and d (other devices) keep what + and - chose */
	Options run_opts = *given;
	const Options *o = &run_opts;
	Screen s;
	if (!screen_open(&s, o->theme, quit))
		return -1;
	char last_err[ERR_LEN + 32] = "";
	int status = 0, sel[NODE_MAX], last = npre ? pre[0] : -1;
	size_t n = npre < NODE_MAX ? npre : NODE_MAX;
	for (size_t k = 0; k < n; k++)
		sel[k] = pre[k];
	unsigned runs = 0;
	/* every run's summary, printed once the screen is gone */
	char *text = NULL;
	size_t text_len = 0;
	FILE *out = open_memstream(&text, &text_len);
	if (!out) {
		screen_close(&s);
		fprintf(stderr, "flopscope: cannot keep the runs' summaries: %s\n", strerror(errno));
		return 1;
	}
	for (;;) {
		if (!n)
			n = picker_run(&s, devs, last, sel, NODE_MAX);
		if (!n)
			break;
		last = sel[0];
		RunEnd end = { .how = DASH_BACK };
		/* a first sample "after launch" only where no picker or earlier
		 * run stood between: the devices' first run from the command line */
		run_devices(&s, ctx, devs, o, sel, n, wl, &runs, runs == 0 && npre ? launch : 0, &end, out, mo);
		if (end.fatal) {
			fclose(out);
			if (text_len)
				fputs(text, stdout);
			free(text);
			return end.status;
		}
		status = end.status;
		if (end.target_ms > 0)
			run_opts.target_ms = end.target_ms;
		if (end.err[0])
			snprintf(last_err, sizeof last_err, "%s", end.err);
		if (end.how == DASH_NEXT_WORKLOAD && !end.err[0]) {
			/* the next one every device runs; the devices stay */
			wl = next_workload(devs, sel, n, wl);
			screen_message(&s, ROLE_STATUS_OK, "workload %s", workload_info[wl].name);
			continue;
		}
		n = 0;
	}
	screen_close(&s);
	fclose(out);
	if (text_len)
		fputs(text, stdout);
	free(text);
	/* an error shown on the screen stays on record after it is gone */
	if (status && last_err[0])
		fprintf(stderr, "flopscope: %s\n", last_err);
	return status;
}

/* The logs of several devices in the node view, played together; on
 * leaving, the table of what was recorded (every sample of each log). */
static int replay_node(const Options *o, atomic_int *quit)
{
	size_t n = o->nreplays;
	Replay *r = calloc(n, sizeof *r);
	SampleSource *src = calloc(n, sizeof *src);
	SummaryResult *sum = calloc(n, sizeof *sum); /* 55 KB each */
	bool failed[NODE_MAX];
	size_t ready = 0;
	int status = 0;
	if (!r || !src || !sum) {
		fprintf(stderr, "flopscope: out of memory for %zu replays\n", n);
		status = 1;
		goto out;
	}
	/* each log read once: its samples for the screen, its summary for the
	 * table after */
	SessionData d[CLI_MAX_DEVICES];
	const SessionMeta *metas[CLI_MAX_DEVICES];
	size_t perm[CLI_MAX_DEVICES], verified[CLI_MAX_DEVICES];
	if (!offline_node_load(o, d, sum, verified, 0)) {
		status = 2;
		goto out;
	}
	for (size_t k = 0; k < n; k++)
		metas[k] = &d[k].meta;
	/* one run: in its devices' order */
	slog_node_order(metas, n, perm);
	for (; ready < n; ready++) {
		replay_init(&r[ready], &d[perm[ready]], clock_mono_ns);
		replay_source(&src[ready], &r[ready], o->replays[perm[ready]]);
	}
	Screen s;
	if (!screen_open(&s, o->theme, quit)) {
		status = -1;
		goto out;
	}
	node_run(&s, src, n, &(NodeOptions){ .fps = o->fps, .outlier_pct = o->outlier_pct, .whole = o->whole }, failed);
	screen_close(&s);
	/* the logs as read, each now its replay's (the replays own them) */
	for (size_t k = 0; k < n; k++)
		d[perm[k]] = r[k].d;
	status = o->format == FORMAT_CSV ? offline_replay_node_table(o) : offline_node_table(o, d, sum, verified, n);
out:
	for (size_t k = 0; k < ready; k++)
		replay_done(&r[k]);
	free(r);
	free(src);
	free(sum);
	return status;
}

int interactive_replay(const Options *o, atomic_int *quit)
{
	if (o->nreplays > 1)
		return replay_node(o, quit);
	SessionData d;
	char err[1024];
	SlogPick pick = offline_pick(o);
	if (slog_read_visit(o->replay, &pick, NULL, 0, &d, err, sizeof err) < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 2;
	}
	Screen s;
	if (!screen_open(&s, o->theme, quit)) {
		session_data_done(&d);
		return -1;
	}
	if (d.warning[0])
		screen_message(&s, ROLE_STATUS_WARN, "%s", d.warning);
	Replay r;
	replay_init(&r, &d, clock_mono_ns);
	SampleSource src;
	replay_source(&src, &r, o->replay);
	bool failed;
	SummaryResult sum;
	dashboard_run(&s, &src, &(DashOptions){ .fps = o->fps, .whole = o->whole }, &failed, &sum);
	screen_close(&s);
	report_summary_text(stdout, &sum, 0, r.checks, r.d.meta.target_ms);
	replay_done(&r);
	return 0;
}
