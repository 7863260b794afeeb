/* throttle: why a GPU runs below its clock, one set of reasons for every
 * vendor. The bits are NVML's clocks-event reasons (what the session logs
 * have always held for NVIDIA), plus one NVML has no bit for; AMD's
 * gpu_metrics and Intel's sysfs reasons are mapped onto them. Pure. */
#ifndef FLOPSCOPE_THROTTLE_H
#define FLOPSCOPE_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	THR_POWER_CAP = 0x4,        /* a power limit: NVML SwPowerCap, AMD PPT/SPL, Intel PL1/PL2/PL4 */
	THR_HW_SLOWDOWN = 0x8,      /* NVML HwSlowdown; PROCHOT on AMD and Intel */
	THR_THERMAL_SW = 0x20,      /* NVML SwThermalSlowdown; Intel RATL (running average) */
	THR_THERMAL_HW = 0x40,      /* NVML HwThermalSlowdown; AMD's temperature limits, Intel thermal, VR alerts */
	THR_POWER_BRAKE = 0x80,     /* NVML HwPowerBrakeSlowdown */
	THR_CURRENT = 0x10000,      /* a current or voltage limit: AMD TDC/EDC, Intel VR TDC (no NVML bit) */
};

/* The reasons that lower the clock, each once, in one table: bit, words. */
typedef struct ThrottleReason {
	uint64_t bit;
	const char *name;
	const char *key;     /* in JSON and the metrics' reason label */
} ThrottleReason;
extern const ThrottleReason throttle_reasons[];
extern const size_t throttle_reason_count;

/* One word for each thing a held clock can mean, the same in every output
 * (the dashboard, the summary, --analyze, the SVG, the check, the metrics'
 * help and the man page): "clock held" once said all four. A change's
 * cause is the fourth (change_cause_names, change.h). */
/* the reasons the driver says hold the clock, with their time or share */
#define HELD_BY "held by"
/* NVML's violation counters: the time the driver counted at a policy's limit */
#define HELD_AT_LIMIT "time at a limit, driver's count"
/* a clock read the same on both sides of a change or an event */
#define HELD_CLOCK_SAME "clock unchanged at"

/* The reasons set in bits, by name ("power cap, thermal (software)"); ""
 * when none of them is. */
void throttle_names(uint64_t bits, char *out, size_t len);

/* AMD's ASIC-independent throttler status (gpu_metrics v1.3+, v2.2+:
 * indep_throttle_status) as reasons. The hotspot bit is masked below 90 C
 * (hotspot_c; NaN: unknown, kept), as amdgpu_top does: some SMU firmware
 * (13.0.0, 13.0.7) sets it at idle. */
uint64_t throttle_from_amd(uint64_t indep, double hotspot_c);

/* Intel's reasons (i915 gt/gt0/throttle_reason_*, xe .../throttle/reason_*)
 * by name ("pl1", "thermal", ...), each set or not; an unknown name maps to
 * nothing. */
uint64_t throttle_from_intel(const char *name, bool set);
/* The names of Intel's reason files, i from 0; NULL past the last. */
const char *throttle_intel_name(size_t i);

/* What AMD's gpu_metrics file says (drivers/gpu/drm/amd/include/
 * kgd_pp_interface.h), for the formats listed by gpu_metrics_formats():
 * v1.1-v1.3 (discrete GPUs), v1.4-v1.8 (MI300, MI350: clocks, power and
 * hotspot; no reasons) and v2.2-v2.4 (APUs: clocks and reasons; v2.4 power
 * and temperature too); NaN or !has_throttle where the format has no such
 * field or the firmware left it unset (0xffff). */
typedef struct GpuMetrics {
	unsigned format, content;   /* the header's revisions */
	double gfx_mhz;             /* current_gfxclk (v1.4-v1.8: the first XCC's) */
	double mem_mhz;             /* current_uclk */
	double power_w;             /* average_socket_power (v1.4+: curr_socket_power) */
	double edge_c, hotspot_c;   /* temperatures */
	bool has_throttle;
	uint64_t indep_throttle;    /* v1.3, v2.2+: indep_throttle_status */
} GpuMetrics;

/* Parses a gpu_metrics blob of n bytes; false (why in why) for a blob too
 * short for its header's size, or of a format not listed above. */
bool gpu_metrics_parse(const void *blob, size_t n, GpuMetrics *out, char *why, size_t len);
/* The formats read, in words ("v1.1-v1.8, v2.2-v2.4"). */
const char *gpu_metrics_formats(void);

#endif
