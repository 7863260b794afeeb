/* gpumap: the numbers schedulers give GPUs where NVML has none (AMD,
 * Intel), read from sysfs (sysfs.c). */
#ifndef FLOPSCOPE_GPUMAP_H
#define FLOPSCOPE_GPUMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "devinfo.h"

/* Where NVML has no GPUs (AMD, Intel): each GPU entry's index in the order
 * of the DRM render nodes (renderD128, renderD129, ...: Slurm's GRES order
 * of File=/dev/dri/renderD*, as its AMD and Intel autodetection lists
 * them), matched by PCI address (sysfs.c). Returns the entries given one;
 * -1 with why when no render node is there, 0 with why when none of them
 * is a device Vulkan shows. */
int drm_index_devices(DeviceInfo *entries, size_t n, char *why, size_t len);

/* The PCI address ("0000:03:00.0") of the amdgpu device whose unique_id is
 * the hex of a ROCm UUID ("GPU-a1b2c3d4e5f60718", as ROCR_VISIBLE_DEVICES
 * and rocm-smi name a GPU); false where no card has it. */
bool amd_uuid_slot(const char *uuid, char *slot, size_t len);

/* The GPUs a runtime's mask names, as PCI addresses ("0000:03:00.0,...")
 * for devsel_gpu_list: ROCR_VISIBLE_DEVICES's UUIDs (GPU-<hex>, amdgpu's
 * unique_id), else ZE_AFFINITY_MASK's devices (N or N.M: device N) where
 * ZE_ENABLE_PCI_ID_DEVICE_ORDER=1 makes Level Zero number Intel's GPUs in
 * PCI order. rocr, ze, ze_order: the variables' values (NULL unset).
 * Returns 1 (list filled, *from the variable's name), 0 (neither set) or
 * -1 (set, but not to be tied to Vulkan's devices: why). */
int gpumap_runtime_list(const DeviceInfo *e, size_t n, const char *rocr, const char *ze, const char *ze_order,
                        char *list, size_t len, const char **from, char *why, size_t wlen);

#endif
