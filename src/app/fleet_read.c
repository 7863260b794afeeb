/* fleet_read: see fleet_read.h. */
#include "fleet_read.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A series' label, "" where it has none; its value, NaN where unreadable. */
static const char *label(const cJSON *series, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(series, "metric"), name);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static double value(const cJSON *series)
{
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(series, "value"), 1);
	if (!cJSON_IsString(v))
		return NAN;
	char *end;
	double x = strtod(v->valuestring, &end);
	return end != v->valuestring && !*end && isfinite(x) ? x : NAN;
}

static uint64_t hash_of(const char *host, const char *uuid, const char *workload)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	const char *parts[] = { host, uuid, workload };
	for (size_t p = 0; p < 3; p++) {
		for (const char *c = parts[p] ? parts[p] : ""; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ 0x1f) * 1099511628211ull;
	}
	return h;
}

/* The slot of (host, uuid[, workload]) in an index: its row's or the empty
 * one where it would go. */
static size_t *slot_of(const Fleet *f, size_t *index, const char *host, const char *uuid, const char *workload)
{
	size_t mask = f->nslot - 1;
	for (size_t i = hash_of(host, uuid, workload) & mask;; i = (i + 1) & mask) {
		size_t k = index[i];
		if (k == SIZE_MAX)
			return &index[i];
		const FleetRow *r = &f->rows[k];
		if (!strcmp(r->host, host) && !strcmp(r->uuid, uuid) && (!workload || !strcmp(r->workload, workload)))
			return &index[i];
	}
}

/* The indexes at twice the rows' room (false: out of memory). */
static bool reindex(Fleet *f)
{
	size_t nslot = 64;
	while (nslot < 2 * f->cap)
		nslot *= 2;
	size_t *a = malloc(nslot * sizeof *a), *b = malloc(nslot * sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		return false;
	}
	memset(a, 0xff, nslot * sizeof *a);
	memset(b, 0xff, nslot * sizeof *b);
	free(f->by_row);
	free(f->by_gpu);
	f->by_row = a;
	f->by_gpu = b;
	f->nslot = nslot;
	for (size_t k = 0; k < f->n; k++) {
		*slot_of(f, f->by_row, f->rows[k].host, f->rows[k].uuid, f->rows[k].workload) = k;
		size_t *g = slot_of(f, f->by_gpu, f->rows[k].host, f->rows[k].uuid, NULL);
		if (*g == SIZE_MAX)
			*g = k;
	}
	return true;
}

void fleet_read_free_index(Fleet *f)
{
	free(f->by_row);
	free(f->by_gpu);
	f->by_row = f->by_gpu = NULL;
}

/* The row of host, UUID and workload: found, or new (with what the GPU's
 * other rows know); NULL when the fleet is full. */
static FleetRow *row_of(Fleet *f, const char *host, const char *uuid, const char *workload, bool make)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		FleetRow *r = cap <= FLEET_MAX_ROWS ? realloc(f->rows, cap * sizeof *r) : NULL;
		if (r)
			f->rows = r;
		if (!r || (f->cap = cap, !reindex(f))) {
			f->full = true;
			return NULL;
		}
	}
	size_t *at = slot_of(f, f->by_row, host, uuid, workload);
	if (*at != SIZE_MAX)
		return &f->rows[*at];
	if (!make)
		return NULL;
	size_t *g = slot_of(f, f->by_gpu, host, uuid, NULL), gpu = *g;
	size_t k = f->n++;
	FleetRow *r = &f->rows[k];
	if (gpu != SIZE_MAX) { /* the GPU's, not the workload's */
		*r = f->rows[gpu];
		r->median = r->noise = NAN;
		r->unit[0] = r->verdict[0] = r->codes[0] = '\0';
	} else {
		*r = (FleetRow){ .median = NAN, .noise = NAN, .power_w = NAN, .clock_mhz = NAN, .temp_c = NAN };
		snprintf(r->host, sizeof r->host, "%s", host);
		snprintf(r->uuid, sizeof r->uuid, "%s", uuid);
		*g = k;
	}
	snprintf(r->workload, sizeof r->workload, "%s", workload);
	*at = k;
	return r;
}

void fleet_read_fill(Fleet *f, Fleet *readings, Fill what, const cJSON *res, double scale)
{
	const cJSON *s;
	cJSON_ArrayForEach(s, res) {
		const char *uuid = label(s, "UUID"), *wl = label(s, "workload");
		char host[sizeof f->rows->host];
		fleet_host_of(label(s, "instance"), host, sizeof host);
		double v = value(s) * scale;
		if (what == F_POWER || what == F_CLOCK || what == F_TEMP) {
			/* a device's reading, the first answer kept, in readings (by
			 * host and UUID; dcgm-exporter's by UUID alone, host "": its
			 * instance is not flopscope's); join_readings gives it to the
			 * GPU's rows */
			bool dcgm = !label(s, "instance")[0] || !strncmp(label(s, "__name__"), "DCGM_", 5);
			FleetRow *r = row_of(readings, dcgm ? "" : host, uuid, "", true);
			if (!r)
				continue;
			double *to = what == F_POWER ? &r->power_w : what == F_CLOCK ? &r->clock_mhz : &r->temp_c;
			if (isnan(*to))
				*to = v;
			continue;
		}
		FleetRow *r = row_of(f, host, what == F_MISSING && !uuid[0] ? label(s, "pci_bus_id") : uuid,
		                     what == F_INFO || what == F_MISSING ? "" : wl, true);
		if (!r)
			return;
		switch (what) {
		case F_INFO:
		case F_MISSING: {
			/* a host's exporters each say the GPU (a run's with no NVML
			 * without its index): the first that says each thing; NVML's
			 * index a number in the records, as every record's gpu, and a
			 * label that is not one none */
			const char *g = label(s, "gpu");
			if (!r->name[0])
				snprintf(r->name, sizeof r->name, "%s", label(s, "name"));
			if (!r->gpu[0] && g[0] && strspn(g, "0123456789") == strlen(g))
				snprintf(r->gpu, sizeof r->gpu, "%s", g);
			r->missing |= what == F_MISSING;
			break;
		}
		case F_MEDIAN: {
			const char *fam = label(s, "__name__"), *u = strstr(fam, "median_");
			snprintf(r->unit, sizeof r->unit, "%s", u ? u + 7 : "");
			r->median = v;
			break;
		}
		case F_NOISE:
			r->noise = v;
			break;
		case F_STATUS:
			snprintf(r->verdict, sizeof r->verdict, "%s", label(s, "status"));
			break;
		case F_CAUSE: {
			size_t l = strlen(r->codes);
			snprintf(r->codes + l, sizeof r->codes - l, "%s%s", l ? " " : "", label(s, "code"));
			break;
		}
		default:
			break;
		}
	}
}

/* Each row's readings: flopscope's of its host and GPU, else dcgm-exporter's
 * of its GPU (one look-up each: a fleet's thousands of rows). */
void fleet_read_join(Fleet *f, Fleet *readings)
{
	for (size_t k = 0; k < f->n; k++) {
		FleetRow *r = &f->rows[k];
		const FleetRow *from[] = { row_of(readings, r->host, r->uuid, "", false),
		                           row_of(readings, "", r->uuid, "", false) };
		for (size_t i = 0; i < 2; i++) {
			if (!from[i])
				continue;
			if (isnan(r->power_w))
				r->power_w = from[i]->power_w;
			if (isnan(r->clock_mhz))
				r->clock_mhz = from[i]->clock_mhz;
			if (isnan(r->temp_c))
				r->temp_c = from[i]->temp_c;
		}
	}
}

/* A GPU's row of no workload (its _info, its readings) left out where it
 * has rows of workloads: they carry what it knows. */
void fleet_read_drop_device_rows(Fleet *f)
{
	bool *has = calloc(f->n ? f->n : 1, sizeof *has);
	if (!has)
		return;
	for (size_t k = 0; k < f->n; k++)
		if (f->rows[k].workload[0]) {
			size_t g = *slot_of(f, f->by_gpu, f->rows[k].host, f->rows[k].uuid, NULL);
			if (g != SIZE_MAX)
				has[g] = true;
		}
	size_t m = 0;
	for (size_t k = 0; k < f->n; k++)
		if (f->rows[k].workload[0] || !has[k])
			f->rows[m++] = f->rows[k];
	f->n = m;
	free(has);
}
