/* A stand-in for NVML (libnvidia-ml.so.1) for the tests on machines without
 * an NVIDIA GPU: it knows the GPUs whose UUIDs FLOPSCOPE_FAKE_NVML lists
 * ("GPU-<uuid>,GPU-<uuid>", in NVML's index order) and answers the calls
 * flopscope makes to map NVML's indices to devices; telemetry calls are
 * absent, as on a driver that lacks them. Built by the Makefile into
 * $(B)/tests/fake-nvml/, found through LD_LIBRARY_PATH. */
#include <stdlib.h>
#include <string.h>

#define MAX_GPUS 16
static char uuids[MAX_GPUS][96];
static unsigned count;

int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetCount_v2(unsigned *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h);
int nvmlDeviceGetUUID(void *h, char *out, unsigned len);

int nvmlInit_v2(void)
{
	const char *list = getenv("FLOPSCOPE_FAKE_NVML");
	count = 0;
	if (!list)
		return 12; /* NVML_ERROR_LIBRARY_NOT_FOUND: the driver is not there */
	while (*list && count < MAX_GPUS) {
		size_t k = strcspn(list, ",");
		if (k >= sizeof uuids[0])
			return 999;
		memcpy(uuids[count], list, k);
		uuids[count++][k] = '\0';
		list += k + (list[k] == ',');
	}
	return 0;
}

int nvmlShutdown(void)
{
	return 0;
}

int nvmlDeviceGetCount_v2(unsigned *n)
{
	*n = count;
	return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h)
{
	if (i >= count)
		return 2; /* NVML_ERROR_INVALID_ARGUMENT */
	*h = uuids[i];
	return 0;
}

int nvmlDeviceGetUUID(void *h, char *out, unsigned len)
{
	if (strlen(h) >= len)
		return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
	strcpy(out, h);
	return 0;
}
