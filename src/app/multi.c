/* multi: several devices at once, headless: one engine per device, each
 * with its own adaptive loop, checks, telemetry and session log; the samples
 * interleaved on stdout (CSV and JSON with the device's number), then a table
 * with a row per device and the outlier rule. */
#include "multi.h"
#include "outputs.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "engine_set.h"
#include "fmt.h"
#include "columns.h"
#include "interval_out.h"
#include "listing.h"
#include "metrics_live.h"
#include "outlier.h"
#include "report.h"
#include "runcfg.h"
#include "slog.h"
#include "vkctx.h"

typedef struct Dev {
	int row;                 /* its metrics row (metrics_live.h); -1: none */
	int idx;                 /* the entry */
	RunPaths paths;
	char ident[REPORT_CSV_IDENT_LEN]; /* its CSV rows' identity columns */
	IntervalOut iv;          /* --interval: its rows */
	Engine *e;               /* its run (NULL: not built) */
} Dev;

static bool print_row(const Options *o, Dev *d, unsigned dev, const Sample *s);

/* Where the samples go: standard output (false once it cannot be written:
 * a closed pipe stops every device) and the metrics. */
typedef struct Out {
	const Options *o;
	MetricsOut *mo;
	Dev *d;
	size_t n;
	bool ok;
} Out;

static bool take_sample(void *ctx, size_t k, const Sample *s)
{
	Out *out = ctx;
	if (!s) { /* a batch's end: --interval's rows of intervals with no dispatch */
		for (size_t j = 0; out->o->interval_s > 0 && j < out->n; j++)
			out->ok = out->ok && interval_out_idle(&out->d[j].iv);
		if (fflush(stdout) != 0)
			out->ok = false;
		metrics_out_tick(out->mo);
		return out->ok;
	}
	if (out->mo)
		mboard_sample(out->mo->board, out->d[k].row, s);
	if (out->ok && !print_row(out->o, &out->d[k], (unsigned)k + 1, s))
		out->ok = false;
	return out->ok;
}

static bool print_row(const Options *o, Dev *d, unsigned dev, const Sample *s)
{
	if (o->interval_s > 0)
		return interval_out_sample(&d->iv, s);
	if (o->format == FORMAT_CSV) {
		char row[REPORT_CSV_ROW_LEN];
		report_csv_row(s, dev, d->ident, row, sizeof row);
		return printf("%s\n", row) >= 0;
	}
	if (o->format == FORMAT_JSON) { /* the device's number first: {"dev":2,"type":"sample",...} */
		return json_line(stdout, outputs_sample_json(s, dev, d->e));
	}
	return true; /* the table: one row per device at the end */
}

/* A device's line of the several-device summary, as its JSON record
 * writes it (a field that does not apply is NaN or NULL, left out). */
typedef struct DevSumLine {
	double dev;
	RowIdentity id;
	const char *device;
	bool ok;
	double median;
	const char *unit;
	double samples, pct, peers, noise, checks, power, first_ms;
	bool outlier, unsure;
	const char *error;
} DevSumLine;

#define D_(f) offsetof(DevSumLine, f)
static const Column devsum_cols[] = {
	{ "dev", NULL, COL_NUMBER, D_(dev), NULL },
	{ "identity", NULL, COL_IDENTITY, D_(id), NULL },
	{ "device", NULL, COL_TEXT, D_(device), NULL },
	{ "ok", NULL, COL_BOOL, D_(ok), NULL },
	{ "median", NULL, COL_NUMBER, D_(median), NULL },
	{ "unit", NULL, COL_TEXT, D_(unit), NULL },
	{ "samples", NULL, COL_NUMBER, D_(samples), NULL },
	{ "pct_of_peak", NULL, COL_NUMBER, D_(pct), NULL },
	{ "of_peers_median", NULL, COL_NUMBER, D_(peers), NULL },
	{ "noise", NULL, COL_NUMBER, D_(noise), NULL },
	{ "checks_passed", NULL, COL_NUMBER, D_(checks), NULL },
	{ "power_state_changes", NULL, COL_NUMBER, D_(power), NULL },
	{ "first_sample_ms", NULL, COL_NUMBER, D_(first_ms), NULL },
	{ "outlier", NULL, COL_BOOL, D_(outlier), NULL },
	{ "unsure", NULL, COL_BOOL, D_(unsure), NULL },
	{ "error", NULL, COL_TEXT, D_(error), NULL },
};
#undef D_

/* A device_summary JSON record for each row. */
static void table_json(FILE *f, const DeviceRow *rows, const NodeDevice *nd, size_t n, const char *unit)
{
	for (size_t k = 0; k < n; k++) {
		const SummaryResult *sum = rows[k].sum;
		const char *error = rows[k].error && rows[k].error[0] ? rows[k].error : !sum ? "it never ran" : NULL;
		bool measured = isfinite(nd[k].median);
		DevSumLine l = {
			.dev = (double)(k + 1),
			/* live: named as every record names a device; a replay: as its log recorded it */
			.id = { rows[k].dev, rows[k].dev ? rows[k].entry : k + 1, rows[k].meta },
			.device = rows[k].dev || rows[k].meta ? NULL : nd[k].name,
			.ok = !error,
			.median = measured ? nd[k].median : NAN,
			.unit = measured ? unit : NULL,
			.samples = measured ? (double)sum->samples : NAN,
			.pct = sum ? sum->pct_peak : NAN,
			.peers = nd[k].node_ratio,
			.noise = nd[k].noise,
			.checks = (double)rows[k].checks,
			.power = sum ? (double)sum->changes.by_cause[CAUSE_POWER_STATE] : 0,
			.first_ms = rows[k].first_ms > 0 ? rows[k].first_ms : NAN,
			.outlier = nd[k].outlier,
			.unsure = nd[k].unsure,
			.error = error,
		};
		json_line(f, columns_json("device_summary", devsum_cols, sizeof devsum_cols / sizeof *devsum_cols, &l));
	}
}

/* Transfers of several devices at once through one host: each figure is a
 * share of the host's path (four H100s' h2d read 54% of the PCIe peak each
 * at once, 80% alone), said beside the table with the sum. */
typedef struct HostShare {
	bool shared;
	size_t measured;
	double sum;
} HostShare;

/* The table: a line a device, how soon each measured, the outlier rule. */
static void table_text(FILE *f, const DeviceRow *rows, const NodeDevice *nd, size_t n, const char *unit,
                       size_t outliers, double pct, const HostShare *hs)
{
	/* 80 columns: a name too long for its column is the device's name
	 * alone (what comes before " (": LLVM's version, the queue) */
	fprintf(f, "\n dev  %-21s %11s %9s %8s %6s %7s %s\n", "device", "median", "% of peak", "of peers", "checks",
	        "changes", "status");
	for (size_t k = 0; k < n; k++) {
		const SummaryResult *sum = rows[k].sum;
		char med[FMT_SI_LEN + 8] = "-", pk[16] = "unknown", peers[16] = "-";
		if (isfinite(nd[k].median)) {
			char v[FMT_SI_LEN];
			snprintf(med, sizeof med, "%s%s", fmt_si(nd[k].median, v, sizeof v), unit);
		}
		if (sum && isfinite(sum->pct_peak))
			snprintf(pk, sizeof pk, "%.1f%%", sum->pct_peak);
		if (isfinite(nd[k].node_ratio))
			snprintf(peers, sizeof peers, "%.1f%%", 100 * nd[k].node_ratio);
		bool err = rows[k].error && rows[k].error[0];
		char name[256];
		snprintf(name, sizeof name, "%s", nd[k].name);
		if (strlen(name) > 21 && strstr(name, " ("))
			*strstr(name, " (") = '\0';
		char chg[24] = "-";
		if (sum)
			change_format_cell(&sum->changes, chg, sizeof chg);
		fprintf(f, " %3zu  %-21.21s %11s %9s %8s %6" PRIu64 " %7s %s%s%s\n", k + 1, name, med, pk, peers,
		        rows[k].checks, chg, outlier_status_word(err || !sum, &nd[k]), err ? ": " : "",
		        err ? rows[k].error : "");
	}
	/* how soon each device measured, from the program's launch */
	bool any = false;
	for (size_t k = 0; k < n; k++)
		any |= rows[k].first_ms > 0;
	if (any) {
		fprintf(f, "first sample after launch:");
		for (size_t k = 0; k < n; k++) {
			if (rows[k].first_ms > 0) {
				char t[32];
				fprintf(f, "%s %zu: %s", k ? "," : "", k + 1, fmt_ms(rows[k].first_ms, t, sizeof t));
			}
			else
				fprintf(f, "%s %zu: none", k ? "," : "", k + 1);
		}
		fprintf(f, "\n");
	}
	if (outliers)
		fprintf(f, "outlier rule: %zu device%s more than %g%% below the median of %s identical peers\n", outliers,
		        outliers == 1 ? "" : "s", pct, outliers == 1 ? "its" : "their");
	else
		fprintf(f, "outlier rule: no device more than %g%% below the median of its identical peers\n", pct);
	size_t unsure = outlier_unsure(nd, n);
	if (unsure)
		fprintf(f, "  and beyond the runs' noise; %zu more than %g%% below within it: cannot tell\n", unsure, pct);
	if (hs->shared) {
		char v[FMT_SI_LEN], of[48] = "";
		if (hs->measured < n)
			snprintf(of, sizeof of, " (%zu measured)", hs->measured);
		fprintf(f, "host: the %zu ran transfers at once, %s%s in all%s: each figure is a share of\n"
		        "  the host, not its link alone (--check measures each link alone)\n", n,
		        fmt_si(hs->sum, v, sizeof v), unit, of);
	}
}

/* The sum of the measured devices' medians, where the runs shared the host. */
static HostShare host_share(const NodeDevice *nd, size_t n, bool host_shared)
{
	HostShare hs = { host_shared && n > 1, 0, 0 };
	for (size_t k = 0; hs.shared && k < n; k++)
		if (isfinite(nd[k].median)) {
			hs.sum += nd[k].median;
			hs.measured++;
		}
	return hs;
}

size_t multi_print_table(FILE *f, bool json, const DeviceRow *rows, size_t n, const char *unit, double pct,
                         bool host_shared)
{
	NodeDevice *nd = calloc(n, sizeof *nd);
	if (!nd) {
		fprintf(stderr, "flopscope: out of memory for the table\n");
		return 0;
	}
	bool failed = false;
	for (size_t k = 0; k < n; k++) {
		nd[k].name = rows[k].name;
		nd[k].median = NAN;
		bool err = !rows[k].sum || (rows[k].error && rows[k].error[0]);
		failed |= err;
		nd[k].noise = NAN;
		if (rows[k].sum && !err && rows[k].sum->flops.n) {
			nd[k].median = rows[k].sum->flops.median;
			nd[k].noise = rows[k].sum->noise;
		}
	}
	size_t outliers = outlier_apply(nd, n, pct);
	HostShare hs = host_share(nd, n, host_shared);
	if (json) {
		table_json(f, rows, nd, n, unit);
		cJSON *j = cJSON_CreateObject();
		if (j && cJSON_AddStringToObject(j, "type", "node") && record_stamp(j) &&
		    cJSON_AddNumberToObject(j, "devices", (double)n) &&
		    cJSON_AddBoolToObject(j, "failed", failed) &&
		    cJSON_AddNumberToObject(j, "outliers", (double)outliers) &&
		    cJSON_AddNumberToObject(j, "unsure_devices", (double)outlier_unsure(nd, n)) &&
		    cJSON_AddNumberToObject(j, "outlier_pct", pct) &&
		    cJSON_AddBoolToObject(j, "host_shared", hs.shared) &&
		    (!hs.shared || !hs.measured || cJSON_AddNumberToObject(j, "host_sum", hs.sum)))
			json_line(f, j);
		else
			cJSON_Delete(j);
	} else {
		table_text(f, rows, nd, n, unit, outliers, pct, &hs);
	}
	free(nd);
	return outliers;
}

/* --interval: each device's last, shorter row (while stdout can be written). */
static void intervals_end(Out *out)
{
	for (size_t k = 0; out->o->interval_s > 0 && k < out->n; k++)
		out->ok = out->ok && interval_out_last(&out->d[k].iv) && fflush(stdout) == 0;
	for (size_t k = 0; k < out->n; k++)
		interval_out_done(&out->d[k].iv);
}

/* What runs: a line, the CSV header or each device's session record. */
static void print_head(const Options *o, const EngineSet *set, WorkloadType wl)
{
	size_t n = set->n;
	if (o->format == FORMAT_TABLE) {
		char how[48];
		if (o->duration_s > 0)
			snprintf(how, sizeof how, "%g s", o->duration_s);
		else
			snprintf(how, sizeof how, "until Ctrl-C");
		char tms[32];
		printf("Measuring %zu device%s at once: %s, %s at the %s target\n", n, n == 1 ? "" : "s",
		       workload_info[wl].name, how, fmt_ms(o->target_ms, tms, sizeof tms));
		if (o->interval_s > 0)
			printf("Rows: every %g s of each device's run (the median, least and most of its dispatches)\n",
			       o->interval_s);
	} else if (o->format == FORMAT_CSV && o->interval_s <= 0) {
		fputs(report_csv_header(), stdout); /* one header whatever the device count: dev is its first column */
	}
	for (size_t k = 0; k < n; k++) {
		if (!set->m[k].e)
			continue;
		const RunInfo *in = engine_info(set->m[k].e);
		outputs_run_notes(in);
		if (o->format == FORMAT_JSON) {
			slog_print_session(stdout, engine_meta(set->m[k].e), (unsigned)k + 1);
		} else if (o->format == FORMAT_TABLE) {
			printf("  %zu: %s (compute queue %u)%s%s\n", k + 1, in->dev->name, in->dev->queue_family,
			       in->log_path ? ", log " : "", in->log_path ? in->log_path : "");
		}
	}
	if (o->interval_s > 0 && o->format != FORMAT_JSON) /* the CSV header, or the table's */
		interval_out_header(o->format, true);
	fflush(stdout);
}

/* Each device's run planned: one stamp and node id for their logs (ids),
 * its metrics row. */
static void plan_devices(const struct VkCtx *ctx, const Options *o, const int *idx, size_t n, WorkloadType wl,
                         uint64_t launch, MetricsOut *mo, Dev *d, EngineConfig *cfg, SlogRunIds *ids)
{
	slog_run_ids(ids); /* the engines' configurations point at it until they are built */
	for (size_t k = 0; k < n; k++) {
		d[k].idx = idx[k];
		d[k].row = mo && mo->board ? mboard_row(mo->board, (unsigned)idx[k] + 1, &ctx->entries[idx[k]],
		                                        workload_info[wl].name, workload_info[wl].unit) : -1;
		RunSlot slot = { .ordinal = (unsigned)k + 1, .devices = (unsigned)n, .node_id = ids->node, .stamp = ids->stamp };
		run_plan(o, RUN_HEADLESS, ctx, &ctx->entries[idx[k]], wl, (unsigned)k + 1, launch, &slot, &d[k].paths,
		         &cfg[k]);
	}
}

int multi_run(const struct VkCtx *ctx, const Options *o, const int *idx, size_t n, WorkloadType wl,
              uint64_t launch, MetricsOut *mo, atomic_int *quit)
{
	Dev *d = calloc(n, sizeof *d);
	if (!d) {
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	EngineConfig *cfg = calloc(n, sizeof *cfg);
	if (!cfg) {
		free(d);
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	SlogRunIds ids;
	plan_devices(ctx, o, idx, n, wl, launch, mo, d, cfg, &ids);
	EngineSet set;
	Error err;
	if (!engine_set_create(&set, cfg, n, false, &err) && !set.m) {
		fprintf(stderr, "flopscope: %s\n", err.msg);
		free(cfg);
		free(d);
		return 1;
	}
	for (size_t k = 0; k < n; k++) {
		if (!set.m[k].e)
			fprintf(stderr, "flopscope: device %zu: %s\n", k + 1, set.m[k].err.msg);
		else
			report_csv_identity(engine_meta(set.m[k].e), d[k].ident, sizeof d[k].ident);
		interval_out_init(&d[k].iv, o, workload_unit_names[workload_info[wl].unit], &ctx->entries[idx[k]],
		                  (size_t)idx[k] + 1, (unsigned)k + 1);
		d[k].e = set.m[k].e;
	}
	print_head(o, &set, wl);
	/* the samples of all, as they come; a device that fails stops alone */
	Out out = { o, mo, d, n, true };
	bool started = engine_set_start(&set, false);
	for (size_t k = 0; mo && k < n; k++) /* those started (one that could not start is gone) */
		if (set.m[k].e)
			mboard_attach(mo->board, d[k].row, engine_summary_reader(set.m[k].e));
	if (started)
		engine_set_drain(&set, take_sample, &out, quit);
	engine_set_finish(&set);
	intervals_end(&out);
	for (size_t k = 0; mo && k < n; k++)
		mboard_end(mo->board, d[k].row); /* before the engines go */
	bool out_ok = out.ok;
	int status = 0;
	bool wrong = false;  /* a device computed wrong values */
	/* the table: a row per device, and the outlier rule */
	DeviceRow *rows = calloc(n, sizeof *rows);
	for (size_t k = 0; k < n; k++) {
		const EngineMember *m = &set.m[k];
		if (!m->e || m->failed || m->log_failed)
			status = 1;
		wrong |= m->wrong;
		if (m->wrong && mo)
			mboard_check_failed(mo->board, d[k].row);
		if (rows)
			rows[k] = (DeviceRow){ ctx->entries[d[k].idx].name, m->e ? &m->sum : NULL, m->checks,
			                       m->e ? m->error : m->err.msg, m->first_ms, &ctx->entries[d[k].idx],
			                       (size_t)d[k].idx + 1, NULL };
	}
	size_t outliers = 0;
	if (rows)
		outliers = multi_print_table(o->format == FORMAT_CSV ? stderr : stdout, o->format == FORMAT_JSON, rows,
		                             n, workload_unit_names[workload_info[wl].unit], o->outlier_pct,
		                             workload_uses_host(wl));
	else
		fprintf(stderr, "flopscope: out of memory for the table\n");
	free(rows);
	engine_set_destroy(&set);
	free(cfg);
	free(d);
	if (!out_ok)
		return status; /* a closed pipe is a normal end (main says so for other errors) */
	if (status)
		return wrong ? STATUS_WRONG : 1;
	return outliers ? MULTI_EXIT_OUTLIER : 0;
}
