#include "vkctx.h"
#include "gpu_impl.h"
#include "fmt.h"

_Static_assert(DEVINFO_NAME_LEN == VK_MAX_PHYSICAL_DEVICE_NAME_SIZE, "DeviceInfo.name");
_Static_assert(DEVINFO_DRIVER_LEN == VK_MAX_DRIVER_NAME_SIZE &&
               DEVINFO_DRIVER_LEN == VK_MAX_DRIVER_INFO_SIZE, "DeviceInfo.driver_*");
_Static_assert(DEVINFO_UUID_LEN == VK_UUID_SIZE, "DeviceInfo.uuid");

static DevType dev_type(VkPhysicalDeviceType t)
{
	switch (t) {
	case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DEV_INTEGRATED_GPU;
	case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DEV_DISCRETE_GPU;
	case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DEV_VIRTUAL_GPU;
	case VK_PHYSICAL_DEVICE_TYPE_CPU: return DEV_CPU;
	default: return DEV_OTHER;
	}
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation(
	VkDebugUtilsMessageSeverityFlagBitsEXT sev, VkDebugUtilsMessageTypeFlagsEXT type,
	const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	(void)type;
	VkCtx *c = user;
	if (sev & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
	           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
		atomic_fetch_add(&c->validation_messages, 1);
		fprintf(stderr, "flopscope: validation %s: %s\n",
		        sev & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
		        data->pMessage ? data->pMessage : "(no text)");
	}
	return VK_FALSE;
}

static bool has_instance_layer(const char *name)
{
	uint32_t n = 0;
	if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
		return false;
	VkLayerProperties *p = calloc(n, sizeof *p);
	if (!p)
		return false;
	bool found = false;
	if (vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
		for (uint32_t i = 0; i < n; i++)
			if (!strcmp(p[i].layerName, name))
				found = true;
	free(p);
	return found;
}

/* Whether out[0..n) holds s already (the KHR list repeats the NV one). */
static bool coopmat_listed(const CoopMatShape *out, uint32_t n, CoopMatShape s)
{
	for (uint32_t i = 0; i < n; i++)
		if (!memcmp(&out[i], &s, sizeof s))
			return true;
	return false;
}

/* The cooperative-matrix shapes a device offers, appended to out (at most
 * DEVINFO_MAX_COOPMAT): those of VK_NV_cooperative_matrix (khr false), or
 * VK_KHR_cooperative_matrix's (khr true), every type the driver lists (a
 * shape the NV list gave already is not repeated). The two queries differ
 * only in their structure. */
static bool coopmat_shapes(VkCtx *c, VkPhysicalDevice pd, bool khr, CoopMatShape *out, uint32_t *n, char *err)
{
	const char *name = khr ? "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"
	                       : "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV";
	PFN_vkVoidFunction fn = vkGetInstanceProcAddr(c->instance, name);
	if (!fn)
		return true; /* listed, not callable: no shapes */
	PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR_ get_khr = (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR_)fn;
	PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV get_nv = (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)fn;
	uint32_t count = 0;
	VkResult r = khr ? get_khr(pd, &count, NULL) : get_nv(pd, &count, NULL);
	if (r != VK_SUCCESS) {
		snprintf(err, ERR_LEN, "%s: %s", name, vk_result_str(r));
		return false;
	}
	if (!count)
		return true;
	VkCooperativeMatrixPropertiesKHR_ *pk = khr ? calloc(count, sizeof *pk) : NULL;
	VkCooperativeMatrixPropertiesNV *pn = khr ? NULL : calloc(count, sizeof *pn);
	if (!pk && !pn) {
		snprintf(err, ERR_LEN, "out of memory listing cooperative-matrix shapes");
		return false;
	}
	for (uint32_t i = 0; i < count; i++) {
		if (khr)
			pk[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR_;
		else
			pn[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
	}
	r = khr ? get_khr(pd, &count, pk) : get_nv(pd, &count, pn);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
		free(pk);
		free(pn);
		snprintf(err, ERR_LEN, "%s: %s", name, vk_result_str(r));
		return false;
	}
	for (uint32_t i = 0; i < count && *n < DEVINFO_MAX_COOPMAT; i++) {
		CoopMatShape s = khr ? (CoopMatShape){ pk[i].MSize, pk[i].NSize, pk[i].KSize, pk[i].AType, pk[i].BType,
		                                       pk[i].CType, pk[i].ResultType, pk[i].scope }
		                     : (CoopMatShape){ pn[i].MSize, pn[i].NSize, pn[i].KSize, (uint32_t)pn[i].AType,
		                                       (uint32_t)pn[i].BType, (uint32_t)pn[i].CType,
		                                       (uint32_t)pn[i].DType, (uint32_t)pn[i].scope };
		if (!coopmat_listed(out, *n, s))
			out[(*n)++] = s;
	}
	free(pk);
	free(pn);
	return true;
}

/* A device's extensions: by name for the features' table, and those whose
 * properties are read. */
typedef struct DevExts {
	VkExtensionProperties *ext;
	const char **names;
	uint32_t n;
	bool smb, pci, amd, amd2, nv_cm, khr_cm;
} DevExts;

static bool read_extensions(VkPhysicalDevice pd, DevExts *x, char *err)
{
	memset(x, 0, sizeof *x);
	if (vkEnumerateDeviceExtensionProperties(pd, NULL, &x->n, NULL) != VK_SUCCESS)
		x->n = 0;
	if (x->n) {
		x->ext = calloc(x->n, sizeof *x->ext);
		x->names = calloc(x->n, sizeof *x->names);
		if (!x->ext || !x->names) {
			free(x->ext);
			free(x->names);
			snprintf(err, ERR_LEN, "out of memory listing %u device extensions", x->n);
			return false;
		}
		if (vkEnumerateDeviceExtensionProperties(pd, NULL, &x->n, x->ext) != VK_SUCCESS)
			x->n = 0;
	}
	for (uint32_t i = 0; i < x->n; i++) {
		const char *name = x->names[i] = x->ext[i].extensionName;
		x->smb |= !strcmp(name, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
		x->pci |= !strcmp(name, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
		x->amd |= !strcmp(name, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
		x->amd2 |= !strcmp(name, VK_AMD_SHADER_CORE_PROPERTIES_2_EXTENSION_NAME);
		x->nv_cm |= !strcmp(name, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
		x->khr_cm |= !strcmp(name, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME_);
	}
	return true;
}

/* The limits and memory heaps of a device, into d. */
static void take_limits(DeviceInfo *d, const VkPhysicalDeviceProperties *p, const VkPhysicalDeviceMemoryProperties *mem)
{
	d->timestamp_period = p->limits.timestampPeriod;
	memcpy(d->max_group_count, p->limits.maxComputeWorkGroupCount, sizeof d->max_group_count);
	memcpy(d->max_group_size, p->limits.maxComputeWorkGroupSize, sizeof d->max_group_size);
	d->max_invocations = p->limits.maxComputeWorkGroupInvocations;
	d->max_shared_bytes = p->limits.maxComputeSharedMemorySize;
	d->max_storage_range = p->limits.maxStorageBufferRange;
	d->heap_count = mem->memoryHeapCount < DEVINFO_MAX_HEAPS ? mem->memoryHeapCount : DEVINFO_MAX_HEAPS;
	for (uint32_t h = 0; h < d->heap_count; h++) {
		d->heap_size[h] = mem->memoryHeaps[h].size;
		d->heap_device_local[h] = mem->memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
	}
}

/* s first in head's chain of structures, where there */
static void chain_first(void *head, void *s, bool there)
{
	if (!there)
		return;
	((VkBaseOutStructure *)s)->pNext = ((VkBaseOutStructure *)head)->pNext;
	((VkBaseOutStructure *)head)->pNext = s;
}

/* What is the same for every queue family of a device: its properties,
 * limits, memory and features, into d. */
static void read_device(const VkCtx *c, VkPhysicalDevice pd, const DevExts *x, DeviceInfo *d)
{
	VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 };
	VkPhysicalDeviceSubgroupProperties sub = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES };
	VkPhysicalDeviceIDProperties ids = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES };
	VkPhysicalDeviceDriverProperties drv = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
	VkPhysicalDeviceFeatures2 feat = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 };
	VkPhysicalDeviceShaderSMBuiltinsPropertiesNV smb = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV,
	};
	VkPhysicalDeviceShaderCorePropertiesAMD amd = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD,
	};
	VkPhysicalDeviceShaderCoreProperties2AMD amd2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_2_AMD,
	};
	VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT,
	};
	VkPhysicalDeviceMaintenance3Properties m3 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
	};
	VkPhysicalDeviceProperties base;
	vkGetPhysicalDeviceProperties(pd, &base);
	bool v12 = base.apiVersion >= VK_API_VERSION_1_2 && c->api_version >= VK_API_VERSION_1_2;
	props.pNext = &m3;
	m3.pNext = &sub;
	sub.pNext = &ids;
	if (v12) {
		ids.pNext = &drv;
		if (x->smb)
			drv.pNext = &smb;
	} else if (x->smb) {
		ids.pNext = &smb;
	}
	/* the features of the table that this device's version and extensions
	 * let it report */
	GpuFeatChain fch;
	uint32_t api = base.apiVersion < c->api_version ? base.apiVersion : c->api_version;
	gpu_features_query_chain(&fch, api, x->names, x->n, &feat.pNext);
	/* the extensions' structures, each first in the chain where it is there */
	chain_first(&props, &pci, x->pci);
	chain_first(&props, &amd, x->amd);
	chain_first(&props, &amd2, x->amd2);
	vkGetPhysicalDeviceProperties2(pd, &props);
	vkGetPhysicalDeviceFeatures2(pd, &feat);
	d->features = gpu_features_read(&fch, &feat.features);
	VkPhysicalDeviceMemoryProperties mem;
	vkGetPhysicalDeviceMemoryProperties(pd, &mem);

	const VkPhysicalDeviceProperties *p = &props.properties;
	/* the driver's strings are sanitized here, once, for every output (fmt_printable) */
	snprintf(d->name, sizeof d->name, "%s", p->deviceName);
	fmt_printable(d->name);
	d->type = dev_type(p->deviceType);
	d->vendor_id = p->vendorID;
	d->device_id = p->deviceID;
	d->api_version = p->apiVersion;
	d->driver_version = p->driverVersion;
	if (v12) {
		snprintf(d->driver_name, sizeof d->driver_name, "%s", drv.driverName);
		snprintf(d->driver_info, sizeof d->driver_info, "%s", drv.driverInfo);
		fmt_printable(d->driver_name);
		fmt_printable(d->driver_info);
	}
	memcpy(d->uuid, ids.deviceUUID, VK_UUID_SIZE);
	take_limits(d, p, &mem);
	d->subgroup_size = sub.subgroupSize;
	d->sm_count = x->smb ? smb.shaderSMCount : 0;
	if (x->nv_cm)
		snprintf(d->coopmat_ext, sizeof d->coopmat_ext, "%s", VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
	d->coopmat_khr = x->khr_cm;
	d->cu_count = x->amd ? devinfo_amd_cus(amd.shaderEngineCount, amd.shaderArraysPerEngineCount,
	                                       amd.computeUnitsPerShaderArray, x->amd2 ? amd2.activeComputeUnitCount : 0)
	                     : 0;
	d->max_alloc = m3.maxMemoryAllocationSize;
	d->has_pci = x->pci;
	d->pci_domain = pci.pciDomain;
	d->pci_bus = pci.pciBus;
	d->pci_device = pci.pciDevice;
	d->pci_function = pci.pciFunction;
}

/* An entry per compute queue family of the device pd (the index-th). */
static bool add_entries(VkCtx *c, VkPhysicalDevice pd, uint32_t index, char *err)
{
	DevExts x;
	if (!read_extensions(pd, &x, err))
		return false;
	DeviceInfo proto;
	memset(&proto, 0, sizeof proto);
	proto.phys_index = index;
	read_device(c, pd, &x, &proto);
	free(x.names);
	free(x.ext);
	/* cooperative matrices: the shapes and types the device offers */
	if (x.nv_cm && !coopmat_shapes(c, pd, false, proto.coopmat, &proto.ncoopmat, err))
		return false;
	if (x.khr_cm && !coopmat_shapes(c, pd, true, proto.coopmat, &proto.ncoopmat, err))
		return false;

	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
	VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof *q);
	if (!q) {
		snprintf(err, ERR_LEN, "out of memory listing queue families");
		return false;
	}
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
	proto.transfer_family = -1;
	for (uint32_t f = 0; f < nq && proto.transfer_family < 0; f++)
		if ((q[f].queueFlags & VK_QUEUE_TRANSFER_BIT) && q[f].queueCount &&
		    !(q[f].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))) {
			proto.transfer_family = (int)f;
			proto.transfer_ts_bits = q[f].timestampValidBits;
		}
	for (uint32_t f = 0; f < nq; f++) {
		if (!(q[f].queueFlags & VK_QUEUE_COMPUTE_BIT) || q[f].queueCount == 0)
			continue;
		DeviceInfo *grown = realloc(c->entries, (c->entry_count + 1) * sizeof *grown);
		if (!grown) {
			free(q);
			snprintf(err, ERR_LEN, "out of memory listing devices");
			return false;
		}
		c->entries = grown;
		DeviceInfo *d = &c->entries[c->entry_count++];
		*d = proto;
		d->queue_family = f;
		d->queue_count = q[f].queueCount;
		d->queue_flags = q[f].queueFlags;
		d->timestamp_valid_bits = q[f].timestampValidBits;
	}
	free(q);
	return true;
}

/* The instance (with the validation layer and its messenger when asked
 * for); false with err filled, the instance left for vkctx_destroy. */
static bool create_instance(VkCtx *c, bool validate, char *err, bool *no_device)
{
	VkResult vk_last = VK_SUCCESS;
	const char *layers[] = { "VK_LAYER_KHRONOS_validation" };
	const char *exts[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME };
	if (validate && !has_instance_layer(layers[0])) {
		snprintf(err, ERR_LEN, "--validate: VK_LAYER_KHRONOS_validation is not installed "
		         "(Debian: apt-get install vulkan-validationlayers)");
		return false;
	}
	c->validate = validate;

	VkDebugUtilsMessengerCreateInfoEXT dbg = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = on_validation,
		.pUserData = c,
	};
	/* synchronization validation too: the pipelined engine's barriers */
	VkValidationFeatureEnableEXT enables[] = { VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT };
	VkValidationFeaturesEXT features = {
		.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
		.pNext = &dbg,
		.enabledValidationFeatureCount = 1,
		.pEnabledValidationFeatures = enables,
	};
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "flopscope",
		.applicationVersion = 1,
		.pEngineName = "flopscope",
		.apiVersion = c->api_version,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pNext = validate ? (const void *)&features : NULL,
		.pApplicationInfo = &app,
		.enabledLayerCount = validate ? 1 : 0,
		.ppEnabledLayerNames = layers,
		.enabledExtensionCount = validate ? 2 : 0,
		.ppEnabledExtensionNames = exts,
	};
	VkResult r = vkCreateInstance(&ici, NULL, &c->instance);
	if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
		*no_device = true;
		snprintf(err, ERR_LEN, "no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER). "
		         "For the CPU driver lavapipe: apt-get install mesa-vulkan-drivers");
		return false;
	}
	VK_TRY(err, vk_last, r);

	if (validate) {
		PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(c->instance, "vkCreateDebugUtilsMessengerEXT");
		if (!create) {
			snprintf(err, ERR_LEN, "--validate: vkCreateDebugUtilsMessengerEXT is missing");
			goto fail;
		}
		VK_TRY(err, vk_last, create(c->instance, &dbg, NULL, &c->messenger));
	}

	return true;
fail:
	(void)vk_last;
	return false;
}

bool vkctx_create(VkCtx *c, bool validate, char *err, bool *no_device)
{
	VkResult vk_last = VK_SUCCESS;
	VkPhysicalDevice *pds = NULL;
	memset(c, 0, sizeof *c);
	atomic_init(&c->validation_messages, 0);
	*no_device = false;

	uint32_t loader = VK_API_VERSION_1_0;
	if (vkEnumerateInstanceVersion(&loader) != VK_SUCCESS)
		loader = VK_API_VERSION_1_0;
	if (loader < VK_API_VERSION_1_1) {
		snprintf(err, ERR_LEN, "the Vulkan loader supports only API %u.%u; flopscope needs 1.1 or newer",
		         VK_API_VERSION_MAJOR(loader), VK_API_VERSION_MINOR(loader));
		return false;
	}
	c->api_version = loader < VK_API_VERSION_1_3 ? loader : VK_API_VERSION_1_3;

	if (!create_instance(c, validate, err, no_device))
		goto fail;
	uint32_t n = 0;
	VK_TRY(err, vk_last, vkEnumeratePhysicalDevices(c->instance, &n, NULL));
	pds = calloc(n ? n : 1, sizeof *pds);
	if (!pds) {
		snprintf(err, ERR_LEN, "out of memory listing %u devices", n);
		goto fail;
	}
	VK_TRY(err, vk_last, vkEnumeratePhysicalDevices(c->instance, &n, pds));
	for (uint32_t i = 0; i < n; i++)
		if (!add_entries(c, pds[i], i, err))
			goto fail;
	free(pds);
	if (c->entry_count == 0) {
		*no_device = true;
		snprintf(err, ERR_LEN, "no Vulkan device with a compute queue found. "
		         "For the CPU driver lavapipe: apt-get install mesa-vulkan-drivers");
		vkctx_destroy(c);
		return false;
	}
	return true;
fail:
	(void)vk_last;
	free(pds);
	vkctx_destroy(c);
	return false;
}

void vkctx_headers_version(char *out, size_t len)
{
	snprintf(out, len, "%u.%u.%u", VK_API_VERSION_MAJOR(VK_HEADER_VERSION_COMPLETE),
	         VK_API_VERSION_MINOR(VK_HEADER_VERSION_COMPLETE), VK_API_VERSION_PATCH(VK_HEADER_VERSION_COMPLETE));
}

void vkctx_drop_instance(VkCtx *c)
{
	if (c->messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(c->instance, "vkDestroyDebugUtilsMessengerEXT");
		if (destroy)
			destroy(c->instance, c->messenger, NULL);
		c->messenger = VK_NULL_HANDLE;
	}
	if (c->instance)
		vkDestroyInstance(c->instance, NULL);
	c->instance = VK_NULL_HANDLE;
}

void vkctx_destroy(VkCtx *c)
{
	vkctx_drop_instance(c);
	free(c->entries);
	c->entries = NULL;
	c->entry_count = 0;
}

VkPhysicalDevice vkctx_physical(const VkCtx *c, const DeviceInfo *d, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	VkPhysicalDevice out = VK_NULL_HANDLE;
	uint32_t n = 0;
	VkPhysicalDevice *pds = NULL;
	VK_TRY(err, vk_last, vkEnumeratePhysicalDevices(c->instance, &n, NULL));
	pds = calloc(n ? n : 1, sizeof *pds);
	if (!pds) {
		snprintf(err, ERR_LEN, "out of memory");
		return VK_NULL_HANDLE;
	}
	VK_TRY(err, vk_last, vkEnumeratePhysicalDevices(c->instance, &n, pds));
	if (d->phys_index >= n) {
		snprintf(err, ERR_LEN, "device %s disappeared", d->name);
		goto fail;
	}
	out = pds[d->phys_index];
fail:
	(void)vk_last;
	free(pds);
	return out;
}

