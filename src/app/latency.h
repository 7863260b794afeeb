/* latency: what one dispatch costs when it does nothing: GPU time between its
 * timestamps and CPU time from submit to fence, per submit, in microseconds. */
#ifndef FLOPSCOPE_LATENCY_H
#define FLOPSCOPE_LATENCY_H

#include "cli.h"
#include "vkctx.h"

/* Runs --latency on entry idx; returns the exit status. */
int latency_run(const VkCtx *ctx, int idx, const Options *o);

#endif
