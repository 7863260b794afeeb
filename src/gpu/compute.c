#include "compute.h"
#include "clock.h"

#include <stdlib.h>

#include "fileio.h"

#include <string.h>
#include <time.h>

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

/* The memory type of a class among those allowed by bits: the required
 * flags, then the fewest surprises (device memory that the host cannot map;
 * host memory that is not device-local, and coherent memory that is not
 * cached). -1 if none. */
static int pick_class(const VkPhysicalDeviceMemoryProperties *m, uint32_t bits, MemClass cls)
{
	static const VkMemoryPropertyFlags need[MEM_CLASS_COUNT] = {
		[MEM_DEVICE] = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
		[MEM_HOST_COHERENT] = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
		[MEM_HOST_CACHED] = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
	};
	if (cls == MEM_NONE || cls >= MEM_CLASS_COUNT)
		return -1;
	int best = -1, best_score = -1;
	for (uint32_t i = 0; i < m->memoryTypeCount; i++) {
		VkMemoryPropertyFlags f = m->memoryTypes[i].propertyFlags;
		if (!(bits & (1u << i)) || (f & need[cls]) != need[cls])
			continue;
		int score = 0;
		if (cls == MEM_DEVICE && !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
			score += 2;
		if (cls != MEM_DEVICE && !(f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
			score += 2;
		if (cls == MEM_HOST_COHERENT && !(f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT))
			score += 1;
		if (score > best_score) {
			best = (int)i;
			best_score = score;
		}
	}
	return best;
}

/* A buffer with its own memory of type `type` (or, with type < 0, found
 * with want/need). */
static bool make_buffer_of(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
                           int type, VkMemoryPropertyFlags want, VkMemoryPropertyFlags need,
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
	if (type < 0)
		type = find_memory(pd, req.memoryTypeBits, want, need);
	if (type < 0 || !(req.memoryTypeBits & (1u << type))) {
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
	VkResult ar = vkAllocateMemory(c->dev, &ai, NULL, mem);
	if (ar != VK_SUCCESS) {
		snprintf(err, ERR_LEN, "vkAllocateMemory of %.1f MiB (memory type %d) failed: %s",
		         (double)req.size / 1048576.0, type, vk_result_str(ar));
		return false;
	}
	VK_TRY(vkBindBufferMemory(c->dev, *buf, *mem, 0));
	return true;
fail:
	(void)vk_last;
	return false;
}

static bool make_buffer(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
                        VkMemoryPropertyFlags want, VkMemoryPropertyFlags need,
                        VkBuffer *buf, VkDeviceMemory *mem, VkMemoryPropertyFlags *got, char *err)
{
	return make_buffer_of(c, pd, size, usage, -1, want, need, buf, mem, got, err);
}

/* The type a class gets for a buffer of these usages: asks with a probe
 * buffer (memoryTypeBits depend on the usage, not the size). */
static int class_type(VkDevice dev, const VkPhysicalDeviceMemoryProperties *m, VkBufferUsageFlags usage,
                      MemClass cls)
{
	VkBufferCreateInfo bi = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = 4096,
		.usage = usage,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkBuffer b;
	if (vkCreateBuffer(dev, &bi, NULL, &b) != VK_SUCCESS)
		return -1;
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(dev, b, &req);
	vkDestroyBuffer(dev, b, NULL);
	return pick_class(m, req.memoryTypeBits, cls);
}

static void flags_str(VkMemoryPropertyFlags f, char *out, size_t len)
{
	static const struct { VkMemoryPropertyFlags b; const char *n; } F[] = {
		{ VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "DEVICE_LOCAL" },
		{ VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "HOST_VISIBLE" },
		{ VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "HOST_COHERENT" },
		{ VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "HOST_CACHED" },
	};
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof F / sizeof *F && n < len; i++)
		if (f & F[i].b)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "|" : "", F[i].n);
}

void compute_mem_desc(const Compute *c, char *out, size_t len)
{
	char a[96], b[96];
	flags_str(c->src_flags, a, sizeof a);
	flags_str(c->dst_flags, b, sizeof b);
	snprintf(out, len, "source memory type %u (%s), destination %u (%s)", c->src_type, a, c->dst_type, b);
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst);

/* Resets cmd and begins it for one submission. */
static VkResult begin_once(VkCommandBuffer cmd)
{
	VkResult r = vkResetCommandBuffer(cmd, 0);
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	return r == VK_SUCCESS ? vkBeginCommandBuffer(cmd, &bi) : r;
}

/* Ends cmd (recorded on slot 0), submits it with slot 0's fence and waits
 * for it, bounded: for the work around the measurements. */
static VkResult end_submit_wait(Compute *c, VkCommandBuffer cmd)
{
	VkResult r = vkEndCommandBuffer(cmd);
	if (r == VK_SUCCESS)
		r = vkResetFences(c->dev, 1, &c->fence[0]);
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	if (r == VK_SUCCESS)
		r = vkQueueSubmit(c->queue, 1, &si, c->fence[0]);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(c->dev, 1, &c->fence[0], VK_TRUE, c->fence_timeout_ns);
	return r;
}

/* Writes the source pattern (mem_src_word: the data, then the copies'
 * numbers) into the source buffer: through its mapping where the host sees
 * it, else through a host-visible buffer, 16 MiB at a time. */
static bool fill_source(Compute *c, VkPhysicalDevice pd, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	VkDeviceSize total = c->mem_bytes + MEM_MARKS_BYTES;
	VkBuffer up = VK_NULL_HANDLE;
	VkDeviceMemory upm = VK_NULL_HANDLE;
	void *map = NULL;
	if (c->src_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
		VK_TRY(vkMapMemory(c->dev, c->src_mem, 0, VK_WHOLE_SIZE, 0, &map));
		uint32_t *w = map;
		for (VkDeviceSize i = 0; i < total / 4; i++)
			w[i] = mem_src_word(i, c->mem_bytes);
		VkMappedMemoryRange r = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = c->src_mem,
			.size = VK_WHOLE_SIZE,
		};
		if (!(c->src_flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
			VK_TRY(vkFlushMappedMemoryRanges(c->dev, 1, &r));
		vkUnmapMemory(c->dev, c->src_mem);
		return true;
	}
	VkDeviceSize piece = total < (16u << 20) ? total : (16u << 20);
	VkMemoryPropertyFlags got;
	if (!make_buffer(c, pd, piece, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
	                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &up, &upm,
	                 &got, err))
		goto fail;
	VK_TRY(vkMapMemory(c->dev, upm, 0, VK_WHOLE_SIZE, 0, &map));
	for (VkDeviceSize off = 0; off < total; off += piece) {
		VkDeviceSize n = total - off < piece ? total - off : piece;
		uint32_t *w = map;
		for (VkDeviceSize i = 0; i < n / 4; i++)
			w[i] = mem_src_word(off / 4 + i, c->mem_bytes);
		VkCommandBuffer cmd = c->cmd[0];
		VK_TRY(begin_once(cmd));
		VkBufferCopy cp = { 0, off, n };
		vkCmdCopyBuffer(cmd, up, c->src, 1, &cp);
		/* visible to whatever reads the source later in submission order */
		barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
		        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
		VK_TRY(end_submit_wait(c, cmd));
	}
	VK_TRY(vkResetFences(c->dev, 1, &c->fence[0]));
	vkUnmapMemory(c->dev, upm);
	vkDestroyBuffer(c->dev, up, NULL);
	vkFreeMemory(c->dev, upm, NULL);
	return true;
fail:
	(void)vk_last;
	if (map)
		vkUnmapMemory(c->dev, upm);
	if (up)
		vkDestroyBuffer(c->dev, up, NULL);
	if (upm)
		vkFreeMemory(c->dev, upm, NULL);
	return false;
}

void compute_set_copy_size(Compute *c, VkDeviceSize bytes)
{
	c->copy_size = bytes < c->mem_bytes ? bytes : c->mem_bytes;
}

void compute_set_check(Compute *c, const uint64_t *offs, size_t n)
{
	c->check_n = n < MEM_CHECK_REGIONS ? n : MEM_CHECK_REGIONS;
	memcpy(c->check_off, offs, c->check_n * sizeof *offs);
}

const uint32_t *compute_checked_regions(Compute *c)
{
	if (!c->dst_map)
		return (const uint32_t *)((const char *)c->staging_map + c->region_off);
	for (size_t i = 0; i < c->check_n; i++)
		memcpy(c->region_copy + i * (MEM_REGION / 4), (const char *)c->dst_map + c->check_off[i], MEM_REGION);
	return c->region_copy;
}

uint64_t compute_mem_limit(const VkCtx *ctx, const DeviceInfo *d, WorkloadType t, char *why, size_t len)
{
	char err[ERR_LEN];
	VkPhysicalDevice pd = vkctx_physical(ctx, d, err);
	if (!pd) {
		snprintf(why, len, "%s", err);
		return 0;
	}
	VkPhysicalDeviceMemoryProperties m;
	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	const WorkloadInfo *w = &workload_info[t];
	int st = pick_class(&m, ~0u, w->src), dt = pick_class(&m, ~0u, w->dst);
	if (st < 0 || dt < 0) {
		snprintf(why, len, "the device has no %s memory type", mem_class_names[st < 0 ? w->src : w->dst]);
		return 0;
	}
	uint64_t hs = m.memoryHeaps[m.memoryTypes[st].heapIndex].size;
	uint64_t hd = m.memoryHeaps[m.memoryTypes[dt].heapIndex].size;
	uint64_t cap = mem_cap(hs < hd ? hs : hd, d->max_alloc, w->kind == WL_COPY ? d->max_storage_range : 0);
	if (!cap)
		snprintf(why, len, "the device's heaps are too small");
	return cap;
}

const uint32_t *compute_marks(const Compute *c)
{
	if (c->dst_map)
		return (const uint32_t *)((const char *)c->dst_map + c->mem_bytes);
	return (const uint32_t *)((const char *)c->staging_map + c->marks_off);
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
	VkPhysicalDeviceHostQueryResetFeatures hqr = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
		.hostQueryReset = VK_TRUE,
	};
	VkPhysicalDeviceShaderFloat16Int8Features f16 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
		.shaderFloat16 = VK_TRUE,
	};
	/* transfer-only queues cannot reset queries in a command buffer */
	c->kind = s->kind;
	c->host_reset = s->kind == WL_TRANSFER && d->host_query_reset;
	VkPhysicalDeviceShaderIntegerDotProductFeatures idp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
		.shaderIntegerDotProduct = VK_TRUE,
	};
	void *chain = NULL;
	if (s->int_dot) {
		idp.pNext = chain;
		chain = &idp;
	}
	if (s->float16) {
		f16.pNext = chain;
		chain = &f16;
	}
	if (c->host_reset) {
		hqr.pNext = chain;
		chain = &hqr;
	}
	VkDeviceCreateInfo di = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = chain,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qi,
		.pEnabledFeatures = &features,
	};
	VK_TRY(vkCreateDevice(pd, &di, NULL, &c->dev));
	vkGetDeviceQueue(c->dev, d->queue_family, 0, &c->queue);
	if (s->kind == WL_TRANSFER && (d->queue_flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) == 0 &&
	    !c->host_reset) {
		snprintf(err, ERR_LEN, "timing a transfer-only queue needs hostQueryReset (Vulkan 1.2)");
		goto fail;
	}

	VkMemoryPropertyFlags got;
	if (s->kind != WL_TRANSFER &&
	    !make_buffer(c, pd, s->result_size,
	                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
	                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &c->result, &c->result_mem, &got, err))
		goto fail;
	/* the staging buffer: the result buffer, then (memory workloads) the
	 * checked regions and the marks */
	c->region_off = (s->kind == WL_TRANSFER ? 0 : s->result_size + 15) / 16 * 16;
	c->marks_off = c->region_off + MEM_CHECK_REGIONS * MEM_REGION;
	VkDeviceSize staging_size = s->kind == WL_FMA ? s->result_size
	                          : s->kind == WL_COPY ? c->marks_off : c->marks_off + MEM_MARKS_BYTES;
	if (!make_buffer(c, pd, staging_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                 VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, &c->staging, &c->staging_mem, &got, err))
		goto fail;
	c->staging_coherent = got & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	VK_TRY(vkMapMemory(c->dev, c->staging_mem, 0, VK_WHOLE_SIZE, 0, &c->staging_map));

	if (s->kind != WL_FMA) {
		VkPhysicalDeviceMemoryProperties m;
		vkGetPhysicalDeviceMemoryProperties(pd, &m);
		VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
		                           (s->kind == WL_COPY ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : 0);
		int st = class_type(c->dev, &m, usage, s->src_mem), dt = class_type(c->dev, &m, usage, s->dst_mem);
		if (st < 0 || dt < 0) {
			snprintf(err, ERR_LEN, "the device has no %s memory type for these buffers",
			         mem_class_names[st < 0 ? s->src_mem : s->dst_mem]);
			goto fail;
		}
		c->mem_bytes = s->mem_bytes;
		c->copy_size = s->mem_bytes;
		c->src_type = (uint32_t)st;
		c->dst_type = (uint32_t)dt;
		VkDeviceSize total = s->mem_bytes + MEM_MARKS_BYTES;
		if (!make_buffer_of(c, pd, total, usage, st, 0, 0, &c->src, &c->src_mem, &c->src_flags, err) ||
		    !make_buffer_of(c, pd, total, usage, dt, 0, 0, &c->dst, &c->dst_mem, &c->dst_flags, err))
			goto fail;
		if (c->dst_flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
			VK_TRY(vkMapMemory(c->dev, c->dst_mem, 0, VK_WHOLE_SIZE, 0, &c->dst_map));
			c->dst_coherent = c->dst_flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
		}
	}
	if (s->kind == WL_TRANSFER)
		goto commands;

	VkShaderModuleCreateInfo smi = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = s->spirv_size,
		.pCode = s->spirv,
	};
	VK_TRY(vkCreateShaderModule(c->dev, &smi, NULL, &c->module));

	uint32_t nbind = s->kind == WL_COPY ? 3 : 1; /* result; copy: source, destination */
	VkDescriptorSetLayoutBinding b[3];
	for (uint32_t i = 0; i < 3; i++)
		b[i] = (VkDescriptorSetLayoutBinding){
			.binding = i,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.descriptorCount = 1,
			.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		};
	VkDescriptorSetLayoutCreateInfo dli = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = nbind,
		.pBindings = b,
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
	uint64_t p0 = clock_mono_ns();
	VkResult pr = vkCreateComputePipelines(c->dev, cache, 1, &cpi, NULL, &c->pipeline);
	c->pipeline_ms = (double)(clock_mono_ns() - p0) * 1e-6;
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

	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nbind };
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
	VkDescriptorBufferInfo dbi[3] = {
		{ c->result, 0, VK_WHOLE_SIZE },
		{ c->src, 0, c->mem_bytes },
		{ c->dst, 0, c->mem_bytes },
	};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = c->set,
		.dstBinding = 0,
		.descriptorCount = nbind,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = dbi,
	};
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);

commands:;

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
	if (s->kind != WL_FMA && !fill_source(c, pd, err))
		goto fail;
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
	if (c->dst_map) vkUnmapMemory(c->dev, c->dst_mem);
	if (c->src) vkDestroyBuffer(c->dev, c->src, NULL);
	if (c->src_mem) vkFreeMemory(c->dev, c->src_mem, NULL);
	if (c->dst) vkDestroyBuffer(c->dev, c->dst, NULL);
	if (c->dst_mem) vkFreeMemory(c->dev, c->dst_mem, NULL);
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

/* Fills the checked regions of the destination (and, for transfers, the
 * marks) with 0xffffffff, so that what is read back was written now. */
static void fill_checked(Compute *c, VkCommandBuffer cmd, uint32_t copies)
{
	for (size_t i = 0; i < c->check_n; i++)
		vkCmdFillBuffer(cmd, c->dst, c->check_off[i], MEM_REGION, 0xffffffffu);
	if (c->kind == WL_TRANSFER)
		vkCmdFillBuffer(cmd, c->dst, c->mem_bytes, 4ull * (copies + 1), 0xffffffffu);
}

/* Copies the checked regions (and the marks) to staging, or, where the host
 * sees the destination, only makes the writes visible to it. */
static void read_checked(Compute *c, VkCommandBuffer cmd, VkPipelineStageFlags after, uint32_t copies)
{
	VkAccessFlags wrote = after == VK_PIPELINE_STAGE_TRANSFER_BIT ? VK_ACCESS_TRANSFER_WRITE_BIT
	                                                              : VK_ACCESS_SHADER_WRITE_BIT;
	if (c->dst_map) {
		barrier(cmd, after, wrote, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
		return;
	}
	barrier(cmd, after, wrote, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferCopy cp[MEM_CHECK_REGIONS + 1];
	uint32_t n = 0;
	for (size_t i = 0; i < c->check_n; i++)
		cp[n++] = (VkBufferCopy){ c->check_off[i], c->region_off + i * MEM_REGION, MEM_REGION };
	if (c->kind == WL_TRANSFER)
		cp[n++] = (VkBufferCopy){ c->mem_bytes, c->marks_off, 4ull * (copies + 1) };
	if (n)
		vkCmdCopyBuffer(cmd, c->dst, c->staging, n, cp);
}

static bool record(Compute *c, unsigned slot, GroupCount g, const void *push, bool readback,
                   bool after_previous, char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	VkCommandBuffer cmd = c->cmd[slot];
	VK_TRY(begin_once(cmd));
	const bool xfer = c->kind == WL_TRANSFER;
	/* transfers use transfer stages only: they may run on a copy engine */
	const VkPipelineStageFlags work = xfer ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
	const VkAccessFlags work_rw = xfer ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT
	                                   : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
	const uint32_t copies = g.x;
	/* Only a checked dispatch resets the group counter and fills the slots:
	 * the others go straight to the shader, which keeps the device's work
	 * between two dispatches to one barrier. */
	if (after_previous) /* the previous submission's work and copies first */
		barrier(cmd, work | VK_PIPELINE_STAGE_TRANSFER_BIT,
		        (xfer ? 0 : VK_ACCESS_SHADER_WRITE_BIT) | VK_ACCESS_TRANSFER_WRITE_BIT,
		        readback ? VK_PIPELINE_STAGE_TRANSFER_BIT : work,
		        readback ? VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT : work_rw);
	if (c->timestamps && !c->host_reset)
		vkCmdResetQueryPool(cmd, c->queries[slot], 0, 2);
	if (c->timestamps && c->host_reset)
		vkResetQueryPool(c->dev, c->queries[slot], 0, 2);
	if (readback) {
		if (c->kind == WL_FMA) {
			vkCmdFillBuffer(cmd, c->result, 0, 16, 0);
			vkCmdFillBuffer(cmd, c->result, 16, VK_WHOLE_SIZE, 0xffffffffu);
		} else {
			if (c->kind == WL_COPY)
				vkCmdFillBuffer(cmd, c->result, 0, 16, 0);
			fill_checked(c, cmd, copies);
		}
		barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, work, work_rw);
	}
	if (!xfer) {
		vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
		vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
		if (c->push_size)
			vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, c->push_size, push);
	}
	if (c->timestamps)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->queries[slot], 0);
	if (xfer) {
		/* copies one after another, each with its mark: copy k carries the
		 * source's number k+1 into the destination's word k after the data */
		/* Each copy reads the next copy_size slot of the source buffer
		 * (round its mem_bytes): a GPU's L2 caches host memory too, and
		 * copying one small source again and again would measure it. */
		uint64_t slots = c->mem_bytes / c->copy_size;
		for (uint32_t k = 0; k < copies; k++) {
			if (k)
				barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
				        VK_PIPELINE_STAGE_TRANSFER_BIT,
				        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
			uint64_t from = (c->rotation++ % slots) * c->copy_size;
			if (readback && k + 1 == copies)
				c->check_src = from;
			VkBufferCopy cp[2] = {
				{ from, 0, c->copy_size },
				{ c->mem_bytes + 4ull * k, c->mem_bytes + 4ull * k, 4 },
			};
			vkCmdCopyBuffer(cmd, c->src, c->dst, 2, cp);
		}
	} else {
		for (uint32_t k = 0; k < c->trials; k++) {
			if (k) /* each trial sees the one before it finished, as a new submission would */
				barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
				        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
				        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
			vkCmdDispatch(cmd, g.x, g.y, g.z);
		}
	}
	if (c->timestamps)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries[slot], 1);
	if (readback) {
		if (c->kind != WL_TRANSFER) {
			barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
			        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
			VkBufferCopy cp = { 0, 0, c->kind == WL_FMA ? c->result_size : 16 };
			vkCmdCopyBuffer(cmd, c->result, c->staging, 1, &cp);
		}
		if (c->kind != WL_FMA)
			read_checked(c, cmd, work, copies);
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
	if (readback && c->dst_map && !c->dst_coherent) {
		VkMappedMemoryRange r = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = c->dst_mem,
			.size = VK_WHOLE_SIZE,
		};
		VK_TRY(vkInvalidateMappedMemoryRanges(c->dev, 1, &r));
	}
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
	uint64_t t0 = clock_mono_ns();
	if (!submit(c, 0, err, vr))
		return false;
	bool ok = finish(c, 0, readback, false, t, err, vr);
	t->cpu_ns = clock_mono_ns() - t0;
	return ok;
fail:
	*vr = vk_last;
	return false;
}

bool compute_read_back(Compute *c, VkResult *vr, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	VkCommandBuffer cmd = c->cmd[0];
	VK_TRY(begin_once(cmd));
	barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
	        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferCopy cp = { 0, 0, c->result_size };
	vkCmdCopyBuffer(cmd, c->result, c->staging, 1, &cp);
	barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	VK_TRY(end_submit_wait(c, cmd));
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
