/* transfer: vkCmdCopyBuffer between two memory classes (h2d, d2h, d2d and
 * the cached forms), swept over copy sizes; a "group" is one copy. Every
 * copy carries a mark word into the destination, which proves it ran, and
 * 64 regions of the last copy are compared with the source's pattern. */
#include "workloads.h"

#include <stdio.h>

static Status plan(Work *w, const WorkInput *in, char *err)
{
	const DeviceInfo *d = in->dev;
	if (w->trials > 1) {
		snprintf(err, ERR_LEN, "--trials does not apply to transfers: the loop already sizes the "
		         "number of copies in a submission");
		return STATUS_USAGE;
	}
	if (in->transfer_queue && d->transfer_family < 0) {
		snprintf(err, ERR_LEN, "--transfer-queue: %s has no transfer-only queue family", d->name);
		return STATUS_USAGE;
	}
	uint64_t hi = work_mem_top(in, err);
	if (!hi)
		return STATUS_USAGE;
	uint64_t lo = in->size_lo ? in->size_lo : MEM_SWEEP_MIN;
	if (lo > hi)
		lo = hi;
	w->nsizes = mem_sweep(lo, hi, w->sizes, MEM_SWEEP_MAX_SIZES);
	w->mem_bytes = hi;
	w->local_size = 1;
	/* one "group" is one copy: up to MEM_MAX_COPIES a submission */
	w->max_groups[0] = MEM_MAX_COPIES;
	w->max_groups[1] = w->max_groups[2] = 1;
	w->result_size = 0;
	return STATUS_OK;
}

static void rec_fill(Compute *c, VkCommandBuffer cmd, GroupCount g)
{
	gpu_fill_checked(c, cmd, g.x);
}

static void rec_work(Compute *c, VkCommandBuffer cmd, GroupCount g, const void *push, bool readback)
{
	(void)push;
	gpu_record_copies(c, cmd, g.x, readback);
}

static void rec_read(Compute *c, VkCommandBuffer cmd, GroupCount g)
{
	gpu_read_checked(c, cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, g.x);
}

static const Recorder recorder = {
	.transfer_only = true,
	.fill = rec_fill,
	.work = rec_work,
	.read = rec_read,
};

static uint32_t push(const Work *w, unsigned char out[24])
{
	(void)w, (void)out;
	return 0;
}

/* The regions of one copy's worth of the destination. */
static void prepare_check(const Work *w, Compute *c, GroupCount g)
{
	(void)w, (void)g;
	uint64_t offs[MEM_CHECK_REGIONS];
	size_t n = mem_check_offsets(c->copy_size, c->mem_bytes, offs);
	compute_set_check(c, offs, n);
}

static bool check(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len)
{
	(void)w;
	char why[512];
	if (mem_check_marks(compute_marks(c), (uint32_t)groups, why, sizeof why) < 0) {
		snprintf(msg, len, "verification failed: %s", why);
		return false;
	}
	return work_check_regions(c, c->check_src, msg, len);
}

/* bytes copied (d2d: read + written) */
static uint64_t work(const Work *w, uint64_t groups, uint64_t copy_size)
{
	return groups * copy_size * w->info->bytes_per_byte;
}

const WorkloadOps workload_transfer_ops = {
	.kind = WL_TRANSFER,
	.plan = plan,
	.recorder = &recorder,
	.push = push,
	.prepare_check = prepare_check,
	.check = check,
	.work = work,
};
