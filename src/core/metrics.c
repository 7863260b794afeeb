#include "metrics.h"

#include "error.h"
#include "peak.h"
#include "throttle.h"
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const check_status_names[CHECK_STATUS_COUNT] = {
	[CHECK_PASS] = "pass", [CHECK_FAIL] = "fail", [CHECK_WRONG] = "wrong", [CHECK_UNSURE] = "unsure",
	[CHECK_NOREF] = "noref", [CHECK_SKIP] = "skip", [CHECK_ERROR] = "error", [CHECK_OUTLIER] = "outlier",
	[CHECK_MISSING] = "missing",
};

const char *const metrics_unit_suffix[UNIT_COUNT] = {
	[UNIT_FLOPS] = "flops", [UNIT_IOPS] = "ops", [UNIT_BYTES] = "bytes_per_second",
};

void metrics_row_init(MetricsRow *r)
{
	memset(r, 0, sizeof *r);
	r->uuid = r->pci_bus_id = r->name = r->driver = r->workload = r->check_reference = "";
	r->median = r->peak_ratio = r->rated_peak_ratio = r->peer_ratio = r->duty = r->noise = NAN;
	r->energy_j = NAN;
	for (int f = 0; f < TEL_FIELD_COUNT; f++)
		r->tel[f] = NAN;
	r->check = CHECK_NONE;
	r->check_ratio = r->check_threshold = NAN;
	r->shared_median = NAN;
	for (size_t v = 0; v < ENERGY_VIOLATIONS; v++)
		r->violation_s[v] = NAN;
}

bool metrics_escape(const char *value, char *out, size_t len)
{
	size_t o = 0;
	for (const char *p = value ? value : ""; *p; p++) {
		const char *rep = *p == '\\' ? "\\\\" : *p == '"' ? "\\\"" : *p == '\n' ? "\\n" : NULL;
		size_t need = rep ? 2 : 1;
		if (o + need >= len) {
			out[o] = '\0';
			return false;
		}
		if (rep) {
			memcpy(out + o, rep, 2);
		} else {
			out[o] = *p;
		}
		o += need;
	}
	out[o] = '\0';
	return true;
}

/* A growing string; oom set once memory ran out (later appends do nothing). */
typedef struct Text {
	char *s;
	size_t n, cap;
	bool oom;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Text *t, const char *fmt, ...)
{
	if (t->oom)
		return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0) {
			t->oom = true;
			return;
		}
		if (t->s && (size_t)k < t->cap - t->n) {
			t->n += (size_t)k;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 4096;
		while (cap < t->n + (size_t)k + 1)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->oom = true;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
}

static void family(Text *t, const char *name, const char *type, const char *help)
{
	put(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The labels that name the device, and the workload's (with_workload):
 * "{...," without the closing brace, so that a series can add its own. */
static void labels(Text *t, const MetricsRow *r, bool with_workload)
{
	char uuid[128], pci[64];
	metrics_escape(r->uuid, uuid, sizeof uuid);
	metrics_escape(r->pci_bus_id, pci, sizeof pci);
	put(t, "{");
	if (r->has_gpu)
		put(t, "gpu=\"%u\",", r->gpu);
	put(t, "UUID=\"GPU-%s\"", uuid);
	if (*pci)
		put(t, ",pci_bus_id=\"%s\"", pci);
	if (r->engine)
		put(t, ",engine=\"%u\"", r->engine);
	if (with_workload) {
		char wl[128];
		metrics_escape(r->workload, wl, sizeof wl);
		put(t, ",workload=\"%s\"", wl);
	}
}

static void value(Text *t, double v)
{
	put(t, "} %.17g\n", v);
}

/* A gauge of one figure per row, rows where it is known (not NaN); unit
 * >= 0: only the rows of that unit (a throughput's family). */
typedef double (*Figure)(const MetricsRow *r, int arg);

static void series(Text *t, const MetricsRow *rows, size_t n, const char *name, const char *type, const char *help,
                   Figure f, int arg, bool with_workload, int unit)
{
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		double v = f(&rows[k], arg);
		if (isnan(v) || (unit >= 0 && rows[k].unit != (WorkloadUnit)unit))
			continue;
		/* a device figure is written once per device, not once per workload */
		bool dup = false;
		for (size_t j = 0; !with_workload && j < k; j++)
			dup |= !strcmp(rows[j].uuid, rows[k].uuid) && rows[j].engine == rows[k].engine && !isnan(f(&rows[j], arg));
		if (dup)
			continue;
		if (!any)
			family(t, name, type, help);
		any = true;
		put(t, "%s", name);
		labels(t, &rows[k], with_workload);
		value(t, v);
	}
}

static void gauge_of(Text *t, const MetricsRow *rows, size_t n, const char *name, const char *help, Figure f,
                     bool with_workload, int unit)
{
	series(t, rows, n, name, "gauge", help, f, 0, with_workload, unit);
}

static void gauge(Text *t, const MetricsRow *rows, size_t n, const char *name, const char *help, Figure f,
                  bool with_workload)
{
	gauge_of(t, rows, n, name, help, f, with_workload, -1);
}

static double f_now(const MetricsRow *r, int arg) { (void)arg; return r->has_now ? r->now : NAN; }
static double f_median(const MetricsRow *r, int arg) { (void)arg; return r->median; }
static double f_peak(const MetricsRow *r, int arg) { (void)arg; return r->peak_ratio; }
static double f_rated(const MetricsRow *r, int arg) { (void)arg; return r->rated_peak_ratio; }
static double f_peer(const MetricsRow *r, int arg) { (void)arg; return r->peer_ratio; }
static double f_duty(const MetricsRow *r, int arg) { (void)arg; return r->duty; }
static double f_noise(const MetricsRow *r, int arg) { (void)arg; return r->noise; }
static double f_shared(const MetricsRow *r, int arg) { (void)arg; return r->shared_median; }
static double f_check_ratio(const MetricsRow *r, int arg)
{
	(void)arg;
	return r->check == CHECK_NONE ? NAN : r->check_ratio;
}

/* A device's latest readings: a family for each row of the measured
 * quantities' table that names one (tel_rows.h), in its units (.scale), a
 * counter for the counter kinds; once a device, where read. */
static double f_tel(const MetricsRow *r, int f) { return r->tel[f] * tel_info[f].scale; }

static void telemetry_families(Text *t, const MetricsRow *rows, size_t n)
{
	for (int f = 0; f < TEL_FIELD_COUNT; f++) {
		const TelInfo *ti = &tel_info[f];
		bool counter = ti->kind == TEL_COUNTER || ti->kind == TEL_SECONDS_COUNTER;
		if (ti->metric)
			series(t, rows, n, ti->metric, counter ? "counter" : "gauge", ti->help, f_tel, f, false, -1);
	}
}

/* The counters: samples, result checks by result, level changes by cause. */
static void counters(Text *t, const MetricsRow *rows, size_t n)
{
	bool runs = false; /* a row of a run (not only a device's readings) */
	for (size_t k = 0; k < n; k++)
		runs |= !rows[k].device_only;
	if (!runs)
		return;
	family(t, "flopscope_samples_total", "counter", "Samples (measured dispatches) of the run.");
	for (size_t k = 0; k < n; k++) {
		if (rows[k].device_only)
			continue;
		put(t, "flopscope_samples_total");
		labels(t, &rows[k], true);
		value(t, (double)rows[k].samples);
	}
	family(t, "flopscope_result_checks_total", "counter",
	       "Dispatches whose results were checked against the CPU, by result.");
	for (size_t k = 0; k < n; k++) {
		if (rows[k].device_only)
			continue;
		put(t, "flopscope_result_checks_total");
		labels(t, &rows[k], true);
		put(t, ",result=\"passed\"");
		value(t, (double)rows[k].checks_passed);
		put(t, "flopscope_result_checks_total");
		labels(t, &rows[k], true);
		put(t, ",result=\"failed\"");
		value(t, (double)rows[k].checks_failed);
	}
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		if (isnan(rows[k].energy_j))
			continue;
		if (!any)
			family(t, "flopscope_energy_joules_total", "counter",
			       "The energy of the run's dispatches: each power reading over its sample's time.");
		any = true;
		put(t, "flopscope_energy_joules_total");
		labels(t, &rows[k], true);
		value(t, rows[k].energy_j);
	}
	any = false;
	for (size_t k = 0; k < n; k++) {
		if (!rows[k].has_reasons)
			continue;
		if (!any)
			family(t, "flopscope_clock_reduced_seconds_total", "counter",
			       "Time of the run's dispatches with a cause of reduced clocks set, by reason.");
		any = true;
		for (size_t c = 0; c < throttle_reason_count && c < METRICS_REASONS; c++) {
			put(t, "flopscope_clock_reduced_seconds_total");
			labels(t, &rows[k], true);
			put(t, ",reason=\"%s\"", throttle_reasons[c].key);
			value(t, rows[k].clock_reduced_s[c]);
		}
	}
	any = false;
	for (size_t k = 0; k < n; k++) {
		for (size_t v = 0; v < ENERGY_VIOLATIONS; v++) {
			if (isnan(rows[k].violation_s[v]))
				continue;
			if (!any)
				family(t, "flopscope_clock_violation_seconds_total", "counter",
				       "The " HELD_AT_LIMIT ": seconds the clock was below its target by a policy's limit over "
				       "the run (NVML's violation counters, as DCGM's power and thermal violation fields).");
			any = true;
			put(t, "flopscope_clock_violation_seconds_total");
			labels(t, &rows[k], true);
			put(t, ",policy=\"%s\"", energy_violation_keys[v]);
			value(t, rows[k].violation_s[v]);
		}
	}
	family(t, "flopscope_level_changes_total", "counter",
	       "Lasting changes of the throughput's level, by their cause as the telemetry tells it.");
	for (size_t k = 0; k < n; k++) {
		for (int c = 0; c < CAUSE_COUNT && !rows[k].device_only; c++) {
			put(t, "flopscope_level_changes_total");
			labels(t, &rows[k], true);
			put(t, ",cause=\"%s\"", change_cause_keys[c]);
			value(t, (double)rows[k].changes[c]);
		}
	}
}

/* The check's verdicts (one series per status, 1 for the row's), the figure
 * held to the threshold, the threshold, the check's duration and exit. */
static void check_families(Text *t, const MetricsRow *rows, size_t n, double check_duration_s, int exit_code)
{
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		if (rows[k].check == CHECK_NONE)
			continue;
		if (!any)
			family(t, "flopscope_check_status", "gauge",
			       "The check's verdict on the device and workload: 1 for its status, 0 for the others.");
		any = true;
		for (int s = 0; s < CHECK_STATUS_COUNT; s++) {
			put(t, "flopscope_check_status");
			labels(t, &rows[k], true);
			put(t, ",status=\"%s\"", check_status_names[s]);
			value(t, rows[k].check == (CheckStatus)s ? 1 : 0);
		}
	}
	/* the verdict's causes but the ones a healthy device gives, by code */
	any = false;
	for (size_t k = 0; k < n; k++) {
		if (rows[k].check == CHECK_NONE)
			continue;
		for (int c = 0; c < VC_COUNT; c++) {
			if (!(rows[k].check_codes & (uint64_t)1 << c) || verdict_causes[c].sev == SEV_OK)
				continue;
			if (!any)
				family(t, "flopscope_check_cause", "gauge",
				       "A cause of the check's verdict on the device and workload, by its stable code "
				       "(docs/FLEET.md lists each with its action) and severity; always 1.");
			any = true;
			put(t, "flopscope_check_cause");
			labels(t, &rows[k], true);
			put(t, ",code=\"%s\",severity=\"%s\"", verdict_causes[c].code,
			    severity_names[verdict_causes[c].sev]);
			value(t, 1);
		}
	}
	gauge(t, rows, n, "flopscope_check_ratio",
	      "The figure the check held to its threshold: the median as a fraction of the peak or the baseline.",
	      f_check_ratio, true);
	any = false;
	for (size_t k = 0; k < n; k++) {
		if (rows[k].check == CHECK_NONE || isnan(rows[k].check_threshold))
			continue;
		if (!any)
			family(t, "flopscope_check_threshold_ratio", "gauge",
			       "The check's threshold, as a fraction of its reference (the peak or the baseline).");
		any = true;
		put(t, "flopscope_check_threshold_ratio");
		labels(t, &rows[k], true);
		put(t, ",reference=\"%s\"", rows[k].check_reference);
		value(t, rows[k].check_threshold);
	}
	if (!isnan(check_duration_s)) {
		family(t, "flopscope_check_duration_seconds", "gauge", "How long the whole check took.");
		put(t, "flopscope_check_duration_seconds %.17g\n", check_duration_s);
	}
	if (exit_code >= 0) {
		char help[256] = "The check's exit status:";
		size_t at = strlen(help);
#define STATUS_CHECK(code, words, check)                                                                   \
		if (check[0] && at < sizeof help)                                                                   \
			at += (size_t)snprintf(help + at, sizeof help - at, "%s %d %s", code ? "," : "", code, check);
		STATUS_ROWS(STATUS_CHECK)
#undef STATUS_CHECK
		if (at < sizeof help)
			snprintf(help + at, sizeof help - at, ".");
		family(t, "flopscope_check_exit_code", "gauge", help);
		put(t, "flopscope_check_exit_code %d\n", exit_code);
	}
}

/* One flopscope_device_info series a device (its UUID): the static facts. */
static void device_info(Text *t, const MetricsRow *rows, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		bool dup = false;
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(rows[j].uuid, rows[k].uuid);
		if (dup)
			continue;
		if (k == 0)
			family(t, "flopscope_device_info", "gauge",
			       "The device's static facts as labels: name, driver (its own version string), flopscope's "
			       "entry number (-N); always 1.");
		char name[512], driver[512];
		metrics_escape(rows[k].name, name, sizeof name);
		metrics_escape(rows[k].driver, driver, sizeof driver);
		MetricsRow one = rows[k];
		one.engine = 0;
		put(t, "flopscope_device_info");
		labels(t, &one, false);
		put(t, ",name=\"%s\",driver=\"%s\",entry=\"%u\"", name, driver, rows[k].entry);
		value(t, 1);
	}
}

/* The throughputs, one family a unit with the unit in its name. */
static void throughputs(Text *t, const MetricsRow *rows, size_t n)
{
	static const char *const what[UNIT_COUNT] = {
		[UNIT_FLOPS] = "floating-point operations per second",
		[UNIT_IOPS] = "integer operations per second",
		[UNIT_BYTES] = "bytes per second",
	};
	for (int u = 0; u < UNIT_COUNT; u++) {
		char name[96], help[256];
		snprintf(name, sizeof name, "flopscope_throughput_%s", metrics_unit_suffix[u]);
		snprintf(help, sizeof help, "The latest steady sample's throughput, in %s.", what[u]);
		gauge_of(t, rows, n, name, help, f_now, true, u);
		snprintf(name, sizeof name, "flopscope_throughput_median_%s", metrics_unit_suffix[u]);
		snprintf(help, sizeof help, "The median throughput of the run's steady samples, in %s.", what[u]);
		gauge_of(t, rows, n, name, help, f_median, true, u);
		snprintf(name, sizeof name, "flopscope_check_shared_median_%s", metrics_unit_suffix[u]);
		snprintf(help, sizeof help, "A transfer's median in %s while every device checked ran it at once: the "
		         "device's share of the host, held to no threshold (sum by workload: the host's aggregate).",
		         what[u]);
		gauge_of(t, rows, n, name, help, f_shared, true, u);
	}
}

/* The host's GPUs: those Vulkan shows and those it does not, each named. */
static void gpu_inventory(Text *t, const MetricsGpus *g)
{
	family(t, "flopscope_gpus", "gauge",
	       "The host's GPUs as the check counted them: state visible (Vulkan shows them) or missing (NVML or the "
	       "PCI bus has them, Vulkan does not).");
	put(t, "flopscope_gpus{state=\"visible\"} %zu\n", g->visible);
	put(t, "flopscope_gpus{state=\"missing\"} %zu\n", g->nmissing);
	for (size_t k = 0; k < g->nmissing; k++) {
		const MetricsMissingGpu *m = &g->missing[k];
		if (k == 0)
			family(t, "flopscope_gpu_missing", "gauge",
			       "A GPU of the host that Vulkan does not show (the check's MISSING row says why); always 1.");
		char uuid[200], pci[64], name[300];
		metrics_escape(m->uuid, uuid, sizeof uuid);
		metrics_escape(m->pci_bus_id, pci, sizeof pci);
		metrics_escape(m->name, name, sizeof name);
		put(t, "flopscope_gpu_missing{");
		const char *sep = "";
		if (m->gpu >= 0) {
			put(t, "gpu=\"%d\"", m->gpu);
			sep = ",";
		}
		if (*uuid) {
			put(t, "%sUUID=\"%s\"", sep, uuid);
			sep = ",";
		}
		if (*pci) {
			put(t, "%spci_bus_id=\"%s\"", sep, pci);
			sep = ",";
		}
		put(t, "%sname=\"%s\"} 1\n", sep, name);
	}
}

char *metrics_render(const MetricsRow *rows, size_t n, const char *version, double check_duration_s,
                     int exit_code)
{
	return metrics_render_host(rows, n, version, check_duration_s, exit_code, NULL);
}

char *metrics_render_host(const MetricsRow *rows, size_t n, const char *version, double check_duration_s,
                          int exit_code, const MetricsGpus *gpus)
{
	Text t = { 0 };
	char ver[64];
	metrics_escape(version, ver, sizeof ver);
	family(&t, "flopscope_build_info", "gauge", "flopscope's version; always 1.");
	put(&t, "flopscope_build_info{version=\"%s\"} 1\n", ver);

	device_info(&t, rows, n);
	throughputs(&t, rows, n);
	gauge(&t, rows, n, "flopscope_peak_ratio",
	      "The median as a fraction of the device's theoretical peak at the clock read during the run.", f_peak,
	      true);
	gauge(&t, rows, n, "flopscope_rated_peak_ratio",
	      "The median as a fraction of the device's theoretical peak at its maximum clock (the rated peak).",
	      f_rated, true);
	gauge(&t, rows, n, "flopscope_peer_ratio",
	      "The median as a fraction of the median of the identical devices measured at once.", f_peer, true);
	gauge(&t, rows, n, "flopscope_duty_ratio",
	      "The device's busy time (GPU timestamps) as a fraction of the wall time of the steady samples.", f_duty,
	      true);
	gauge(&t, rows, n, "flopscope_noise_ratio",
	      "The run's noise: the 10th-to-90th percentile range of its 1 s block means over their median (the outlier "
	      "rule holds a shortfall to it, in a node and across a fleet).", f_noise, true);
	counters(&t, rows, n);
	telemetry_families(&t, rows, n);
	check_families(&t, rows, n, check_duration_s, exit_code);
	if (gpus)
		gpu_inventory(&t, gpus);
	if (t.oom) {
		free(t.s);
		return NULL;
	}
	return t.s;
}
