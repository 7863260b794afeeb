/* features: how Vulkan spells, queries and enables each device feature of
 * core's devfeat table. One table of feature structures (what may follow
 * VkPhysicalDeviceFeatures2 or VkDeviceCreateInfo) and one of features (the
 * VkBool32 members each needs, the extensions it enables); vkctx walks them
 * to read what a device offers, compute to enable what a workload needs. */
#include "gpu_impl.h"

#include <stddef.h>
#include <string.h>

/* A structure of the features' chain, and when a device has it. */
typedef struct FeatStruct {
	VkStructureType stype;
	size_t size;
	uint32_t api;          /* the Vulkan version it needs (device and instance), 0: an extension decides */
	const char *ext[2];    /* the extensions it needs (all), NULL-padded */
} FeatStruct;

enum { FS_CORE = -1, FS_F16I8, FS_IDP, FS_HQR, FS_NV_CM, FS_VMM, FS_KHR_CM, FS_BF16, FS_COUNT };

static const FeatStruct structs[FS_COUNT] = {
	[FS_F16I8] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
	               sizeof(VkPhysicalDeviceShaderFloat16Int8Features), VK_API_VERSION_1_2, { NULL, NULL } },
	[FS_IDP] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
	             sizeof(VkPhysicalDeviceShaderIntegerDotProductFeatures), VK_API_VERSION_1_3, { NULL, NULL } },
	[FS_HQR] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
	             sizeof(VkPhysicalDeviceHostQueryResetFeatures), VK_API_VERSION_1_2, { NULL, NULL } },
	[FS_NV_CM] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV,
	               sizeof(VkPhysicalDeviceCooperativeMatrixFeaturesNV), 0,
	               { VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME, NULL } },
	/* the cooperative-matrix shaders use the Vulkan memory model (glslang
	 * writes it for gl_ScopeSubgroup) */
	[FS_VMM] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
	             sizeof(VkPhysicalDeviceVulkanMemoryModelFeatures), VK_API_VERSION_1_2, { NULL, NULL } },
	/* Debian 12's headers predate both: vk_khr.h spells their structures */
	[FS_KHR_CM] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR_,
	                sizeof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR_), 0,
	                { VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME_, NULL } },
	[FS_BF16] = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR_,
	              sizeof(VkPhysicalDeviceShaderBfloat16FeaturesKHR_), 0,
	              { VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME_, NULL } },
};

/* A feature: the VkBool32 members that must all be on (structure, offset;
 * FS_CORE: VkPhysicalDeviceFeatures), and the extensions it enables. */
typedef struct FeatMember {
	int in;
	size_t at;
} FeatMember;
typedef struct FeatRow {
	FeatMember m[4];
	unsigned nm;
	const char *ext[2];
} FeatRow;

#define CORE_M(f) { FS_CORE, offsetof(VkPhysicalDeviceFeatures, f) }
#define M(s, type, f) { s, offsetof(type, f) }
/* One row each FEAT_ of core's devfeat table, in an X-macro so that a row
 * left out is a compile error (the count below), not a feature that reads
 * as lacking on every device forever. */
#define FEAT_LOOKUPS(X) \
	X(FEAT_FLOAT16, { M(FS_F16I8, VkPhysicalDeviceShaderFloat16Int8Features, shaderFloat16) }, 1, { NULL, NULL }) \
	X(FEAT_FLOAT64, { CORE_M(shaderFloat64) }, 1, { NULL, NULL }) \
	X(FEAT_INT8, { M(FS_F16I8, VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8) }, 1, { NULL, NULL }) \
	X(FEAT_INT16, { CORE_M(shaderInt16) }, 1, { NULL, NULL }) \
	X(FEAT_INT64, { CORE_M(shaderInt64) }, 1, { NULL, NULL }) \
	X(FEAT_INT_DOT, { M(FS_IDP, VkPhysicalDeviceShaderIntegerDotProductFeatures, shaderIntegerDotProduct) }, \
	                   1, { NULL, NULL }) \
	X(FEAT_NV_COOPMAT, { M(FS_NV_CM, VkPhysicalDeviceCooperativeMatrixFeaturesNV, cooperativeMatrix), \
	                        M(FS_VMM, VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModel) }, \
	                      2, { VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME, NULL }) \
	X(FEAT_BF16_COOPMAT, { M(FS_KHR_CM, VkPhysicalDeviceCooperativeMatrixFeaturesKHR_, cooperativeMatrix), \
	                          M(FS_BF16, VkPhysicalDeviceShaderBfloat16FeaturesKHR_, shaderBFloat16Type), \
	                          M(FS_BF16, VkPhysicalDeviceShaderBfloat16FeaturesKHR_, shaderBFloat16CooperativeMatrix), \
	                          M(FS_VMM, VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModel) }, \
	                        4, { VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME_, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME_ }) \
	X(FEAT_HOST_QUERY_RESET, { M(FS_HQR, VkPhysicalDeviceHostQueryResetFeatures, hostQueryReset) }, 1, \
	                            { NULL, NULL })
#define AS_ROW(f, ...) [f] = { __VA_ARGS__ },
#define ONE(f, ...) +1
static const FeatRow rows[FEAT_COUNT] = { FEAT_LOOKUPS(AS_ROW) };
_Static_assert(0 FEAT_LOOKUPS(ONE) == FEAT_COUNT, "a FEAT_ row of devfeat_rows.h has no lookup in gpu/features.c");
#undef AS_ROW
#undef ONE
#undef M
#undef CORE_M

/* each link of a chain is one block of GpuFeatChain */
_Static_assert(FS_COUNT <= GPU_FEAT_STRUCTS, "more feature structures than GPU_FEAT_STRUCTS");
_Static_assert(sizeof(VkPhysicalDeviceVulkanMemoryModelFeatures) <= GPU_FEAT_BLOCK &&
               sizeof(VkPhysicalDeviceShaderBfloat16FeaturesKHR_) <= GPU_FEAT_BLOCK &&
               sizeof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR_) <= GPU_FEAT_BLOCK &&
               sizeof(VkPhysicalDeviceShaderIntegerDotProductFeatures) <= GPU_FEAT_BLOCK,
               "a feature structure outgrew GPU_FEAT_BLOCK");

static VkBool32 *member(GpuFeatChain *ch, VkPhysicalDeviceFeatures *core, FeatMember m)
{
	unsigned char *base = m.in == FS_CORE ? (unsigned char *)core : ch->block[m.in];
	return (VkBool32 *)(void *)(base + m.at);
}

/* Links the used structures in front of *head. */
static void link(GpuFeatChain *ch, void **head)
{
	for (int i = 0; i < FS_COUNT; i++) {
		if (!ch->used[i])
			continue;
		VkBaseOutStructure *b = (VkBaseOutStructure *)(void *)ch->block[i];
		b->sType = structs[i].stype;
		b->pNext = *head;
		*head = b;
	}
}

static bool listed(const char *ext, const char *const *names, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(ext, names[i]))
			return true;
	return false;
}

void gpu_features_query_chain(GpuFeatChain *ch, uint32_t api, const char *const *exts, uint32_t next, void **head)
{
	memset(ch, 0, sizeof *ch);
	for (int i = 0; i < FS_COUNT; i++) {
		bool ok = !structs[i].api || api >= structs[i].api;
		for (int e = 0; e < 2 && structs[i].ext[e]; e++)
			ok = ok && listed(structs[i].ext[e], exts, next);
		ch->used[i] = ok;
	}
	link(ch, head);
}

uint32_t gpu_features_read(GpuFeatChain *ch, VkPhysicalDeviceFeatures *core)
{
	uint32_t has = 0;
	for (int f = 0; f < FEAT_COUNT; f++) {
		bool on = rows[f].nm > 0;
		for (unsigned k = 0; k < rows[f].nm && on; k++)
			on = (rows[f].m[k].in == FS_CORE || ch->used[rows[f].m[k].in]) && *member(ch, core, rows[f].m[k]);
		if (on)
			has |= FEAT(f);
	}
	return has;
}

uint32_t gpu_features_enable(GpuFeatChain *ch, uint32_t want, VkPhysicalDeviceFeatures *core, void **head,
                             const char **exts, uint32_t cap)
{
	memset(ch, 0, sizeof *ch);
	uint32_t n = 0;
	for (int f = 0; f < FEAT_COUNT; f++) {
		if (!(want & FEAT(f)))
			continue;
		for (unsigned k = 0; k < rows[f].nm; k++) {
			if (rows[f].m[k].in != FS_CORE)
				ch->used[rows[f].m[k].in] = true;
			*member(ch, core, rows[f].m[k]) = VK_TRUE;
		}
		for (int e = 0; e < 2 && rows[f].ext[e]; e++)
			if (!listed(rows[f].ext[e], exts, n) && n < cap)
				exts[n++] = rows[f].ext[e];
	}
	link(ch, head);
	return n;
}
