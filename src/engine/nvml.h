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

/* A GPU as NVML lists it. */
typedef struct NvmlGpu {
	unsigned index;      /* NVML's, nvidia-smi's */
	char uuid[96];       /* "GPU-..." */
	char name[96];       /* "" where NVML would not say */
	int mig;             /* MIG mode: 1 on, 0 off, -1 unknown (no such call, or not supported) */
} NvmlGpu;

/* The GPUs NVML lists (at most cap into out): how many, or -1 with why
 * where NVML cannot say (missing, or not starting). */
int nvml_list_gpus(NvmlGpu *out, size_t cap, char *why, size_t len);

#endif
