/* submit: command buffers, recording, submission and timing: Gridwise's CPU
 * time around each submission, timestamp queries inside it. */
#include "gpu_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

/* The command buffers, timestamp queries and fences of the submission slots. */
bool gpu_commands_create(Compute *c, const DeviceInfo *d, char *err)
{
	VkResult vk_last;

	VkCommandPoolCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = d->queue_family,
	};
	VK_TRY(err, vk_last, vkCreateCommandPool(c->dev, &cpci, NULL, &c->cpool));
	VkCommandBufferAllocateInfo cbai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->cpool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = COMPUTE_SLOTS,
	};
	VK_TRY(err, vk_last, vkAllocateCommandBuffers(c->dev, &cbai, c->cmd));

	c->timestamps = d->timestamp_valid_bits > 0;
	if (c->timestamps) {
		c->ts_mask = d->timestamp_valid_bits >= 64 ? UINT64_MAX
		                                           : (1ull << d->timestamp_valid_bits) - 1;
		c->ts_period_ns = d->timestamp_period;
		VkQueryPoolCreateInfo qpi = {
			.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
			.queryType = VK_QUERY_TYPE_TIMESTAMP,
			.queryCount = 2,
		};
		for (unsigned i = 0; i < COMPUTE_SLOTS; i++)
			VK_TRY(err, vk_last, vkCreateQueryPool(c->dev, &qpi, NULL, &c->queries[i]));
	}
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	for (unsigned i = 0; i < COMPUTE_SLOTS; i++)
		VK_TRY(err, vk_last, vkCreateFence(c->dev, &fci, NULL, &c->fence[i]));
	return true;
fail:
	(void)vk_last;
	(void)err;
	return false;
}

void gpu_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = src,
		.dstAccessMask = dst,
	};
	vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Resets cmd and begins it for one submission. */
VkResult gpu_begin_once(VkCommandBuffer cmd)
{
	VkResult r = vkResetCommandBuffer(cmd, 0);
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	return r == VK_SUCCESS ? vkBeginCommandBuffer(cmd, &bi) : r;
}

/* Ends cmd (recorded on slot 0), submits it with slot 0's fence and waits
 * for it, bounded: for the work around the measurements. */
VkResult gpu_end_submit_wait(Compute *c, VkCommandBuffer cmd)
{
	VkResult r = vkEndCommandBuffer(cmd);
	if (r == VK_SUCCESS)
		r = vkResetFences(c->dev, 1, &c->fence[0]);
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &cmd,
	};
	if (r == VK_SUCCESS)
		r = vkQueueSubmit(c->queue, 1, &si, c->fence[0]);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(c->dev, 1, &c->fence[0], VK_TRUE, c->fence_timeout_ns);
	return r;
}

/* Makes the device's copy visible to the host where the memory is not coherent. */
VkResult gpu_invalidate_staging(const Compute *c)
{
	if (c->staging_coherent)
		return VK_SUCCESS;
	VkMappedMemoryRange r = {
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = c->staging_mem,
		.size = VK_WHOLE_SIZE,
	};
	return vkInvalidateMappedMemoryRanges(c->dev, 1, &r);
}

void gpu_fill_checked(Compute *c, VkCommandBuffer cmd, uint32_t copies)
{
	for (size_t i = 0; i < c->check_n; i++)
		vkCmdFillBuffer(cmd, c->dst, c->check_off[i], MEM_REGION, 0xffffffffu);
	if (c->marks)
		vkCmdFillBuffer(cmd, c->dst, c->mem_bytes, 4ull * (copies + 1), 0xffffffffu);
}

void gpu_read_checked(Compute *c, VkCommandBuffer cmd, VkPipelineStageFlags after, uint32_t copies)
{
	VkAccessFlags wrote = after == VK_PIPELINE_STAGE_TRANSFER_BIT ? VK_ACCESS_TRANSFER_WRITE_BIT
	                                                              : VK_ACCESS_SHADER_WRITE_BIT;
	if (c->dst_map) {
		gpu_barrier(cmd, after, wrote, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
		return;
	}
	gpu_barrier(cmd, after, wrote, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferCopy cp[MEM_CHECK_REGIONS + 1];
	uint32_t n = 0;
	for (size_t i = 0; i < c->check_n; i++)
		cp[n++] = (VkBufferCopy){ c->check_off[i], c->region_off + i * MEM_REGION, MEM_REGION };
	if (c->marks)
		cp[n++] = (VkBufferCopy){ c->mem_bytes, c->marks_off, 4ull * (copies + 1) };
	if (n)
		vkCmdCopyBuffer(cmd, c->dst, c->staging, n, cp);
}

/* Copies one after another, each with its mark: copy k carries the source's
 * number k+1 into the destination's word k after the data. Each copy reads
 * the next copy_size slot of the source (round its mem_bytes): a GPU's L2
 * caches host memory too, and copying one small source again and again
 * would measure it. */
void gpu_record_copies(Compute *c, VkCommandBuffer cmd, uint32_t copies, bool readback)
{
	uint64_t slots = c->mem_bytes / c->copy_size;
	for (uint32_t k = 0; k < copies; k++) {
		if (k)
			gpu_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
			            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
		uint64_t from = (c->rotation++ % slots) * c->copy_size;
		if (readback && k + 1 == copies)
			c->check_src = from;
		VkBufferCopy cp[2] = {
			{ from, 0, c->copy_size },
			{ c->mem_bytes + 4ull * k, c->mem_bytes + 4ull * k, 4 },
		};
		vkCmdCopyBuffer(cmd, c->src, c->dst, 2, cp);
	}
}

void gpu_record_dispatch(Compute *c, VkCommandBuffer cmd, GroupCount g, const void *push)
{
	vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
	vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
	if (c->push_size)
		vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, c->push_size, push);
	for (uint32_t k = 0; k < c->trials; k++) {
		if (k) /* each trial sees the one before it finished, as a new submission would */
			gpu_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
			            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
			            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
		vkCmdDispatch(cmd, g.x, g.y, g.z);
	}
}

void gpu_fill_counter(Compute *c, VkCommandBuffer cmd)
{
	vkCmdFillBuffer(cmd, c->result, 0, 16, 0);
}

void gpu_read_result(Compute *c, VkCommandBuffer cmd, VkDeviceSize bytes)
{
	gpu_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
	            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferCopy cp = { 0, 0, bytes };
	vkCmdCopyBuffer(cmd, c->result, c->staging, 1, &cp);
}

/* The plain compute dispatch: a checked one zeroes the group counter and
 * fills every result slot with 0xff bytes first, then reads the whole result
 * buffer back. */
static void dispatch_fill(Compute *c, VkCommandBuffer cmd, GroupCount g)
{
	(void)g;
	gpu_fill_counter(c, cmd);
	vkCmdFillBuffer(cmd, c->result, 16, VK_WHOLE_SIZE, 0xffffffffu);
}

static void dispatch_work(Compute *c, VkCommandBuffer cmd, GroupCount g, const void *push, bool readback)
{
	(void)readback;
	gpu_record_dispatch(c, cmd, g, push);
}

static void dispatch_read(Compute *c, VkCommandBuffer cmd, GroupCount g)
{
	(void)g;
	gpu_read_result(c, cmd, c->result_size);
}

const Recorder gpu_dispatch_recorder = {
	.transfer_only = false,
	.fill = dispatch_fill,
	.work = dispatch_work,
	.read = dispatch_read,
};

/* Records one submission in slot: the workload's recorder does the work (and
 * a checked submission's fills and read-back); this frames it. */
static bool record(Compute *c, unsigned slot, GroupCount g, const void *push, bool readback,
                   bool after_previous, char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	VkCommandBuffer cmd = c->cmd[slot];
	VK_TRY(err, vk_last, gpu_begin_once(cmd));
	const bool xfer = c->rec->transfer_only;
	/* transfers use transfer stages only: they may run on a copy engine */
	const VkPipelineStageFlags work = xfer ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
	const VkAccessFlags work_rw = xfer ? VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT
	                                   : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
	/* Only a checked submission fills anything: the others go straight to
	 * the work, which keeps the device's work between two submissions to
	 * one barrier. */
	if (after_previous) /* the previous submission's work and copies first */
		gpu_barrier(cmd, work | VK_PIPELINE_STAGE_TRANSFER_BIT,
		            (xfer ? 0 : VK_ACCESS_SHADER_WRITE_BIT) | VK_ACCESS_TRANSFER_WRITE_BIT,
		            readback ? VK_PIPELINE_STAGE_TRANSFER_BIT : work,
		            readback ? VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT : work_rw);
	if (c->timestamps && !c->host_reset)
		vkCmdResetQueryPool(cmd, c->queries[slot], 0, 2);
	if (c->timestamps && c->host_reset)
		vkResetQueryPool(c->dev, c->queries[slot], 0, 2);
	if (readback) {
		c->rec->fill(c, cmd, g);
		gpu_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, work, work_rw);
	}
	if (c->timestamps)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->queries[slot], 0);
	/* the submission's number in the push constants' last word: the
	 * number submit() gives it next */
	unsigned char seq_push[128];
	if (c->push_sequence && push && c->push_size <= sizeof seq_push) {
		uint32_t seq = (uint32_t)(c->submissions + 1);
		memcpy(seq_push, push, c->push_size);
		memcpy(seq_push + c->push_size - 4, &seq, sizeof seq);
		c->slot_seq[slot] = seq;
		push = seq_push;
	}
	c->rec->work(c, cmd, g, push, readback);
	if (c->timestamps)
		vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries[slot], 1);
	if (readback) {
		c->rec->read(c, cmd, g);
		gpu_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
		            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	}
	VK_TRY(err, vk_last, vkEndCommandBuffer(cmd));
	VK_TRY(err, vk_last, vkResetFences(c->dev, 1, &c->fence[slot]));
	c->slot_groups[slot] = g;
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

/* Test-only fault injection, read only by the test build (compute.c's
 * FLOPSCOPE_TEST_HOOKS; fault_kind stays 0 in the product): FLOPSCOPE_FAULT=KIND@N makes the N-th
 * submission fail as a driver would (device_lost, oom) or never finish
 * (timeout), or (wrong) the first results read back from the N-th on
 * arrive altered, as from a device that computed wrong values: the result
 * check must catch it; (stall) each of the first N submissions waits 0.1 s
 * on the host before it goes, as on a machine busy with other work (the
 * growth phase outlasts a short window), or (tile) the first value after
 * the group counter read back from the N-th on arrives with an exponent
 * bit flipped, the group counter right, or (slow) from the N-th on each GPU
 * time reads 16 times as long, as from a device at a sixteenth of the speed
 * (the adaptive loop follows it; lavapipe's one workgroup still under the
 * target), or (hang) the N-th submission waits 1.5 s on the host, as a
 * device that hangs for a while (no dispatch ends); KIND@N:D only on
 * device D of several. Parsed per device when
 * it is created (no state shared between engines); unset in normal use. */
void compute_fault_parse(Compute *c, const char *f, unsigned ordinal)
{
	char name[32];
	unsigned long long when;
	unsigned dev = 0;
	c->fault_kind = 0;
	int got = f ? sscanf(f, "%31[a-z_]@%llu:%u", name, &when, &dev) : 0;
	if (got < 2 || (got == 3 && dev != ordinal))
		return;
	c->fault_at = when;
	c->fault_kind = !strcmp(name, "device_lost") ? 1 : !strcmp(name, "oom") ? 2 : !strcmp(name, "timeout") ? 3
	              : !strcmp(name, "wrong") ? 4 : !strcmp(name, "stall") ? 5 : !strcmp(name, "tile") ? 6
	              : !strcmp(name, "slow") ? 7 : !strcmp(name, "hang") ? 8 : 0;
}

static VkResult injected_fault(const Compute *c, uint64_t n)
{
	if (c->fault_kind == 5 && n <= c->fault_at)
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	if (c->fault_kind == 8 && n == c->fault_at)
		nanosleep(&(struct timespec){ .tv_sec = 1, .tv_nsec = 500000000 }, NULL);
	if (!c->fault_kind || c->fault_kind >= 4 || n != c->fault_at)
		return VK_SUCCESS;
	return c->fault_kind == 1 ? VK_ERROR_DEVICE_LOST : c->fault_kind == 2 ? VK_ERROR_OUT_OF_DEVICE_MEMORY : VK_TIMEOUT;
}

static bool submit(Compute *c, unsigned slot, char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	VkResult fault = injected_fault(c, ++c->submissions);
	if (fault == VK_TIMEOUT) { /* as if the dispatch never finished */
		GroupCount g = c->slot_groups[slot];
		snprintf(err, ERR_LEN, "the device did not finish a dispatch of %u x %u x %u groups "
		         "within %.1f s (vkWaitForFences: VK_TIMEOUT)", g.x, g.y, g.z,
		         (double)c->fence_timeout_ns * 1e-9);
		*vr = VK_TIMEOUT;
		return false;
	}
	if (fault != VK_SUCCESS) {
		snprintf(err, ERR_LEN, "vkQueueSubmit failed: %s (injected by FLOPSCOPE_FAULT)", vk_result_str(fault));
		*vr = fault;
		return false;
	}
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &c->cmd[slot],
	};
	VK_TRY(err, vk_last, vkQueueSubmit(c->queue, 1, &si, c->fence[slot]));
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

/* Waits for the slot's fence (bounded) and reads its timestamps. */
static bool finish(Compute *c, unsigned slot, bool readback, bool pipelined, DispatchTiming *t,
                   char *err, VkResult *vr)
{
	VkResult vk_last = VK_SUCCESS;
	GroupCount g = c->slot_groups[slot];
	if (readback)
		c->checked_seq = c->slot_seq[slot];
	VkResult w = vkWaitForFences(c->dev, 1, &c->fence[slot], VK_TRUE, c->fence_timeout_ns);
	if (w == VK_TIMEOUT) {
		snprintf(err, ERR_LEN, "the device did not finish a dispatch of %u x %u x %u groups "
		         "within %.1f s (vkWaitForFences: VK_TIMEOUT)", g.x, g.y, g.z,
		         (double)c->fence_timeout_ns * 1e-9);
		vk_last = w;
		goto fail;
	}
	VK_TRY(err, vk_last, w);
	if (c->timestamps) {
		uint64_t ts[2];
		VK_TRY(err, vk_last, vkGetQueryPoolResults(c->dev, c->queries[slot], 0, 2, sizeof ts, ts, sizeof ts[0],
		                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
		uint64_t start = ts[0];
		/* queued behind the previous dispatch: it began when that one ended */
		if (pipelined && c->have_last_end && ((c->last_end_tick - start) & c->ts_mask) < (c->ts_mask >> 1))
			start = c->last_end_tick;
		uint64_t ticks = (ts[1] - start) & c->ts_mask;
		t->gpu_ns = (uint64_t)((double)ticks * c->ts_period_ns + 0.5);
		if (c->fault_kind == 7 && c->submissions >= c->fault_at)
			t->gpu_ns *= 16; /* FLOPSCOPE_FAULT=slow: a device at a sixteenth of the speed */
		t->gpu_end_ns = (uint64_t)((double)(ts[1] & c->ts_mask) * c->ts_period_ns);
		t->gpu_valid = true;
		c->last_end_tick = ts[1];
		c->have_last_end = true;
	}
	if (readback)
		VK_TRY(err, vk_last, gpu_invalidate_staging(c));
	if (readback && c->dst_map && !c->dst_coherent) {
		VkMappedMemoryRange r = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = c->dst_mem,
			.size = VK_WHOLE_SIZE,
		};
		VK_TRY(err, vk_last, vkInvalidateMappedMemoryRanges(c->dev, 1, &r));
	}
	if (readback && c->fault_kind == 4 && c->submissions >= c->fault_at) {
		/* FLOPSCOPE_FAULT=wrong: one bit of the first word of each part of
		 * what was read back (results, checked regions, marks) */
		unsigned char *m = c->staging_map;
		m[0] ^= 0x10;
		if (c->mem_bytes && c->region_off) /* memory workloads: the checked regions... */
			m[c->region_off] ^= 0x10;
		if (c->mem_bytes && c->marks && c->marks_off) /* ... and a transfer's marks */
			m[c->marks_off] ^= 0x10;
		if (c->dst_map && c->marks) /* a host-visible destination's own marks */
			((unsigned char *)c->dst_map)[c->mem_bytes] ^= 0x10;
		c->fault_kind = 0;
	}
	if (readback && c->fault_kind == 6 && c->submissions >= c->fault_at && c->result_size >= 20) {
		((unsigned char *)c->staging_map)[19] ^= 0x40;
		c->fault_kind = 0;
	}
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

bool compute_dispatch(Compute *c, GroupCount g, const void *push, bool readback,
                      DispatchTiming *t, VkResult *vr, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	memset(t, 0, sizeof *t);
	if (!record(c, 0, g, push, readback, false, err, vr))
		return false;
	/* Gridwise's CPU timing: idle queue, clock, submit, wait, clock. */
	VK_TRY(err, vk_last, vkQueueWaitIdle(c->queue));
	uint64_t t0 = clock_mono_ns();
	if (!submit(c, 0, err, vr))
		return false;
	bool ok = finish(c, 0, readback, false, t, err, vr);
	t->cpu_ns = clock_mono_ns() - t0;
	return ok;
fail:
	*vr = vk_last;
	return false;
}

bool compute_read_back(Compute *c, VkResult *vr, char *err)
{
	VkResult vk_last = VK_SUCCESS;
	VkCommandBuffer cmd = c->cmd[0];
	VK_TRY(err, vk_last, gpu_begin_once(cmd));
	gpu_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
	        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferCopy cp = { 0, 0, c->result_size };
	vkCmdCopyBuffer(cmd, c->result, c->staging, 1, &cp);
	gpu_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
	        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	VK_TRY(err, vk_last, gpu_end_submit_wait(c, cmd));
	VK_TRY(err, vk_last, gpu_invalidate_staging(c));
	*vr = VK_SUCCESS;
	return true;
fail:
	*vr = vk_last;
	return false;
}

bool compute_submit(Compute *c, unsigned slot, GroupCount g, const void *push, bool readback,
                    VkResult *vr, char *err)
{
	return record(c, slot, g, push, readback, true, err, vr) && submit(c, slot, err, vr);
}

bool compute_wait(Compute *c, unsigned slot, bool readback, DispatchTiming *t, VkResult *vr, char *err)
{
	memset(t, 0, sizeof *t);
	return finish(c, slot, readback, true, t, err, vr);
}

const void *compute_results(const Compute *c)
{
	return c->staging_map;
}

uint32_t compute_checked_sequence(const Compute *c)
{
	return c->checked_seq;
}
