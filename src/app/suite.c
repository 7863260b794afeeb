#include "suite.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "engine.h"
#include "fmt.h"
#include "memwork.h"
#include "report.h"
#include "runcfg.h"
#include "shader.h"
#include "slog.h"

/* One workload: runs it quietly and returns its statistics. */
/* The suite measures transfers at one size: --size (the top of a range),
 * else 64 MiB. */
#define SUITE_TRANSFER_SIZE (64ull << 20)

static int run_one(const VkCtx *ctx, int idx, const Options *o, WorkloadType w, bool tq, unsigned nth,
                   volatile sig_atomic_t *quit, SummaryResult *r, char *err)
{
	uint64_t size = o->size_hi;
	if (workload_info[w].kind == WL_TRANSFER && !size)
		size = SUITE_TRANSFER_SIZE;
	RunPaths paths;
	EngineConfig cfg;
	run_config(o, RUN_SUITE, ctx, &ctx->entries[idx], w, nth, 0, &paths, &cfg);
	cfg.size_lo = cfg.size_hi = size;
	cfg.transfer_queue = tq;

	Error e_err;
	Engine *e = engine_create(&cfg, &e_err);
	if (!e) {
		snprintf(err, ERR_LEN, "%s", e_err.msg);
		return e_err.status;
	}
	if (!engine_start(e, &e_err)) {
		snprintf(err, ERR_LEN, "%s", e_err.msg);
		engine_destroy(e);
		return 1;
	}
	engine_drain(e, NULL, NULL, quit);
	engine_join(e);
	engine_summary(e, r);
	int status = 0;
	if (engine_state(e) == ENGINE_ERROR) {
		snprintf(err, ERR_LEN, "%s", engine_error(e));
		status = 1;
	}
	engine_destroy(e);
	return status;
}

int suite_run(const VkCtx *ctx, int idx, const Options *o, uint64_t launch_ns, volatile sig_atomic_t *quit)
{
	(void)launch_ns;
	const DeviceInfo *d = &ctx->entries[idx];
	double window = o->duration_given ? o->duration_s : RUN_SUITE_WINDOW_S;
	bool json = o->format == FORMAT_JSON;
	if (!json) {
		char sz[32];
		printf("Suite on %s (compute queue: %u), %.3g s at the %.3g ms target each; transfers of %s%s\n\n",
		       d->name, d->queue_family, window, o->target_ms,
		       mem_size_str(o->size_hi ? o->size_hi : SUITE_TRANSFER_SIZE, sz, sizeof sz),
		       d->transfer_family >= 0 ? ", again on the transfer-only queue (tq)" : "");
		printf(" %-16s %14s %14s %10s %8s %7s %8s\n", "workload", "median", "max", "% of peak",
		       "samples", "checks", "duty");
	}
	int status = 0;
	unsigned nth = 0;
	/* every workload, then the transfers again on a copy engine if any */
	int runs = WORKLOAD_TYPE_COUNT + (d->transfer_family >= 0 ? WORKLOAD_TYPE_COUNT - WORKLOAD_H2D : 0);
	int done = 0; /* workloads measured to their end */
	for (int k = 0; k < runs && !*quit; k++, done += !*quit) {
		char why[256], err[ERR_LEN], label[40];
		bool tq = k >= WORKLOAD_TYPE_COUNT;
		int w = tq ? WORKLOAD_H2D + (k - WORKLOAD_TYPE_COUNT) : k;
		const WorkloadInfo *wl = &workload_info[w];
		snprintf(label, sizeof label, "%s%s", wl->name, tq ? " (tq)" : "");
		if (!workload_supported((WorkloadType)w, devinfo_features(d), why, sizeof why)) {
			if (json)
				printf("{\"type\":\"suite\",\"workload\":\"%s\",\"supported\":false,\"why\":\"%s\"}\n",
				       wl->name, why);
			else
				printf(" %-16s unsupported: %s\n", label, why);
			continue;
		}
		SummaryResult r;
		int rc = run_one(ctx, idx, o, (WorkloadType)w, tq, ++nth, quit, &r, err);
		double duty = rc == 0 ? r.duty : NAN;
		if (rc == 2 && workload_is_memory((WorkloadType)w)) {
			/* a memory type or heap this device lacks: unsupported, named */
			if (json) {
				cJSON *j = cJSON_CreateObject();
				char *text = NULL;
				if (j && cJSON_AddStringToObject(j, "type", "suite") &&
				    cJSON_AddStringToObject(j, "workload", wl->name) && cJSON_AddBoolToObject(j, "supported", 0) &&
				    cJSON_AddStringToObject(j, "why", err))
					text = cJSON_PrintUnformatted(j);
				if (text)
					printf("%s\n", text);
				cJSON_free(text);
				cJSON_Delete(j);
			} else {
				printf(" %-16s unsupported: %s\n", label, err);
			}
			continue;
		}
		if (rc) {
			fprintf(stderr, "flopscope: %s: %s\n", label, err);
			status = rc;
			if (json)
				printf("{\"type\":\"suite\",\"workload\":\"%s\",\"supported\":true,\"error\":true}\n", wl->name);
			else
				printf(" %-16s failed: %s\n", label, err);
			continue;
		}
		if (json) {
			cJSON *j = cJSON_CreateObject();
			if (j) {
				cJSON_AddStringToObject(j, "type", "suite");
				cJSON_AddStringToObject(j, "workload", wl->name);
				cJSON_AddBoolToObject(j, "supported", 1);
				cJSON_AddStringToObject(j, "unit", wl->unit);
				if (tq)
					cJSON_AddStringToObject(j, "queue", "transfer");
				if (r.nsizes)
					cJSON_AddNumberToObject(j, "size", (double)r.sizes[0].size);
				cJSON_AddNumberToObject(j, "samples", (double)r.flops.n);
				cJSON_AddNumberToObject(j, "checks_passed", (double)r.verified);
				if (r.flops.n) {
					cJSON_AddNumberToObject(j, "median", r.flops.median);
					cJSON_AddNumberToObject(j, "max", r.flops.max);
					cJSON_AddNumberToObject(j, "std", r.flops.std);
				}
				if (!isnan(r.pct_peak))
					cJSON_AddNumberToObject(j, "pct_of_peak", r.pct_peak);
				if (!isnan(duty))
					cJSON_AddNumberToObject(j, "duty_cycle", duty);
				char *text = cJSON_PrintUnformatted(j);
				if (text)
					printf("%s\n", text);
				cJSON_free(text);
				cJSON_Delete(j);
			}
		} else {
			char med[FMT_SI_LEN], max[FMT_SI_LEN], a[40], b[40], pk[16] = "unknown", dt[16] = "";
			snprintf(a, sizeof a, "%s%s", fmt_si(r.flops.median, med, sizeof med), wl->unit);
			snprintf(b, sizeof b, "%s%s", fmt_si(r.flops.max, max, sizeof max), wl->unit);
			if (!isnan(r.pct_peak))
				snprintf(pk, sizeof pk, "%.1f%%", r.pct_peak);
			if (!isnan(duty))
				snprintf(dt, sizeof dt, "%.2f%%", 100 * duty);
			printf(" %-16s %14s %14s %10s %8zu %7zu %8s\n", label, r.flops.n ? a : "-", r.flops.n ? b : "-",
			       pk, r.flops.n, r.verified, dt);
		}
		fflush(stdout);
	}
	if (*quit) {
		/* an incomplete table is not a result: said, and the status tells */
		if (json)
			printf("{\"type\":\"suite_stopped\",\"signal\":%d,\"workloads_done\":%d,\"workloads\":%d}\n",
			       (int)*quit, done, runs);
		fprintf(stderr, "flopscope: the suite was stopped by a signal after %d of %d workloads; "
		        "the table is incomplete\n", done, runs);
		fflush(stdout);
		return 128 + (int)*quit;
	}
	return status;
}
