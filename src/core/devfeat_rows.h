/* The device features a workload can need, one row each: DEV_FEATURE(ID,
 * fields) gives the enum's FEAT_ID (devfeat.h) and its row of dev_features
 * (devfeat.c): what it is called and what lacking it means. How Vulkan
 * spells, queries and enables it is src/gpu/features.c's row of that name.
 * Included only by devfeat.h and devfeat.c, with DEV_FEATURE defined. */
/* FEAT_FLOAT16: shaderFloat16 (Vulkan 1.2) */
DEV_FEATURE(FLOAT16, .label = "float16", .lacks = "the device lacks shaderFloat16", .before_shape = false)
/* FEAT_FLOAT64: shaderFloat64 */
DEV_FEATURE(FLOAT64, .label = "float64", .lacks = "the device lacks shaderFloat64", .before_shape = false)
/* FEAT_INT8: shaderInt8 (Vulkan 1.2) */
DEV_FEATURE(INT8, .label = "int8", .lacks = "the device lacks shaderInt8", .before_shape = false)
/* FEAT_INT16: shaderInt16 */
DEV_FEATURE(INT16, .label = "int16", .lacks = "the device lacks shaderInt16", .before_shape = false)
/* FEAT_INT64: shaderInt64 */
DEV_FEATURE(INT64, .label = "int64", .lacks = "the device lacks shaderInt64", .before_shape = false)
/* FEAT_INT_DOT: shaderIntegerDotProduct (Vulkan 1.3) */
DEV_FEATURE(INT_DOT,
	.label = "integer dot product",
	.lacks = "the device lacks shaderIntegerDotProduct (Vulkan 1.3 or VK_KHR_shader_integer_dot_product)",
	.before_shape = true)
/* FEAT_NV_COOPMAT: VK_NV_cooperative_matrix, which the fp16 and int8 matrix shaders use */
DEV_FEATURE(NV_COOPMAT,
	.label = NULL,
	/* told only where a cooperative-matrix extension is listed: the KHR one */
	.lacks = "the fp16 and int8 matrix shaders use VK_NV_cooperative_matrix, which the device lacks "
	         "(it lists VK_KHR_cooperative_matrix only)",
	.before_shape = true)
/* FEAT_BF16_COOPMAT: VK_KHR_cooperative_matrix with VK_KHR_shader_bfloat16's shaderBFloat16CooperativeMatrix */
DEV_FEATURE(BF16_COOPMAT,
	.label = NULL,
	.lacks = "the device lacks bfloat16 cooperative matrices (VK_KHR_cooperative_matrix with "
	         "VK_KHR_shader_bfloat16's shaderBFloat16CooperativeMatrix)",
	.before_shape = true)
/* FEAT_HOST_QUERY_RESET: hostQueryReset (Vulkan 1.2): timing a transfer-only queue */
DEV_FEATURE(HOST_QUERY_RESET,
	.label = NULL,
	.lacks = "timing a transfer-only queue needs hostQueryReset (Vulkan 1.2)",
	.before_shape = false)
