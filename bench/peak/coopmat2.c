/* coopmat2: workgroup-scope cooperative matrices (VK_NV_cooperative_matrix2)
 * on the first Vulkan device. Prints the extension's features, properties
 * and flexible shapes, then builds each SPIR-V file named wg_M_N_K.* (made
 * by bench/peak/coopmat2.sh from shaders/coopmat.comp: WORKGROUP_SCOPE, 2
 * accumulators, 1024 steps of C += A B, every element of A 1 and of B 1/K)
 * with LOCAL invocations a workgroup, and dispatches it six times, each
 * sized to about 30 ms by the one before: GPU timestamps, 2 M N K x 2 x 1024
 * operations a workgroup, the workgroup counter and every stored value
 * (2048) checked. A bench tool, not part of flopscope.
 *   coopmat2 LOCAL FILE...   (vk_khr.h from src/gpu) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vk_khr.h"
#define T(x) do { VkResult r_ = (x); if (r_) { printf("%s failed: VkResult %d\n", #x, r_); fflush(stdout); return 1; } } while (0)
typedef struct { VkStructureType sType; void *pNext; VkBool32 ws, flex, red, conv, pe, ta, bl; } F2;
typedef struct { VkStructureType sType; void *pNext; uint32_t maxwg, maxdim, reserved; } P2;
typedef struct { VkStructureType sType; void *pNext; uint32_t Mg, Ng, Kg, A, B, C, R; VkBool32 sat; uint32_t scope, inv; } FD;
typedef VkResult (VKAPI_PTR *PFD)(VkPhysicalDevice, uint32_t *, FD *);
static VkDevice dev; static VkPhysicalDevice pd; static VkQueue q;
static uint32_t memtype(uint32_t bits, VkMemoryPropertyFlags want) {
	VkPhysicalDeviceMemoryProperties m; vkGetPhysicalDeviceMemoryProperties(pd, &m);
	for (uint32_t i = 0; i < m.memoryTypeCount; i++) if ((bits >> i & 1) && (m.memoryTypes[i].propertyFlags & want) == want) return i;
	return 0;
}
int main(int argc, char **argv)
{
	VkApplicationInfo ai = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
	VkInstanceCreateInfo ii = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &ai };
	VkInstance inst; T(vkCreateInstance(&ii, NULL, &inst));
	uint32_t n = 1; vkEnumeratePhysicalDevices(inst, &n, &pd);
	F2 f2 = { .sType = 1000593000 };
	VkPhysicalDeviceFeatures2 feat = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f2 };
	vkGetPhysicalDeviceFeatures2(pd, &feat);
	printf("coopmat2 features: workgroupScope %u flexibleDimensions %u reductions %u conversions %u perElement %u tensorAddressing %u blockLoads %u\n", f2.ws, f2.flex, f2.red, f2.conv, f2.pe, f2.ta, f2.bl);
	P2 p2 = { .sType = 1000593002 };
	VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p2 };
	vkGetPhysicalDeviceProperties2(pd, &props);
	printf("coopmat2 properties: workgroupScopeMaxWorkgroupSize %u flexibleDimensionsMaxDimension %u workgroupScopeReservedSharedMemory %u\n", p2.maxwg, p2.maxdim, p2.reserved);
	PFD get = (PFD)vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
	uint32_t nf = 0; if (get) get(pd, &nf, NULL);
	FD *fd = calloc(nf + 1, sizeof *fd);
	if (!fd) return 1;
	for (uint32_t i = 0; i < nf; i++) fd[i].sType = 1000593001;
	if (get) get(pd, &nf, fd);
	for (uint32_t i = 0; i < nf; i++) printf("flexible: gran %ux%ux%u types %u*%u+%u->%u scope %u invocations %u\n", fd[i].Mg, fd[i].Ng, fd[i].Kg, fd[i].A, fd[i].B, fd[i].C, fd[i].R, fd[i].scope, fd[i].inv);
	fflush(stdout);
	float prio = 1;
	VkDeviceQueueCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1, .pQueuePriorities = &prio };
	F2 e2 = { .sType = 1000593000, .ws = 1, .flex = f2.flex };
	VkPhysicalDeviceShaderBfloat16FeaturesKHR_ bf = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR_, .pNext = &e2, .shaderBFloat16Type = 1, .shaderBFloat16CooperativeMatrix = 1 };
	VkPhysicalDeviceCooperativeMatrixFeaturesKHR_ kcm = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR_, .pNext = &bf, .cooperativeMatrix = 1 };
	VkPhysicalDeviceShaderFloat16Int8Features f16 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, .pNext = &kcm, .shaderFloat16 = 1 };
	VkPhysicalDeviceVulkanMemoryModelFeatures vmm = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES, .pNext = &f16, .vulkanMemoryModel = 1 };
	VkPhysicalDeviceSubgroupSizeControlFeatures ssc = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES, .pNext = &vmm, .subgroupSizeControl = 1, .computeFullSubgroups = 1 };
	const char *ext[] = { "VK_KHR_cooperative_matrix", "VK_KHR_shader_bfloat16", "VK_NV_cooperative_matrix2" };
	VkDeviceCreateInfo di = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &ssc, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi, .enabledExtensionCount = 3, .ppEnabledExtensionNames = ext };
	T(vkCreateDevice(pd, &di, NULL, &dev));
	vkGetDeviceQueue(dev, 0, 0, &q);
	VkDeviceSize bsz = 16 + 65536 * 4;
	VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = bsz, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
	VkBuffer buf; T(vkCreateBuffer(dev, &bi, NULL, &buf));
	VkMemoryRequirements mr; vkGetBufferMemoryRequirements(dev, buf, &mr);
	VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size, .memoryTypeIndex = memtype(mr.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) };
	VkDeviceMemory mem; T(vkAllocateMemory(dev, &mai, NULL, &mem)); T(vkBindBufferMemory(dev, buf, mem, 0));
	uint32_t *map; T(vkMapMemory(dev, mem, 0, bsz, 0, (void **)&map));
	VkDescriptorSetLayoutBinding b = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
	VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &b };
	VkDescriptorSetLayout dsl; T(vkCreateDescriptorSetLayout(dev, &li, NULL, &dsl));
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpi = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps };
	VkDescriptorPool dp; T(vkCreateDescriptorPool(dev, &dpi, NULL, &dp));
	VkDescriptorSetAllocateInfo dai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = dp, .descriptorSetCount = 1, .pSetLayouts = &dsl };
	VkDescriptorSet ds; T(vkAllocateDescriptorSets(dev, &dai, &ds));
	VkDescriptorBufferInfo dbi = { buf, 0, bsz };
	VkWriteDescriptorSet wds = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = ds, .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi };
	vkUpdateDescriptorSets(dev, 1, &wds, 0, NULL);
	VkPushConstantRange pr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 12 };
	VkPipelineLayoutCreateInfo pli = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pr };
	VkPipelineLayout pl; T(vkCreatePipelineLayout(dev, &pli, NULL, &pl));
	VkCommandPoolCreateInfo cpi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT };
	VkCommandPool cp; T(vkCreateCommandPool(dev, &cpi, NULL, &cp));
	VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = cp, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
	VkCommandBuffer cb; T(vkAllocateCommandBuffers(dev, &cai, &cb));
	VkQueryPoolCreateInfo qpi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
	VkQueryPool qp; T(vkCreateQueryPool(dev, &qpi, NULL, &qp));
	uint32_t local = argc > 1 ? (uint32_t)atoi(argv[1]) : 256;
	for (int a = 2; a < argc; a++) {
		unsigned M, N, K;
		const char *base = strrchr(argv[a], '/'); base = base ? base + 1 : argv[a];
		if (sscanf(base, "wg_%u_%u_%u", &M, &N, &K) != 3) continue;
		FILE *f = fopen(argv[a], "rb");
		static uint32_t code[1 << 16];
		if (!f) { perror(argv[a]); return 1; }
		size_t sz = fread(code, 1, sizeof code, f);
		fclose(f);
		VkShaderModuleCreateInfo mi = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = sz, .pCode = code };
		VkShaderModule mod; T(vkCreateShaderModule(dev, &mi, NULL, &mod));
		uint32_t spec[2] = { local, 64 }; /* UNROLL 16 x ITERS 64 = 1024 steps */
		VkSpecializationMapEntry me[2] = { { 0, 0, 4 }, { 1, 4, 4 } };
		VkSpecializationInfo si = { 2, me, 8, spec };
		VkComputePipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .layout = pl,
			.stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT, .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = mod, .pName = "main", .pSpecializationInfo = &si } };
		VkPipeline p; VkResult r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &p);
		if (r) { printf("%s local %u: pipeline %d\n", base, local, r); fflush(stdout); continue; }
		double per_group = 2.0 * M * N * K * 2 * 1024;
		uint32_t groups = 1024;
		for (int rep = 0; rep < 6; rep++) {
			memset(map, 0, bsz);
			float pc[3] = { 1.0f, 1.0f / K, 0 }; uint32_t mask = 65535; memcpy(&pc[2], &mask, 4);
			VkCommandBufferBeginInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
			T(vkBeginCommandBuffer(cb, &cbi));
			vkCmdResetQueryPool(cb, qp, 0, 2);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
			vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 12, pc);
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
			vkCmdDispatch(cb, groups, 1, 1);
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
			T(vkEndCommandBuffer(cb));
			VkSubmitInfo sub = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb };
			T(vkQueueSubmit(q, 1, &sub, VK_NULL_HANDLE)); T(vkQueueWaitIdle(q));
			uint64_t ts[2]; T(vkGetQueryPoolResults(dev, qp, 0, 2, sizeof ts, ts, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
			double s = (ts[1] - ts[0]) * 1e-9;
			float *v = (float *)(map + 4); unsigned bad = 0; uint64_t inv = (uint64_t)groups * local;
			for (uint64_t i = 0; i < (inv < 65536 ? inv : 65536); i++) if (v[i] != 2048.0f) bad++;
			printf("%s local %u groups %u: %.3f ms %.1f TFLOPS, counter %u/%u, %u values wrong (v0 %.1f)\n", base, local, groups, s * 1e3, per_group * groups / s / 1e12, map[0], groups, bad, v[0]);
			fflush(stdout);
			double want = groups * 0.03 / s; groups = want > 4e6 ? 4000000 : (uint32_t)want + 1;
		}
	}
	return 0;
}
