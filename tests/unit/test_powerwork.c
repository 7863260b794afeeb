/* powerwork: the power workload's operands and the check of its tiles. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "powerwork.h"

static PowerParams matrix_params(void)
{
	PowerParams p;
	const uint32_t mnk[3] = { 16, 16, 16 };
	power_params_matrix(&p, mnk, 32, 1024);
	p.seed = 12345;
	return p;
}

static double half(uint32_t h)
{
	int e = (int)((h >> 10) & 31u);
	double v = e ? ldexp(1024.0 + (h & 1023u), e - 25) : ldexp(h & 1023u, -24);
	return h & 0x8000u ? -v : v;
}

static void operands_should_be_finite_full_entropy_and_the_same_in_any_piece(void)
{
	PowerParams p = matrix_params();
	uint64_t n = power_words(&p);
	CHECK(n % 4 == 0 && n == 1024ull * 2 * 512 / 2);
	uint32_t *all = malloc(n * 4), piece[7];
	CHECK(all != NULL);
	if (!all)
		return;
	power_fill(&p, 0, all, n);
	unsigned signs = 0, exps[32] = { 0 }, same = 0;
	for (uint64_t i = 0; i < n; i++)
		for (int h = 0; h < 2; h++) {
			uint32_t v = h ? all[i] >> 16 : all[i] & 0xffffu;
			exps[(v >> 10) & 31u]++;
			signs += v >> 15;
		}
	for (uint64_t i = 1; i < n; i++)
		same += all[i] == all[i - 1];
	CHECK(exps[31] == 0);                      /* no infinity, no NaN */
	for (int e = 0; e < 31; e++)
		CHECK(exps[e] > n / 40);               /* every exponent drawn */
	CHECK(signs > n * 9 / 10 && signs < n * 11 / 10); /* half of 2n negative */
	CHECK(same < 4);
	power_fill(&p, 1001, piece, 7);
	CHECK(!memcmp(piece, all + 1001, sizeof piece));
	PowerParams q = p;
	q.seed++;
	power_fill(&q, 1001, piece, 7);
	CHECK(memcmp(piece, all + 1001, sizeof piece) != 0); /* another run, other operands */
	free(all);
}

/* A tile as a device computes it: fp32 accumulators, step after step, the
 * chains summed at the end; skip: that many steps of chain 0 left out. */
static void device_tile(const PowerParams *p, uint32_t t, unsigned skip, float *out)
{
	uint32_t M = p->m, N = p->n, K = p->k, set = M * K + K * N;
	uint32_t *w = malloc((size_t)set / 2 * 4);
	float *c = calloc((size_t)M * N, sizeof *c);
	if (!w || !c) {
		CHECK(0);
		free(w);
		free(c);
		return;
	}
	for (uint32_t i = 0; i < M * N; i++)
		out[i] = 0;
	for (uint32_t ch = 0; ch < p->chains; ch++) {
		power_fill(p, ((uint64_t)t * p->chains + ch) * set / 2, w, set / 2);
		for (uint32_t i = 0; i < M * N; i++)
			c[i] = 0;
		uint32_t steps = p->unroll * p->iters - (ch == 0 ? skip : 0);
		for (uint32_t s = 0; s < steps; s++)
			for (uint32_t r = 0; r < M; r++)
				for (uint32_t col = 0; col < N; col++) {
					float acc = c[r * N + col];
					for (uint32_t k = 0; k < K; k++) {
						uint32_t ia = r * K + k, ib = M * K + k * N + col;
						double a = half(ia & 1 ? w[ia / 2] >> 16 : w[ia / 2] & 0xffffu);
						double b = half(ib & 1 ? w[ib / 2] >> 16 : w[ib / 2] & 0xffffu);
						acc += (float)(a * b);
					}
					c[r * N + col] = acc;
				}
		for (uint32_t i = 0; i < M * N; i++)
			out[i] += c[i];
	}
	free(w);
	free(c);
}

static void matrix_tiles_should_pass_as_computed_and_fail_a_skipped_step_or_flipped_bit(void)
{
	/* the default steps (512): the check's allowance grows with their
	 * square, a skipped step's trace only with their number */
	PowerParams p = matrix_params();
	CHECK(p.unroll * p.iters == 512);
	float tile[256];
	char why[256] = "";
	for (uint32_t t = 0; t < 3; t++) {
		device_tile(&p, t * 500, 0, tile);
		CHECK(power_check_tile(&p, t * 500, t * 500, tile, why, sizeof why));
		device_tile(&p, t * 500, 1, tile);
		CHECK(!power_check_tile(&p, t * 500, t * 500, tile, why, sizeof why) && strstr(why, "the CPU's"));
	}
	device_tile(&p, 7, 0, tile);
	uint32_t u;
	memcpy(&u, &tile[0], 4);
	u ^= 0x40000000u;
	memcpy(&tile[0], &u, 4);
	CHECK(!power_check_tile(&p, 7, 7, tile, why, sizeof why) && strstr(why, "tile 7 element (0,0)"));
	CHECK(!power_check_tile(&p, 8, 8, tile, why, sizeof why)); /* another tile's values */
}

static void fma_tiles_should_pass_as_computed_and_fail_otherwise(void)
{
	PowerParams p;
	power_params_fma(&p, true, 1024);
	p.seed = 99;
	CHECK(p.local_size == 64 && power_tile_values(&p) == 1);
	CHECK(power_words(&p) == 4096ull * p.iters * 4);
	CHECK(power_flop_per_group(&p) == 2ull * 16 * p.unroll * p.iters * 64);
	char why[256];
	/* the reference through the checker itself is circular; a chain
	 * computed here, unfused, must pass within the allowance */
	for (uint32_t t = 0; t < 4; t++) {
		float x[16];
		for (int i = 0; i < 16; i++)
			x[i] = 0.0625f * (float)i;
		for (uint32_t it = 0; it < p.iters; it++) {
			uint32_t w[4];
			power_fill(&p, ((uint64_t)t * p.iters + it) * 4, w, 4);
			float a[4], b[4];
			for (int j = 0; j < 4; j++) {
				uint32_t ua = (w[j] & 0x001fffffu) | 0x3f000000u, ub = (w[(j + 1) % 4] & 0x807fffffu) | 0x3f000000u;
				memcpy(&a[j], &ua, 4);
				memcpy(&b[j], &ub, 4);
			}
			for (uint32_t s = 0; s < p.unroll; s++)
				for (int i = 0; i < 16; i++) {
					volatile float prod = x[i] * a[i % 4];
					x[i] = prod + b[i % 4];
				}
		}
		float sum = 0;
		for (int c = 0; c < 4; c++)
			sum += x[4 * c] + x[4 * c + 1] + x[4 * c + 2] + x[4 * c + 3];
		CHECK(power_check_tile(&p, t, t, &sum, why, sizeof why));
		float off = sum + 0.01f;
		CHECK(!power_check_tile(&p, t, t, &off, why, sizeof why) && strstr(why, "slot"));
	}
}

static void shapes_should_parse_within_bounds(void)
{
	PowerParams p = matrix_params();
	char why[256];
	CHECK(power_params_parse("16,8,16,8,4,32", &p, why, sizeof why) && p.n == 8 && p.chains == 8 && p.iters == 32);
	CHECK(!power_params_parse("16,8,16,9,4,32", &p, why, sizeof why) && strstr(why, "CHAINS 1-8"));
	CHECK(!power_params_parse("16,12,16,2,4,32", &p, why, sizeof why) && strstr(why, "multiples of 8"));
	CHECK(!power_params_parse("8,4,32", &p, why, sizeof why) && strstr(why, "M,N,K"));
	PowerParams f;
	power_params_fma(&f, false, 256);
	CHECK(power_params_parse("2,8,128", &f, why, sizeof why) && f.chains == 2 && f.unroll == 8);
	CHECK(!power_params_parse("2,8,128,1", &f, why, sizeof why));
	/* a matrix workgroup holds whole subgroups, within the device's limit */
	const uint32_t mnk[3] = { 16, 16, 16 };
	power_params_matrix(&p, mnk, 64, 128);
	CHECK(p.local_size == 128 && power_flop_per_group(&p) == 2ull * 4096 * 2 * 512 * 2);
	CHECK(power_tiles_written(&p, 3) == 6 && power_tiles_written(&p, 1u << 20) == 1024);
	/* the operand sets turn with each submission, a permutation each time */
	for (uint32_t seq = 0; seq < 5; seq++) {
		unsigned char seen[1024] = { 0 };
		for (uint32_t t = 0; t < 1024; t++)
			seen[power_operand_set(&p, t, seq)]++;
		for (uint32_t t = 0; t < 1024; t++)
			CHECK(seen[t] == 1);
	}
	CHECK(power_operand_set(&p, 5, 0) == 5 && power_operand_set(&p, 5, 1) == 102 && power_operand_set(&p, 1000, 1) == 73);
}

int main(void)
{
	RUN(operands_should_be_finite_full_entropy_and_the_same_in_any_piece);
	RUN(matrix_tiles_should_pass_as_computed_and_fail_a_skipped_step_or_flipped_bit);
	RUN(fma_tiles_should_pass_as_computed_and_fail_otherwise);
	RUN(shapes_should_parse_within_bounds);
	return CHECK_DONE();
}
