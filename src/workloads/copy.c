/* copy: device memory bandwidth through a copy shader over two device-local
 * buffers (bytes read + written); checked by the workgroup counter and 64
 * regions of the destination compared with the source's pattern. */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The groups' shape, coalesced: on a CPU device 256 invocations of 4
 * uvec4 (16 KiB a group; lavapipe 4.2 GB/s, 2.0 at 1024 x 2); on a GPU 512
 * of 1 (8 KiB): on the H200 4222 GB/s, 0.997x cudaMemcpy's device to
 * device, where 256 x 4 made 4112 (0.974x; bench/peak/copy_vs_cuda.sh,
 * docs/PERFORMANCE.md). */
#define COPY_LOCAL_CPU 256u
#define COPY_VEC4S_CPU 4u
#define COPY_LOCAL_GPU 512u
#define COPY_VEC4S_GPU 1u

/* The copy shader's own: the buffer in chunks of one group's bytes. */
typedef struct CopyState {
	uint64_t chunks, chunk_bytes;
} CopyState;

static Status plan(Work *w, const WorkInput *in, char *err)
{
	const DeviceInfo *d = in->dev;
	uint64_t top = work_mem_top(in, err);
	if (!top)
		return STATUS_USAGE;
	CopyState *st = work_state(w, sizeof *st, err);
	if (!st)
		return STATUS_FAILED;
	uint64_t bytes = in->size_lo ? in->size_lo : top;
	bool cpu = d->type == DEV_CPU;
	uint32_t lim = work_max_local(d), local = cpu ? COPY_LOCAL_CPU : COPY_LOCAL_GPU;
	uint32_t vec4s = cpu ? COPY_VEC4S_CPU : COPY_VEC4S_GPU;
	w->local_size = lim < local ? lim : local;
	/* FLOPSCOPE_COPY_SHAPE=LOCAL,VEC4S: the groups' shape, for
	 * bench/peak/copy_vs_cuda.sh (a power of two of invocations, 1-64 uvec4 each) */
	const char *shape = getenv("FLOPSCOPE_COPY_SHAPE");
	if (shape && *shape) {
		unsigned a, b;
		char extra;
		if (sscanf(shape, "%u,%u%c", &a, &b, &extra) != 2 || !a || a > lim || (a & (a - 1)) || !b || b > 64) {
			snprintf(err, ERR_LEN, "FLOPSCOPE_COPY_SHAPE: \"%s\": LOCAL,VEC4S (a power of two up to %u, 1-64)",
			         shape, lim);
			return STATUS_USAGE;
		}
		w->local_size = a;
		vec4s = b;
	}
	w->shader = w->info->shader;
	w->spec[0] = w->local_size;
	w->spec[1] = vec4s;
	st->chunk_bytes = (uint64_t)w->local_size * vec4s * 16;
	w->mem_bytes = bytes / st->chunk_bytes * st->chunk_bytes;
	if (!w->mem_bytes) {
		char a[32];
		snprintf(err, ERR_LEN, "--size: the copy needs at least %s", mem_size_str(st->chunk_bytes, a, sizeof a));
		return STATUS_USAGE;
	}
	st->chunks = w->mem_bytes / st->chunk_bytes;
	/* the bytes counted per byte copied are the table's (read + written
	 * for device memory) */
	w->per_invocation = w->info->bytes_per_byte * 16ull * vec4s;
	w->result_size = 16;                        /* the group counter */
	return STATUS_OK;
}

static void rec_fill(Compute *c, VkCommandBuffer cmd, GroupCount g)
{
	gpu_fill_counter(c, cmd);
	gpu_fill_checked(c, cmd, g.x);
}

static void rec_work(Compute *c, VkCommandBuffer cmd, GroupCount g, const void *push, bool readback)
{
	(void)readback;
	gpu_record_dispatch(c, cmd, g, push);
}

static void rec_read(Compute *c, VkCommandBuffer cmd, GroupCount g)
{
	gpu_read_result(c, cmd, 16);
	gpu_read_checked(c, cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, g.x);
}

static const Recorder recorder = {
	.transfer_only = false,
	.fill = rec_fill,
	.work = rec_work,
	.read = rec_read,
};

static uint32_t push(const Work *w, unsigned char out[24])
{
	const CopyState *st = w->state;
	uint32_t chunks = (uint32_t)st->chunks;
	memcpy(out, &chunks, sizeof chunks);
	return sizeof chunks;
}

/* The regions a submission of g groups wrote: the chunks they covered. */
static void prepare_check(const Work *w, Compute *c, GroupCount g)
{
	const CopyState *st = w->state;
	uint64_t groups = adapt_total(g);
	uint64_t covered = (groups < st->chunks ? groups : st->chunks) * st->chunk_bytes;
	uint64_t offs[MEM_CHECK_REGIONS];
	size_t n = mem_check_offsets(covered, c->mem_bytes, offs);
	compute_set_check(c, offs, n);
}

static bool check(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len)
{
	return work_check_counter(w, c, groups, msg, len) && work_check_regions(c, 0, msg, len);
}

const WorkloadOps workload_copy_ops = {
	.kind = WL_COPY,
	.plan = plan,
	.recorder = &recorder,
	.push = push,
	.prepare_check = prepare_check,
	.check = check,
	.work = work_by_invocation,
};
