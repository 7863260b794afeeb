/* session_cols: the session record's fields, one row each (slog.h:
 * MetaCol), which the log's writer (slog.c) and reader (slogread.c) walk.
 * A table alone: the fuzzer links it with the reader. */
#include "slog.h"

#include "burn.h"

#include <stddef.h>

#define M_(k, old, kind, f, when, ...) \
	{ k, old, kind, offsetof(SessionMeta, f), sizeof ((SessionMeta *)0)->f, when, __VA_ARGS__ }
const MetaCol session_cols[] = {
	M_("flopscope", NULL, META_STR, flopscope_version, META_ALWAYS, 0, NULL, 0),
	M_("start_utc", NULL, META_STR, start_utc, META_ALWAYS, 0, NULL, 0),
	M_("host", NULL, META_STR, host, META_ALWAYS, 0, NULL, 0),
	M_("kernel", NULL, META_STR, kernel, META_ALWAYS, 0, NULL, 0),
	M_("cpu", NULL, META_STR, cpu, META_ALWAYS, 0, NULL, 0),
	M_("device", NULL, META_STR, device, META_ALWAYS, 0, NULL, 0),
	M_("device_type", NULL, META_STR, device_type, META_ALWAYS, 0, NULL, 0),
	M_("vendor_id", NULL, META_U32, vendor_id, META_ALWAYS, 0, NULL, 0),
	M_("device_id", NULL, META_U32, device_id, META_ALWAYS, 0, NULL, 0),
	M_("uuid", NULL, META_STR, uuid, META_ALWAYS, 0, NULL, 0),
	M_("pci_bus_id", NULL, META_STR, pci_bus_id, META_SET, 0, NULL, 0),
	M_("driver_name", NULL, META_STR, driver_name, META_ALWAYS, 0, NULL, 0),
	M_("driver_info", NULL, META_STR, driver_info, META_ALWAYS, 0, NULL, 0),
	M_("driver_version", NULL, META_STR, driver_version, META_ALWAYS, 0, NULL, 0),
	M_("api_version", NULL, META_STR, api_version, META_ALWAYS, 0, NULL, 0),
	M_("queue_family", NULL, META_U32, queue_family, META_ALWAYS, 0, NULL, 0),
	M_("queue", NULL, META_STR, queue, META_ALWAYS, 0, "compute", 0),
	M_("workload", NULL, META_STR, workload, META_ALWAYS, 0, NULL, 0),
	M_("work_per_invocation", "flop_per_invocation", META_U64, flop_per_invocation, META_ALWAYS, 0, NULL, 0),
	M_("local_size", NULL, META_U32, local_size, META_ALWAYS, 0, NULL, 0),
	M_("shader_hash", NULL, META_STR, shader_hash, META_ALWAYS, 0, NULL, 0),
	M_("target_ms", NULL, META_DBL, target_ms, META_ALWAYS, 0, NULL, 0),
	M_("trials", NULL, META_U32, trials, META_ALWAYS, 1, NULL, 1),
	M_("timing", NULL, META_STR, timing, META_ALWAYS, 0, NULL, 0),
	M_("peak", NULL, META_STR, peak, META_ALWAYS, 0, NULL, 0),
	M_("peak_max_rate", "peak_max_flops", META_DBL, peak_max_flops, META_SET, 0, NULL, 0),
	M_("sm_max_mhz", NULL, META_DBL, sm_max_mhz, META_SET, 0, NULL, 0),
	M_("telemetry", NULL, META_STR, telemetry, META_ALWAYS, 0, NULL, 0),
	M_("unit", NULL, META_STR, unit, META_SET, 0, NULL, 0),
	M_("node", NULL, META_STR, node, META_SET, 0, NULL, 0),
	M_("ordinal", NULL, META_U32, ordinal, META_NODE, 0, NULL, 0),
	M_("devices", NULL, META_U32, devices, META_NODE, 0, NULL, 0),
	M_("burn_s", NULL, META_DBL, burn_s, META_SET, 0, NULL, 0),
	M_("burn_window_s", NULL, META_DBL, burn_window_s, META_SET, 0, NULL, 0),
	M_("burn_margin_pct", NULL, META_DBL, burn_margin_pct, META_SET, 0, NULL, 0),
	M_("burn_log_budget_b", NULL, META_U64, burn_log_budget_b, META_SET, 0, NULL, 0),
	M_("burn_turn", NULL, META_U32, burn_turn, META_SET, 0, NULL, 0),
	M_("burn_turns", NULL, META_U32, burn_turns, META_SET, 0, NULL, 0),
};
#undef M_
const size_t session_col_count = sizeof session_cols / sizeof *session_cols;

/* the keys the burn's own burn_window records use, where they have one */
#define W_(k, kind, f) { k, kind, offsetof(BurnWindow, f) }
const WinCol window_cols[] = {
	W_("window", WIN_INDEX, index),
	W_("t_start_s", WIN_DBL, t0_s),
	W_("t_end_s", WIN_DBL, t1_s),
	W_("partial", WIN_BOOL, partial),
	W_("samples", WIN_SIZE, samples),
	W_("steady_samples", WIN_SIZE, steady),
	W_("verified_samples", WIN_SIZE, verified),
	W_("median", WIN_DBL, median),
	W_("min", WIN_DBL, min),
	W_("max", WIN_DBL, max),
	W_("noise", WIN_DBL, noise),
	W_(TEL_KEY_SM_MHZ, WIN_DBL, mhz),
	W_(TEL_KEY_POWER_W, WIN_DBL, watts),
	W_("temp_max_c", WIN_DBL, temp_max),
	W_("temp_slowdown_c", WIN_DBL, temp_slowdown),
	W_("held_power_cap", WIN_DBL, held_power),
	W_("held_thermal", WIN_DBL, held_thermal),
	W_("held_hw_slowdown", WIN_DBL, held_hw),
	W_("other_gpu", WIN_DBL, others),
	W_(TEL_KEY_PCIE_REPLAYS, WIN_DBL, replays),
	W_("ecc_uncorrected_new", WIN_DBL, ecc_new),
	W_("rows_remap_pending", WIN_FLAG, remap_pending),
	W_("rows_remap_failed", WIN_FLAG, remap_failed),
	W_("run_failed", WIN_BOOL, error),
};
#undef W_
const size_t window_col_count = sizeof window_cols / sizeof *window_cols;
