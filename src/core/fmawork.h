/* fmawork: the arithmetic workloads' own arithmetic (the fma kind's, as
 * memwork is the memory kinds'): their parameters, push constants, exact
 * operation count and the CPU reference their results are checked against,
 * as each row of the workload table asks. Pure. */
#ifndef FLOPSCOPE_FMAWORK_H
#define FLOPSCOPE_FMAWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload.h"

typedef struct FmaParams {
	WorkloadType type;
	uint32_t vec4s;      /* vec4 accumulators: 4 * vec4s independent chains */
	uint32_t unroll;     /* steps per chain in one loop iteration */
	uint32_t iters;      /* loop iterations (specialization constant 1) */
	uint32_t local_size; /* invocations per workgroup (specialization constant 0) */
	double a, b;         /* x = fma(x, a, b), or x * a + b in uint16/32/64
	                        (integers below 2^53: exact in a double) */
	uint32_t mm[3];      /* matrix workloads: M, N, K of the cooperative matrices */
	uint32_t subgroup;   /* ... and the subgroup that holds them */
} FmaParams;

/* Whether t's arithmetic has its row (push layout, chains, reference):
 * every arithmetic workload must (test_workload holds it). */
bool fma_arith_known(WorkloadType t);

/* A matrix workload's shape for a device: the M, N, K of its subgroup
 * shape and its subgroup size (fma_params_for leaves them 0). */
void fma_params_matrix(FmaParams *p, const uint32_t mm[3], uint32_t subgroup);

/* The push constants as the shader declares them (a, b in the workload's
 * type, then the slot mask); returns their size in bytes (at most 24). */
uint32_t fma_push(const FmaParams *p, uint32_t slot_mask, unsigned char out[24]);

/* Parameters for a device: the local size is capped by its limits; CPU
 * devices get shorter chains (their dispatches are slow enough already). */
void fma_params_for(FmaParams *p, WorkloadType t, bool cpu_device, uint32_t max_local_size);

/* Parses "VEC4S,UNROLL,ITERS,LOCAL_SIZE" (the FLOPSCOPE_FMA_SHAPE knob for
 * tuning experiments) into p; false with a message when out of range. */
bool fma_params_parse(const char *text, FmaParams *p, uint32_t max_local_size, char *err, size_t len);

uint64_t fma_flop_per_invocation(const FmaParams *p);

/* The value the shader stores in a slot, computed in the workload's type
 * and the shader's order (fmaf, fma, or wrapping uint32 arithmetic). */
double fma_reference(const FmaParams *p, uint32_t slot);

typedef struct FmaCheck {
	WorkloadType type;
	uint32_t slot[WORKLOAD_CHECKS];
	double expect[WORKLOAD_CHECKS];
	size_t n;
} FmaCheck;

/* Chooses the checked slots (the first 32, then 32 spread over all) and
 * computes their expected values once. */
void fma_check_init(FmaCheck *c, const FmaParams *p);

/* Compares the slots written by a dispatch of `invocations` (an array of the
 * workload's type) with the reference: fp32 within 1e-3, fp64 within 1e-9
 * (both relative; drivers may leave fma() unfused), int32 and fp16 exactly
 * (fp16's chains are exact by construction). Returns
 * the number of slots compared, or -1 with a message. */
int fma_check(const FmaCheck *c, const void *values, uint64_t invocations, char *msg, size_t len);

#endif
