/* multi: several devices (or one entry several times) at once, headless. */
#ifndef FLOPSCOPE_MULTI_H
#define FLOPSCOPE_MULTI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "engine.h"

/* The exit status when the outlier rule names a device (a node check). */
#define MULTI_EXIT_OUTLIER 4

struct VkCtx;
/* One engine per entry idx[0..n) (entries may repeat), all at once; their
 * samples as they come (CSV and JSON carry the device's number), then a row
 * per device and the outlier rule (--outlier). Exit 0, 1 when a device
 * failed (the others go on), MULTI_EXIT_OUTLIER when one is an outlier. */
int multi_run(const struct VkCtx *ctx, const Options *o, const int *idx, size_t n, WorkloadType wl,
              uint64_t launch, volatile sig_atomic_t *quit);

#endif
