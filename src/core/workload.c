#include "workload.h"
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const WorkloadInfo workload_info[WORKLOAD_TYPE_COUNT] = {
#define WORKLOAD_ROW(row, ...) [WORKLOAD_##row] = { .id = WORKLOAD_##row, __VA_ARGS__ },
#include "workload_rows.h"
#undef WORKLOAD_ROW
};

WorkloadType workload_arith(WorkloadType t)
{
	return workload_info[t].arith;
}

const char *const workload_kind_names[WL_KIND_COUNT] = {
	[WL_FMA] = "arithmetic", [WL_COPY] = "copy", [WL_TRANSFER] = "transfer", [WL_POWER] = "power",
};

const char *const workload_unit_names[UNIT_COUNT] = { [UNIT_FLOPS] = "FLOPS", [UNIT_IOPS] = "IOPS", [UNIT_BYTES] = "B/s" };

const char *const mem_class_names[MEM_CLASS_COUNT] = {
	[MEM_NONE] = "none", [MEM_DEVICE] = "device-local", [MEM_HOST_COHERENT] = "host-coherent",
	[MEM_HOST_CACHED] = "host-cached",
};

void workload_names(char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; i < WORKLOAD_TYPE_COUNT && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", workload_info[i].name);
}

const char *workload_suggest(const char *name)
{
	const char *names[WORKLOAD_TYPE_COUNT];
	for (int i = 0; i < WORKLOAD_TYPE_COUNT; i++)
		names[i] = workload_info[i].name;
	return fmt_nearest(name, names, WORKLOAD_TYPE_COUNT);
}

bool workload_list(const char *list, int *wl, size_t *n, char *why, size_t len)
{
	char buf[512];
	*n = 0;
	if ((size_t)snprintf(buf, sizeof buf, "%s", list) >= sizeof buf) {
		snprintf(why, len, "--workload: a list of more than %zu characters", sizeof buf - 1);
		return false;
	}
	/* each name between commas (strtok_r would pass over "fp32,,copy"'s) */
	for (char *t = buf, *next; t; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		if (!*t) {
			snprintf(why, len, "--workload: an empty name in \"%s\"", list);
			return false;
		}
		int w = workload_find(t);
		if (w < 0) {
			char names[256];
			workload_names(names, sizeof names);
			const char *near = workload_suggest(t);
			snprintf(why, len, "--workload: \"%s\" is not one of %s%s%s%s", t, names, near ? " (did you mean " : "",
			         near ? near : "", near ? "?)" : "");
			return false;
		}
		for (size_t k = 0; k < *n; k++)
			if (wl[k] == w) {
				snprintf(why, len, "--workload: %s is named twice", t);
				return false;
			}
		wl[(*n)++] = w;
	}
	return true;
}


int workload_find(const char *name)
{
	for (int i = 0; i < WORKLOAD_TYPE_COUNT; i++)
		if (!strcmp(workload_info[i].name, name))
			return i;
	return -1;
}

/* The first feature of need missing from has whose before_shape is
 * before, or -1. */
static int lacking(uint32_t need, uint32_t has, bool before)
{
	for (int b = 0; b < FEAT_COUNT; b++)
		if ((need & ~has & FEAT(b)) && dev_features[b].before_shape == before)
			return b;
	return -1;
}

bool workload_supported(WorkloadType t, WorkloadFeatures f, char *why, size_t len)
{
	const WorkloadInfo *w = &workload_info[t];
	if (w->matrix && !f.coopmat_listed) {
		snprintf(why, len, "the device has no cooperative matrices (neither VK_KHR_cooperative_matrix nor "
		         "VK_NV_cooperative_matrix)");
		return false;
	}
	int b = lacking(w->needs, f.has, true);
	if (b >= 0) {
		snprintf(why, len, "%s", dev_features[b].lacks);
		return false;
	}
	if (w->matrix && !f.mm[t][0]) {
		snprintf(why, len, "the device offers no %s*%s+%s cooperative-matrix shape at subgroup scope",
		         matrix_component_str(w->mtypes.in), matrix_component_str(w->mtypes.in),
		         matrix_component_str(w->mtypes.acc));
		return false;
	}
	b = lacking(w->needs, f.has, false);
	if (b >= 0) {
		snprintf(why, len, "%s", dev_features[b].lacks);
		return false;
	}
	snprintf(why, len, "supported");
	return true;
}
