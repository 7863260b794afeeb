#include "ui.h"

#include <stdio.h>
#include <time.h>

#include "dashboard.h"
#include "engine.h"
#include "picker.h"
#include "replay.h"
#include "report.h"
#include "screen.h"
#include "shader.h"
#include "slog.h"

int ui_run(const VkCtx *ctx, const Options *o, int preselected, volatile sig_atomic_t *quit)
{
	Screen s;
	if (!screen_open(&s, o->theme, quit))
		return -1;
	char dir[4096], err[ERR_LEN];
	shader_dir_resolve(o->shader_dir, dir, sizeof dir);
	int status = 0, idx = preselected, last = preselected;
	WorkloadType wl = o->workload ? (WorkloadType)workload_find(o->workload) : WORKLOAD_FP32;
	unsigned runs = 0;
	char log_buf[4096];
	for (;;) {
		if (idx < 0)
			idx = picker_run(&s, &(DeviceList){ ctx->entries, ctx->entry_count }, last);
		if (idx < 0)
			break;
		last = idx;
		EngineConfig cfg = {
			.ctx = ctx,
			.dev = &ctx->entries[idx],
			.target_ms = o->target_ms,
			.duration_s = o->duration_given ? o->duration_s : 0,
			.shader_dir = dir,
			.serial = o->serial,
			.workload = wl,
			.trials = o->trials,
			.size_lo = o->size_lo,
			.size_hi = o->size_hi,
			.transfer_queue = o->transfer_queue,
			.no_cache = o->no_cache,
			.log_path = slog_choose_path(o->no_log, o->log, ctx->entries[idx].name, ++runs,
			                             log_buf, sizeof log_buf),
		};
		Engine e;
		int rc = engine_create(&e, &cfg, err);
		if (rc == -2) { /* a broken shader or an unwritable log: say it plainly */
			screen_close(&s);
			fprintf(stderr, "flopscope: %s\n", err);
			return 2;
		}
		if (rc < 0) {
			screen_message(&s, ROLE_STATUS_ERROR, "%s", err);
			status = 1;
			idx = -1;
			continue;
		}
		if (!engine_start(&e, err)) {
			engine_destroy(&e);
			screen_message(&s, ROLE_STATUS_ERROR, "%s", err);
			status = 1;
			idx = -1;
			continue;
		}
		bool failed;
		SummaryResult sum;
		DashSource src;
		dash_source_engine(&src, &e);
		DashExit how = dashboard_run(&s, &src, o->fps, &failed, &sum);
		bool error = engine_state(&e) == ENGINE_ERROR;
		if (error)
			snprintf(err, sizeof err, "%s", engine_error(&e));
		status = failed ? 1 : 0;
		if (how == DASH_QUIT) {
			screen_close(&s);
			/* what the screen showed stays on record after it is gone */
			report_summary_text(stdout, &sum, ring_dropped(&e.ring), engine_checks_passed(&e),
			                    engine_target_ms(&e));
			if (error)
				fprintf(stderr, "flopscope: %s\n", err);
			engine_destroy(&e);
			return status;
		}
		engine_destroy(&e);
		if (how == DASH_NEXT_WORKLOAD) {
			/* the next one this device runs; the device stays */
			char why[256];
			do
				wl = (WorkloadType)((wl + 1) % WORKLOAD_TYPE_COUNT);
			while (!workload_supported(wl, devinfo_features(&ctx->entries[idx]), why, sizeof why));
			screen_message(&s, ROLE_STATUS_OK, "workload %s", workload_info[wl].name);
			continue;
		}
		idx = -1;
	}
	screen_close(&s);
	return status;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
	replay_init(&r, &d, mono_ns);
	DashSource src;
	replay_source(&src, &r, o->replay);
	bool failed;
	SummaryResult sum;
	dashboard_run(&s, &src, o->fps, &failed, &sum);
	screen_close(&s);
	report_summary_text(stdout, &sum, 0, r.checks, r.d.meta.target_ms);
	replay_done(&r);
	return 0;
}
