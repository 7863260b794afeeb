/* workloads: one file per kind of workload, each filling one table of
 * operations (plan, record, prepare the check, check, count the work) that
 * the engine runs the same way for all. Adding a kind means one file here
 * and one row in kinds.c; adding a workload of an existing kind, one row in
 * core/workload.c's table. workloads.c holds what the kinds share. */
#ifndef FLOPSCOPE_WORKLOADS_H
#define FLOPSCOPE_WORKLOADS_H

#include <stdbool.h>
#include <stdint.h>

#include "compute.h"
#include "error.h"
#include "memwork.h"
#include "shader.h"
#include "fmawork.h"

/* A workload's run, filled by its plan: what the engine and the GPU layer
 * read, the same for every kind; what a kind alone needs is its own state
 * (state), which its plan makes and work_end frees. */
typedef struct Work {
	WorkloadType type;
	const WorkloadInfo *info;
	uint32_t trials;             /* dispatches per submission (>= 1; 1 for transfers) */
	uint32_t local_size;         /* invocations of a group (a transfer: 1, a group is a copy) */
	uint64_t per_invocation;     /* work of one invocation (arithmetic, copy shader) */
	uint64_t sizes[MEM_SWEEP_MAX_SIZES]; /* the sizes the engine sweeps (transfers; one with --size); */
	size_t nsizes;               /* 0: no sweep */
	uint64_t mem_bytes;          /* memory workloads: data bytes of source and destination */
	VkDeviceSize result_size;    /* the result buffer: 0 none */
	ComputeInput input;          /* the kind's input buffer (binding 1): size 0 none */
	uint32_t features;           /* FEAT() bits the plan needs beyond the workload's row */
	bool push_sequence;          /* the push constants' last word is each submission's number
	                                (written by the GPU layer: compute_checked_sequence) */
	uint32_t max_groups[3];      /* the adaptive loop's limits */
	/* the shader: file (NULL none), defines (their text in the kind's
	   state) and specialization (local size, then the kind's second constant) */
	const char *shader;
	ShaderDefine defs[8];
	size_t ndefs;
	uint32_t spec[2];
	void *state;                 /* the kind's own; NULL: none */
	void (*state_free)(void *);  /* how it goes (the kind's plan sets it; NULL: free) */
} Work;

/* What a plan starts from. */
typedef struct WorkInput {
	const struct VkCtx *ctx;
	const DeviceInfo *dev;
	WorkloadType type;
	uint32_t trials;             /* 0: 1 */
	uint64_t size_lo, size_hi;   /* --size; 0: the default */
	bool transfer_queue;         /* --transfer-queue */
} WorkInput;

typedef struct WorkloadOps {
	WorkloadKind kind;
	/* Plans a run on the device: checks the options against the kind, and
	 * chooses the shader, the buffers and the loop's limits. STATUS_USAGE
	 * with a message in err when the options or the device do not allow it. */
	Status (*plan)(Work *w, const WorkInput *in, char *err);
	/* What each submission records (gpu/compute.h). */
	const Recorder *recorder;
	/* The push constants of every submission; their size (0: none). */
	uint32_t (*push)(const Work *w, unsigned char out[24]);
	/* Before a checked submission of g: what it reads back. */
	void (*prepare_check)(const Work *w, Compute *c, GroupCount g);
	/* After it: whether the device did all the work, rightly; msg says what
	 * was wrong. */
	bool (*check)(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len);
	/* The work of one dispatch of `groups` (copy_size: a transfer's bytes per
	 * copy), in the workload's unit. */
	uint64_t (*work)(const Work *w, uint64_t groups, uint64_t copy_size);
} WorkloadOps;

/* The operations of a kind. */
const WorkloadOps *workload_ops(WorkloadKind k);

/* Plans a workload: the common part (support on the device, trials), then
 * the kind's plan. w is then work_end's to release, failed or not. */
Status work_plan(Work *w, const WorkInput *in, char *err);
/* Releases the kind's state of a planned w (again: nothing). */
void work_end(Work *w);
/* A kind's state of `size` zeroed bytes, held by w (work_end frees it);
 * NULL with a message in err when out of memory. */
void *work_state(Work *w, size_t size, char *err);
/* The most invocations a workgroup of the device may have (x). */
uint32_t work_max_local(const DeviceInfo *d);
/* The sample flags of the workload's unit (SAMPLE_INTEGER, SAMPLE_BYTES). */
uint32_t work_sample_flags(const Work *w);

/* For the memory kinds: the bytes a workload may use on the device, the
 * top of --size checked against it. 0 with a message in err when not. */
uint64_t work_mem_top(const WorkInput *in, char *err);

/* For the shader kinds: the work of `groups` workgroups, per_invocation
 * each invocation. */
uint64_t work_by_invocation(const Work *w, uint64_t groups, uint64_t copy_size);
/* For the kinds whose check reads the whole result buffer back: nothing to
 * prepare. */
void work_read_whole(const Work *w, Compute *c, GroupCount g);
/* For the shader kinds: the group counter (the result buffer's first word)
 * shows every group of every trial ran. */
bool work_check_counter(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len);
/* For the memory kinds: the regions read back hold the source's pattern
 * (src_off: where in the source the checked copy read). */
bool work_check_regions(Compute *c, uint64_t src_off, char *msg, size_t len);

extern const WorkloadOps workload_fma_ops, workload_copy_ops, workload_transfer_ops, workload_power_ops;

#endif
