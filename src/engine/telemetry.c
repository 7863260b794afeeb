#include "telemetry.h"
#include "clock.h"

#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* --- sysfs helpers (FLOPSCOPE_SYSFS_ROOT replaces /sys in tests) ---- */

static const char *sysfs_root(void)
{
	const char *r = getenv("FLOPSCOPE_SYSFS_ROOT");
	return r && *r ? r : "/sys";
}

static bool read_num(const char *path, double *v)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fscanf(f, "%lf", v) == 1;
	fclose(f);
	return ok;
}

/* pp_dpm_sclk / pp_dpm_mclk: "1: 1800Mhz *" marks the current level */
static bool read_dpm(const char *path, double *mhz)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[128];
	bool ok = false;
	while (!ok && fgets(line, sizeof line, f)) {
		unsigned idx;
		double v;
		if (strchr(line, '*') && sscanf(line, "%u: %lf", &idx, &v) == 2) {
			*mhz = v;
			ok = true;
		}
	}
	fclose(f);
	return ok;
}

/* The device folder of a GPU: by its PCI address when Vulkan gave it,
 * else the first DRM card of the vendor. */
static bool find_card(const DeviceInfo *d, char *dev, size_t len, char *card, size_t clen, char *why, size_t wlen)
{
	const char *root = sysfs_root();
	glob_t g;
	char pat[600];
	snprintf(pat, sizeof pat, "%s/class/drm/card[0-9]*", root);
	bool found = false;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && !found; i++) {
			char p[700], link[700];
			double vendor;
			snprintf(p, sizeof p, "%s/device/vendor", g.gl_pathv[i]);
			if (!read_num(p, &vendor) || (uint32_t)vendor != d->vendor_id)
				continue;
			if (d->has_pci) {
				/* device/uevent names PCI_SLOT_NAME=0000:03:00.0 */
				snprintf(p, sizeof p, "%s/device/uevent", g.gl_pathv[i]);
				snprintf(link, sizeof link, "PCI_SLOT_NAME=%04x:%02x:%02x.%x", d->pci_domain, d->pci_bus,
				         d->pci_device, d->pci_function);
				FILE *f = fopen(p, "r");
				char line[256];
				bool match = false;
				while (f && fgets(line, sizeof line, f))
					if (!strncmp(line, link, strlen(link)))
						match = true;
				if (f)
					fclose(f);
				if (!match)
					continue;
			}
			snprintf(dev, len, "%s/device", g.gl_pathv[i]);
			snprintf(card, clen, "%s", g.gl_pathv[i]);
			found = true;
		}
		globfree(&g);
	}
	if (!found)
		snprintf(why, wlen, "no DRM card of vendor 0x%04x%s under %s/class/drm", d->vendor_id,
		         d->has_pci ? " at the device's PCI address" : "", root);
	return found;
}

static bool first_glob(const char *pattern, char *out, size_t len)
{
	glob_t g;
	bool ok = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	if (ok)
		snprintf(out, len, "%s", g.gl_pathv[0]);
	if (ok || g.gl_pathc == 0)
		globfree(&g);
	return ok;
}

/* --- AMD (amdgpu) and Intel (i915, xe) through sysfs ----------------- */

typedef struct GpuSysfs {
	bool amd;
	char dev[700], card[700], hwmon[800];
} GpuSysfs;

static bool gpu_sysfs_read(TelSource *s, TelReading *r)
{
	GpuSysfs *g = s->state;
	char p[900];
	double v;
	memset(r, 0, sizeof *r);
	if (g->amd) {
		snprintf(p, sizeof p, "%s/pp_dpm_sclk", g->dev);
		if (read_dpm(p, &v)) {
			r->v[TEL_SM_MHZ] = v;
			r->valid |= 1u << TEL_SM_MHZ;
		}
		snprintf(p, sizeof p, "%s/pp_dpm_mclk", g->dev);
		if (read_dpm(p, &v)) {
			r->v[TEL_MEM_MHZ] = v;
			r->valid |= 1u << TEL_MEM_MHZ;
		}
	} else {
		snprintf(p, sizeof p, "%s/gt_cur_freq_mhz", g->card);
		if (read_num(p, &v) || (snprintf(p, sizeof p, "%s/tile0/gt0/freq0/cur_freq", g->dev), read_num(p, &v))) {
			r->v[TEL_SM_MHZ] = v;
			r->valid |= 1u << TEL_SM_MHZ;
		}
	}
	if (g->hwmon[0]) {
		snprintf(p, sizeof p, "%s/power1_average", g->hwmon);
		if (read_num(p, &v) || (snprintf(p, sizeof p, "%s/power1_input", g->hwmon), read_num(p, &v))) {
			r->v[TEL_POWER_W] = v * 1e-6; /* microwatts */
			r->valid |= 1u << TEL_POWER_W;
		}
		snprintf(p, sizeof p, "%s/temp1_input", g->hwmon);
		if (read_num(p, &v)) {
			r->v[TEL_TEMP_C] = v * 1e-3; /* millidegrees */
			r->valid |= 1u << TEL_TEMP_C;
		}
	}
	return r->valid != 0;
}

static void gpu_sysfs_close(TelSource *s)
{
	free(s->state);
}

static bool gpu_sysfs_open(TelSource *s, const DeviceInfo *d, char *note, size_t len)
{
	GpuSysfs *g = calloc(1, sizeof *g);
	if (!g)
		return false;
	g->amd = d->vendor_id == 0x1002;
	if (!find_card(d, g->dev, sizeof g->dev, g->card, sizeof g->card, note, len)) {
		free(g);
		return false;
	}
	char pat[800];
	snprintf(pat, sizeof pat, "%s/hwmon/hwmon[0-9]*", g->dev);
	if (!first_glob(pat, g->hwmon, sizeof g->hwmon))
		g->hwmon[0] = '\0';
	char p[900];
	double v;
	snprintf(p, sizeof p, g->amd ? "%s/pp_dpm_sclk" : "%s/gt_max_freq_mhz", g->amd ? g->dev : g->card);
	if (g->amd) {
		/* the highest listed level */
		FILE *f = fopen(p, "r");
		char line[128];
		while (f && fgets(line, sizeof line, f)) {
			unsigned idx;
			if (sscanf(line, "%u: %lf", &idx, &v) == 2 && v > s->max_mhz)
				s->max_mhz = v;
		}
		if (f)
			fclose(f);
	} else if (read_num(p, &v)) {
		s->max_mhz = v;
	}
	s->name = g->amd ? "amdgpu" : "intel";
	s->state = g;
	s->read = gpu_sysfs_read;
	s->close = gpu_sysfs_close;
	TelReading r;
	if (!gpu_sysfs_read(s, &r)) {
		snprintf(note, len, "%s: nothing readable under %.200s", s->name, g->dev);
		free(g);
		return false;
	}
	snprintf(note, len, "%s sysfs (%.200s): %s%s%s", s->name, g->dev,
	         tel_has(&r, TEL_SM_MHZ) ? "clock" : "clock N/A",
	         tel_has(&r, TEL_POWER_W) ? ", power" : ", power N/A",
	         tel_has(&r, TEL_TEMP_C) ? ", temperature" : "");
	return true;
}

/* --- CPU devices: the clock from sysfs or /proc/cpuinfo --------------- */

typedef struct CpuTel {
	bool sysfs;
	char rapl[700];              /* energy_uj of package 0, or "" */
	double last_uj, range_uj;
	uint64_t last_ns;
} CpuTel;

static double cpu_mhz_now(bool sysfs)
{
	double sum = 0;
	int n = 0;
	if (sysfs) {
		glob_t g;
		char pat[600];
		snprintf(pat, sizeof pat, "%s/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_cur_freq", sysfs_root());
		if (glob(pat, 0, NULL, &g) == 0) {
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
	double uj;
	uint64_t t = clock_mono_ns();
	if (c->rapl[0] && read_num(c->rapl, &uj)) {
		if (c->last_ns && t > c->last_ns) {
			double d = uj - c->last_uj;
			if (d < 0) /* the counter wrapped */
				d += c->range_uj;
			if (d >= 0) {
				r->v[TEL_POWER_W] = d * 1e-6 / ((double)(t - c->last_ns) * 1e-9);
				r->valid |= 1u << TEL_POWER_W;
			}
		}
		c->last_uj = uj;
		c->last_ns = t;
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
	char p[700];
	double khz;
	snprintf(p, sizeof p, "%s/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", sysfs_root());
	if (read_num(p, &khz))
		s->max_mhz = khz / 1000;
	snprintf(p, sizeof p, "%s/class/powercap/intel-rapl:0/energy_uj", sysfs_root());
	double uj;
	if (read_num(p, &uj)) {
		snprintf(c->rapl, sizeof c->rapl, "%s", p);
		snprintf(p, sizeof p, "%s/class/powercap/intel-rapl:0/max_energy_range_uj", sysfs_root());
		if (!read_num(p, &c->range_uj))
			c->range_uj = 0;
	}
	s->name = "cpu";
	s->state = c;
	s->read = cpu_read;
	s->close = cpu_close;
	snprintf(note, len, "CPU clock from %s; %s", c->sysfs ? "cpufreq (sysfs)" : "/proc/cpuinfo",
	         c->rapl[0] ? "package power from RAPL (energy counter)" : "power N/A (no readable RAPL)");
	return true;
}

/* --- the sampling thread ---------------------------------------------- */

static void *tel_main(void *arg)
{
	Telemetry *t = arg;
	while (!atomic_load(&t->stop)) {
		TelReading r;
		uint64_t t0 = clock_mono_ns();
		bool ok = t->src.read(&t->src, &r);
		atomic_fetch_add(&t->read_ns, clock_mono_ns() - t0);
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
	else if (d->type == DEV_CPU)
		t->active = cpu_open(&t->src, t->note, sizeof t->note);
	else if (d->vendor_id == 0x1002 || d->vendor_id == 0x8086)
		t->active = gpu_sysfs_open(&t->src, d, t->note, sizeof t->note);
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
