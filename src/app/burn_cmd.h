/* burn_cmd: flopscope --burn DUR: a soak of every GPU (or those named) at
 * once, headless, judged window by window (core/burn.h), with a Markdown
 * report beside the session logs. */
#ifndef FLOPSCOPE_BURN_CMD_H
#define FLOPSCOPE_BURN_CMD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "workload.h"

struct VkCtx;
/* The burn on entries idx[0..n): the power workload, or --workload's (a
 * list takes turns, a window each: core/burn.h); exit 0 every window
 * passed, 1 a window failed, 3 a result was wrong, 4 an outlier only, 6 it
 * could not run (check's table; a signal's 128+N is main's), 2 a
 * --workload or --size it cannot take. */
int burn_run(const struct VkCtx *ctx, const Options *o, const int *idx, size_t n, uint64_t launch, atomic_int *quit);

#endif
