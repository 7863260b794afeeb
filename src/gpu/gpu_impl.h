/* gpu_impl: what the files of the GPU layer share; no other layer includes it. */
#ifndef FLOPSCOPE_GPU_IMPL_H
#define FLOPSCOPE_GPU_IMPL_H

#include "compute.h"
#include "vk_khr.h"

/* features.c: the device features of core's devfeat table, as Vulkan has
 * them. A chain holds the feature structures that follow
 * VkPhysicalDeviceFeatures2 or VkDeviceCreateInfo. */
#define GPU_FEAT_STRUCTS 8  /* structures the table knows, at most */
#define GPU_FEAT_BLOCK 64    /* bytes of the largest */
typedef struct GpuFeatChain {
	_Alignas(8) unsigned char block[GPU_FEAT_STRUCTS][GPU_FEAT_BLOCK];
	bool used[GPU_FEAT_STRUCTS];
} GpuFeatChain;
/* Puts in front of *head every structure a device of version api listing
 * the next extensions exts can fill. */
void gpu_features_query_chain(GpuFeatChain *ch, uint32_t api, const char *const *exts, uint32_t next, void **head);
/* After vkGetPhysicalDeviceFeatures2: the FEAT() bits whose members are all on. */
uint32_t gpu_features_read(GpuFeatChain *ch, VkPhysicalDeviceFeatures *core);
/* For vkCreateDevice: turns on the members of the features want (in core
 * and in structures put in front of *head) and writes the extensions they
 * need into exts (at most cap); returns how many. */
uint32_t gpu_features_enable(GpuFeatChain *ch, uint32_t want, VkPhysicalDeviceFeatures *core, void **head,
                             const char **exts, uint32_t cap);

/* memory.c */
int gpu_find_memory(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want,
                    VkMemoryPropertyFlags need);
int gpu_pick_class(const VkPhysicalDeviceMemoryProperties *m, uint32_t bits, MemClass cls);
bool gpu_make_buffer_of(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
                        int type, VkMemoryPropertyFlags want, VkMemoryPropertyFlags need,
                        VkBuffer *buf, VkDeviceMemory *mem, VkMemoryPropertyFlags *got, char *err);
bool gpu_make_buffer(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
                     VkMemoryPropertyFlags want, VkMemoryPropertyFlags need,
                     VkBuffer *buf, VkDeviceMemory *mem, VkMemoryPropertyFlags *got, char *err);
int gpu_class_type(VkDevice dev, const VkPhysicalDeviceMemoryProperties *m, VkBufferUsageFlags usage,
                   MemClass cls);
bool gpu_fill_source(Compute *c, VkPhysicalDevice pd, char *err);
bool gpu_make_input(Compute *c, VkPhysicalDevice pd, const ComputeInput *in, char *err);
bool gpu_fill_input(Compute *c, VkPhysicalDevice pd, const ComputeInput *in, char *err);

/* pipeline.c */
bool gpu_pipeline_create(Compute *c, const ComputeSetup *s, char *err);
bool gpu_pipeline_build(Compute *c, const ComputeSetup *s, char *err);

/* submit.c */
bool gpu_commands_create(Compute *c, const DeviceInfo *d, char *err);
VkResult gpu_begin_once(VkCommandBuffer cmd);
VkResult gpu_end_submit_wait(Compute *c, VkCommandBuffer cmd);
VkResult gpu_invalidate_staging(const Compute *c);

#endif
