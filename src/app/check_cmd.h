/* check_cmd: --check, a node check for a cron job, a systemd timer, a Slurm
 * prolog or a CI job: a short suite on the devices, every device at once
 * for each workload, each result held to a threshold (docs/FLEET.md). */
#ifndef FLOPSCOPE_CHECK_CMD_H
#define FLOPSCOPE_CHECK_CMD_H

#include <stdatomic.h>
#include <stddef.h>

#include "cli.h"
#include "vkctx.h"

/* The workloads a check runs unless --workload names others (those a
 * device cannot run are skipped and said to be). */
/* fp16 is not among them: NVIDIA's 580 driver does not pack f16vec4 FMAs,
 * so a healthy H100 reads 50% of its fp16 peak (docs/PERFORMANCE.md). */
#define CHECK_DEFAULT_WORKLOADS "fp32,fp16-matrix,copy,h2d,d2h"

/* Exit statuses: 0 every workload passed (or had nothing to be held to),
 * 1 a threshold missed, the outlier rule, the budget or a device failed,
 * 3 a result check failed (wrong values win over everything else). */
#include <stdbool.h>
#include <stdint.h>

/* launch_ns: when the program started (the budget counts from there). */
/* whole_host: the check is of every GPU of the host (no device named):
 * those Vulkan does not show are MISSING lines that fail it. */
int check_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, bool whole_host, uint64_t launch_ns,
              atomic_int *quit);

#endif
