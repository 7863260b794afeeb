#include "ui.h"

#include <stdio.h>

#include "dashboard.h"
#include "engine.h"
#include "picker.h"
#include "report.h"
#include "screen.h"
#include "shader.h"

int ui_run(const VkCtx *ctx, const Options *o, int preselected, volatile sig_atomic_t *quit)
{
	Screen s;
	if (!screen_open(&s, o->theme, quit))
		return -1;
	char dir[4096], err[ERR_LEN];
	shader_dir_resolve(o->shader_dir, dir, sizeof dir);
	int status = 0, idx = preselected, last = preselected;
	for (;;) {
		if (idx < 0)
			idx = picker_run(&s, ctx, last);
		if (idx < 0)
			break;
		last = idx;
		EngineConfig cfg = {
			.ctx = ctx,
			.dev = &ctx->entries[idx],
			.target_ms = o->target_ms,
			.duration_s = o->duration_given ? o->duration_s : 0,
			.shader_dir = dir,
		};
		Engine e;
		int rc = engine_create(&e, &cfg, err);
		if (rc == -2) { /* a broken shader: nothing to pick instead */
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
		bool failed;
		SummaryResult sum;
		DashExit how = dashboard_run(&s, &e, o->fps, &failed, &sum);
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
		idx = -1;
	}
	screen_close(&s);
	return status;
}
