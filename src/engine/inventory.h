/* inventory: every GPU of the host accounted for, not only those Vulkan
 * shows: NVML's list (matched by UUID) and the PCI bus's GPUs (display
 * controllers of NVIDIA, AMD and Intel, matched by PCI address), so that a
 * GPU Vulkan cannot see (MIG mode, no Vulkan driver for it, a container
 * without the driver's graphics capability, a GPU fallen off the bus) is
 * named, never passed over in silence. */
#ifndef FLOPSCOPE_INVENTORY_H
#define FLOPSCOPE_INVENTORY_H

#include <stddef.h>

#include "devinfo.h"

#define INVENTORY_MAX 64

typedef struct MissingGpu {
	int gpu;                   /* NVML's index (nvidia-smi's); -1: none */
	char uuid[96];             /* NVML's "GPU-..."; "" unknown */
	char pci[DEVINFO_PCI_LEN]; /* "00000000:1B:00.0" as nvidia-smi writes it; "" unknown */
	char name[96];             /* NVML's name, else the PCI vendor and device */
	char why[256];             /* the likeliest cause read */
} MissingGpu;

typedef struct Inventory {
	size_t gpus;       /* the GPUs Vulkan shows (not CPU devices), once each */
	size_t nmissing;   /* the host's GPUs it does not */
	MissingGpu missing[INVENTORY_MAX];
	char note[320];    /* what could not be read, "" none ("NVML not found (...)") */
} Inventory;

/* The host's GPUs that none of the Vulkan entries e[0..n) is. */
void inventory_take(const DeviceInfo *e, size_t n, Inventory *inv);

#endif
