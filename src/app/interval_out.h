/* interval_out: --interval's rows on standard output, for one device
 * (headless.c) or several measured together (multi.c): every S seconds of a
 * device's run, the median, least and most of its dispatches, its clock,
 * power, holds and the others on it; a row of 0 samples where an interval
 * ended with no dispatch (a stall, told from a hang); the last, shorter row
 * at the run's end. One column table gives the CSV header and row and the
 * JSON record; the table's rows are its own. */
#ifndef FLOPSCOPE_INTERVAL_OUT_H
#define FLOPSCOPE_INTERVAL_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "devinfo.h"
#include "interval.h"
#include "options.h"

typedef struct IntervalOut {
	OutFormat format;
	const char *unit;
	const DeviceInfo *dev;  /* its identity in CSV rows */
	size_t entry;           /* its entry number (1-based) */
	unsigned num;           /* several devices at once: its number, the rows' dev; 0 alone */
	Interval iv;
	double run_off_ms;      /* the monotonic clock (ms) less the run's time, from its first sample; NaN before */
} IntervalOut;

void interval_out_init(IntervalOut *p, const Options *o, const char *unit, const DeviceInfo *dev, size_t entry,
                       unsigned num);
void interval_out_done(IntervalOut *p);
/* What the rows are, before them: CSV's header, the table's (with the dev
 * column for several devices); JSON's records say it themselves. */
void interval_out_header(OutFormat format, bool several);
/* A sample: the rows of the intervals it ends first; false when stdout
 * failed (errno says why). */
bool interval_out_sample(IntervalOut *p, const Sample *s);
/* A batch's end: the rows of intervals that ended with no dispatch. */
bool interval_out_idle(IntervalOut *p);
/* The run's end: its last, shorter row. */
bool interval_out_last(IntervalOut *p);

#endif
