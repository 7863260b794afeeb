#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "devinfo.h"
#include "fmawork.h"

/* Fills the slots the check reads (the others stay as they are). */
static void fill(const FmaParams *p, const FmaCheck *c, float *v)
{
	for (size_t i = 0; i < c->n; i++)
		v[c->slot[i]] = (float)fma_reference(p, c->slot[i]);
}

static void fma_flop_count_should_be_two_per_step_per_chain(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP32, true, 1024);
	CHECK(fma_flop_per_invocation(&p) == 2ull * 4 * p.vec4s * p.unroll * p.iters);
	char err[128];
	CHECK(fma_params_parse("2,16,64,128", &p, 1024, err, sizeof err));
	CHECK(fma_flop_per_invocation(&p) == 2ull * 8 * 16 * 64);
	CHECK(p.local_size == 128);
}

static void fma_params_should_respect_the_local_size_limit(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP32, false, 64);
	CHECK(p.local_size == 64);
	char err[128];
	CHECK(!fma_params_parse("2,16,64,128", &p, 64, err, sizeof err));
	CHECK(!fma_params_parse("5,16,64,64", &p, 64, err, sizeof err));
	CHECK(!fma_params_parse("2,16,64", &p, 64, err, sizeof err));
	CHECK(!fma_params_parse("2,16,64,64x", &p, 64, err, sizeof err));
}

static void fma_reference_should_stay_bounded_and_depend_on_the_slot(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP32, false, 256);
	float a = fma_reference(&p, 0), b = fma_reference(&p, 65535);
	CHECK(isfinite(a) && isfinite(b));
	CHECK(a > 0 && a < 4 * p.vec4s * 3.0f);
	CHECK(fabsf(a - b) > 1e-2f);
}

static void fma_check_should_accept_the_reference_values(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP32, true, 256);
	FmaCheck c;
	fma_check_init(&c, &p);
	float *v = calloc(WORKLOAD_SLOTS, sizeof *v);
	fill(&p, &c, v);
	char msg[256];
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == (int)WORKLOAD_CHECKS);
	/* one workgroup of 256 reaches only the first slots */
	CHECK(fma_check(&c, v, 256, msg, sizeof msg) == (int)WORKLOAD_CHECKS / 2);
	free(v);
}

static void fma_check_should_catch_a_device_that_skipped_work(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP32, true, 256);
	FmaCheck c;
	fma_check_init(&c, &p);
	float *v = calloc(WORKLOAD_SLOTS, sizeof *v);
	char msg[256];

	/* 3% fewer loop steps, same constants */
	FmaParams lazy = p;
	lazy.iters = p.iters - (p.iters * 3 + 99) / 100;
	fill(&lazy, &c, v);
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == -1);
	CHECK(strstr(msg, "did not do the work"));

	/* a slot never written (still 0xffffffff: NaN) */
	fill(&p, &c, v);
	memset(&v[c.slot[40]], 0xff, sizeof *v);
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == -1);

	/* one value 1% off */
	fill(&p, &c, v);
	v[3] *= 1.01f;
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == -1);
	free(v);
}

static void fma_check_should_tolerate_unfused_arithmetic(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP32, false, 256);
	FmaCheck c;
	fma_check_init(&c, &p);
	/* the same chains with a separate multiply and add, as a driver may do */
	float *v = calloc(WORKLOAD_SLOTS, sizeof *v);
	for (size_t ci = 0; ci < c.n; ci++) {
		uint32_t slot = c.slot[ci];
		float s = (float)slot * (1.0f / 65536.0f), r = 0;
		for (uint32_t vv = 0; vv < p.vec4s; vv++) {
			volatile float x[4];
			for (int k = 0; k < 4; k++)
				x[k] = s + 0.125f * (float)(4 * vv + k);
			for (uint32_t i = 0; i < p.unroll * p.iters; i++)
				for (int k = 0; k < 4; k++) {
					volatile float m = x[k] * p.a;
					x[k] = m + p.b;
				}
			float part = (x[0] + x[1]) + (x[2] + x[3]);
			r = vv ? r + part : part;
		}
		v[slot] = r;
	}
	char msg[256];
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == (int)WORKLOAD_CHECKS);
	free(v);
}

static void int32_check_should_be_exact(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_INT32, true, 256);
	FmaCheck c;
	fma_check_init(&c, &p);
	uint32_t *v = calloc(WORKLOAD_SLOTS, sizeof *v);
	for (size_t i = 0; i < c.n; i++)
		v[c.slot[i]] = (uint32_t)c.expect[i];
	char msg[256];
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == (int)WORKLOAD_CHECKS);
	v[c.slot[7]] += 1; /* one unit off */
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == -1);
	/* one step fewer gives another value entirely */
	FmaParams lazy = p;
	lazy.iters--;
	CHECK((uint32_t)fma_reference(&lazy, 3) != (uint32_t)fma_reference(&p, 3));
	/* the reference is the shader's wrapping arithmetic: slot 0, 1 chain, 1 step */
	FmaParams one = p;
	one.vec4s = 1;
	one.unroll = one.iters = 1;
	uint32_t x[4];
	for (uint32_t k = 0; k < 4; k++)
		x[k] = k * 1664525u + 1013904223u;
	CHECK((uint32_t)fma_reference(&one, 0) == (x[0] + x[1]) + (x[2] + x[3]));
	free(v);
}

static void fp64_check_should_hold_to_1e9(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP64, false, 256);
	CHECK(p.a == 1.0 - 1.0 / (double)(p.unroll * p.iters));
	FmaCheck c;
	fma_check_init(&c, &p);
	double *v = calloc(WORKLOAD_SLOTS, sizeof *v);
	for (size_t i = 0; i < c.n; i++)
		v[c.slot[i]] = c.expect[i];
	char msg[256];
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == (int)WORKLOAD_CHECKS);
	v[c.slot[40]] *= 1 + 1e-8;
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, msg, sizeof msg) == -1);
	free(v);
}

static void fp16_chains_should_be_exact_and_count_every_step(void)
{
	for (int cpu = 0; cpu < 2; cpu++) {
		FmaParams p;
		fma_params_for(&p, WORKLOAD_FP16, cpu, 256);
		CHECK(p.unroll * p.iters <= 1024 && p.a == 1.0 && p.b == 1.0 / 256);
		/* every chain ends at its start + steps/256, exactly */
		double want = 0;
		for (uint32_t c = 0; c < 4 * p.vec4s; c++)
			want += (double)(77 & 255) / 256 + 0.125 * c + (double)(p.unroll * p.iters) / 256;
		CHECK(fma_reference(&p, 77) == want);
		FmaParams lazy = p;
		lazy.iters--; /* fewer steps: visible */
		CHECK(fma_reference(&lazy, 77) != want);
	}
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP16, false, 256);
	char err[128];
	CHECK(!fma_params_parse("3,64,32,256", &p, 256, err, sizeof err) && strstr(err, "1024 steps"));
	FmaCheck c;
	fma_check_init(&c, &p);
	float *v = calloc(WORKLOAD_SLOTS, sizeof *v);
	for (size_t i = 0; i < c.n; i++)
		v[c.slot[i]] = (float)c.expect[i];
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, err, sizeof err) == (int)WORKLOAD_CHECKS);
	v[c.slot[3]] -= 12.0f / 256; /* one step fewer in every chain */
	CHECK(fma_check(&c, v, WORKLOAD_SLOTS, err, sizeof err) == -1);
	free(v);
}

static void push_constants_should_match_the_shaders_layout(void)
{
	unsigned char b[24];
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP64, false, 256);
	CHECK(fma_push(&p, 0xffff, b) == 24);
	double a;
	uint32_t mask;
	memcpy(&a, b, 8);
	memcpy(&mask, b + 16, 4);
	CHECK(a == p.a && mask == 0xffff);
	fma_params_for(&p, WORKLOAD_INT32, false, 256);
	CHECK(fma_push(&p, 0xffff, b) == 12);
	uint32_t ia;
	memcpy(&ia, b, 4);
	CHECK(ia == 1664525u);
	fma_params_for(&p, WORKLOAD_FP32, false, 256);
	CHECK(fma_push(&p, 7, b) == 12);
	float fa;
	memcpy(&fa, b, 4);
	memcpy(&mask, b + 8, 4);
	CHECK(fa == (float)p.a && mask == 7);
}

/* Every row of the table is whole and says what it is: arithmetic rows
 * (the power kind's too) carry a shader and a result size and no source or
 * destination; memory rows name both memories and how bytes count. */
static void workload_table_rows_should_be_complete_and_consistent(void)
{
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
		const WorkloadInfo *i = &workload_info[w];
		CHECK(i->name && *i->name && i->unit < UNIT_COUNT && *workload_unit_names[i->unit] && i->what && *i->what);
		CHECK(workload_find(i->name) == w && i->id == (WorkloadType)w);
		if (i->kind == WL_FMA || i->kind == WL_POWER) {
			CHECK(!workload_is_memory((WorkloadType)w));
			CHECK(i->shader && i->elem > 0);
			CHECK(i->src == MEM_NONE && i->dst == MEM_NONE && i->bytes_per_byte == 0);
			CHECK(!strcmp(workload_unit_names[i->unit], "FLOPS") || !strcmp(workload_unit_names[i->unit], "IOPS"));
		} else {
			CHECK(workload_is_memory((WorkloadType)w));
			CHECK(i->src != MEM_NONE && i->dst != MEM_NONE && i->src < MEM_CLASS_COUNT && i->dst < MEM_CLASS_COUNT);
			CHECK(i->bytes_per_byte == 1 || i->bytes_per_byte == 2);
			CHECK(!strcmp(workload_unit_names[i->unit], "B/s"));
			CHECK((i->kind == WL_COPY) == (i->shader != NULL));
		}
	}
}

static void workloads_should_be_found_and_gated(void)
{
	char why[128];
	CHECK(workload_find("fp64") == WORKLOAD_FP64 && workload_find("int32") == WORKLOAD_INT32);
	CHECK(workload_find("fp8") == -1);
	WorkloadFeatures none = { 0 }, all = { .has = FEAT(FEAT_FLOAT64) | FEAT(FEAT_FLOAT16) | FEAT(FEAT_INT_DOT) |
	                                                 FEAT(FEAT_INT16) | FEAT(FEAT_INT64) };
	CHECK(!workload_supported(WORKLOAD_FP64, (WorkloadFeatures){ .has = FEAT(FEAT_FLOAT16) }, why, sizeof why) &&
	      strstr(why, "shaderFloat64"));
	CHECK(!workload_supported(WORKLOAD_FP16, (WorkloadFeatures){ .has = FEAT(FEAT_FLOAT64) }, why, sizeof why) &&
	      strstr(why, "shaderFloat16"));
	CHECK(!workload_supported(WORKLOAD_INT8DOT, none, why, sizeof why) && strstr(why, "shaderIntegerDotProduct"));
	CHECK(workload_supported(WORKLOAD_INT8DOT, all, why, sizeof why));
	CHECK(workload_supported(WORKLOAD_INT32, none, why, sizeof why));
	/* the scalar forms do their vector forms' arithmetic and need its features */
	CHECK(workload_arith(WORKLOAD_FP16_SCALAR) == WORKLOAD_FP16 && workload_arith(WORKLOAD_FP32_SCALAR) == WORKLOAD_FP32);
	CHECK(workload_arith(WORKLOAD_INT32) == WORKLOAD_INT32);
	CHECK(!workload_supported(WORKLOAD_FP16_SCALAR, (WorkloadFeatures){ .has = FEAT(FEAT_FLOAT64) }, why, sizeof why));
	FmaParams a, b;
	fma_params_for(&a, WORKLOAD_FP16, false, 256);
	fma_params_for(&b, WORKLOAD_FP16_SCALAR, false, 256);
	CHECK(a.type == b.type && a.iters == b.iters && fma_reference(&a, 77) == fma_reference(&b, 77));
	CHECK(workload_find("fp16") == WORKLOAD_FP16);
	CHECK(workload_info[WORKLOAD_INT32].unit == UNIT_IOPS && !strcmp(workload_unit_names[UNIT_IOPS], "IOPS"));
}

static void int8dot_reference_should_sum_byte_products_and_count_eight(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_INT8DOT, false, 256);
	CHECK(fma_flop_per_invocation(&p) == 8ull * 4 * p.vec4s * p.unroll * p.iters);
	p.vec4s = 1;
	p.unroll = 1;
	p.iters = 1;
	/* slot 0: chain c starts at c (bytes c, 0, 0, 0); a's low byte is 9 */
	CHECK((uint32_t)p.a == 0x03050709u && (uint32_t)p.b == 0x00010203u);
	CHECK(fma_reference(&p, 0) == 9.0 * (0 + 1 + 2 + 3) + 4.0 * 0x00010203);
	/* slot 1 starts at 16 + c: bytes 16..19 */
	CHECK(fma_reference(&p, 1) == 9.0 * (16 + 17 + 18 + 19) + 4.0 * 0x00010203);
	/* a step more or less shows */
	FmaParams q = p;
	q.unroll = 2;
	CHECK(fma_reference(&q, 0) != fma_reference(&p, 0));
	FmaCheck c;
	fma_params_for(&p, WORKLOAD_INT8DOT, true, 256);
	fma_check_init(&c, &p);
	uint32_t vals[WORKLOAD_SLOTS];
	for (uint32_t s = 0; s < WORKLOAD_SLOTS; s++)
		vals[s] = (uint32_t)fma_reference(&p, s & 63u);
	char msg[256];
	CHECK(fma_check(&c, vals, 32, msg, sizeof msg) == 32);
	vals[5] += 1;
	CHECK(fma_check(&c, vals, 32, msg, sizeof msg) < 0 && strstr(msg, "slot 5"));
}

/* int16 wraps at 16 bits and is summed in 32; int64 folds each chain (low ^
 * high) so the high half counts: both against sums computed by hand
 * (python: the LCG steps modulo 2^16 and 2^64). */
static void int16_and_int64_references_should_wrap_and_fold(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_INT16, true, 256);
	p.vec4s = 1;
	p.unroll = 1;
	p.iters = 2;
	CHECK(p.a == 25173 && p.b == 13849);
	CHECK(fma_reference(&p, 3) == 148910);
	fma_params_for(&p, WORKLOAD_INT64, true, 256);
	p.vec4s = 1;
	p.unroll = 1;
	p.iters = 2;
	CHECK((uint64_t)p.a == 0x000DE3B5A4F29405ull && (uint64_t)p.b == 0x0009E3779B97F4A7ull);
	CHECK(fma_reference(&p, 3) == 320689090);
	/* the push constants: 64-bit a and b, then the mask */
	unsigned char pc[24];
	CHECK(fma_push(&p, 0xffff, pc) == 24);
	uint64_t a;
	memcpy(&a, pc, 8);
	CHECK(a == 0x000DE3B5A4F29405ull);
	/* gated by their features; fp64-scalar by fp64's */
	char why[128];
	WorkloadFeatures none = { 0 };
	CHECK(!workload_supported(WORKLOAD_INT16, none, why, sizeof why) && strstr(why, "shaderInt16"));
	CHECK(!workload_supported(WORKLOAD_INT64, none, why, sizeof why) && strstr(why, "shaderInt64"));
	CHECK(!workload_supported(WORKLOAD_FP64_SCALAR, none, why, sizeof why) && strstr(why, "shaderFloat64"));
	CHECK(workload_supported(WORKLOAD_INT64, (WorkloadFeatures){ .has = FEAT(FEAT_INT64) }, why, sizeof why));
	CHECK(workload_arith(WORKLOAD_FP64_SCALAR) == WORKLOAD_FP64);
	/* a device that skipped one step of one chain is caught exactly */
	FmaParams q = p;
	q.iters = 1;
	CHECK(fma_reference(&q, 3) != fma_reference(&p, 3));
}

/* fp16-matrix: the work of a subgroup's multiply-adds per invocation, the
 * exact value every invocation stores, and the shape a device offers. */
static void fp16_matrix_should_count_exactly_and_know_its_result(void)
{
	FmaParams p;
	fma_params_for(&p, WORKLOAD_FP16_MATRIX, false, 1024);
	const uint32_t mm[3] = { 16, 16, 16 };
	fma_params_matrix(&p, mm, 32);
	CHECK(p.vec4s == 1 && p.unroll == 64 && p.iters == 16);
	CHECK(p.a == 1.0 && p.b == 1.0 / 16);
	/* 2 M N K = 8192 FLOP a step of the subgroup, 2 accumulators, 1024
	 * steps, over 32 invocations */
	CHECK(fma_flop_per_invocation(&p) == 8192ull * 2 * 1024 / 32);
	/* each step adds K a b = 1 to every element of each accumulator */
	CHECK(fma_reference(&p, 0) == 2.0 * 1024 && fma_reference(&p, 777) == 2048.0);
	/* the shape: the fp16*fp16+fp32->fp32 subgroup one with the most work */
	DeviceInfo d;
	memset(&d, 0, sizeof d);
	snprintf(d.coopmat_ext, sizeof d.coopmat_ext, "VK_NV_cooperative_matrix");
	d.features = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16);
	d.coopmat[0] = (CoopMatShape){ 16, 8, 16, 0, 0, 1, 1, 3 };
	d.coopmat[1] = (CoopMatShape){ 16, 16, 16, 0, 0, 0, 0, 3 };  /* fp16 accumulate */
	d.coopmat[2] = (CoopMatShape){ 16, 16, 16, 0, 0, 1, 1, 3 };
	d.coopmat[3] = (CoopMatShape){ 32, 32, 16, 0, 0, 1, 1, 2 };  /* workgroup scope */
	d.ncoopmat = 4;
	WorkloadFeatures f = devinfo_features(&d);
	CHECK(f.coopmat_listed && f.mm[WORKLOAD_FP16_MATRIX][0] == 16 && f.mm[WORKLOAD_FP16_MATRIX][1] == 16 && f.mm[WORKLOAD_FP16_MATRIX][2] == 16);
	char why[160];
	CHECK(workload_supported(WORKLOAD_FP16_MATRIX, f, why, sizeof why));
	/* fp16 matrices are fp16 values: the device is made with shaderFloat16 */
	d.features &= ~FEAT(FEAT_FLOAT16);
	f = devinfo_features(&d);
	CHECK(!workload_supported(WORKLOAD_FP16_MATRIX, f, why, sizeof why) && strstr(why, "shaderFloat16"));
	d.features |= FEAT(FEAT_FLOAT16);
	d.ncoopmat = 1;
	d.coopmat[0].c = d.coopmat[0].d = 0;
	f = devinfo_features(&d);
	CHECK(!workload_supported(WORKLOAD_FP16_MATRIX, f, why, sizeof why) && strstr(why, "no fp16*fp16+fp32"));
	d.coopmat_ext[0] = '\0';
	d.features &= ~FEAT(FEAT_NV_COOPMAT);
	f = devinfo_features(&d);
	CHECK(!workload_supported(WORKLOAD_FP16_MATRIX, f, why, sizeof why) && strstr(why, "no cooperative matrices"));
}

/* fp16-matrix-f16 and int8-matrix: their own shapes, constants and exact
 * results; each needs its types at subgroup scope, and int8 shaderInt8. */
static void other_matrix_workloads_should_pick_their_types(void)
{
	DeviceInfo d;
	memset(&d, 0, sizeof d);
	snprintf(d.coopmat_ext, sizeof d.coopmat_ext, "VK_NV_cooperative_matrix");
	d.features = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16);
	d.coopmat[0] = (CoopMatShape){ 16, 16, 16, 0, 0, 1, 1, 3 };  /* fp16 -> fp32 */
	d.coopmat[1] = (CoopMatShape){ 16, 8, 16, 0, 0, 0, 0, 3 };   /* fp16 -> fp16 */
	d.coopmat[2] = (CoopMatShape){ 16, 16, 16, 0, 0, 0, 0, 3 };
	d.coopmat[3] = (CoopMatShape){ 16, 16, 32, 3, 3, 5, 5, 3 };  /* int8 -> int32 */
	d.coopmat[4] = (CoopMatShape){ 16, 16, 32, 7, 7, 9, 9, 3 };  /* uint8 -> uint32: not ours */
	d.ncoopmat = 5;
	d.features |= FEAT(FEAT_FLOAT16);
	WorkloadFeatures f = devinfo_features(&d);
	CHECK(f.mm[WORKLOAD_FP16_MATRIX_F16][0] == 16 && f.mm[WORKLOAD_FP16_MATRIX_F16][1] == 16 && f.mm[WORKLOAD_FP16_MATRIX_F16][2] == 16);
	CHECK(f.mm[WORKLOAD_INT8_MATRIX][0] == 16 && f.mm[WORKLOAD_INT8_MATRIX][1] == 16 && f.mm[WORKLOAD_INT8_MATRIX][2] == 32);
	char why[160];
	CHECK(workload_supported(WORKLOAD_FP16_MATRIX_F16, f, why, sizeof why));
	CHECK(!workload_supported(WORKLOAD_INT8_MATRIX, f, why, sizeof why) && strstr(why, "shaderInt8"));
	d.features |= FEAT(FEAT_INT8);
	f = devinfo_features(&d);
	CHECK(workload_supported(WORKLOAD_INT8_MATRIX, f, why, sizeof why));
	d.ncoopmat = 1;
	f = devinfo_features(&d);
	CHECK(!workload_supported(WORKLOAD_INT8_MATRIX, f, why, sizeof why) && strstr(why, "no int8*int8+int32"));
	CHECK(!workload_supported(WORKLOAD_FP16_MATRIX_F16, f, why, sizeof why) && strstr(why, "no fp16*fp16+fp16"));

	FmaParams p;
	fma_params_for(&p, WORKLOAD_INT8_MATRIX, false, 1024);
	const uint32_t mm[3] = { 16, 16, 32 };
	fma_params_matrix(&p, mm, 32);
	CHECK(p.a == 3 && p.b == 5 && p.unroll * p.iters == 1024 && p.vec4s == 2);
	/* 2 M N K = 16384 operations a step of the subgroup, 4 accumulators */
	CHECK(fma_flop_per_invocation(&p) == 16384ull * 4 * 1024 / 32);
	/* each step adds K a b = 480 to every element of the 4 accumulators */
	CHECK(fma_reference(&p, 5) == 4.0 * 1024 * 480);
	unsigned char push[24];
	CHECK(fma_push(&p, 65535, push) == 12);
	uint32_t a, b;
	memcpy(&a, push, 4);
	memcpy(&b, push + 4, 4);
	CHECK(a == 3 && b == 5); /* as integers, as the shader declares them */
	FmaCheck c;
	fma_check_init(&c, &p);
	uint32_t vals[64];
	for (int i = 0; i < 64; i++)
		vals[i] = 4u * 1024 * 480;
	char msg[256];
	CHECK(fma_check(&c, vals, 64, msg, sizeof msg) == 32);
	vals[7] -= 480; /* one step skipped */
	CHECK(fma_check(&c, vals, 64, msg, sizeof msg) < 0);

	fma_params_for(&p, WORKLOAD_FP16_MATRIX_F16, false, 1024);
	const uint32_t mh[3] = { 16, 8, 16 };
	fma_params_matrix(&p, mh, 32);
	CHECK(p.a == 1.0 && p.b == 1.0 / 16);
	/* each of 4 accumulators ends at 1024, an integer fp16 holds exactly */
	CHECK(fma_reference(&p, 0) == 4096.0);
	char err[160];
	CHECK(!fma_params_parse("1,256,16,32", &p, 1024, err, sizeof err) && strstr(err, "2048 steps"));
	CHECK(fma_params_parse("2,128,16,32", &p, 1024, err, sizeof err));
}

/* bf16-matrix: bfloat16 shapes come from the KHR list and need both
 * VK_KHR_cooperative_matrix and VK_KHR_shader_bfloat16; the constants and
 * results are fp16-matrix's (1/K is exact in bfloat16 too). */
static void bf16_matrix_should_need_its_extensions_and_shape(void)
{
	DeviceInfo d;
	memset(&d, 0, sizeof d);
	snprintf(d.coopmat_ext, sizeof d.coopmat_ext, "VK_NV_cooperative_matrix");
	d.features = FEAT(FEAT_NV_COOPMAT) | FEAT(FEAT_FLOAT16);
	d.coopmat_khr = true;
	d.coopmat[0] = (CoopMatShape){ 16, 16, 16, 0, 0, 1, 1, 3 };                   /* fp16 -> fp32 */
	d.coopmat[1] = (CoopMatShape){ 16, 8, 16, 1000141000, 1000141000, 1, 1, 3 };  /* bf16 -> fp32 */
	d.coopmat[2] = (CoopMatShape){ 16, 16, 16, 1000141000, 1000141000, 1, 1, 3 };
	d.coopmat[3] = (CoopMatShape){ 16, 16, 16, 1000141000, 1000141000, 1000141000, 1000141000, 3 };
	d.ncoopmat = 4;
	char why[200];
	WorkloadFeatures f = devinfo_features(&d);
	CHECK(f.mm[WORKLOAD_BF16_MATRIX][0] == 16 && f.mm[WORKLOAD_BF16_MATRIX][1] == 16 && f.mm[WORKLOAD_BF16_MATRIX][2] == 16); /* the bf16 accumulator is not ours */
	CHECK(f.mm[WORKLOAD_FP16_MATRIX][0] == 16 && f.mm[WORKLOAD_FP16_MATRIX][1] == 16);                      /* fp16 never takes a bf16 shape */
	CHECK(!workload_supported(WORKLOAD_BF16_MATRIX, f, why, sizeof why) && strstr(why, "VK_KHR_shader_bfloat16"));
	d.features |= FEAT(FEAT_BF16_COOPMAT);
	f = devinfo_features(&d);
	CHECK(workload_supported(WORKLOAD_BF16_MATRIX, f, why, sizeof why));
	d.ncoopmat = 1;
	f = devinfo_features(&d);
	CHECK(!workload_supported(WORKLOAD_BF16_MATRIX, f, why, sizeof why) && strstr(why, "no bf16*bf16+fp32"));
	/* KHR only (no NV): bf16 runs, the NV-written fp16 shader does not */
	d.ncoopmat = 3;
	d.coopmat_ext[0] = '\0';
	d.features &= ~FEAT(FEAT_NV_COOPMAT);
	f = devinfo_features(&d);
	CHECK(workload_supported(WORKLOAD_BF16_MATRIX, f, why, sizeof why));
	CHECK(!workload_supported(WORKLOAD_FP16_MATRIX, f, why, sizeof why) &&
	      strstr(why, "VK_KHR_cooperative_matrix only"));
	d.coopmat_khr = false;
	d.features &= ~FEAT(FEAT_BF16_COOPMAT);
	f = devinfo_features(&d);
	CHECK(!workload_supported(WORKLOAD_BF16_MATRIX, f, why, sizeof why) && strstr(why, "no cooperative matrices"));

	FmaParams p;
	fma_params_for(&p, WORKLOAD_BF16_MATRIX, false, 1024);
	const uint32_t mm[3] = { 16, 8, 16 };
	fma_params_matrix(&p, mm, 32);
	CHECK(p.vec4s == 1 && p.a == 1.0 && p.b == 1.0 / 16 && p.unroll * p.iters == 1024);
	CHECK(fma_flop_per_invocation(&p) == 2ull * 16 * 8 * 16 * 2 * 1024 / 32);
	CHECK(fma_reference(&p, 3) == 2.0 * 1024);
	FmaCheck c;
	fma_check_init(&c, &p);
	float vals[64];
	for (int i = 0; i < 64; i++)
		vals[i] = 2048.0f;
	CHECK(fma_check(&c, vals, 64, why, sizeof why) > 0);
	vals[5] = 2047.0f; /* one step skipped */
	CHECK(fma_check(&c, vals, 64, why, sizeof why) < 0);
	CHECK(strcmp(workload_info[WORKLOAD_BF16_MATRIX].name, "bf16-matrix") == 0 &&
	      workload_info[WORKLOAD_BF16_MATRIX].matrix && !workload_info[WORKLOAD_COPY].matrix);
}

/* The features' table: every feature a workload needs says what lacking it
 * means; matrix rows need a cooperative-matrix extension; the verbose
 * listing names the typed ones, yes or no, in one line. */
static void feature_table_should_cover_every_need(void)
{
	/* the cooperative-matrix features: those whose lack names the extension */
	uint32_t coopmat = 0;
	for (int b = 0; b < FEAT_COUNT; b++)
		if (strstr(dev_features[b].lacks, "_cooperative_matrix"))
			coopmat |= FEAT(b);
	CHECK(coopmat & FEAT(FEAT_NV_COOPMAT) && coopmat & FEAT(FEAT_BF16_COOPMAT) && !(coopmat & FEAT(FEAT_INT8)));
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
		const WorkloadInfo *i = &workload_info[w];
		CHECK(i->needs < FEAT(FEAT_COUNT));
		for (int b = 0; b < FEAT_COUNT; b++)
			if (i->needs & FEAT(b))
				CHECK(dev_features[b].lacks && strstr(dev_features[b].lacks, "the ") == dev_features[b].lacks);
		CHECK(!i->matrix == !(i->needs & coopmat));
		CHECK(!i->matrix || strcmp(matrix_component_str(i->mtypes.in), "other"));
		/* an arithmetic workload is held to the CPU by its row; memory ones by their pattern */
		CHECK((i->kind == WL_FMA) == (i->check != RESULT_NONE));
		/* ... and its arithmetic (push layout, chains, reference) by fmawork's */
		CHECK((i->kind == WL_FMA) == fma_arith_known((WorkloadType)w));
		/* the peak: from a rate of the device, tensor cores for the matrices */
		CHECK(!workload_is_memory((WorkloadType)w) == (i->rate != RATE_NONE));
		CHECK(i->matrix == (i->rate == RATE_TENSOR_16 || i->rate == RATE_TENSOR_8));
		CHECK(i->unit < UNIT_COUNT && (i->unit == UNIT_BYTES) == workload_is_memory((WorkloadType)w));
		CHECK(i->kind < WL_KIND_COUNT && workload_kind_names[i->kind] && workload_kind_names[i->kind][0]);
	}
	DeviceInfo d;
	memset(&d, 0, sizeof d);
	d.features = FEAT(FEAT_FLOAT64) | FEAT(FEAT_INT_DOT) | FEAT(FEAT_HOST_QUERY_RESET);
	char text[4096];
	devinfo_details(&d, text, sizeof text);
	CHECK(strstr(text, "        float16 no, float64 yes, int8 no, int16 no, int64 no, integer dot product yes\n"));
	/* what does not fit is cut, never overrun */
	char small[40];
	CHECK(devinfo_details(&d, small, sizeof small) == sizeof small - 1 && strlen(small) == sizeof small - 1);
}

int main(void)
{
	RUN(feature_table_should_cover_every_need);
	RUN(other_matrix_workloads_should_pick_their_types);
	RUN(fp16_matrix_should_count_exactly_and_know_its_result);
	RUN(int16_and_int64_references_should_wrap_and_fold);
	RUN(int8dot_reference_should_sum_byte_products_and_count_eight);
	RUN(int32_check_should_be_exact);
	RUN(fp64_check_should_hold_to_1e9);
	RUN(fp16_chains_should_be_exact_and_count_every_step);
	RUN(push_constants_should_match_the_shaders_layout);
	RUN(workload_table_rows_should_be_complete_and_consistent);
	RUN(workloads_should_be_found_and_gated);
	RUN(fma_flop_count_should_be_two_per_step_per_chain);
	RUN(fma_params_should_respect_the_local_size_limit);
	RUN(fma_reference_should_stay_bounded_and_depend_on_the_slot);
	RUN(fma_check_should_accept_the_reference_values);
	RUN(fma_check_should_catch_a_device_that_skipped_work);
	RUN(fma_check_should_tolerate_unfused_arithmetic);
	RUN(bf16_matrix_should_need_its_extensions_and_shape);
	return CHECK_DONE();
}
