/* peak: the device's theoretical FP32 peak, where it can be computed, and
 * the plausibility guard built on it. Pure.
 *   NVIDIA: SMs (VK_NV_shader_sm_builtins) x FP32 lanes per SM (by device id:
 *           128 on Hopper, Ada and GA10x, 64 on GA100, Volta and Turing) x 2 x clock
 *   AMD:    CUs (VK_AMD_shader_core_properties) x 64 lanes x 2 x clock
 *   CPU:    cores x SIMD lanes (llvmpipe's vector width from its name) x 2 FMA
 *           ports x 2 x clock
 * Anything else: unknown, and said so. */
#ifndef FLOPSCOPE_PEAK_H
#define FLOPSCOPE_PEAK_H

#include <stdbool.h>
#include <stddef.h>

#include "devinfo.h"
#include "workload.h"

#define PEAK_IMPLAUSIBLE 1.05  /* above 105% of the peak: not believed */

typedef struct Peak {
	bool known;
	double fma_lanes;        /* FP32 FMA lanes of the whole device */
	double max_mhz;          /* the highest clock; 0 unknown */
	double fixed;            /* a peak not set by a clock (B/s of a PCIe link); 0 none */
	char how[200];           /* the formula, or why unknown */
} Peak;

/* The peak of workload t. cpu_cores matters for CPU devices; max_mhz is the
 * device clock limit from telemetry (0 unknown). Lanes per SM for NVIDIA by
 * device id: FP32 as above; FP64 64 on Hopper, 32 on GA100 and Volta, 2 on
 * the others; INT32 64 from Volta on. CPU: FP64 lanes are half the FP32
 * ones; integer multiply-add throughput varies by core: unknown. */
void peak_compute(const DeviceInfo *d, WorkloadType t, unsigned cpu_cores, double max_mhz, Peak *p);
/* Lanes per SM of an NVIDIA device id for a workload (FP16: twice FP32 on
 * Hopper and GA100, packed; the FP32 rate elsewhere); 0 unknown. */
unsigned peak_nvidia_lanes_per_sm_of(uint32_t device_id, WorkloadType t);
/* Where a workload's theoretical figure comes from. */
typedef enum PeakKind {
	PEAK_ARITH,    /* lanes x 2 x clock (peak_compute) */
	PEAK_MEMORY,   /* device memory bandwidth (peak_memory): copy, d2d */
	PEAK_PCIE,     /* the PCIe link (peak_pcie): host <-> device transfers */
} PeakKind;
PeakKind peak_kind(WorkloadType t);

/* Transfers between host and device: the PCIe link's payload rate in one
 * direction, from sysfs's current_link_speed ("32.0 GT/s PCIe") and
 * current_link_width ("16"): 8b/10b coding up to 5 GT/s, 128b/130b above.
 * False (p says why) when the text is not understood. */
/* A PCIe link as sysfs states it: "32.0 GT/s PCIe" and "16" into gts and
 * lanes; false where not understood ("Unknown", 0 lanes). */
bool pcie_link_parse(const char *speed, const char *width, double *gts, unsigned *lanes);
/* The generation of a lane speed: 2.5 GT/s Gen1 ... 64 GT/s Gen6; 0 unknown. */
int pcie_gen(double gts);
/* "Gen5 x16" (a speed without a generation: "20.0 GT/s x16"). */
void pcie_link_str(double gts, double lanes, char *out, size_t len);
/* Whether a link ran below what it can train to (its speed or its lanes),
 * in words into why: "PCIe Gen4 x8, below its maximum Gen5 x16"; false
 * where it did not or a figure is unknown (NaN). */
bool pcie_link_degraded(double gts, double lanes, double max_gts, double max_lanes, char *why, size_t len);
/* The PCIe replays a transfer's run may see before its link fails the
 * check: DCGM's pcie plugin's default (max_pcie_replays, 80 while it runs). */
#define PCIE_MAX_REPLAYS 80

bool peak_pcie(const char *speed, const char *width, Peak *p);
/* Device memory: two transfers per memory clock over the bus (NVML's memory
 * clock and bus width: 2619 MHz x 5120 bits on an H100 SXM give 3.35 TB/s).
 * False (p says why) without both. */
bool peak_memory(double mem_mhz, unsigned bus_bits, Peak *p);
/* FLOPS (or B/s) at a clock (MHz); 0 when unknown. */
double peak_flops(const Peak *p, double mhz);
/* FP32 lanes per SM of an NVIDIA device id; 0 when not in the table. */
unsigned peak_nvidia_lanes_per_sm(uint32_t device_id);
/* FP32 lanes a CU counts for an AMD PCI device id: 128 where the
 * architecture issues two FP32 operations a lane (RDNA3, RDNA4) or packs
 * them (CDNA2-4), else 64; *why names which. */
unsigned peak_amd_lanes_per_cu(uint32_t device_id, const char **why);

/* The default --check threshold of a workload, % of its theoretical peak:
 * below what a healthy device reached on the H100 (driver 580.159.04, one
 * --check run, docs/FLEET.md): FMA chains 99.4% -> 90; cooperative matrices
 * 61% of the wgmma peak (the Vulkan path runs at mma.sync's rate) -> 55; the
 * copy shader 89.6% of the memory bandwidth -> 80; transfers 78-83% of the
 * PCIe link's raw rate -> 70. */
double peak_check_threshold_pct(WorkloadType t);
/* "90<pct> FMA chains, 55<pct> tensor, 80<pct> copy, 70<pct> transfers":
 * every class's threshold, from the table, in the workloads' order; the
 * length it needed (cut at len). */
size_t peak_thresholds_text(char *out, size_t len, const char *pct);
/* ... the classes of the workloads wl[0..n) alone (a check's header names
 * no threshold of a workload it does not run). */
size_t peak_thresholds_text_of(char *out, size_t len, const char *pct, const int *wl, size_t n);

#endif
