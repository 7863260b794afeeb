/* A stand-in for NVML (libnvidia-ml.so.1) for the tests on machines without
 * an NVIDIA GPU: it knows the GPUs whose UUIDs FLOPSCOPE_FAKE_NVML lists
 * ("GPU-<uuid>,GPU-<uuid>", in NVML's index order) and answers the calls
 * flopscope makes to map NVML's indices to devices. Its telemetry answers
 * NVML_ERROR_NOT_SUPPORTED, as a driver that lacks it, unless
 * FLOPSCOPE_FAKE_NVML_TEL gives the readings, every device the same:
 * "sm=MHZ,sm_max=MHZ,mem=MHZ,power=W,power_instant=W,limit=W,temp=C,temp_slowdown=C,reasons=BITS,
 *  viol_power=F,viol_thermal=F,replays=N,replay_rate=R,ecc_unc=N,ecc_unc_rate=R,ecc_corr=N,
 *  remap_pending=0|1,remap_failed=0|1" (the ECC counts volatile, the uncorrected growing by R a
 *  second from the library's start; the remap flags nvmlDeviceGetRemappedRows's; power_instant: the
 * field NVML_FI_DEV_POWER_INSTANT through nvmlDeviceGetFieldValues;
 * "energy=W": a total energy counter, nvmlDeviceGetTotalEnergyConsumption,
 * that counts W watts from 1e6 J at the library's start, in 100 ms steps
 * as the card's; "reasons_at=S": the reasons and sm only from S seconds
 * after the library's start, no reason and sm_max (else sm) before, as a
 * power cap engaging; BITS NVML's
 * clocks-event reasons, in hex or decimal; the PCIe replay counter starts at
 * N and grows by R a second; a violation counter grows by F seconds a second from the
 * library's start; a key left out is not supported; "power_ramp=S" makes
 * the power climb from 100 W to power= over S seconds).
 * nvmlDeviceGetName names every GPU "NVIDIA Fake"; FLOPSCOPE_FAKE_NVML_MIG
 * lists the UUIDs whose MIG mode is on (nvmlDeviceGetMigMode).
 * FLOPSCOPE_FAKE_NVML_PROCS lists the processes with a context on every
 * device: "PID:MIB:SM,..." (PID "self": the calling process; MIB its
 * memory, SM its share of the SMs in %); unset: the process calls answer
 * NVML_ERROR_NOT_SUPPORTED. Built by the Makefile into
 * $(B)/tests/fake-nvml/, found through LD_LIBRARY_PATH. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_GPUS 16
static char uuids[MAX_GPUS][96];
static unsigned count;

int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetCount_v2(unsigned *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h);
int nvmlDeviceGetUUID(void *h, char *out, unsigned len);

#define NOT_SUPPORTED 3 /* NVML_ERROR_NOT_SUPPORTED */

/* The readings FLOPSCOPE_FAKE_NVML_TEL gives (has: the key was there). */
enum { SM, SM_MAX, MEM, POWER, LIMIT, TEMP, REASONS, VIOL_POWER, VIOL_THERMAL, POWER_RAMP, REPLAYS, REPLAY_RATE,
       POWER_INSTANT, ENERGY, REASONS_AT, TEMP_SLOWDOWN, ECC_UNC, ECC_UNC_RATE, ECC_CORR, REMAP_PENDING, REMAP_FAILED,
       NKEYS };
static const char *const keys[NKEYS] = { "sm", "sm_max", "mem", "power", "limit", "temp", "reasons",
	                                     "viol_power", "viol_thermal", "power_ramp", "replays", "replay_rate",
	                                     "power_instant", "energy", "reasons_at", "temp_slowdown", "ecc_unc",
	                                     "ecc_unc_rate", "ecc_corr", "remap_pending", "remap_failed" };
static double val[NKEYS];
static int has[NKEYS];
static struct timespec t0;

static void read_tel(void)
{
	memset(has, 0, sizeof has);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	const char *s = getenv("FLOPSCOPE_FAKE_NVML_TEL");
	while (s && *s) {
		size_t k = strcspn(s, "=,");
		for (int i = 0; i < NKEYS; i++)
			if (s[k] == '=' && strlen(keys[i]) == k && !strncmp(s, keys[i], k)) {
				val[i] = strtod(s + k + 1, NULL);
				has[i] = 1;
			}
		s += k;
		s += strcspn(s, ",");
		s += *s == ',';
	}
}

static double since_start(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9;
}

int nvmlInit_v2(void)
{
	read_tel();
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

int nvmlDeviceGetName(void *h, char *out, unsigned len);
int nvmlDeviceGetName(void *h, char *out, unsigned len)
{
	(void)h;
	if (len < 12)
		return 7;
	strcpy(out, "NVIDIA Fake");
	return 0;
}

int nvmlDeviceGetMigMode(void *h, unsigned *cur, unsigned *pend);
int nvmlDeviceGetMigMode(void *h, unsigned *cur, unsigned *pend)
{
	const char *on = getenv("FLOPSCOPE_FAKE_NVML_MIG");
	*cur = *pend = on && strstr(on, (const char *)h) ? 1 : 0;
	return 0;
}

int nvmlDeviceGetClockInfo(void *h, int type, unsigned *mhz);
int nvmlDeviceGetMaxClockInfo(void *h, int type, unsigned *mhz);
int nvmlDeviceGetPowerUsage(void *h, unsigned *mw);
int nvmlDeviceGetEnforcedPowerLimit(void *h, unsigned *mw);
int nvmlDeviceGetTemperature(void *h, int sensor, unsigned *c);
int nvmlDeviceGetTemperatureThreshold(void *h, int which, unsigned *c);
int nvmlDeviceGetCurrentClocksEventReasons(void *h, unsigned long long *bits);
typedef struct FakeViolation {
	unsigned long long reference_us, violation_ns; /* NVML: a CPU timestamp in us; ns */
} FakeViolation;
int nvmlDeviceGetViolationStatus(void *h, int policy, FakeViolation *v);

/* A reading: 0 and *out, or NOT_SUPPORTED where the key was not given. */
static int reading(int key, double scale, unsigned *out)
{
	if (!has[key])
		return NOT_SUPPORTED;
	*out = (unsigned)(val[key] * scale + 0.5);
	return 0;
}

int nvmlDeviceGetClockInfo(void *h, int type, unsigned *mhz)
{
	(void)h;
	if (type != 2 && has[REASONS_AT] && since_start() < val[REASONS_AT] && has[SM_MAX])
		return reading(SM_MAX, 1, mhz); /* before the cap: the boost clock */
	return reading(type == 2 ? MEM : SM, 1, mhz); /* NVML_CLOCK_MEM, else SM */
}

int nvmlDeviceGetMaxClockInfo(void *h, int type, unsigned *mhz)
{
	(void)h;
	return type == 2 ? NOT_SUPPORTED : reading(SM_MAX, 1, mhz);
}

int nvmlDeviceGetPowerUsage(void *h, unsigned *mw)
{
	(void)h;
	int rc = reading(POWER, 1000, mw);
	double ramp = has[POWER_RAMP] ? val[POWER_RAMP] : 0, t = since_start();
	if (!rc && ramp > 0 && t < ramp)
		*mw = (unsigned)((100 + (val[POWER] - 100) * t / ramp) * 1000);
	return rc;
}

/* nvmlFieldValue_t's layout; the instant power's field alone */
typedef struct FakeField {
	unsigned field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, ret;
	union {
		double d;
		unsigned long long ull;
		unsigned ui;
	} v;
} FakeField;
int nvmlDeviceGetFieldValues(void *h, int n, FakeField *f);
int nvmlDeviceGetFieldValues(void *h, int n, FakeField *f)
{
	(void)h;
	for (int i = 0; i < n; i++) {
		f[i].value_type = 1; /* NVML_VALUE_TYPE_UNSIGNED_INT */
		f[i].ret = f[i].field_id == 186 && has[POWER_INSTANT] ? 0 : NOT_SUPPORTED;
		f[i].v.ui = f[i].ret ? 0 : (unsigned)(val[POWER_INSTANT] * 1000);
	}
	return 0;
}

int nvmlDeviceGetTotalEnergyConsumption(void *h, unsigned long long *mj);
int nvmlDeviceGetTotalEnergyConsumption(void *h, unsigned long long *mj)
{
	(void)h;
	if (!has[ENERGY])
		return NOT_SUPPORTED;
	double t = floor(since_start() * 10) / 10; /* the card counts in steps */
	*mj = (unsigned long long)((1e6 + val[ENERGY] * t) * 1000);
	return 0;
}

int nvmlDeviceGetEnforcedPowerLimit(void *h, unsigned *mw)
{
	(void)h;
	return reading(LIMIT, 1000, mw);
}

int nvmlDeviceGetTemperature(void *h, int sensor, unsigned *c)
{
	(void)h;
	(void)sensor;
	return reading(TEMP, 1, c);
}

/* NVML_TEMPERATURE_THRESHOLD_SLOWDOWN (1) only */
int nvmlDeviceGetTemperatureThreshold(void *h, int which, unsigned *c)
{
	(void)h;
	return which == 1 ? reading(TEMP_SLOWDOWN, 1, c) : NOT_SUPPORTED;
}

int nvmlDeviceGetCurrentClocksEventReasons(void *h, unsigned long long *bits)
{
	(void)h;
	if (!has[REASONS])
		return NOT_SUPPORTED;
	*bits = has[REASONS_AT] && since_start() < val[REASONS_AT] ? 0 : (unsigned long long)val[REASONS];
	return 0;
}

/* NVML_PERF_POLICY_POWER (0) and NVML_PERF_POLICY_THERMAL (1) */
int nvmlDeviceGetViolationStatus(void *h, int policy, FakeViolation *v)
{
	(void)h;
	int key = policy == 0 ? VIOL_POWER : policy == 1 ? VIOL_THERMAL : -1;
	if (key < 0 || !has[key])
		return NOT_SUPPORTED;
	double t = since_start();
	v->reference_us = (unsigned long long)(t * 1e6);
	v->violation_ns = (unsigned long long)(t * val[key] * 1e9);
	return 0;
}

int nvmlDeviceGetPcieReplayCounter(void *h, unsigned *count);
int nvmlDeviceGetTotalEccErrors(void *h, int type, int counter, unsigned long long *count);
int nvmlDeviceGetRemappedRows(void *h, unsigned *corr, unsigned *unc, unsigned *pending, unsigned *failed);

/* NVML_VOLATILE_ECC (0) only; type 0 corrected, 1 uncorrected */
int nvmlDeviceGetTotalEccErrors(void *h, int type, int counter, unsigned long long *count)
{
	(void)h;
	int k = type == 1 ? ECC_UNC : ECC_CORR;
	if (counter != 0 || !has[k])
		return NOT_SUPPORTED;
	*count = (unsigned long long)(val[k] + (k == ECC_UNC && has[ECC_UNC_RATE] ? val[ECC_UNC_RATE] * since_start() : 0));
	return 0;
}

int nvmlDeviceGetRemappedRows(void *h, unsigned *corr, unsigned *unc, unsigned *pending, unsigned *failed)
{
	(void)h;
	if (!has[REMAP_PENDING] && !has[REMAP_FAILED])
		return NOT_SUPPORTED;
	*corr = *unc = 0;
	*pending = has[REMAP_PENDING] && val[REMAP_PENDING] != 0;
	*failed = has[REMAP_FAILED] && val[REMAP_FAILED] != 0;
	return 0;
}
int nvmlDeviceGetPcieReplayCounter(void *h, unsigned *count)
{
	(void)h;
	if (!has[REPLAYS])
		return NOT_SUPPORTED;
	*count = (unsigned)(val[REPLAYS] + (has[REPLAY_RATE] ? val[REPLAY_RATE] * since_start() : 0));
	return 0;
}

/* nvmlProcessInfo_v1_t and nvmlProcessUtilizationSample_t */
typedef struct FakeProc {
	unsigned pid;
	unsigned long long mem;
} FakeProc;
typedef struct FakeUtil {
	unsigned pid;
	unsigned long long time_us;
	unsigned sm, mem, enc, dec;
} FakeUtil;
int nvmlDeviceGetComputeRunningProcesses(void *h, unsigned *count, FakeProc *out);
int nvmlDeviceGetGraphicsRunningProcesses(void *h, unsigned *count, FakeProc *out);
int nvmlDeviceGetProcessUtilization(void *h, FakeUtil *out, unsigned *count, unsigned long long last_us);

/* FLOPSCOPE_FAKE_NVML_PROCS read: how many, or -1 when unset */
static int procs(FakeProc *p, unsigned *sm, int cap)
{
	const char *s = getenv("FLOPSCOPE_FAKE_NVML_PROCS");
	if (!s)
		return -1;
	int n = 0;
	while (*s && n < cap) {
		char *end;
		unsigned pid = !strncmp(s, "self", 4) ? (unsigned)getpid() : (unsigned)strtoul(s, &end, 10);
		s = strchr(s, ':');
		if (!s)
			break;
		unsigned long long mib = strtoull(s + 1, &end, 10);
		unsigned share = *end == ':' ? (unsigned)strtoul(end + 1, &end, 10) : 0;
		p[n] = (FakeProc){ pid, mib << 20 };
		sm[n++] = share;
		s = end + (*end == ',');
	}
	return n;
}

/* NVML's rule for a list: all of it, or how many it needs (false) */
static int room(const void *out, unsigned *count, int n)
{
	if (!out || *count < (unsigned)n) {
		*count = (unsigned)n;
		return 0;
	}
	*count = (unsigned)n;
	return 1;
}

int nvmlDeviceGetComputeRunningProcesses(void *h, unsigned *count, FakeProc *out)
{
	(void)h;
	FakeProc p[64];
	unsigned sm[64];
	int n = procs(p, sm, 64);
	if (n < 0)
		return NOT_SUPPORTED;
	if (!room(out, count, n))
		return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
	memcpy(out, p, (size_t)n * sizeof *p);
	return 0;
}

int nvmlDeviceGetGraphicsRunningProcesses(void *h, unsigned *count, FakeProc *out)
{
	(void)h;
	(void)out;
	if (!getenv("FLOPSCOPE_FAKE_NVML_PROCS"))
		return NOT_SUPPORTED;
	*count = 0;
	return 0;
}

int nvmlDeviceGetProcessUtilization(void *h, FakeUtil *out, unsigned *count, unsigned long long last_us)
{
	(void)h;
	(void)last_us;
	FakeProc p[64];
	unsigned sm[64];
	int n = procs(p, sm, 64);
	if (n < 0)
		return NOT_SUPPORTED;
	if (!room(out, count, n))
		return 7;
	for (int i = 0; i < n; i++)
		out[i] = (FakeUtil){ p[i].pid, (unsigned long long)(since_start() * 1e6) + 1, sm[i], 0, 0, 0 };
	return 0;
}
