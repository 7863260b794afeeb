#include "runcfg.h"

#include <stdio.h>
#include <string.h>

#include "shader.h"
#include "slog.h"

void run_plan(const Options *o, RunUse use, const struct VkCtx *ctx, const DeviceInfo *dev, WorkloadType wl,
              unsigned nth, uint64_t launch_ns, const RunSlot *slot, RunPaths *paths, EngineConfig *cfg)
{
	static const RunSlot alone = { 0 };
	if (!slot)
		slot = &alone;
	double duration = o->duration_s;
	if (use == RUN_DASHBOARD)
		duration = o->duration_given ? o->duration_s : 0;
	else if (use == RUN_SUITE)
		/* the growth phase is short; the window is what counts */
		duration = (o->duration_given ? o->duration_s : RUN_SUITE_WINDOW_S) + 0.25;
	else if (use == RUN_BURN)
		duration = o->burn_s;
	shader_dir_resolve(o->shader_dir, paths->shader_dir, sizeof paths->shader_dir);
	*cfg = (EngineConfig){
		.ctx = ctx,
		.dev = dev,
		.target_ms = o->target_ms,
		.duration_s = duration,
		.shader_dir = paths->shader_dir,
		.serial = o->serial,
		.no_cache = o->no_cache,
		.workload = wl,
		.trials = o->trials,
		.size_lo = o->size_lo,
		.size_hi = o->size_hi,
		.transfer_queue = o->transfer_queue,
		.launch_ns = launch_ns,
		.log_path = slog_choose_path(o->no_log, o->log, dev->name, workload_info[wl].name, slot->stamp, nth,
		                             paths->log,
		                             sizeof paths->log),
		.log_mode = !o->log ? SLOG_UNIQUE : o->force ? SLOG_REPLACE : SLOG_NEW,
		.ordinal = slot->ordinal,
		.devices = slot->devices,
		.node_id = slot->node_id,
	};
	if (use == RUN_BURN) {
		cfg->burn_s = o->burn_s;
		cfg->burn_window_s = o->window_s;
		cfg->burn_margin_pct = o->outlier_pct;
		/* the burn's logs together within --log-cap: each device its share */
		cfg->burn_log_budget_b = o->log_cap / (slot->devices ? slot->devices : 1);
		cfg->burn_turn = slot->burn_turn;
		cfg->burn_turns = slot->burn_turns;
	}
	if (use == RUN_SUITE) {
		/* one size a workload; a device's workloads share one log */
		uint64_t size = o->size_hi;
		if (workload_info[wl].kind == WL_TRANSFER && !size)
			size = RUN_SUITE_TRANSFER_SIZE;
		cfg->size_lo = cfg->size_hi = size;
		cfg->transfer_queue = slot->transfer_queue;
		cfg->extend_s = slot->check ? 0 : RUN_SUITE_EXTEND_S;
		cfg->device_locked = slot->check;
		if (cfg->log_path && slot->log) {
			cfg->log_path = slot->log;
			cfg->log_mode = SLOG_APPEND;
		}
	}
}

bool run_workloads(const char *list, int *wl, size_t *n)
{
	char why[512];
	if (workload_list(list, wl, n, why, sizeof why))
		return true;
	fprintf(stderr, "flopscope: %s\n", why);
	return false;
}
