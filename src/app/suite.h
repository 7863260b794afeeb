/* suite: every supported workload for a short window each, one table. */
#ifndef FLOPSCOPE_SUITE_H
#define FLOPSCOPE_SUITE_H

#include <signal.h>

#include "cli.h"
#include "vkctx.h"

/* Runs the suite on entry idx; returns the exit status. */
/* Every workload on the devices idx[0..n) (an entry may repeat), all of
 * them at once for each workload; a row per device and workload. */
int suite_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, uint64_t launch_ns,
              volatile sig_atomic_t *quit);

#endif
