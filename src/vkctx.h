/* vkctx: the Vulkan instance and the list of (physical device, compute queue
 * family) entries, with the facts the list, the picker and the logs show. */
#ifndef FLOPSCOPE_VKCTX_H
#define FLOPSCOPE_VKCTX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "err.h"
#include "workload.h"

#define DEVINFO_MAX_HEAPS 16

/* Plain facts about one entry; the screens read this and never call Vulkan. */
typedef struct DeviceInfo {
	char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
	uint32_t phys_index;        /* index in vkEnumeratePhysicalDevices */
	uint32_t queue_family;      /* a family with VK_QUEUE_COMPUTE_BIT */
	uint32_t queue_count;
	uint32_t queue_flags;
	VkPhysicalDeviceType type;
	uint32_t vendor_id, device_id;
	uint32_t api_version, driver_version;
	char driver_name[VK_MAX_DRIVER_NAME_SIZE];   /* empty when not reported */
	char driver_info[VK_MAX_DRIVER_INFO_SIZE];
	uint8_t uuid[VK_UUID_SIZE];
	uint32_t timestamp_valid_bits;  /* of this queue family; 0 = no timestamps */
	float timestamp_period;         /* ns per tick */
	uint32_t subgroup_size;
	uint32_t max_group_count[3];
	uint32_t max_group_size[3];
	uint32_t max_invocations;
	uint32_t heap_count;
	uint64_t heap_size[DEVINFO_MAX_HEAPS];
	bool heap_device_local[DEVINFO_MAX_HEAPS];
	bool float16, float64, int8;
	bool int_dot;                   /* shaderIntegerDotProduct (Vulkan 1.3) */
	uint32_t sm_count;              /* NVIDIA, from VK_NV_shader_sm_builtins; 0 unknown */
	uint32_t cu_count;              /* AMD, from VK_AMD_shader_core_properties; 0 unknown */
	int transfer_family;            /* a family with transfer but neither graphics nor
	                                   compute (a copy engine); -1 none */
	uint32_t transfer_ts_bits;      /* its timestampValidBits */
	uint64_t max_alloc;             /* maxMemoryAllocationSize (Vulkan 1.1) */
	uint64_t max_storage_range;     /* maxStorageBufferRange */
	bool host_query_reset;          /* hostQueryReset (Vulkan 1.2) */
	bool has_pci;                   /* VK_EXT_pci_bus_info */
	uint32_t pci_domain, pci_bus, pci_device, pci_function;
} DeviceInfo;

typedef struct VkCtx {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	bool validate;
	_Atomic unsigned validation_messages; /* warnings and errors reported by the layer */
	uint32_t api_version;                  /* the instance's */
	DeviceInfo *entries;
	size_t entry_count;
} VkCtx;

/* Creates the instance (with VK_LAYER_KHRONOS_validation when validate) and
 * lists every compute queue family of every device. On failure writes err and
 * returns false; *no_device tells apart "Vulkan works but found no device". */
bool vkctx_create(VkCtx *c, bool validate, char *err, bool *no_device);
void vkctx_destroy(VkCtx *c);

/* Physical device of an entry. */
VkPhysicalDevice vkctx_physical(const VkCtx *c, const DeviceInfo *d, char *err);

/* Pure helpers (devinfo.c). */
const char *devinfo_type_str(VkPhysicalDeviceType t);
/* Preference for the default device: discrete, integrated, virtual, CPU, other. */
int devinfo_type_rank(VkPhysicalDeviceType t);
/* "1.3.230" */
void devinfo_version_str(uint32_t v, char *out, size_t len);
/* driverVersion decoded as each vendor encodes it (NVIDIA 10.8.8.6 bits). */
void devinfo_driver_version_str(const DeviceInfo *d, char *out, size_t len);
void devinfo_uuid_str(const uint8_t uuid[VK_UUID_SIZE], char *out, size_t len);
/* The features workload_supported() asks about. */
WorkloadFeatures devinfo_features(const DeviceInfo *d);

#endif
