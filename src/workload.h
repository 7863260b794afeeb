/* workload: the FP32 FMA workload's parameters, exact FLOP count and the CPU
 * reference its results are checked against. Pure. */
#ifndef FLOPSCOPE_WORKLOAD_H
#define FLOPSCOPE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WORKLOAD_SLOTS 65536u   /* result slots; the shader's 1/65536 scale assumes it */
#define WORKLOAD_CHECKS 64u     /* slots compared with the CPU on each check */

typedef struct FmaParams {
	uint32_t vec4s;      /* vec4 accumulators: 4 * vec4s independent chains */
	uint32_t unroll;     /* steps per chain in one loop iteration */
	uint32_t iters;      /* loop iterations (specialization constant 1) */
	uint32_t local_size; /* invocations per workgroup (specialization constant 0) */
	float a, b;          /* x = fma(x, a, b) */
} FmaParams;

/* Push constants, as the shader declares them. */
typedef struct FmaPush {
	float a, b;
	uint32_t slot_mask;
} FmaPush;

/* Parameters for a device: the local size is capped by its limits; CPU
 * devices get shorter chains (their dispatches are slow enough already). */
void fma_params_for(FmaParams *p, bool cpu_device, uint32_t max_local_size);

/* Parses "VEC4S,UNROLL,ITERS,LOCAL_SIZE" (the FLOPSCOPE_FMA_SHAPE knob for
 * tuning experiments) into p; false with a message when out of range. */
bool fma_params_parse(const char *text, FmaParams *p, uint32_t max_local_size, char *err, size_t len);

uint64_t fma_flop_per_invocation(const FmaParams *p);

/* The value the shader stores in a slot, computed with fmaf in the shader's
 * order. */
float fma_reference(const FmaParams *p, uint32_t slot);

typedef struct FmaCheck {
	uint32_t slot[WORKLOAD_CHECKS];
	float expect[WORKLOAD_CHECKS];
	size_t n;
} FmaCheck;

/* Chooses the checked slots (the first 32, then 32 spread over all) and
 * computes their expected values once. */
void fma_check_init(FmaCheck *c, const FmaParams *p);

/* Compares the slots written by a dispatch of `invocations` with the
 * reference. Returns the number of slots compared, or -1 with a message. */
int fma_check(const FmaCheck *c, const float *values, uint64_t invocations,
              char *msg, size_t len);

#endif
