/* nvml: what NVML says of the devices beyond telemetry (tel_nvml.c). */
#ifndef FLOPSCOPE_NVML_H
#define FLOPSCOPE_NVML_H

#include <stdbool.h>
#include <stddef.h>

#include "devinfo.h"

/* NVML's index of each NVIDIA entry (has_gpu_index, gpu_index), matched by
 * UUID (NVML knows only NVIDIA's, whose UUIDs are Vulkan's); false with
 * why when NVML cannot say (missing, or not starting): every entry then stays without one. */
bool nvml_index_devices(DeviceInfo *entries, size_t n, char *why, size_t len);


#endif
