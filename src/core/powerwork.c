/* powerwork: see powerwork.h. */
#include "powerwork.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Matrix: 2 chains, 512 steps each (a skipped step moves a tile element by
 * up to 1/512 of its size, above the rounding allowed: 2^-20 x 530 steps'
 * worth); 4 subgroups a workgroup; 1024 operand sets of 2 x 768 halves
 * (16x8x16), which the device's caches hold. On the H100 at its power cap 2
 * chains of 16x8x16 reached 553 TFLOPS, 1 547, 4 497 and 8 393 (256 steps,
 * bench/power.sh, one run each, docs/PERFORMANCE.md); on the H200 512 steps
 * reached 570.5 TFLOPS where 256 reached 556, and 1024 no more than 512.
 * FLOPSCOPE_POWER_SHAPE changes all but the sets. */
#define MATRIX_CHAINS 2u
#define MATRIX_UNROLL 4u
#define MATRIX_ITERS 128u
#define MATRIX_SUBGROUPS 4u
#define MATRIX_TILES 1024u
/* FMA: 16 chains (4 vec4), a new operand word every 16 steps; 4096 slots */
#define FMA_CHAINS 4u
#define FMA_UNROLL 16u
#define FMA_ITERS 64u
#define FMA_ITERS_CPU 16u
#define FMA_LOCAL 64u
#define FMA_TILES 4096u

void power_params_matrix(PowerParams *p, const uint32_t mnk[3], uint32_t subgroup, uint32_t max_local)
{
	memset(p, 0, sizeof *p);
	p->form = POWER_MATRIX;
	p->m = mnk[0], p->n = mnk[1], p->k = mnk[2];
	p->chains = MATRIX_CHAINS;
	p->unroll = MATRIX_UNROLL;
	p->iters = MATRIX_ITERS;
	p->tiles = MATRIX_TILES;
	p->subgroup = subgroup ? subgroup : 32;
	uint32_t subs = MATRIX_SUBGROUPS;
	while (subs > 1 && p->subgroup * subs > max_local)
		subs /= 2;
	p->local_size = p->subgroup * subs;
}

void power_params_fma(PowerParams *p, bool cpu_device, uint32_t max_local)
{
	memset(p, 0, sizeof *p);
	p->form = POWER_FMA;
	p->chains = FMA_CHAINS;
	p->unroll = FMA_UNROLL;
	p->iters = cpu_device ? FMA_ITERS_CPU : FMA_ITERS;
	p->tiles = FMA_TILES;
	p->local_size = max_local < FMA_LOCAL ? max_local : FMA_LOCAL;
	if (!p->local_size)
		p->local_size = 1;
}

bool power_params_parse(const char *text, PowerParams *p, char *why, size_t len)
{
	unsigned v[6];
	int end = 0;
	int want = p->form == POWER_MATRIX ? 6 : 3;
	int got = want == 6 ? sscanf(text, "%u,%u,%u,%u,%u,%u%n", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &end)
	                    : sscanf(text, "%u,%u,%u%n", &v[3], &v[4], &v[5], &end);
	if (got != want || text[end]) {
		snprintf(why, len, "\"%s\" is not %s", text,
		         want == 6 ? "M,N,K,CHAINS,UNROLL,ITERS" : "CHAINS,UNROLL,ITERS");
		return false;
	}
	if (v[3] < 1 || v[3] > 8 || v[4] < 1 || v[4] > 64 || v[5] < 1 || v[5] > 4096 ||
	    (want == 6 && (v[0] % 8 || v[1] % 8 || v[2] % 8 || !v[0] || !v[1] || !v[2]))) {
		snprintf(why, len, "\"%s\": CHAINS 1-8, UNROLL 1-64, ITERS 1-4096%s", text,
		         want == 6 ? ", M, N and K multiples of 8" : "");
		return false;
	}
	if (want == 6)
		p->m = v[0], p->n = v[1], p->k = v[2];
	p->chains = v[3];
	p->unroll = v[4];
	p->iters = v[5];
	return true;
}

/* halves of one chain's A and B */
static uint64_t matrix_set(const PowerParams *p)
{
	return (uint64_t)p->m * p->k + (uint64_t)p->k * p->n;
}

uint64_t power_words(const PowerParams *p)
{
	if (p->form == POWER_MATRIX)
		return (uint64_t)p->tiles * p->chains * matrix_set(p) / 2;
	return (uint64_t)p->tiles * p->iters * 4;
}

/* splitmix64: each word its own function of the seed and its place */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* an fp16 pattern made finite: exponent 31 (infinities, NaNs) becomes 15 */
static uint32_t finite_half(uint32_t h)
{
	return ((h >> 10) & 31u) == 31u ? h ^ 0x4000u : h;
}

void power_fill(const PowerParams *p, uint64_t first, uint32_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t w = (uint32_t)(mix(p->seed ^ ((first + i) * 0x2545f4914f6cdd1dull)) >> 32);
		if (p->form == POWER_MATRIX)
			w = finite_half(w & 0xffffu) | finite_half(w >> 16) << 16;
		out[i] = w;
	}
}

uint32_t power_tile_values(const PowerParams *p)
{
	return p->form == POWER_MATRIX ? p->m * p->n : 1;
}

uint64_t power_flop_per_group(const PowerParams *p)
{
	uint64_t steps = (uint64_t)p->unroll * p->iters;
	if (p->form == POWER_MATRIX)
		return 2ull * p->m * p->n * p->k * p->chains * steps * (p->local_size / p->subgroup);
	return 2ull * 4 * p->chains * steps * p->local_size;
}

uint64_t power_tiles_written(const PowerParams *p, uint64_t groups)
{
	uint64_t per = p->form == POWER_MATRIX ? p->local_size / p->subgroup : p->local_size;
	uint64_t n = groups * per;
	return n < p->tiles ? n : p->tiles;
}

static double half_value(uint32_t h)
{
	int e = (int)((h >> 10) & 31u);
	double m = (double)(h & 1023u);
	double v = e ? ldexp(1024.0 + m, e - 25) : ldexp(m, -24);
	return h & 0x8000u ? -v : v;
}

/* half i of the operands (words from the seed) */
static double operand(const PowerParams *p, uint64_t i)
{
	uint32_t w;
	power_fill(p, i / 2, &w, 1);
	return half_value(i & 1 ? w >> 16 : w & 0xffffu);
}

/* Every element: steps * sum over the chains of (A_i B_i)[r][c], computed
 * exactly enough in doubles; the device's order of fp32 additions (and a
 * tensor unit's truncation) allow 2^-20 (steps + K + chains) of the
 * magnitudes' sum, a subnormal flushed to zero 4 a product. */
static bool check_matrix(const PowerParams *p, uint32_t t, uint32_t set, const float *got, char *why, size_t len)
{
	uint32_t M = p->m, N = p->n, K = p->k;
	double steps = (double)p->unroll * p->iters;
	double *a = malloc(sizeof *a * (M * K + K * N));
	if (!a) {
		snprintf(why, len, "out of memory for the reference");
		return false;
	}
	double *b = a + M * K;
	double *ref = calloc((size_t)M * N * 2, sizeof *ref);
	if (!ref) {
		free(a);
		snprintf(why, len, "out of memory for the reference");
		return false;
	}
	double *mag = ref + M * N;
	for (uint32_t ch = 0; ch < p->chains; ch++) {
		uint64_t base = ((uint64_t)set * p->chains + ch) * matrix_set(p);
		for (uint32_t i = 0; i < M * K + K * N; i++)
			a[i] = operand(p, base + i);
		for (uint32_t r = 0; r < M; r++)
			for (uint32_t c = 0; c < N; c++)
				for (uint32_t k = 0; k < K; k++) {
					double x = a[r * K + k] * b[k * N + c];
					ref[r * N + c] += x;
					mag[r * N + c] += fabs(x);
				}
	}
	bool ok = true;
	for (uint32_t i = 0; i < M * N && ok; i++) {
		double want = steps * ref[i];
		double tol = ldexp(steps * mag[i], -20) * (steps + K + p->chains) + steps * p->chains * K * 4.0;
		if (!(fabs((double)got[i] - want) <= tol)) {
			snprintf(why, len, "tile %u element (%u,%u): %.9g, the CPU's %.9g (within %.3g)", t, i / N,
			         i % N, (double)got[i], want, tol);
			ok = false;
		}
	}
	free(ref);
	free(a);
	return ok;
}

static float fa(uint32_t u)
{
	union { uint32_t u; float f; } v = { (u & 0x001fffffu) | 0x3f000000u };
	return v.f;
}

static float fb(uint32_t u)
{
	union { uint32_t u; float f; } v = { (u & 0x807fffffu) | 0x3f000000u };
	return v.f;
}

/* As the shader: the chains from 0.0625 (4 c + j), a new word every unroll
 * steps, fused multiply-adds, summed in order. A device may not fuse
 * (GLSL's fma() need not be): every chain is contracting (a < 0.625), so the
 * difference stays near one rounding a chain; allowed 1e-4 each. */
static bool check_fma(const PowerParams *p, uint32_t t, uint32_t set, const float *got, char *why, size_t len)
{
	float x[8][4];
	for (uint32_t c = 0; c < p->chains; c++)
		for (int j = 0; j < 4; j++)
			x[c][j] = 0.0625f * (float)(4 * c + (uint32_t)j);
	for (uint32_t i = 0; i < p->iters; i++) {
		uint32_t w[4];
		power_fill(p, ((uint64_t)set * p->iters + i) * 4, w, 4);
		float a[4] = { fa(w[0]), fa(w[1]), fa(w[2]), fa(w[3]) };
		float b[4] = { fb(w[1]), fb(w[2]), fb(w[3]), fb(w[0]) };
		for (uint32_t u = 0; u < p->unroll; u++)
			for (uint32_t c = 0; c < p->chains; c++)
				for (int j = 0; j < 4; j++)
					x[c][j] = fmaf(x[c][j], a[j], b[j]);
	}
	float sum = 0;
	for (uint32_t c = 0; c < p->chains; c++)
		sum += x[c][0] + x[c][1] + x[c][2] + x[c][3];
	double tol = 1e-4 * 4 * p->chains;
	if (!(fabs((double)got[0] - (double)sum) <= tol)) {
		snprintf(why, len, "slot %u: %.9g, the CPU's %.9g (within %.3g)", t, (double)got[0], (double)sum, tol);
		return false;
	}
	return true;
}

uint32_t power_operand_set(const PowerParams *p, uint32_t t, uint32_t seq)
{
	return (t + 97u * seq) & (p->tiles - 1);
}

bool power_check_tile(const PowerParams *p, uint32_t t, uint32_t set, const float *got, char *why, size_t len)
{
	return p->form == POWER_MATRIX ? check_matrix(p, t, set, got, why, len) : check_fma(p, t, set, got, why, len);
}
