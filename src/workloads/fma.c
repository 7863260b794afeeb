/* fma: the arithmetic workloads (fp32, fp64, int32, fp16, int8dot and the
 * scalar forms): independent multiply-add chains, every result slot checked
 * against the CPU's arithmetic and a counter of the workgroups that ran. */
#include "workloads.h"

#include "spirv_khr.h"

#include <stdio.h>
#include <stdlib.h>

/* The arithmetic's own: the chains, the checked slots, the defines' text. */
typedef struct FmaState {
	FmaParams params;
	FmaCheck check;
	char def_text[2][16];
	char mm_text[3][12];         /* matrix workloads: M, N, K */
} FmaState;

static Status plan(Work *w, const WorkInput *in, char *err)
{
	const DeviceInfo *d = in->dev;
	uint32_t lim = work_max_local(d);
	FmaState *st = work_state(w, sizeof *st, err);
	if (!st)
		return STATUS_FAILED;
	fma_params_for(&st->params, in->type, d->type == DEV_CPU, lim);
	/* FLOPSCOPE_FMA_SHAPE: the chains' shape, for bench/fp32.sh */
	const char *shape = getenv("FLOPSCOPE_FMA_SHAPE");
	if (shape && *shape) {
		char why[256];
		if (!fma_params_parse(shape, &st->params, lim, why, sizeof why)) {
			snprintf(err, ERR_LEN, "FLOPSCOPE_FMA_SHAPE: %s", why);
			return STATUS_USAGE;
		}
	}
	if (w->info->matrix) {
		WorkloadFeatures f = devinfo_features(d);
		fma_params_matrix(&st->params, f.mm[in->type], d->subgroup_size);
		for (int i = 0; i < 3; i++) {
			snprintf(st->mm_text[i], sizeof st->mm_text[i], "%u", f.mm[in->type][i]);
			w->defs[w->ndefs++] = (ShaderDefine){ i == 0 ? "M_SIZE" : i == 1 ? "N_SIZE" : "K_SIZE", st->mm_text[i] };
		}
		w->defs[w->ndefs++] = (ShaderDefine){ SHADER_NO_SPIRV_OPT, "1" };
		/* A and B of a type glslang 12 cannot write: fp16 stand-ins, rewritten */
		if (spirv_retype_known(w->info->mtypes.in))
			w->defs[w->ndefs++] = (ShaderDefine){ SHADER_KHR_AS, matrix_component_str(w->info->mtypes.in) };
	}
	w->per_invocation = fma_flop_per_invocation(&st->params);
	w->local_size = st->params.local_size;
	fma_check_init(&st->check, &st->params);
	w->shader = w->info->shader;
	snprintf(st->def_text[0], sizeof st->def_text[0], "%u", st->params.vec4s);
	snprintf(st->def_text[1], sizeof st->def_text[1], "%u", st->params.unroll);
	w->defs[w->ndefs++] = (ShaderDefine){ "VEC4S", st->def_text[0] };
	w->defs[w->ndefs++] = (ShaderDefine){ "UNROLL", st->def_text[1] };
	if (w->info->define)
		w->defs[w->ndefs++] = (ShaderDefine){ w->info->define, "1" };
	if (w->info->scalar)
		w->defs[w->ndefs++] = (ShaderDefine){ "SCALAR", "1" };
	w->spec[0] = st->params.local_size;
	w->spec[1] = st->params.iters;
	/* the group counter, then the result slots */
	w->result_size = 16 + (VkDeviceSize)WORKLOAD_SLOTS * w->info->elem;
	return STATUS_OK;
}

static uint32_t push(const Work *w, unsigned char out[24])
{
	const FmaState *st = w->state;
	return fma_push(&st->params, WORKLOAD_SLOTS - 1, out);
}

static bool check(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len)
{
	if (!work_check_counter(w, c, groups, msg, len))
		return false;
	const FmaState *st = w->state;
	const void *values = (const char *)compute_results(c) + 16;
	char why[512];
	if (fma_check(&st->check, values, groups * w->local_size, why, sizeof why) < 0) {
		snprintf(msg, len, "verification failed: %s", why);
		return false;
	}
	return true;
}

const WorkloadOps workload_fma_ops = {
	.kind = WL_FMA,
	.plan = plan,
	.recorder = &gpu_dispatch_recorder,
	.push = push,
	.prepare_check = work_read_whole,
	.check = check,
	.work = work_by_invocation,
};
