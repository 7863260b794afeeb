#include "ui.h"
#include "clock.h"

#include <stdio.h>
#include <time.h>

#include "dashboard.h"
#include "engine.h"
#include "picker.h"
#include "replay.h"
#include "report.h"
#include "screen.h"
#include "runcfg.h"
#include "slog.h"

int ui_run(const struct VkCtx *ctx, const DeviceList *devs, const Options *o, int preselected,
           volatile sig_atomic_t *quit)
{
	Screen s;
	if (!screen_open(&s, o->theme, quit))
		return -1;
	char err[ERR_LEN], last_err[ERR_LEN] = "";
	int status = 0, idx = preselected, last = preselected;
	WorkloadType wl = o->workload ? (WorkloadType)workload_find(o->workload) : WORKLOAD_FP32;
	unsigned runs = 0;
	for (;;) {
		if (idx < 0)
			idx = picker_run(&s, devs, last);
		if (idx < 0)
			break;
		last = idx;
		RunPaths paths;
		EngineConfig cfg;
		run_config(o, RUN_DASHBOARD, ctx, &devs->entries[idx], wl, ++runs, 0, &paths, &cfg);

		Error e_err;
		Engine *e = engine_create(&cfg, &e_err);
		if (!e && e_err.status == STATUS_USAGE) { /* a broken shader or an unwritable log: say it plainly */
			screen_close(&s);
			fprintf(stderr, "flopscope: %s\n", e_err.msg);
			return 2;
		}
		if (!e) {
			screen_message(&s, ROLE_STATUS_ERROR, "%s", e_err.msg);
			snprintf(last_err, sizeof last_err, "%s", e_err.msg);
			status = 1;
			idx = -1;
			continue;
		}
		if (!engine_start(e, &e_err)) {
			engine_destroy(e);
			screen_message(&s, ROLE_STATUS_ERROR, "%s", e_err.msg);
			snprintf(last_err, sizeof last_err, "%s", e_err.msg);
			status = 1;
			idx = -1;
			continue;
		}
		bool failed;
		SummaryResult sum;
		SampleSource src;
		source_engine(&src, e);
		DashExit how = dashboard_run(&s, &src, o->fps, &failed, &sum);
		bool error = engine_state(e) == ENGINE_ERROR;
		if (error)
			snprintf(err, sizeof err, "%s", engine_error(e));
		status = failed ? 1 : 0;
		if (how == DASH_QUIT) {
			screen_close(&s);
			/* what the screen showed stays on record after it is gone: the
			 * engine's own statistics, as the log's summary line has them */
			engine_join(e);
			engine_summary(e, &sum);
			report_summary_text(stdout, &sum, engine_dropped(e), engine_checks_passed(e),
			                    engine_target_ms(e));
			if (error)
				fprintf(stderr, "flopscope: %s\n", err);
			engine_destroy(e);
			return status;
		}
		engine_destroy(e);
		if (how == DASH_NEXT_WORKLOAD) {
			/* the next one this device runs; the device stays */
			char why[256];
			do
				wl = (WorkloadType)((wl + 1) % WORKLOAD_TYPE_COUNT);
			while (!workload_supported(wl, devinfo_features(&devs->entries[idx]), why, sizeof why));
			screen_message(&s, ROLE_STATUS_OK, "workload %s", workload_info[wl].name);
			continue;
		}
		idx = -1;
	}
	screen_close(&s);
	/* an error shown on the screen stays on record after it is gone */
	if (status && last_err[0])
		fprintf(stderr, "flopscope: %s\n", last_err);
	return status;
}

int ui_replay(const Options *o, volatile sig_atomic_t *quit)
{
	SessionData d;
	char err[1024];
	if (slog_read(o->replay, &d, err, sizeof err) < 0) {
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
	dashboard_run(&s, &src, o->fps, &failed, &sum);
	screen_close(&s);
	report_summary_text(stdout, &sum, 0, r.checks, r.d.meta.target_ms);
	replay_done(&r);
	return 0;
}
