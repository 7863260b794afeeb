#include "workloads.h"

#include <stdio.h>
#include <string.h>

#include "sample.h"

/* One row per kind. */
static const WorkloadOps *const ops_of[] = {
	[WL_FMA] = &workload_fma_ops,
	[WL_COPY] = &workload_copy_ops,
	[WL_TRANSFER] = &workload_transfer_ops,
};

const WorkloadOps *workload_ops(WorkloadKind k)
{
	return (size_t)k < sizeof ops_of / sizeof *ops_of ? ops_of[k] : NULL;
}

Status work_plan(Work *w, const WorkInput *in, char *err)
{
	memset(w, 0, sizeof *w);
	w->type = in->type;
	w->info = &workload_info[in->type];
	w->trials = in->trials ? in->trials : 1;
	memcpy(w->max_groups, in->dev->max_group_count, sizeof w->max_groups);
	char why[256];
	if (!workload_supported(in->type, devinfo_features(in->dev), why, sizeof why)) {
		snprintf(err, ERR_LEN, "workload %s cannot run on %s: %s", w->info->name, in->dev->name, why);
		return STATUS_USAGE;
	}
	if (in->transfer_queue && w->info->kind != WL_TRANSFER) {
		snprintf(err, ERR_LEN, "--transfer-queue: %s is not a transfer workload (h2d, d2h, d2d ...)",
		         w->info->name);
		return STATUS_USAGE;
	}
	return workload_ops(w->info->kind)->plan(w, in, err);
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
