/* The measured quantities' table, one row each: TEL_ROW(ID, fields) gives
 * the enum's TEL_ID (sample.h: TelField) and its row of tel_info
 * (sample.c). What walks it: the log's samples (records.c, slogread.c), the
 * sample CSV (report.c) and CSV traces (csvread.c) by .key; --watch's
 * records (a column each where .watch, in .fmt); the metrics (a family each
 * where .metric: the latest reading times .scale, a gauge, or a counter
 * for the counter kinds, with .help). A reading outside [.lo, .hi] is one
 * the hardware cannot give: no reading, from a driver or a log (a logged
 * power of 1e308 W made a 309-digit mean). A new quantity is a row here and
 * the source that reads it. Every field of every row is named. Included
 * only by sample.h and sample.c, with TEL_ROW defined. */
TEL_ROW(SM_MHZ,
	.key = TEL_KEY_SM_MHZ, .unit = "MHz", .kind = TEL_GAUGE, .lo = 0, .hi = 1e5,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_clock_hertz", .scale = 1e6,
	.help = "The device's shader clock, the latest reading.",
	.what = "the GPU's shader clock, or the CPU clock for CPU devices")
TEL_ROW(MEM_MHZ,
	.key = "mem_mhz", .unit = "MHz", .kind = TEL_GAUGE, .lo = 0, .hi = 1e5,
	.fmt = "%.0f", .watch = true, .metric = NULL, .scale = 1, .help = NULL,
	.what = "the memory clock")
TEL_ROW(POWER_W,
	.key = TEL_KEY_POWER_W, .unit = "W", .kind = TEL_GAUGE, .lo = 0, .hi = 1e5,
	.fmt = "%.1f", .watch = true, .metric = "flopscope_power_watts", .scale = 1,
	.help = "The device's power draw, the latest reading.",
	.what = "the board's (or package's) power")
TEL_ROW(POWER_INSTANT_W,
	.key = "power_instant_w", .unit = "W", .kind = TEL_GAUGE, .lo = 0, .hi = 1e5,
	.fmt = "%.1f", .watch = true, .metric = "flopscope_power_instant_watts", .scale = 1,
	.help = "The device's power draw now, the latest instant reading (NVML's NVML_FI_DEV_POWER_INSTANT), beside "
	        "flopscope_power_watts, the driver's average.",
	.what = "the board's power now, where the driver reads it instant: NVML's field NVML_FI_DEV_POWER_INSTANT "
	        "(power_w is NVML's average over the last second on Ampere and newer)")
TEL_ROW(TEMP_C,
	.key = TEL_KEY_TEMP_C, .unit = "C", .kind = TEL_GAUGE, .lo = -100, .hi = 300,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_temperature_celsius", .scale = 1,
	.help = "The device's temperature, the latest reading.",
	.what = "the GPU's temperature")
TEL_ROW(PSTATE,
	.key = "pstate", .unit = "", .kind = TEL_STATE, .lo = 0, .hi = 32,
	.fmt = "%.0f", .watch = true, .metric = NULL, .scale = 1, .help = NULL,
	.what = "NVIDIA's performance state, 0 = P0")
TEL_ROW(THROTTLE,
	.key = "throttle", .unit = "", .kind = TEL_BITS, .lo = 0, .hi = 4294967295.0,
	.fmt = "%.0f", .watch = true, .metric = NULL, .scale = 1, .help = NULL,
	.what = "what holds the clock: reason bits (throttle.h: NVML's, AMD's and Intel's mapped onto them)")
TEL_ROW(OTHER_CPU,
	.key = "other_cpu", .unit = "%", .kind = TEL_GAUGE, .lo = 0, .hi = 100,
	.fmt = "%.1f", .watch = true, .metric = NULL, .scale = 1, .help = NULL,
	.what = "CPU devices: the share of all cores' time other processes (and a hypervisor's steal) took, "
	        "over the last 250 ms or more")
TEL_ROW(OTHER_GPU,
	.key = "other_gpu", .unit = "", .kind = TEL_GAUGE, .lo = 0, .hi = 1e6,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_other_processes", .scale = 1,
	.help = "Other processes with a context on the device (NVML's lists), the latest reading.",
	.what = "GPUs: how many other processes have a context on the device (NVML's running compute and "
	        "graphics processes, less this one)")
TEL_ROW(OTHER_GPU_MEM_B,
	.key = "other_gpu_mem_b", .unit = "B", .kind = TEL_GAUGE, .lo = 0, .hi = 1e15,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_other_processes_memory_bytes", .scale = 1,
	.help = "The device memory the other processes on the device hold (NVML's per-process used memory, or "
	        "their DRM fdinfo), where every one of them states it; the latest reading.",
	.what = "GPUs: the device memory the other processes hold, summed, where every one of them states it "
	        "(NVML's per-process used memory, the DRM clients' fdinfo)")
TEL_ROW(POWER_LIMIT_W,
	.key = TEL_KEY_POWER_LIMIT_W, .unit = "W", .kind = TEL_GAUGE, .lo = 0, .hi = 1e5,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_power_limit_watts", .scale = 1,
	.help = "The device's power limit, the latest reading.",
	.what = "the power limit enforced now: NVML's enforced limit, hwmon power1_cap (AMD), RAPL's package "
	        "long-term limit (CPUs)")
TEL_ROW(VIOL_POWER_S,
	.key = "viol_power_s", .unit = "s", .kind = TEL_SECONDS_COUNTER, .lo = 0, .hi = 1e12,
	.fmt = "%.3f", .watch = false, .metric = NULL, .scale = 1, .help = NULL,
	.what = "NVML's violation counter, the time at a limit by the driver's count: the seconds the clock was "
	        "below its target by the power limit since the driver started")
TEL_ROW(VIOL_THERMAL_S,
	.key = "viol_thermal_s", .unit = "s", .kind = TEL_SECONDS_COUNTER, .lo = 0, .hi = 1e12,
	.fmt = "%.3f", .watch = false, .metric = NULL, .scale = 1, .help = NULL,
	.what = "... and a thermal limit")
TEL_ROW(ENERGY_J,
	.key = "energy_counter_j", .unit = "J", .kind = TEL_COUNTER, .lo = 0, .hi = 1e15,
	.fmt = "%.3f", .watch = false, .metric = "flopscope_device_energy_joules_total", .scale = 1,
	.help = "The energy the device's own counter counted since the driver loaded (NVML's "
	        "nvmlDeviceGetTotalEnergyConsumption, as DCGM's DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION), the latest reading.",
	.what = "the card's energy counter since the driver loaded (NVML's nvmlDeviceGetTotalEnergyConsumption, mJ "
	        "read as J), read every 250 ms: a run's energy is its difference")
TEL_ROW(PCIE_GTS,
	.key = "pcie_gts", .unit = "GT/s", .kind = TEL_GAUGE, .lo = 0, .hi = 256,
	.fmt = "%.1f", .watch = false, .metric = "flopscope_pcie_link_transfers_per_second", .scale = 1e9,
	.help = "The PCIe link's speed a lane, the latest reading (sysfs current_link_speed).",
	.what = "the PCIe link's speed now, per lane (sysfs current_link_speed)")
TEL_ROW(PCIE_WIDTH,
	.key = "pcie_width", .unit = "lanes", .kind = TEL_GAUGE, .lo = 1, .hi = 64,
	.fmt = "%.0f", .watch = false, .metric = "flopscope_pcie_link_width_lanes", .scale = 1,
	.help = "The PCIe link's lanes, the latest reading (current_link_width).",
	.what = "its lanes now (current_link_width)")
TEL_ROW(PCIE_MAX_GTS,
	.key = "pcie_max_gts", .unit = "GT/s", .kind = TEL_GAUGE, .lo = 0, .hi = 256,
	.fmt = "%.1f", .watch = false, .metric = "flopscope_pcie_link_max_transfers_per_second", .scale = 1e9,
	.help = "The speed a lane the PCIe link can train to (max_link_speed); below it under load is a degraded "
	        "link.",
	.what = "the speed it can train to (max_link_speed)")
TEL_ROW(PCIE_MAX_WIDTH,
	.key = "pcie_max_width", .unit = "lanes", .kind = TEL_GAUGE, .lo = 1, .hi = 64,
	.fmt = "%.0f", .watch = false, .metric = "flopscope_pcie_link_max_width_lanes", .scale = 1,
	.help = "The lanes the PCIe link can train to (max_link_width).",
	.what = "and its lanes (max_link_width)")
TEL_ROW(PCIE_REPLAYS,
	.key = TEL_KEY_PCIE_REPLAYS, .unit = "", .kind = TEL_COUNTER, .lo = 0, .hi = 18446744073709551615.0,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_pcie_replays_total", .scale = 1,
	.help = "The PCIe link's replays (retransmissions) the driver counted since it started (NVML's replay counter, "
	        "amdgpu's pcie_replay_count); a check fails a transfer that saw more than " TEL_STR(PCIE_MAX_REPLAYS) ".",
	.what = "the link's replays (retransmissions) counted since the driver started: NVML's replay counter, "
	        "amdgpu's pcie_replay_count")
TEL_ROW(ECC_UNCORRECTED,
	.key = "ecc_uncorrected", .unit = "", .kind = TEL_COUNTER, .lo = 0, .hi = 18446744073709551615.0,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_ecc_uncorrected_errors_total", .scale = 1,
	.help = "The device memory's uncorrected ECC errors since the driver loaded (NVML's volatile count, "
	        "nvmlDeviceGetTotalEccErrors), the latest reading.",
	.what = "the memory's uncorrected ECC errors since the driver loaded (NVML's volatile count), read every 250 ms")
TEL_ROW(ECC_CORRECTED,
	.key = "ecc_corrected", .unit = "", .kind = TEL_COUNTER, .lo = 0, .hi = 18446744073709551615.0,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_ecc_corrected_errors_total", .scale = 1,
	.help = "The device memory's corrected ECC errors since the driver loaded (NVML's volatile count), the latest "
	        "reading.",
	.what = "... and its corrected ones")
TEL_ROW(REMAP_PENDING,
	.key = "rows_remap_pending", .unit = "", .kind = TEL_STATE, .lo = 0, .hi = 1,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_row_remap_pending", .scale = 1,
	.help = "1 where a row remap of the device's memory waits for a GPU reset (NVML's nvmlDeviceGetRemappedRows).",
	.what = "1 where a remap of a memory row waits for a GPU reset (NVML's nvmlDeviceGetRemappedRows), read every "
	        "250 ms")
TEL_ROW(REMAP_FAILED,
	.key = "rows_remap_failed", .unit = "", .kind = TEL_STATE, .lo = 0, .hi = 1,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_row_remap_failure", .scale = 1,
	.help = "1 where a row remap of the device's memory failed (NVML's nvmlDeviceGetRemappedRows).",
	.what = "1 where a remap failed: the memory has no spare row left")
TEL_ROW(TEMP_SLOWDOWN_C,
	.key = "temp_slowdown_c", .unit = "C", .kind = TEL_GAUGE, .lo = -100, .hi = 300,
	.fmt = "%.0f", .watch = true, .metric = "flopscope_temperature_slowdown_celsius", .scale = 1,
	.help = "The temperature at which the device slows itself (NVML's NVML_TEMPERATURE_THRESHOLD_SLOWDOWN).",
	.what = "the GPU's own slowdown threshold: the temperature at which its driver slows the clock (NVML's "
	        "nvmlDeviceGetTemperatureThreshold, NVML_TEMPERATURE_THRESHOLD_SLOWDOWN), read once when the source opens")
