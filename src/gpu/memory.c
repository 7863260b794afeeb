/* memory: memory types by class, buffers, the memory workloads' source
 * pattern and checked regions. */
#include "gpu_impl.h"

#include <string.h>

int gpu_find_memory(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want,
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

/* The memory type of a class among those allowed by bits (mem_pick_class;
 * Vulkan's flag values are the ones it names). -1 if none. */
int gpu_pick_class(const VkPhysicalDeviceMemoryProperties *m, uint32_t bits, MemClass cls)
{
	_Static_assert(MEM_FLAG_DEVICE_LOCAL == VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT &&
	               MEM_FLAG_HOST_VISIBLE == VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT &&
	               MEM_FLAG_HOST_COHERENT == VK_MEMORY_PROPERTY_HOST_COHERENT_BIT &&
	               MEM_FLAG_HOST_CACHED == VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "Vulkan's flag values");
	uint32_t flags[VK_MAX_MEMORY_TYPES];
	for (uint32_t i = 0; i < m->memoryTypeCount; i++)
		flags[i] = m->memoryTypes[i].propertyFlags;
	return mem_pick_class(flags, m->memoryTypeCount, bits, cls);
}

/* A buffer with its own memory of type `type` (or, with type < 0, found
 * with want/need). */
bool gpu_make_buffer_of(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
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
	VK_TRY(err, vk_last, vkCreateBuffer(c->dev, &bi, NULL, buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(c->dev, *buf, &req);
	if (type < 0)
		type = gpu_find_memory(pd, req.memoryTypeBits, want, need);
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
	VK_TRY(err, vk_last, vkBindBufferMemory(c->dev, *buf, *mem, 0));
	return true;
fail:
	(void)vk_last;
	return false;
}

bool gpu_make_buffer(Compute *c, VkPhysicalDevice pd, VkDeviceSize size, VkBufferUsageFlags usage,
                        VkMemoryPropertyFlags want, VkMemoryPropertyFlags need,
                        VkBuffer *buf, VkDeviceMemory *mem, VkMemoryPropertyFlags *got, char *err)
{
	return gpu_make_buffer_of(c, pd, size, usage, -1, want, need, buf, mem, got, err);
}

/* The type a class gets for a buffer of these usages: asks with a probe
 * buffer (memoryTypeBits depend on the usage, not the size). */
int gpu_class_type(VkDevice dev, const VkPhysicalDeviceMemoryProperties *m, VkBufferUsageFlags usage,
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
	return gpu_pick_class(m, req.memoryTypeBits, cls);
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
	int st = gpu_pick_class(&m, ~0u, w->src), dt = gpu_pick_class(&m, ~0u, w->dst);
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

/* The words of a buffer, `n` from word `first` on. */
typedef void (*WordFill)(const void *ctx, uint64_t first, uint32_t *out, size_t n);

/* Writes `total` bytes of words into a buffer: through its mapping where
 * the host sees it (flags), else through a host-visible buffer, 16 MiB at a
 * time, each piece made visible to whatever reads the buffer later in
 * submission order. */
static bool upload(Compute *c, VkPhysicalDevice pd, VkBuffer buf, VkDeviceMemory mem, VkMemoryPropertyFlags flags,
                   VkDeviceSize total, WordFill fill, const void *ctx, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	VkBuffer up = VK_NULL_HANDLE;
	VkDeviceMemory upm = VK_NULL_HANDLE;
	void *map = NULL;
	if (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
		VK_TRY(err, vk_last, vkMapMemory(c->dev, mem, 0, VK_WHOLE_SIZE, 0, &map));
		fill(ctx, 0, map, total / 4);
		VkMappedMemoryRange r = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = mem,
			.size = VK_WHOLE_SIZE,
		};
		if (!(flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
			VK_TRY(err, vk_last, vkFlushMappedMemoryRanges(c->dev, 1, &r));
		vkUnmapMemory(c->dev, mem);
		return true;
	}
	VkDeviceSize piece = total < (16u << 20) ? total : (16u << 20);
	VkMemoryPropertyFlags got;
	if (!gpu_make_buffer(c, pd, piece, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0,
	                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &up, &upm,
	                 &got, err))
		goto fail;
	VK_TRY(err, vk_last, vkMapMemory(c->dev, upm, 0, VK_WHOLE_SIZE, 0, &map));
	for (VkDeviceSize off = 0; off < total; off += piece) {
		VkDeviceSize n = total - off < piece ? total - off : piece;
		fill(ctx, off / 4, map, n / 4);
		VkCommandBuffer cmd = c->cmd[0];
		VK_TRY(err, vk_last, gpu_begin_once(cmd));
		VkBufferCopy cp = { 0, off, n };
		vkCmdCopyBuffer(cmd, up, buf, 1, &cp);
		gpu_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
		        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
		VK_TRY(err, vk_last, gpu_end_submit_wait(c, cmd));
	}
	VK_TRY(err, vk_last, vkResetFences(c->dev, 1, &c->fence[0]));
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

/* the source pattern: ctx is the data's bytes */
static void source_words(const void *ctx, uint64_t first, uint32_t *out, size_t n)
{
	uint64_t data = *(const VkDeviceSize *)ctx;
	for (size_t i = 0; i < n; i++)
		out[i] = mem_src_word(first + i, data);
}

/* The source pattern (mem_src_word: the data, then the copies' numbers). */
bool gpu_fill_source(Compute *c, VkPhysicalDevice pd, char *err)
{
	return upload(c, pd, c->src, c->src_mem, c->src_flags, c->mem_bytes + MEM_MARKS_BYTES, source_words,
	              &c->mem_bytes, err);
}

/* A workload's input buffer: device-local, where its storage buffer can be. */
bool gpu_make_input(Compute *c, VkPhysicalDevice pd, const ComputeInput *in, char *err)
{
	c->input_size = in->size;
	return gpu_make_buffer(c, pd, in->size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                       VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, &c->input, &c->input_mem, &c->input_flags, err);
}

/* ... filled once, before the first dispatch. */
bool gpu_fill_input(Compute *c, VkPhysicalDevice pd, const ComputeInput *in, char *err)
{
	return upload(c, pd, c->input, c->input_mem, c->input_flags, in->size, in->fill, in->ctx, err);
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

const uint32_t *compute_marks(const Compute *c)
{
	if (c->dst_map)
		return (const uint32_t *)((const char *)c->dst_map + c->mem_bytes);
	return (const uint32_t *)((const char *)c->staging_map + c->marks_off);
}
