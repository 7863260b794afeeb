/* vk_khr: the structures of VK_KHR_cooperative_matrix (Vulkan 1.3.255) and
 * VK_KHR_shader_bfloat16 (1.4.311), which Debian 12's headers (1.3.239)
 * predate, spelled as the registry defines them; a trailing _ keeps each
 * name clear of the real one where newer headers have it. GPU layer only. */
#ifndef FLOPSCOPE_VK_KHR_H
#define FLOPSCOPE_VK_KHR_H

#include <vulkan/vulkan.h>

#define VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME_ "VK_KHR_cooperative_matrix"
#define VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME_ "VK_KHR_shader_bfloat16"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR_ ((VkStructureType)1000506000)
#define VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR_ ((VkStructureType)1000506001)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR_ ((VkStructureType)1000141000)
#define VK_COMPONENT_TYPE_BFLOAT16_KHR_ 1000141000u

typedef struct VkPhysicalDeviceCooperativeMatrixFeaturesKHR_ {
	VkStructureType sType;
	void *pNext;
	VkBool32 cooperativeMatrix;
	VkBool32 cooperativeMatrixRobustBufferAccess;
} VkPhysicalDeviceCooperativeMatrixFeaturesKHR_;

typedef struct VkCooperativeMatrixPropertiesKHR_ {
	VkStructureType sType;
	void *pNext;
	uint32_t MSize, NSize, KSize;
	uint32_t AType, BType, CType, ResultType; /* VkComponentTypeKHR */
	VkBool32 saturatingAccumulation;
	uint32_t scope;                           /* VkScopeKHR */
} VkCooperativeMatrixPropertiesKHR_;

typedef VkResult (VKAPI_PTR *PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR_)(
	VkPhysicalDevice physicalDevice, uint32_t *pPropertyCount, VkCooperativeMatrixPropertiesKHR_ *pProperties);

typedef struct VkPhysicalDeviceShaderBfloat16FeaturesKHR_ {
	VkStructureType sType;
	void *pNext;
	VkBool32 shaderBFloat16Type;
	VkBool32 shaderBFloat16DotProduct;
	VkBool32 shaderBFloat16CooperativeMatrix;
} VkPhysicalDeviceShaderBfloat16FeaturesKHR_;

#endif
