/* err: Vulkan failures as values. Functions that can fail take a char
 * err[ERR_LEN] and write what failed and why. VK_TRY(err, vr, call) runs
 * call; on failure it writes "call failed: VK_ERROR_... (file:line)" into
 * err, stores the VkResult in vr and jumps to the function's fail label,
 * which releases what the function built. */
#ifndef FLOPSCOPE_ERR_H
#define FLOPSCOPE_ERR_H

#include <stdio.h>
#include <vulkan/vulkan.h>

#include "error.h"

const char *vk_result_str(VkResult r);

#define VK_TRY(err, vr, call)                                                   \
	do {                                                                    \
		VkResult vk_try_r_ = (call);                                    \
		if (vk_try_r_ != VK_SUCCESS) {                                  \
			snprintf((err), ERR_LEN, "%s failed: %s (%s:%d)", #call, \
			         vk_result_str(vk_try_r_), __FILE__, __LINE__); \
			(vr) = vk_try_r_;                                       \
			goto fail;                                              \
		}                                                               \
	} while (0)

#endif
