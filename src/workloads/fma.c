/* fma: the arithmetic workloads (fp32, fp64, int32, fp16, int8dot and the
 * scalar forms): independent multiply-add chains, every result slot checked
 * against the CPU's arithmetic and a counter of the workgroups that ran. */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>

static Status plan(Work *w, const WorkInput *in, char *err)
{
	const DeviceInfo *d = in->dev;
	uint32_t lim = work_max_local(d);
	fma_params_for(&w->params, in->type, d->type == DEV_CPU, lim);
	/* FLOPSCOPE_FMA_SHAPE: the chains' shape, for bench/fp32.sh */
	const char *shape = getenv("FLOPSCOPE_FMA_SHAPE");
	if (shape && *shape) {
		char why[256];
		if (!fma_params_parse(shape, &w->params, lim, why, sizeof why)) {
			snprintf(err, ERR_LEN, "FLOPSCOPE_FMA_SHAPE: %s", why);
			return STATUS_USAGE;
		}
	}
	if (w->info->matrix) {
		WorkloadFeatures f = devinfo_features(d);
		fma_params_matrix(&w->params, f.mm[in->type], d->subgroup_size);
		for (int i = 0; i < 3; i++) {
			snprintf(w->mm_text[i], sizeof w->mm_text[i], "%u", f.mm[in->type][i]);
			w->defs[w->ndefs++] = (ShaderDefine){ i == 0 ? "M_SIZE" : i == 1 ? "N_SIZE" : "K_SIZE", w->mm_text[i] };
		}
		w->defs[w->ndefs++] = (ShaderDefine){ SHADER_NO_SPIRV_OPT, "1" };
		if (w->info->needs & FEAT(FEAT_BF16_COOPMAT)) /* written for VK_KHR_cooperative_matrix */
			w->defs[w->ndefs++] = (ShaderDefine){ SHADER_KHR_BF16, "1" };
	}
	w->per_invocation = fma_flop_per_invocation(&w->params);
	fma_check_init(&w->check, &w->params);
	w->shader = w->info->shader;
	snprintf(w->def_text[0], sizeof w->def_text[0], "%u", w->params.vec4s);
	snprintf(w->def_text[1], sizeof w->def_text[1], "%u", w->params.unroll);
	w->defs[w->ndefs++] = (ShaderDefine){ "VEC4S", w->def_text[0] };
	w->defs[w->ndefs++] = (ShaderDefine){ "UNROLL", w->def_text[1] };
	if (w->info->define)
		w->defs[w->ndefs++] = (ShaderDefine){ w->info->define, "1" };
	if (w->info->scalar)
		w->defs[w->ndefs++] = (ShaderDefine){ "SCALAR", "1" };
	w->spec[0] = w->params.local_size;
	w->spec[1] = w->params.iters;
	/* the group counter, then the result slots */
	w->result_size = 16 + (VkDeviceSize)WORKLOAD_SLOTS * w->info->elem;
	return STATUS_OK;
}

static uint32_t push(const Work *w, unsigned char out[24])
{
	return fma_push(&w->params, WORKLOAD_SLOTS - 1, out);
}

static void prepare_check(const Work *w, Compute *c, GroupCount g)
{
	(void)w, (void)c, (void)g; /* the whole result buffer is read back */
}

static bool check(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len)
{
	if (!work_check_counter(w, c, groups, msg, len))
		return false;
	const void *values = (const char *)compute_results(c) + 16;
	char why[512];
	if (fma_check(&w->check, values, groups * w->params.local_size, why, sizeof why) < 0) {
		snprintf(msg, len, "verification failed: %s", why);
		return false;
	}
	return true;
}

static uint64_t work(const Work *w, uint64_t groups, uint64_t copy_size)
{
	(void)copy_size;
	return groups * w->params.local_size * w->per_invocation;
}

const WorkloadOps workload_fma_ops = {
	.kind = WL_FMA,
	.plan = plan,
	.recorder = &gpu_dispatch_recorder,
	.push = push,
	.prepare_check = prepare_check,
	.check = check,
	.work = work,
};
