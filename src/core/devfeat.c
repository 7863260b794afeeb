#include <stddef.h>
#include "devfeat.h"

const DevFeatureInfo dev_features[FEAT_COUNT] = {
	[FEAT_FLOAT16] = { .label = "float16", .lacks = "the device lacks shaderFloat16", .before_shape = false },
	[FEAT_FLOAT64] = { .label = "float64", .lacks = "the device lacks shaderFloat64", .before_shape = false },
	[FEAT_INT8] = { .label = "int8", .lacks = "the device lacks shaderInt8", .before_shape = false },
	[FEAT_INT16] = { .label = "int16", .lacks = "the device lacks shaderInt16", .before_shape = false },
	[FEAT_INT64] = { .label = "int64", .lacks = "the device lacks shaderInt64", .before_shape = false },
	[FEAT_INT_DOT] = {
		.label = "integer dot product",
		.lacks = "the device lacks shaderIntegerDotProduct (Vulkan 1.3 or VK_KHR_shader_integer_dot_product)",
		.before_shape = true,
	},
	[FEAT_NV_COOPMAT] = {
		.label = NULL,
		/* told only where a cooperative-matrix extension is listed: the KHR one */
		.lacks = "the fp16 and int8 matrix shaders use VK_NV_cooperative_matrix, which the device lacks "
		         "(it lists VK_KHR_cooperative_matrix only)",
		.before_shape = true,
	},
	[FEAT_BF16_COOPMAT] = {
		.label = NULL,
		.lacks = "the device lacks bfloat16 cooperative matrices (VK_KHR_cooperative_matrix with "
		         "VK_KHR_shader_bfloat16's shaderBFloat16CooperativeMatrix)",
		.before_shape = true,
	},
	[FEAT_HOST_QUERY_RESET] = {
		.label = NULL,
		.lacks = "timing a transfer-only queue needs hostQueryReset (Vulkan 1.2)",
		.before_shape = false,
	},
};

const char *matrix_component_str(uint32_t type)
{
	static const char *const names[] = { "fp16", "fp32", "fp64", "int8", "int16", "int32", "int64",
	                                     "uint8", "uint16", "uint32", "uint64" };
	if (type < sizeof names / sizeof *names)
		return names[type];
	switch (type) {
	case 1000141000: return "bf16";       /* VK_COMPONENT_TYPE_BFLOAT16_KHR */
	case 1000491002: return "fp8-e4m3";   /* VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT */
	case 1000491003: return "fp8-e5m2";
	case 1000491000: return "int8-packed";
	case 1000491001: return "uint8-packed";
	default: return "other";
	}
}
