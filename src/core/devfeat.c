#include "devfeat.h"

#include <stddef.h>
#include <string.h>

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

/* VkComponentTypeKHR's numbers, and their names */
static const struct {
	uint32_t type;
	const char *name;
} components[] = {
	{ 0, "fp16" }, { 1, "fp32" }, { 2, "fp64" }, { 3, "int8" }, { 4, "int16" }, { 5, "int32" },
	{ 6, "int64" }, { 7, "uint8" }, { 8, "uint16" }, { 9, "uint32" }, { 10, "uint64" },
	{ 1000141000, "bf16" },         /* VK_COMPONENT_TYPE_BFLOAT16_KHR */
	{ 1000491002, "fp8-e4m3" },     /* VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT */
	{ 1000491003, "fp8-e5m2" },
	{ 1000491000, "int8-packed" },
	{ 1000491001, "uint8-packed" },
};

const char *matrix_component_str(uint32_t type)
{
	for (size_t i = 0; i < sizeof components / sizeof *components; i++)
		if (components[i].type == type)
			return components[i].name;
	return "other";
}

bool matrix_component_find(const char *name, uint32_t *type)
{
	for (size_t i = 0; i < sizeof components / sizeof *components; i++)
		if (!strcmp(components[i].name, name)) {
			*type = components[i].type;
			return true;
		}
	return false;
}
