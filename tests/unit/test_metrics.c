/* The Prometheus exposition (core/metrics.c), the check's threshold rule
 * (compare_threshold) and the check's default thresholds. promtool's own verdict on
 * real output is in tests/integration/fleet.sh. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "compare.h"
#include "metrics.h"
#include "verdict.h"
#include "peak.h"

/* How many lines of text start with prefix. */
static int lines_starting(const char *text, const char *prefix)
{
	int n = 0;
	size_t l = strlen(prefix);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		n += !strncmp(p, prefix, l);
	return n;
}

/* device dev: NVML's GPU dev - 1, its own UUID and PCI address */
static MetricsRow row(unsigned dev, const char *wl, WorkloadUnit unit)
{
	static const char *const uuids[] = { "", "5881485c-3d6f-a8e6-7831-c796f2ad67d8",
		                              "98c4a1e2-0000-1111-2222-333344445555" };
	static const char *const pcis[] = { "", "00000000:1B:00.0", "00000000:2C:00.0" };
	MetricsRow r;
	metrics_row_init(&r);
	r.entry = dev;
	r.has_gpu = true;
	r.gpu = dev - 1;
	r.uuid = uuids[dev];
	r.pci_bus_id = pcis[dev];
	r.name = "NVIDIA H100 80GB HBM3";
	r.driver = "NVIDIA 580.159.04";
	r.workload = wl;
	r.unit = unit;
	return r;
}

/* Every measured quantity whose row names a family (tel_rows.h) is written
 * from that row alone: its family, help and type (a counter for the
 * counter kinds), the reading times the row's scale, once a device; one
 * without a family never appears. */
static void every_measured_quantity_with_a_family_should_be_written_from_its_row(void)
{
	for (int f = 0; f < TEL_FIELD_COUNT; f++) {
		const TelInfo *ti = &tel_info[f];
		MetricsRow r[2] = { row(1, "fp32", UNIT_FLOPS), row(1, "copy", UNIT_BYTES) };
		r[0].tel[f] = r[1].tel[f] = 3;
		char *t = metrics_render(r, 2, "1.2.3", NAN, -1);
		CHECK(t != NULL);
		if (!t)
			continue;
		if (!ti->metric) {
			char key[96];
			snprintf(key, sizeof key, "flopscope_%s", ti->key);
			CHECK(!strstr(t, key));
			free(t);
			continue;
		}
		char want[256];
		bool counter = ti->kind == TEL_COUNTER || ti->kind == TEL_SECONDS_COUNTER;
		snprintf(want, sizeof want, "# HELP %s %s\n# TYPE %s %s\n", ti->metric, ti->help, ti->metric,
		         counter ? "counter" : "gauge");
		CHECK(strstr(t, want) != NULL);
		snprintf(want, sizeof want, "%s{gpu=\"0\",UUID=\"GPU-5881485c-3d6f-a8e6-7831-c796f2ad67d8\","
		         "pci_bus_id=\"00000000:1B:00.0\"} %.17g\n", ti->metric, 3 * ti->scale);
		CHECK(strstr(t, want) != NULL);
		snprintf(want, sizeof want, "%s{", ti->metric);
		CHECK(lines_starting(t, want) == 1); /* once a device, not once a workload */
		if (!strstr(t, want) || lines_starting(t, want) != 1)
			fprintf(stderr, "  field %s\n", ti->key);
		free(t);
	}
}

static void metrics_should_write_each_family_once_and_leave_unknowns_out(void)
{
	MetricsRow r[3] = { row(1, "fp32", UNIT_FLOPS), row(1, "copy", UNIT_BYTES), row(2, "fp32", UNIT_FLOPS) };
	r[0].has_now = true;
	r[0].now = 61.5e12;
	r[0].median = 60e12;
	r[0].peak_ratio = 0.9;
	r[0].samples = 120;
	r[0].checks_passed = 7;
	r[0].changes[CAUSE_POWER_STATE] = 2;
	r[0].tel[TEL_SM_MHZ] = 1980;
	r[1].median = 2.9e12;  /* no peak known: no peak series */
	r[1].tel[TEL_SM_MHZ] = 1980; /* the device's clock once, not per workload */
	r[2].median = 59e12;
	r[2].name = "a \"quoted\\ name\nwith a newline";
	char *t = metrics_render(r, 3, "1.2.3", NAN, -1);
	CHECK(t != NULL);
	if (!t)
		return;
	/* every family has HELP and TYPE once, one unit a family */
	CHECK(lines_starting(t, "# TYPE flopscope_throughput_median_flops gauge") == 1);
	CHECK(lines_starting(t, "# HELP flopscope_throughput_median_flops ") == 1);
	CHECK(lines_starting(t, "flopscope_throughput_median_flops{") == 2);
	CHECK(lines_starting(t, "flopscope_throughput_median_bytes_per_second{") == 1);
	CHECK(lines_starting(t, "flopscope_throughput_median_ops") == 0); /* no integer workload */
	CHECK(lines_starting(t, "flopscope_throughput_flops{") == 1);   /* only the row with a latest sample */
	CHECK(strstr(t, "unit=") == NULL);
	/* the static facts once a device, in its _info series */
	CHECK(lines_starting(t, "flopscope_device_info{") == 2);
	CHECK(strstr(t, "flopscope_device_info{gpu=\"0\",UUID=\"GPU-5881485c-3d6f-a8e6-7831-c796f2ad67d8\","
	                "pci_bus_id=\"00000000:1B:00.0\",name=\"NVIDIA H100 80GB HBM3\",driver=\"NVIDIA 580.159.04\","
	                "entry=\"1\"} 1\n") != NULL);
	CHECK(lines_starting(t, "flopscope_peak_ratio{") == 1);
	CHECK(lines_starting(t, "flopscope_clock_hertz{") == 1);
	CHECK(lines_starting(t, "# TYPE flopscope_power_watts") == 0); /* nothing known: no family */
	CHECK(lines_starting(t, "flopscope_result_checks_total{") == 6);
	CHECK(lines_starting(t, "flopscope_level_changes_total{") == 3 * CAUSE_COUNT);
	CHECK(lines_starting(t, "# TYPE flopscope_samples_total counter") == 1);
	CHECK(lines_starting(t, "flopscope_check_") == 0);   /* not a check */
	CHECK(strstr(t, "flopscope_build_info{version=\"1.2.3\"} 1\n") != NULL);
	/* dcgm-exporter's labels: gpu, UUID, pci_bus_id */
	CHECK(strstr(t, "flopscope_throughput_flops{gpu=\"0\",UUID=\"GPU-5881485c-3d6f-a8e6-7831-c796f2ad67d8\","
	                "pci_bus_id=\"00000000:1B:00.0\",workload=\"fp32\"} 61500000000000\n") != NULL);
	CHECK(strstr(t, "flopscope_level_changes_total{gpu=\"0\",UUID=\"GPU-5881485c-3d6f-a8e6-7831-c796f2ad67d8\","
	                "pci_bus_id=\"00000000:1B:00.0\",workload=\"fp32\",cause=\"power_state\"} 2\n") != NULL);
	CHECK(strstr(t, "name=\"a \\\"quoted\\\\ name\\nwith a newline\"") != NULL);
	/* no NaN ever written */
	CHECK(strstr(t, "nan") == NULL && strstr(t, "NaN") == NULL);
	free(t);
}

static void metrics_should_carry_a_checks_verdicts(void)
{
	MetricsRow r[2] = { row(1, "fp32", UNIT_FLOPS), row(1, "fp16", UNIT_FLOPS) };
	r[0].check = CHECK_FAIL;
	r[0].check_ratio = 0.72;
	r[0].check_threshold = 0.8;
	r[0].check_reference = "peak";
	r[0].check_codes = (uint64_t)1 << VC_BELOW_PEAK | (uint64_t)1 << VC_OTHER_PROCESS;
	r[1].check = CHECK_NOREF;
	r[1].check_codes = (uint64_t)1 << VC_NO_REFERENCE;
	char *t = metrics_render(r, 2, "1", 12.5, 1);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(lines_starting(t, "flopscope_check_status{") == 2 * CHECK_STATUS_COUNT);
	CHECK(strstr(t, "workload=\"fp32\",status=\"fail\"} 1\n") != NULL);
	CHECK(strstr(t, "workload=\"fp32\",status=\"pass\"} 0\n") != NULL);
	CHECK(strstr(t, "workload=\"fp16\",status=\"noref\"} 1\n") != NULL);
	CHECK(lines_starting(t, "flopscope_check_ratio{") == 1);  /* noref has none */
	CHECK(strstr(t, "workload=\"fp32\",reference=\"peak\"} 0.80000000000000004\n") != NULL);
	/* a series a cause, by its code, those a healthy device gives left out */
	CHECK(lines_starting(t, "flopscope_check_cause{") == 3);
	CHECK(strstr(t, "workload=\"fp32\",code=\"BELOW_PEAK\",severity=\"fail\"} 1\n") != NULL);
	CHECK(strstr(t, "workload=\"fp32\",code=\"OTHER_PROCESS\",severity=\"warn\"} 1\n") != NULL);
	CHECK(strstr(t, "workload=\"fp16\",code=\"NO_REFERENCE\",severity=\"info\"} 1\n") != NULL);
	r[0].check_codes = (uint64_t)1 << VC_AT_PEAK;
	r[1].check_codes = 0;
	char *u = metrics_render(r, 2, "1", 12.5, 1);
	CHECK(u && !strstr(u, "flopscope_check_cause"));
	free(u);
	CHECK(strstr(t, "flopscope_check_duration_seconds 12.5\n") != NULL);
	CHECK(strstr(t, "flopscope_check_exit_code 1\n") != NULL);
	/* its HELP names every status a check's metrics can end with, 6 too
	 * (a usage error writes none) */
	CHECK(strstr(t, "# HELP flopscope_check_exit_code The check's exit status: 0 passed, 1 failed, 3 wrong results, "
	                "4 an outlier, 5 nothing judged, 6 could not run.\n") != NULL);
	free(t);
}

/* one entry measured by two engines at once: the second's series differ */
static void metrics_should_tell_two_engines_on_one_entry_apart(void)
{
	MetricsRow r[2] = { row(1, "fp32", UNIT_FLOPS), row(1, "fp32", UNIT_FLOPS) };
	r[0].median = 1;
	r[1].median = 2;
	r[1].engine = 2;
	r[0].tel[TEL_SM_MHZ] = r[1].tel[TEL_SM_MHZ] = 1000;
	char *t = metrics_render(r, 2, "1", NAN, -1);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(strstr(t, "pci_bus_id=\"00000000:1B:00.0\",workload=\"fp32\"} 1\n") != NULL);
	CHECK(strstr(t, "pci_bus_id=\"00000000:1B:00.0\",engine=\"2\",workload=\"fp32\"} 2\n") != NULL);
	CHECK(lines_starting(t, "flopscope_clock_hertz{") == 2);
	CHECK(lines_starting(t, "flopscope_device_info{") == 1); /* one device */
	free(t);
}

/* a device NVML does not know, without a PCI address: no gpu, no pci_bus_id */
static void metrics_should_leave_out_what_names_no_device(void)
{
	MetricsRow r = row(1, "int32", UNIT_IOPS);
	r.has_gpu = false;
	r.pci_bus_id = "";
	r.median = 5e9;
	char *t = metrics_render(&r, 1, "1", NAN, -1);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(strstr(t, "flopscope_throughput_median_ops{UUID=\"GPU-5881485c-3d6f-a8e6-7831-c796f2ad67d8\","
	                "workload=\"int32\"} 5000000000\n") != NULL);
	CHECK(strstr(t, "gpu=") == NULL && strstr(t, "pci_bus_id=") == NULL);
	free(t);
}

static void metrics_escape_should_keep_values_valid_when_cut(void)
{
	char out[8];
	CHECK(metrics_escape("ab\"c", out, sizeof out));
	CHECK_STR(out, "ab\\\"c");
	CHECK(!metrics_escape("abcdef\"gh", out, sizeof out));
	CHECK_STR(out, "abcdef"); /* never half an escape */
}

static CompareResult result(double ratio, double lo, double hi, double noise, bool sessions)
{
	CompareResult r;
	memset(&r, 0, sizeof r);
	r.ratio = ratio;
	r.ratio_lo = lo;
	r.ratio_hi = hi;
	r.noise = noise;
	r.sessions_method = sessions;
	return r;
}

static void a_threshold_should_be_missed_only_beyond_what_the_data_can_tell(void)
{
	char why[400];
	CompareResult r = result(0.97, 0.95, 0.99, 0.01, false);
	CHECK(compare_threshold(&r, 0.9, why, sizeof why) == COMPARE_FASTER);
	CHECK(strstr(why, "97.0% of the baseline's median, threshold 90%") != NULL);
	/* below, the interval clear of it, the shortfall beyond twice the spread */
	r = result(0.70, 0.65, 0.75, 0.02, false);
	CHECK(compare_threshold(&r, 0.9, why, sizeof why) == COMPARE_SLOWER);
	/* the interval reaches the threshold */
	r = result(0.85, 0.80, 0.92, 0.01, false);
	CHECK(compare_threshold(&r, 0.9, why, sizeof why) == COMPARE_CANNOT_TELL);
	/* within one session's noise (0.9 - 0.85 <= 0.06) */
	r = result(0.85, 0.84, 0.86, 0.06, false);
	CHECK(compare_threshold(&r, 0.9, why, sizeof why) == COMPARE_CANNOT_TELL);
	CHECK(strstr(why, "one session's noise (6.0%") != NULL);
	/* several sessions a side: their own spread is in the interval */
	r = result(0.85, 0.84, 0.86, 0.03, true);
	CHECK(compare_threshold(&r, 0.9, why, sizeof why) == COMPARE_SLOWER);
	/* too short for an interval */
	r = result(0.5, NAN, NAN, 0.0, false);
	CHECK(compare_threshold(&r, 0.9, why, sizeof why) == COMPARE_CANNOT_TELL);
	CHECK(strstr(why, "too few") != NULL);
}

/* the defaults sit below what a healthy H100 reached (docs/FLEET.md) */
static void check_thresholds_should_follow_the_kind_of_workload(void)
{
	CHECK(peak_check_threshold_pct(WORKLOAD_FP32) == 90 && peak_check_threshold_pct(WORKLOAD_INT32) == 90);
	CHECK(peak_check_threshold_pct(WORKLOAD_FP16_MATRIX) == 55 && peak_check_threshold_pct(WORKLOAD_INT8_MATRIX) == 55);
	CHECK(peak_check_threshold_pct(WORKLOAD_COPY) == 80);
	CHECK(peak_check_threshold_pct(WORKLOAD_H2D) == 70 && peak_check_threshold_pct(WORKLOAD_D2H) == 70);
}


/* Energy (a counter, where a power reading was seen), the time at each
 * cause of reduced clocks (a counter a reason, where reasons were read) and
 * the power limit (a gauge a device); none known: no series. */
static void metrics_should_count_energy_and_reduced_clocks_where_known(void)
{
	MetricsRow r[2] = { row(1, "power", UNIT_FLOPS), row(2, "power", UNIT_FLOPS) };
	r[0].energy_j = 5317.5;
	r[0].tel[TEL_POWER_LIMIT_W] = 700;
	r[0].has_reasons = true;
	r[0].clock_reduced_s[0] = 7.95; /* power cap, throttle_reasons[0] */
	char *t = metrics_render(r, 2, "1.2.3", NAN, -1);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(lines_starting(t, "# TYPE flopscope_energy_joules_total counter") == 1);
	CHECK(strstr(t, "flopscope_energy_joules_total{gpu=\"0\",UUID=\"GPU-5881485c-3d6f-a8e6-7831-c796f2ad67d8\","
	                "pci_bus_id=\"00000000:1B:00.0\",workload=\"power\"} 5317.5\n") != NULL);
	CHECK(lines_starting(t, "flopscope_energy_joules_total{") == 1);
	CHECK(lines_starting(t, "# TYPE flopscope_clock_reduced_seconds_total counter") == 1);
	CHECK(lines_starting(t, "flopscope_clock_reduced_seconds_total{") == 6);
	CHECK(strstr(t, "workload=\"power\",reason=\"power_cap\"} 7.9500000000000002\n") != NULL);
	CHECK(strstr(t, "workload=\"power\",reason=\"hw_slowdown\"} 0\n") != NULL);
	CHECK(lines_starting(t, "flopscope_power_limit_watts{") == 1);
	CHECK(strstr(t, "nan") == NULL && strstr(t, "NaN") == NULL);
	CHECK(!strstr(t, "violation")); /* no driver's count: no series */
	free(t);
	/* the driver's violation counts, a series each policy it keeps one of */
	r[0].violation_s[VIOL_POWER] = 7.5;
	r[0].violation_s[VIOL_THERMAL] = 0;
	t = metrics_render(r, 2, "1.2.3", NAN, -1);
	CHECK(t && lines_starting(t, "# TYPE flopscope_clock_violation_seconds_total counter") == 1);
	CHECK(t && lines_starting(t, "flopscope_clock_violation_seconds_total{") == 2);
	CHECK(t && strstr(t, "workload=\"power\",policy=\"power\"} 7.5\n"));
	CHECK(t && strstr(t, "workload=\"power\",policy=\"thermal\"} 0\n"));
	free(t);
	r[0].violation_s[VIOL_POWER] = r[0].violation_s[VIOL_THERMAL] = NAN;
	r[0].energy_j = NAN;
	r[0].has_reasons = false;
	r[0].tel[TEL_POWER_LIMIT_W] = NAN;
	t = metrics_render(r, 2, "1.2.3", NAN, -1);
	CHECK(t && !strstr(t, "energy") && !strstr(t, "clock_reduced") && !strstr(t, "power_limit"));
	free(t);
}

int main(void)
{
	RUN(metrics_should_count_energy_and_reduced_clocks_where_known);
	RUN(check_thresholds_should_follow_the_kind_of_workload);
	RUN(metrics_should_write_each_family_once_and_leave_unknowns_out);
	RUN(every_measured_quantity_with_a_family_should_be_written_from_its_row);
	RUN(metrics_should_carry_a_checks_verdicts);
	RUN(metrics_should_tell_two_engines_on_one_entry_apart);
	RUN(metrics_should_leave_out_what_names_no_device);
	RUN(metrics_escape_should_keep_values_valid_when_cut);
	RUN(a_threshold_should_be_missed_only_beyond_what_the_data_can_tell);
	return CHECK_DONE();
}
