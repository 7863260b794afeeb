/* suite: every supported workload for a short window each, one table. */
#ifndef FLOPSCOPE_SUITE_H
#define FLOPSCOPE_SUITE_H

#include <signal.h>

#include "cli.h"
#include "vkctx.h"

/* Runs the suite on entry idx; returns the exit status. */
int suite_run(const VkCtx *ctx, int idx, const Options *o, uint64_t launch_ns, volatile sig_atomic_t *quit);

#endif
