/* compute: one logical device with one compute pipeline and a timed dispatch.
 * The result buffer lives in device memory; a host-visible copy is made only
 * for dispatches that are checked. */
#ifndef FLOPSCOPE_COMPUTE_H
#define FLOPSCOPE_COMPUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "adapt.h"
#include "err.h"
#include "memwork.h"
#include "vkctx.h"
#include "workload.h"

#define COMPUTE_SLOTS 3

typedef struct Compute Compute;

/* What a workload records into a submission: the GPU layer records the
 * frame (the barrier after the previous submission, the timestamps, the
 * fence) and calls these for the rest. workloads/ gives one per kind;
 * gpu_dispatch_recorder is the plain compute dispatch. */
typedef struct Recorder {
	bool transfer_only;  /* transfer stages only: the work may run on a copy engine */
	/* a checked submission: make the output fresh before the work */
	void (*fill)(Compute *c, VkCommandBuffer cmd, GroupCount g);
	/* the work, between the two timestamps */
	void (*work)(Compute *c, VkCommandBuffer cmd, GroupCount g, const void *push, bool readback);
	/* a checked submission: bring the output within the host's reach */
	void (*read)(Compute *c, VkCommandBuffer cmd, GroupCount g);
} Recorder;

/* SPIR-V that comes while the device is made (shaderc on another thread):
 * compute_create calls wait once the device and its buffers exist, just
 * before the pipeline; it fills the words, their size and the pipeline
 * cache's file (NULL: none), or returns false with why in err. */
typedef struct SpirvLater {
	bool (*wait)(void *ctx, const uint32_t **words, size_t *size, const char **pipeline_cache, char *err);
	void *ctx;
} SpirvLater;

/* A buffer a workload brings, read by its shader at binding 1 (a workload
 * with a source and a destination has none): its bytes, and the words that
 * fill it once before the first dispatch, `n` from word `first` on. */
typedef struct ComputeInput {
	VkDeviceSize size;               /* bytes, a multiple of 16; 0: none */
	void (*fill)(const void *ctx, uint64_t first, uint32_t *out, size_t n);
	const void *ctx;
} ComputeInput;

typedef struct ComputeSetup {
	const uint32_t *spirv;
	size_t spirv_size;               /* bytes */
	SpirvLater later;                /* spirv NULL and later.wait set: the SPIR-V comes later */
	const VkSpecializationMapEntry *spec_map;
	uint32_t spec_count;
	const void *spec_data;
	size_t spec_size;
	uint32_t push_size;
	VkDeviceSize result_size;        /* bytes of the storage buffer at binding 0 */
	uint64_t fence_timeout_ns;       /* longest wait for one dispatch */
	const char *pipeline_cache;      /* file for VkPipelineCache data; NULL: none */
	bool cache_refresh;              /* ... not read, only written afresh */
	uint32_t features;               /* FEAT() bits to enable: the workload's needs */
	unsigned ordinal;                /* the device's number among several (1..); 0 alone */
	uint32_t trials;                 /* dispatches per submission, back to back; 0: 1 */
	const Recorder *rec;             /* what each submission records */
	/* Buffers: the result buffer at binding 0 when result_size > 0; a source
	 * and a destination of mem_bytes (plus the marks) in the classes named
	 * unless MEM_NONE, bound at 1 and 2 when there is a shader (the copy
	 * shader); marks: the destination's marks are read back too
	 * (transfers). No shader (spirv NULL): no pipeline. */
	MemClass src_mem, dst_mem;
	VkDeviceSize mem_bytes;          /* data bytes of src and dst (the marks come on top) */
	bool marks;
	ComputeInput input;              /* the workload's own input buffer */
	bool push_sequence;              /* the push constants' last 4 bytes carry each
	                                    submission's number (1, 2, ...): work that changes
	                                    from one submission to the next */
} ComputeSetup;

struct Compute {
	VkDevice dev;
	VkQueue queue;
	VkBuffer result, staging;
	VkDeviceMemory result_mem, staging_mem;
	bool staging_coherent;
	void *staging_map;
	VkDeviceSize result_size;
	VkShaderModule module;
	VkDescriptorSetLayout dsl;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool dpool;
	VkDescriptorSet set;
	VkCommandPool cpool;
	/* one slot per submission in flight (pipelined mode keeps several) */
	VkCommandBuffer cmd[COMPUTE_SLOTS];
	VkQueryPool queries[COMPUTE_SLOTS];
	VkFence fence[COMPUTE_SLOTS];
	GroupCount slot_groups[COMPUTE_SLOTS];
	uint64_t last_end_tick;        /* end timestamp of the last completed dispatch */
	bool have_last_end;
	uint32_t push_size;
	uint32_t trials;               /* dispatches per submission (>= 1) */
	bool timestamps;
	uint64_t ts_mask;
	double ts_period_ns;
	uint64_t fence_timeout_ns;
	bool cache_loaded;             /* pipeline cache data was given to the driver */
	char cache_note[256];          /* why the pipeline cache file there was not used ("") */
	uint64_t submissions;          /* counted for FLOPSCOPE_FAULT (tests) */
	int fault_kind;                /* FLOPSCOPE_FAULT for this device: 0 none */
	uint64_t fault_at;
	double pipeline_ms;            /* vkCreateComputePipelines */
	const Recorder *rec;
	bool marks;                    /* transfers: the destination's marks are checked */
	bool push_sequence;            /* ComputeSetup's */
	uint32_t slot_seq[COMPUTE_SLOTS]; /* each slot's submission number */
	uint32_t checked_seq;          /* that of the last checked submission waited for */
	/* a workload's input buffer (ComputeInput) */
	VkBuffer input;
	VkDeviceMemory input_mem;
	VkMemoryPropertyFlags input_flags;
	VkDeviceSize input_size;
	/* memory workloads */
	VkBuffer src, dst;
	VkDeviceMemory src_mem, dst_mem;
	void *dst_map;                 /* host-visible destination, else NULL */
	bool dst_coherent;
	uint32_t src_type, dst_type;   /* memory type indexes */
	VkMemoryPropertyFlags src_flags, dst_flags;
	VkDeviceSize mem_bytes;        /* data bytes of src and dst */
	VkDeviceSize copy_size;        /* bytes of one transfer (compute_set_copy_size) */
	VkDeviceSize region_off, marks_off; /* in staging: checked regions, then marks */
	uint64_t check_off[MEM_CHECK_REGIONS];
	size_t check_n;                /* regions a checked submission reads back */
	bool host_reset;               /* queries reset from the host (transfer-only queues) */
	uint64_t rotation;             /* transfers: copies so far; each reads the next slot
	                                  of the source, so no cache holds what it reads */
	uint64_t check_src;            /* source offset of a checked submission's last copy */
	uint32_t region_copy[MEM_CHECK_REGIONS * MEM_REGION / 4];
};

typedef struct DispatchTiming {
	uint64_t gpu_ns;   /* valid when gpu_valid */
	uint64_t gpu_end_ns; /* end timestamp on the device's clock, ns */
	uint64_t cpu_ns;
	bool gpu_valid;
} DispatchTiming;

/* FLOPSCOPE_FAULT (tests): KIND@N, or KIND@N:D for device D of several. */
void compute_fault_parse(Compute *c, const char *spec, unsigned ordinal);
bool compute_create(Compute *c, const VkCtx *ctx, const DeviceInfo *d,
                    const ComputeSetup *s, char *err);
void compute_destroy(Compute *c);
/* The pipeline of s (its SPIR-V given, its cache file named) built on a
 * device of its own made as compute_create makes it, then everything
 * destroyed: the cache file is left as a later compute_create of the same
 * setup reads it (a start from warm caches). */
bool compute_build_pipeline(const VkCtx *ctx, const DeviceInfo *d, const ComputeSetup *s, char *err);

/* Records and runs one dispatch of g groups, timed as Gridwise does: queue
 * idle, clock, submit, fence, clock; plus timestamp queries around the
 * dispatch when the queue family has them. With readback the group counter
 * (the first 16 bytes) is zeroed and the slots filled with 0xff bytes before
 * the dispatch, and the whole buffer is copied to host memory after it, which
 * compute_results() then returns. *vr receives the failing VkResult. */
bool compute_dispatch(Compute *c, GroupCount g, const void *push, bool readback,
                      DispatchTiming *t, VkResult *vr, char *err);

const void *compute_results(const Compute *c);
/* With push_sequence: the number the last checked submission carried in its
 * push constants (what compute_results() then holds the results of). */
uint32_t compute_checked_sequence(const Compute *c);

/* Copies the result buffer to host memory (nothing reset, nothing
 * dispatched) and waits; compute_results() then returns it. */
bool compute_read_back(Compute *c, VkResult *vr, char *err);

/* Pipelined mode: record and submit a dispatch in slot (no wait, no idle
 * queue first). Each command buffer begins with a barrier on the previous
 * submissions' compute work, so dispatches run back to back, never
 * overlapped. */
bool compute_submit(Compute *c, unsigned slot, GroupCount g, const void *push, bool readback,
                    VkResult *vr, char *err);
/* Waits for slot. gpu_ns = end - max(its start, the previous dispatch's end):
 * the dispatch's own time even when the queue ran dry before it. */
bool compute_wait(Compute *c, unsigned slot, bool readback, DispatchTiming *t, VkResult *vr, char *err);

/* Memory workloads. The largest data size a workload may use on a device
 * (mem_cap over the heaps of its memory types, the allocation limit and, for
 * the copy shader, the storage buffer range); 0 with a message when the
 * device lacks a memory type it needs. */
uint64_t compute_mem_limit(const VkCtx *ctx, const DeviceInfo *d, WorkloadType t, char *why, size_t len);
/* Bytes of each transfer from the next submission on (<= mem_bytes). */
void compute_set_copy_size(Compute *c, VkDeviceSize bytes);
/* The regions the next checked submission reads back (mem_check_offsets). */
void compute_set_check(Compute *c, const uint64_t *offs, size_t n);
/* After a checked submission: the regions read back (check_n x 16 bytes)
 * and the marks (transfers: one word per copy, then the fill). */
const uint32_t *compute_checked_regions(Compute *c);
const uint32_t *compute_marks(const Compute *c);
/* "2 (DEVICE_LOCAL)" style description of src and dst memory types. */
void compute_mem_desc(const Compute *c, char *out, size_t len);

/* For recorders. */
extern const Recorder gpu_dispatch_recorder;
void gpu_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                 VkPipelineStageFlags dst_stage, VkAccessFlags dst);
/* Binds the pipeline, pushes the constants and dispatches g, the submission's
 * trials one after another. */
void gpu_record_dispatch(Compute *c, VkCommandBuffer cmd, GroupCount g, const void *push);
/* Transfers: `copies` vkCmdCopyBuffer of copy_size bytes, each from the next
 * slot of the source and with its mark word; readback: the last one is
 * the one checked. */
void gpu_record_copies(Compute *c, VkCommandBuffer cmd, uint32_t copies, bool readback);
/* Zeroes the result buffer's group counter (its first 16 bytes). */
void gpu_fill_counter(Compute *c, VkCommandBuffer cmd);
/* Copies the first bytes of the result buffer to staging after the shader. */
void gpu_read_result(Compute *c, VkCommandBuffer cmd, VkDeviceSize bytes);
/* Memory workloads: fills the checked regions of the destination (and the
 * marks of `copies` copies) with 0xffffffff, so that what is read back was
 * written now; after the work (at stage `after`), copies them to staging,
 * or, where the host sees the destination, makes the writes visible to it. */
void gpu_fill_checked(Compute *c, VkCommandBuffer cmd, uint32_t copies);
void gpu_read_checked(Compute *c, VkCommandBuffer cmd, VkPipelineStageFlags after, uint32_t copies);


#endif
