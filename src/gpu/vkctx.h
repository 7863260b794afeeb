/* vkctx: the Vulkan instance and the list of (physical device, compute queue
 * family) entries, with the facts the list, the picker and the logs show. */
#ifndef FLOPSCOPE_VKCTX_H
#define FLOPSCOPE_VKCTX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "devinfo.h"
#include "err.h"



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
/* The instance let go, the entries kept: a process that only reads the
 * devices' telemetry (--watch) holds no driver context (NVIDIA's driver
 * lists a process with a Vulkan instance among the GPU's processes, so a
 * check beside the exporter named it as another process on the GPU). */
void vkctx_drop_instance(VkCtx *c);

/* Physical device of an entry. */
VkPhysicalDevice vkctx_physical(const VkCtx *c, const DeviceInfo *d, char *err);

/* The Vulkan headers flopscope was built with ("1.3.239"). */
void vkctx_headers_version(char *out, size_t len);

#endif
