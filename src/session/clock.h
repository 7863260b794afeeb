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
/* How many times the process was continued after a stop so far, and when
 * the last time was (clock_mono_ns; 0 never). */
unsigned clock_resumes(void);
uint64_t clock_last_resume_ns(void);

#endif
