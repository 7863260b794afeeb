#include "compute.h"

#include <stdlib.h>

#include "fileio.h"

#include <string.h>
#include <time.h>

uint64_t compute_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int find_memory(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want,
                       VkMemoryPropertyFlags need)
{
	VkPhysicalDeviceMemoryProperties m;
	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	for (int pass = 0; pass < 2; pass++) {
		VkMemoryPropertyFlags f = pass == 0 ? want | need : need;
		for (uint32_t i = 0; i < m.memoryTypeCount; i++)
			if ((bits & (1u << i)) && (m.memoryTypes[i].propertyFlags & f) == f)
				return (int)i;
	}
	return -1;
}

static bool make_buffer(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
                        VkMemoryPropertyFlags want, VkMemoryPropertyFlags need,
                        VkBuffer *buf, VkDeviceMemory *mem, VkMemoryPropertyFlags *got, char *err)
{
	VkResult vk_last;
	VkBufferCreateInfo bi = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = usage,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VK_TRY(vkCreateBuffer(c->dev, &bi, NULL, buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(c->dev, *buf, &req);
	int type = find_memory(pd, req.memoryTypeBits, want, need);
	if (type < 0) {
		snprintf(err, ERR_LEN, "no memory type with flags 0x%x for a %llu-byte buffer",
		         (unsigned)need, (unsigned long long)size);
		return false;
	}
	VkPhysicalDeviceMemoryProperties m;
	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	*got = m.memoryTypes[type].propertyFlags;
	VkMemoryAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)type,
	};
	VK_TRY(vkAllocateMemory(c->dev, &ai, NULL, mem));
	VK_TRY(vkBindBufferMemory(c->dev, *buf, *mem, 0));
	return true;
fail:
	(void)vk_last;
	return false;
}

bool compute_create(Compute *c, const VkCtx *ctx, const DeviceInfo *d,
                    const ComputeSetup *s, char *err)
{
	VkResult vk_last;
	memset(c, 0, sizeof *c);
	c->push_size = s->push_size;
	c->trials = s->trials ? s->trials : 1;
	c->result_size = s->result_size;
	c->fence_timeout_ns = s->fence_timeout_ns;

	VkPhysicalDevice pd = vkctx_physical(ctx, d, err);
	if (!pd)
		return false;

	float prio = 1.0f;
	VkDeviceQueueCreateInfo qi = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = d->queue_family,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkPhysicalDeviceFeatures features = { .shaderFloat64 = s->float64 };
	VkPhysicalDeviceShaderFloat16Int8Features f16 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
		.shaderFloat16 = VK_TRUE,
	};
	VkDeviceCreateInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = s->float16 ? &f16 : NULL,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qi,
		.pEnabledFeatures = &features,
	};
	VK_TRY(vkCreateDevice(pd, &di, NULL, &c->dev));
	vkGetDeviceQueue(c->dev, d->queue_family, 0, &c->queue);

	VkMemoryPropertyFlags got;
	if (!make_buffer(c, pd, s->result_size,
	                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
	                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &c->result, &c->result_mem, &got, err))
		goto fail;
	if (!make_buffer(c, pd, s->result_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                 VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &c->staging, &c->staging_mem, &got, err))
		goto fail;
	c->staging_coherent = got & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	VK_TRY(vkMapMemory(c->dev, c->staging_mem, 0, VK_WHOLE_SIZE, 0, &c->staging_map));

	VkShaderModuleCreateInfo smi = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = s->spirv_size,
		.pCode = s->spirv,
	};
	VK_TRY(vkCreateShaderModule(c->dev, &smi, NULL, &c->module));

	VkDescriptorSetLayoutBinding b = {
		.binding = 0,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.descriptorCount = 1,
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
	};
	VkDescriptorSetLayoutCreateInfo dli = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1,
		.pBindings = &b,
	};
	VK_TRY(vkCreateDescriptorSetLayout(c->dev, &dli, NULL, &c->dsl));
	VkPushConstantRange pcr = {
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		.offset = 0,
		.size = s->push_size,
	};
	VkPipelineLayoutCreateInfo pli = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &c->dsl,
		.pushConstantRangeCount = s->push_size ? 1 : 0,
		.pPushConstantRanges = &pcr,
	};
	VK_TRY(vkCreatePipelineLayout(c->dev, &pli, NULL, &c->layout));
	VkSpecializationInfo spec = {
		.mapEntryCount = s->spec_count,
		.pMapEntries = s->spec_map,
		.dataSize = s->spec_size,
		.pData = s->spec_data,
	};
	VkComputePipelineCreateInfo cpi = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = c->module,
			.pName = "main",
			.pSpecializationInfo = &spec,
		},
		.layout = c->layout,
	};
	/* the pipeline cache: a missing or foreign file only means a slower
	 * start (drivers ignore data from another device or version) */
	VkPipelineCache cache = VK_NULL_HANDLE;
	size_t clen = 0;
	char why[ERR_LEN];
	void *cdata = s->pipeline_cache ? fileio_read(s->pipeline_cache, 256u << 20, &clen, why, sizeof why) : NULL;
	VkPipelineCacheCreateInfo pcci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
		.initialDataSize = cdata ? clen : 0,
		.pInitialData = cdata,
	};
	if (s->pipeline_cache && vkCreatePipelineCache(c->dev, &pcci, NULL, &cache) != VK_SUCCESS)
		cache = VK_NULL_HANDLE;
	c->cache_loaded = cache && cdata;
	free(cdata);
	uint64_t p0 = compute_now_ns();
	VkResult pr = vkCreateComputePipelines(c->dev, cache, 1, &cpi, NULL, &c->pipeline);
	c->pipeline_ms = (double)(compute_now_ns() - p0) * 1e-6;
	if (cache) {
		size_t n = 0;
		void *out = NULL;
		if (pr == VK_SUCCESS && vkGetPipelineCacheData(c->dev, cache, &n, NULL) == VK_SUCCESS && n &&
		    (out = malloc(n)) && vkGetPipelineCacheData(c->dev, cache, &n, out) == VK_SUCCESS)
			fileio_write(s->pipeline_cache, out, n);
		free(out);
		vkDestroyPipelineCache(c->dev, cache, NULL);
	}
	VK_TRY(pr);

	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpi = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1,
		.poolSizeCount = 1,
		.pPoolSizes = &ps,
	};
	VK_TRY(vkCreateDescriptorPool(c->dev, &dpi, NULL, &c->dpool));
	VkDescriptorSetAllocateInfo dai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = c->dpool,
		.descriptorSetCount = 1,
		.pSetLayouts = &c->dsl,
	};
	VK_TRY(vkAllocateDescriptorSets(c->dev, &dai, &c->set));
	VkDescriptorBufferInfo dbi = { c->result, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = c->set,
		.dstBinding = 0,
		.descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = &dbi,
	};
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);

	VkCommandPoolCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = d->queue_family,
	};
	VK_TRY(vkCreateCommandPool(c->dev, &cpci, NULL, &c->cpool));
	VkCommandBufferAllocateInfo cbai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->cpool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = COMPUTE_SLOTS,
	};
	VK_TRY(vkAllocateCommandBuffers(c->dev, &cbai, c->cmd));

	c->timestamps = d->timestamp_valid_bits > 0;
	if (c->timestamps) {
		c->ts_mask = d->timestamp_valid_bits >= 64 ? UINT64_MAX
		                                           : (1ull << d->timestamp_valid_bits) - 1;
		c->ts_period_ns = d->timestamp_period;
		VkQueryPoolCreateInfo qpi = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = 2,
		};
		for (unsigned i = 0; i < COMPUTE_SLOTS; i++)
			VK_TRY(vkCreateQueryPool(c->dev, &qpi, NULL, &c->queries[i]));
	}
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	for (unsigned i = 0; i < COMPUTE_SLOTS; i++)
		VK_TRY(vkCreateFence(c->dev, &fci, NULL, &c->fence[i]));
	return true;
fail:
	(void)vk_last;
	compute_destroy(c);
	return false;
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
	if (c->result) vkDestroyBuffer(c->dev, c->result, NULL);
	if (c->result_mem) vkFreeMemory(c->dev, c->result_mem, NULL);
	vkDestroyDevice(c->dev, NULL);
	memset(c, 0, sizeof *c);
}

/* Makes the device's copy visible to the host where the memory is not coherent. */
static VkResult invalidate_staging(const Compute *c)
{
	if (c->staging_coherent)
		return VK_SUCCESS;
	VkMappedMemoryRange r = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = c->staging_mem,
		.size = VK_WHOLE_SIZE,
	};
	return vkInvalidateMappedMemoryRanges(c->dev, 1, &r);
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = src,
		.dstAccessMask = dst,
	};
	vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}

static bool record(Compute *c, unsigned slot, GroupCount g, const void *push, bool readback,
                   bool after_previous, char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	VkCommandBuffer cmd = c->cmd[slot];
	VK_TRY(vkResetCommandBuffer(cmd, 0));
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VK_TRY(vkBeginCommandBuffer(cmd, &bi));
	/* Only a checked dispatch resets the group counter and fills the slots:
	 * the others go straight to the shader, which keeps the device's work
	 * between two dispatches to one barrier. */
	if (after_previous) /* the previous submission's shader and copies first */
		barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
		        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
		        readback ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
		        readback ? VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT
		                 : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
	if (c->timestamps)
		vkCmdResetQueryPool(cmd, c->queries[slot], 0, 2);
	if (readback) {
		vkCmdFillBuffer(cmd, c->result, 0, 16, 0);
		vkCmdFillBuffer(cmd, c->result, 16, VK_WHOLE_SIZE, 0xffffffffu);
		barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
		        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
		        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
	}
	vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
	vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
	if (c->push_size)
		vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, c->push_size, push);
	if (c->timestamps)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->queries[slot], 0);
	for (uint32_t k = 0; k < c->trials; k++) {
		if (k) /* each trial sees the one before it finished, as a new submission would */
			barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
			        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
			        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
		vkCmdDispatch(cmd, g.x, g.y, g.z);
	}
	if (c->timestamps)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries[slot], 1);
	if (readback) {
		barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
		        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
		VkBufferCopy cp = { 0, 0, c->result_size };
		vkCmdCopyBuffer(cmd, c->result, c->staging, 1, &cp);
		barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
		        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	}
	VK_TRY(vkEndCommandBuffer(cmd));
	VK_TRY(vkResetFences(c->dev, 1, &c->fence[slot]));
	c->slot_groups[slot] = g;
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

/* Test-only fault injection: FLOPSCOPE_FAULT=KIND@N makes the N-th
 * submission fail as a driver would (device_lost, oom) or never finish
 * (timeout). Read once; unset in normal use. */
static VkResult injected_fault(uint64_t n)
{
	static int kind = -1;
	static uint64_t at;
	if (kind < 0) {
		const char *f = getenv("FLOPSCOPE_FAULT");
		char name[32];
		unsigned long long when;
		kind = 0;
		if (f && sscanf(f, "%31[a-z_]@%llu", name, &when) == 2) {
			at = when;
			kind = !strcmp(name, "device_lost") ? 1 : !strcmp(name, "oom") ? 2 : !strcmp(name, "timeout") ? 3 : 0;
		}
	}
	if (!kind || n != at)
		return VK_SUCCESS;
	return kind == 1 ? VK_ERROR_DEVICE_LOST : kind == 2 ? VK_ERROR_OUT_OF_DEVICE_MEMORY : VK_TIMEOUT;
}

static bool submit(Compute *c, unsigned slot, char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	VkResult fault = injected_fault(++c->submissions);
	if (fault == VK_TIMEOUT) { /* as if the dispatch never finished */
		GroupCount g = c->slot_groups[slot];
		snprintf(err, ERR_LEN, "the device did not finish a dispatch of %u x %u x %u groups "
		         "within %.1f s (vkWaitForFences: VK_TIMEOUT)", g.x, g.y, g.z,
		         (double)c->fence_timeout_ns * 1e-9);
		*vr = VK_TIMEOUT;
		return false;
	}
	if (fault != VK_SUCCESS) {
		snprintf(err, ERR_LEN, "vkQueueSubmit failed: %s (injected by FLOPSCOPE_FAULT)", vk_result_str(fault));
		*vr = fault;
		return false;
	}
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &c->cmd[slot],
	};
	VK_TRY(vkQueueSubmit(c->queue, 1, &si, c->fence[slot]));
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

/* Waits for the slot's fence (bounded) and reads its timestamps. */
static bool finish(Compute *c, unsigned slot, bool readback, bool pipelined, DispatchTiming *t,
                   char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	GroupCount g = c->slot_groups[slot];
	VkResult w = vkWaitForFences(c->dev, 1, &c->fence[slot], VK_TRUE, c->fence_timeout_ns);
	if (w == VK_TIMEOUT) {
		snprintf(err, ERR_LEN, "the device did not finish a dispatch of %u x %u x %u groups "
		         "within %.1f s (vkWaitForFences: VK_TIMEOUT)", g.x, g.y, g.z,
		         (double)c->fence_timeout_ns * 1e-9);
		vk_last = w;
		goto fail;
	}
	VK_TRY(w);
	if (c->timestamps) {
		uint64_t ts[2];
		VK_TRY(vkGetQueryPoolResults(c->dev, c->queries[slot], 0, 2, sizeof ts, ts, sizeof ts[0],
		                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
		uint64_t start = ts[0];
		/* queued behind the previous dispatch: it began when that one ended */
		if (pipelined && c->have_last_end && ((c->last_end_tick - start) & c->ts_mask) < (c->ts_mask >> 1))
			start = c->last_end_tick;
		uint64_t ticks = (ts[1] - start) & c->ts_mask;
		t->gpu_ns = (uint64_t)((double)ticks * c->ts_period_ns + 0.5);
		t->gpu_end_ns = (uint64_t)((double)(ts[1] & c->ts_mask) * c->ts_period_ns);
		t->gpu_valid = true;
		c->last_end_tick = ts[1];
		c->have_last_end = true;
	}
	if (readback)
		VK_TRY(invalidate_staging(c));
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

bool compute_dispatch(Compute *c, GroupCount g, const void *push, bool readback,
                      DispatchTiming *t, VkResult *vr, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	memset(t, 0, sizeof *t);
	if (!record(c, 0, g, push, readback, false, err, vr))
		return false;
	/* Gridwise's CPU timing: idle queue, clock, submit, wait, clock. */
	VK_TRY(vkQueueWaitIdle(c->queue));
	uint64_t t0 = compute_now_ns();
	if (!submit(c, 0, err, vr))
		return false;
	bool ok = finish(c, 0, readback, false, t, err, vr);
	t->cpu_ns = compute_now_ns() - t0;
	return ok;
fail:
	*vr = vk_last;
	return false;
}

bool compute_read_back(Compute *c, VkResult *vr, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	VkCommandBuffer cmd = c->cmd[0];
	VK_TRY(vkResetCommandBuffer(cmd, 0));
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VK_TRY(vkBeginCommandBuffer(cmd, &bi));
	barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
	        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferCopy cp = { 0, 0, c->result_size };
	vkCmdCopyBuffer(cmd, c->result, c->staging, 1, &cp);
	barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	VK_TRY(vkEndCommandBuffer(cmd));
	VK_TRY(vkResetFences(c->dev, 1, &c->fence[0]));
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	VK_TRY(vkQueueSubmit(c->queue, 1, &si, c->fence[0]));
	VK_TRY(vkWaitForFences(c->dev, 1, &c->fence[0], VK_TRUE, c->fence_timeout_ns));
	VK_TRY(invalidate_staging(c));
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

bool compute_submit(Compute *c, unsigned slot, GroupCount g, const void *push, bool readback,
                    VkResult *vr, char *err)
{
	return record(c, slot, g, push, readback, true, err, vr) && submit(c, slot, err, vr);
}

bool compute_wait(Compute *c, unsigned slot, bool readback, DispatchTiming *t, VkResult *vr, char *err)
{
	memset(t, 0, sizeof *t);
	return finish(c, slot, readback, true, t, err, vr);
}

const void *compute_results(const Compute *c)
{
	return c->staging_map;
}
