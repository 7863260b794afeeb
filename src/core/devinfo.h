/* devinfo: the plain facts about one (physical device, compute queue family)
 * entry that the list, the picker, the peaks and the logs use. Pure: the GPU
 * layer (gpu/vkctx.c) fills it from Vulkan; nothing here knows Vulkan. */
#ifndef FLOPSCOPE_DEVINFO_H
#define FLOPSCOPE_DEVINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload.h"

/* Sizes as Vulkan's (VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, VK_MAX_DRIVER_NAME_SIZE,
 * VK_MAX_DRIVER_INFO_SIZE, VK_UUID_SIZE); gpu/vkctx.c asserts they agree. */
#define DEVINFO_NAME_LEN 256
#define DEVINFO_DRIVER_LEN 256
#define DEVINFO_UUID_LEN 16

/* The kind of device, in Vulkan's order (VkPhysicalDeviceType). */
typedef enum DevType {
	DEV_OTHER,
	DEV_INTEGRATED_GPU,
	DEV_DISCRETE_GPU,
	DEV_VIRTUAL_GPU,
	DEV_CPU,
} DevType;

#define DEVINFO_MAX_HEAPS 16
#define DEVINFO_MAX_COOPMAT 128

/* One cooperative-matrix shape a device offers: D (MxN) = A (MxK) * B (KxN)
 * + C, component types as Vulkan numbers them (VkComponentTypeKHR; the NV
 * extension's values are the same). */
typedef struct CoopMatShape {
	uint32_t m, n, k;
	uint32_t a, b, c, d;        /* component types */
	uint32_t scope;             /* VkScopeKHR: 3 = subgroup, 2 = workgroup */
} CoopMatShape;

/* Plain facts about one entry; the screens read this and never call Vulkan. */
typedef struct DeviceInfo {
	char name[DEVINFO_NAME_LEN];
	uint32_t phys_index;        /* index in vkEnumeratePhysicalDevices */
	uint32_t queue_family;      /* a family with a compute bit */
	uint32_t queue_count;
	uint32_t queue_flags;
	DevType type;
	uint32_t vendor_id, device_id;
	uint32_t api_version, driver_version;
	char driver_name[DEVINFO_DRIVER_LEN];   /* empty when not reported */
	char driver_info[DEVINFO_DRIVER_LEN];
	uint8_t uuid[DEVINFO_UUID_LEN];
	uint32_t timestamp_valid_bits;  /* of this queue family; 0 = no timestamps */
	float timestamp_period;         /* ns per tick */
	uint32_t subgroup_size;
	uint32_t max_group_count[3];
	uint32_t max_group_size[3];
	uint32_t max_invocations;
	uint32_t max_shared_bytes;       /* a workgroup's shared memory at most */
	uint32_t heap_count;
	uint64_t heap_size[DEVINFO_MAX_HEAPS];
	bool heap_device_local[DEVINFO_MAX_HEAPS];
	uint32_t features;              /* FEAT() bits (features.h): what it offers */
	uint32_t sm_count;              /* NVIDIA, from VK_NV_shader_sm_builtins; 0 unknown */
	uint32_t cu_count;              /* AMD, from VK_AMD_shader_core_properties; 0 unknown */
	int transfer_family;            /* a family with transfer but neither graphics nor
	                                   compute (a copy engine); -1 none */
	uint32_t transfer_ts_bits;      /* its timestampValidBits */
	uint64_t max_alloc;             /* maxMemoryAllocationSize (Vulkan 1.1) */
	uint64_t max_storage_range;     /* maxStorageBufferRange */
	bool has_pci;                   /* VK_EXT_pci_bus_info */
	char coopmat_ext[40];           /* the cooperative-matrix extension read, "" none */
	bool coopmat_khr;               /* VK_KHR_cooperative_matrix is listed too */
	CoopMatShape coopmat[DEVINFO_MAX_COOPMAT]; /* NV shapes, then KHR's the NV list lacks */
	uint32_t ncoopmat;
	uint32_t pci_domain, pci_bus, pci_device, pci_function;
	bool has_gpu_index;             /* NVML knows the device (engine/tel_nvml.c fills it) */
	uint32_t gpu_index;             /* then NVML's index of it, matched by UUID: nvidia-smi's,
	                                   dcgm-exporter's gpu label, Slurm's SLURM_JOB_GPUS */
} DeviceInfo;

/* The list of entries, in the order the device list numbers them. */
typedef struct DeviceList {
	const DeviceInfo *entries;
	size_t count;
} DeviceList;

const char *devinfo_type_str(DevType t);
/* Preference for the default device: discrete, integrated, virtual, CPU, other. */
int devinfo_type_rank(DevType t);
/* "1.3.230" from a Vulkan-encoded version (7.10.12 bits after a 3-bit variant) */
void devinfo_version_str(uint32_t v, char *out, size_t len);
/* driverVersion decoded as each vendor encodes it (NVIDIA 10.8.8.6 bits). */
void devinfo_driver_version_str(const DeviceInfo *d, char *out, size_t len);
/* The driver as its vendor writes it, as nvidia-smi does: "NVIDIA
 * 580.159.04", "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)" (driverName and
 * driverInfo, else the packed version decoded). */
#define DEVINFO_DRIVER_STR_LEN (2 * DEVINFO_DRIVER_LEN + 8)
void devinfo_driver_str(const DeviceInfo *d, char *out, size_t len);
void devinfo_uuid_str(const uint8_t uuid[DEVINFO_UUID_LEN], char *out, size_t len);
/* The PCI address as nvidia-smi, NVML and dcgm-exporter write it
 * ("00000000:1B:00.0"); "" without VK_EXT_pci_bus_info. */
#define DEVINFO_PCI_LEN 24
void devinfo_pci_str(const DeviceInfo *d, char *out, size_t len);
/* The PCI address as the kernel names its device ("0000:1b:00.0", sysfs'
 * bus/pci/devices and PCI_SLOT_NAME); "" without VK_EXT_pci_bus_info. */
void devinfo_pci_slot(const DeviceInfo *d, char *out, size_t len);
/* Whether d has the PCI address of the kernel's slot name (any case). */
bool devinfo_at_slot(const DeviceInfo *d, const char *slot);
/* A kernel's slot name in NVML's form ("00000000:1B:00.0"): false, and
 * out "", when slot is none. */
bool devinfo_slot_bus_id(const char *slot, char *out, size_t len);
/* "16x8x16 fp16*fp16+fp32->fp32 (subgroup)" */
void devinfo_coopmat_str(const CoopMatShape *s, char *out, size_t len);
/* The --list --verbose facts of one entry (indented lines, each ending in a
 * newline) into out, cut to fit len; returns the length written. */
size_t devinfo_details(const DeviceInfo *d, char *out, size_t len);
/* An AMD device's compute units from what VK_AMD_shader_core_properties
 * (engines x arrays x CUs an array: the design's) and ..._properties2
 * (active: 0 where the driver lacks it) say: the active count where given,
 * since a cut-down part (RX 7900 XT: 84 of 6 x 2 x 8 = 96) has fewer. */
uint32_t devinfo_amd_cus(uint32_t engines, uint32_t arrays, uint32_t cus_per_array, uint32_t active);
/* The features workload_supported() asks about. */
WorkloadFeatures devinfo_features(const DeviceInfo *d);

#endif
