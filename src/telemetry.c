#include "telemetry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const tel_field_names[TEL_FIELD_COUNT] = {
	"sm_mhz", "mem_mhz", "power_w", "temp_c", "pstate", "throttle",
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- NVIDIA: NVML, loaded with dlopen --------------------------------- */

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

static bool nvml_open(TelSource *s, const DeviceInfo *d, char *note, size_t len)
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
	if (maxclk && maxclk(n->dev, 1, &m) == 0)
		s->max_mhz = m;
	s->name = "nvml";
	s->state = n;
	s->read = nvml_read;
	s->close = nvml_close;
	snprintf(note, len, "NVML: SM and memory clock, power, temperature, P-state, clock-event reasons");
	return true;
}

/* --- CPU devices: the clock from sysfs or /proc/cpuinfo --------------- */

typedef struct CpuTel {
	bool sysfs;
} CpuTel;

static double cpu_mhz_now(bool sysfs)
{
	double sum = 0;
	int n = 0;
	if (sysfs) {
		glob_t g;
		if (glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq", 0, NULL, &g) == 0) {
			for (size_t i = 0; i < g.gl_pathc; i++) {
				FILE *f = fopen(g.gl_pathv[i], "r");
				double khz;
				if (f && fscanf(f, "%lf", &khz) == 1) {
					sum += khz / 1000;
					n++;
				}
				if (f)
					fclose(f);
			}
			globfree(&g);
		}
		return n ? sum / n : 0;
	}
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	char line[256];
	while (fgets(line, sizeof line, f)) {
		double mhz;
		if (!strncmp(line, "cpu MHz", 7) && sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1) {
			sum += mhz;
			n++;
		}
	}
	fclose(f);
	return n ? sum / n : 0;
}

static bool cpu_read(TelSource *s, TelReading *r)
{
	CpuTel *c = s->state;
	memset(r, 0, sizeof *r);
	double mhz = cpu_mhz_now(c->sysfs);
	if (mhz > 0) {
		r->v[TEL_SM_MHZ] = mhz;
		r->valid |= 1u << TEL_SM_MHZ;
	}
	return r->valid != 0;
}

static void cpu_close(TelSource *s)
{
	free(s->state);
}

static bool cpu_open(TelSource *s, char *note, size_t len)
{
	CpuTel *c = calloc(1, sizeof *c);
	if (!c)
		return false;
	c->sysfs = cpu_mhz_now(true) > 0;
	if (!c->sysfs && cpu_mhz_now(false) <= 0) {
		free(c);
		snprintf(note, len, "no CPU clock in sysfs or /proc/cpuinfo");
		return false;
	}
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	double khz;
	if (f && fscanf(f, "%lf", &khz) == 1)
		s->max_mhz = khz / 1000;
	if (f)
		fclose(f);
	s->name = "cpu";
	s->state = c;
	s->read = cpu_read;
	s->close = cpu_close;
	snprintf(note, len, "CPU clock from %s; power N/A (no readable RAPL)",
	         c->sysfs ? "cpufreq (sysfs)" : "/proc/cpuinfo");
	return true;
}

/* --- the sampling thread ---------------------------------------------- */

static void *tel_main(void *arg)
{
	Telemetry *t = arg;
	while (!atomic_load(&t->stop)) {
		TelReading r;
		uint64_t t0 = now_ns();
		bool ok = t->src.read(&t->src, &r);
		atomic_fetch_add(&t->read_ns, now_ns() - t0);
		atomic_fetch_add(&t->reads, 1);
		if (ok) {
			pthread_mutex_lock(&t->mu);
			t->latest = r;
			pthread_mutex_unlock(&t->mu);
		}
		struct timespec ts = { 0, (long)t->period_ms * 1000000L };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

bool telemetry_open(Telemetry *t, const DeviceInfo *d)
{
	memset(t, 0, sizeof *t);
	atomic_init(&t->stop, false);
	pthread_mutex_init(&t->mu, NULL);
	atomic_init(&t->reads, 0);
	atomic_init(&t->read_ns, 0);
	if (getenv("FLOPSCOPE_NO_TELEMETRY")) {
		snprintf(t->note, sizeof t->note, "telemetry off (FLOPSCOPE_NO_TELEMETRY)");
		return false;
	}
	if (d->vendor_id == 0x10de)
		t->active = nvml_open(&t->src, d, t->note, sizeof t->note);
	else if (d->type == VK_PHYSICAL_DEVICE_TYPE_CPU)
		t->active = cpu_open(&t->src, t->note, sizeof t->note);
	else
		snprintf(t->note, sizeof t->note, "no telemetry source for vendor 0x%04x: clocks and power N/A",
		         d->vendor_id);
	return t->active;
}

bool telemetry_start(Telemetry *t, unsigned period_ms)
{
	if (!t->active)
		return false;
	t->period_ms = period_ms ? period_ms : 10;
	/* one reading before anything is measured */
	TelReading r;
	if (t->src.read(&t->src, &r)) {
		t->latest = r;
	}
	if (pthread_create(&t->thread, NULL, tel_main, t) != 0)
		return false;
	t->thread_started = true;
	return true;
}

void telemetry_latest(Telemetry *t, TelReading *out)
{
	if (!t->active) {
		memset(out, 0, sizeof *out);
		return;
	}
	pthread_mutex_lock(&t->mu);
	*out = t->latest;
	pthread_mutex_unlock(&t->mu);
}

double telemetry_read_us(Telemetry *t)
{
	uint64_t n = atomic_load(&t->reads);
	return n ? (double)atomic_load(&t->read_ns) / (double)n * 1e-3 : 0;
}

void telemetry_close(Telemetry *t)
{
	if (t->thread_started) {
		atomic_store(&t->stop, true);
		pthread_join(t->thread, NULL);
		t->thread_started = false;
	}
	if (t->active && t->src.close)
		t->src.close(&t->src);
	t->active = false;
	pthread_mutex_destroy(&t->mu);
}
