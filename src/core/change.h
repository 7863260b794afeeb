/* change: level changes in a steady series, found online, each with its
 * cause; short departures are excursions, never changes. Pure.
 *
 * A segment's level is the median of its samples at the level, from the
 * CHG_REF_MIN-th on, followed until CHG_REF of them and then kept (its
 * anchor, until the next change: a slow drift is measured against it); the
 * threshold is 10% of it, or 3 robust standard deviations (1.4826 x MAD of
 * those samples) where the device is noisier, at most 25%. A sample beyond
 * the threshold opens a departure.
 *  - An excursion: the departure comes back (CHG_BACK samples in a row
 *    within the threshold) before it is sustained, or its newest samples'
 *    median is back within it once sustained. Counted, with its length and
 *    depth; never reported as a change.
 *  - A change: sustained, i.e. held for CHG_SUSTAIN_MS (500 ms) and at
 *    least CHG_SUSTAIN_N (5) samples, with the median of its newest samples
 *    still beyond the threshold, and no longer moving (a least-squares line
 *    through the departure's newest CHG_WIN samples moves by less than half
 *    the threshold over them, or CHG_SETTLE_MS have passed); dated at its
 *    first sample. A step's first 5 samples have a median 70% of the way to
 *    the new level or more; a ramp gets there gradually (t_end_ms: where a
 *    median of 3 came three quarters of the way). A departure still open when the series
 *    ends, with CHG_SUSTAIN_N samples of which the newest are beyond the
 *    threshold, is a change "held to the end" (change_finish).
 * The cause, from the telemetry measured beside the samples (medians of the
 * CHG_REF samples before the departure and of the newest ones after it),
 * the ratio split into what each reading explains (docs/INTERPRETATION.md):
 *  - the clock's part: the workload's clock after / before (the SM clock,
 *    the memory clock for a memory workload), where it moved by more than
 *    2%, named with the P-state and the clock-event reasons that appeared;
 *  - other processes' part: on a CPU device, the cores they left us after /
 *    before ((100 - their % after) / (100 - their % before)), where that
 *    moved by more than 2%; on a GPU, where the number of other processes
 *    changed and what the clock leaves moved the way they would move it,
 *    all of that ("about": NVML's lists say who, not how much);
 *  - unexplained: the ratio over the parts, where beyond the segment's
 *    noise (its threshold).
 * The text lists each part with its factor, largest first. The cause
 * follows the largest: the clock's is a power state; other processes', or
 * what is unexplained while the clock was read on both sides (the power
 * state is then ruled out), not a power-state change; unexplained without
 * a clock reading, unexplained.
 * An excursion's cause is told the same way, from the telemetry during it.
 * Changes and excursions are kept newest first up to CHG_KEEP; older ones
 * are counted, never dropped silently. */
#ifndef FLOPSCOPE_CHANGE_H
#define FLOPSCOPE_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"

#define CHG_THRESHOLD 0.10
#define CHG_REF 31       /* samples that settle a segment's level */
#define CHG_REF_MIN 9    /* ... of which it takes this many to judge */
#define CHG_THR_MAX 0.25 /* the widest threshold a noisy start may set */
#define CHG_BACK 3
#define CHG_SUSTAIN_MS 500.0
#define CHG_SUSTAIN_N 5
#define CHG_WIN 64       /* the departure's newest samples held */
#define CHG_KEEP 64      /* changes, and excursions, kept */
#define CHG_CLOCK 0.02   /* a clock that moved by more than this moved */
/* the share of the CPU (%) that other processes must leave on both sides
 * for their part to be apportioned: below it the part left is too small to
 * divide by (98% busy made a x10 factor of noise), and the readings cannot tell */
#define CHG_CPU_LEFT_MIN 10
#define CHG_SETTLE_MS 30000.0 /* a ramp still moving after this is reported anyway */

typedef enum ChangeKind {
	CHANGE_STEP,
	CHANGE_RAMP,
	CHANGE_KIND_COUNT
} ChangeKind;

typedef enum ChangeCause {
	CAUSE_POWER_STATE,
	CAUSE_NOT_POWER_STATE,
	CAUSE_UNEXPLAINED,
	CAUSE_COUNT
} ChangeCause;

/* The parts a change's ratio is split into (change.c: apportioning). */
typedef enum ChangeShare {
	SHARE_CLOCK,       /* the clock that limits the workload: SM (compute), memory (memory workloads) */
	SHARE_OTHER_GPU,   /* other processes on the GPU (NVML's lists) */
	SHARE_OTHER_CPU,   /* other processes' share of the cores (CPU devices) */
	SHARE_UNEXPLAINED, /* what the readings leave, beyond the noise */
	SHARE_COUNT
} ChangeShare;
extern const char *const change_share_keys[SHARE_COUNT]; /* "clock", "other_gpu", "other_cpu", "unexplained" */

extern const char *const change_kind_names[CHANGE_KIND_COUNT];   /* "step", "ramp" */
extern const char *const change_cause_names[CAUSE_COUNT];        /* "power state", ... */
extern const char *const change_cause_keys[CAUSE_COUNT];         /* "power_state", ... */

typedef struct Change {
	ChangeKind kind;
	ChangeCause cause;
	double t_ms, t_end_ms;      /* its first sample; a ramp: where it reached the new level */
	double before, after, ratio;
	unsigned samples;           /* of the new level when it was confirmed */
	bool at_end;                /* held to the end of the series, not yet for CHG_SUSTAIN_MS */
	double tel_before[TEL_FIELD_COUNT], tel_after[TEL_FIELD_COUNT]; /* medians; NaN unknown */
	double share[SHARE_COUNT];  /* the ratio's parts as factors: their product is the ratio,
	                               or within the threshold of it where nothing is left
	                               unexplained; NaN: not a part */
	char why[384];              /* the cause in words: each part with its factor, largest first */
} Change;

typedef struct Excursion {
	double t_ms, t_end_ms;      /* its first and last sample beyond the threshold */
	double level, depth;        /* the median level during it, and level / the segment's */
	unsigned samples;
	ChangeCause cause;          /* from the telemetry during it, as for a change */
	double share[SHARE_COUNT];  /* its depth's parts, as a change's */
	char why[384];
} Excursion;

typedef struct ChangeDetector {
	bool memory;                /* a memory workload: its clock is the memory clock */
	/* the segment */
	bool has_ref;
	double ref, thr;            /* level and relative threshold */
	double seg_x[CHG_REF];
	double seg_tel[CHG_REF][TEL_FIELD_COUNT]; /* a ring of the newest at the level */
	size_t seg_n, seg_head;
	size_t seg_total;           /* samples at the level since the segment began */
	/* a departure */
	bool away;
	double t0, last_off_t;
	size_t away_n, back;
	double first_x[5];
	double win_t[CHG_WIN], win_x[CHG_WIN];
	double win_tel[CHG_WIN][TEL_FIELD_COUNT];
	size_t win_n, win_head;
	/* what was found */
	Change changes[CHG_KEEP];   /* a ring: the newest CHG_KEEP */
	size_t nchanges;            /* all of them */
	size_t by_cause[CAUSE_COUNT];
	Excursion exc[CHG_KEEP];
	size_t nexc;
	double exc_ms;              /* their total length */
} ChangeDetector;

void change_init(ChangeDetector *d);
/* Feeds one steady sample and what was read beside it (tel: NaN where
 * unknown). Returns 1 when a change was found, 2 for an excursion, else 0. */
int change_add(ChangeDetector *d, double t_ms, double x, const double tel[TEL_FIELD_COUNT]);
/* The series ended: a departure still open becomes a change held to the
 * end (returns 1), an excursion (2), or nothing (0). */
int change_finish(ChangeDetector *d);
/* The i-th newest kept (0: the newest); NULL beyond what is kept. */
const Change *change_get(const ChangeDetector *d, size_t i);
/* The changes found since there were `since` of them that say other
 * processes were on the GPU after them get names, as given ("4711
 * flopscope, 4712 python3"), at the end of their why. */
void change_name_processes(ChangeDetector *d, size_t since, const char *names);
const Excursion *change_excursion(const ChangeDetector *d, size_t i);
/* How many are kept (at most CHG_KEEP) */
size_t change_kept(const ChangeDetector *d);
size_t change_excursions_kept(const ChangeDetector *d);

/* The telemetry of a sample as change_add takes it (NaN where not read). */
void change_tel_of(const Sample *s, double tel[TEL_FIELD_COUNT]);

/* A change or an excursion in words (change_format, change_format_excursion)
 * whole: its why, and the longest kind, times, values and cause before it. */
#define CHANGE_TEXT_LEN 640
/* "step at 241.5 ms: 3.19 TFLOPS -> 6.15 TFLOPS (x1.93); power state: clock
 * 1980 -> 1755 MHz" (a ramp says until when). */
void change_format(const Change *c, const char *unit, char *out, size_t len);
/* The changes by cause, in the causes' words: "1 power state, 0 not a
 * power-state change, 2 unexplained" (the summary, --analyze, the SVG). */
void change_format_counts(const ChangeDetector *d, char *out, size_t len);
/* The node tables' "changes" cell: power-state changes / the others ("1/3"). */
void change_format_cell(const ChangeDetector *d, char *out, size_t len);
/* "excursion at 1200.0 ms for 60.0 ms (3 samples) to 0.52 of the level;
 * power state: clock 1980 -> 345 MHz" */
void change_format_excursion(const Excursion *e, char *out, size_t len);

/* A change's parts in a few words, largest first, for a narrow panel:
 * "GPU others x0.33, clock x0.95"; "" when it has none. */
void change_shares_short(const double share[SHARE_COUNT], char *out, size_t len);

/* The median of the finite values of v[0..n), n at most a window's
 * (CHG_WIN, CHG_REF); NaN with none. */
double change_median(const double *v, size_t n);

/* Time to plateau: the sustained level is the median of the last third of
 * x; the result is the first time from which the medians of 5 consecutive
 * samples stay within 3% of it (at least 80% of them: noise may push a few
 * out). NAN when n < 6 or no such time exists, or the level is held for
 * less than CHG_PLATEAU_HELD of the series' span (a plateau held for no
 * time is none: "3 s" in a 3 s run). */
#define CHG_PLATEAU_HELD 0.1
double change_time_to_plateau(const double *t, const double *x, size_t n, double *level);

#endif
