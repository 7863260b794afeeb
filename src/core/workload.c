#include "workload.h"
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every field of every row is named: no meaning rests on a zero default. */
const WorkloadInfo workload_info[WORKLOAD_TYPE_COUNT] = {
	[WORKLOAD_FP32] = {
		.name = "fp32", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "fma_fp32.comp", .define = NULL, .rate = RATE_FP32, .check = RESULT_F32_REL, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "FP32 fused multiply-add chains",
	},
	[WORKLOAD_FP64] = {
		.name = "fp64", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_FP64", .rate = RATE_FP64, .check = RESULT_F64_REL, .scalar = false, .elem = 8,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_FLOAT64), .matrix = false, .mtypes = { 0, 0 },
		.what = "FP64 fused multiply-add chains",
	},
	[WORKLOAD_INT32] = {
		.name = "int32", .unit = UNIT_IOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_INT32", .rate = RATE_INT32, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "32-bit integer multiply-add chains (x * a + b, wrapping)",
	},
	[WORKLOAD_FP16] = {
		.name = "fp16", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_FP16", .rate = RATE_FP16_PACKED, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_FLOAT16), .matrix = false, .mtypes = { 0, 0 },
		.what = "FP16 fused multiply-add chains in f16vec4 (packed where the device packs)",
	},
	[WORKLOAD_INT8DOT] = {
		.name = "int8dot", .unit = UNIT_IOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_INT8DOT", .rate = RATE_DP4A, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_INT_DOT), .matrix = false, .mtypes = { 0, 0 },
		.what = "packed 4 x 8-bit dot products plus an add (OpUDot + OpIAdd, dp4a): 8 ops each",
	},
	[WORKLOAD_FP32_SCALAR] = {
		.name = "fp32-scalar", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_FP32", .rate = RATE_FP32, .check = RESULT_F32_REL, .scalar = true, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "fp32's chains as scalar variables (vkpeak's fp32-scalar)",
	},
	[WORKLOAD_FP16_SCALAR] = {
		.name = "fp16-scalar", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_FP16", .rate = RATE_FP16_SCALAR, .check = RESULT_F32_EXACT, .scalar = true, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_FLOAT16), .matrix = false, .mtypes = { 0, 0 },
		.what = "fp16's chains as scalar float16_t variables: nothing to pack",
	},
	[WORKLOAD_FP64_SCALAR] = {
		.name = "fp64-scalar", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_FP64", .rate = RATE_FP64, .check = RESULT_F64_REL, .scalar = true, .elem = 8,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_FLOAT64), .matrix = false, .mtypes = { 0, 0 },
		.what = "fp64's chains as scalar double variables (vkpeak's fp64-scalar)",
	},
	[WORKLOAD_INT16] = {
		.name = "int16", .unit = UNIT_IOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_INT16", .rate = RATE_UNPUBLISHED, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_INT16), .matrix = false, .mtypes = { 0, 0 },
		.what = "16-bit integer multiply-add chains in u16vec4 (x * a + b, wrapping)",
	},
	[WORKLOAD_INT64] = {
		.name = "int64", .unit = UNIT_IOPS, .kind = WL_FMA,
		.shader = "fma_typed.comp", .define = "TYPE_INT64", .rate = RATE_UNPUBLISHED, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_INT64), .matrix = false, .mtypes = { 0, 0 },
		.what = "64-bit integer multiply-add chains in u64vec4 (x * a + b, wrapping)",
	},
	[WORKLOAD_FP16_MATRIX] = {
		.name = "fp16-matrix", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "coopmat.comp", .define = "TYPE_FP16_MATRIX", .rate = RATE_TENSOR_16, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16), .matrix = true, .mtypes = { .in = 0, .acc = 1 },
		.what = "cooperative-matrix multiply-add (tensor cores), fp16 in, fp32 accumulate",
	},
	[WORKLOAD_FP16_MATRIX_F16] = {
		.name = "fp16-matrix-f16", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "coopmat.comp", .define = "TYPE_FP16_MATRIX_F16", .rate = RATE_TENSOR_16, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16), .matrix = true, .mtypes = { .in = 0, .acc = 0 },
		.what = "cooperative-matrix multiply-add (tensor cores), fp16 in, fp16 accumulate",
	},
	[WORKLOAD_INT8_MATRIX] = {
		.name = "int8-matrix", .unit = UNIT_IOPS, .kind = WL_FMA,
		.shader = "coopmat.comp", .define = "TYPE_INT8_MATRIX", .rate = RATE_TENSOR_8, .check = RESULT_U32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_INT8), .matrix = true, .mtypes = { .in = 3, .acc = 5 },
		.what = "cooperative-matrix multiply-add (tensor cores), int8 in, int32 accumulate",
	},
	[WORKLOAD_BF16_MATRIX] = {
		.name = "bf16-matrix", .unit = UNIT_FLOPS, .kind = WL_FMA,
		.shader = "coopmat.comp", .define = "TYPE_BF16_MATRIX", .rate = RATE_TENSOR_16, .check = RESULT_F32_EXACT, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = FEAT(FEAT_BF16_COOPMAT), .matrix = true, .mtypes = { .in = 1000141000, .acc = 1 },
		.what = "cooperative-matrix multiply-add (tensor cores), bfloat16 in, fp32 accumulate",
	},
	[WORKLOAD_COPY] = {
		.name = "copy", .unit = UNIT_BYTES, .kind = WL_COPY,
		.shader = "copy.comp", .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_DEVICE, .dst = MEM_DEVICE, .bytes_per_byte = 2,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "device memory bandwidth: a copy shader, bytes read + written",
	},
	[WORKLOAD_H2D] = {
		.name = "h2d", .unit = UNIT_BYTES, .kind = WL_TRANSFER,
		.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_HOST_COHERENT, .dst = MEM_DEVICE, .bytes_per_byte = 1,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "vkCmdCopyBuffer host (coherent) to device, size sweep",
	},
	[WORKLOAD_H2D_CACHED] = {
		.name = "h2d-cached", .unit = UNIT_BYTES, .kind = WL_TRANSFER,
		.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_HOST_CACHED, .dst = MEM_DEVICE, .bytes_per_byte = 1,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "vkCmdCopyBuffer host (cached) to device, size sweep",
	},
	[WORKLOAD_D2H] = {
		.name = "d2h", .unit = UNIT_BYTES, .kind = WL_TRANSFER,
		.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_DEVICE, .dst = MEM_HOST_COHERENT, .bytes_per_byte = 1,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "vkCmdCopyBuffer device to host (coherent), size sweep",
	},
	[WORKLOAD_D2H_CACHED] = {
		.name = "d2h-cached", .unit = UNIT_BYTES, .kind = WL_TRANSFER,
		.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_DEVICE, .dst = MEM_HOST_CACHED, .bytes_per_byte = 1,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "vkCmdCopyBuffer device to host (cached), size sweep",
	},
	[WORKLOAD_D2D] = {
		.name = "d2d", .unit = UNIT_BYTES, .kind = WL_TRANSFER,
		.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_DEVICE, .dst = MEM_DEVICE, .bytes_per_byte = 2,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "vkCmdCopyBuffer device to device, size sweep, bytes read + written",
	},
	[WORKLOAD_H2H] = {
		.name = "h2h", .unit = UNIT_BYTES, .kind = WL_TRANSFER,
		.shader = NULL, .define = NULL, .rate = RATE_NONE, .check = RESULT_NONE, .scalar = false, .elem = 0,
		.src = MEM_HOST_COHERENT, .dst = MEM_HOST_COHERENT, .bytes_per_byte = 1,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "vkCmdCopyBuffer host (coherent) to host (coherent), size sweep, bytes copied",
	},
	[WORKLOAD_POWER] = {
		.name = "power", .unit = UNIT_FLOPS, .kind = WL_POWER,
		.shader = "power.comp", .define = NULL, .rate = RATE_UNPUBLISHED, .check = RESULT_NONE, .scalar = false, .elem = 4,
		.src = MEM_NONE, .dst = MEM_NONE, .bytes_per_byte = 0,
		.needs = 0, .matrix = false, .mtypes = { 0, 0 },
		.what = "multiply-adds on random operands that change every multiply, for the power a real load draws "
		        "(fp16 cooperative matrices where the device has them, else fp32 FMA chains and loads)",
	},
};

WorkloadType workload_arith(WorkloadType t)
{
	return t == WORKLOAD_FP32_SCALAR ? WORKLOAD_FP32 : t == WORKLOAD_FP16_SCALAR ? WORKLOAD_FP16
	     : t == WORKLOAD_FP64_SCALAR ? WORKLOAD_FP64 : t;
}

const char *const workload_unit_names[UNIT_COUNT] = { [UNIT_FLOPS] = "FLOPS", [UNIT_IOPS] = "IOPS", [UNIT_BYTES] = "B/s" };

const char *const mem_class_names[MEM_CLASS_COUNT] = {
	[MEM_NONE] = "none", [MEM_DEVICE] = "device-local", [MEM_HOST_COHERENT] = "host-coherent",
	[MEM_HOST_CACHED] = "host-cached",
};

void workload_names(char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; i < WORKLOAD_TYPE_COUNT && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", workload_info[i].name);
}

const char *workload_suggest(const char *name)
{
	const char *names[WORKLOAD_TYPE_COUNT];
	for (int i = 0; i < WORKLOAD_TYPE_COUNT; i++)
		names[i] = workload_info[i].name;
	return fmt_nearest(name, names, WORKLOAD_TYPE_COUNT);
}

int workload_find(const char *name)
{
	for (int i = 0; i < WORKLOAD_TYPE_COUNT; i++)
		if (!strcmp(workload_info[i].name, name))
			return i;
	return -1;
}

/* The first feature of need missing from has whose before_shape is
 * before, or -1. */
static int lacking(uint32_t need, uint32_t has, bool before)
{
	for (int b = 0; b < FEAT_COUNT; b++)
		if ((need & ~has & FEAT(b)) && dev_features[b].before_shape == before)
			return b;
	return -1;
}

bool workload_supported(WorkloadType t, WorkloadFeatures f, char *why, size_t len)
{
	const WorkloadInfo *w = &workload_info[t];
	if (w->matrix && !f.coopmat_listed) {
		snprintf(why, len, "the device has no cooperative matrices (neither VK_KHR_cooperative_matrix nor "
		         "VK_NV_cooperative_matrix)");
		return false;
	}
	int b = lacking(w->needs, f.has, true);
	if (b >= 0) {
		snprintf(why, len, "%s", dev_features[b].lacks);
		return false;
	}
	if (w->matrix && !f.mm[t][0]) {
		snprintf(why, len, "the device offers no %s*%s+%s cooperative-matrix shape at subgroup scope",
		         matrix_component_str(w->mtypes.in), matrix_component_str(w->mtypes.in),
		         matrix_component_str(w->mtypes.acc));
		return false;
	}
	b = lacking(w->needs, f.has, false);
	if (b >= 0) {
		snprintf(why, len, "%s", dev_features[b].lacks);
		return false;
	}
	snprintf(why, len, "supported");
	return true;
}
