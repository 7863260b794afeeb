#include "suite.h"
#include "outputs.h"
#include "progress.h"
#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "engine.h"
#include "engine_set.h"
#include "fmt.h"
#include "columns.h"
#include "listing.h"
#include "memwork.h"
#include "report.h"
#include "runcfg.h"
#include "shader.h"
#include "slog.h"

/* Device k's (of d[0..n)) engine configuration for workload w. */
static void measure_config(const VkCtx *ctx, const SuiteDev *d, size_t k, size_t n, const Options *o,
                           WorkloadType w, bool tq, bool check, unsigned nth, const char *node, RunPaths *paths,
                           EngineConfig *cfg)
{
	RunSlot slot = { .ordinal = n > 1 ? (unsigned)k + 1 : 0, .devices = (unsigned)n, .node_id = node,
	                 .log = d[k].log, .transfer_queue = tq, .check = check };
	run_plan(o, RUN_SUITE, ctx, &ctx->entries[d[k].idx], w, nth * 100 + (unsigned)k, 0, &slot, paths, cfg);
}

void suite_prebuild(const VkCtx *ctx, const int *idx, size_t n, const Options *o, const int *wl, size_t nwl,
                    const atomic_int *quit)
{
	SuiteDev *d = calloc(n ? n : 1, sizeof *d);
	RunPaths *paths = calloc(n * nwl + 1, sizeof *paths);
	EngineConfig *cfg = calloc(n * nwl + 1, sizeof *cfg);
	Options quiet = *o;
	quiet.no_log = true; /* a build writes no session */
	size_t m = 0;
	for (size_t k = 0; d && k < n; k++)
		d[k].idx = idx[k];
	for (size_t i = 0; d && paths && cfg && i < nwl; i++) {
		const WorkloadType w = (WorkloadType)wl[i];
		if (!workload_info[w].shader)
			continue; /* a copy engine's transfers: no pipeline */
		for (size_t k = 0; k < n; k++) {
			char why[256];
			if (workload_supported(w, devinfo_features(&ctx->entries[idx[k]]), why, sizeof why))
				measure_config(ctx, d, k, n, &quiet, w, false, false, 0, "", &paths[m], &cfg[m]), m++;
		}
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	engine_prebuild(cfg, m, cores > 0 ? (unsigned)cores : 1, quit); /* none without memory: a slower start */
	free(cfg);
	free(paths);
	free(d);
}

void suite_measure(const VkCtx *ctx, SuiteDev *d, size_t n, const Options *o, WorkloadType w, bool tq,
                   unsigned nth, const SuiteWatch *watch, atomic_int *quit)
{
	SlogRunIds ids;
	slog_run_ids(&ids);
	RunPaths *paths = calloc(n ? n : 1, sizeof *paths);
	EngineConfig *cfg = calloc(n ? n : 1, sizeof *cfg);
	for (size_t k = 0; k < n; k++) {
		d[k].rc = 0;
		d[k].wrong = false;
		d[k].err[0] = d[k].log_err[0] = '\0';
	}
	EngineSet set = { NULL, 0 };
	Error e_err = { .status = STATUS_OK };
	if (!paths || !cfg) {
		snprintf(e_err.msg, sizeof e_err.msg, "out of memory for %zu devices' configurations", n);
		e_err.status = STATUS_FAILED;
	} else {
		for (size_t k = 0; k < n; k++) {
			/* watched: a check's */
			measure_config(ctx, d, k, n, o, w, tq, watch != NULL, nth, ids.node, &paths[k], &cfg[k]);
		}
		/* all run at once; their samples taken as they come */
		bool started = engine_set_create(&set, cfg, n, false, &e_err) && engine_set_start(&set, false);
		for (size_t k = 0; started && watch && watch->live && k < n; k++)
			if (set.m[k].e)
				watch->live(watch->arg, k, engine_summary_reader(set.m[k].e));
		if (started)
			engine_set_drain(&set, watch ? watch->sample : NULL, watch ? watch->arg : NULL, quit);
		engine_set_finish(&set);
		for (size_t k = 0; started && watch && watch->live && k < n; k++)
			if (set.m[k].e)
				watch->live(watch->arg, k, (SummaryReader){ 0 });
	}
	for (size_t k = 0; k < n; k++) {
		const EngineMember *m = set.m ? &set.m[k] : NULL;
		const Error *why = m ? &m->err : &e_err;
		if (!m || !m->e) { /* not built, or not started */
			snprintf(d[k].err, ERR_LEN, "%s", why->msg);
			d[k].rc = why->status;
			d[k].wrong = why->status == STATUS_WRONG;
			continue;
		}
		outputs_run_notes(engine_info(m->e));
		d[k].r = m->sum;
		d[k].checks = m->checks;
		d[k].spirv_cached = m->spirv_cached;
		d[k].pipeline_cached = m->pipeline_cached;
		if (m->log_failed)
			snprintf(d[k].log_err, ERR_LEN, "%s", engine_log_error(m->e));
		if (m->failed) {
			snprintf(d[k].err, ERR_LEN, "%s", m->error);
			d[k].wrong = m->wrong;
			d[k].rc = d[k].wrong ? STATUS_WRONG : 1;
		}
	}
	engine_set_destroy(&set);
	free(paths);
	free(cfg);
}

/* The suite's status after device sd's run of w: its failure (a memory
 * workload the device cannot hold is no failure); a session log that could
 * not be written (a full disk: the log is short of its samples), said once
 * (log_said), 1 where nothing else failed. */
static int suite_status(const SuiteDev *sd, WorkloadType w, int status, bool *log_said)
{
	if (sd->rc && !(sd->rc == 2 && workload_is_memory(w)))
		status = sd->rc;
	if (sd->log_err[0] && !*log_said) {
		fprintf(stderr, "flopscope: %s\n", sd->log_err);
		*log_said = true;
		if (!status)
			status = 1;
	}
	return status;
}

/* How a shader workload's start went: the caches it found. */
static void start_json(cJSON *j, const SuiteDev *sd)
{
	cJSON *st = cJSON_AddObjectToObject(j, "start");
	cJSON_AddBoolToObject(st, "spirv_cached", sd->spirv_cached);
	cJSON_AddBoolToObject(st, "pipeline_cached", sd->pipeline_cached);
}

/* A suite record, a device and workload: measured, failed or unsupported
 * (a field that does not apply is NaN or NULL, and left out). */
typedef struct SuiteLine {
	double dev;                 /* its number among several; NaN alone */
	RowIdentity id;
	const char *workload, *log;
	bool supported, error;
	const char *supported_text, *error_text; /* CSV's: yes/no, and the error's words */
	const char *why, *unit, *queue;
	double size, samples, checks, median, max, std, pct_of_peak, duty;
} SuiteLine;

#define S_(f) offsetof(SuiteLine, f)
static const Column suite_cols[] = {
	{ "utc", NULL, COL_UTC, 0, NULL },
	{ "dev", "dev", COL_NUMBER, S_(dev), "%.0f" },
	{ "identity", "identity", COL_IDENTITY, S_(id), NULL },
	{ "workload", "workload", COL_TEXT, S_(workload), NULL },
	{ "log", "log", COL_QUOTED, S_(log), NULL },
	{ "supported", NULL, COL_BOOL, S_(supported), NULL },
	{ NULL, "supported", COL_TEXT, S_(supported_text), NULL },
	{ "why", "why", COL_QUOTED, S_(why), NULL },
	{ "error", "error", COL_QUOTED, S_(error_text), NULL },
	{ "unit", "unit", COL_TEXT, S_(unit), NULL },
	{ "queue", "queue", COL_TEXT, S_(queue), NULL },
	{ "size", "size", COL_NUMBER, S_(size), "%.0f" },
	{ "samples", "samples", COL_NUMBER, S_(samples), "%.0f" },
	{ "checks_passed", "checks_passed", COL_NUMBER, S_(checks), "%.0f" },
	{ "median", "median", COL_NUMBER, S_(median), "%.6g" },
	{ "max", "max", COL_NUMBER, S_(max), "%.6g" },
	{ "std", "std", COL_NUMBER, S_(std), "%.6g" },
	{ "pct_of_peak", "pct_of_peak", COL_NUMBER, S_(pct_of_peak), "%.2f" },
	{ "duty_cycle", "duty_cycle", COL_NUMBER, S_(duty), "%.4f" },
};
#undef S_

/* The JSON record, or CSV line, of device k of n (why: unsupported, and
 * why; ran: sd is this workload's run, even where it then found it
 * unsupported). CSV's dev is 1 for one device (JSON leaves it out). */
static void row_record(bool csv, const WorkloadInfo *wl, bool tq, size_t k, size_t n, const char *why, bool ran,
                       const SuiteDev *sd, const DeviceInfo *dev, size_t entry)
{
	SuiteLine l = { .dev = n > 1 || csv ? (double)(k + 1) : NAN, .id = { dev, entry, NULL }, .workload = wl->name,
	                .supported = !why, .supported_text = why ? "no" : "yes", .why = why, .size = NAN,
	                .samples = NAN, .checks = NAN, .median = NAN, .max = NAN, .std = NAN, .pct_of_peak = NAN,
	                .duty = NAN };
	bool measured = !why && !sd->rc;
	if (ran)
		l.log = sd->log;
	l.error = !why && sd->rc;
	l.error_text = l.error ? (sd->err[0] ? sd->err : "the run failed") : NULL;
	if (measured) {
		const SummaryResult *r = &sd->r;
		l.unit = workload_unit_names[wl->unit];
		l.queue = tq ? "transfer" : NULL;
		l.size = r->nsizes ? (double)r->sizes[0].size : NAN;
		l.samples = (double)r->flops.n;
		l.checks = (double)sd->checks; /* the run's own count, as every view gives it (the warm-up's too) */
		if (r->flops.n) {
			l.median = r->flops.median;
			l.max = r->flops.max;
			l.std = r->flops.std;
		}
		l.pct_of_peak = r->pct_peak;
		l.duty = r->duty;
	}
	if (csv) {
		columns_csv(stdout, suite_cols, sizeof suite_cols / sizeof *suite_cols, &l);
		return;
	}
	cJSON *j = columns_json("suite", suite_cols, sizeof suite_cols / sizeof *suite_cols, &l);
	if (j && measured && wl->shader)
		start_json(j, sd);
	if (j && measured && !record_energy(j, &sd->r.energy)) {
		cJSON_Delete(j);
		j = NULL;
	}
	json_line(stdout, j);
}

/* One row of the table (or JSON record) for device k of n. */
static void row(const Options *o, const WorkloadInfo *wl, bool tq, size_t k, size_t n, const char *why_unsupported,
                const SuiteDev *sd, const DeviceInfo *dev, size_t entry)
{
	const char *why = why_unsupported;
	/* a memory type or heap this device lacks: unsupported, named */
	if (!why && sd->rc == 2 && workload_is_memory(wl->id))
		why = sd->err;
	char label[48];
	int lw = n > 1 ? 20 : 16; /* the label column */
	if (n > 1)
		snprintf(label, sizeof label, "%s%s [%zu]", wl->name, tq ? " (tq)" : "", k + 1);
	else
		snprintf(label, sizeof label, "%s%s", wl->name, tq ? " (tq)" : "");
	if (!why && sd->rc)
		fprintf(stderr, "flopscope: %s: %s\n", label, sd->err);
	if (o->format != FORMAT_TABLE) {
		row_record(o->format == FORMAT_CSV, wl, tq, k, n, why, !why_unsupported, sd, dev, entry);
		return;
	}
	if (why) {
		printf(" %-*s unsupported: %s\n", lw, label, why);
	} else if (sd->rc) {
		printf(" %-*s failed: %s\n", lw, label, sd->err);
	} else {
		const SummaryResult *r = &sd->r;
		double duty = r->duty;
		char med[FMT_SI_LEN], max[FMT_SI_LEN], a[40], b[40], pk[16] = "unknown", dt[16] = "";
		snprintf(a, sizeof a, "%s%s", fmt_si(r->flops.median, med, sizeof med), workload_unit_names[wl->unit]);
		snprintf(b, sizeof b, "%s%s", fmt_si(r->flops.max, max, sizeof max), workload_unit_names[wl->unit]);
		if (!isnan(r->pct_peak))
			snprintf(pk, sizeof pk, "%.1f%%", r->pct_peak);
		if (!isnan(duty))
			snprintf(dt, sizeof dt, "%.2f%%", 100 * duty);
		/* the mean power and its share of the limit; N/A without a reading */
		char pw[48] = "N/A";
		const Energy *e = &r->energy;
		if (energy_known(e) && e->limit_w > 0)
			snprintf(pw, sizeof pw, "%.0f W %3.0f%%", energy_mean_w(e), 100 * energy_mean_w(e) / e->limit_w);
		else if (energy_known(e))
			snprintf(pw, sizeof pw, "%.0f W", energy_mean_w(e));
		printf(" %-*s %14s %14s %10s %8zu %7zu %8s %12s\n", lw, label, r->flops.n ? a : "-",
		       r->flops.n ? b : "-", pk, r->flops.n, r->verified, dt, pw);
	}
}

SuiteLogPath *suite_logs_open(const VkCtx *ctx, const int *idx, size_t n, const Options *o, const char *what,
                              bool *failed)
{
	*failed = false;
	if (o->no_log)
		return NULL;
	SuiteLogPath *logs = calloc(n, sizeof *logs);
	if (!logs) {
		fprintf(stderr, "flopscope: out of memory\n");
		*failed = true;
		return NULL;
	}
	for (size_t k = 0; k < n; k++) {
		char path[4096], err[4400];
		SessionLog l;
		slog_choose_path(false, o->log, ctx->entries[idx[k]].name, what, NULL, n > 1 ? (unsigned)k + 1 : 1, path,
		                 sizeof path);
		if (!slog_open(&l, path, !o->log ? SLOG_UNIQUE : o->force ? SLOG_REPLACE : SLOG_NEW, err, sizeof err)) {
			fprintf(stderr, "flopscope: %s\n", err);
			suite_logs_close(logs, k, false);
			*failed = true;
			return NULL;
		}
		snprintf(logs[k].path, sizeof logs[k].path, "%s", l.path);
		/* the descriptor alone is kept, with its lock; the stream goes */
		logs[k].fd = dup(fileno(l.f));
		slog_close(&l);
	}
	return logs;
}

void suite_logs_close(SuiteLogPath *logs, size_t n, bool say)
{
	for (size_t k = 0; logs && k < n; k++) {
		struct stat st;
		if (logs[k].fd >= 0 && fstat(logs[k].fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
			unlink(logs[k].path); /* still ours: locked, and no session in it */
		else if (say)
			printf("%s%s", k ? ", " : n > 1 ? "\nSession logs (a file a device): " : "\nSession log: ", logs[k].path);
		if (logs[k].fd >= 0)
			close(logs[k].fd);
	}
	if (say && logs && n)
		printf(n > 1 ? "\n(flopscope --replay FILE FILE ... --workload NAME shows a workload's sessions side by side)\n"
		             : "\n(flopscope --replay FILE --workload NAME shows a workload's session)\n");
	free(logs);
}

/* The table's head: what runs, how long each, and the column names. */
static void suite_head(const VkCtx *ctx, const int *idx, size_t n, const Options *o, double window, bool any_tq)
{
	const DeviceInfo *d = &ctx->entries[idx[0]];
	char sz[32];
	if (n == 1)
		printf("Suite on %s (compute queue: %u), ", d->name, d->queue_family);
	else
		printf("Suite on %zu devices at once, ", n);
	char tms[32];
	printf("%.3g s at the %s target each; transfers of %s%s\n", window, fmt_ms(o->target_ms, tms, sizeof tms),
	       mem_size_str(o->size_hi ? o->size_hi : RUN_SUITE_TRANSFER_SIZE, sz, sizeof sz),
	       any_tq ? ", again on the transfer-only queue (tq)" : "");
	for (size_t k = 0; n > 1 && k < n; k++)
		printf("  [%zu] %s (compute queue: %u)\n", k + 1, ctx->entries[idx[k]].name,
		       ctx->entries[idx[k]].queue_family);
	printf("\n %-*s %14s %14s %10s %8s %7s %8s %12s\n", n > 1 ? 20 : 16, "workload", "median", "max", "% of peak",
	       "samples", "checks", "duty", "power, limit");
}

/* The progress line at workload k of runs: its time and the run's left,
 * from what the nth workloads so far took each (window before the first). */
static void suite_progress(Progress *pg, int k, int runs, const WorkloadInfo *wl, bool tq, uint64_t t_start,
                           unsigned nth, double window)
{
	double spent = (double)(clock_mono_ns() - t_start) * 1e-9;
	double each = nth ? spent / nth : window;
	char name[64];
	snprintf(name, sizeof name, "%s%s", wl->name, tq ? " (transfer queue)" : "");
	progress_step(pg, (size_t)k + 1, name, each, each * (double)(runs - k));
}

/* A suite a signal stopped: an incomplete table is not a result; said, and
 * the status tells. */
static int suite_stopped(bool json, int sig, int done, int runs)
{
	cJSON *j = json ? cJSON_CreateObject() : NULL;
	if (j && cJSON_AddStringToObject(j, "type", "suite_stopped") && record_utc(j) && cJSON_AddNumberToObject(j, "signal", sig) &&
	    cJSON_AddNumberToObject(j, "workloads_done", done) && cJSON_AddNumberToObject(j, "workloads", runs) &&
	    record_stamp(j))
		json_line(stdout, j);
	else
		cJSON_Delete(j);
	fprintf(stderr, "flopscope: the suite was stopped by a signal after %d of %d workloads; "
	        "the table is incomplete\n", done, runs);
	fflush(stdout);
	return STATUS_SIGNAL + sig;
}

/* The suite's runs into order: every workload, then the transfers again on
 * a copy engine when a device has one (tq); how many. */
static int suite_order(bool tq, int order[2 * WORKLOAD_TYPE_COUNT])
{
	int runs = 0;
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++)
		order[runs++] = w;
	for (int w = 0; tq && w < WORKLOAD_TYPE_COUNT; w++)
		if (workload_info[w].kind == WL_TRANSFER)
			order[runs++] = w;
	return runs;
}

int suite_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, uint64_t launch_ns,
              atomic_int *quit)
{
	(void)launch_ns;
	bool log_failed;
	SuiteLogPath *logs = suite_logs_open(ctx, idx, n, o, "suite", &log_failed);
	if (log_failed)
		return 2;
	double window = o->duration_given ? o->duration_s : RUN_SUITE_WINDOW_S;
	bool json = o->format == FORMAT_JSON;
	/* transfers again on a copy engine when every device has one */
	bool any_tq = true;
	for (size_t k = 0; k < n; k++)
		any_tq &= ctx->entries[idx[k]].transfer_family >= 0;
	if (o->format == FORMAT_TABLE)
		suite_head(ctx, idx, n, o, window, any_tq);
	else if (o->format == FORMAT_CSV)
		columns_csv_header(stdout, suite_cols, sizeof suite_cols / sizeof *suite_cols);
	SuiteDev *sd = calloc(n, sizeof *sd), *run = calloc(n, sizeof *run);
	char (*why)[256] = calloc(n, sizeof *why);
	bool *ok = calloc(n, sizeof *ok);
	if (!sd || !run || !why || !ok) {
		free(ok);
		free(sd);
		free(run);
		free(why);
		suite_logs_close(logs, n, false);
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	int status = 0;
	bool log_said = false;
	unsigned nth = 0;
	int order[2 * WORKLOAD_TYPE_COUNT], runs = suite_order(any_tq, order);
	int done = 0; /* workloads measured to their end */
	char prev[256] = "";
	Progress *pg = progress_start("suite", (size_t)runs);
	uint64_t t_start = clock_mono_ns();
	int all[WORKLOAD_TYPE_COUNT];
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++)
		all[w] = w;
	suite_prebuild(ctx, idx, n, o, all, WORKLOAD_TYPE_COUNT, quit);
	for (int k = 0; k < runs && !*quit; k++, done += !*quit) {
		bool tq = k >= WORKLOAD_TYPE_COUNT;
		int w = order[k];
		const WorkloadInfo *wl = &workload_info[w];
		/* the devices that can run it run it together */
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			ok[i] = workload_supported((WorkloadType)w, devinfo_features(&ctx->entries[idx[i]]), why[i],
			                           sizeof why[i]);
			if (ok[i])
				run[m++] = (SuiteDev){ .idx = idx[i], .log = logs ? logs[i].path : NULL };
		}
		if (m) {
			suite_progress(pg, k, runs, wl, tq, t_start, nth, window);
			suite_measure(ctx, run, m, o, (WorkloadType)w, tq, ++nth, NULL, quit);
		}
		progress_hide(pg); /* the rows go out whole */
		if (*quit) /* the workload a signal cut is no row: suite_stopped says where it ended */
			break;
		size_t r = 0;
		for (size_t i = 0; i < n; i++) {
			if (ok[i]) {
				sd[i] = run[r++];
				status = suite_status(&sd[i], (WorkloadType)w, status, &log_said);
			}
			/* the table says a reason once, then "as above" (JSON each time) */
			const char *shown = fmt_as_above(ok[i] ? NULL : why[i], prev, sizeof prev);
			row(o, wl, tq, i, n, ok[i] ? NULL : o->format != FORMAT_TABLE ? why[i] : shown, &sd[i], &ctx->entries[idx[i]],
			    (size_t)idx[i] + 1);
		}
		fflush(stdout);
		progress_show(pg);
	}
	progress_end(pg);
	free(sd);
	free(run);
	free(why);
	free(ok);
	suite_logs_close(logs, n, o->format == FORMAT_TABLE);
	return *quit ? suite_stopped(json, *quit, done, runs) : status;
}
