#include "latency.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compute.h"
#include "listing.h"
#include "outputs.h"
#include "records.h"
#include "shader.h"
#include "stats.h"

#define LATENCY_WARMUP 20
#define LATENCY_COUNT 500

/* Median and 10th/90th percentiles of v (sorted in place), microseconds:
 * stats.h's one percentile rule. */
static void spread(double *v, size_t n, double out[3])
{
	stats_sort(v, n);
	out[0] = stats_quantile_sorted(v, n, 0.5);
	out[1] = stats_quantile_sorted(v, n, 0.1);
	out[2] = stats_quantile_sorted(v, n, 0.9);
}

/* The median, 10th and 90th percentiles of GPU (g) and CPU (k) time per
 * dispatch, us: a JSON record or lines. false when out of memory. */
static bool latency_print(const Options *o, const DeviceInfo *d, size_t entry, bool timestamps, size_t n,
                          uint32_t ran, const double g[3], const double k[3])
{
	if (o->format == FORMAT_JSON) {
		cJSON *j = cJSON_CreateObject();
		bool ok = false;
		if (j && cJSON_AddStringToObject(j, "type", "latency"))
			listing_identity_json(j, d, entry);
		if (j && cJSON_AddNumberToObject(j, "dispatches", (double)n) &&
		    (!timestamps || (cJSON_AddNumberToObject(j, "gpu_us_median", g[0]) &&
		                     cJSON_AddNumberToObject(j, "gpu_us_p10", g[1]) &&
		                     cJSON_AddNumberToObject(j, "gpu_us_p90", g[2]))) &&
		    cJSON_AddNumberToObject(j, "cpu_us_median", k[0]) && cJSON_AddNumberToObject(j, "cpu_us_p10", k[1]) &&
		    cJSON_AddNumberToObject(j, "cpu_us_p90", k[2]) && cJSON_AddTrueToObject(j, "all_ran"))
			ok = true;
		if (!ok) {
			cJSON_Delete(j);
			return false;
		}
		return json_line(stdout, j);
	}
	printf("Launch latency on %s (compute queue: %u): %zu empty dispatches timed one at a time, after %d "
	       "warm-up ones\n", d->name, d->queue_family, n, LATENCY_WARMUP);
	if (timestamps)
		printf("  GPU, between the dispatch's timestamps: median %.2f us (10%% %.2f, 90%% %.2f)\n", g[0], g[1],
		       g[2]);
	else
		printf("  GPU: no timestamps on this queue family\n");
	printf("  CPU, idle queue -> submit -> fence:     median %.2f us (10%% %.2f, 90%% %.2f)\n", k[0], k[1], k[2]);
	printf("  all %zu dispatches ran, warm-up included (the workgroup counter reads %u)\n",
	       (size_t)LATENCY_WARMUP + n, ran);
	return true;
}

/* The empty shader's device, built as the engine builds one. */
static int latency_device(const VkCtx *ctx, const DeviceInfo *d, const Options *o, Compute *c)
{
	char dir[4096], path[4200], err[ERR_LEN], cache[4096];
	shader_dir_resolve(o->shader_dir, dir, sizeof dir);
	snprintf(path, sizeof path, "%s/empty.comp", dir);
	bool cached = !o->no_cache && shader_cache_dir(cache, sizeof cache), hit;
	Spirv spv;
	int rc = shader_compile_cached(path, NULL, 0, cached ? cache : NULL, false, &spv, &hit, err);
	if (rc < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 2;
	}
	ComputeSetup s = {
		.spirv = spv.words,
		.spirv_size = spv.size,
		.result_size = 16 + 16,
		.fence_timeout_ns = 10000000000ull,
		.rec = &gpu_dispatch_recorder,
		.src_mem = MEM_NONE,
		.dst_mem = MEM_NONE,
	};
	bool ok = compute_create(c, ctx, d, &s, err);
	shader_free(&spv);
	if (!ok) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 1;
	}
	return 0;
}

int latency_run(const VkCtx *ctx, int idx, const Options *o)
{
	const DeviceInfo *d = &ctx->entries[idx];
	char err[ERR_LEN];
	Compute c;
	int status = latency_device(ctx, d, o, &c);
	if (status)
		return status;
	size_t n = LATENCY_COUNT;
	double *gpu = malloc(n * sizeof *gpu), *cpu = malloc(n * sizeof *cpu);
	status = 1;
	if (!gpu || !cpu) {
		fprintf(stderr, "flopscope: out of memory\n");
		goto out;
	}
	GroupCount one = { 1, 1, 1 };
	VkResult vr;
	DispatchTiming t;
	/* the first zeroes the counter; the warm-up is not recorded */
	for (size_t i = 0; i < LATENCY_WARMUP + n; i++) {
		if (!compute_dispatch(&c, one, NULL, i == 0, &t, &vr, err)) {
			fprintf(stderr, "flopscope: %s\n", err);
			goto out;
		}
		if (i >= LATENCY_WARMUP) {
			gpu[i - LATENCY_WARMUP] = t.gpu_valid ? (double)t.gpu_ns * 1e-3 : 0;
			cpu[i - LATENCY_WARMUP] = (double)t.cpu_ns * 1e-3;
		}
	}
	if (!compute_read_back(&c, &vr, err)) {
		fprintf(stderr, "flopscope: %s\n", err);
		goto out;
	}
	uint32_t ran;
	memcpy(&ran, compute_results(&c), sizeof ran);
	if (ran != LATENCY_WARMUP + n) {
		fprintf(stderr, "flopscope: verification failed: %u of %zu empty dispatches ran\n", ran,
		        (size_t)LATENCY_WARMUP + n);
		goto out;
	}
	double g[3], k[3];
	spread(gpu, n, g);
	spread(cpu, n, k);
	if (!latency_print(o, d, (size_t)idx + 1, c.timestamps, n, ran, g, k)) {
		fprintf(stderr, "flopscope: out of memory\n");
		goto out;
	}
	status = outputs_stdout_failed() ? 1 : 0;
out:
	free(gpu);
	free(cpu);
	compute_destroy(&c);
	return status;
}
