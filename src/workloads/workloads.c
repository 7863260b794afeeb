/* workloads: what the kinds share (limits, units, the checks of a group
 * counter and of copied regions); it takes nothing from a kind. */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"

void *work_state(Work *w, size_t size, char *err)
{
	w->state = calloc(1, size);
	if (!w->state)
		snprintf(err, ERR_LEN, "out of memory for the %s workload's state", w->info->name);
	return w->state;
}

uint32_t work_max_local(const DeviceInfo *d)
{
	return d->max_group_size[0] < d->max_invocations ? d->max_group_size[0] : d->max_invocations;
}

uint32_t work_sample_flags(const Work *w)
{
	return (w->info->unit == UNIT_IOPS ? SAMPLE_INTEGER : 0) |
	       (workload_is_memory(w->type) ? SAMPLE_BYTES : 0);
}

uint64_t work_mem_top(const WorkInput *in, char *err)
{
	const WorkloadInfo *wl = &workload_info[in->type];
	char why[256];
	uint64_t cap = compute_mem_limit(in->ctx, in->dev, in->type, why, sizeof why);
	if (!cap) {
		snprintf(err, ERR_LEN, "workload %s cannot run on %s: %s", wl->name, in->dev->name, why);
		return 0;
	}
	uint64_t hi = in->size_hi ? in->size_hi : cap;
	if (hi > cap) {
		char a[32], b[32];
		snprintf(err, ERR_LEN, "--size %s is above the %s that %s allows for %s (1 GiB at most, a quarter "
		         "of the heap, within the allocation and buffer limits)", mem_size_str(hi, a, sizeof a),
		         mem_size_str(cap, b, sizeof b), in->dev->name, wl->name);
		return 0;
	}
	return hi;
}

bool work_check_regions(Compute *c, uint64_t src_off, char *msg, size_t len)
{
	char why[512];
	if (!c->check_n || mem_check_regions(compute_checked_regions(c), c->check_off, c->check_n, c->mem_bytes,
	                                     src_off, why, sizeof why) < 0) {
		snprintf(msg, len, "verification failed: %s", c->check_n ? why : "nothing was read back");
		return false;
	}
	return true;
}

bool work_check_counter(const Work *w, Compute *c, uint64_t groups, char *msg, size_t len)
{
	const uint32_t *hdr = compute_results(c);
	uint64_t want = groups * w->trials; /* every trial counts its groups */
	if (hdr[0] == (uint32_t)want)
		return true;
	snprintf(msg, len, "verification failed: %u of %llu workgroups ran", hdr[0], (unsigned long long)want);
	return false;
}

void work_read_whole(const Work *w, Compute *c, GroupCount g)
{
	(void)w, (void)c, (void)g; /* the whole result buffer is read back */
}

uint64_t work_by_invocation(const Work *w, uint64_t groups, uint64_t copy_size)
{
	(void)copy_size;
	return groups * w->local_size * w->per_invocation;
}
