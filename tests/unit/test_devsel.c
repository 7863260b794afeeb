#include <stdio.h>
#include <string.h>

#include "check.h"
#include "devinfo.h"
#include "devsel.h"

/* The tutorial's machine (seed 002): an integrated GPU, one discrete GPU
 * with two compute queue families, and lavapipe; the discrete one at PCI
 * 0000:01:00.0 with nvidia-smi's UUID GPU-98c4a1e2-..., the Intel one at
 * 0000:00:02.0 with a UUID that shares its first 14 digits. */
static DeviceInfo DEVS[4];

static void setup(void)
{
	static const char *const names[] = {
		"Intel(R) UHD Graphics", "Quadro RTX 3000", "Quadro RTX 3000", "llvmpipe (LLVM 20.1.5, 256 bits)",
	};
	static const DevType types[] = { DEV_INTEGRATED_GPU, DEV_DISCRETE_GPU, DEV_DISCRETE_GPU, DEV_CPU };
	static const uint8_t nv[16] = { 0x98, 0xc4, 0xa1, 0xe2, 0x11, 0x22, 0x33, 0x44,
	                                0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc };
	static const uint8_t intel[16] = { 0x98, 0xc4, 0xa1, 0xe2, 0x11, 0x22, 0x33, 0 };
	memset(DEVS, 0, sizeof DEVS);
	for (int i = 0; i < 4; i++) {
		snprintf(DEVS[i].name, sizeof DEVS[i].name, "%s", names[i]);
		DEVS[i].type = types[i];
		DEVS[i].phys_index = (uint32_t)(i == 2 ? 1 : i);
		DEVS[i].queue_family = i == 2 ? 2u : 0u;
	}
	memcpy(DEVS[0].uuid, intel, 16);
	memcpy(DEVS[1].uuid, nv, 16);
	memcpy(DEVS[2].uuid, nv, 16);
	DEVS[0].has_pci = DEVS[1].has_pci = DEVS[2].has_pci = true;
	DEVS[0].pci_device = 2;
	DEVS[1].pci_bus = DEVS[2].pci_bus = 1;
}

static int pick(const char *word, unsigned index, char *err)
{
	DevselQuery q = { word, index };
	return devsel_pick(DEVS, 4, &q, err, 256);
}

static void devsel_should_pick_entry_n_with_dash_n(void)
{
	char err[256];
	CHECK(pick(NULL, 1, err) == 0);
	CHECK(pick(NULL, 4, err) == 3);
}

static void devsel_should_pick_the_first_name_match(void)
{
	char err[256];
	CHECK(pick("llvm", 0, err) == 3);
	CHECK(pick("RTX", 0, err) == 1);
	CHECK(pick("rtx", 0, err) == 1);
	CHECK(pick("LLVMPIPE", 0, err) == 3);
}

static void devsel_should_pick_the_nth_match_with_both(void)
{
	char err[256];
	CHECK(pick("RTX", 2, err) == 2);
	CHECK(pick("RTX", 1, err) == 1);
}

static void devsel_should_refuse_out_of_range_and_no_match(void)
{
	char err[256];
	CHECK(pick(NULL, 5, err) == -1);
	CHECK(strstr(err, "device 5") != NULL);
	CHECK(pick("radeon", 0, err) == -1);
	CHECK(strstr(err, "radeon") != NULL);
	CHECK(pick("RTX", 3, err) == -1);
	CHECK(strstr(err, "only 2 devices") != NULL);
	DevselQuery q = { NULL, 0 };
	CHECK(devsel_pick(DEVS, 0, &q, err, sizeof err) == -1);
}

static void devsel_should_default_to_the_best_ranked_entry(void)
{
	char err[256];
	CHECK(pick(NULL, 0, err) == 1);
}

/* nvidia-smi's, DCGM's and Slurm's names for a GPU: its UUID (whole, with
 * or without GPU- and dashes, or a unique prefix of 8 digits or more) and
 * its PCI address (with nvidia-smi's 8-digit domain, the kernel's 4, or
 * none). */
static void devsel_should_pick_by_uuid_and_pci_address(void)
{
	char err[256];
	CHECK(pick("GPU-98c4a1e2-1122-3344-5566-778899aabbcc", 0, err) == 1);
	CHECK(pick("98C4A1E2112233445566778899AABBCC", 0, err) == 1);
	CHECK(pick("gpu-98c4a1e2-1122-3344", 0, err) == 1);
	CHECK(pick("GPU-98c4a1e2-1122-3344-5566-778899aabbcc", 2, err) == 2); /* its second queue family */
	CHECK(pick("GPU-98c4a1e2-1122-3300", 0, err) == 0);
	CHECK(pick("00000000:01:00.0", 0, err) == 1);
	CHECK(pick("0000:01:00.0", 2, err) == 2);
	CHECK(pick("01:00.0", 0, err) == 1);
	CHECK(pick("0000:00:02.0", 0, err) == 0);
	CHECK(pick("00:02.0", 0, err) == 0);
}

static void devsel_should_say_why_an_identity_names_nothing(void)
{
	char err[256];
	/* a prefix two physical devices share: neither */
	CHECK(pick("GPU-98c4a1e2-1122-33", 0, err) == -1);
	CHECK(strstr(err, "two devices") && strstr(err, "give more"));
	CHECK(pick("GPU-00112233", 0, err) == -1);
	CHECK(strstr(err, "UUID begins with 00112233") != NULL);
	CHECK(pick("0000:41:00.0", 0, err) == -1);
	CHECK(strstr(err, "no device at PCI address 0000:41:00.0") != NULL);
	CHECK(pick("0001:01:00.0", 0, err) == -1); /* another domain */
	/* a device without VK_EXT_pci_bus_info is at no address */
	DEVS[1].has_pci = DEVS[2].has_pci = false;
	CHECK(pick("01:00.0", 0, err) == -1);
}

static void devsel_words_should_be_read_for_what_they_are(void)
{
	CHECK(devsel_word("llvm").kind == DEVSEL_NAME);
	CHECK(devsel_word("A100").kind == DEVSEL_NAME);     /* hex, but short of a UUID prefix */
	CHECK(devsel_word("GPU-1234").kind == DEVSEL_NAME); /* 4 digits: a name */
	CHECK(devsel_word("deadbeef").kind == DEVSEL_UUID);
	CHECK(devsel_word("1b:00.0").kind == DEVSEL_PCI);
	CHECK(devsel_word("1b:00.8").kind == DEVSEL_NAME);  /* function 8: no address */
	CHECK(devsel_word("1b:20.0").kind == DEVSEL_NAME);  /* device 32: no address */
	CHECK(devsel_word("10000:1b:00.0").kind == DEVSEL_NAME);
	DevselWord w = devsel_word("00000000:1B:1f.7");
	CHECK(w.kind == DEVSEL_PCI && w.has_domain && w.bus == 0x1b && w.device == 0x1f && w.function == 7);
	CHECK(devsel_word("GPU-98c4a1e2-1122-3344-5566-778899aabbcc0").kind == DEVSEL_NAME); /* 33 digits */
}

/* NVML knows the Quadro (both its entries) as GPU 0; the others not. */
static size_t gpus(const char *list, int *idx, char *err)
{
	DEVS[1].has_gpu_index = DEVS[2].has_gpu_index = true;
	DEVS[1].gpu_index = DEVS[2].gpu_index = 0;
	GpuMap nvml = { "NVML", "nvidia-smi -L lists NVML's", NULL };
	return devsel_gpu_list(DEVS, 4, list, "SLURM_JOB_GPUS", &nvml, idx, 8, err, 400);
}

/* A list's form, whatever the devices and the map: a malformed one is bad
 * input (it was blamed on a missing map without NVML). */
static void a_malformed_gpu_list_should_be_called_malformed(void)
{
	char err[256];
	static const char *const good[] = { "0", "0,1", "0-3,7", "GPU-6d657361", "0000:1b:00.0", "1b:00.0,2" };
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		CHECK(devsel_gpu_list_wellformed(good[i], "SLURM_JOB_GPUS", err, sizeof err));
	static const char *const bad[] = { "garbage", "0,,1", "-1", "0,", ",0", "", "3-1", "0-4294967295" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK(!devsel_gpu_list_wellformed(bad[i], "SLURM_JOB_GPUS", err, sizeof err) &&
		      !strncmp(err, "SLURM_JOB_GPUS: ", 16));
	CHECK(!devsel_gpu_list_wellformed("0,garbage", "SLURM_JOB_GPUS", err, sizeof err));
	CHECK_STR(err, "SLURM_JOB_GPUS: \"garbage\" is not a GPU's index, range, UUID or PCI address (in \"0,garbage\")");
}

static void gpu_lists_should_name_devices_as_nvml_and_slurm_do(void)
{
	setup();
	int idx[8];
	char err[400];
	/* an NVML index: the device's first compute family */
	CHECK(gpus("0", idx, err) == 1 && idx[0] == 1);
	/* a UUID, a PCI address, an index and a range: each device once, in order */
	CHECK(gpus("0000:00:02.0,GPU-98c4a1e2-1122-3344-5566-778899aabbcc,0,0-0", idx, err) == 2);
	CHECK(idx[0] == 0 && idx[1] == 1);
	/* an index NVML does not have: the item named, and where it came from */
	CHECK(gpus("0,3", idx, err) == 0);
	CHECK(strstr(err, "GPU 3 (SLURM_JOB_GPUS): NVML has no GPU 3") != NULL);
	/* NVML could not answer: said with the item */
	GpuMap none = { NULL, NULL, "NVML not found (libnvidia-ml.so.1)" };
	CHECK(devsel_gpu_list(DEVS, 4, "1", "--gpus", &none, idx, 8, err, 400) == 0);
	CHECK_STR(err, "GPU 1 (--gpus): cannot be mapped to a device: NVML not found (libnvidia-ml.so.1)");
	/* a name is not a GPU's identity; an empty item is not a list */
	CHECK(gpus("Quadro", idx, err) == 0 && strstr(err, "is not a GPU's index, range, UUID or PCI address") != NULL);
	/* the list's form before any item is looked up: "0," was said as GPU 0's
	 * mapping where NVML could not answer */
	CHECK(devsel_gpu_list(DEVS, 4, "0,", "--gpus", &none, idx, 8, err, 400) == 0);
	CHECK(strstr(err, "--gpus: \"0,\" is not a list of GPUs") == err);
	CHECK(gpus("0,,1", idx, err) == 0 && strstr(err, "is not a list of GPUs") != NULL);
	CHECK(gpus("", idx, err) == 0);
	/* a UUID prefix two devices share names neither */
	CHECK(gpus("98c4a1e2112233", idx, err) == 0 && strstr(err, "more than one device") != NULL);
	CHECK(gpus("GPU-11111111", idx, err) == 0 && strstr(err, "no device's UUID begins with 11111111") != NULL);
	/* digits-digits is a range, never a UUID's prefix (0-4294967295 was
	 * reported as "no device's UUID begins with 04294967295") */
	CHECK(gpus("0-4294967295", idx, err) == 0 && strstr(err, "\"0-4294967295\" is not a range of GPU indices"));
	CHECK(gpus("3-1", idx, err) == 0 && strstr(err, "is not a range of GPU indices") && !strstr(err, "UUID"));
	CHECK(gpus("0-0", idx, err) == 1 && idx[0] == 1);
}

static void devsel_contains_should_ignore_case(void)
{
	CHECK(devsel_contains("llvmpipe", "PIPE"));
	CHECK(devsel_contains("abc", ""));
	CHECK(!devsel_contains("abc", "abcd"));
	CHECK(!devsel_contains("", "a"));
	CHECK(devsel_contains("aab", "ab"));
}

/* A cooperative-matrix shape in words, as --list --verbose prints it: the
 * H100's fp16 one, an int8 one, and types this build does not name. */
/* One PCI address, as NVML, the kernel's sysfs and a domain past 16 bits
 * (Intel VMD's 10000) write it; a device without the extension has none. */
static void pci_addresses_should_be_written_as_each_reader_names_them(void)
{
	DeviceInfo d = { .has_pci = true, .pci_domain = 0, .pci_bus = 0x1b, .pci_device = 0, .pci_function = 1 };
	char a[DEVINFO_PCI_LEN], b[DEVINFO_PCI_LEN];
	devinfo_pci_str(&d, a, sizeof a);
	devinfo_pci_slot(&d, b, sizeof b);
	CHECK(!strcmp(a, "00000000:1B:00.1") && !strcmp(b, "0000:1b:00.1"));
	CHECK(devinfo_at_slot(&d, "0000:1b:00.1") && devinfo_at_slot(&d, "0000:1B:00.1"));
	CHECK(!devinfo_at_slot(&d, "0000:1b:00.0") && !devinfo_at_slot(&d, ""));
	CHECK(devinfo_slot_bus_id(b, a, sizeof a) && !strcmp(a, "00000000:1B:00.1"));
	CHECK(!devinfo_slot_bus_id("renderD128", a, sizeof a) && !a[0]);
	CHECK(!devinfo_slot_bus_id("0000:1b:00.1x", a, sizeof a) && !a[0]);
	d.pci_domain = 0x10000;
	devinfo_pci_slot(&d, b, sizeof b);
	CHECK(!strcmp(b, "10000:1b:00.1") && devinfo_at_slot(&d, "10000:1b:00.1"));
	d.has_pci = false;
	devinfo_pci_slot(&d, b, sizeof b);
	CHECK(!b[0] && !devinfo_at_slot(&d, ""));
}

static void coopmat_shapes_should_be_said_in_words(void)
{
	char out[96];
	CoopMatShape fp16 = { 16, 8, 16, 0, 0, 1, 1, 3 };
	devinfo_coopmat_str(&fp16, out, sizeof out);
	CHECK_STR(out, "16x8x16 fp16*fp16+fp32->fp32 (subgroup)");
	CoopMatShape i8 = { 16, 8, 32, 3, 3, 5, 5, 3 };
	devinfo_coopmat_str(&i8, out, sizeof out);
	CHECK_STR(out, "16x8x32 int8*int8+int32->int32 (subgroup)");
	CoopMatShape bf = { 16, 16, 16, 1000141000, 1000141000, 1, 1, 2 };
	devinfo_coopmat_str(&bf, out, sizeof out);
	CHECK_STR(out, "16x16x16 bf16*bf16+fp32->fp32 (workgroup)");
	CHECK_STR(matrix_component_str(77), "other");
}

int main(void)
{
	setup();
	RUN(coopmat_shapes_should_be_said_in_words);
	RUN(pci_addresses_should_be_written_as_each_reader_names_them);
	RUN(devsel_contains_should_ignore_case);
	RUN(devsel_should_pick_entry_n_with_dash_n);
	RUN(devsel_should_pick_the_first_name_match);
	RUN(devsel_should_pick_the_nth_match_with_both);
	RUN(devsel_should_refuse_out_of_range_and_no_match);
	RUN(devsel_should_default_to_the_best_ranked_entry);
	RUN(devsel_should_pick_by_uuid_and_pci_address);
	RUN(devsel_words_should_be_read_for_what_they_are);
	RUN(devsel_should_say_why_an_identity_names_nothing);
	RUN(gpu_lists_should_name_devices_as_nvml_and_slurm_do);
	RUN(a_malformed_gpu_list_should_be_called_malformed);
	return CHECK_DONE();
}
