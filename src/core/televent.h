/* televent: the telemetry's own events in a run, as they happen: a cause
 * of reduced clocks (throttle.h's table: power cap, thermal, HW slowdown,
 * ...) turning on or off, or the shader clock stepping, each with its time,
 * the clock before and after and the throughput around it (the medians of
 * the samples just before and just after). A level change needs its
 * levels; an event needs only the telemetry: the power cap engaging 0.12 s
 * into a power run is an event whatever the adaptive loop was doing (the
 * ramp included). Only where the telemetry reads reason bits (a GPU's
 * driver): a CPU's clock moves with its governor all the time. Pure. */
#ifndef FLOPSCOPE_TELEVENT_H
#define FLOPSCOPE_TELEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

#define TEV_KEEP 16       /* the run's first events kept (the rest counted) */
#define TEV_RATES 3       /* samples on each side of an event for its throughput */
#define TEV_CLOCK_STEP 0.05 /* a clock that moved by more than this alone is an event */

typedef struct TelEvent {
	double t_ms;              /* the first sample that read the new state */
	uint64_t on, off;         /* the table's reason bits that turned on, off; 0 none */
	double mhz_before, mhz_after; /* the shader clock; NaN unread */
	double rate_before, rate_after; /* the throughput's medians around it; NaN unknown */
} TelEvent;

typedef struct TelEvents {
	TelEvent ev[TEV_KEEP];
	size_t n, total;          /* kept; seen */
	bool have;                /* a state read: */
	uint64_t bits;            /* the table's reason bits then */
	double mhz;
	double before[TEV_RATES]; /* the last rates (a ring), for the next event */
	size_t nbefore;
	size_t pending;           /* 1 + the kept event waiting for its rates after; 0 none */
	double after[TEV_RATES];
	size_t nafter;
} TelEvents;

void televent_init(TelEvents *t);
/* A sample of the run, in order, steady or not (implausible ones too: the
 * state they read is the device's). */
void televent_add(TelEvents *t, const Sample *s);
/* The pending event's rates from what came after it (the run ended). */
void televent_finish(TelEvents *t);
/* "0.12 s: power cap on, clock 1980 -> 1785 MHz, 609 TFLOPS -> 562 TFLOPS (x0.92)" */
void televent_format(const TelEvent *e, const char *unit, char *out, size_t len);

#endif
