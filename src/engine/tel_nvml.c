/* tel_nvml: NVIDIA telemetry through NVML, loaded with dlopen. */
#include "tel_impl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*NvmlFn)(void);
typedef struct Nvml {
	void *lib;
	void *dev;
	int (*shutdown)(void);
	int (*clock)(void *, int, unsigned *);
	int (*power)(void *, unsigned *);
	int (*temp)(void *, int, unsigned *);
	int (*pstate)(void *, int *);
	int (*throttle)(void *, unsigned long long *);
} Nvml;

static bool nvml_read(TelSource *s, TelReading *r)
{
	Nvml *n = s->state;
	unsigned u;
	int p;
	unsigned long long th;
	memset(r, 0, sizeof *r);
	if (n->clock && n->clock(n->dev, 1 /* NVML_CLOCK_SM */, &u) == 0) {
		r->v[TEL_SM_MHZ] = u;
		r->valid |= 1u << TEL_SM_MHZ;
	}
	if (n->clock && n->clock(n->dev, 2 /* NVML_CLOCK_MEM */, &u) == 0) {
		r->v[TEL_MEM_MHZ] = u;
		r->valid |= 1u << TEL_MEM_MHZ;
	}
	if (n->power && n->power(n->dev, &u) == 0) {
		r->v[TEL_POWER_W] = u * 1e-3;
		r->valid |= 1u << TEL_POWER_W;
	}
	if (n->temp && n->temp(n->dev, 0 /* NVML_TEMPERATURE_GPU */, &u) == 0) {
		r->v[TEL_TEMP_C] = u;
		r->valid |= 1u << TEL_TEMP_C;
	}
	if (n->pstate && n->pstate(n->dev, &p) == 0 && p >= 0 && p < 32) {
		r->v[TEL_PSTATE] = p;
		r->valid |= 1u << TEL_PSTATE;
	}
	if (n->throttle && n->throttle(n->dev, &th) == 0) {
		r->v[TEL_THROTTLE] = (double)th;
		r->valid |= 1u << TEL_THROTTLE;
	}
	return r->valid != 0;
}

static void nvml_close(TelSource *s)
{
	Nvml *n = s->state;
	if (n->shutdown)
		n->shutdown();
	dlclose(n->lib);
	free(n);
}

static bool tel_nvml_open(TelSource *s, const DeviceInfo *d, char *note, size_t len)
{
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(note, len, "NVML not found (libnvidia-ml.so.1): clocks and power N/A");
		return false;
	}
	Nvml *n = calloc(1, sizeof *n);
	int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
	int (*count)(unsigned *) = (int (*)(unsigned *))dlsym(lib, "nvmlDeviceGetCount_v2");
	int (*handle)(unsigned, void **) = (int (*)(unsigned, void **))dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
	int (*uuid)(void *, char *, unsigned) = (int (*)(void *, char *, unsigned))dlsym(lib, "nvmlDeviceGetUUID");
	int (*maxclk)(void *, int, unsigned *) = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetMaxClockInfo");
	if (!n || !init || !count || !handle || !uuid || init() != 0) {
		snprintf(note, len, "NVML present but it would not start");
		free(n);
		dlclose(lib);
		return false;
	}
	n->lib = lib;
	n->shutdown = (int (*)(void))dlsym(lib, "nvmlShutdown");
	n->clock = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
	n->power = (int (*)(void *, unsigned *))dlsym(lib, "nvmlDeviceGetPowerUsage");
	n->temp = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
	n->pstate = (int (*)(void *, int *))dlsym(lib, "nvmlDeviceGetPerformanceState");
	n->throttle = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!n->throttle)
		n->throttle = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");

	/* the Vulkan device UUID is NVML's "GPU-..." UUID */
	char want[48];
	devinfo_uuid_str(d->uuid, want, sizeof want);
	unsigned c = 0;
	count(&c);
	for (unsigned i = 0; i < c && !n->dev; i++) {
		void *h;
		char u[96];
		if (handle(i, &h) == 0 && uuid(h, u, sizeof u) == 0 && !strcmp(u + (strncmp(u, "GPU-", 4) ? 0 : 4), want))
			n->dev = h;
	}
	if (!n->dev) {
		snprintf(note, len, "NVML has no device with UUID %s", want);
		nvml_close(&(TelSource){ .state = n });
		return false;
	}
	unsigned m;
	if (maxclk && maxclk(n->dev, 1, &m) == 0) /* NVML_CLOCK_SM */
		s->max_mhz = m;
	int (*buswidth)(void *, unsigned *) = (int (*)(void *, unsigned *))dlsym(lib, "nvmlDeviceGetMemoryBusWidth");
	if (maxclk && buswidth && maxclk(n->dev, 2, &m) == 0 && buswidth(n->dev, &s->mem_bus_bits) == 0) /* NVML_CLOCK_MEM */
		s->mem_max_mhz = m;
	else
		s->mem_bus_bits = 0;
	s->name = "nvml";
	s->state = n;
	s->read = nvml_read;
	s->close = nvml_close;
	snprintf(note, len, "NVML: SM and memory clock, power, temperature, P-state, clock-event reasons");
	return true;
}

static bool nvml_serves(const DeviceInfo *d)
{
	return d->vendor_id == 0x10de;
}

const TelDriver tel_nvml_driver = { .name = "nvml", .serves = nvml_serves, .open = tel_nvml_open };
