/* compute: one logical device with its buffers, pipeline and submission
 * slots, built in named steps (device, buffers, pipeline, commands, the
 * source pattern) that compute_destroy takes apart even half-built. */
#include "gpu_impl.h"

#include <stdlib.h>
#include <string.h>

/* The logical device with one queue of the entry's family and the features
 * the workload needs. */
static bool create_device(Compute *c, VkPhysicalDevice pd, const DeviceInfo *d, const ComputeSetup *s,
                          char *err)
{
	VkResult vk_last;
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qi = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = d->queue_family,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	/* transfer-only queues cannot reset queries in a command buffer */
	c->host_reset = s->rec->transfer_only && (d->features & FEAT(FEAT_HOST_QUERY_RESET));
	VkPhysicalDeviceFeatures features = { 0 };
	GpuFeatChain fch;
	void *chain = NULL;
	const char *ext[2 * FEAT_COUNT];
	uint32_t next = gpu_features_enable(&fch, s->features | (c->host_reset ? FEAT(FEAT_HOST_QUERY_RESET) : 0),
	                                    &features, &chain, ext, sizeof ext / sizeof *ext);
	VkDeviceCreateInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = chain,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qi,
		.pEnabledFeatures = &features,
		.enabledExtensionCount = next,
		.ppEnabledExtensionNames = ext,
	};
	VK_TRY(err, vk_last, vkCreateDevice(pd, &di, NULL, &c->dev));
	vkGetDeviceQueue(c->dev, d->queue_family, 0, &c->queue);
	if (s->rec->transfer_only && (d->queue_flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) == 0 &&
	    !c->host_reset) {
		snprintf(err, ERR_LEN, "timing a transfer-only queue needs hostQueryReset (Vulkan 1.2)");
		return false;
	}

	return true;
fail:
	(void)vk_last;
	return false;
}

/* The result buffer (arithmetic and the copy shader), the staging buffer
 * the host reads checks from, a workload's input buffer, and the memory
 * workloads' source and destination in the memory classes their workload
 * names. */
static bool create_buffers(Compute *c, VkPhysicalDevice pd, const ComputeSetup *s, char *err)
{
	VkResult vk_last;
	VkMemoryPropertyFlags got;
	if (s->result_size &&
	    !gpu_make_buffer(c, pd, s->result_size,
	                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
	                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &c->result, &c->result_mem, &got, err))
		return false;
	/* the staging buffer: the result buffer, then (memory workloads) the
	 * checked regions and the marks */
	const bool mem = s->src_mem != MEM_NONE;
	c->region_off = (s->result_size + 15) / 16 * 16;
	c->marks_off = c->region_off + MEM_CHECK_REGIONS * MEM_REGION;
	VkDeviceSize staging_size = !mem ? s->result_size : s->marks ? c->marks_off + MEM_MARKS_BYTES : c->marks_off;
	if (!gpu_make_buffer(c, pd, staging_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                 VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &c->staging, &c->staging_mem, &got, err))
		return false;
	c->staging_coherent = got & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	VK_TRY(err, vk_last, vkMapMemory(c->dev, c->staging_mem, 0, VK_WHOLE_SIZE, 0, &c->staging_map));

	if (s->input.size && mem) {
		snprintf(err, ERR_LEN, "a workload with a source and a destination has no input buffer");
		return false;
	}
	if (s->input.size && !gpu_make_input(c, pd, &s->input, err))
		return false;
	if (mem) {
		VkPhysicalDeviceMemoryProperties m;
		vkGetPhysicalDeviceMemoryProperties(pd, &m);
		VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
		                           (s->spirv || s->later.wait ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : 0);
		int st = gpu_class_type(c->dev, &m, usage, s->src_mem), dt = gpu_class_type(c->dev, &m, usage, s->dst_mem);
		if (st < 0 || dt < 0) {
			snprintf(err, ERR_LEN, "the device has no %s memory type for these buffers",
			         mem_class_names[st < 0 ? s->src_mem : s->dst_mem]);
			return false;
		}
		c->mem_bytes = s->mem_bytes;
		c->copy_size = s->mem_bytes;
		c->src_type = (uint32_t)st;
		c->dst_type = (uint32_t)dt;
		VkDeviceSize total = s->mem_bytes + MEM_MARKS_BYTES;
		if (!gpu_make_buffer_of(c, pd, total, usage, st, 0, 0, &c->src, &c->src_mem, &c->src_flags, err) ||
		    !gpu_make_buffer_of(c, pd, total, usage, dt, 0, 0, &c->dst, &c->dst_mem, &c->dst_flags, err))
			return false;
		if (c->dst_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
			VK_TRY(err, vk_last, vkMapMemory(c->dev, c->dst_mem, 0, VK_WHOLE_SIZE, 0, &c->dst_map));
			c->dst_coherent = c->dst_flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
		}
	}
	return true;
fail:
	(void)vk_last;
	return false;
}

bool compute_create(Compute *c, const VkCtx *ctx, const DeviceInfo *d,
                    const ComputeSetup *s, char *err)
{
	memset(c, 0, sizeof *c);
	c->push_size = s->push_size;
	c->trials = s->trials ? s->trials : 1;
	c->result_size = s->result_size;
	c->fence_timeout_ns = s->fence_timeout_ns;
	c->rec = s->rec;
	c->marks = s->marks;
	c->push_sequence = s->push_sequence && s->push_size >= 4;
#ifdef FLOPSCOPE_TEST_HOOKS /* the test build's alone ($(B)/flopscope-test): the product has no such hook */
	compute_fault_parse(c, getenv("FLOPSCOPE_FAULT"), s->ordinal);
#endif

	VkPhysicalDevice pd = vkctx_physical(ctx, d, err);
	if (!pd)
		return false;
	/* the SPIR-V that was compiled meanwhile: taken before the pipeline */
	ComputeSetup now = *s;
	if (!create_device(c, pd, d, s, err) || !create_buffers(c, pd, s, err) ||
	    (!now.spirv && now.later.wait &&
	     !now.later.wait(now.later.ctx, &now.spirv, &now.spirv_size, &now.pipeline_cache, err)) ||
	    (now.spirv && !gpu_pipeline_create(c, &now, err)) ||
	    !gpu_commands_create(c, d, err) ||
	    (s->src_mem != MEM_NONE && !gpu_fill_source(c, pd, err)) ||
	    (s->input.size && !gpu_fill_input(c, pd, &s->input, err))) {
		compute_destroy(c);
		return false;
	}
	return true;
}

bool compute_build_pipeline(const VkCtx *ctx, const DeviceInfo *d, const ComputeSetup *s, char *err)
{
	Compute c;
	memset(&c, 0, sizeof c);
	c.rec = s->rec;
	VkPhysicalDevice pd = vkctx_physical(ctx, d, err);
	if (!pd)
		return false;
	bool ok = create_device(&c, pd, d, s, err) && gpu_pipeline_build(&c, s, err);
	compute_destroy(&c);
	return ok;
}

void compute_destroy(Compute *c)
{
	if (!c->dev)
		return;
	/* Nothing may be in flight when objects go; a lost device answers
	 * with an error here, which changes nothing about the cleanup. */
	(void)vkDeviceWaitIdle(c->dev);
	for (unsigned i = 0; i < COMPUTE_SLOTS; i++) {
		if (c->fence[i]) vkDestroyFence(c->dev, c->fence[i], NULL);
		if (c->queries[i]) vkDestroyQueryPool(c->dev, c->queries[i], NULL);
	}
	if (c->cpool) vkDestroyCommandPool(c->dev, c->cpool, NULL);
	if (c->dpool) vkDestroyDescriptorPool(c->dev, c->dpool, NULL);
	if (c->pipeline) vkDestroyPipeline(c->dev, c->pipeline, NULL);
	if (c->layout) vkDestroyPipelineLayout(c->dev, c->layout, NULL);
	if (c->dsl) vkDestroyDescriptorSetLayout(c->dev, c->dsl, NULL);
	if (c->module) vkDestroyShaderModule(c->dev, c->module, NULL);
	if (c->staging_map) vkUnmapMemory(c->dev, c->staging_mem);
	if (c->staging) vkDestroyBuffer(c->dev, c->staging, NULL);
	if (c->staging_mem) vkFreeMemory(c->dev, c->staging_mem, NULL);
	if (c->dst_map) vkUnmapMemory(c->dev, c->dst_mem);
	if (c->src) vkDestroyBuffer(c->dev, c->src, NULL);
	if (c->src_mem) vkFreeMemory(c->dev, c->src_mem, NULL);
	if (c->dst) vkDestroyBuffer(c->dev, c->dst, NULL);
	if (c->dst_mem) vkFreeMemory(c->dev, c->dst_mem, NULL);
	if (c->input) vkDestroyBuffer(c->dev, c->input, NULL);
	if (c->input_mem) vkFreeMemory(c->dev, c->input_mem, NULL);
	if (c->result) vkDestroyBuffer(c->dev, c->result, NULL);
	if (c->result_mem) vkFreeMemory(c->dev, c->result_mem, NULL);
	vkDestroyDevice(c->dev, NULL);
	memset(c, 0, sizeof *c);
}
