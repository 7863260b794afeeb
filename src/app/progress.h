/* progress: a line on standard error, while long work runs (--suite,
 * --check), saying which step runs (i/N), its time left and the whole
 * run's. Only on a terminal: nothing goes into a pipe, a file or JSON. A
 * thread of its own redraws it four times a second; the line is erased
 * before anything else is printed and at the end. */
#ifndef FLOPSCOPE_PROGRESS_H
#define FLOPSCOPE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Progress Progress;

/* what: "suite", "check" (the line's first word). NULL where standard
 * error is no terminal, or nothing could be started: every call below
 * takes NULL and does nothing. */
Progress *progress_start(const char *what, size_t steps);
/* Step i (1-based) begins: its name and how long it should take; total_left_s:
 * the whole run's time left, this step's included (< 0: unknown). */
void progress_step(Progress *p, size_t i, const char *name, double step_s, double total_left_s);
/* The line erased while the caller prints (its rows), and back after. */
void progress_hide(Progress *p);
void progress_show(Progress *p);
/* Erased for good; the thread stopped. */
void progress_end(Progress *p);

#endif
