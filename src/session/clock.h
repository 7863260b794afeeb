/* clock: the one monotonic clock every layer reads (ns since an arbitrary
 * start; CLOCK_MONOTONIC, which does not jump when the wall clock is set). */
#ifndef FLOPSCOPE_CLOCK_H
#define FLOPSCOPE_CLOCK_H

#include <stdint.h>

uint64_t clock_mono_ns(void);

#endif
