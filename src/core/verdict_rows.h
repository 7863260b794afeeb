/* The causes a check's verdict is made of, one row each: VERDICT_CAUSE(ID,
 * fields) gives the enum's VC_ID (verdict.h) and its row of verdict_causes
 * (verdict.c): the stable code a fleet counts and alerts on (ID, spelled
 * once), its severity,
 * the names of the figures it carries (in the order verdict_add takes them)
 * and the action an admin takes. docs/FLEET.md's table of codes is held to
 * these rows by a test. A code, once shipped, keeps its spelling.
 * Included only by verdict.h and verdict.c, with VERDICT_CAUSE defined. */

/* the device's own results */
VERDICT_CAUSE(WRONG_RESULT, .sev = SEV_FAIL, .fig = { NULL },
	.action = "Take the GPU out of service: it computed wrong values. Check it again after a reset; if it repeats, "
	          "run the vendor's memory and diagnostic tests (DCGM diag level 3) and report it.")
VERDICT_CAUSE(RUN_ERROR, .sev = SEV_ERROR, .fig = { NULL },
	.action = "The run failed in the driver or device: read the message, the kernel log (dmesg) and the driver's "
	          "own report (nvidia-smi -q); reset the GPU and check again.")
VERDICT_CAUSE(UNSUPPORTED, .sev = SEV_INFO, .fig = { NULL },
	.action = "None: the device lacks what the workload needs (a feature or memory type).")
/* a GPU of the host that Vulkan does not show (engine/inventory.h) */
VERDICT_CAUSE(MISSING, .sev = SEV_FAIL, .fig = { "gpu" },
	.action = "Read the cause named: turn MIG mode off for a check (nvidia-smi -mig 0), install the vendor's Vulkan "
	          "driver, give a container the driver's graphics capability (NVIDIA_DRIVER_CAPABILITIES=compute,utility,"
	          "graphics); a GPU no driver holds or NVML cannot open wants a reset or service.")
VERDICT_CAUSE(GPU_COUNT, .sev = SEV_FAIL, .fig = { "expected", "visible" },
	.action = "Count the node's GPUs (lspci, nvidia-smi -L): a GPU gone from the bus wants a reseat or service; "
	          "where the node has fewer by design, set --expect-gpus (expect_gpus) to its count.")
/* the figure against its reference */
VERDICT_CAUSE(NO_STEADY_SAMPLE, .sev = SEV_FAIL, .fig = { NULL },
	.action = "Check again with a longer --budget; where it repeats, find what else holds the device.")
VERDICT_CAUSE(BUDGET_EXHAUSTED, .sev = SEV_FAIL, .fig = { "budget_s", "elapsed_s" },
	.action = "Give the check a longer --budget or fewer workloads (--workload).")
VERDICT_CAUSE(CUT_SHORT, .sev = SEV_WARN, .fig = { NULL },
	.action = "Read the figure as a shorter run's; a longer --budget measures it whole.")
VERDICT_CAUSE(AT_PEAK, .sev = SEV_OK, .fig = { "ratio", "threshold", "ratio_at_clock" },
	.action = "None.")
VERDICT_CAUSE(BELOW_PEAK, .sev = SEV_FAIL, .fig = { "ratio", "threshold", "ratio_at_clock" },
	.action = "Read the causes beside it (clock, power, other processes, link); with none, compare it with a "
	          "healthy GPU of its model (--baseline) and the vendor's diagnostics.")
VERDICT_CAUSE(AT_BASELINE, .sev = SEV_OK, .fig = { "ratio", "threshold" },
	.action = "None.")
VERDICT_CAUSE(BELOW_BASELINE, .sev = SEV_FAIL, .fig = { "ratio", "threshold" },
	.action = "Read the causes beside it; check that the baseline is of the same model, driver and settings "
	          "(--compare the two logs).")
VERDICT_CAUSE(BASELINE_UNSURE, .sev = SEV_WARN, .fig = { "ratio", "threshold" },
	.action = "The data cannot tell it from the baseline: check again with a longer --budget.")
VERDICT_CAUSE(BASELINE_UNUSABLE, .sev = SEV_WARN, .fig = { NULL },
	.action = "Record the baseline again (--log) with a longer run.")
VERDICT_CAUSE(AT_POWER_LIMIT, .sev = SEV_OK, .fig = { "ratio", "threshold", "mean_w" },
	.action = "None.")
VERDICT_CAUSE(BELOW_POWER_LIMIT, .sev = SEV_FAIL,
	.fig = { "ratio", "threshold", "mean_w" },
	.action = "Read the clock causes beside it; a GPU that cannot draw its limit under the power load has a "
	          "power delivery or cooling fault: the vendor's diagnostics (DCGM targeted_power).")
VERDICT_CAUSE(NO_POWER_READING, .sev = SEV_INFO, .fig = { NULL },
	.action = "None where the driver reads no power; only the result checks held.")
VERDICT_CAUSE(NO_REFERENCE, .sev = SEV_INFO, .fig = { NULL },
	.action = "Record a log on a healthy GPU of the model (--log) and check with --baseline; a node of identical "
	          "GPUs holds each to its peers.")
/* the clock's causes */
VERDICT_CAUSE(THROTTLE_HW, .sev = SEV_FAIL, .fig = { NULL },
	.action = "Check cooling (fans, airflow, inlet temperature) and power delivery; a HW slowdown at a cool "
	          "temperature is the power brake or a board fault (nvidia-smi -q -d PERFORMANCE).")
VERDICT_CAUSE(POWER_CAP, .sev = SEV_INFO, .fig = { NULL },
	.action = "None: the power limit holding the clock is the limit doing its job (reported, not failed).")
/* the link's */
VERDICT_CAUSE(LINK_DOWNGRADED, .sev = SEV_FAIL, .fig = { NULL },
	.action = "Reseat the GPU or its riser and check the slot's link settings; lspci -vv shows LnkSta against "
	          "LnkCap.")
VERDICT_CAUSE(PCIE_REPLAYS, .sev = SEV_FAIL, .fig = { "replays", "limit" },
	.action = "Reseat the card and check its riser and cables; replays that go on after a reseat are a board or "
	          "slot fault.")
/* what shared the device */
VERDICT_CAUSE(OTHER_PROCESS, .sev = SEV_WARN, .fig = { "processes" },
	.action = "Find the process named (PID and name) and check the GPU when it is free; a Slurm prolog runs "
	          "before the job's own processes.")
/* the node's identical devices */
VERDICT_CAUSE(OUTLIER, .sev = SEV_FAIL, .fig = { "peer_ratio", "peers", "noise" },
	.action = "Read its other causes against its peers'; check it again alone; where it stays below them, the "
	          "vendor's diagnostics.")
VERDICT_CAUSE(PEERS_UNSURE, .sev = SEV_WARN, .fig = { "peer_ratio", "peers", "noise" },
	.action = "Below its peers within the runs' noise: check again with a longer --budget.")
VERDICT_CAUSE(AT_PEERS, .sev = SEV_OK, .fig = { "peer_ratio", "peers" },
	.action = "None.")
/* a burn's window against the device's first (core/burn.h) */
VERDICT_CAUSE(DRIFT, .sev = SEV_FAIL, .fig = { "ratio", "window", "noise" },
	.action = "The GPU's throughput sank over the soak: read its temperature and clock over the burn's windows "
	          "(the report); check cooling (fans, airflow, thermal paste, inlet temperature) and run the burn again.")
VERDICT_CAUSE(DRIFT_UNSURE, .sev = SEV_WARN, .fig = { "ratio", "window", "noise" },
	.action = "Below its first window within the runs' noise: burn again with longer windows (--window).")
VERDICT_CAUSE(ECC_UNCORRECTED, .sev = SEV_FAIL, .fig = { "errors" },
	.action = "Drain the node: the GPU's memory returned uncorrected errors. Reset the GPU (its pending row remaps "
	          "apply then) and burn again; errors that recur are a board to replace.")
VERDICT_CAUSE(ROW_REMAP_PENDING, .sev = SEV_WARN, .fig = { 0 },
	.action = "A remap of a memory row waits for a GPU reset: drain the node and reset the GPU before it carries "
	          "work.")
VERDICT_CAUSE(ROW_REMAP_FAILED, .sev = SEV_FAIL, .fig = { 0 },
	.action = "The memory has no spare row left to remap: replace the GPU.")
VERDICT_CAUSE(TEMP_AT_SLOWDOWN, .sev = SEV_FAIL, .fig = { "hottest_c", "slowdown_c" },
	.action = "The GPU reached the temperature at which it slows itself: check cooling (fans, airflow, inlet "
	          "temperature, the heatsink's contact) before it carries work.")
VERDICT_CAUSE(TEMP_NEAR_SLOWDOWN, .sev = SEV_WARN, .fig = { "hottest_c", "slowdown_c" },
	.action = "Within 5 C of its slowdown threshold under the burn: little headroom; check the cooling and the "
	          "inlet temperature.")
/* a transfer of the host's devices at once */
VERDICT_CAUSE(SHARED_TRANSFER, .sev = SEV_INFO, .fig = { "devices", "sum" },
	.action = "None: the host's share, held to no threshold; the device's verdict is its link's, measured alone.")
