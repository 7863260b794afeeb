/* summary: the statistics of a run, accumulated one sample at a time in
 * bounded memory (thinned evenly past SUMMARY_CAP), and the result read off
 * them. Pure: every consumer (engine, headless, dashboard, suite, replay)
 * uses this one. */
#ifndef FLOPSCOPE_SUMMARY_H
#define FLOPSCOPE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "change.h"
#include "procs.h"
#include "televent.h"
#include "sample.h"
#include "stats.h"

/* Everything the summary needs, accumulated sample by sample. */
/* The arrays behind the statistics hold at most SUMMARY_CAP values: beyond
 * that every other one is dropped and later ones are thinned alike, so a
 * session of any length keeps fixed memory and evenly spread samples. */
#define SUMMARY_CAP 16384

/* Transfers: statistics per copy size (steady samples; at most
 * SUMMARY_SIZE_CAP values each, the first ones). */
#define SUMMARY_SIZES 24
#define SUMMARY_SIZE_CAP 4096

/* The causes of reduced clocks timed, throttle.h's reasons in their order. */
#define SUMMARY_REASONS 8

/* The driver's violation counters, in NVML's policies' order. */
typedef enum EnergyViolation {
	VIOL_POWER,   /* NVML_PERF_POLICY_POWER: the power limit */
	VIOL_THERMAL, /* NVML_PERF_POLICY_THERMAL: a thermal limit */
	ENERGY_VIOLATIONS
} EnergyViolation;
/* Their keys in JSON and the metrics' policy label: "power", "thermal". */
extern const char *const energy_violation_keys[ENERGY_VIOLATIONS];

/* The energy of a run: each sample's power reading over its own time (the
 * dispatch's wall time, or a pipelined sample's completion interval, times
 * its trials), and the time spent at each cause of reduced clocks the same
 * way, from the reason bits read with the samples. */
typedef struct Energy {
	double joules, seconds;     /* over the samples with a power reading: from the card's energy
	                               counter where it has one (counter), else the readings' integral;
	                               seconds: the time those joules cover (the counter's wall span,
	                               which overlapping completions cannot inflate, and the samples'
	                               times outside it) */
	double read_joules;         /* the readings' integral (instant power where read) */
	bool counter;               /* joules from the counter over [ctr_t0, ctr_t1], the readings' outside it */
	double ctr_last;            /* the counter's last value seen (J); NaN none */
	double ctr_t0, ctr_e0, ctr_t1, ctr_e1; /* its first and last new values and when (ms); NaN none */
	double ctr_r0, ctr_r1;      /* read_joules at those two samples: the readings cover the rest */
	double read_seconds;        /* the samples' own times (dispatch or completion interval x trials) */
	double ctr_s0, ctr_s1;      /* read_seconds at those two samples: the counter's span replaces them */
	double work;                /* their work, in the workload's unit */
	double max_w, limit_w;      /* the highest reading; the newest limit (NaN none) */
	bool power, reasons;        /* a power reading seen; reason bits seen */
	double reason_s[SUMMARY_REASONS];
	double reasons_seconds;     /* the time of the samples with reason bits */
	/* the driver's violation counters (NVML): the first and last readings
	 * of the run's samples; NaN where the device has none */
	double viol_first[ENERGY_VIOLATIONS], viol_last[ENERGY_VIOLATIONS];
} Energy;

/* An energy with nothing seen: no reading, no limit, no counter. */
void energy_init(Energy *e);

/* What held the clock by the reasons' bits, with each one's time: "held
 * by: power cap 7.95 s, thermal (software) 0.16 s", or "held by: nothing
 * (no reason bit set)"; false (out "") where no reason was read. */
bool energy_held_by(const Energy *e, char *out, size_t len);
/* The time at a limit, driver's count: the seconds the driver counted the
 * clock below its target by k's policy's limit over the run (its samples' first to last reading); NaN where it
 * has no counter. */
double energy_violation_s(const Energy *e, EnergyViolation k);

/* Who shared the device during a run: the most other processes on it at
 * once (NVML's lists; NaN: never read) and, where the run named them, who
 * they were then ("537 python3"). */
typedef struct SharedBy {
	double max;
	char who[128];
	ProcTable procs;   /* the table of the reading with the most of them (n 0: none named) */
} SharedBy;

/* The PCIe link over a run's steady samples: how many had a reading, how
 * many ran below what the link can train to, the lowest seen there, and the
 * maximum (NaN unknown). */
typedef struct LinkSeen {
	size_t n, low;
	double gts, width;          /* the lowest below the maximum */
	double max_gts, max_width;
	double replays_first, replays_last; /* the driver's replay count, over every sample; NaN unread */
} LinkSeen;
/* The link's replays (retransmissions) the driver counted during the run;
 * NaN where it counts none (or the count went back). */
double link_replays(const LinkSeen *l);
/* More replays during a run than PCIE_MAX_REPLAYS (peak.h), in words. */
bool link_replays_excess(const LinkSeen *l, char *why, size_t len);
/* Whether the link ran below its maximum for most of the run, in words
 * (pcie_link_degraded's). */
bool link_degraded(const LinkSeen *l, char *why, size_t len);

typedef struct SizeRow {
	uint64_t size;        /* bytes per copy */
	size_t n;             /* steady samples */
	double median, max, min;
} SizeRow;

typedef struct Summary {
	size_t samples, steady, gpu_timed, verified;  /* steady, gpu_timed: values kept */
	size_t steady_total;    /* steady samples seen */
	size_t stride, skip, rstride, rskip;
	double *steady_flops;   /* FLOPS of the steady samples */
	double *steady_t;       /* and their times, ms */
	double *steady_mhz;     /* and their clocks (NaN: N/A) */
	double *peak;           /* and FLOPS / peak at their clock (NaN: unknown) */
	size_t cap_t, cap_mhz, cap_peak;
	size_t implausible;     /* samples the guard kept out */
	size_t gaps;            /* stops of the process (SIGSTOP, Ctrl-Z): not measured */
	double gap_ms;
	size_t segments;        /* restarts + 1 */
	double target_lo, target_hi; /* the targets the steady samples were measured at (0: unknown) */
	double duty_gap_ms;
	double duty_prev_span_ms, duty_prev_gpu_ns; /* of the segments before a restart */     /* of it, inside the duty cycle's span */
	uint32_t unit_flags;    /* SAMPLE_INTEGER, SAMPLE_BYTES seen */
	double duty_first_ms, duty_last_ms, duty_gpu_ns; /* duty cycle over the steady samples */
	size_t duty_n;
	ChangeDetector changes; /* level changes over the steady samples */
	TelEvents events;       /* the telemetry's events over every sample (televent.h) */
	double *ratio;          /* gpu_ns / cpu_ns of GPU-timed samples */
	size_t cap_flops, cap_ratio;
	bool oom;
	Energy energy;
	SharedBy shared;
	LinkSeen link;
	double peak_max;        /* the rated peak (at the maximum clock), the newest known; 0 unknown */
	uint64_t size_of[SUMMARY_SIZES];
	double *size_vals[SUMMARY_SIZES];
	size_t size_n[SUMMARY_SIZES], nsizes;
} Summary;

void summary_init(Summary *s);
void summary_add(Summary *s, const Sample *x);
/* A restart (r): a new segment of the run; the statistics go on over every
 * segment, a level change still open is settled. */
void summary_restart(Summary *s);
/* The series ended: a level change still open is settled (change_finish);
 * returns what change_finish returns. */
int summary_finish(Summary *s);
/* The process was stopped for gap_ms: nothing measured then. */
void summary_add_gap(Summary *s, double gap_ms);
void summary_done(Summary *s);
/* dst (initialised; its buffers are reused) becomes a copy of src with
 * buffers of its own: what a reader on another thread takes under the
 * writer's lock, to read the result off outside it. false when memory ran
 * out (dst is then an empty summary marked oom). */
bool summary_copy(Summary *dst, const Summary *src);

typedef struct SummaryResult {
	size_t samples, steady, gpu_timed, verified;  /* steady: all seen */
	size_t steady_kept;     /* of them in the statistics (fewer once thinned) */
	const char *unit;       /* FLOPS, IOPS or B/s (sample_flags_unit) */
	Stats flops;            /* over steady samples; n == 0 if none */
	double ratio_median;    /* NaN without GPU timing */
	ChangeDetector changes; /* a copy: the result outlives the Summary */
	TelEvents events;       /* likewise, the pending one's rates from what came after it */
	double plateau_ms;      /* time to plateau; NaN if none */
	double plateau_flops;
	double pct_peak;        /* median % of the peak at the sample's clock; NaN unknown */
	double pct_peak_max;    /* the median as a % of the rated peak (at the maximum clock):
	                           what a throttled clock cannot hide; NaN unknown */
	double duty;            /* GPU time / wall time over the steady samples; NaN unknown */
	size_t implausible;
	size_t gaps;            /* the process was stopped: that time is not measured */
	double gap_ms;
	size_t segments;        /* the run's segments (restarts + 1) */
	double target_lo, target_hi; /* the steady samples' targets, ms; 0 unknown (older logs) */
	SizeRow sizes[SUMMARY_SIZES]; /* transfers: by copy size, in the order measured */
	size_t nsizes;
	bool oom;               /* memory ran out: the statistics cover the samples before */
	Energy energy;          /* power.joules etc.: see energy_known */
	SharedBy shared;        /* other processes on the device during the run */
	LinkSeen link;          /* its PCIe link during the steady samples */
	/* The run's own noise, as compare.h measures one session's: the 10th
	 * to 90th percentile range of its steady samples' 1 s block means over
	 * their median; with fewer than COMPARE_MIN_BLOCKS blocks, of the
	 * samples themselves (wider: a verdict on it errs toward "cannot
	 * tell"); NaN with fewer than SUMMARY_NOISE_MIN samples. */
	double noise;
	size_t blocks;          /* those blocks */
	bool noise_of_samples;  /* the noise is the samples' (too few blocks) */
} SummaryResult;

#define SUMMARY_NOISE_MIN 10

/* Whether a run's energy is known (a power reading seen); its mean power,
 * and its work per joule; NaN when not. */
bool energy_known(const Energy *e);
double energy_mean_w(const Energy *e);
double energy_per_joule(const Energy *e);

/* The causes of reduced clocks that are faults, not a limit doing its job
 * (HW slowdown, thermal slowdowns, the power brake, a current limit: all
 * but the power cap, as DCGM's diagnostics fail them), each with its time
 * and share of the run: "HW slowdown 0.50 s (6%)"; a thermal violation the
 * driver counted that no sample's bits showed (it fell between readings)
 * too: "thermal (time at a limit, driver's count) 0.20 s (3%)"; false when
 * none held the clock. cap: the power cap's "held by the power cap 7.90 s of
 * 8.00 (99%)", or "time at a limit, driver's count: power 7.90 s of 8.00
 * (99%)" where the driver keeps one, or "" (either may be NULL). */
bool energy_fault(const Energy *e, char *out, size_t len, char *cap, size_t cap_len);

/* A load meant to reach the power limit (the power workload), judged as
 * DCGM's targeted_power judges one: its mean power at least min_ratio of
 * the limit (peak_check_threshold_pct's, DCGM's 0.75), the SW power cap
 * expected there; any time at a HW slowdown, thermal slowdown or power
 * brake fails it, named. ratio: mean / limit (NaN unknown); why says it. */
typedef enum PowerVerdict {
	POWER_NA,       /* no power reading or no limit: nothing to hold it to */
	POWER_REACHED,  /* reached its share of the limit */
	POWER_SHORT,    /* below it */
	POWER_SLOWED,   /* held by a cause other than the power cap */
} PowerVerdict;
PowerVerdict energy_verdict(const Energy *e, double min_ratio, double *ratio, char *why, size_t len);

void summary_result(const Summary *s, SummaryResult *r);

/* who names the count other processes a sample's reading saw (NVML's
 * lists, as the run names them): kept where count is the run's most. */
void summary_note_shared(Summary *s, double count, const char *who, const ProcTable *procs);

/* Where a run's statistics are read: the run's own summary (its engine's, a
 * replay's), never one a consumer accumulates beside it. */
typedef struct SummaryReader {
	void *ctx;
	void (*read)(void *ctx, SummaryResult *out);
} SummaryReader;

#endif
