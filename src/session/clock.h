/* clock: the one monotonic clock every layer reads (ns since an arbitrary
 * start; CLOCK_MONOTONIC, which does not jump when the wall clock is set),
 * and the times the process was stopped (SIGSTOP, Ctrl-Z): while stopped
 * the clock runs on, and no measurement may include that time. */
#ifndef FLOPSCOPE_CLOCK_H
#define FLOPSCOPE_CLOCK_H

#include <stdint.h>

uint64_t clock_mono_ns(void);
/* Sleeps ms milliseconds (through signals that interrupt it). */
void clock_sleep_ms(long ms);

/* Called by the signal thread when SIGCONT arrives (async-signal-safe
 * too): the process runs again. */
void clock_note_resume(void);
/* Called by the signal thread at least every CLOCK_ALIVE_MS while it
 * waits: a stop stops it too, so the last call before a SIGCONT bounds
 * when the stop began (a SIGCONT with no stop before it finds a recent one). */
#define CLOCK_ALIVE_MS 20
void clock_note_alive(void);
/* How many times the process was continued after a stop so far, and when
 * the last time was (clock_mono_ns; 0 never). */
unsigned clock_resumes(void);
uint64_t clock_last_resume_ns(void);
/* The last sign of life before the last resume (clock_mono_ns): the stop
 * began after it; 0 where none was noted (no signal thread). */
uint64_t clock_last_stop_began_ns(void);

#endif
