/* Telemetry sources on a fake sysfs tree (FLOPSCOPE_SYSFS_ROOT), and the
 * theoretical peak formulas. */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "peak.h"
#include "procfs.h"
#include "gpumap.h"
#include "telemetry.h"
#include "throttle.h"

static char root[128];

static void put(const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	char dir[512];
	snprintf(dir, sizeof dir, "%s", p);
	for (char *c = dir + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			mkdir(dir, 0755);
			*c = '/';
		}
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A gpu_metrics_v1_3 blob as amdgpu writes it (kgd_pp_interface.h: 120
 * bytes, naturally aligned, little-endian), written here by the byte
 * offsets of the kernel's layout, not from flopscope's parser. */
static void put16(unsigned char *b, size_t off, unsigned v)
{
	b[off] = (unsigned char)v;
	b[off + 1] = (unsigned char)(v >> 8);
}

static void put_metrics(unsigned gfxclk, unsigned uclk, unsigned power_w, unsigned hotspot_c, uint64_t indep)
{
	unsigned char b[120];
	memset(b, 0, sizeof b);
	put16(b, 0, sizeof b); /* structure_size */
	b[2] = 1;              /* format_revision */
	b[3] = 3;              /* content_revision */
	put16(b, 4, 58);       /* temperature_edge */
	put16(b, 6, hotspot_c);
	put16(b, 22, power_w); /* average_socket_power */
	put16(b, 40, 999);     /* average_gfxclk_frequency: not the current one */
	put16(b, 54, gfxclk);  /* current_gfxclk */
	put16(b, 58, uclk);    /* current_uclk */
	for (int i = 0; i < 8; i++)
		b[112 + i] = (unsigned char)(indep >> (8 * i)); /* indep_throttle_status */
	char p[512];
	snprintf(p, sizeof p, "%s/class/drm/card1/device/gpu_metrics", root);
	FILE *f = fopen(p, "wb");
	if (f) {
		fwrite(b, 1, sizeof b, f);
		fclose(f);
	}
}

static void make_tree(void)
{
	snprintf(root, sizeof root, "/tmp/flopscope-sysfs-%d", (int)getpid());
	put("class/drm/card1/device/vendor", "0x1002\n");
	put("class/drm/card1/device/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:03:00.0\n");
	put("class/drm/card1/device/pp_dpm_sclk", "0: 500Mhz\n1: 1800Mhz *\n2: 2500Mhz\n");
	put("class/drm/card1/device/pp_dpm_mclk", "0: 96Mhz\n1: 1000Mhz *\n");
	put("class/drm/card1/device/hwmon/hwmon3/power1_average", "215000000\n");
	put("class/drm/card1/device/hwmon/hwmon3/power1_input", "230000000\n"); /* the instant one */
	put("class/drm/card1/device/hwmon/hwmon3/temp1_input", "61000\n");
	put("class/drm/card0/device/vendor", "0x8086\n");
	put("class/drm/card0/gt_cur_freq_mhz", "1300\n"); /* requested */
	put("class/drm/card0/gt_act_freq_mhz", "1150\n"); /* granted: what the GT runs at */
	put("class/drm/card0/gt_max_freq_mhz", "2400\n");
	/* i915's reasons (the power limit PL1 holds the clock) and no power file:
	 * power from the energy counter */
	put("class/drm/card0/gt/gt0/throttle_reason_pl1", "1\n");
	put("class/drm/card0/gt/gt0/throttle_reason_thermal", "0\n");
	put("class/drm/card0/gt/gt0/throttle_reason_vr_tdc", "0\n");
	put("class/drm/card0/device/hwmon/hwmon5/energy1_input", "5000000\n");
	put("devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "3000000\n");
	put("devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3200000\n");
	put("devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "4000000\n");
	put("class/powercap/intel-rapl:0/energy_uj", "1000000\n");
	put("class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850\n");
	setenv("FLOPSCOPE_SYSFS_ROOT", root, 1);
}

/* gpu_metrics' formats: v1.3 read whole, v1.1 without the reasons, short
 * or foreign blobs refused with why, unset fields N/A */
static void gpu_metrics_should_be_read_by_its_header(void)
{
	unsigned char b[120] = { 0 };
	GpuMetrics m;
	char why[160];
	put16(b, 0, 120);
	b[2] = 1;
	b[3] = 3;
	put16(b, 54, 2500);
	put16(b, 58, 0xffff); /* unset */
	b[112] = 0x10;        /* SPL */
	CHECK(gpu_metrics_parse(b, sizeof b, &m, why, sizeof why));
	CHECK(m.gfx_mhz == 2500 && isnan(m.mem_mhz) && m.has_throttle && m.indep_throttle == 0x10);
	CHECK(throttle_from_amd(m.indep_throttle, m.hotspot_c) == THR_POWER_CAP);
	b[3] = 1; /* v1.1: no indep_throttle_status */
	put16(b, 0, 96);
	CHECK(gpu_metrics_parse(b, 96, &m, why, sizeof why) && !m.has_throttle && m.gfx_mhz == 2500);
	CHECK(!gpu_metrics_parse(b, 60, &m, why, sizeof why));
	CHECK_STR(why, "gpu_metrics v1.1: 60 bytes of the 96 its header states");
	b[2] = 2; /* an APU's v2.1: no reasons, no stated units */
	CHECK(!gpu_metrics_parse(b, 96, &m, why, sizeof why));
	CHECK(strstr(why, "v2.1 (96 bytes): a format flopscope does not read (v1.1-v1.8, v2.2-v2.4)"));
	/* MI300's v1.5 (328 bytes), filled with 0xff as the kernel does, then
	 * the fields by the kernel's offsets: hotspot 4, curr_socket_power 10,
	 * current_gfxclk[0] 280, current_uclk 320 */
	unsigned char big[400];
	memset(big, 0xff, sizeof big);
	put16(big, 0, 328);
	big[2] = 1;
	big[3] = 5;
	put16(big, 4, 71);
	put16(big, 10, 640);
	put16(big, 280, 2100);
	put16(big, 320, 1300);
	CHECK(gpu_metrics_parse(big, 328, &m, why, sizeof why));
	CHECK(m.gfx_mhz == 2100 && m.mem_mhz == 1300 && m.power_w == 640 && m.hotspot_c == 71);
	CHECK(isnan(m.edge_c) && !m.has_throttle);
	big[3] = 4; /* v1.4: 288 bytes, the clocks at 240 and 280 */
	put16(big, 0, 288);
	put16(big, 240, 1900);
	CHECK(gpu_metrics_parse(big, 288, &m, why, sizeof why) && m.gfx_mhz == 1900 && m.mem_mhz == 2100);
	/* an APU's v2.4 (168 bytes): centi-Celsius and mW, its reasons at 120 */
	memset(big, 0xff, sizeof big);
	put16(big, 0, 168);
	big[2] = 2;
	big[3] = 4;
	put16(big, 4, 6150);   /* temperature_gfx: 61.5 C */
	put16(big, 40, 28000); /* average_socket_power: 28 W */
	put16(big, 76, 2700);  /* current_gfxclk */
	put16(big, 80, 2800);  /* current_uclk */
	memset(big + 120, 0, 8);
	big[120] = 0x10;       /* SPL */
	CHECK(gpu_metrics_parse(big, 168, &m, why, sizeof why));
	CHECK(fabs(m.edge_c - 61.5) < 1e-9 && fabs(m.power_w - 28) < 1e-9 && m.gfx_mhz == 2700 && m.has_throttle);
	CHECK(throttle_from_amd(m.indep_throttle, m.hotspot_c) == THR_POWER_CAP);
	/* v2.2: the reasons and clocks, no power or temperature (no stated unit) */
	big[3] = 2;
	put16(big, 0, 128);
	CHECK(gpu_metrics_parse(big, 128, &m, why, sizeof why) && isnan(m.power_w) && isnan(m.edge_c) && m.has_throttle);
	/* a size below its format's: refused */
	put16(big, 0, 100);
	CHECK(!gpu_metrics_parse(big, 100, &m, why, sizeof why));
	CHECK(!gpu_metrics_parse(b, 2, &m, why, sizeof why));
	/* Intel's names, each to one reason */
	CHECK(throttle_from_intel("pl4", true) == THR_POWER_CAP && throttle_from_intel("pl4", false) == 0);
	CHECK(throttle_from_intel("prochot", true) == THR_HW_SLOWDOWN && throttle_from_intel("status", true) == 0);
	size_t n = 0;
	while (throttle_intel_name(n))
		n++;
	CHECK(n == 8);
}

static void amd_card_should_be_matched_by_pci_address(void)
{
	DeviceInfo d = { .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true,
	                 .pci_bus = 3 };
	Telemetry t;
	CHECK(telemetry_open(&t, &d));
	CHECK(t.src.max_mhz == 2500);
	TelReading r;
	CHECK(t.src.read(&t.src, &r));
	CHECK(tel_has(&r, TEL_SM_MHZ) && r.v[TEL_SM_MHZ] == 1800);
	CHECK(tel_has(&r, TEL_MEM_MHZ) && r.v[TEL_MEM_MHZ] == 1000);
	CHECK(!tel_has(&r, TEL_THROTTLE)); /* no gpu_metrics: no reasons */
	CHECK(tel_has(&r, TEL_POWER_W) && fabs(r.v[TEL_POWER_W] - 215) < 1e-9); /* the average */
	CHECK(tel_has(&r, TEL_POWER_INSTANT_W) && fabs(r.v[TEL_POWER_INSTANT_W] - 230) < 1e-9);
	CHECK(!tel_has(&r, TEL_ENERGY_J)); /* no energy1_input on this card */
	CHECK(strstr(t.note, "power (instant, power1_input, beside the average, power1_average)"));
	CHECK(tel_has(&r, TEL_TEMP_C) && r.v[TEL_TEMP_C] == 61);
	CHECK(!tel_has(&r, TEL_PSTATE));
	CHECK(strstr(t.note, "amdgpu sysfs"));
	/* the sampling thread publishes the same */
	CHECK(telemetry_start(&t, 2));
	usleep(20000);
	TelReading l;
	telemetry_latest(&t, &l);
	CHECK(l.v[TEL_SM_MHZ] == 1800);
	telemetry_close(&t);

	/* gpu_metrics: the firmware's current clocks over the DPM level, its
	 * throttlers as reasons; the hotspot bit (36) below 90 C is masked */
	put_metrics(2104, 1249, 300, 70, 1ull << 0 | 1ull << 36);
	CHECK(telemetry_open(&t, &d));
	CHECK(t.src.read(&t.src, &r));
	CHECK(r.v[TEL_SM_MHZ] == 2104 && r.v[TEL_MEM_MHZ] == 1249);
	CHECK(fabs(r.v[TEL_POWER_W] - 215) < 1e-9); /* hwmon's, where there is one */
	CHECK(tel_has(&r, TEL_THROTTLE) && r.v[TEL_THROTTLE] == THR_POWER_CAP);
	CHECK(strstr(t.note, "throttle reasons") && !strstr(t.note, "reasons N/A"));
	put_metrics(1500, 1249, 300, 96, 1ull << 16 | 1ull << 36 | 1ull << 46);
	CHECK(t.src.read(&t.src, &r));
	CHECK(r.v[TEL_THROTTLE] == (THR_CURRENT | THR_THERMAL_HW | THR_HW_SLOWDOWN));
	telemetry_close(&t);
	char gm[512];
	snprintf(gm, sizeof gm, "%s/class/drm/card1/device/gpu_metrics", root);
	unlink(gm);

	d.pci_bus = 4; /* another card: not this one */
	CHECK(!telemetry_open(&t, &d));
	CHECK(strstr(t.note, "at the device's PCI address"));
	telemetry_close(&t);
}

static void intel_gt_clock_should_be_read(void)
{
	DeviceInfo d = { .vendor_id = 0x8086, .type = DEV_INTEGRATED_GPU };
	Telemetry t;
	CHECK(telemetry_open(&t, &d));
	CHECK(t.src.max_mhz == 2400);
	TelReading r;
	CHECK(t.src.read(&t.src, &r));
	/* the actual clock, not the requested one; PL1 as the power cap */
	CHECK(r.v[TEL_SM_MHZ] == 1150);
	CHECK(tel_has(&r, TEL_THROTTLE) && r.v[TEL_THROTTLE] == THR_POWER_CAP);
	/* power from the energy counter: 1 J more over at least 50 ms */
	CHECK(strstr(t.note, "power (from the energy counter)") && strstr(t.note, "the energy counter (energy1_input)"));
	CHECK(tel_has(&r, TEL_ENERGY_J) && fabs(r.v[TEL_ENERGY_J] - 5) < 1e-9); /* the card's own, in J */
	usleep(50000);
	put("class/drm/card0/device/hwmon/hwmon5/energy1_input", "6000000\n");
	CHECK(t.src.read(&t.src, &r));
	CHECK(tel_has(&r, TEL_POWER_W) && r.v[TEL_POWER_W] > 0 && r.v[TEL_POWER_W] <= 20.0001);
	CHECK(fabs(r.v[TEL_ENERGY_J] - 6) < 1e-9 && !tel_has(&r, TEL_POWER_INSTANT_W));
	telemetry_close(&t);
	/* xe's layout: tile0/gt0/freq0/throttle/reason_* */
	char p[512];
	for (const char *const *n = (const char *const[]){ "pl1", "thermal", "vr_tdc", NULL }; *n; n++) {
		snprintf(p, sizeof p, "%s/class/drm/card0/gt/gt0/throttle_reason_%s", root, *n);
		unlink(p);
	}
	put("class/drm/card0/device/tile0/gt0/freq0/throttle/reason_vr_tdc", "1\n");
	put("class/drm/card0/device/tile0/gt0/freq0/throttle/reason_ratl", "1\n");
	CHECK(telemetry_open(&t, &d));
	CHECK(t.src.read(&t.src, &r));
	CHECK(r.v[TEL_THROTTLE] == (THR_CURRENT | THR_THERMAL_SW));
	telemetry_close(&t);
}

static void cpu_clock_and_rapl_power_should_be_read(void)
{
	DeviceInfo d = { .vendor_id = 0x10005, .type = DEV_CPU };
	Telemetry t;
	CHECK(telemetry_open(&t, &d));
	CHECK(t.src.max_mhz == 4000);
	CHECK(strstr(t.note, "RAPL"));
	TelReading r;
	/* the source's interval between its two readings lies between what
	 * the test times around them: its power between 10 J over the longest
	 * and over the shortest (a loaded machine's 100 ms sleep can last 300) */
	struct timespec a0, a1, b0, b1;
	clock_gettime(CLOCK_MONOTONIC, &a0);
	CHECK(t.src.read(&t.src, &r));
	clock_gettime(CLOCK_MONOTONIC, &a1);
	CHECK(r.v[TEL_SM_MHZ] == 3100);        /* the mean of the cores */
	CHECK(!tel_has(&r, TEL_POWER_W));      /* one energy reading: no power yet */
	usleep(100000);
	put("class/powercap/intel-rapl:0/energy_uj", "11000000\n"); /* +10 J */
	clock_gettime(CLOCK_MONOTONIC, &b0);
	CHECK(t.src.read(&t.src, &r));
	clock_gettime(CLOCK_MONOTONIC, &b1);
	double longest = (double)(b1.tv_sec - a0.tv_sec) + (double)(b1.tv_nsec - a0.tv_nsec) * 1e-9;
	double shortest = (double)(b0.tv_sec - a1.tv_sec) + (double)(b0.tv_nsec - a1.tv_nsec) * 1e-9;
	CHECK(tel_has(&r, TEL_POWER_W) && r.v[TEL_POWER_W] >= 10 / longest * 0.999 &&
	      r.v[TEL_POWER_W] <= 10 / shortest * 1.001);
	telemetry_close(&t);
}

static void missing_sources_should_say_na(void)
{
	DeviceInfo d = { .vendor_id = 0x13b5, .type = DEV_INTEGRATED_GPU };
	Telemetry t;
	CHECK(!telemetry_open(&t, &d));
	CHECK(strstr(t.note, "N/A"));
	TelReading r;
	telemetry_latest(&t, &r);
	CHECK(r.valid == 0);
	telemetry_close(&t);
	DeviceInfo nv = { .vendor_id = 0x10de, .type = DEV_DISCRETE_GPU };
	if (!telemetry_open(&t, &nv)) /* no NVIDIA driver here: NVML absent */
		CHECK(strstr(t.note, "NVML"));
	telemetry_close(&t);
}

static void peak_should_follow_the_formulas(void)
{
	DeviceInfo h100 = { .vendor_id = 0x10de, .device_id = 0x2330, .sm_count = 132 };
	Peak p;
	peak_compute(&h100, WORKLOAD_FP32, 0, 1980, &p);
	CHECK(p.known);
	CHECK_NEAR(peak_flops(&p, 1980), 66.90816e12, 1e6);
	CHECK_NEAR(peak_flops(&p, 345), 132.0 * 128 * 2 * 345e6, 1);
	/* the tensor cores: the H100 SXM's published 989 TFLOPS fp16 (either
	 * accumulator) and 1979 TOPS int8 at 1830 MHz */
	peak_compute(&h100, WORKLOAD_FP16_MATRIX, 0, 1830, &p);
	CHECK(p.known);
	CHECK_NEAR(peak_flops(&p, 1830) / 1e12, 989.4, 0.1);
	peak_compute(&h100, WORKLOAD_FP16_MATRIX_F16, 0, 1830, &p);
	CHECK_NEAR(peak_flops(&p, 1830) / 1e12, 989.4, 0.1);
	peak_compute(&h100, WORKLOAD_INT8_MATRIX, 0, 1830, &p);
	CHECK_NEAR(peak_flops(&p, 1830) / 1e12, 1978.9, 0.1);
	/* bfloat16: the same dense rate as fp16 (989 TFLOPS published) */
	peak_compute(&h100, WORKLOAD_BF16_MATRIX, 0, 1830, &p);
	CHECK(p.known && strstr(p.how, "BF16"));
	CHECK_NEAR(peak_flops(&p, 1830) / 1e12, 989.4, 0.1);
	DeviceInfo a100 = { .vendor_id = 0x10de, .device_id = 0x20b0, .sm_count = 108 };
	peak_compute(&a100, WORKLOAD_INT8_MATRIX, 0, 1410, &p);
	CHECK(!p.known && strstr(p.how, "no tensor-core rate"));
	DeviceInfo lvp = { .vendor_id = 0x10005, .type = DEV_CPU };
	snprintf(lvp.name, sizeof lvp.name, "llvmpipe (LLVM 15.0.6, 256 bits)");
	peak_compute(&lvp, WORKLOAD_FP32, 2, 2600, &p);
	CHECK(p.known);
	CHECK_NEAR(peak_flops(&p, 2600), 166.4e9, 1);
	peak_compute(&lvp, WORKLOAD_FP32, 2, 0, &p); /* no stated maximum clock: no guessing */
	CHECK(!p.known && strstr(p.how, "no maximum CPU clock"));
	DeviceInfo nosm = { .vendor_id = 0x10de, .device_id = 0x2330 };
	peak_compute(&nosm, WORKLOAD_FP32, 0, 1980, &p);
	CHECK(!p.known && strstr(p.how, "no SM count") && peak_flops(&p, 1980) == 0);
	DeviceInfo amd = { .vendor_id = 0x1002 };
	peak_compute(&amd, WORKLOAD_FP32, 0, 2500, &p);
	CHECK(!p.known && strstr(p.how, "no CU count"));
	/* the CUs from the AMD extensions: the active count where properties2
	 * gives it (RX 7900 XT: 84 active of 6 x 2 x 8), else the design's */
	CHECK(devinfo_amd_cus(6, 2, 8, 84) == 84 && devinfo_amd_cus(6, 2, 8, 0) == 96);
	CHECK(devinfo_amd_cus(6, 2, 8, 200) == 96); /* an active count above the design's: not believed */
	/* published FP32 peaks at the boost clock: RX 7900 XTX (0x744c, 96
	 * CUs, 2.5 GHz) 61.4 TFLOPS with RDNA3's dual issue; RX 6900 XT
	 * (0x73bf, 80 CUs, 2.25 GHz) 23.04; RX 9070 XT (0x7550, 64 CUs,
	 * 2.97 GHz) 48.7; MI300X (0x74a1, 304 CUs, 2.1 GHz) 163.4 packed */
	amd.cu_count = 96;
	amd.device_id = 0x744c;
	peak_compute(&amd, WORKLOAD_FP32, 0, 2500, &p);
	CHECK(p.known && strstr(p.how, "96 CUs x 128 lanes (RDNA3 dual-issue)"));
	CHECK_NEAR(peak_flops(&p, 2500), 61.44e12, 1e9);
	amd = (DeviceInfo){ .vendor_id = 0x1002, .device_id = 0x73bf, .cu_count = 80 };
	peak_compute(&amd, WORKLOAD_FP32, 0, 2250, &p);
	CHECK_NEAR(peak_flops(&p, 2250), 23.04e12, 1e9);
	amd = (DeviceInfo){ .vendor_id = 0x1002, .device_id = 0x7550, .cu_count = 64 };
	peak_compute(&amd, WORKLOAD_FP32, 0, 2970, &p);
	CHECK_NEAR(peak_flops(&p, 2970), 48.7e12, 0.1e12);
	amd = (DeviceInfo){ .vendor_id = 0x1002, .device_id = 0x74a1, .cu_count = 304 };
	peak_compute(&amd, WORKLOAD_FP32, 0, 2100, &p);
	CHECK_NEAR(peak_flops(&p, 2100), 163.4e12, 0.1e12);
	CHECK(peak_nvidia_lanes_per_sm(0x20b0) == 64);   /* A100 */
	CHECK(peak_nvidia_lanes_per_sm(0x2684) == 128);  /* RTX 4090 */
	CHECK(peak_nvidia_lanes_per_sm(0x1234) == 0);
	/* other workloads: H100 FP64 33.5 TFLOPS and INT32 at 1980 MHz; RTX 4090 FP64 1/64 */
	peak_compute(&h100, WORKLOAD_FP64, 0, 1980, &p);
	CHECK_NEAR(peak_flops(&p, 1980), 132.0 * 64 * 2 * 1980e6, 1);
	peak_compute(&h100, WORKLOAD_INT8DOT, 0, 1980, &p);
	CHECK_NEAR(peak_flops(&p, 1980), 132.0 * 64 * 8 * 1980e6, 1e6); /* 133.8 TIOPS */
	CHECK(strstr(p.how, "dp4a") != NULL);
	peak_compute(&lvp, WORKLOAD_INT8DOT, 2, 2600, &p);
	CHECK(!p.known && strstr(p.how, "unknown"));
	peak_compute(&h100, WORKLOAD_INT32, 0, 1980, &p);
	CHECK_NEAR(peak_flops(&p, 1980), 132.0 * 64 * 2 * 1980e6, 1);
	CHECK(peak_nvidia_lanes_per_sm_of(0x2684, WORKLOAD_FP64) == 2);
	peak_compute(&lvp, WORKLOAD_FP64, 2, 2600, &p);
	CHECK_NEAR(peak_flops(&p, 2600), 83.2e9, 1);
	peak_compute(&lvp, WORKLOAD_INT32, 2, 2600, &p);
	CHECK(!p.known);
}

static void pcie_peak_should_follow_the_link(void)
{
	Peak p;
	CHECK(peak_pcie("32.0 GT/s PCIe\n", "16\n", &p));
	CHECK_NEAR(peak_flops(&p, 0), 32e9 * 16 * 128 / 130 / 8, 1); /* 63.0 GB/s: Gen5 x16 */
	CHECK(peak_pcie("2.5 GT/s PCIe", "4", &p));
	CHECK_NEAR(peak_flops(&p, 1980), 2.5e9 * 4 * 0.8 / 8, 1); /* 8b/10b; no clock involved */
	CHECK(!peak_pcie("Unknown", "16", &p) && !p.known && strstr(p.how, "not understood"));
	CHECK(!peak_pcie("8.0 GT/s", "0", &p) && peak_flops(&p, 1000) == 0);
	CHECK(!peak_pcie(NULL, "16", &p));
	/* the link's words and its fault: below what it can train to */
	char s[96];
	CHECK(pcie_gen(32) == 5 && pcie_gen(2.5) == 1 && pcie_gen(20) == 0);
	pcie_link_str(16, 8, s, sizeof s);
	CHECK_STR(s, "Gen4 x8");
	CHECK(pcie_link_degraded(16, 8, 32, 16, s, sizeof s));
	CHECK_STR(s, "PCIe Gen4 x8, below its maximum Gen5 x16");
	CHECK(pcie_link_degraded(32, 8, 32, 16, s, sizeof s) && strstr(s, "Gen5 x8"));
	CHECK(!pcie_link_degraded(32, 16, 32, 16, s, sizeof s) && !s[0]);
	CHECK(!pcie_link_degraded(NAN, 16, 32, 16, s, sizeof s));
	/* every workload takes its figure from the right place: an FMA workload
	 * judged by memory bandwidth would have every sample flagged */
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
		PeakKind k = peak_kind((WorkloadType)w);
		if (workload_info[w].kind == WL_FMA || workload_info[w].kind == WL_POWER)
			CHECK(k == PEAK_ARITH);
		else if (w == WORKLOAD_COPY || w == WORKLOAD_D2D)
			CHECK(k == PEAK_MEMORY);
		else
			CHECK(k == PEAK_PCIE);
	}
	CHECK(peak_memory(2619, 5120, &p));
	CHECK_NEAR(peak_flops(&p, 0) / 1e12, 3.352, 0.001); /* the H100's 3.35 TB/s */
	CHECK(!peak_memory(0, 5120, &p) && !p.known && strstr(p.how, "NVML"));
}

/* Who else holds a DRM client of an AMD or Intel GPU: every process's
 * fdinfo files (FLOPSCOPE_PROC_ROOT), as nvtop reads them: a client of this
 * device counted once however many fds it has, this process and other
 * devices' clients left out; its name, user and memory; its engines' busy
 * share from the second scan on. */
/* The PCIe link from sysfs, now and at most, for every vendor, in every
 * reading; not understood: NaN. */
static void pcie_link_should_be_read_now_and_at_most(void)
{
	put("bus/pci/devices/0000:03:00.0/current_link_speed", "16.0 GT/s PCIe\n");
	put("bus/pci/devices/0000:03:00.0/current_link_width", "8\n");
	put("bus/pci/devices/0000:03:00.0/max_link_speed", "32.0 GT/s PCIe\n");
	put("bus/pci/devices/0000:03:00.0/max_link_width", "16\n");
	DeviceInfo d = { .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 3 };
	char dir[512];
	double l[TEL_PCIE_VALUES];
	CHECK(telemetry_pcie_dir(&d, dir, sizeof dir));
	telemetry_pcie_link(dir, l);
	CHECK(l[0] == 16 && l[1] == 8 && l[2] == 32 && l[3] == 16 && isnan(l[4]));
	put("bus/pci/devices/0000:03:00.0/pcie_replay_count", "17\n"); /* amdgpu's */
	telemetry_pcie_link(dir, l);
	CHECK(l[4] == 17);
	Telemetry t;
	CHECK(telemetry_open(&t, &d) && telemetry_start(&t, 2));
	TelReading r;
	telemetry_latest(&t, &r);
	CHECK(tel_has(&r, TEL_PCIE_GTS) && r.v[TEL_PCIE_GTS] == 16 && r.v[TEL_PCIE_MAX_WIDTH] == 16);
	CHECK(tel_has(&r, TEL_PCIE_REPLAYS) && r.v[TEL_PCIE_REPLAYS] == 17);
	telemetry_close(&t);
	put("bus/pci/devices/0000:03:00.0/current_link_speed", "Unknown\n");
	telemetry_pcie_link(dir, l);
	CHECK(isnan(l[0]) && isnan(l[1]) && l[2] == 32);
	put("bus/pci/devices/0000:03:00.0/pcie_replay_count", "garbage\n");
	telemetry_pcie_link(dir, l);
	CHECK(isnan(l[4]));
	DeviceInfo cpu = { .type = DEV_CPU };
	CHECK(!telemetry_pcie_dir(&cpu, dir, sizeof dir));
}

/* Where NVML has no GPUs: each AMD or Intel GPU's index in the DRM render
 * nodes' order (by number, not by name: renderD99 before renderD128), tied
 * by PCI address; NVIDIA's (GRES /dev/nvidiaN) and CPUs never. */
static void drm_render_nodes_should_number_the_gpus_as_slurm_does(void)
{
	put("class/drm/renderD129/device/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:04:00.0\n");
	put("class/drm/renderD99/device/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:02:00.0\n");
	put("class/drm/renderD128/device/uevent", "DRIVER=i915\nPCI_SLOT_NAME=0000:03:00.0\n");
	put("class/drm/renderD130/device/uevent", "DRIVER=nvidia\nPCI_SLOT_NAME=0000:05:00.0\n");
	put("class/drm/card0/device/uevent", "PCI_SLOT_NAME=0000:04:00.0\n");
	DeviceInfo e[5] = {
		{ .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 4 },
		{ .vendor_id = 0x8086, .type = DEV_INTEGRATED_GPU, .has_pci = true, .pci_bus = 3 },
		{ .vendor_id = 0x10de, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 5 },
		{ .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = false },
		{ .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 2 },
	};
	char why[300];
	CHECK(drm_index_devices(e, 5, why, sizeof why) == 3);
	CHECK(e[4].has_gpu_index && e[4].gpu_index == 0); /* renderD99 */
	CHECK(e[1].has_gpu_index && e[1].gpu_index == 1); /* renderD128 */
	CHECK(e[0].has_gpu_index && e[0].gpu_index == 2); /* renderD129 */
	CHECK(!e[2].has_gpu_index && !e[3].has_gpu_index);
	DeviceInfo other = { .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 9 };
	CHECK(drm_index_devices(&other, 1, why, sizeof why) == 0 && strstr(why, "none of the 4 DRM render nodes"));
	setenv("FLOPSCOPE_SYSFS_ROOT", "/nonexistent-flopscope", 1);
	CHECK(drm_index_devices(&other, 1, why, sizeof why) == -1 && strstr(why, "no DRM render node"));
	setenv("FLOPSCOPE_SYSFS_ROOT", root, 1);
}

/* A runtime's mask tied to devices: ROCR_VISIBLE_DEVICES's UUIDs by
 * amdgpu's unique_id (any case), ZE_AFFINITY_MASK's devices in PCI order
 * only where ZE_ENABLE_PCI_ID_DEVICE_ORDER=1; an index ROCm numbers, or a
 * device that is not there, is refused with why. */
static void runtime_masks_should_be_tied_only_where_sound(void)
{
	put("class/drm/card1/device/unique_id", "a1b2c3d4e5f60718\n"); /* card1: 0000:03:00.0 */
	DeviceInfo e[3] = {
		{ .vendor_id = 0x8086, .type = DEV_INTEGRATED_GPU, .has_pci = true, .pci_bus = 5, .phys_index = 0 },
		{ .vendor_id = 0x8086, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 2, .phys_index = 1 },
		{ .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 3, .phys_index = 2 },
	};
	char list[256], why[300];
	const char *from = NULL;
	CHECK(gpumap_runtime_list(e, 3, NULL, NULL, NULL, list, sizeof list, &from, why, sizeof why) == 0);
	CHECK(gpumap_runtime_list(e, 3, "GPU-A1B2C3D4E5F60718", "0", "1", list, sizeof list, &from, why, sizeof why) == 1);
	CHECK_STR(list, "0000:03:00.0");
	CHECK_STR(from, "ROCR_VISIBLE_DEVICES");
	CHECK(gpumap_runtime_list(e, 3, "0,1", NULL, NULL, list, sizeof list, &from, why, sizeof why) == -1 &&
	      strstr(why, "numbers GPUs as ROCm enumerates them"));
	CHECK(gpumap_runtime_list(e, 3, "GPU-ffff", NULL, NULL, list, sizeof list, &from, why, sizeof why) == -1 &&
	      strstr(why, "no amdgpu card"));
	CHECK(gpumap_runtime_list(e, 3, NULL, "1", NULL, list, sizeof list, &from, why, sizeof why) == -1 &&
	      strstr(why, "Level Zero's driver order"));
	CHECK(gpumap_runtime_list(e, 3, NULL, "1", "1", list, sizeof list, &from, why, sizeof why) == 1);
	CHECK_STR(list, "0000:05:00.0");
	CHECK_STR(from, "ZE_AFFINITY_MASK");
	CHECK(gpumap_runtime_list(e, 3, "", "0.1,0.0,1", "1", list, sizeof list, &from, why, sizeof why) == 1);
	CHECK_STR(list, "0000:02:00.0,0000:05:00.0");
	CHECK(gpumap_runtime_list(e, 3, NULL, "2", "1", list, sizeof list, &from, why, sizeof why) == -1 &&
	      strstr(why, "Vulkan shows 2 Intel GPUs"));
	CHECK(gpumap_runtime_list(e, 3, NULL, "x", "1", list, sizeof list, &from, why, sizeof why) == -1);
}

static void drm_fdinfo_should_name_the_other_processes(void)
{
	char proc[256], self[64];
	snprintf(proc, sizeof proc, "%s/proc", root);
	setenv("FLOPSCOPE_PROC_ROOT", proc, 1);
	const char *client = "pos:\t0\nflags:\t02100002\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:03:00.0\n"
	                     "drm-client-id:\t42\ndrm-engine-gfx:\t1000000000 ns\ndrm-engine-compute:\t0 ns\n"
	                     "drm-memory-vram:\t2097152 KiB\ndrm-memory-gtt:\t1024 KiB\n";
	put("proc/4711/fdinfo/5", client);
	put("proc/4711/fdinfo/6", client); /* the same client again */
	put("proc/4711/comm", "python3\n");
	put("proc/4711/status", "Name:\tpython3\nUid:\t0\t0\t0\t0\n");
	put("proc/4712/fdinfo/3", "drm-pdev:\t0000:04:00.0\ndrm-client-id:\t7\ndrm-engine-gfx:\t5 ns\n"); /* another GPU */
	put("proc/4712/comm", "other\n");
	snprintf(self, sizeof self, "proc/%u/fdinfo/9", (unsigned)getpid());
	put(self, client); /* this process: never another */
	DeviceInfo d = { .vendor_id = 0x1002, .type = DEV_DISCRETE_GPU, .has_pci = true, .pci_bus = 3 };
	Telemetry t;
	CHECK(telemetry_open(&t, &d));
	CHECK(strstr(t.note, "the other processes on the GPU (DRM fdinfo)"));
	TelReading r;
	CHECK(t.src.read(&t.src, &r));
	CHECK(tel_has(&r, TEL_OTHER_GPU) && r.v[TEL_OTHER_GPU] == 1);
	CHECK(r.procs.total == 1 && r.procs.n == 1 && r.procs.p[0].pid == 4711 && !r.procs.foreign);
	CHECK_STR(r.procs.p[0].name, "python3");
	CHECK_STR(r.procs.p[0].user, "root");
	CHECK(r.procs.p[0].mem_bytes == 2048.0 * 1024 * 1024 && isnan(r.procs.p[0].sm_pct));
	CHECK_STR(r.who, "4711 python3");
	/* a second later its engines ran 0.5 s more: a share of the time since */
	const char *later = "drm-pdev:\t0000:03:00.0\ndrm-client-id:\t42\ndrm-engine-gfx:\t1500000000 ns\n";
	put("proc/4711/fdinfo/5", later);
	put("proc/4711/fdinfo/6", later);
	usleep(1050000);
	CHECK(t.src.read(&t.src, &r));
	CHECK(r.procs.n == 1 && r.procs.p[0].sm_pct > 0 && r.procs.p[0].sm_pct <= 50);
	telemetry_close(&t);
	/* the pure reader: the device's address must match whole */
	DrmClient c;
	CHECK(procs_drm_client(client, "0000:03:00.0", &c) && c.id == 42 && c.engine_ns == 1e9);
	CHECK(!procs_drm_client(client, "0000:03:00.1", &c));
	CHECK(!procs_drm_client("drm-pdev:\t0000:03:00.0\n", "0000:03:00.0", &c)); /* no client id */
	unsetenv("FLOPSCOPE_PROC_ROOT");
}

/* /proc/locks as the kernel writes it (fs/locks.c): a flock's holder, never
 * a waiter, a POSIX lock or another file's */
static void lock_holders_should_be_read_from_procfs_locks(void)
{
	unsigned pid = 0;
	CHECK(procs_lock_holder("3: FLOCK  ADVISORY  WRITE 4711 00:1a:2345 0 EOF\n", 0, 0x1a, 2345, &pid) && pid == 4711);
	CHECK(procs_lock_holder("12: FLOCK  ADVISORY  READ 99 fd:01:2345 0 EOF\n", 0xfd, 1, 2345, &pid) && pid == 99);
	CHECK(!procs_lock_holder("3: -> FLOCK  ADVISORY  WRITE 4712 00:1a:2345 0 EOF\n", 0, 0x1a, 2345, &pid));
	CHECK(!procs_lock_holder("3: FLOCK  ADVISORY  WRITE 4711 00:1a:2346 0 EOF\n", 0, 0x1a, 2345, &pid));
	CHECK(!procs_lock_holder("3: FLOCK  ADVISORY  WRITE 4711 00:1b:2345 0 EOF\n", 0, 0x1a, 2345, &pid));
	CHECK(!procs_lock_holder("4: POSIX  ADVISORY  WRITE 4711 00:1a:2345 0 EOF\n", 0, 0x1a, 2345, &pid));
	CHECK(!procs_lock_holder("5: OFDLCK ADVISORY  WRITE -1 00:1a:2345 0 EOF\n", 0, 0x1a, 2345, &pid));
	CHECK(!procs_lock_holder("3: FLOCK  ADVISORY  WRITE 0 00:1a:2345 0 EOF\n", 0, 0x1a, 2345, &pid));
	CHECK(!procs_lock_holder("", 0, 0x1a, 2345, &pid));
	/* this process's own flock on a file is found, its holder procfs_lock_holders
	 * leaves out: a child holds it here */
	char path[] = "/tmp/flopscope-lockXXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	int ready[2];
	CHECK(pipe(ready) == 0);
	pid_t child = fork();
	if (child == 0) {
		char b = 1;
		int cfd = open(path, O_RDONLY);
		if (cfd < 0 || flock(cfd, LOCK_EX) != 0 || write(ready[1], &b, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	char b;
	CHECK(child > 0 && read(ready[0], &b, 1) == 1);
	unsigned got[3];
	size_t n = procfs_lock_holders(fd, got, 3);
	CHECK(n == 1 && got[0] == (unsigned)child);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	CHECK(procfs_lock_holders(fd, got, 3) == 0);
	close(fd);
	close(ready[0]);
	close(ready[1]);
	unlink(path);
}

/* The process table's claim on a process it ends: held by its pidfd from
 * the question on; refused where the pid's name is no longer the one shown
 * (its process ended and another took the pid); without a pidfd, its start
 * time read again before a signal, another's never signalled. */
static void a_claimed_process_should_be_the_only_one_signalled(void)
{
	pid_t child = fork();
	if (child == 0) {
		for (;;)
			pause();
	}
	CHECK(child > 0);
	char comm[32] = "", why[160] = "";
	FILE *f = fopen("/proc/self/comm", "r"); /* the child's name is ours */
	CHECK(f && fgets(comm, sizeof comm, f));
	if (f)
		fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	ProcClaim c;
	/* another name at that pid: not the process shown */
	CHECK(procfs_claim((unsigned)child, "python3", &c, why, sizeof why) == 1 && c.fd == -1);
	CHECK_STR(why, "it has ended");
	CHECK(procfs_claim((unsigned)child, comm, &c, why, sizeof why) == 0 && c.pid == (unsigned)child && c.start > 0);
	CHECK(procfs_claim_alive(&c));
	/* without its pidfd, a start time not its own (its pid taken again): no signal */
	ProcClaim other = { .pid = c.pid, .fd = -1, .start = c.start + 1 };
	CHECK(procfs_claim_signal(&other, SIGKILL, why, sizeof why) == 1 && !procfs_claim_alive(&other));
	CHECK(waitpid(child, NULL, WNOHANG) == 0); /* still running */
	ProcClaim bare = { .pid = c.pid, .fd = -1, .start = c.start };
	CHECK(procfs_claim_alive(&bare));
	/* the claim's own signal ends it; then it has ended, said */
	CHECK(procfs_claim_signal(&c, SIGKILL, why, sizeof why) == 0);
	CHECK(waitpid(child, NULL, 0) == child);
	CHECK(!procfs_claim_alive(&c) && !procfs_claim_alive(&bare));
	CHECK(procfs_claim_signal(&c, SIGTERM, why, sizeof why) == 1);
	procfs_release(&c);
	CHECK(c.fd == -1);
}

int main(void)
{
	RUN(pcie_peak_should_follow_the_link);
	make_tree();
	RUN(gpu_metrics_should_be_read_by_its_header);
	RUN(amd_card_should_be_matched_by_pci_address);
	RUN(drm_render_nodes_should_number_the_gpus_as_slurm_does);
	RUN(runtime_masks_should_be_tied_only_where_sound);
	RUN(drm_fdinfo_should_name_the_other_processes);
	RUN(lock_holders_should_be_read_from_procfs_locks);
	RUN(a_claimed_process_should_be_the_only_one_signalled);
	RUN(pcie_link_should_be_read_now_and_at_most);
	RUN(intel_gt_clock_should_be_read);
	RUN(cpu_clock_and_rapl_power_should_be_read);
	RUN(missing_sources_should_say_na);
	RUN(peak_should_follow_the_formulas);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	if (system(cmd) != 0)
		fprintf(stderr, "  could not remove %s\n", root);
	return CHECK_DONE();
}
