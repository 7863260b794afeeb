#include "fmawork.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How the device's arithmetic is fed and the CPU's reference computed:
 * the push constants' layout, the chains' constants, the accumulators on
 * a GPU and on a CPU device, and the reference. */
typedef enum PushLayout {
	PUSH_F32,  /* float a, b, then the slot mask: 12 bytes */
	PUSH_U32,  /* uint a, b, then the slot mask: 12 bytes */
	PUSH_F64,  /* double a, b, then the slot mask: 24 bytes */
	PUSH_U64,  /* uint64 a, b, then the slot mask: 24 bytes */
} PushLayout;

typedef enum ChainRule {
	/* a^steps is about 1/e: each chain keeps a memory of its start value,
	 * so a dispatch that skipped steps gives visibly different results,
	 * while the fixed point 0.75 keeps every value bounded */
	CHAIN_DAMPED,
	/* exact in fp16: multiples of 1/256 below 8 (steps <= 1024) */
	CHAIN_FP16_EXACT,
	/* C += A B with every element of A a and of B b: each step adds
	 * K a b = 1 to every element when b = 1/K (exact in fp16, bfloat16 and
	 * fp32, K a power of 2; an fp16 accumulator holds every integer up to
	 * 2048 exactly) */
	CHAIN_MATRIX_UNIT,
	/* the row's a and b (the integer workloads: their own reasons) */
	CHAIN_GIVEN,
} ChainRule;

typedef double (*ReferenceFn)(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);

enum { ON_GPU, ON_CPU };

typedef struct Arith {
	PushLayout push;
	ChainRule chain;
	double a, b;            /* CHAIN_GIVEN: x = x * a + b (integers below 2^53) */
	uint32_t ops_per_step;  /* a multiply-add is 2; a 4 x 8-bit dot product and add 8 */
	uint32_t vec4s[2];      /* vec4 accumulators, [ON_GPU] and [ON_CPU] */
	uint32_t unroll[2], iters[2];
	uint32_t max_steps;     /* the chains stay exact for so many steps (UNROLL x ITERS); 0: any */
	const char *exact_what; /* ... what does: "fp16 chains" */
	ReferenceFn ref;        /* the chains' value; a matrix workload's is every element's gain */
} Arith;

static double ref_fp32(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_fp64(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_fp16(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_u32(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_dp4a(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_u16(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_u64(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);
static double ref_matrix(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps);

/* One row an arithmetic (a workload whose .arith names another row, as the
 * scalar forms and the matrices of other inputs do, has none:
 * workload_arith). 12 chains (VEC4S 3): on lavapipe (256-bit code) 8 chains
 * leave the FMA ports idle and 16 spill. GPUs get a longer unrolled body:
 * on the H200 the loop's own instructions cost 0.6% at 32 steps and 0.3% at
 * 128 (bench/fp32.sh; docs/PERFORMANCE.md). dp4a: 8 chains reach 98.5% of
 * the H100's dp4a rate, 12 only 91.7% and 16 84.8%; lavapipe keeps 12.
 * Matrices: 1024 steps each accumulator, every value an integer below 2^24,
 * exact in fp32 (and below 2048 in fp16); fp32 accumulate: 2 accumulators
 * (VEC4S 1): on the H100 (16x16x16 fp32 accumulators, 8 registers each) 2
 * reached 663 TFLOPS and 4, 6 or 8 only 529-536; fp16 accumulate and int8:
 * 4 (VEC4S 2) reached 665 TFLOPS and 1327 TOPS, 2 only 660 and 1319
 * (FLOPSCOPE_FMA_SHAPE, one run each, docs/PERFORMANCE.md). */
#define CHAINS { 128, 32 }, { 32, 32 }
#define MATRIX_CHAINS { 64, 32 }, { 16, 32 }
static const Arith ariths[WORKLOAD_TYPE_COUNT] = {
	[WORKLOAD_FP32] = { PUSH_F32, CHAIN_DAMPED, 0, 0, 2, { 3, 3 }, CHAINS, 0, NULL, ref_fp32 },
	[WORKLOAD_FP64] = { PUSH_F64, CHAIN_DAMPED, 0, 0, 2, { 3, 3 }, CHAINS, 0, NULL, ref_fp64 },
	/* 1024 steps: the exact range */
	[WORKLOAD_FP16] = { PUSH_F32, CHAIN_FP16_EXACT, 0, 0, 2, { 3, 3 }, { 128, 32 }, { 8, 32 }, 1024,
	                    "fp16 chains", ref_fp16 },
	/* a full-period LCG: every step changes every bit pattern, so a
	 * skipped step gives a different value, compared exactly */
	[WORKLOAD_INT32] = { PUSH_U32, CHAIN_GIVEN, 1664525, 1013904223, 2, { 3, 3 }, CHAINS, 0, NULL, ref_u32 },
	/* x = dot(bytes of x, bytes of a) + b: a new packed x each step */
	[WORKLOAD_INT8DOT] = { PUSH_U32, CHAIN_GIVEN, 0x03050709u, 0x00010203u, 8, { 2, 3 }, CHAINS, 0, NULL,
	                       ref_dp4a },
	/* a full-period LCG modulo 2^16 (a = 1 mod 4, b odd) */
	[WORKLOAD_INT16] = { PUSH_U32, CHAIN_GIVEN, 25173, 13849, 2, { 3, 3 }, CHAINS, 0, NULL, ref_u16 },
	/* full period modulo 2^64 (a = 1 mod 4, b odd), both below 2^53 so
	 * that FmaParams holds them exactly; the high half is not constant, so
	 * no compiler may narrow the chain to 32 bits */
	[WORKLOAD_INT64] = { PUSH_U64, CHAIN_GIVEN, 0x000DE3B5A4F29405ull, 0x0009E3779B97F4A7ull, 2, { 3, 3 },
	                     CHAINS, 0, NULL, ref_u64 },
	[WORKLOAD_FP16_MATRIX] = { PUSH_F32, CHAIN_MATRIX_UNIT, 0, 0, 2, { 1, 1 }, MATRIX_CHAINS, 0, NULL,
	                           ref_matrix },
	[WORKLOAD_FP16_MATRIX_F16] = { PUSH_F32, CHAIN_MATRIX_UNIT, 0, 0, 2, { 2, 2 }, MATRIX_CHAINS, 2048,
	                               "fp16 accumulators", ref_matrix },
	/* each step adds K a b = 15 K to every element: 1024 steps of K = 32
	 * stay far below 2^31 */
	[WORKLOAD_INT8_MATRIX] = { PUSH_U32, CHAIN_GIVEN, 3, 5, 2, { 2, 2 }, MATRIX_CHAINS, 0, NULL, ref_matrix },
};
#undef CHAINS
#undef MATRIX_CHAINS

bool fma_arith_known(WorkloadType t)
{
	return (size_t)t < WORKLOAD_TYPE_COUNT && ariths[workload_arith(t)].ref != NULL;
}

uint32_t fma_push(const FmaParams *p, uint32_t slot_mask, unsigned char out[24])
{
	memset(out, 0, 24);
	switch (ariths[p->type].push) {
	case PUSH_F64:
		memcpy(out, &p->a, 8);
		memcpy(out + 8, &p->b, 8);
		memcpy(out + 16, &slot_mask, 4);
		return 24;
	case PUSH_U64: {
		uint64_t a = (uint64_t)p->a, b = (uint64_t)p->b;
		memcpy(out, &a, 8);
		memcpy(out + 8, &b, 8);
		memcpy(out + 16, &slot_mask, 4);
		return 24;
	}
	case PUSH_U32: {
		uint32_t a = (uint32_t)p->a, b = (uint32_t)p->b;
		memcpy(out, &a, 4);
		memcpy(out + 4, &b, 4);
		break;
	}
	case PUSH_F32: {
		float a = (float)p->a, b = (float)p->b;
		memcpy(out, &a, 4);
		memcpy(out + 4, &b, 4);
		break;
	}
	}
	memcpy(out + 8, &slot_mask, 4);
	return 12;
}

static void set_chain_constants(FmaParams *p)
{
	const Arith *r = &ariths[p->type];
	uint32_t steps = p->unroll * p->iters;
	switch (r->chain) {
	case CHAIN_FP16_EXACT:
		p->a = 1.0;
		p->b = 1.0 / 256.0;
		break;
	case CHAIN_MATRIX_UNIT:
		p->a = 1.0;
		p->b = p->mm[2] ? 1.0 / p->mm[2] : 1.0 / 16;
		break;
	case CHAIN_GIVEN:
		p->a = r->a;
		p->b = r->b;
		break;
	case CHAIN_DAMPED:
		if (r->push == PUSH_F64) {
			p->a = 1.0 - 1.0 / (double)steps;
			p->b = 0.75 * (1.0 - p->a);
		} else { /* in float, as the shader holds them */
			float a = 1.0f - 1.0f / (float)steps;
			p->a = a;
			p->b = 0.75f * (1.0f - a);
		}
		break;
	}
}

void fma_params_for(FmaParams *p, WorkloadType t, bool cpu_device, uint32_t max_local_size)
{
	t = workload_arith(t);
	const Arith *r = &ariths[t];
	int on = cpu_device ? ON_CPU : ON_GPU;
	p->type = t;
	p->mm[0] = p->mm[1] = p->mm[2] = 0;
	p->subgroup = 0;
	p->vec4s = r->vec4s[on];
	p->unroll = r->unroll[on];
	p->iters = r->iters[on];
	p->local_size = max_local_size < 256 ? max_local_size : 256;
	if (p->local_size == 0)
		p->local_size = 1;
	set_chain_constants(p);
}

bool fma_params_parse(const char *text, FmaParams *p, uint32_t max_local_size, char *err, size_t len)
{
	unsigned v, u, it, ls;
	char extra;
	if (sscanf(text, "%u,%u,%u,%u%c", &v, &u, &it, &ls, &extra) != 4) {
		snprintf(err, len, "\"%s\" is not VEC4S,UNROLL,ITERS,LOCAL_SIZE", text);
		return false;
	}
	const Arith *r = &ariths[p->type];
	if (r->max_steps && (uint64_t)u * it > r->max_steps) {
		snprintf(err, len, "\"%s\": %s stay exact for at most %u steps (UNROLL x ITERS)", text, r->exact_what,
		         r->max_steps);
		return false;
	}
	if (v < 1 || v > 4 || u < 1 || u > 256 || it < 1 || it > 65536 || ls < 1 || ls > max_local_size) {
		snprintf(err, len, "\"%s\": VEC4S 1..4, UNROLL 1..256, ITERS 1..65536, LOCAL_SIZE 1..%u",
		         text, max_local_size);
		return false;
	}
	p->vec4s = v;
	p->unroll = u;
	p->iters = it;
	p->local_size = ls;
	set_chain_constants(p);
	return true;
}

void fma_params_matrix(FmaParams *p, const uint32_t mm[3], uint32_t subgroup)
{
	memcpy(p->mm, mm, sizeof p->mm);
	p->subgroup = subgroup;
	set_chain_constants(p);
}

uint64_t fma_flop_per_invocation(const FmaParams *p)
{
	if (workload_info[p->type].matrix) {
		/* 2 M N K a multiply-add of the subgroup, 2 VEC4S accumulators;
		 * M N K is a multiple of the subgroup on every shape offered */
		uint64_t sub = p->subgroup ? p->subgroup : 32;
		return 2ull * p->mm[0] * p->mm[1] * p->mm[2] * 2 * p->vec4s * p->unroll * p->iters / sub;
	}
	return (uint64_t)ariths[p->type].ops_per_step * 4 * p->vec4s * p->unroll * p->iters;
}

/* OpUDot on packed 4 x 8-bit vectors (the bytes' products summed), then a
 * wrapping 32-bit add of acc, as the shader does. */
static uint32_t udot_acc(uint32_t x, uint32_t y, uint32_t acc)
{
	uint32_t s = 0;
	for (int i = 0; i < 4; i++)
		s += ((x >> (8 * i)) & 255u) * ((y >> (8 * i)) & 255u);
	return s + acc;
}

/* The chains of each type, in the shader's arithmetic and order: set from
 * the slot, stepped steps times, summed as the shader stores them. */
static double ref_fp16(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	_Float16 x[16], a = (_Float16)p->a, b = (_Float16)p->b;
	_Float16 s = (_Float16)((float)(slot & 255u) / 256.0f);
	for (uint32_t c = 0; c < chains; c++)
		x[c] = (_Float16)(s + (_Float16)((float)c * 0.125f));
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = (_Float16)fmaf((float)x[c], (float)a, (float)b);
	float r = ((float)x[0] + (float)x[1]) + ((float)x[2] + (float)x[3]);
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += ((float)x[4 * v] + (float)x[4 * v + 1]) + ((float)x[4 * v + 2] + (float)x[4 * v + 3]);
	return r;
}

/* The 32-bit chains, summed as the shader stores them; dp4a: each step a
 * dot product and add (udot_acc), else a wrapping multiply-add. */
static double chains_u32(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps, bool dp4a)
{
	uint32_t x[16], a = (uint32_t)p->a, b = (uint32_t)p->b;
	for (uint32_t c = 0; c < chains; c++)
		x[c] = slot * 16u + c;
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = dp4a ? udot_acc(x[c], a, b) : x[c] * a + b;
	uint32_t r = (x[0] + x[1]) + (x[2] + x[3]);
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += (x[4 * v] + x[4 * v + 1]) + (x[4 * v + 2] + x[4 * v + 3]);
	return r;
}

static double ref_u32(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	return chains_u32(p, slot, chains, steps, false);
}

static double ref_dp4a(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	return chains_u32(p, slot, chains, steps, true);
}

static double ref_u16(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	uint16_t x[16], a = (uint16_t)p->a, b = (uint16_t)p->b;
	for (uint32_t c = 0; c < chains; c++)
		x[c] = (uint16_t)(slot * 16u + c);
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = (uint16_t)(x[c] * a + b);
	/* summed as 32-bit, as the shader's uint accumulator */
	uint32_t r = ((uint32_t)x[0] + x[1]) + ((uint32_t)x[2] + x[3]);
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += ((uint32_t)x[4 * v] + x[4 * v + 1]) + ((uint32_t)x[4 * v + 2] + x[4 * v + 3]);
	return r;
}

static double ref_u64(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	uint64_t x[16], a = (uint64_t)p->a, b = (uint64_t)p->b;
	for (uint32_t c = 0; c < chains; c++)
		x[c] = (uint64_t)slot * 16u + c;
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = x[c] * a + b;
	/* each chain folded to 32 bits (low ^ high), summed as the shader does */
#define FOLD(v) ((uint32_t)(v) ^ (uint32_t)((v) >> 32))
	uint32_t r = (FOLD(x[0]) + FOLD(x[1])) + (FOLD(x[2]) + FOLD(x[3]));
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += (FOLD(x[4 * v]) + FOLD(x[4 * v + 1])) + (FOLD(x[4 * v + 2]) + FOLD(x[4 * v + 3]));
#undef FOLD
	return r;
}

static double ref_fp64(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	double s = (double)slot / 65536.0, x[16];
	for (uint32_t c = 0; c < chains; c++)
		x[c] = s + 0.125 * (double)c;
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = fma(x[c], p->a, p->b);
	double r = (x[0] + x[1]) + (x[2] + x[3]);
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += (x[4 * v] + x[4 * v + 1]) + (x[4 * v + 2] + x[4 * v + 3]);
	return r;
}

static double ref_fp32(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	float s = (float)slot * (1.0f / 65536.0f), fa = (float)p->a, fb = (float)p->b;
	float x[16];
	for (uint32_t c = 0; c < chains; c++)
		x[c] = s + 0.125f * (float)c;
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = fmaf(x[c], fa, fb);
	float r = (x[0] + x[1]) + (x[2] + x[3]);
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += (x[4 * v] + x[4 * v + 1]) + (x[4 * v + 2] + x[4 * v + 3]);
	return r;
}

/* Every element of each of the 2 VEC4S accumulators gains K a b a step;
 * the shader stores the mean of its elements of their sum. */
static double ref_matrix(const FmaParams *p, uint32_t slot, uint32_t chains, uint32_t steps)
{
	(void)slot, (void)chains;
	return 2.0 * p->vec4s * steps * (double)p->mm[2] * p->a * p->b;
}

double fma_reference(const FmaParams *p, uint32_t slot)
{
	return ariths[p->type].ref(p, slot, 4 * p->vec4s, p->unroll * p->iters);
}

void fma_check_init(FmaCheck *c, const FmaParams *p)
{
	c->type = p->type;
	c->n = 0;
	for (uint32_t i = 0; i < WORKLOAD_CHECKS / 2; i++)
		c->slot[c->n++] = i;
	for (uint32_t i = 0; i < WORKLOAD_CHECKS / 2; i++)
		c->slot[c->n++] = (uint32_t)(((uint64_t)(WORKLOAD_SLOTS - 1) * (i + 1)) / (WORKLOAD_CHECKS / 2));
	for (size_t i = 0; i < c->n; i++)
		c->expect[i] = fma_reference(p, c->slot[i]);
}

int fma_check(const FmaCheck *c, const void *values, uint64_t invocations, char *msg, size_t len)
{
	int compared = 0;
	for (size_t i = 0; i < c->n; i++) {
		uint32_t slot = c->slot[i];
		if (slot >= invocations)
			continue;
		double got, want = c->expect[i];
		bool ok;
		switch (workload_info[c->type].check) {
		case RESULT_U32_EXACT: {
			uint32_t v;
			memcpy(&v, (const char *)values + 4 * (size_t)slot, 4);
			got = v;
			ok = got == want;
			break;
		}
		case RESULT_F64_REL:
			memcpy(&got, (const char *)values + 8 * (size_t)slot, 8);
			ok = fabs(got - want) <= 1e-9 * fabs(want);
			break;
		default: {
			float v;
			memcpy(&v, (const char *)values + 4 * (size_t)slot, 4);
			got = v;
			/* exact by construction; or, where drivers may evaluate fma()
			 * unfused (the Vulkan precision rules allow it), the damped
			 * chains differ by less than 1e-4 relative, and skipping 1% of
			 * the steps moves the sum by about 1e-3 */
			ok = workload_info[c->type].check == RESULT_F32_EXACT ? got == want : fabs(got - want) <= 1e-3 * fabs(want);
			break;
		}
		}
		if (!ok) {
			snprintf(msg, len, "slot %u holds %.17g, the CPU computes %.17g: the device did "
			         "not do the work it reports", slot, got, want);
			return -1;
		}
		compared++;
	}
	return compared;
}
