/* sched: the engine's scheduling of checks and in-flight submissions, as a
 * pure function of a small state (the adaptive loop decides the size of a
 * submission; this decides which are checked and when another may go in).
 *
 * Rules:
 * - growing (serial) submissions: the first two, every check_every-th and
 *   the first steady one are checked;
 * - at the target (pipelined, up to `slots` in flight): every
 *   check_every-th and the first steady one are checked, but one checked
 *   submission at a time is in flight (they share one staging buffer and one
 *   set of read-back regions): a check that comes due meanwhile goes to the
 *   next submission after it completes, never lost;
 * - hold_checks (the host reads the destination itself, which later copies
 *   would overwrite): nothing goes in behind a checked submission. */
#ifndef FLOPSCOPE_SCHED_H
#define FLOPSCOPE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

typedef struct SchedConfig {
	unsigned slots;        /* submissions in flight at most, >= 1 */
	unsigned check_every;  /* >= 1 */
	bool hold_checks;
} SchedConfig;

typedef struct Sched {
	uint64_t seq;          /* the next submission's number in this run */
	unsigned inflight;     /* pipelined submissions not yet completed */
	unsigned checking;     /* checked ones among them: 0 or 1 */
	bool check_due;        /* a check came due while one was in flight */
	bool checked_steady;   /* a steady submission was checked in this phase */
} Sched;

/* A new run (seq from 0) when restart; else a new phase of the same run (a
 * transfer sweep's next size): the first steady submission is checked again. */
void sched_begin(Sched *s, bool restart);
/* A serial submission (nothing in flight): whether it is checked. */
bool sched_serial(Sched *s, const SchedConfig *c, bool steady);
/* Whether another pipelined submission may go in now. */
bool sched_may_submit(const Sched *s, const SchedConfig *c);
/* A pipelined (steady) submission goes in: whether it is checked. */
bool sched_submit(Sched *s, const SchedConfig *c);
/* The oldest pipelined submission completed; checked: it was a checked one. */
void sched_complete(Sched *s, bool checked);

#endif
