/* gpu_impl: what the files of the GPU layer share; no other layer includes it. */
#ifndef FLOPSCOPE_GPU_IMPL_H
#define FLOPSCOPE_GPU_IMPL_H

#include "compute.h"
#include "vk_khr.h"

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

/* pipeline.c */
bool gpu_pipeline_create(Compute *c, const ComputeSetup *s, char *err);

/* submit.c */
bool gpu_commands_create(Compute *c, const DeviceInfo *d, char *err);
VkResult gpu_begin_once(VkCommandBuffer cmd);
VkResult gpu_end_submit_wait(Compute *c, VkCommandBuffer cmd);
VkResult gpu_invalidate_staging(const Compute *c);

#endif
