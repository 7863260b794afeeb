#include "records.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>

/* Adds a double that reads back exactly: cJSON prints 15 digits whenever
 * they parse back within DBL_EPSILON, which can move a value by an ulp. */
static bool add_exact(cJSON *o, const char *key, double v)
{
	if (!isfinite(v))
		return cJSON_AddNullToObject(o, key) != NULL;
	char text[40];
	snprintf(text, sizeof text, "%.17g", v);
	return cJSON_AddRawToObject(o, key, text) != NULL;
}

bool record_sample_json(const Sample *s, char *buf, size_t len)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return false;
	bool ok = cJSON_AddStringToObject(o, "type", "sample") &&
	          cJSON_AddNumberToObject(o, "seq", (double)s->seq) &&
	          add_exact(o, "t_ms", s->t_ms) &&
	          cJSON_AddNumberToObject(o, "x", s->x) &&
	          cJSON_AddNumberToObject(o, "y", s->y) &&
	          cJSON_AddNumberToObject(o, "z", s->z) &&
	          cJSON_AddNumberToObject(o, "groups", (double)s->groups) &&
	          cJSON_AddNumberToObject(o, "flop", (double)s->work) &&
	          cJSON_AddNumberToObject(o, "gpu_ns", (double)s->gpu_ns) &&
	          cJSON_AddNumberToObject(o, "cpu_ns", (double)s->cpu_ns) &&
	          cJSON_AddNumberToObject(o, "gpu_end_ns", (double)s->gpu_end_ns) &&
	          cJSON_AddBoolToObject(o, "pipelined", s->flags & SAMPLE_PIPELINED) &&
	          add_exact(o, "flops", s->rate) &&
	          cJSON_AddBoolToObject(o, "gpu_timed", s->flags & SAMPLE_GPU_TIMED) &&
	          cJSON_AddBoolToObject(o, "steady", s->flags & SAMPLE_STEADY) &&
	          cJSON_AddBoolToObject(o, "verified", s->flags & SAMPLE_VERIFIED);
	for (int i = 0; ok && i < SAMPLE_TEL_COUNT; i++)
		if (sample_has_tel(s, (TelField)i))
			ok = add_exact(o, sample_tel_names[i], s->tel[i]);
	if (ok && s->peak_flops > 0)
		ok = add_exact(o, "peak_flops", s->peak_flops);
	if (ok && (s->flags & SAMPLE_IMPLAUSIBLE))
		ok = cJSON_AddBoolToObject(o, "implausible", 1) != NULL;
	if (ok && (s->flags & (SAMPLE_INTEGER | SAMPLE_BYTES)))
		ok = cJSON_AddStringToObject(o, "unit", sample_unit(s)) != NULL;
	if (ok && s->trials > 1)
		ok = cJSON_AddNumberToObject(o, "trials", s->trials) != NULL;
	if (ok && s->size)
		ok = cJSON_AddNumberToObject(o, "size", (double)s->size) != NULL;
	ok = ok && cJSON_PrintPreallocated(o, buf, (int)len, 0);
	cJSON_Delete(o);
	return ok;
}

cJSON *record_jump_json(const Jump *j, size_t index)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	bool ok = cJSON_AddStringToObject(o, "type", "jump") &&
	          cJSON_AddNumberToObject(o, "index", (double)index) &&
	          cJSON_AddStringToObject(o, "kind", j->kind == JUMP_RAMP ? "ramp" : "step") &&
	          cJSON_AddNumberToObject(o, "t_ms", j->t_ms) &&
	          cJSON_AddNumberToObject(o, "t_end_ms", j->t_end_ms) &&
	          cJSON_AddNumberToObject(o, "before", j->before) &&
	          cJSON_AddNumberToObject(o, "after", j->after) &&
	          cJSON_AddNumberToObject(o, "ratio", j->ratio) &&
	          cJSON_AddNumberToObject(o, "samples", j->samples);
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

bool record_summary_json(FILE *f, const SummaryResult *r, size_t dropped, uint64_t checks_passed)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return false;
	bool ok = cJSON_AddStringToObject(o, "type", "summary") &&
	          cJSON_AddNumberToObject(o, "samples", (double)r->samples) &&
	          cJSON_AddNumberToObject(o, "steady_samples", (double)r->steady) &&
	          cJSON_AddNumberToObject(o, "dropped", (double)dropped) &&
	          cJSON_AddNumberToObject(o, "checks_passed", (double)checks_passed);
	if (ok && r->flops.n)
		ok = cJSON_AddNumberToObject(o, "flops_median", r->flops.median) &&
		     cJSON_AddNumberToObject(o, "flops_max", r->flops.max) &&
		     cJSON_AddNumberToObject(o, "flops_min", r->flops.min) &&
		     cJSON_AddNumberToObject(o, "flops_mean", r->flops.mean) &&
		     cJSON_AddNumberToObject(o, "flops_std", r->flops.std) &&
		     cJSON_AddNumberToObject(o, "flops_ci95", r->flops.ci95);
	if (ok && !isnan(r->ratio_median))
		ok = cJSON_AddNumberToObject(o, "gpu_cpu_ratio_median", r->ratio_median);
	if (ok && !isnan(r->pct_peak))
		ok = cJSON_AddNumberToObject(o, "pct_of_peak_median", r->pct_peak) != NULL;
	if (ok && !isnan(r->duty))
		ok = cJSON_AddNumberToObject(o, "duty_cycle", r->duty) != NULL;
	if (ok)
		ok = cJSON_AddNumberToObject(o, "implausible", (double)r->implausible) != NULL;
	if (ok && r->gaps)
		ok = cJSON_AddNumberToObject(o, "stops", (double)r->gaps) &&
		     cJSON_AddNumberToObject(o, "stopped_ms", r->gap_ms);
	if (ok && !isnan(r->plateau_ms))
		ok = cJSON_AddNumberToObject(o, "time_to_plateau_ms", r->plateau_ms) &&
		     cJSON_AddNumberToObject(o, "plateau_flops", r->plateau_flops);
	cJSON *sz = ok && r->nsizes ? cJSON_AddArrayToObject(o, "sizes") : NULL;
	for (size_t k = 0; sz && k < r->nsizes; k++) {
		cJSON *row = cJSON_CreateObject();
		if (!row || !cJSON_AddItemToArray(sz, row) ||
		    !cJSON_AddNumberToObject(row, "size", (double)r->sizes[k].size) ||
		    !cJSON_AddNumberToObject(row, "median", r->sizes[k].median) ||
		    !cJSON_AddNumberToObject(row, "max", r->sizes[k].max) ||
		    !cJSON_AddNumberToObject(row, "min", r->sizes[k].min) ||
		    !cJSON_AddNumberToObject(row, "samples", (double)r->sizes[k].n))
			ok = false;
	}
	cJSON *arr = ok ? cJSON_AddArrayToObject(o, "jumps") : NULL;
	for (size_t i = 0; arr && i < r->njumps; i++) {
		cJSON *j = record_jump_json(&r->jumps[i], i);
		if (!j || !cJSON_AddItemToArray(arr, j))
			ok = false;
	}
	char *text = ok ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (!text)
		return false;
	fprintf(f, "%s\n", text);
	cJSON_free(text);
	return true;
}
