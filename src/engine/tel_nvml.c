/* tel_nvml: NVIDIA telemetry through NVML, loaded with dlopen. */
#include "nvml.h"
#include "tel_impl.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "fmt.h"
#include "procs.h"

#define NVIDIA_VENDOR 0x10de

#define NVML_PROCS_MAX 64

typedef int (*NvmlFn)(void);
typedef struct Nvml {
	void *lib;
	void *dev;
	int (*shutdown)(void);
	int (*clock)(void *, int, unsigned *);
	int (*power)(void *, unsigned *);
	int (*fields)(void *, int, void *); /* nvmlDeviceGetFieldValues */
	int (*limit)(void *, unsigned *);
	int (*temp)(void *, int, unsigned *);
	double slowdown_c;      /* its slowdown threshold, read at the open; NaN: none given */
	int (*pstate)(void *, int *);
	int (*throttle)(void *, unsigned long long *);
	int (*violation)(void *, int, void *);
	/* the counters, asked every 250 ms: a call costs ~0.7 ms on an H100
	 * (driver 580.159.04), 25 times the rest of a reading; they count on
	 * between, so a run's count is short by at most 0.25 s */
	double viol_t;
	double viol_s[2];
	bool viol_ok[2];
	/* the PCIe link's replays, asked with the counters */
	int (*replays)(void *, unsigned *);
	unsigned replay_count;
	bool replay_ok;
	/* the memory's ECC errors (volatile: since the driver loaded) and its
	 * row remapping, asked with the counters */
	int (*ecc)(void *, int, int, unsigned long long *);
	unsigned long long ecc_count[2]; /* corrected, uncorrected */
	bool ecc_ok[2];
	int (*remap)(void *, unsigned *, unsigned *, unsigned *, unsigned *);
	unsigned remap_pending, remap_failed;
	bool remap_ok;
	/* the card's energy counter (mJ since the driver loaded), asked with the counters */
	int (*energy)(void *, unsigned long long *);
	unsigned long long energy_mj;
	bool energy_ok;
	/* the processes on the GPU: NVML's v1 calls, whose entry layout (pid,
	 * memory) every driver keeps; asked every 250 ms, the answer kept */
	int (*compute_procs)(void *, unsigned *, void *);
	int (*graphics_procs)(void *, unsigned *, void *);
	int (*proc_util)(void *, void *, unsigned *, unsigned long long);
	unsigned long long util_seen;   /* the newest utilization sample's time (us) */
	double util_t;                  /* when last asked: once a second (a slow call) */
	unsigned util_pid[2 * NVML_PROCS_MAX], util_sm[2 * NVML_PROCS_MAX], nutil; /* its last answer */
	double procs_t;
	double others;
	char who[128];
	bool no_context;        /* this process holds none on the device (TelSource's) */
	ProcTable table;
} Nvml;

/* nvmlFieldValue_t, as nvml.h lays it out (its value a union of 8 bytes) */
typedef struct NvmlField {
	unsigned field_id, scope_id;
	long long timestamp, latency_us;
	int value_type; /* nvmlValueType_t: 0 double, 1 unsigned, 2 unsigned long, 3 unsigned long long,
	                   4 signed long long, 5 signed int */
	int ret;        /* nvmlReturn_t */
	union {
		double d;
		unsigned ui;
		unsigned long ul;
		unsigned long long ull;
		long long sll;
		int si;
	} v;
} NvmlField;
#define NVML_FI_DEV_POWER_INSTANT 186

/* A field value as a number; NAN where NVML did not give it. */
static double field_num(const NvmlField *f)
{
	if (f->ret != 0)
		return NAN;
	switch (f->value_type) {
	case 0: return f->v.d;
	case 1: return f->v.ui;
	case 2: return (double)f->v.ul;
	case 3: return (double)f->v.ull;
	case 4: return (double)f->v.sll;
	case 5: return f->v.si;
	default: return NAN;
	}
}

/* nvmlProcessUtilizationSample_t */
typedef struct NvmlProcUtil {
	unsigned pid;
	unsigned long long time_us;
	unsigned sm, mem, enc, dec;
} NvmlProcUtil;

/* nvmlViolationTime_t */
typedef struct NvmlViolation {
	unsigned long long reference_us; /* a CPU timestamp */
	unsigned long long violation_ns; /* the time held, since the driver started */
} NvmlViolation;

typedef struct NvmlProcV1 {
	unsigned pid;
	unsigned long long used_memory;
} NvmlProcV1;


/* Each listed process's share of the SMs: NVML's newest utilization sample
 * of it since the last asking. */
static void proc_shares(Nvml *n, ProcTable *t)
{
	double now = (double)clock_mono_ns() * 1e-9;
	if (n->proc_util && !(n->util_t > 0 && now - n->util_t < 1.0)) {
		NvmlProcUtil u[2 * NVML_PROCS_MAX];
		unsigned c = 2 * NVML_PROCS_MAX;
		n->util_t = now;
		if (n->proc_util(n->dev, u, &c, n->util_seen) == 0) {
			n->nutil = 0;
			for (unsigned i = 0; i < c && i < 2 * NVML_PROCS_MAX; i++) {
				if (u[i].time_us > n->util_seen)
					n->util_seen = u[i].time_us;
				n->util_pid[n->nutil] = u[i].pid;
				n->util_sm[n->nutil++] = u[i].sm;
			}
		}
	}
	/* the last second's figures, between the calls */
	for (unsigned i = 0; i < n->nutil; i++)
		for (unsigned k = 0; k < t->n; k++)
			if (t->p[k].pid == n->util_pid[i])
				t->p[k].sm_pct = n->util_sm[i];
}

/* The other processes on the device (compute and graphics contexts): each
 * with its memory, name, user and share of the SMs where known; false when
 * NVML cannot tell. Where this process, which holds a context on the
 * device, is not among NVML's pids (a container's PID namespace: NVML gives
 * the host's), the others are counted and never named: a local /proc entry
 * of that number would be another process. A process that holds none
 * (--watch) counts every pid as another's and names it from /proc, as
 * nvtop does (its unit runs in the host's namespace). */
static bool nvml_others(Nvml *n)
{
	double now = (double)clock_mono_ns() * 1e-9;
	if (n->procs_t > 0 && now - n->procs_t < 0.25)
		return n->others >= 0;
	n->procs_t = now;
	n->others = -1;
	if (!n->compute_procs)
		return false;
	NvmlProcV1 list[2 * NVML_PROCS_MAX];
	unsigned np = 0, c = NVML_PROCS_MAX;
	if (n->compute_procs(n->dev, &c, list) != 0)
		return false;
	np = c < NVML_PROCS_MAX ? c : NVML_PROCS_MAX;
	unsigned ncompute = np;
	c = NVML_PROCS_MAX;
	if (n->graphics_procs && n->graphics_procs(n->dev, &c, list + np) == 0)
		np += c < NVML_PROCS_MAX ? c : NVML_PROCS_MAX;
	unsigned pids[2 * NVML_PROCS_MAX], self = (unsigned)getpid();
	bool self_seen = false;
	for (unsigned i = 0; i < np; i++) {
		pids[i] = list[i].pid;
		self_seen |= pids[i] == self;
	}
	unsigned others[PROCS_SHOWN];
	size_t total = procs_others(pids, np, self, others, PROCS_SHOWN);
	ProcTable *t = &n->table;
	memset(t, 0, sizeof *t);
	if (np && !self_seen && !n->no_context) {
		/* another namespace's pids: one of them is this process */
		t->foreign = true;
		t->total = total ? (unsigned)total - 1 : 0;
		n->others = t->total;
		snprintf(n->who, sizeof n->who, "%u (pids of another PID namespace: not named)", t->total);
		return true;
	}
	t->total = (unsigned)total;
	t->n = (unsigned)(total < PROCS_SHOWN ? total : PROCS_SHOWN);
	for (unsigned k = 0; k < t->n; k++) {
		ProcInfo *p = &t->p[k];
		p->pid = others[k];
		p->mem_bytes = p->sm_pct = NAN;
		for (unsigned i = 0; i < np; i++) {
			if (list[i].pid != p->pid)
				continue;
			/* a compute context, a graphics one, or both (listed twice) */
			ProcKind kind = i < ncompute ? PROC_COMPUTE : PROC_GRAPHICS;
			p->kind = p->kind == PROC_KIND_UNKNOWN || p->kind == kind ? kind : PROC_BOTH;
			if (list[i].used_memory != ~0ULL) /* NVML_VALUE_NOT_AVAILABLE: ~0 */
				p->mem_bytes = (double)list[i].used_memory;
		}
		procfs_names(p);
	}
	proc_shares(n, t);
	procs_table_describe(t, n->who, sizeof n->who);
	n->others = (double)total;
	return true;
}

static bool nvml_read(TelSource *s, TelReading *r)
{
	Nvml *n = s->state;
	unsigned u;
	int p;
	unsigned long long th;
	memset(r, 0, sizeof *r);
	if (n->clock && n->clock(n->dev, 1 /* NVML_CLOCK_SM */, &u) == 0) {
		tel_set(r, TEL_SM_MHZ, u);
	}
	if (n->clock && n->clock(n->dev, 2 /* NVML_CLOCK_MEM */, &u) == 0) {
		tel_set(r, TEL_MEM_MHZ, u);
	}
	if (n->power && n->power(n->dev, &u) == 0) {
		tel_set(r, TEL_POWER_W, u * 1e-3);
	}
	NvmlField fv = { .field_id = NVML_FI_DEV_POWER_INSTANT };
	if (n->fields && n->fields(n->dev, 1, &fv) == 0) /* mW */
		tel_set(r, TEL_POWER_INSTANT_W, field_num(&fv) * 1e-3);
	if (n->limit && n->limit(n->dev, &u) == 0 && u > 0) {
		tel_set(r, TEL_POWER_LIMIT_W, u * 1e-3);
	}
	if (n->temp && n->temp(n->dev, 0 /* NVML_TEMPERATURE_GPU */, &u) == 0) {
		tel_set(r, TEL_TEMP_C, u);
	}
	if (!isnan(n->slowdown_c))
		tel_set(r, TEL_TEMP_SLOWDOWN_C, n->slowdown_c);
	if (n->pstate && n->pstate(n->dev, &p) == 0 && p >= 0 && p < 32) {
		tel_set(r, TEL_PSTATE, p);
	}
	if (n->throttle && n->throttle(n->dev, &th) == 0) {
		tel_set(r, TEL_THROTTLE, (double)th);
	}
	/* NVML_PERF_POLICY_POWER, NVML_PERF_POLICY_THERMAL */
	double now = (double)clock_mono_ns() * 1e-9;
	if ((n->violation || n->replays || n->energy || n->ecc || n->remap) && (!(n->viol_t > 0) || now - n->viol_t >= 0.25)) {
		n->viol_t = now;
		for (int k = 0; k < 2; k++) {
			NvmlViolation v = { 0, 0 };
			n->viol_ok[k] = n->violation && n->violation(n->dev, k, &v) == 0;
			n->viol_s[k] = (double)v.violation_ns * 1e-9;
		}
		n->replay_ok = n->replays && n->replays(n->dev, &n->replay_count) == 0;
		n->energy_ok = n->energy && n->energy(n->dev, &n->energy_mj) == 0;
		for (int k = 0; k < 2; k++) /* NVML_MEMORY_ERROR_TYPE_CORRECTED, _UNCORRECTED; NVML_VOLATILE_ECC */
			n->ecc_ok[k] = n->ecc && n->ecc(n->dev, k, 0, &n->ecc_count[k]) == 0;
		unsigned corr, unc;
		n->remap_ok = n->remap && n->remap(n->dev, &corr, &unc, &n->remap_pending, &n->remap_failed) == 0;
	}
	if (n->ecc_ok[0])
		tel_set(r, TEL_ECC_CORRECTED, (double)n->ecc_count[0]);
	if (n->ecc_ok[1])
		tel_set(r, TEL_ECC_UNCORRECTED, (double)n->ecc_count[1]);
	if (n->remap_ok) {
		tel_set(r, TEL_REMAP_PENDING, n->remap_pending != 0);
		tel_set(r, TEL_REMAP_FAILED, n->remap_failed != 0);
	}
	if (n->energy_ok)
		tel_set(r, TEL_ENERGY_J, (double)n->energy_mj * 1e-3);
	if (n->viol_ok[0])
		tel_set(r, TEL_VIOL_POWER_S, n->viol_s[0]);
	if (n->viol_ok[1])
		tel_set(r, TEL_VIOL_THERMAL_S, n->viol_s[1]);
	if (n->replay_ok)
		tel_set(r, TEL_PCIE_REPLAYS, n->replay_count);
	if (nvml_others(n)) {
		tel_set(r, TEL_OTHER_GPU, n->others);
		double mem = procs_table_mem(&n->table);
		if (!isnan(mem))
			tel_set(r, TEL_OTHER_GPU_MEM_B, mem);
		snprintf(r->who, sizeof r->who, "%s", n->who);
		r->procs = n->table;
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

/* NVML loaded and started: the calls every user needs. */
typedef struct NvmlLib {
	void *lib;
	int (*count)(unsigned *);
	int (*handle)(unsigned, void **);
	int (*uuid)(void *, char *, unsigned);
} NvmlLib;

static bool nvml_load(NvmlLib *l, char *why, size_t len)
{
	l->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!l->lib) {
		snprintf(why, len, "NVML not found (libnvidia-ml.so.1)");
		return false;
	}
	int (*init)(void) = (int (*)(void))dlsym(l->lib, "nvmlInit_v2");
	l->count = (int (*)(unsigned *))dlsym(l->lib, "nvmlDeviceGetCount_v2");
	l->handle = (int (*)(unsigned, void **))dlsym(l->lib, "nvmlDeviceGetHandleByIndex_v2");
	l->uuid = (int (*)(void *, char *, unsigned))dlsym(l->lib, "nvmlDeviceGetUUID");
	int rc = -1;
	if (!init || !l->count || !l->handle || !l->uuid || (rc = init()) != 0) {
		snprintf(why, len, "NVML present but it would not start (%s)",
		         rc == -1 ? "a function is missing" : "nvmlInit_v2 failed");
		dlclose(l->lib);
		return false;
	}
	return true;
}

static void nvml_unload(NvmlLib *l)
{
	int (*shutdown)(void) = (int (*)(void))dlsym(l->lib, "nvmlShutdown");
	if (shutdown)
		shutdown();
	dlclose(l->lib);
}

/* NVML's handle and index of the GPU whose UUID (NVML's "GPU-...") is
 * Vulkan's deviceUUID, as devinfo_uuid_str writes it; false when none. */
static bool nvml_find(const NvmlLib *l, const char *want, void **h, unsigned *index)
{
	unsigned c = 0;
	if (l->count(&c) != 0)
		return false;
	for (unsigned i = 0; i < c; i++) {
		char u[96];
		if (l->handle(i, h) == 0 && l->uuid(*h, u, sizeof u) == 0 &&
		    !strcmp(u + (strncmp(u, "GPU-", 4) ? 0 : 4), want)) {
			*index = i;
			return true;
		}
	}
	return false;
}

bool nvml_index_devices(DeviceInfo *e, size_t n, char *why, size_t len)
{
	NvmlLib l;
	if (!nvml_load(&l, why, len))
		return false;
	for (size_t i = 0; i < n; i++) {
		char want[48];
		void *h;
		devinfo_uuid_str(e[i].uuid, want, sizeof want);
		e[i].has_gpu_index = nvml_find(&l, want, &h, &e[i].gpu_index);
	}
	nvml_unload(&l);
	return true;
}

int nvml_list_gpus(NvmlGpu *out, size_t cap, char *why, size_t len)
{
	NvmlLib l;
	if (!nvml_load(&l, why, len))
		return -1;
	/* optional calls: a name, the MIG mode (a GPU in MIG mode is not
	 * Vulkan's to use) */
	int (*name)(void *, char *, unsigned) = (int (*)(void *, char *, unsigned))dlsym(l.lib, "nvmlDeviceGetName");
	int (*mig)(void *, unsigned *, unsigned *) =
		(int (*)(void *, unsigned *, unsigned *))dlsym(l.lib, "nvmlDeviceGetMigMode");
	unsigned c = 0;
	int rc = l.count(&c);
	if (rc != 0) {
		snprintf(why, len, "NVML would not count its GPUs (error %d)", rc);
		nvml_unload(&l);
		return -1;
	}
	size_t n = 0;
	for (unsigned i = 0; i < c && n < cap; i++) {
		void *h;
		NvmlGpu *g = &out[n];
		*g = (NvmlGpu){ .index = i, .mig = -1 };
		if (l.handle(i, &h) != 0 || l.uuid(h, g->uuid, sizeof g->uuid) != 0) {
			/* a GPU NVML counts but cannot open (fallen off the bus, in
			 * an error state): listed, with no UUID */
			g->uuid[0] = '\0';
			snprintf(g->name, sizeof g->name, "(NVML cannot open it)");
			n++;
			continue;
		}
		g->uuid[sizeof g->uuid - 1] = '\0';
		fmt_printable(g->uuid);
		if (name && name(h, g->name, sizeof g->name) == 0) {
			g->name[sizeof g->name - 1] = '\0';
			fmt_printable(g->name);
		} else {
			g->name[0] = '\0';
		}
		unsigned cur, pend;
		if (mig && mig(h, &cur, &pend) == 0)
			g->mig = cur != 0;
		n++;
	}
	nvml_unload(&l);
	return (int)n;
}

/* The calls of the library's that the readings use (NULL: this driver's
 * library lacks one). */
static void nvml_symbols(Nvml *n, void *lib)
{
	n->lib = lib;
	n->shutdown = (int (*)(void))dlsym(lib, "nvmlShutdown");
	n->clock = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
	n->power = (int (*)(void *, unsigned *))dlsym(lib, "nvmlDeviceGetPowerUsage");
	n->fields = (int (*)(void *, int, void *))dlsym(lib, "nvmlDeviceGetFieldValues");
	n->limit = (int (*)(void *, unsigned *))dlsym(lib, "nvmlDeviceGetEnforcedPowerLimit");
	n->temp = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
	n->pstate = (int (*)(void *, int *))dlsym(lib, "nvmlDeviceGetPerformanceState");
	n->throttle = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!n->throttle)
		n->throttle = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	n->violation = (int (*)(void *, int, void *))dlsym(lib, "nvmlDeviceGetViolationStatus");
	n->replays = (int (*)(void *, unsigned *))dlsym(lib, "nvmlDeviceGetPcieReplayCounter");
	n->energy = (int (*)(void *, unsigned long long *))dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
	n->ecc = (int (*)(void *, int, int, unsigned long long *))dlsym(lib, "nvmlDeviceGetTotalEccErrors");
	n->remap = (int (*)(void *, unsigned *, unsigned *, unsigned *, unsigned *))dlsym(lib, "nvmlDeviceGetRemappedRows");
	n->compute_procs = (int (*)(void *, unsigned *, void *))dlsym(lib, "nvmlDeviceGetComputeRunningProcesses");
	n->graphics_procs = (int (*)(void *, unsigned *, void *))dlsym(lib, "nvmlDeviceGetGraphicsRunningProcesses");
	n->proc_util = (int (*)(void *, void *, unsigned *, unsigned long long))dlsym(lib, "nvmlDeviceGetProcessUtilization");
}

/* What this GPU answers, asked once: ECC and row remapping (ECC off, or a
 * GPU without remapping, answers an error: not asked again), the instant
 * power, the slowdown threshold (a board's setting, fixed). */
static void nvml_probe(Nvml *n)
{
	unsigned long long ecc_probe;
	unsigned r0, r1, r2, r3, m;
	if (n->ecc && n->ecc(n->dev, 1, 0, &ecc_probe) != 0)
		n->ecc = NULL;
	if (n->remap && n->remap(n->dev, &r0, &r1, &r2, &r3) != 0)
		n->remap = NULL;
	int (*threshold)(void *, int, unsigned *) =
	    (int (*)(void *, int, unsigned *))dlsym(n->lib, "nvmlDeviceGetTemperatureThreshold");
	n->slowdown_c = NAN;
	if (threshold && threshold(n->dev, 1 /* NVML_TEMPERATURE_THRESHOLD_SLOWDOWN */, &m) == 0 && m > 0)
		n->slowdown_c = m;
	NvmlField probe = { .field_id = NVML_FI_DEV_POWER_INSTANT };
	if (n->fields && (n->fields(n->dev, 1, &probe) != 0 || isnan(field_num(&probe))))
		n->fields = NULL;
}

static bool tel_nvml_open(TelSource *s, const DeviceInfo *d, char *note, size_t len)
{
	NvmlLib l;
	char why[200];
	if (!nvml_load(&l, why, sizeof why)) {
		snprintf(note, len, "%s: clocks and power N/A", why);
		return false;
	}
	Nvml *n = calloc(1, sizeof *n);
	if (!n) {
		snprintf(note, len, "NVML: out of memory");
		nvml_unload(&l);
		return false;
	}
	void *lib = l.lib;
	n->no_context = s->no_context;
	int (*maxclk)(void *, int, unsigned *) = (int (*)(void *, int, unsigned *))dlsym(lib, "nvmlDeviceGetMaxClockInfo");
	nvml_symbols(n, lib);

	/* the Vulkan device UUID is NVML's "GPU-..." UUID */
	char want[48];
	unsigned index, m;
	devinfo_uuid_str(d->uuid, want, sizeof want);
	if (!nvml_find(&l, want, &n->dev, &index)) {
		snprintf(note, len, "NVML has no device with UUID %s", want);
		nvml_close(&(TelSource){ .state = n });
		return false;
	}
	nvml_probe(n);
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
	TelReading first;
	if (d->vendor_id != NVIDIA_VENDOR && !nvml_read(s, &first)) {
		/* another vendor's device NVML lists but reads nothing of */
		snprintf(note, len, "NVML reads nothing of %s", want);
		nvml_close(s);
		return false;
	}
	snprintf(note, len, "NVML: SM and memory clock, power (%s)%s, temperature, P-state, clock-event reasons%s%s%s%s%s%s",
	         n->fields ? "instant, NVML_FI_DEV_POWER_INSTANT, beside the driver's average"
	                   : "the driver's average: over a second on Ampere and newer",
	         n->limit ? " and its limit" : "", n->violation ? ", violation counters" : "",
	         n->replays ? ", PCIe replays" : "", n->energy ? ", the energy counter" : "",
	         n->ecc ? ", ECC errors" : "", n->remap ? ", row remapping" : "",
	         n->compute_procs ? ", the other processes on the GPU" : "");
	return true;
}

static bool nvml_serves(const DeviceInfo *d)
{
	return d->vendor_id == NVIDIA_VENDOR;
}

/* Another vendor's device is NVML's only where NVML lists its UUID (and
 * reads something of it): a stand-in NVML in the tests lists lavapipe's.
 * Costs a dlopen that fails where there is no NVML, and NVML's start
 * (~25 ms, docs/PERFORMANCE.md) where there is one. */
static bool nvml_may_serve(const DeviceInfo *d)
{
	return d->vendor_id != NVIDIA_VENDOR;
}

const TelDriver tel_nvml_driver = { .name = "nvml", .serves = nvml_serves, .open = tel_nvml_open,
	                                .may_serve = nvml_may_serve };
