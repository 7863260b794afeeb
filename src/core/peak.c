#include "peak.h"

#include <math.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned peak_nvidia_lanes_per_sm(uint32_t id)
{
	if (id >= 0x2300 && id <= 0x23ff) return 128;  /* Hopper: H100, H200, GH200 */
	if (id >= 0x2600 && id <= 0x28ff) return 128;  /* Ada */
	if (id >= 0x2200 && id <= 0x25ff) return 128;  /* Ampere GA10x */
	if (id >= 0x2080 && id <= 0x20ff) return 64;   /* Ampere GA100 (A100, A30) */
	if (id >= 0x1e00 && id <= 0x1fff) return 64;   /* Turing */
	if (id >= 0x1d80 && id <= 0x1dff) return 64;   /* Volta */
	if (id >= 0x2900 && id <= 0x2fff) return 128;  /* Blackwell */
	return 0;
}

unsigned peak_nvidia_lanes_per_sm_of(uint32_t id, WorkloadType t)
{
	unsigned fp32 = peak_nvidia_lanes_per_sm(id);
	bool hopper = id >= 0x2300 && id <= 0x23ff;
	if (!fp32)
		return 0;
	switch (workload_info[t].rate) {
	case RATE_FP32:
	case RATE_FP16_SCALAR: /* scalar halves cannot be packed in pairs */
		return fp32;
	case RATE_FP16_PACKED: /* packed half2: twice FP32 on Hopper and GA100, same rate elsewhere */
		return hopper || (id >= 0x2080 && id <= 0x20ff) ? 2 * fp32 : fp32;
	case RATE_INT32:
		return 64;
	case RATE_DP4A: /* 64 dp4a (8 ops) per SM per clock on Hopper: 256 "lanes" of 2;
	                   CUDA's __dp4a measured 99.9% of it (bench/peak/dp4a.cu) */
		return hopper ? 256 : 0;
	case RATE_FP64:
		if (hopper)
			return 64;
		if ((id >= 0x2080 && id <= 0x20ff) || (id >= 0x1d80 && id <= 0x1dff))
			return 32; /* GA100, Volta */
		return 2;          /* 1/64 of FP32 on the consumer parts */
	default:
		return fp32;
	}
}

/* The lanes each rate counts, as the peak's formula names them. */
static const char *const rate_lanes[] = {
	[RATE_NONE] = "", [RATE_FP32] = "FP32", [RATE_FP16_PACKED] = "FP16", [RATE_FP16_SCALAR] = "FP16 (unpacked)",
	[RATE_FP64] = "FP64", [RATE_INT32] = "INT32", [RATE_DP4A] = "dp4a", [RATE_UNPUBLISHED] = "",
	[RATE_TENSOR_16] = "", [RATE_TENSOR_8] = "",
};

/* Tensor cores: Hopper's dense rates per SM per clock, 2048 fp16 or bf16
 * FMA (fp32 or fp16 accumulate alike: 989 TFLOPS at 1830 MHz on the H100
 * SXM) and 4096 int8 multiply-adds (1979 TOPS), reached by wgmma; mma.sync,
 * which the cooperative-matrix extensions compile to, measured 648 TFLOPS
 * and 1294 TOPS on the H100 in CUDA (issue 15): about 60% of them. */
static void peak_matrix(const DeviceInfo *d, WorkloadType t, double max_mhz, Peak *p)
{
	if (!(d->vendor_id == 0x10de && d->device_id >= 0x2300 && d->device_id <= 0x23ff && d->sm_count &&
	      max_mhz > 0)) {
		snprintf(p->how, sizeof p->how, "unknown: no tensor-core rate for this device in the table");
		return;
	}
	unsigned per_sm = workload_info[t].rate == RATE_TENSOR_8 ? 4096 : 2048;
	p->fma_lanes = (double)d->sm_count * per_sm;
	char in[16]; /* the input type, as NVIDIA's tables name it: FP16, BF16, INT8 */
	snprintf(in, sizeof in, "%s", matrix_component_str(workload_info[t].mtypes.in));
	for (char *c = in; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	snprintf(p->how, sizeof p->how, "%u SMs x %u dense %s tensor multiply-adds x 2 x SM clock "
	         "(Hopper's wgmma rate)", d->sm_count, per_sm, in);
	p->known = true;
}

/* NVIDIA: SMs x lanes per SM (the table above) x 2 x the maximum SM clock. */
static void peak_nvidia(const DeviceInfo *d, WorkloadType t, double max_mhz, Peak *p)
{
	if (!(max_mhz > 0)) {
		snprintf(p->how, sizeof p->how, "unknown: no maximum SM clock (NVML absent)");
		return;
	}
	unsigned lanes = peak_nvidia_lanes_per_sm_of(d->device_id, t);
	if (!d->sm_count || !lanes) {
		snprintf(p->how, sizeof p->how, "unknown: %s", !d->sm_count
		         ? "no SM count (VK_NV_shader_sm_builtins missing)"
		         : "this device id is not in the table of FP32 lanes per SM");
		return;
	}
	p->fma_lanes = (double)d->sm_count * lanes;
	if (workload_info[t].rate == RATE_DP4A)
		snprintf(p->how, sizeof p->how, "%u SMs x 64 dp4a x 8 ops x SM clock", d->sm_count);
	else
		snprintf(p->how, sizeof p->how, "%u SMs x %u %s lanes x 2 x SM clock", d->sm_count, lanes,
		         rate_lanes[workload_info[t].rate]);
	p->known = true;
}

/* A CPU device (lavapipe): cores x vector lanes x 2 FMA ports x 2 x clock;
 * llvmpipe names its vector width: "llvmpipe (LLVM 15.0.6, 256 bits)". */
static void peak_cpu(const DeviceInfo *d, WorkloadType t, unsigned cpu_cores, double max_mhz, Peak *p)
{
	const char *b = strstr(d->name, " bits)");
	unsigned bits = 0;
	if (b) {
		const char *q = b;
		while (q > d->name && q[-1] >= '0' && q[-1] <= '9')
			q--;
		bits = (unsigned)strtoul(q, NULL, 10);
	}
	if (!bits || !cpu_cores) {
		snprintf(p->how, sizeof p->how, "unknown: the CPU device does not name its vector width");
		return;
	}
	RateClass r = workload_info[t].rate;
	if (r == RATE_INT32 || r == RATE_FP16_PACKED || r == RATE_FP16_SCALAR) {
		snprintf(p->how, sizeof p->how, "unknown: %s throughput varies by CPU core",
		         r == RATE_INT32 ? "integer multiply-add" : "FP16 (converted)");
		return;
	}
	if (!(max_mhz > 0)) {
		snprintf(p->how, sizeof p->how, "unknown: the kernel states no maximum CPU clock (no "
		         "cpufreq, as in many VMs; /proc/cpuinfo's MHz can be below the turbo clock)");
		return;
	}
	unsigned width = r == RATE_FP64 ? 64 : 32;
	p->fma_lanes = (double)cpu_cores * (bits / width) * 2;
	snprintf(p->how, sizeof p->how, "%u core%s x %u lanes (%u-bit, FP%u) x 2 FMA ports x 2 x clock",
	         cpu_cores, cpu_cores == 1 ? "" : "s", bits / width, bits, width);
	p->known = true;
}

unsigned peak_amd_lanes_per_cu(uint32_t id, const char **why)
{
	/* the PCI ids of libdrm's amdgpu.ids: RDNA3 and RDNA4 issue two FP32
	 * operations a lane and clock (VOPD, wave64), CDNA2 and CDNA3 packed
	 * FP32 pairs: AMD's published FP32 peaks count 128 lanes a CU */
	static const struct { uint32_t lo, hi; const char *what; } dual[] = {
		{ 0x7448, 0x749f, "RDNA3 dual-issue" },          /* RX 7900/7800/7700/7600, Pro W7x00 */
		{ 0x15bf, 0x15bf, "RDNA3 dual-issue" },          /* Phoenix (Radeon 780M) */
		{ 0x15c8, 0x15c8, "RDNA3 dual-issue" },          /* Phoenix2 (Radeon 740M) */
		{ 0x150e, 0x150e, "RDNA3.5 dual-issue" },        /* Strix Point (Radeon 890M) */
		{ 0x1586, 0x1586, "RDNA3.5 dual-issue" },        /* Strix Halo (Radeon 8060S) */
		{ 0x7550, 0x759f, "RDNA4 dual-issue" },          /* RX 9070, 9060, AI PRO R9700 */
		{ 0x7408, 0x740f, "CDNA2 packed FP32" },         /* MI250X, MI250, MI210 */
		{ 0x74a0, 0x74bf, "CDNA3 packed FP32" },         /* MI300A, MI300X, MI308X, MI325X */
		{ 0x75a0, 0x75bf, "CDNA4 packed FP32" },         /* MI350X, MI355X */
	};
	for (size_t i = 0; i < sizeof dual / sizeof dual[0]; i++)
		if (id >= dual[i].lo && id <= dual[i].hi) {
			*why = dual[i].what;
			return 128;
		}
	*why = "one FP32 operation a lane";
	return 64; /* GCN, RDNA1, RDNA2, CDNA1 */
}

/* AMD: CUs x lanes per CU (the table above) x 2 x shader clock, for FP32. */
static void peak_amd(const DeviceInfo *d, WorkloadType t, Peak *p)
{
	if (workload_info[t].rate != RATE_FP32) {
		snprintf(p->how, sizeof p->how, "unknown: FP64 and INT32 rates vary across AMD parts");
		return;
	}
	if (!d->cu_count) {
		snprintf(p->how, sizeof p->how, "unknown: no CU count (VK_AMD_shader_core_properties missing)");
		return;
	}
	const char *why;
	unsigned lanes = peak_amd_lanes_per_cu(d->device_id, &why);
	p->fma_lanes = (double)d->cu_count * lanes;
	snprintf(p->how, sizeof p->how, "%u CUs x %u lanes (%s) x 2 x shader clock", d->cu_count, lanes, why);
	p->known = true;
}

void peak_compute(const DeviceInfo *d, WorkloadType t, unsigned cpu_cores, double max_mhz, Peak *p)
{
	memset(p, 0, sizeof *p);
	p->max_mhz = max_mhz;
	RateClass r = workload_info[t].rate;
	if (r == RATE_NONE) {
		snprintf(p->how, sizeof p->how, "unknown: Vulkan states no memory or bus bandwidth");
		return;
	}
	if (r == RATE_TENSOR_16 || r == RATE_TENSOR_8) {
		peak_matrix(d, t, max_mhz, p);
		return;
	}
	if (r == RATE_UNPUBLISHED) {
		snprintf(p->how, sizeof p->how, "unknown: no published %s multiply-add rate to hold it to",
		         workload_info[t].name);
		return;
	}
	if (r == RATE_DP4A && !(d->vendor_id == 0x10de && peak_nvidia_lanes_per_sm_of(d->device_id, t))) {
		snprintf(p->how, sizeof p->how, "unknown: no 8-bit dot-product rate for this device in the table "
		         "(bench/peak/dp4a.cu measures CUDA's __dp4a on NVIDIA)");
		return;
	}
	if (d->vendor_id == 0x10de)
		peak_nvidia(d, t, max_mhz, p);
	else if (d->type == DEV_CPU)
		peak_cpu(d, t, cpu_cores, max_mhz, p);
	else if (d->vendor_id == 0x1002)
		peak_amd(d, t, p);
	else
		snprintf(p->how, sizeof p->how, "unknown: no peak formula for vendor 0x%04x", d->vendor_id);
}

PeakKind peak_kind(WorkloadType t)
{
	const WorkloadInfo *w = &workload_info[t];
	if (w->kind == WL_FMA || w->kind == WL_POWER)
		return PEAK_ARITH;
	/* a transfer that touches host memory crosses the bus (h2h both ways) */
	return w->kind == WL_TRANSFER && (w->src != MEM_DEVICE || w->dst != MEM_DEVICE) ? PEAK_PCIE : PEAK_MEMORY;
}

bool pcie_link_parse(const char *speed, const char *width, double *gts, unsigned *lanes)
{
	char unit[16] = "";
	*gts = 0;
	*lanes = 0;
	if (!speed || !width || sscanf(speed, "%lf %15s", gts, unit) != 2 || strcmp(unit, "GT/s") || !(*gts > 0) ||
	    *gts > 256)
		return false;
	/* a width no link has is no reading (sscanf's %u took 4294967297 as x1) */
	char *end;
	errno = 0;
	unsigned long long w = strtoull(width, &end, 10);
	while (*end == ' ' || *end == '\n')
		end++;
	if (errno || end == width || *end || width[0] == '-' || w == 0 || w > 64)
		return false;
	*lanes = (unsigned)w;
	return true;
}

int pcie_gen(double gts)
{
	static const double speeds[] = { 2.5, 5, 8, 16, 32, 64 };
	for (int g = 0; g < 6; g++)
		if (fabs(gts - speeds[g]) < 0.05)
			return g + 1;
	return 0;
}

void pcie_link_str(double gts, double lanes, char *out, size_t len)
{
	int g = pcie_gen(gts);
	if (g)
		snprintf(out, len, "Gen%d x%.0f", g, lanes);
	else
		snprintf(out, len, "%.1f GT/s x%.0f", gts, lanes);
}

bool pcie_link_degraded(double gts, double lanes, double max_gts, double max_lanes, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (!(gts > 0 && lanes > 0 && max_gts > 0 && max_lanes > 0))
		return false;
	if (gts >= max_gts * 0.99 && lanes >= max_lanes)
		return false;
	char now[32], max[32];
	pcie_link_str(gts, lanes, now, sizeof now);
	pcie_link_str(max_gts, max_lanes, max, sizeof max);
	snprintf(why, len, "PCIe %s, below its maximum %s", now, max);
	return true;
}

bool peak_pcie(const char *speed, const char *width, Peak *p)
{
	double gts = 0;
	unsigned lanes = 0;
	memset(p, 0, sizeof *p);
	if (!pcie_link_parse(speed, width, &gts, &lanes)) {
		snprintf(p->how, sizeof p->how, "unknown: the PCIe link (\"%.40s\" x \"%.8s\") is not understood",
		         speed ? speed : "", width ? width : "");
		return false;
	}
	double coding = gts <= 5.0 ? 8.0 / 10.0 : 128.0 / 130.0;
	p->fixed = gts * 1e9 * lanes * coding / 8.0;
	p->known = true;
	snprintf(p->how, sizeof p->how, "PCIe link %.1f GT/s x%u, %s coding, one direction", gts, lanes,
	         gts <= 5.0 ? "8b/10b" : "128b/130b");
	return true;
}

bool peak_memory(double mem_mhz, unsigned bus_bits, Peak *p)
{
	memset(p, 0, sizeof *p);
	if (!(mem_mhz > 0) || !bus_bits) {
		snprintf(p->how, sizeof p->how, "unknown: no memory clock and bus width (NVML absent)");
		return false;
	}
	p->fixed = 2.0 * mem_mhz * 1e6 * bus_bits / 8.0;
	p->known = true;
	snprintf(p->how, sizeof p->how, "memory clock %.0f MHz x 2 x %u-bit bus (NVML)", mem_mhz, bus_bits);
	return true;
}

double peak_flops(const Peak *p, double mhz)
{
	if (p->known && p->fixed > 0)
		return p->fixed;
	if (!p->known || !(mhz > 0))
		return 0;
	return p->fma_lanes * 2 * mhz * 1e6;
}

/* The class of a workload's peak threshold, as the texts name it. */
static const char *threshold_class(WorkloadType t)
{
	if (workload_info[t].rate == RATE_TENSOR_16 || workload_info[t].rate == RATE_TENSOR_8)
		return "tensor";
	switch (workload_info[t].kind) {
	case WL_COPY: return "copy";
	case WL_TRANSFER: return "transfers";
	case WL_POWER: return "power, of the power limit";
	default: return "FMA chains";
	}
}

size_t peak_thresholds_text(char *out, size_t len, const char *pct)
{
	return peak_thresholds_text_of(out, len, pct, NULL, 0);
}

size_t peak_thresholds_text_of(char *out, size_t len, const char *pct, const int *wl, size_t nwl)
{
	const char *seen[WORKLOAD_TYPE_COUNT];
	size_t nseen = 0, at = 0;
	if (len)
		out[0] = '\0';
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
		bool asked = !wl;
		for (size_t k = 0; k < nwl && !asked; k++)
			asked = wl[k] == w;
		if (!asked)
			continue;
		const char *cls = threshold_class((WorkloadType)w);
		bool dup = false;
		for (size_t k = 0; k < nseen; k++)
			dup |= !strcmp(seen[k], cls);
		if (dup)
			continue;
		seen[nseen++] = cls;
		int n = snprintf(at < len ? out + at : NULL, at < len ? len - at : 0, "%s%g%s %s", nseen > 1 ? ", " : "",
		                 peak_check_threshold_pct((WorkloadType)w), pct, cls);
		at += n > 0 ? (size_t)n : 0;
	}
	return at;
}

double peak_check_threshold_pct(WorkloadType t)
{
	if (workload_info[t].rate == RATE_TENSOR_16 || workload_info[t].rate == RATE_TENSOR_8)
		return 55;
	switch (workload_info[t].kind) {
	case WL_COPY: return 80;
	case WL_TRANSFER: return 70;
	case WL_POWER: return 75; /* of the power limit: DCGM targeted_power's target_power_min_ratio */
	default: return 90;
	}
}
