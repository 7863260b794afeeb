/* The bare Vulkan floor of a start, for bench/startup_vs_bare.sh: one
 * program doing only what a first measurement needs, one step after the
 * other: instance, device and queue, the same GLSL shader compiled by
 * shaderc (with flopscope's defines), its pipeline, a result buffer and one
 * dispatch of one workgroup, waited for and checked (the workgroup counter
 * must read 1). Prints each step's time and the whole from main().
 *
 *   bare_start SHADER VEC4S UNROLL ITERS LOCAL_SIZE [DEVICE_INDEX]
 *
 * DEVICE_INDEX: the physical device (vkEnumeratePhysicalDevices' order);
 * default the first discrete GPU, else the first device. */
#define _POSIX_C_SOURCE 200809L
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

static double ms(struct timespec a, struct timespec b)
{
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
}

static struct timespec now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

#define VK(call)                                                                          \
	do {                                                                              \
		VkResult r_ = (call);                                                     \
		if (r_ != VK_SUCCESS) {                                                   \
			fprintf(stderr, "bare_start: %s failed: VkResult %d\n", #call, r_); \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	char *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536))) {
			fprintf(stderr, "bare_start: out of memory\n");
			exit(1);
		}
		size_t k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = n;
	return buf;
}

static uint32_t pick_device(VkInstance inst, int want, VkPhysicalDevice *pd)
{
	uint32_t n = 0;
	VK(vkEnumeratePhysicalDevices(inst, &n, NULL));
	VkPhysicalDevice *all = calloc(n ? n : 1, sizeof *all);
	if (!all || !n) {
		fprintf(stderr, "bare_start: no Vulkan device\n");
		exit(1);
	}
	VK(vkEnumeratePhysicalDevices(inst, &n, all));
	uint32_t idx = 0;
	if (want >= 0 && (uint32_t)want < n) {
		idx = (uint32_t)want;
	} else {
		for (uint32_t i = 0; i < n; i++) {
			VkPhysicalDeviceProperties p;
			vkGetPhysicalDeviceProperties(all[i], &p);
			if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) {
				idx = i;
				break;
			}
		}
	}
	*pd = all[idx];
	free(all);
	return idx;
}

static uint32_t memory_type(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want)
{
	VkPhysicalDeviceMemoryProperties m;
	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	for (uint32_t i = 0; i < m.memoryTypeCount; i++)
		if ((bits & (1u << i)) && (m.memoryTypes[i].propertyFlags & want) == want)
			return i;
	fprintf(stderr, "bare_start: no host-visible coherent memory\n");
	exit(1);
}

int main(int argc, char **argv)
{
	struct timespec t0 = now();
	if (argc < 6) {
		fprintf(stderr, "usage: bare_start SHADER VEC4S UNROLL ITERS LOCAL_SIZE [DEVICE_INDEX]\n");
		return 2;
	}
	uint32_t spec[2] = { (uint32_t)atoi(argv[5]), (uint32_t)atoi(argv[4]) };

	VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_1 };
	VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
	VkInstance inst;
	VK(vkCreateInstance(&ici, NULL, &inst));
	VkPhysicalDevice pd;
	pick_device(inst, argc > 6 ? atoi(argv[6]) : -1, &pd);
	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
	VkQueueFamilyProperties *qf = calloc(nq ? nq : 1, sizeof *qf);
	if (!qf)
		return 1;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
	uint32_t fam = 0;
	while (fam < nq && !(qf[fam].queueFlags & VK_QUEUE_COMPUTE_BIT))
		fam++;
	free(qf);
	if (fam == nq) {
		fprintf(stderr, "bare_start: no compute queue\n");
		return 1;
	}
	struct timespec t_inst = now();

	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = fam,
		                        .queueCount = 1, .pQueuePriorities = &prio };
	VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
		                   .pQueueCreateInfos = &qci };
	VkDevice dev;
	VK(vkCreateDevice(pd, &dci, NULL, &dev));
	VkQueue q;
	vkGetDeviceQueue(dev, fam, 0, &q);
	struct timespec t_dev = now();

	size_t len;
	char *src = read_file(argv[1], &len);
	shaderc_compiler_t comp = shaderc_compiler_initialize();
	shaderc_compile_options_t opt = shaderc_compile_options_initialize();
	if (!comp || !opt)
		return 1;
	shaderc_compile_options_add_macro_definition(opt, "VEC4S", 5, argv[2], strlen(argv[2]));
	shaderc_compile_options_add_macro_definition(opt, "UNROLL", 6, argv[3], strlen(argv[3]));
	shaderc_compile_options_set_optimization_level(opt, shaderc_optimization_level_performance);
	shaderc_compile_options_set_target_env(opt, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
	shaderc_compilation_result_t res =
		shaderc_compile_into_spv(comp, src, len, shaderc_compute_shader, argv[1], "main", opt);
	if (shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
		fprintf(stderr, "bare_start: %s", shaderc_result_get_error_message(res));
		return 2;
	}
	struct timespec t_sc = now();

	VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		                          .codeSize = shaderc_result_get_length(res),
		                          .pCode = (const uint32_t *)shaderc_result_get_bytes(res) };
	VkShaderModule mod;
	VK(vkCreateShaderModule(dev, &smci, NULL, &mod));
	VkDescriptorSetLayoutBinding b = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
	VkDescriptorSetLayoutCreateInfo dslci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		                                  .bindingCount = 1, .pBindings = &b };
	VkDescriptorSetLayout dsl;
	VK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
	VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 12 };
	VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
		                            .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr };
	VkPipelineLayout layout;
	VK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	VkSpecializationMapEntry map[2] = { { 0, 0, 4 }, { 1, 4, 4 } };
	VkSpecializationInfo si = { 2, map, sizeof spec, spec };
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
		           .module = mod, .pName = "main", .pSpecializationInfo = &si },
		.layout = layout,
	};
	VkPipeline pipe;
	VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
	struct timespec t_pipe = now();

	/* the result buffer: the counter and one slot an invocation */
	VkDeviceSize size = 16 + 4 * (VkDeviceSize)spec[0];
	VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
		                   .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
	VkBuffer buf;
	VK(vkCreateBuffer(dev, &bci, NULL, &buf));
	VkMemoryRequirements mr;
	vkGetBufferMemoryRequirements(dev, buf, &mr);
	VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
		                     .memoryTypeIndex = memory_type(pd, mr.memoryTypeBits,
		                                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		                                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) };
	VkDeviceMemory mem;
	VK(vkAllocateMemory(dev, &mai, NULL, &mem));
	VK(vkBindBufferMemory(dev, buf, mem, 0));
	uint32_t *map_ptr;
	VK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&map_ptr));
	memset(map_ptr, 0, size);
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
		                            .poolSizeCount = 1, .pPoolSizes = &ps };
	VkDescriptorPool dp;
	VK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
	VkDescriptorSetAllocateInfo dsai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		                             .descriptorPool = dp, .descriptorSetCount = 1, .pSetLayouts = &dsl };
	VkDescriptorSet set;
	VK(vkAllocateDescriptorSets(dev, &dsai, &set));
	VkDescriptorBufferInfo dbi = { buf, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
		                   .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi };
	vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);

	VkCommandPoolCreateInfo cpi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = fam };
	VkCommandPool pool;
	VK(vkCreateCommandPool(dev, &cpi, NULL, &pool));
	VkCommandBufferAllocateInfo cbai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
		                             .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
	VkCommandBuffer cb;
	VK(vkAllocateCommandBuffers(dev, &cbai, &cb));
	VkCommandBufferBeginInfo cbbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		                          .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
	VK(vkBeginCommandBuffer(cb, &cbbi));
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
	struct { float a, b; uint32_t mask; } pc = { 0.999f, 0.001f, 0 };
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
	vkCmdDispatch(cb, 1, 1, 1);
	VK(vkEndCommandBuffer(cb));
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	VK(vkCreateFence(dev, &fci, NULL, &fence));
	VkSubmitInfo sub = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb };
	VK(vkQueueSubmit(q, 1, &sub, fence));
	VK(vkWaitForFences(dev, 1, &fence, VK_TRUE, 10000000000ull));
	struct timespec t_done = now();
	/* the device did the work: the one workgroup counted itself */
	if (map_ptr[0] != 1) {
		fprintf(stderr, "bare_start: the workgroup counter reads %u, not 1\n", map_ptr[0]);
		return 3;
	}
	printf("bare start: instance %.1f ms, device %.1f ms, shaderc %.1f ms, pipeline %.1f ms, "
	       "dispatch %.1f ms; first dispatch done %.1f ms after launch\n",
	       ms(t0, t_inst), ms(t_inst, t_dev), ms(t_dev, t_sc), ms(t_sc, t_pipe), ms(t_pipe, t_done), ms(t0, t_done));

	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	vkDestroyDescriptorPool(dev, dp, NULL);
	vkUnmapMemory(dev, mem);
	vkFreeMemory(dev, mem, NULL);
	vkDestroyBuffer(dev, buf, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	vkDestroyDescriptorSetLayout(dev, dsl, NULL);
	vkDestroyShaderModule(dev, mod, NULL);
	shaderc_result_release(res);
	shaderc_compile_options_release(opt);
	shaderc_compiler_release(comp);
	free(src);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}
