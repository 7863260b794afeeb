/* sample: one measured dispatch, the unit every consumer (screen, log) reads. */
#ifndef FLOPSCOPE_SAMPLE_H
#define FLOPSCOPE_SAMPLE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum {
	SAMPLE_GPU_TIMED = 1u << 0, /* gpu_ns holds a timestamp-query difference */
	SAMPLE_STEADY    = 1u << 1, /* its group count came from the rescale rule */
	SAMPLE_VERIFIED  = 1u << 2, /* the output of this dispatch was checked on the CPU */
	SAMPLE_IMPLAUSIBLE = 1u << 3, /* above 105% of the theoretical peak: kept out of statistics */
	SAMPLE_PIPELINED = 1u << 4, /* submitted while others ran; cpu_ns is the completion interval, or
	                               where that was seen late (shorter than gpu_ns: the drain at a
	                               run's end sees completions at once) the device's own time */
	SAMPLE_INTEGER = 1u << 5,   /* integer operations: the figure is IOPS, not FLOPS */
	SAMPLE_BYTES = 1u << 6,     /* a memory workload: work counts bytes, the rate is B/s */
};

/* The keys of the rows whose aggregates other records carry under the
 * same name (--interval's means, the check's replays over its run, the
 * energy record's limit): the row's key, written once, here. */
#define TEL_KEY_SM_MHZ "sm_mhz"
#define TEL_KEY_POWER_W "power_w"
#define TEL_KEY_POWER_LIMIT_W "power_limit_w"
#define TEL_KEY_PCIE_REPLAYS "pcie_replays"
#define TEL_KEY_TEMP_C "temp_c"

/* Telemetry fields of a sample (and of a reading, engine/telemetry.h):
 * one row each in tel_rows.h. */
typedef enum TelField {
#define TEL_ROW(ID, ...) TEL_##ID,
#include "tel_rows.h"
#undef TEL_ROW
	TEL_FIELD_COUNT
} TelField;
#define SAMPLE_TEL_COUNT TEL_FIELD_COUNT

/* What a field's number is: how a run reads it. */
typedef enum TelKind {
	TEL_GAUGE,           /* a level now */
	TEL_STATE,           /* a state's number */
	TEL_BITS,            /* a set of flags */
	TEL_COUNTER,         /* a count since the driver started: a run takes its difference */
	TEL_SECONDS_COUNTER, /* seconds counted since the driver started: likewise */
} TelKind;

typedef struct TelInfo {
	const char *key;     /* its name in logs, JSON, CSV */
	const char *unit;    /* "" for a count or state */
	TelKind kind;
	double lo, hi;       /* what the hardware can read: outside, no reading */
	const char *fmt;     /* a record's number format (--watch's CSV) */
	bool watch;          /* a column of --watch's records */
	const char *metric;  /* its Prometheus family (the latest reading); NULL: none */
	double scale;        /* the family's unit over the field's (MHz -> Hz: 1e6) */
	const char *help;    /* the family's help; NULL with no family */
	const char *what;
} TelInfo;
extern const TelInfo tel_info[TEL_FIELD_COUNT];

/* Whether v is a reading field f can have (finite, within its row's range). */
static inline bool tel_plausible(TelField f, double v)
{
	return isfinite(v) && v >= tel_info[f].lo && v <= tel_info[f].hi;
}

typedef struct Sample {
	uint64_t seq;        /* 0, 1, 2, ... within a run */
	double t_ms;         /* time since the run started, at completion (CPU clock) */
	uint32_t x, y, z;    /* workgroups dispatched */
	uint64_t groups;     /* x * y * z */
	uint64_t work;       /* exact work of the dispatch in the workload's unit: FLOP,
	                        integer ops (SAMPLE_INTEGER) or bytes (SAMPLE_BYTES) */
	uint64_t gpu_ns;     /* timestamp difference; 0 without SAMPLE_GPU_TIMED */
	uint64_t cpu_ns;     /* wall time: idle queue, submit, fence signalled */
	uint64_t gpu_end_ns; /* the end timestamp on the device's clock (duty cycle); 0 untimed */
	double rate;         /* work / time of the timing source (GPU if timed): FLOPS,
	                        IOPS or B/s (sample_unit) */
	uint32_t flags;
	uint32_t tel_valid;  /* bit per telemetry field */
	double tel[SAMPLE_TEL_COUNT]; /* the newest reading when the dispatch ended */
	double peak_flops;   /* theoretical peak rate at this sample's clock (its unit); 0 unknown */
	double peak_max_flops; /* ... at the device's maximum clock (the rated peak); 0 unknown */
	uint32_t trials;     /* dispatches per submission (--trials); times and work are
	                        per dispatch; 0 or 1: one */
	uint64_t size;       /* bytes of one copy (transfer workloads); 0 otherwise */
	double target_ms;    /* the dispatch target it was measured at; 0 unknown */
} Sample;

/* "FLOPS"; "IOPS" for integer workloads, "B/s" for memory workloads. */
static inline const char *sample_flags_unit(uint32_t flags)
{
	return (flags & SAMPLE_BYTES) ? "B/s" : (flags & SAMPLE_INTEGER) ? "IOPS" : "FLOPS";
}

static inline const char *sample_unit(const Sample *s)
{
	return sample_flags_unit(s->flags);
}

/* The unit of Sample.work: "FLOP", "op" or "B". */
static inline const char *sample_work_unit(const Sample *s)
{
	return (s->flags & SAMPLE_BYTES) ? "B" : (s->flags & SAMPLE_INTEGER) ? "op" : "FLOP";
}

/* ... from a rate's unit as sample_flags_unit names it (a summary's). */
static inline const char *sample_unit_work(const char *rate_unit)
{
	return !rate_unit || !strcmp(rate_unit, "FLOPS") ? "FLOP" : !strcmp(rate_unit, "IOPS") ? "op" : "B";
}

/* What Sample.groups counts: workgroups, or a transfer's copies. */
static inline const char *sample_groups_unit(const Sample *s)
{
	return s->size ? "copies" : "workgroups";
}

/* Whether the sample carries telemetry field f. */
static inline bool sample_has_tel(const Sample *s, TelField f)
{
	return (s->tel_valid >> f) & 1u;
}

/* Telemetry field f of the sample; NAN when not read. */
/* The power a sample ran at: the instant reading where the driver gives
 * one, else its average (NVML's lags a second behind the card); NaN none.
 * Every view of power reads this (plots, energy, intervals, the screens). */
static inline double sample_power_w(const Sample *s)
{
	if (s->tel_valid & (1u << TEL_POWER_INSTANT_W))
		return s->tel[TEL_POWER_INSTANT_W];
	return (s->tel_valid & (1u << TEL_POWER_W)) ? s->tel[TEL_POWER_W] : NAN;
}

static inline double sample_tel(const Sample *s, TelField f)
{
	return sample_has_tel(s, f) ? s->tel[f] : NAN;
}

/* The power read with the sample, against its limit where read: "612 W",
 * "612 / 700 W (87%)"; "" without a reading. Returns what snprintf does. */
int sample_power_str(const Sample *s, char *out, size_t len);

static inline uint32_t sample_trials(const Sample *s)
{
	return s->trials > 1 ? s->trials : 1;
}

/* Time the sample's FLOPS figure is based on, in seconds. */
static inline double sample_time_s(const Sample *s)
{
	return (double)((s->flags & SAMPLE_GPU_TIMED) ? s->gpu_ns : s->cpu_ns) * 1e-9;
}

#endif
