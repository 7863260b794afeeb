/* kinds: the workload kinds, one row each, the way tel_registry.c lists
 * the telemetry sources; and the plan, which asks a kind's row. A new kind
 * is a file of its own and a row here: the kinds take the shared helpers
 * (workloads.c), which take nothing from a kind (tests/layering.sh holds
 * it: no circle of objects). */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const WorkloadOps *const kinds[] = {
	[WL_FMA] = &workload_fma_ops,
	[WL_COPY] = &workload_copy_ops,
	[WL_TRANSFER] = &workload_transfer_ops,
	[WL_POWER] = &workload_power_ops,
};

const WorkloadOps *workload_ops(WorkloadKind k)
{
	return (size_t)k < sizeof kinds / sizeof *kinds ? kinds[k] : NULL;
}

void work_end(Work *w)
{
	if (w->state)
		(w->state_free ? w->state_free : free)(w->state);
	w->state = NULL;
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

