/* workload: the table of workloads (one row each: what it is called, its
 * kind, shader, unit, the device features it needs, its matrix types, its
 * memory), whether a device can run one, and the arithmetic workloads'
 * parameters, exact operation count and the CPU reference their results are
 * checked against. Pure. */
#ifndef FLOPSCOPE_WORKLOAD_H
#define FLOPSCOPE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devfeat.h"

#define WORKLOAD_SLOTS 65536u   /* result slots; the shader's 1/65536 scale assumes it */
#define WORKLOAD_CHECKS 64u     /* slots compared with the CPU on each check */

typedef enum WorkloadType {
	WORKLOAD_FP32,
	WORKLOAD_FP64,
	WORKLOAD_INT32,
	WORKLOAD_FP16,
	WORKLOAD_INT8DOT,     /* packed 4 x 8-bit dot products plus an add (uint) */
	WORKLOAD_FP32_SCALAR, /* fp32's chains as scalars */
	WORKLOAD_FP16_SCALAR, /* fp16's chains as scalars (no packing possible) */
	WORKLOAD_FP64_SCALAR, /* fp64's chains as scalars */
	WORKLOAD_INT16,       /* 16-bit integer multiply-add chains (u16vec4, wrapping) */
	WORKLOAD_INT64,       /* 64-bit integer multiply-add chains (u64vec4, wrapping) */
	WORKLOAD_FP16_MATRIX, /* cooperative-matrix multiply-add, fp16 in, fp32 accumulate */
	WORKLOAD_FP16_MATRIX_F16, /* ... fp16 in, fp16 accumulate */
	WORKLOAD_INT8_MATRIX, /* ... signed 8-bit in, 32-bit accumulate */
	WORKLOAD_BF16_MATRIX, /* ... bfloat16 in, fp32 accumulate (VK_KHR_shader_bfloat16) */
	WORKLOAD_COPY,        /* device memory: a copy kernel over device-local buffers */
	WORKLOAD_H2D,         /* vkCmdCopyBuffer host-visible coherent -> device-local */
	WORKLOAD_H2D_CACHED,  /* host-visible cached -> device-local */
	WORKLOAD_D2H,         /* device-local -> host-visible coherent */
	WORKLOAD_D2H_CACHED,  /* device-local -> host-visible cached */
	WORKLOAD_D2D,         /* device-local -> device-local */
	WORKLOAD_H2H,         /* host-visible coherent -> host-visible coherent */
	WORKLOAD_TYPE_COUNT
} WorkloadType;

typedef enum WorkloadKind {
	WL_FMA,       /* arithmetic chains: FLOPS or IOPS */
	WL_COPY,      /* a copy shader: B/s counting read + write */
	WL_TRANSFER,  /* vkCmdCopyBuffer copies, swept over sizes: B/s */
} WorkloadKind;

/* What a workload's rate counts, per second. */
typedef enum WorkloadUnit {
	UNIT_FLOPS,   /* floating-point operations */
	UNIT_IOPS,    /* integer operations */
	UNIT_BYTES,   /* bytes moved: B/s */
	UNIT_COUNT
} WorkloadUnit;

extern const char *const workload_unit_names[UNIT_COUNT]; /* "FLOPS", "IOPS", "B/s" */

/* How an arithmetic workload's results are held to the CPU's: the stored
 * type and the tolerance. */
typedef enum ResultCheck {
	RESULT_NONE,       /* memory workloads: their own pattern check (memwork.h) */
	RESULT_U32_EXACT,  /* uint32 slots (int32, int8dot, int16 and int64 folded, int8 matrices) */
	RESULT_F32_EXACT,  /* float slots exact by construction (fp16 chains, the fp16 and bf16 matrices) */
	RESULT_F32_REL,    /* float within 1e-3 relative: fma() may be unfused */
	RESULT_F64_REL,    /* double within 1e-9 relative */
} ResultCheck;

/* Which of a device's published rates a workload's peak comes from
 * (core/peak.c holds the rates). */
typedef enum RateClass {
	RATE_NONE,         /* memory: Vulkan states no memory or bus bandwidth */
	RATE_FP32,         /* FP32 FMA lanes (fp32, fp32-scalar) */
	RATE_FP16_PACKED,  /* half2 FMA: twice FP32 where the hardware packs */
	RATE_FP16_SCALAR,  /* FP16 unpacked: FP32's lanes */
	RATE_FP64,
	RATE_INT32,        /* 32-bit integer multiply-add */
	RATE_DP4A,         /* packed 8-bit dot products */
	RATE_UNPUBLISHED,  /* no published rate to hold it to (int16, int64) */
	RATE_TENSOR_16,    /* 16-bit tensor-core multiply-adds (fp16, bf16 in) */
	RATE_TENSOR_8,     /* 8-bit tensor-core multiply-adds: twice the 16-bit rate */
} RateClass;

typedef enum MemClass {
	MEM_NONE,           /* the workload has no source or destination buffer */
	MEM_DEVICE,         /* DEVICE_LOCAL */
	MEM_HOST_COHERENT,  /* HOST_VISIBLE | HOST_COHERENT, preferably not cached */
	MEM_HOST_CACHED,    /* HOST_VISIBLE | HOST_CACHED */
	MEM_CLASS_COUNT
} MemClass;

extern const char *const mem_class_names[MEM_CLASS_COUNT];

/* A matrix workload's component types, as Vulkan numbers them
 * (VkComponentTypeKHR: 0 fp16, 1 fp32, 3 sint8, 5 sint32, 1000141000
 * bfloat16; matrix_component_str names them): A and B are `in`, C and the
 * result `acc`. */
typedef struct MatrixTypes {
	uint32_t in, acc;
} MatrixTypes;

typedef struct WorkloadInfo {
	const char *name;     /* --workload NAME */
	WorkloadUnit unit;
	const char *shader;   /* file in shaders/ */
	const char *define;   /* type define for the shader, or NULL */
	size_t elem;          /* bytes of one stored result */
	const char *what;     /* one line for --list-workloads */
	WorkloadKind kind;
	MemClass src, dst;    /* copy and transfers: memory of the source and destination */
	unsigned bytes_per_byte; /* bytes counted per byte copied: 2 (read + write) or 1; 0 for FMA */
	bool scalar;          /* FMA workloads: the shader's SCALAR form */
	ResultCheck check;    /* FMA workloads: how their results are held to the CPU's */
	RateClass rate;       /* where its theoretical peak comes from */
	uint32_t needs;       /* the device features it needs (FEAT() bits): checked and enabled */
	bool matrix;          /* a cooperative-matrix workload, of types mtypes */
	MatrixTypes mtypes;
} WorkloadInfo;

static inline bool workload_is_memory(WorkloadType t)
{
	return t >= WORKLOAD_COPY && t < WORKLOAD_TYPE_COUNT;
}

extern const WorkloadInfo workload_info[WORKLOAD_TYPE_COUNT];

/* The arithmetic a workload does: fp32-scalar is fp32's, fp16-scalar fp16's
 * (the same chains and references, another shape of code). */
WorkloadType workload_arith(WorkloadType t);

/* "fp32, fp64, ..., d2d": every name, for messages. */
void workload_names(char *out, size_t len);

/* Index of the workload called name, or -1. */
int workload_find(const char *name);
/* What a device offers the workloads: its features (FEAT() bits), whether
 * it lists a cooperative-matrix extension at all, and per matrix workload
 * the subgroup shape (M, N, K) of its types with the most work a step (0:
 * none). */
typedef struct WorkloadFeatures {
	uint32_t has;
	bool coopmat_listed;
	uint32_t mm[WORKLOAD_TYPE_COUNT][3];
} WorkloadFeatures;
/* Whether a device can run workload t; why names what it lacks. */
bool workload_supported(WorkloadType t, WorkloadFeatures f, char *why, size_t len);

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
