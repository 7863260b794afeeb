/* jump: power-state changes in the FLOPS series, found online. Pure.
 *
 * Steps: the newest 3 samples (or 3 of the newest 4, 4 of the newest 5) lie
 * beyond 3/4 of the threshold, on one side, and their median beyond it,
 * from the level: the median of the (up to JUMP_WINDOW, at
 * least JUMP_MIN_REF) samples right before them. The threshold is 10%, or
 * 2.5 standard deviations of those samples if the device is noisier. The
 * jump is dated at the first sample that left the old level by 3/4 of the
 * threshold; before and after are medians. One
 * outlier, two in a row, or noise of a few percent never make a jump.
 * Ramps: when the level drifts from where the segment settled by twice the
 * threshold (16% at least), too gradually for a step, or changes follow each
 * other in the same direction without the level settling in between (held
 * within half the threshold for JUMP_WINDOW samples) or within JUMP_MERGE
 * samples, one ramp is reported with its start and end. */
#ifndef FLOPSCOPE_JUMP_H
#define FLOPSCOPE_JUMP_H

#include <stdbool.h>
#include <stddef.h>

#define JUMP_THRESHOLD 0.10
#define JUMP_CONFIRM 3
#define JUMP_MIN_REF 5        /* reference samples needed to judge a step */
#define JUMP_WINDOW 9
#define JUMP_DRIFT 0.16
#define JUMP_MERGE 18
#define JUMP_MAX 64
#define JUMP_BLOCK_MAX 5       /* candidate blocks of 3, 4, 5 samples */
#define JUMP_HIST (JUMP_WINDOW + JUMP_BLOCK_MAX)

typedef enum JumpKind {
	JUMP_STEP,
	JUMP_RAMP,
	JUMP_KIND_COUNT
} JumpKind;

typedef struct Jump {
	JumpKind kind;
	double t_ms;           /* where it starts */
	double t_end_ms;       /* where it ends (a step: its first sample) */
	double before, after;  /* levels: medians */
	double ratio;          /* after / before */
	unsigned samples;      /* samples of the new level when it was confirmed */
} Jump;

typedef struct JumpDetector {
	double t[JUMP_HIST], x[JUMP_HIST];  /* the segment's newest samples, oldest first */
	size_t n;                            /* in t/x */
	size_t seg_n;                        /* samples in the segment */
	double anchor;                       /* where the segment settled */
	bool anchored;
	size_t since_last;
	double hold_level;                   /* the level is held near this ... */
	size_t held;                         /* ... for this many samples */
	bool settled;                        /* held a whole window since the last jump */
	Jump jumps[JUMP_MAX];
	size_t njumps;
	size_t dropped;                      /* jumps beyond JUMP_MAX */
} JumpDetector;

void jump_init(JumpDetector *d);
/* Feeds one steady sample; returns true when a jump was reported (or an
 * earlier one extended into a ramp). */
bool jump_add(JumpDetector *d, double t_ms, double flops);

/* Time to plateau: the sustained level is the median of the last third of
 * x; the result is the first time from which the medians of 5 consecutive
 * samples stay within 3% of it (at least 80% of them: noise may push a few
 * out). NAN when n < 6 or no such time exists. */
double jump_time_to_plateau(const double *t, const double *x, size_t n, double *level);

/* "jump 241.5 ms  3.18 TFLOPS -> 6.15 TFLOPS  x1.93" or a ramp line. */
void jump_format(const Jump *j, const char *unit, char *out, size_t len);

#endif
