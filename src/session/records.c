#include "records.h"
#include "version.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <time.h>
#include <stdio.h>

#include "throttle.h"

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

bool json_line(FILE *f, cJSON *o)
{
	char *text = o ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	if (!text)
		return false;
	bool ok = fprintf(f, "%s\n", text) >= 0;
	cJSON_free(text);
	return ok;
}

cJSON *record_mark_obj(const char *type, double t_ms, double gap_ms)
{
	cJSON *o = cJSON_CreateObject();
	if (o && cJSON_AddStringToObject(o, "type", type) && (!isfinite(t_ms) || add_exact(o, "t_ms", t_ms)) &&
	    (!isfinite(gap_ms) || add_exact(o, "gap_ms", gap_ms)))
		return o;
	cJSON_Delete(o);
	return NULL;
}

cJSON *record_processes(const ProcTable *t)
{
	if (t->foreign)
		return NULL;
	cJSON *a = cJSON_CreateArray();
	for (unsigned k = 0; a && k < t->n && k < PROCS_SHOWN; k++) {
		const ProcInfo *p = &t->p[k];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(a, o)) {
			cJSON_Delete(o);
			cJSON_Delete(a);
			return NULL;
		}
		bool ok = cJSON_AddNumberToObject(o, "pid", p->pid) &&
		          cJSON_AddStringToObject(o, "name", p->name) && cJSON_AddStringToObject(o, "user", p->user) &&
		          cJSON_AddStringToObject(o, "type", p->kind ? procs_kind_names[p->kind] : "unknown") &&
		          (!isfinite(p->mem_bytes) || cJSON_AddNumberToObject(o, "memory_bytes", p->mem_bytes)) &&
		          (!isfinite(p->sm_pct) || cJSON_AddNumberToObject(o, "util_pct", p->sm_pct)) &&
		          cJSON_AddStringToObject(o, "command", p->cmd);
		if (!ok) {
			cJSON_Delete(a); /* o with it */
			return NULL;
		}
	}
	return a;
}

void record_processes_csv(const ProcTable *t, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (unsigned k = 0; !t->foreign && k < t->n && k < PROCS_SHOWN && n < len; k++) {
		const ProcInfo *p = &t->p[k];
		char mem[32] = "-", util[16] = "-";
		if (isfinite(p->mem_bytes))
			snprintf(mem, sizeof mem, "%.0f", p->mem_bytes);
		if (isfinite(p->sm_pct))
			snprintf(util, sizeof util, "%.0f", p->sm_pct);
		int w = snprintf(out + n, len - n, "%s%u %s %s %s %s %s", k ? "; " : "", p->pid, p->name[0] ? p->name : "-",
		                 p->user[0] ? p->user : "-", p->kind ? procs_kind_names[p->kind] : "unknown", mem, util);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

cJSON *record_sample_obj(const Sample *s, unsigned dev)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	bool ok = (!dev || cJSON_AddNumberToObject(o, "dev", dev)) &&
	          cJSON_AddStringToObject(o, "type", "sample") &&
	          cJSON_AddNumberToObject(o, "seq", (double)s->seq) &&
	          add_exact(o, "t_ms", s->t_ms) &&
	          cJSON_AddNumberToObject(o, "x", s->x) &&
	          cJSON_AddNumberToObject(o, "y", s->y) &&
	          cJSON_AddNumberToObject(o, "z", s->z) &&
	          cJSON_AddNumberToObject(o, "groups", (double)s->groups) &&
	          cJSON_AddNumberToObject(o, "work", (double)s->work) &&
	          cJSON_AddNumberToObject(o, "gpu_ns", (double)s->gpu_ns) &&
	          cJSON_AddNumberToObject(o, "cpu_ns", (double)s->cpu_ns) &&
	          cJSON_AddNumberToObject(o, "gpu_end_ns", (double)s->gpu_end_ns) &&
	          cJSON_AddBoolToObject(o, "pipelined", s->flags & SAMPLE_PIPELINED) &&
	          add_exact(o, "rate", s->rate) &&
	          cJSON_AddBoolToObject(o, "gpu_timed", s->flags & SAMPLE_GPU_TIMED) &&
	          cJSON_AddBoolToObject(o, "steady", s->flags & SAMPLE_STEADY) &&
	          cJSON_AddBoolToObject(o, "verified", s->flags & SAMPLE_VERIFIED);
	for (int i = 0; ok && i < SAMPLE_TEL_COUNT; i++)
		if (sample_has_tel(s, (TelField)i))
			ok = add_exact(o, tel_info[i].key, s->tel[i]);
	if (ok && s->peak_flops > 0)
		ok = add_exact(o, "peak_rate", s->peak_flops);
	if (ok && s->peak_max_flops > 0)
		ok = add_exact(o, "peak_max_rate", s->peak_max_flops);
	if (ok && (s->flags & SAMPLE_IMPLAUSIBLE))
		ok = cJSON_AddBoolToObject(o, "implausible", 1) != NULL;
	/* every record names its units: "work" and "rate" are in them (FLOP
	 * and FLOPS, operations and IOPS, bytes and B/s); format 1 called them
	 * "flop" and "flops" whatever the unit, which the readers still take */
	if (ok)
		ok = cJSON_AddStringToObject(o, "unit", sample_unit(s)) &&
		     cJSON_AddStringToObject(o, "work_unit", sample_work_unit(s)) &&
		     cJSON_AddStringToObject(o, "groups_unit", sample_groups_unit(s));
	if (ok && s->trials > 1)
		ok = cJSON_AddNumberToObject(o, "trials", s->trials) != NULL;
	if (ok && s->size)
		ok = cJSON_AddNumberToObject(o, "size", (double)s->size) != NULL;
	if (ok && s->target_ms > 0)
		ok = cJSON_AddNumberToObject(o, "target_ms", s->target_ms) != NULL;
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *record_sample_procs(const Sample *s, unsigned dev, const ProcTable *t)
{
	cJSON *o = record_sample_obj(s, dev);
	if (!o || !t || t->foreign || !t->n || !sample_has_tel(s, TEL_OTHER_GPU) || !(s->tel[TEL_OTHER_GPU] > 0))
		return o;
	cJSON *a = record_processes(t);
	if (!a || !cJSON_AddItemToObject(o, "processes", a)) {
		cJSON_Delete(a);
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static bool add_num_or_null(cJSON *o, const char *k, double v)
{
	return isfinite(v) ? cJSON_AddNumberToObject(o, k, v) != NULL : cJSON_AddNullToObject(o, k) != NULL;
}

/* A change's or excursion's parts: {"clock": 0.947, "other_gpu": 0.327,
 * "other_cpu": null, "unexplained": null}, null where not a part. */
static bool add_shares(cJSON *o, const double share[SHARE_COUNT])
{
	cJSON *s = cJSON_AddObjectToObject(o, "shares");
	for (int k = 0; s && k < SHARE_COUNT; k++)
		if (!add_num_or_null(s, change_share_keys[k], share[k]))
			return false;
	return s != NULL;
}

/* the table's reasons among bits, by key, as an array */
static bool add_reason_keys(cJSON *o, const char *k, uint64_t bits)
{
	cJSON *a = cJSON_AddArrayToObject(o, k);
	for (size_t i = 0; a && i < throttle_reason_count; i++)
		if ((bits & throttle_reasons[i].bit) && !cJSON_AddItemToArray(a, cJSON_CreateString(throttle_reasons[i].key)))
			return false;
	return a != NULL;
}

cJSON *record_event_json(const TelEvent *e, const char *unit)
{
	cJSON *o = cJSON_CreateObject();
	char why[400];
	televent_format(e, unit, why, sizeof why);
	double ratio = e->rate_before > 0 ? e->rate_after / e->rate_before : NAN;
	if (!o || !cJSON_AddStringToObject(o, "type", "event") || !cJSON_AddNumberToObject(o, "t_ms", e->t_ms) ||
	    !add_reason_keys(o, "on", e->on) || !add_reason_keys(o, "off", e->off) ||
	    !add_num_or_null(o, "clock_before_mhz", e->mhz_before) || !add_num_or_null(o, "clock_after_mhz", e->mhz_after) ||
	    !add_num_or_null(o, "before", e->rate_before) || !add_num_or_null(o, "after", e->rate_after) ||
	    !add_num_or_null(o, "ratio", ratio) || !cJSON_AddStringToObject(o, "unit", unit) ||
	    !cJSON_AddStringToObject(o, "why", why)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *record_change_json(const Change *c, size_t index, const char *unit)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	bool ok = cJSON_AddStringToObject(o, "type", "change") &&
	          cJSON_AddNumberToObject(o, "index", (double)index) &&
	          cJSON_AddStringToObject(o, "kind", change_kind_names[c->kind]) &&
	          cJSON_AddStringToObject(o, "cause", change_cause_keys[c->cause]) &&
	          cJSON_AddStringToObject(o, "why", c->why) &&
	          cJSON_AddNumberToObject(o, "t_ms", c->t_ms) &&
	          cJSON_AddNumberToObject(o, "t_end_ms", c->t_end_ms) &&
	          cJSON_AddNumberToObject(o, "before", c->before) &&
	          cJSON_AddNumberToObject(o, "after", c->after) &&
	          cJSON_AddNumberToObject(o, "ratio", c->ratio) &&
	          cJSON_AddStringToObject(o, "unit", unit) &&
	          cJSON_AddNumberToObject(o, "samples", c->samples) &&
	          cJSON_AddBoolToObject(o, "held_to_end", c->at_end) &&
	          add_num_or_null(o, "clock_before_mhz", c->tel_before[TEL_SM_MHZ]) &&
	          add_num_or_null(o, "clock_after_mhz", c->tel_after[TEL_SM_MHZ]) &&
	          add_num_or_null(o, "other_cpu_before_pct", c->tel_before[TEL_OTHER_CPU]) &&
	          add_num_or_null(o, "other_cpu_after_pct", c->tel_after[TEL_OTHER_CPU]) &&
	          add_num_or_null(o, "other_gpu_before", c->tel_before[TEL_OTHER_GPU]) &&
	          add_num_or_null(o, "other_gpu_after", c->tel_after[TEL_OTHER_GPU]) && add_shares(o, c->share);
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *record_excursion_json(const Excursion *e, const char *unit)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	bool ok = cJSON_AddStringToObject(o, "type", "excursion") &&
	          cJSON_AddNumberToObject(o, "t_ms", e->t_ms) &&
	          cJSON_AddNumberToObject(o, "t_end_ms", e->t_end_ms) &&
	          cJSON_AddNumberToObject(o, "samples", e->samples) &&
	          cJSON_AddNumberToObject(o, "level", e->level) &&
	          cJSON_AddNumberToObject(o, "depth", e->depth) &&
	          cJSON_AddStringToObject(o, "cause", change_cause_keys[e->cause]) &&
	          cJSON_AddStringToObject(o, "why", e->why) &&
	          cJSON_AddStringToObject(o, "unit", unit) && add_shares(o, e->share);
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

bool record_change_counts(cJSON *o, const ChangeDetector *d)
{
	return cJSON_AddNumberToObject(o, "changes", (double)d->nchanges) &&
	       cJSON_AddNumberToObject(o, "power_state", (double)d->by_cause[CAUSE_POWER_STATE]) &&
	       cJSON_AddNumberToObject(o, "not_power_state", (double)d->by_cause[CAUSE_NOT_POWER_STATE]) &&
	       cJSON_AddNumberToObject(o, "unexplained", (double)d->by_cause[CAUSE_UNEXPLAINED]) &&
	       cJSON_AddNumberToObject(o, "excursions", (double)d->nexc) &&
	       cJSON_AddNumberToObject(o, "excursion_ms", d->exc_ms);
}

bool record_energy(cJSON *o, const Energy *e)
{
	bool known = energy_known(e);
	bool ok = add_num_or_null(o, "energy_j", known ? e->joules : NAN) &&
	          add_num_or_null(o, "energy_s", known ? e->seconds : NAN) &&
	          add_num_or_null(o, "power_mean_w", energy_mean_w(e)) &&
	          add_num_or_null(o, "power_max_w", known ? e->max_w : NAN) &&
	          add_num_or_null(o, TEL_KEY_POWER_LIMIT_W, e->limit_w > 0 ? e->limit_w : NAN) &&
	          add_num_or_null(o, "work_per_joule", energy_per_joule(e)) &&
	          (!known || cJSON_AddStringToObject(o, "energy_source", e->counter ? "counter" : "readings"));
	if (!ok)
		return false;
	/* the driver's counts: null where it keeps none */
	bool counted = false;
	for (size_t v = 0; v < ENERGY_VIOLATIONS; v++)
		counted |= !isnan(energy_violation_s(e, (EnergyViolation)v));
	cJSON *vs = counted ? cJSON_AddObjectToObject(o, "violation_s") : cJSON_AddNullToObject(o, "violation_s");
	for (size_t v = 0; counted && vs && v < ENERGY_VIOLATIONS; v++)
		if (!add_num_or_null(vs, energy_violation_keys[v], energy_violation_s(e, (EnergyViolation)v)))
			return false;
	if (!vs)
		return false;
	if (!e->reasons)
		return cJSON_AddNullToObject(o, "clock_reduced_s") != NULL;
	cJSON *rs = cJSON_AddObjectToObject(o, "clock_reduced_s");
	for (size_t k = 0; rs && k < throttle_reason_count && k < SUMMARY_REASONS; k++)
		if (!cJSON_AddNumberToObject(rs, throttle_reasons[k].key, e->reason_s[k]))
			return false;
	return rs != NULL;
}

bool record_causes(cJSON *o, const Causes *cs)
{
	cJSON *a = cJSON_AddArrayToObject(o, "causes");
	for (size_t k = 0; a && k < cs->n; k++) {
		const Cause *c = &cs->c[k];
		const VerdictCauseInfo *row = &verdict_causes[c->code];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x))
			return cJSON_Delete(x), false;
		cJSON *f = cJSON_AddStringToObject(x, "code", row->code) &&
		           cJSON_AddStringToObject(x, "severity", severity_names[row->sev]) ?
		           cJSON_AddObjectToObject(x, "figures") : NULL;
		if (!f)
			return false;
		for (size_t i = 0; i < VC_FIGURES && row->fig[i]; i++)
			if (!add_num_or_null(f, row->fig[i], c->fig[i]))
				return false;
		if (!cJSON_AddStringToObject(x, "action", row->action) || !cJSON_AddStringToObject(x, "text", c->text))
			return false;
	}
	return a != NULL;
}

bool record_summary_json(FILE *f, const SummaryResult *r, size_t dropped, uint64_t checks_passed)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return false;
	/* when, and the contract: a script reads this record alone (tail -1) */
	bool ok = cJSON_AddStringToObject(o, "type", "summary") && record_utc(o) && record_stamp(o) &&
	          cJSON_AddNumberToObject(o, "samples", (double)r->samples) &&
	          cJSON_AddNumberToObject(o, "steady_samples", (double)r->steady) &&
	          cJSON_AddNumberToObject(o, "dropped", (double)dropped) &&
	          cJSON_AddNumberToObject(o, "checks_passed", (double)checks_passed);
	if (ok && r->flops.n)
		ok = cJSON_AddNumberToObject(o, "rate_median", r->flops.median) &&
		     cJSON_AddNumberToObject(o, "rate_max", r->flops.max) &&
		     cJSON_AddNumberToObject(o, "rate_min", r->flops.min) &&
		     cJSON_AddNumberToObject(o, "rate_mean", r->flops.mean) &&
		     cJSON_AddNumberToObject(o, "rate_std", r->flops.std) &&
		     cJSON_AddNumberToObject(o, "rate_ci95", r->flops.ci95);
	if (ok && !isnan(r->ratio_median))
		ok = cJSON_AddNumberToObject(o, "gpu_cpu_ratio_median", r->ratio_median);
	if (ok && !isnan(r->pct_peak))
		ok = cJSON_AddNumberToObject(o, "pct_of_peak_median", r->pct_peak) != NULL;
	if (ok && !isnan(r->pct_peak_max))
		ok = cJSON_AddNumberToObject(o, "pct_of_rated_peak_median", r->pct_peak_max) != NULL;
	if (ok && !isnan(r->duty))
		ok = cJSON_AddNumberToObject(o, "duty_cycle", r->duty) != NULL;
	if (ok)
		ok = cJSON_AddNumberToObject(o, "implausible_samples", (double)r->implausible) != NULL;
	if (ok && r->gaps)
		ok = cJSON_AddNumberToObject(o, "stops", (double)r->gaps) &&
		     cJSON_AddNumberToObject(o, "stopped_ms", r->gap_ms);
	if (ok && !isnan(r->plateau_ms))
		ok = cJSON_AddNumberToObject(o, "time_to_plateau_ms", r->plateau_ms) &&
		     cJSON_AddNumberToObject(o, "plateau_rate", r->plateau_flops);
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
	if (ok)
		ok = record_change_counts(o, &r->changes) &&
		     cJSON_AddNumberToObject(o, "segments", (double)r->segments) &&
		     cJSON_AddStringToObject(o, "unit", r->unit ? r->unit : "FLOPS");
	if (ok && r->target_lo > 0)
		ok = cJSON_AddNumberToObject(o, "target_lo_ms", r->target_lo) &&
		     cJSON_AddNumberToObject(o, "target_hi_ms", r->target_hi);
	if (ok)
		ok = record_energy(o, &r->energy);
	/* each change is its own record in the log; the summary lists the kept ones */
	cJSON *arr = ok ? cJSON_AddArrayToObject(o, "change_list") : NULL;
	for (size_t i = change_kept(&r->changes); arr && i-- > 0;) {
		cJSON *j = record_change_json(change_get(&r->changes, i), r->changes.nchanges - 1 - i, r->unit);
		if (!j || !cJSON_AddItemToArray(arr, j))
			ok = false;
	}
	/* the telemetry's events: how many, the first kept ones */
	ok = ok && cJSON_AddNumberToObject(o, "events", (double)r->events.total);
	cJSON *ev = ok ? cJSON_AddArrayToObject(o, "event_list") : NULL;
	for (size_t i = 0; ev && i < r->events.n; i++) {
		cJSON *j = record_event_json(&r->events.ev[i], r->unit ? r->unit : "FLOPS");
		if (!j || !cJSON_AddItemToArray(ev, j))
			ok = false;
	}
	if (!ok) {
		cJSON_Delete(o);
		return false;
	}
	return json_line(f, o);
}

bool record_utc(cJSON *o)
{
	struct timespec ts;
	struct tm tm;
	char at[40] = "";
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0 && gmtime_r(&ts.tv_sec, &tm)) {
		size_t n = strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(at + n, sizeof at - n, ".%03ldZ", ts.tv_nsec / 1000000);
	}
	if (!at[0]) /* no wall clock: the record goes without */
		return o != NULL;
	return o && cJSON_AddStringToObject(o, "utc", at);
}

bool record_stamp(cJSON *o)
{
	return o && cJSON_AddStringToObject(o, "flopscope", FLOPSCOPE_VERSION) &&
	       cJSON_AddNumberToObject(o, "schema", FLOPSCOPE_SCHEMA_VERSION);
}
