#include "workload.h"

#include <math.h>
#include <stdio.h>

static void set_chain_constants(FmaParams *p)
{
	/* a^steps is about 1/e: each chain keeps a memory of its start value, so
	 * a dispatch that skipped steps gives visibly different results, while the
	 * fixed point 0.75 keeps every value bounded. */
	uint32_t steps = p->unroll * p->iters;
	p->a = 1.0f - 1.0f / (float)steps;
	p->b = 0.75f * (1.0f - p->a);
}

void fma_params_for(FmaParams *p, bool cpu_device, uint32_t max_local_size)
{
	/* 12 chains: on lavapipe (256-bit code) 8 chains leave the FMA ports
	 * idle and 16 spill. GPUs get a longer unrolled body: on the H200 the
	 * loop's own instructions cost 0.6% at 32 steps and 0.3% at 128.
	 * bench/fp32.sh measured both; see docs/PERFORMANCE.md. */
	p->vec4s = 3;
	p->unroll = cpu_device ? 32 : 128;
	p->iters = 32;
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

uint64_t fma_flop_per_invocation(const FmaParams *p)
{
	return 2ull * 4 * p->vec4s * p->unroll * p->iters;
}

float fma_reference(const FmaParams *p, uint32_t slot)
{
	float s = (float)slot * (1.0f / 65536.0f);
	uint32_t chains = 4 * p->vec4s, steps = p->unroll * p->iters;
	float x[16];
	for (uint32_t c = 0; c < chains; c++)
		x[c] = s + 0.125f * (float)c;
	for (uint32_t i = 0; i < steps; i++)
		for (uint32_t c = 0; c < chains; c++)
			x[c] = fmaf(x[c], p->a, p->b);
	float r = (x[0] + x[1]) + (x[2] + x[3]);
	for (uint32_t v = 1; v < p->vec4s; v++)
		r += (x[4 * v] + x[4 * v + 1]) + (x[4 * v + 2] + x[4 * v + 3]);
	return r;
}

void fma_check_init(FmaCheck *c, const FmaParams *p)
{
	c->n = 0;
	for (uint32_t i = 0; i < WORKLOAD_CHECKS / 2; i++)
		c->slot[c->n++] = i;
	for (uint32_t i = 0; i < WORKLOAD_CHECKS / 2; i++)
		c->slot[c->n++] = (uint32_t)(((uint64_t)(WORKLOAD_SLOTS - 1) * (i + 1)) / (WORKLOAD_CHECKS / 2));
	for (size_t i = 0; i < c->n; i++)
		c->expect[i] = fma_reference(p, c->slot[i]);
}

int fma_check(const FmaCheck *c, const float *values, uint64_t invocations,
              char *msg, size_t len)
{
	int compared = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->slot[i] >= invocations)
			continue;
		float got = values[c->slot[i]], want = c->expect[i];
		/* Drivers may evaluate fma() unfused (the Vulkan precision rules
		 * allow it): the damped chains then differ by less than 1e-4
		 * relative. Skipping 1% of the steps moves the sum by about 1e-3. */
		if (!(fabsf(got - want) <= 1e-3f * fabsf(want))) {
			snprintf(msg, len, "slot %u holds %.9g, the CPU computes %.9g: the device did "
			         "not do the work it reports", c->slot[i], (double)got, (double)want);
			return -1;
		}
		compared++;
	}
	return compared;
}
