/* Unit tests for spirv_khr: the NV/fp16 -> KHR/bfloat16 rewrite on a small
 * module laid out as glslang writes the bf16-matrix shader, and every kind
 * of module it must refuse. */
#include "check.h"
#include "spirv_khr.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define BF16 1000141000u /* VK_COMPONENT_TYPE_BFLOAT16_KHR */

typedef struct Mod {
	uint32_t w[256];
	size_t n;
} Mod;

static void ins(Mod *m, uint32_t op, int count, const uint32_t *operands)
{
	m->w[m->n++] = (uint32_t)(count + 1) << 16 | op;
	for (int i = 0; i < count; i++)
		m->w[m->n++] = operands[i];
}
#define INS(m, op, ...) ins((m), (op), (int)(sizeof((uint32_t[]){ __VA_ARGS__ }) / 4), (uint32_t[]){ __VA_ARGS__ })

static void ext(Mod *m, const char *s)
{
	uint32_t words[16] = { 0 };
	size_t len = strlen(s) + 1;
	memcpy(words, s, len);
	ins(m, 10, (int)((len + 3) / 4), words);
}

/* bound 17: %7 the fp16 matrix used as both A and B, %8 the accumulator */
enum { T_UINT = 2, T_HALF = 3, T_FLOAT = 4, C_SCOPE = 5, C_16 = 6, T_AB = 7, T_C = 8, S_LEN = 9,
       V_HALF = 10, V_A = 12, V_B = 13, V_C = 14, V_D = 15, V_LEN = 16, BOUND = 17 };

static void build(Mod *m, bool float16, bool load, bool half_const, bool a_loaded, bool spec_len)
{
	m->n = 0;
	uint32_t hdr[5] = { 0x07230203u, 0x00010300u, 0, BOUND, 0 };
	memcpy(m->w, hdr, sizeof hdr);
	m->n = 5;
	INS(m, 17, 1);
	if (float16)
		INS(m, 17, 9);
	INS(m, 17, 5357);
	ext(m, "SPV_NV_cooperative_matrix");
	INS(m, 21, T_UINT, 32, 0);
	INS(m, 22, T_HALF, 16);
	INS(m, 22, T_FLOAT, 32);
	INS(m, 43, T_UINT, C_SCOPE, 3);
	INS(m, 43, T_UINT, C_16, 16);
	if (half_const)
		INS(m, 43, T_HALF, 11, 0x3c00);
	INS(m, 5358, T_AB, T_HALF, C_SCOPE, C_16, C_16);
	INS(m, 5358, T_C, T_FLOAT, C_SCOPE, C_16, C_16);
	if (spec_len)
		INS(m, 52, T_UINT, S_LEN, 5362, T_C);
	if (a_loaded)
		INS(m, 61, T_AB, V_A, 11);
	else
		INS(m, 80, T_AB, V_A, V_HALF);
	INS(m, 80, T_AB, V_B, V_HALF);
	INS(m, 80, T_C, V_C, 11);
	INS(m, 5361, T_C, V_D, V_A, V_B, V_C);
	INS(m, 5362, T_UINT, V_LEN, T_C);
	if (load)
		INS(m, 5359, T_AB, 11, 11, C_16, C_16);
}

/* the instruction defining id (or, id 0, the n-th of opcode op), NULL none */
static const uint32_t *find(const uint32_t *w, size_t n, uint32_t op, uint32_t id, int nth)
{
	for (size_t at = 5; at < n; at += w[at] >> 16) {
		if ((w[at] & 0xffffu) != op)
			continue;
		if (id ? (w[at + 1] == id || w[at + 2] == id) : nth-- == 0)
			return w + at;
		if (!(w[at] >> 16))
			break;
	}
	return NULL;
}

static bool has_cap(const uint32_t *w, size_t n, uint32_t cap)
{
	for (int i = 0;; i++) {
		const uint32_t *c = find(w, n, 17, 0, i);
		if (!c)
			return false;
		if (c[1] == cap)
			return true;
	}
}

static bool has_ext(const uint32_t *w, size_t n, const char *name)
{
	for (int i = 0;; i++) {
		const uint32_t *e = find(w, n, 10, 0, i);
		if (!e)
			return false;
		if (!strcmp((const char *)(e + 1), name))
			return true;
	}
}

static void rewrite_should_make_khr_bfloat16_matrices(void)
{
	Mod m;
	build(&m, true, false, false, false, false);
	uint32_t *out = NULL;
	size_t n = 0;
	char why[200] = "";
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) == 0);
	if (!out) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	CHECK(out[0] == 0x07230203u && out[3] == BOUND + 4); /* 3 uses and a twin for B */
	CHECK(has_cap(out, n, 6022) && has_cap(out, n, 5116) && has_cap(out, n, 5118) && has_cap(out, n, 1));
	CHECK(!has_cap(out, n, 9) && !has_cap(out, n, 5357));
	CHECK(has_ext(out, n, "SPV_KHR_cooperative_matrix") && has_ext(out, n, "SPV_KHR_bfloat16"));
	CHECK(!has_ext(out, n, "SPV_NV_cooperative_matrix"));
	const uint32_t *half = find(out, n, 22, T_HALF, 0);
	CHECK(half && half[0] >> 16 == 4 && half[2] == 16 && half[3] == 0); /* BFloat16KHR */
	const uint32_t *f32 = find(out, n, 22, T_FLOAT, 0);
	CHECK(f32 && f32[0] >> 16 == 3);
	/* the uses: constants 0, 1, 2 of the uint type, declared before the matrices */
	uint32_t use[3];
	for (uint32_t u = 0; u < 3; u++) {
		const uint32_t *c = find(out, n, 43, BOUND + u, 0);
		CHECK(c && c[1] == T_UINT && c[3] == u);
		use[u] = BOUND + u;
	}
	CHECK(!find(out, n, 5358, 0, 0));
	const uint32_t *a = find(out, n, 4456, T_AB, 0), *b = find(out, n, 4456, BOUND + 3, 0),
	               *c = find(out, n, 4456, T_C, 0);
	CHECK(a && a[0] >> 16 == 7 && a[2] == T_HALF && a[3] == C_SCOPE && a[4] == C_16 && a[6] == use[0]);
	CHECK(b && b[2] == T_HALF && b[6] == use[1]);
	CHECK(c && c[2] == T_FLOAT && c[6] == use[2]);
	CHECK(a && b && c && a < b && b < c && find(out, n, 43, BOUND, 0) < a);
	/* A keeps its type, B takes the twin; the operations are KHR */
	const uint32_t *ca = find(out, n, 80, V_A, 0), *cb = find(out, n, 80, V_B, 0), *cc = find(out, n, 80, V_C, 0);
	CHECK(ca && ca[1] == T_AB && cb && cb[1] == BOUND + 3 && cc && cc[1] == T_C);
	const uint32_t *mad = find(out, n, 4459, V_D, 0);
	CHECK(mad && mad[0] >> 16 == 6 && mad[3] == V_A && mad[4] == V_B && mad[5] == V_C);
	CHECK(!find(out, n, 5361, 0, 0) && !find(out, n, 5362, 0, 0));
	const uint32_t *len = find(out, n, 4460, V_LEN, 0);
	CHECK(len && len[3] == T_C);
	free(out);
}

/* without bf16 (bench/peak/coopmat2.sh's workgroup-scope fp16): the
 * matrices become KHR ones, every fp16 thing stays as it was */
static void rewrite_without_bf16_should_keep_fp16(void)
{
	Mod m;
	build(&m, true, false, true, false, false); /* an fp16 constant is fine here */
	uint32_t *out = NULL;
	size_t n = 0;
	char why[200] = "";
	CHECK(spirv_nv_to_khr(m.w, m.n, SPIRV_KEEP_FP16, &out, &n, why, sizeof why) == 0);
	if (!out) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	CHECK(has_cap(out, n, 9) && has_cap(out, n, 6022) && !has_cap(out, n, 5116) && !has_cap(out, n, 5118));
	CHECK(has_ext(out, n, "SPV_KHR_cooperative_matrix") && !has_ext(out, n, "SPV_KHR_bfloat16"));
	const uint32_t *half = find(out, n, 22, T_HALF, 0), *b = find(out, n, 4456, BOUND + 3, 0);
	CHECK(half && half[0] >> 16 == 3);
	CHECK(b && b[6] == BOUND + 1 && find(out, n, 4459, V_D, 0));
	free(out);
	build(&m, false, false, false, false, false); /* no Float16 needed either */
	CHECK(spirv_nv_to_khr(m.w, m.n, SPIRV_KEEP_FP16, &out, &n, why, sizeof why) == 0);
	free(out);
}

static void rewrite_should_refuse_what_it_cannot_carry_over(void)
{
	/* a type without a row of the rewrite: refused, named */
	CHECK(spirv_retype_known(BF16) && !spirv_retype_known(1) && !spirv_retype_known(SPIRV_KEEP_FP16));
	{
		Mod m0 = { 0 };
		build(&m0, true, false, false, false, false);
		uint32_t *o0;
		size_t n0;
		char w0[200];
		CHECK(spirv_nv_to_khr(m0.w, m0.n, 1, &o0, &n0, w0, sizeof w0) < 0 && strstr(w0, "component type 1"));
	}
	Mod m;
	uint32_t *out = (uint32_t *)&m; /* must come back NULL */
	size_t n = 1;
	char why[200];
	build(&m, false, false, false, false, false);
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "Float16"));
	CHECK(!out && n == 0);
	build(&m, true, true, false, false, false);
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "load"));
	build(&m, true, false, true, false, false);
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "16-bit float constant"));
	build(&m, true, false, false, true, false);
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 &&
	      strstr(why, "takes A") && strstr(why, "OpCompositeConstruct"));
	build(&m, true, false, false, false, false);
	CHECK(spirv_nv_to_khr(m.w, m.n - 1, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "malformed"));
	build(&m, true, false, false, false, false); /* found by fuzz_spirv: a second definition */
	INS(&m, 80, 100000, V_B, V_HALF);
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0);
	m.w[m.n - 3] = T_AB;
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "defined twice"));
	build(&m, true, false, false, false, true);
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "specialization"));
	m.w[0] = 0;
	CHECK(spirv_nv_to_khr(m.w, m.n, BF16, &out, &n, why, sizeof why) < 0 && strstr(why, "magic"));
	CHECK(!out);
}

int main(void)
{
	RUN(rewrite_should_make_khr_bfloat16_matrices);
	RUN(rewrite_without_bf16_should_keep_fp16);
	RUN(rewrite_should_refuse_what_it_cannot_carry_over);
	return CHECK_DONE();
}
