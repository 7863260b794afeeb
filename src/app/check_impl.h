/* check_impl: the check's parts (app/check_cmd.c runs it): judging a
 * device's run against its reference and causes (check_judge.c), and the
 * lines and records it prints (check_out.c). Private to the check. */
#ifndef FLOPSCOPE_CHECK_IMPL_H
#define FLOPSCOPE_CHECK_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "metrics.h"
#include "offline.h"
#include "suite.h"
#include "verdict.h"
#include "vkctx.h"
#include "workload.h"

struct cJSON;

typedef struct Verdict {
	CheckStatus st;
	double median;      /* NaN: none */
	double ratio;       /* of the reference; NaN: none */
	double threshold;   /* ratio; NaN: none */
	const char *ref;    /* "peak", "baseline", "power_limit", "" */
	double peer;        /* of the identical peers' median; NaN: none */
	uint64_t checks;
	Causes causes;      /* what the verdict rests on, its lead first */
} Verdict;

/* The baselines --baseline names, read (false: said, bad input). */
bool check_load_baselines(const Options *o, OfflineBlocks **out, size_t *n);
void check_baselines_done(OfflineBlocks *bl, size_t n);
/* The verdict on device sd's run of wi: its figure against its reference
 * (the rated peak, a baseline's blocks), then the clock's and the link's
 * causes (a fault fails it, the power cap is reported). */
void check_verdict(const Options *o, const VkCtx *ctx, const SuiteDev *sd, BlockMeans *run, const OfflineBlocks *bl,
                   size_t nb, const WorkloadInfo *wi, Verdict *v);

/* The CSV header of the check's lines (a verdict's and a shared transfer's). */
void check_print_csv_header(void);
/* A JSON record on a line of its own, freed. */
void check_print_record(struct cJSON *j);
/* A verdict's line: text, its JSON record or CSV line, as o->format says. */
void check_print_line(const Options *o, const VkCtx *ctx, const SuiteDev *sd, const WorkloadInfo *wi,
                      const Verdict *v);
/* A GPU of the host that Vulkan does not show: its MISSING line (text),
 * check_missing record (JSON) or CSV row of status missing. */
struct MissingGpu;
void check_print_missing(const Options *o, const struct MissingGpu *m);
/* ... in format, its JSON record of type (check_missing; --list's
 * device_missing). */
void missing_print(OutFormat format, const struct MissingGpu *m, const char *type);
/* A node whose Vulkan shows fewer GPUs than --expect-gpus: its line, as
 * check_print_missing's (listed: the GPUs already named MISSING). */
void check_print_gpu_count(const Options *o, unsigned expected, size_t visible, size_t listed);
/* A transfer's line for device sd of m that ran it at once (held to no
 * threshold); not_measured: why it has no median. */
void check_print_shared(const Options *o, const VkCtx *ctx, const SuiteDev *sd, const WorkloadInfo *wi,
                        double median, size_t m, double sum, size_t nsum, const char *not_measured);

#endif
