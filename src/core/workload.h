/* workload: the table of workloads (one row each, in workload_rows.h: what it is called, its
 * kind, shader, unit, the device features it needs, its matrix types, how
 * its results are checked, which rate its peak comes from, its memory) and
 * whether a device can run one. The arithmetic is fmawork's and memwork's.
 * Pure. */
#ifndef FLOPSCOPE_WORKLOAD_H
#define FLOPSCOPE_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devfeat.h"

#define WORKLOAD_SLOTS 65536u   /* result slots; the shader's 1/65536 scale assumes it */
#define WORKLOAD_CHECKS 64u     /* slots compared with the CPU on each check */

typedef enum WorkloadType {
#define WORKLOAD_ROW(id, ...) WORKLOAD_##id,
#include "workload_rows.h"
#undef WORKLOAD_ROW
	WORKLOAD_TYPE_COUNT
} WorkloadType;

typedef enum WorkloadKind {
	WL_FMA,       /* arithmetic chains: FLOPS or IOPS */
	WL_COPY,      /* a copy shader: B/s counting read + write */
	WL_TRANSFER,  /* vkCmdCopyBuffer copies, swept over sizes: B/s */
	WL_POWER,     /* multiply-adds on random operands: FLOPS, and the power they draw */
	WL_KIND_COUNT
} WorkloadKind;

/* Each kind as records name it ("arithmetic", "copy", "transfer", "power"). */
extern const char *const workload_kind_names[WL_KIND_COUNT];

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
	RESULT_NONE,       /* memory workloads: their own pattern check (memwork.h); power: powerwork.h's */
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
	WorkloadType id;      /* its own row's: workload_info[w.id] is w */
	const char *name;     /* --workload NAME */
	WorkloadUnit unit;
	const char *shader;   /* file in shaders/ */
	const char *define;   /* type define for the shader, or NULL */
	size_t elem;          /* bytes of one stored result */
	const char *what;     /* one line for --list-workloads */
	WorkloadKind kind;
	WorkloadType arith;   /* FMA workloads: the row whose arithmetic it runs (its own, its vector
	                         form's for a scalar form, fp16-matrix's for a matrix of other inputs) */
	MemClass src, dst;    /* copy and transfers: memory of the source and destination */
	unsigned bytes_per_byte; /* bytes counted per byte copied: 2 (read + write) or 1; 0 for FMA */
	bool scalar;          /* FMA workloads: the shader's SCALAR form */
	ResultCheck check;    /* FMA workloads: how their results are held to the CPU's */
	RateClass rate;       /* where its theoretical peak comes from */
	uint32_t needs;       /* the device features it needs (FEAT() bits): checked and enabled */
	bool matrix;          /* a cooperative-matrix workload, of types mtypes */
	MatrixTypes mtypes;
} WorkloadInfo;

extern const WorkloadInfo workload_info[WORKLOAD_TYPE_COUNT];

/* A workload that moves memory (the copy shader, the transfers), not
 * arithmetic: its kind says, not its place in the table. */
static inline bool workload_is_memory(WorkloadType t)
{
	return (size_t)t < WORKLOAD_TYPE_COUNT &&
	       (workload_info[t].kind == WL_COPY || workload_info[t].kind == WL_TRANSFER);
}

/* Whether the workload moves data across the host's side (a transfer to,
 * from or within host memory): several devices running it at once share
 * the host (its root complex and memory), so a device's own link is
 * measured alone. */
static inline bool workload_uses_host(WorkloadType t)
{
	const WorkloadInfo *w = &workload_info[t];
	return w->src == MEM_HOST_COHERENT || w->src == MEM_HOST_CACHED || w->dst == MEM_HOST_COHERENT ||
	       w->dst == MEM_HOST_CACHED;
}

/* The arithmetic a workload does (its row's .arith): fp32-scalar is fp32's,
 * fp16-scalar fp16's (the same chains and references, another shape of
 * code), bf16-matrix fp16-matrix's (the same unit chains, another input). */
WorkloadType workload_arith(WorkloadType t);

/* "fp32, fp64, ..., d2d": every name, for messages. */
void workload_names(char *out, size_t len);

/* Index of the workload called name, or -1. */
int workload_find(const char *name);
/* The workload a mistyped name most likely meant ("FP32": fp32), or NULL. */
const char *workload_suggest(const char *name);
/* The workloads of a list "A,B" (--check's, --burn's) into wl (room for
 * WORKLOAD_TYPE_COUNT), *n of them; false with why ("--workload: ...")
 * for an empty name, one that is no workload or is given twice, or a list
 * longer than any list of them. */
bool workload_list(const char *list, int *wl, size_t *n, char *why, size_t len);
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

#endif
