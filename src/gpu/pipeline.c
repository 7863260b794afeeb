/* pipeline: the compute pipeline and its cache. */
#include "gpu_impl.h"

#include <stdlib.h>

#include "clock.h"
#include "fileio.h"
#include "shader.h"

/* The shader module, the descriptor set layout (the result; with a source
 * and a destination, the copy shader's, them too) and the pipeline layout. */
static bool create_layouts(Compute *c, const ComputeSetup *s, uint32_t nbind, char *err)
{
	VkResult vk_last;
	VkShaderModuleCreateInfo smi = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = s->spirv_size,
		.pCode = s->spirv,
	};
	VK_TRY(err, vk_last, vkCreateShaderModule(c->dev, &smi, NULL, &c->module));
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
	VK_TRY(err, vk_last, vkCreateDescriptorSetLayout(c->dev, &dli, NULL, &c->dsl));
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
	VK_TRY(err, vk_last, vkCreatePipelineLayout(c->dev, &pli, NULL, &c->layout));
	return true;
fail:
	(void)vk_last;
	return false;
}

/* The compute pipeline, through the pipeline cache file when one is named:
 * a missing or foreign file only means a slower start (drivers ignore data
 * from another device or version); the cache is written back after. */
static bool create_pipeline(Compute *c, const ComputeSetup *s, char *err)
{
	VkResult vk_last;
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
	VkPipelineCache cache = VK_NULL_HANDLE;
	size_t clen = 0, plen = 0;
	char why[ERR_LEN];
	/* the driver's data, framed with its length and checksum: a damaged
	 * file is not handed to the driver (a flipped bit failed every run) */
	void *cdata = s->pipeline_cache && !s->cache_refresh
	                  ? fileio_read(s->pipeline_cache, 256u << 20, &clen, why, sizeof why) : NULL;
	const void *pdata = cdata ? shader_cache_unframe(SHADER_CACHE_PIPELINE, 0, cdata, clen, &plen, why, sizeof why)
	                          : NULL;
	if (cdata && !pdata)
		snprintf(c->cache_note, sizeof c->cache_note, "the pipeline cache entry was not used: %.100s", why);
	VkPipelineCacheCreateInfo pcci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
		.initialDataSize = pdata ? plen : 0,
		.pInitialData = pdata,
	};
	if (s->pipeline_cache && vkCreatePipelineCache(c->dev, &pcci, NULL, &cache) != VK_SUCCESS)
		cache = VK_NULL_HANDLE;
	c->cache_loaded = cache && pdata;
	free(cdata);
	uint64_t p0 = clock_mono_ns();
	VkResult pr = vkCreateComputePipelines(c->dev, cache, 1, &cpi, NULL, &c->pipeline);
	c->pipeline_ms = (double)(clock_mono_ns() - p0) * 1e-6;
	if (cache) {
		size_t n = 0;
		void *out = NULL;
		void *framed = NULL;
		size_t fn;
		if (pr == VK_SUCCESS && vkGetPipelineCacheData(c->dev, cache, &n, NULL) == VK_SUCCESS && n &&
		    (out = malloc(n)) && vkGetPipelineCacheData(c->dev, cache, &n, out) == VK_SUCCESS &&
		    (framed = shader_cache_frame(SHADER_CACHE_PIPELINE, 0, out, n, &fn)))
			fileio_write(s->pipeline_cache, framed, fn);
		free(framed);
		free(out);
		vkDestroyPipelineCache(c->dev, cache, NULL);
	}
	VK_TRY(err, vk_last, pr);
	return true;
fail:
	(void)vk_last;
	return false;
}

/* The descriptor set, pointing at the result (and the source and
 * destination, or the input). */
static bool create_set(Compute *c, uint32_t nbind, char *err)
{
	VkResult vk_last;
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nbind };
	VkDescriptorPoolCreateInfo dpi = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1,
		.poolSizeCount = 1,
		.pPoolSizes = &ps,
	};
	VK_TRY(err, vk_last, vkCreateDescriptorPool(c->dev, &dpi, NULL, &c->dpool));
	VkDescriptorSetAllocateInfo dai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = c->dpool,
		.descriptorSetCount = 1,
		.pSetLayouts = &c->dsl,
	};
	VK_TRY(err, vk_last, vkAllocateDescriptorSets(c->dev, &dai, &c->set));
	VkDescriptorBufferInfo dbi[3] = {
		{ c->result, 0, VK_WHOLE_SIZE },
		{ c->src, 0, c->mem_bytes },
		{ c->dst, 0, c->mem_bytes },
	};
	if (c->input)
		dbi[1] = (VkDescriptorBufferInfo){ c->input, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = c->set,
		.dstBinding = 0,
		.descriptorCount = nbind,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = dbi,
	};
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);
	return true;
fail:
	(void)vk_last;
	return false;
}

/* The storage buffers the shader binds: the result; the source and the
 * destination, or the workload's input. */
static uint32_t bindings(const ComputeSetup *s)
{
	return s->src_mem != MEM_NONE ? 3 : s->input.size ? 2 : 1;
}

/* The shader module, its descriptor set and the compute pipeline. */
bool gpu_pipeline_create(Compute *c, const ComputeSetup *s, char *err)
{
	uint32_t nbind = bindings(s);
	return create_layouts(c, s, nbind, err) && create_pipeline(c, s, err) && create_set(c, nbind, err);
}

/* The pipeline alone, into its cache file: no buffers, no set. */
bool gpu_pipeline_build(Compute *c, const ComputeSetup *s, char *err)
{
	return create_layouts(c, s, bindings(s), err) && create_pipeline(c, s, err);
}
