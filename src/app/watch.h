/* watch: --watch, telemetry without load (watch.c). */
#ifndef FLOPSCOPE_WATCH_H
#define FLOPSCOPE_WATCH_H

#include <stdatomic.h>
#include <stddef.h>

#include "options.h"
#include "vkctx.h"

/* The entries idx[0..n), a row each every --interval seconds (1 s by
 * default) until --duration or a signal; the exit status. */
int watch_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, atomic_int *quit);

#endif
