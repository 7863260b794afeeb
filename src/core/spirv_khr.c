/* spirv_khr: NV cooperative matrices -> KHR, fp16 stand-ins -> another
 * type (bfloat16: a row of retypes[]) (spirv_khr.h says what changes and
 * what is refused). Pure. */
#include "spirv_khr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OP_EXTENSION = 10,
	OP_CAPABILITY = 17,
	OP_TYPE_INT = 21,
	OP_TYPE_FLOAT = 22,
	OP_CONSTANT = 43,
	OP_SPEC_CONSTANT = 50,
	OP_SPEC_CONSTANT_OP = 52,
	OP_COMPOSITE_CONSTRUCT = 80,
	OP_TYPE_COOPMAT_KHR = 4456,
	OP_COOPMAT_MULADD_KHR = 4459,
	OP_COOPMAT_LENGTH_KHR = 4460,
	OP_TYPE_COOPMAT_NV = 5358,
	OP_COOPMAT_LOAD_NV = 5359,
	OP_COOPMAT_STORE_NV = 5360,
	OP_COOPMAT_MULADD_NV = 5361,
	OP_COOPMAT_LENGTH_NV = 5362,
	CAP_FLOAT16 = 9,
	CAP_COOPMAT_NV = 5357,
	CAP_COOPMAT_KHR = 6022,
	USE_A = 0, USE_B = 1, USE_ACC = 2,
	ROLE_A = 1, ROLE_B = 2,
};

#define EXT_NV "SPV_NV_cooperative_matrix"
#define EXT_KHR "SPV_KHR_cooperative_matrix"

/* What the 16-bit float stand-ins can become: one row a type. */
typedef struct Retype {
	uint32_t component;   /* VkComponentTypeKHR */
	const char *name;     /* in messages */
	uint32_t width;       /* OpTypeFloat's width */
	uint32_t encoding;    /* its FP encoding operand */
	uint32_t caps[2];     /* the capabilities that replace Float16 */
	const char *ext;      /* the extension beside SPV_KHR_cooperative_matrix */
} Retype;

static const Retype retypes[] = {
	/* BFloat16KHR encoding; BFloat16TypeKHR, BFloat16CooperativeMatrixKHR */
	{ 1000141000u, "bfloat16", 16, 0, { 5116, 5118 }, "SPV_KHR_bfloat16" },
};

static const Retype *retype_of(uint32_t component)
{
	for (size_t i = 0; i < sizeof retypes / sizeof *retypes; i++)
		if (retypes[i].component == component)
			return &retypes[i];
	return NULL;
}

bool spirv_retype_known(uint32_t component)
{
	return retype_of(component) != NULL;
}

/* An OpExtension's string, when it is one of up to 63 characters. */
static bool ext_is(const uint32_t *w, uint32_t n, const char *name)
{
	char s[64];
	size_t bytes = (size_t)(n - 1) * 4;
	if (n < 2 || bytes > sizeof s)
		return false;
	memcpy(s, w + 1, bytes);
	return memchr(s, '\0', bytes) && !strcmp(s, name);
}

typedef struct Out {
	uint32_t *w;
	size_t n, cap;
} Out;

static void put(Out *o, uint32_t word)
{
	if (o->n < o->cap)
		o->w[o->n] = word;
	o->n++;
}

static void put_ext(Out *o, const char *name)
{
	size_t len = strlen(name) + 1, words = (len + 3) / 4;
	put(o, (uint32_t)(words + 1) << 16 | OP_EXTENSION);
	for (size_t i = 0; i < words; i++) {
		unsigned char b[4] = { 0 };
		for (size_t k = 0; k < 4 && i * 4 + k < len; k++)
			b[k] = (unsigned char)name[i * 4 + k];
		put(o, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
	}
}

/* What the first pass finds, and the second writes from. */
typedef struct Rewrite {
	const uint32_t *in;
	size_t nwords;
	uint32_t bound;
	const Retype *to;         /* what the 16-bit floats become; NULL: they stay fp16 */
	size_t *def;              /* offset of an OpCompositeConstruct's result */
	unsigned char *half;      /* 16-bit float types */
	unsigned char *role;      /* NV matrix types: ROLE_A | ROLE_B */
	unsigned char *nvmat;     /* NV matrix types, 2 where the component is 16-bit */
	unsigned char *retype;    /* constructions of B whose type gets a twin */
	uint32_t *twin;
	bool float16, nv_ext, nv_cap;
	uint32_t uint_type;
	size_t muladds;
	uint32_t next, use[3];    /* the new bound; the ids of the three uses */
} Rewrite;

/* An OpCooperativeMatrixMulAddNV's A and B: each an OpCompositeConstruct of
 * a 16-bit float matrix type, whose role it records. */
static int scan_muladd(Rewrite *r, const uint32_t *w, uint32_t n, size_t at, char *why, size_t len)
{
	if (n != 6) {
		snprintf(why, len, "malformed OpCooperativeMatrixMulAddNV at word %zu", at);
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		uint32_t id = w[3 + k];
		if (id >= r->bound || !r->def[id]) {
			snprintf(why, len, "the multiply-add at word %zu takes %c (%%%u) from something other than an "
			         "OpCompositeConstruct", at, k ? 'B' : 'A', id);
			return -1;
		}
		uint32_t t = r->in[r->def[id] + 1];
		if (t >= r->bound || r->nvmat[t] != 2) {
			snprintf(why, len, "the multiply-add at word %zu takes %c (%%%u) of a type that is not a 16-bit "
			         "float cooperative matrix", at, k ? 'B' : 'A', id);
			return -1;
		}
		r->role[t] |= k ? ROLE_B : ROLE_A;
	}
	r->muladds++;
	return 0;
}

/* What the forms a rewrite cannot carry say (-1), else 0. */
static int scan_refused(const Rewrite *r, const uint32_t *w, uint32_t op, uint32_t n, char *why, size_t len)
{
	if (r->to && (op == OP_CONSTANT || op == OP_SPEC_CONSTANT) && n >= 3 && w[1] < r->bound && r->half[w[1]]) {
		snprintf(why, len, "a 16-bit float constant (%%%u): its bits would change meaning as %s", w[2],
		         r->to->name);
		return -1;
	}
	if (op == OP_COOPMAT_LOAD_NV || op == OP_COOPMAT_STORE_NV) {
		snprintf(why, len, "an NV cooperative-matrix %s: its operands differ from the KHR form's",
		         op == OP_COOPMAT_LOAD_NV ? "load" : "store");
		return -1;
	}
	if (op == OP_SPEC_CONSTANT_OP && n >= 4 && w[3] == OP_COOPMAT_LENGTH_NV) {
		snprintf(why, len, "a matrix length in a specialization constant (%%%u): NVIDIA's compiler "
		         "(580.159.04) crashes on the KHR form there", w[2]);
		return -1;
	}
	return 0;
}

/* Pass 1, one instruction: types, constructions, multiply-adds, what is refused. */
static int scan_one(Rewrite *r, size_t at, uint32_t op, uint32_t n, char *why, size_t len)
{
	const uint32_t *w = r->in + at;
	if (op == OP_CAPABILITY && n == 2 && w[1] == CAP_FLOAT16)
		r->float16 = true;
	if (op == OP_CAPABILITY && n == 2 && w[1] == CAP_COOPMAT_NV)
		r->nv_cap = true;
	if (op == OP_EXTENSION && ext_is(w, n, EXT_NV))
		r->nv_ext = true;
	bool ids_ok = true;
	if (op == OP_TYPE_FLOAT && n == 3 && (ids_ok = w[1] < r->bound) && w[2] == 16)
		r->half[w[1]] = 1;
	if (op == OP_TYPE_INT && n == 4 && w[2] == 32 && w[3] == 0 && !r->uint_type)
		r->uint_type = w[1];
	if (op == OP_TYPE_COOPMAT_NV) {
		if (n != 6 || w[1] >= r->bound || w[2] >= r->bound) {
			snprintf(why, len, "malformed OpTypeCooperativeMatrixNV at word %zu", at);
			return -1;
		}
		if (!r->uint_type) {
			snprintf(why, len, "no 32-bit unsigned integer type before the first cooperative matrix");
			return -1;
		}
		r->nvmat[w[1]] = r->half[w[2]] ? 2 : 1;
	}
	if (scan_refused(r, w, op, n, why, len))
		return -1;
	if (op == OP_COMPOSITE_CONSTRUCT && n >= 3 && (ids_ok = w[1] < r->bound && w[2] < r->bound)) {
		if (r->def[w[2]]) {
			snprintf(why, len, "malformed SPIR-V: %%%u is defined twice", w[2]);
			return -1;
		}
		r->def[w[2]] = at;
	}
	if (op == OP_COOPMAT_MULADD_NV && scan_muladd(r, w, n, at, why, len))
		return -1;
	if (!ids_ok) {
		snprintf(why, len, "malformed SPIR-V: an id at word %zu is past the bound %u", at, r->bound);
		return -1;
	}
	return 0;
}

/* Pass 1, whole; then the new ids: the three uses, then a twin per type
 * used as both A and B. */
static int scan(Rewrite *r, char *why, size_t len)
{
	for (size_t at = 5; at < r->nwords;) {
		uint32_t op = r->in[at] & 0xffffu, n = r->in[at] >> 16;
		if (n == 0 || at + n > r->nwords) {
			snprintf(why, len, "malformed SPIR-V: instruction at word %zu runs past the end", at);
			return -1;
		}
		if (scan_one(r, at, op, n, why, len))
			return -1;
		at += n;
	}
	if (!r->nv_ext || !r->nv_cap) {
		snprintf(why, len, "no SPV_NV_cooperative_matrix extension and capability to rewrite");
		return -1;
	}
	if (r->to && !r->float16) {
		snprintf(why, len, "no Float16 capability: the shader has no fp16 stand-ins");
		return -1;
	}
	if (!r->muladds) {
		snprintf(why, len, "no cooperative-matrix multiply-add");
		return -1;
	}
	r->next = r->bound;
	for (int u = 0; u < 3; u++)
		r->use[u] = r->next++;
	for (uint32_t t = 0; t < r->bound; t++)
		if (r->nvmat[t] == 2 && r->role[t] == (ROLE_A | ROLE_B))
			r->twin[t] = r->next++;
	for (size_t at = 5; at < r->nwords; at += r->in[at] >> 16) {
		const uint32_t *w = r->in + at;
		if ((w[0] & 0xffffu) == OP_COOPMAT_MULADD_NV && r->twin[r->in[r->def[w[4]] + 1]])
			r->retype[w[4]] = 1;
	}
	return 0;
}

/* Pass 2, an NV matrix type: the KHR type of its use (and its twin as B),
 * after the uses' constants the first time. */
static void write_matrix_type(const Rewrite *r, Out *o, const uint32_t *w, bool *uses_written)
{
	if (!*uses_written) {
		for (uint32_t u = 0; u < 3; u++) {
			put(o, 4u << 16 | OP_CONSTANT);
			put(o, r->uint_type);
			put(o, r->use[u]);
			put(o, u);
		}
		*uses_written = true;
	}
	uint32_t u = r->nvmat[w[1]] != 2 ? USE_ACC : (r->role[w[1]] & ROLE_A) || !r->role[w[1]] ? USE_A : USE_B;
	for (uint32_t copy = 0; copy < (r->twin[w[1]] ? 2u : 1u); copy++) {
		put(o, 7u << 16 | OP_TYPE_COOPMAT_KHR);
		put(o, copy ? r->twin[w[1]] : w[1]);
		for (int k = 2; k < 6; k++)
			put(o, w[k]);
		put(o, copy ? r->use[USE_B] : r->use[u]);
	}
}

/* Pass 2, one instruction, rewritten or copied. */
static void write_one(const Rewrite *r, Out *o, const uint32_t *w, uint32_t op, uint32_t n, bool *uses_written)
{
	if (r->to && op == OP_CAPABILITY && n == 2 && w[1] == CAP_FLOAT16) {
		put(o, w[0]);
		put(o, r->to->caps[0]);
		put(o, w[0]);
		put(o, r->to->caps[1]);
	} else if (op == OP_CAPABILITY && n == 2 && w[1] == CAP_COOPMAT_NV) {
		put(o, w[0]);
		put(o, CAP_COOPMAT_KHR);
	} else if (op == OP_EXTENSION && ext_is(w, n, EXT_NV)) {
		put_ext(o, EXT_KHR);
		if (r->to)
			put_ext(o, r->to->ext);
	} else if (r->to && op == OP_TYPE_FLOAT && n == 3 && r->half[w[1]]) {
		put(o, 4u << 16 | OP_TYPE_FLOAT);
		put(o, w[1]);
		put(o, r->to->width);
		put(o, r->to->encoding);
	} else if (op == OP_TYPE_COOPMAT_NV) {
		write_matrix_type(r, o, w, uses_written);
	} else {
		for (uint32_t k = 0; k < n; k++)
			put(o, w[k]);
		uint32_t *c = o->w + (o->n - n); /* the copy just written (o->cap is never short) */
		if (op == OP_COOPMAT_MULADD_NV)
			c[0] = n << 16 | OP_COOPMAT_MULADD_KHR;
		else if (op == OP_COOPMAT_LENGTH_NV)
			c[0] = n << 16 | OP_COOPMAT_LENGTH_KHR;
		else if (op == OP_COMPOSITE_CONSTRUCT && n >= 3 && r->retype[w[2]])
			c[1] = r->twin[w[1]];
	}
}

/* Pass 2, whole. Growth: 2 capability and 6 extension words, 1 a 16-bit
 * type, 12 for the uses, 1 a matrix type, 7 a twin. */
static int write_all(const Rewrite *r, uint32_t **out, size_t *out_words, char *why, size_t len)
{
	Out o = { .cap = r->nwords * 3 + 64 };
	o.w = malloc(o.cap * sizeof *o.w);
	if (!o.w) {
		snprintf(why, len, "out of memory rewriting SPIR-V");
		return -1;
	}
	for (int i = 0; i < 5; i++)
		put(&o, i == 3 ? r->next : r->in[i]);
	bool uses_written = false;
	for (size_t at = 5; at < r->nwords;) {
		uint32_t op = r->in[at] & 0xffffu, n = r->in[at] >> 16;
		write_one(r, &o, r->in + at, op, n, &uses_written);
		at += n;
	}
	if (o.n > o.cap) { /* cannot happen with the growth above; refuse rather than truncate */
		free(o.w);
		snprintf(why, len, "rewritten SPIR-V outgrew its buffer");
		return -1;
	}
	*out = o.w;
	*out_words = o.n;
	return 0;
}

int spirv_nv_to_khr(const uint32_t *in, size_t nwords, uint32_t as, uint32_t **out, size_t *out_words,
                    char *why, size_t len)
{
	*out = NULL;
	*out_words = 0;
	const Retype *to = as == SPIRV_KEEP_FP16 ? NULL : retype_of(as);
	if (as != SPIRV_KEEP_FP16 && !to) {
		snprintf(why, len, "no rewrite of 16-bit floats to component type %u", as);
		return -1;
	}
	if (nwords < 5 || in[0] != 0x07230203u) {
		snprintf(why, len, "not SPIR-V (no magic number)");
		return -1;
	}
	uint32_t bound = in[3];
	if (bound == 0 || bound > (1u << 22)) {
		snprintf(why, len, "SPIR-V id bound %u out of range", bound);
		return -1;
	}
	Rewrite r = {
		.in = in, .nwords = nwords, .bound = bound, .to = to,
		.def = calloc(bound, sizeof *r.def), .half = calloc(bound, 1), .role = calloc(bound, 1),
		.nvmat = calloc(bound, 1), .retype = calloc(bound, 1), .twin = calloc(bound, sizeof *r.twin),
	};
	int rc = -1;
	if (!r.def || !r.half || !r.role || !r.nvmat || !r.retype || !r.twin)
		snprintf(why, len, "out of memory rewriting SPIR-V");
	else if (!scan(&r, why, len))
		rc = write_all(&r, out, out_words, why, len);
	free(r.def);
	free(r.half);
	free(r.role);
	free(r.nvmat);
	free(r.retype);
	free(r.twin);
	return rc;
}
