/* sample: one measured dispatch, the unit every consumer (screen, log) reads. */
#ifndef FLOPSCOPE_SAMPLE_H
#define FLOPSCOPE_SAMPLE_H

#include <stdint.h>

enum {
	SAMPLE_GPU_TIMED = 1u << 0, /* gpu_ns holds a timestamp-query difference */
	SAMPLE_STEADY    = 1u << 1, /* its group count came from the rescale rule */
	SAMPLE_VERIFIED  = 1u << 2, /* the output of this dispatch was checked on the CPU */
	SAMPLE_IMPLAUSIBLE = 1u << 3, /* above 105% of the theoretical peak: kept out of statistics */
	SAMPLE_PIPELINED = 1u << 4, /* submitted while others ran; cpu_ns is the completion interval */
	SAMPLE_INTEGER = 1u << 5,   /* integer operations: the figure is IOPS, not FLOPS */
	SAMPLE_BYTES = 1u << 6,     /* a memory workload: flop counts bytes, the figure is B/s */
};

/* Telemetry fields, in the order of TelField (telemetry.h); their names in
 * logs and JSON output (defined in slogread.c). */
#define SAMPLE_TEL_COUNT 6
extern const char *const sample_tel_names[SAMPLE_TEL_COUNT];

typedef struct Sample {
	uint64_t seq;        /* 0, 1, 2, ... within a run */
	double t_ms;         /* time since the run started, at completion (CPU clock) */
	uint32_t x, y, z;    /* workgroups dispatched */
	uint64_t groups;     /* x * y * z */
	uint64_t flop;       /* exact floating-point operations of the dispatch */
	uint64_t gpu_ns;     /* timestamp difference; 0 without SAMPLE_GPU_TIMED */
	uint64_t cpu_ns;     /* wall time: idle queue, submit, fence signalled */
	uint64_t gpu_end_ns; /* the end timestamp on the device's clock (duty cycle); 0 untimed */
	double flops;        /* flop / time of the timing source (GPU if timed) */
	uint32_t flags;
	uint32_t tel_valid;  /* bit per telemetry field */
	double tel[SAMPLE_TEL_COUNT]; /* the newest reading when the dispatch ended */
	double peak_flops;   /* theoretical peak at this sample's clock; 0 unknown */
	uint32_t trials;     /* dispatches per submission (--trials); times and flop are
	                        per dispatch; 0 or 1: one */
	uint64_t size;       /* bytes of one copy (transfer workloads); 0 otherwise */
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
