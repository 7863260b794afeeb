/* interval: a run's samples gathered into rows of S seconds each (the
 * headless --interval output, as nvidia-smi dmon -d S gives a line every S
 * seconds): each row's median, minimum and maximum rate, its samples and
 * checked samples, the mean shader clock and power, the clock-event reason
 * bits seen and the most other processes seen. Pure. */
#ifndef FLOPSCOPE_INTERVAL_H
#define FLOPSCOPE_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

typedef struct IntervalRow {
	double t0_s, t1_s;     /* the interval: [t0, t1) of the run's time */
	size_t samples, verified;
	double median, min, max; /* the samples' rates (the workload's unit) */
	double sm_mhz, power_w;  /* their means over the samples that read them; NaN none */
	uint32_t reasons;        /* clock-event reason bits (throttle.h), any sample's */
	bool has_reasons;
	double others;           /* the most other processes on the device; NaN unread */
} IntervalRow;

typedef struct Interval {
	double len_ms;
	double t0_ms;            /* the open interval's start */
	double last_ms;          /* the last sample's time */
	double *rates;
	size_t n, cap;
	size_t verified;
	double mhz_sum, w_sum;
	size_t mhz_n, w_n;
	uint32_t reasons;
	bool has_reasons;
	double others;
	bool oom;
} Interval;

void interval_init(Interval *iv, double seconds);
void interval_done(Interval *iv);
/* At t_ms of the run's time: when the open interval has ended by then, it
 * is closed into *out (true), with 0 samples where no dispatch ended in it
 * (median, min and max NaN), and the next opens. Call it again while it
 * returns true: every interval of the run is a row, none skipped. */
bool interval_due(Interval *iv, double t_ms, IntervalRow *out);
/* Adds a sample to the open interval: interval_due(s->t_ms) first, until
 * false, closes those before it. */
void interval_add(Interval *iv, const Sample *s);
/* The open interval into *out, to its last sample (the run ended); false
 * when it has no sample. */
bool interval_flush(Interval *iv, IntervalRow *out);
/* At now_ms of the run's time with no sample since: interval_due of an
 * interval that ended more than INTERVAL_GRACE_MS ago (a sample may be on
 * its way): a stall or a hang, said as it happens. */
#define INTERVAL_GRACE_MS 50.0
bool interval_idle(Interval *iv, double now_ms, IntervalRow *out);

#endif
