/* power: multiply-adds on random operands that change from one multiply to
 * the next (core/powerwork.h), the load that takes a device to its power
 * limit: fp16 cooperative matrices where the device offers them, else fp32
 * FMA chains with loads. The operands are the kind's input buffer, filled
 * from a seed of the run; the results are checked by the group counter and
 * by tiles recomputed on the CPU from the same seed. */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "powerwork.h"

#define POWER_CHECKED 8u   /* tiles recomputed on each check: the first, and 7 more */

typedef struct PowerState {
	PowerParams params;
	char text[6][12];    /* the defines' values */
} PowerState;

static void fill(const void *ctx, uint64_t first, uint32_t *out, size_t n)
{
	power_fill(ctx, first, out, n);
}

/* Whether the device offers M x N x K fp16*fp16+fp32 at subgroup scope. */
static bool offers_shape(const DeviceInfo *d, uint32_t m, uint32_t n, uint32_t k)
{
	for (uint32_t i = 0; i < d->ncoopmat; i++) {
		const CoopMatShape *s = &d->coopmat[i];
		if (s->a == 0 && s->b == 0 && s->c == 1 && s->d == 1 && s->scope == 3 && s->m == m && s->n == n &&
		    s->k == k)
			return true;
	}
	return false;
}

/* FLOPSCOPE_POWER_SHARED=BYTES: each workgroup holds that much shared
 * memory, so fewer are resident (bench/power.sh: what occupancy does at the
 * power cap); false with why where the device cannot. */
static bool shared_words(Work *w, PowerState *st, const DeviceInfo *d, bool matrix, char *err)
{
	const char *shared = getenv("FLOPSCOPE_POWER_SHARED");
	if (!shared || !*shared)
		return true;
	if (!matrix) {
		snprintf(err, ERR_LEN, "FLOPSCOPE_POWER_SHARED: the matrix form's only (%s runs the FMA form)", d->name);
		return false;
	}
	char *end;
	unsigned long b = strtoul(shared, &end, 10);
	if (*end || b < 4 || b > d->max_shared_bytes) {
		snprintf(err, ERR_LEN, "FLOPSCOPE_POWER_SHARED: %s: bytes, 4 to %s's %u", shared, d->name, d->max_shared_bytes);
		return false;
	}
	snprintf(st->text[5], sizeof st->text[5], "%lu", b / 4);
	w->defs[w->ndefs++] = (ShaderDefine){ "SHARED_WORDS", st->text[5] };
	return true;
}

static Status plan(Work *w, const WorkInput *in, char *err)
{
	const DeviceInfo *d = in->dev;
	uint32_t lim = work_max_local(d);
	PowerState *st = work_state(w, sizeof *st, err);
	if (!st)
		return STATUS_FAILED;
	PowerParams *p = &st->params;
	WorkloadFeatures f = devinfo_features(d);
	const uint32_t *mm = f.mm[WORKLOAD_FP16_MATRIX];
	const uint32_t need = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16);
	/* FLOPSCOPE_POWER_FORM=fma: the FMA form on a device with matrices too
	 * (bench/power.sh: what the matrices add) */
	const char *form = getenv("FLOPSCOPE_POWER_FORM");
	bool matrix = (f.has & need) == need && mm[0] && mm[0] % 8 == 0 && mm[1] % 8 == 0 && mm[2] % 8 == 0 &&
	              d->subgroup_size && d->subgroup_size <= lim && !(form && !strcmp(form, "fma"));
	/* 16x8x16 where offered: mma.sync's m16n8k16, which reached the most
	 * at the power cap on the H100 (docs/PERFORMANCE.md) */
	static const uint32_t mma_shape[3] = { 16, 8, 16 };
	if (matrix)
		power_params_matrix(p, offers_shape(d, 16, 8, 16) ? mma_shape : mm, d->subgroup_size, lim);
	else
		power_params_fma(p, d->type == DEV_CPU, lim);
	/* FLOPSCOPE_POWER_SHAPE: the chains' shape, for bench/power.sh */
	const char *shape = getenv("FLOPSCOPE_POWER_SHAPE");
	if (shape && *shape) {
		char why[256];
		if (!power_params_parse(shape, p, why, sizeof why)) {
			snprintf(err, ERR_LEN, "FLOPSCOPE_POWER_SHAPE: %s", why);
			return STATUS_USAGE;
		}
		if (matrix && !offers_shape(d, p->m, p->n, p->k)) {
			snprintf(err, ERR_LEN, "FLOPSCOPE_POWER_SHAPE: %s offers no %ux%ux%u fp16 matrices", d->name, p->m,
			         p->n, p->k);
			return STATUS_USAGE;
		}
	}
	if (!shared_words(w, st, d, matrix, err))
		return STATUS_USAGE;
	/* operands new each run */
	p->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)st;
	w->input = (ComputeInput){ power_words(p) * 4, fill, p };
	w->push_sequence = true; /* new operands each submission */
	w->result_size = 16 + (VkDeviceSize)p->tiles * power_tile_values(p) * 4;
	w->local_size = p->local_size;
	w->per_invocation = power_flop_per_group(p) / p->local_size; /* exact: whole subgroups */
	w->shader = w->info->shader;
	w->spec[0] = p->local_size;
	w->spec[1] = p->iters;
	snprintf(st->text[0], sizeof st->text[0], "%u", p->chains);
	snprintf(st->text[1], sizeof st->text[1], "%u", p->unroll);
	w->defs[w->ndefs++] = (ShaderDefine){ "CHAINS", st->text[0] };
	w->defs[w->ndefs++] = (ShaderDefine){ "UNROLL", st->text[1] };
	if (matrix) {
		const uint32_t dims[3] = { p->m, p->n, p->k };
		const char *names[3] = { "M_SIZE", "N_SIZE", "K_SIZE" };
		for (int i = 0; i < 3; i++) {
			snprintf(st->text[2 + i], sizeof st->text[2 + i], "%u", dims[i]);
			w->defs[w->ndefs++] = (ShaderDefine){ names[i], st->text[2 + i] };
		}
		w->defs[w->ndefs++] = (ShaderDefine){ "MATRIX", "1" };
		w->defs[w->ndefs++] = (ShaderDefine){ SHADER_NO_SPIRV_OPT, "1" };
		w->features = need;
	}
	return STATUS_OK;
}

static uint32_t push(const Work *w, unsigned char out[24])
{
	const PowerState *st = w->state;
	uint32_t mask = st->params.tiles - 1, seq = 0; /* seq: the GPU layer's, each submission */
	float one = 1.0f;
	memcpy(out, &mask, sizeof mask);
	memcpy(out + 4, &one, sizeof one);
	memcpy(out + 8, &seq, sizeof seq);
	return 12;
}

/* The group counter, then the first tile and 7 others the dispatch wrote,
 * a different 7 each check. */
static bool check(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len)
{
	if (!work_check_counter(w, c, groups, msg, len))
		return false;
	const PowerState *st = w->state;
	const PowerParams *p = &st->params;
	const float *tiles = (const float *)((const char *)compute_results(c) + 16);
	uint64_t written = power_tiles_written(p, groups);
	static const uint32_t stride = 0x9e3779b1u;
	for (uint32_t j = 0; j < POWER_CHECKED && j < written; j++) {
		uint32_t t = j ? (uint32_t)(((uint64_t)j * stride + c->submissions) % written) : 0;
		char why[256];
		uint32_t set = power_operand_set(p, t, compute_checked_sequence(c));
		if (!power_check_tile(p, t, set, tiles + (size_t)t * power_tile_values(p), why, sizeof why)) {
			snprintf(msg, len, "verification failed: %s", why);
			return false;
		}
	}
	return true;
}

const WorkloadOps workload_power_ops = {
	.kind = WL_POWER,
	.plan = plan,
	.recorder = &gpu_dispatch_recorder,
	.push = push,
	.prepare_check = work_read_whole,
	.check = check,
	.work = work_by_invocation,
};
