#include "report.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "memwork.h"

const char report_table_header[] =
	" Measurement        Number of         Computation     Performance       CPU\n"
	"  time stamp     local workgroups         time                          time\n";

const char report_csv_header[] =
	"seq,t_ms,x,y,z,groups,flop,gpu_ns,cpu_ns,flops,gpu_timed,steady,verified,"
	"sm_mhz,power_w,peak_flops,implausible\n";

static void with_unit(double v, const char *unit, char *out, size_t len)
{
	char n[FMT_SI_LEN];
	fmt_si(v, n, sizeof n);
	snprintf(out, len, "%s%s", n, unit);
}

void report_table_row(const Sample *s, char *buf, size_t len)
{
	char t[40], f[40], c[40];
	with_unit(sample_time_s(s), "s", t, sizeof t);
	with_unit(s->flops, sample_unit(s), f, sizeof f);
	with_unit((double)s->cpu_ns * 1e-9, "s", c, sizeof c);
	snprintf(buf, len, "%9.2fms %16" PRIu64 " %20s %18s %13s", s->t_ms, s->groups, t, f, c);
}

void report_csv_row(const Sample *s, char *buf, size_t len)
{
	char mhz[32] = "", pw[32] = "", pk[32] = "";
	if (s->tel_valid & 1u)
		snprintf(mhz, sizeof mhz, "%.0f", s->tel[0]);
	if (s->tel_valid & 4u)
		snprintf(pw, sizeof pw, "%.1f", s->tel[2]);
	if (s->peak_flops > 0)
		snprintf(pk, sizeof pk, "%.6g", s->peak_flops);
	snprintf(buf, len, "%" PRIu64 ",%.3f,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	         ",%.9g,%d,%d,%d,%s,%s,%s,%d", s->seq, s->t_ms, s->x, s->y, s->z, s->groups, s->flop,
	         s->gpu_ns, s->cpu_ns, s->flops, !!(s->flags & SAMPLE_GPU_TIMED),
	         !!(s->flags & SAMPLE_STEADY), !!(s->flags & SAMPLE_VERIFIED), mhz, pw, pk,
	         !!(s->flags & SAMPLE_IMPLAUSIBLE));
}

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

bool report_json_row(const Sample *s, char *buf, size_t len)
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
	          cJSON_AddNumberToObject(o, "flop", (double)s->flop) &&
	          cJSON_AddNumberToObject(o, "gpu_ns", (double)s->gpu_ns) &&
	          cJSON_AddNumberToObject(o, "cpu_ns", (double)s->cpu_ns) &&
	          cJSON_AddNumberToObject(o, "gpu_end_ns", (double)s->gpu_end_ns) &&
	          cJSON_AddBoolToObject(o, "pipelined", s->flags & SAMPLE_PIPELINED) &&
	          add_exact(o, "flops", s->flops) &&
	          cJSON_AddBoolToObject(o, "gpu_timed", s->flags & SAMPLE_GPU_TIMED) &&
	          cJSON_AddBoolToObject(o, "steady", s->flags & SAMPLE_STEADY) &&
	          cJSON_AddBoolToObject(o, "verified", s->flags & SAMPLE_VERIFIED);
	for (int i = 0; ok && i < SAMPLE_TEL_COUNT; i++)
		if (s->tel_valid & (1u << i))
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

cJSON *report_jump_json(const Jump *j, size_t index)
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

void summary_init(Summary *s)
{
	memset(s, 0, sizeof *s);
	s->stride = s->rstride = 1;
	jump_init(&s->jumps);
}

static void push(double **arr, size_t *cap, size_t n, double v, bool *oom)
{
	if (n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		double *g = realloc(*arr, nc * sizeof *g);
		if (!g) {
			*oom = true;
			return;
		}
		*arr = g;
		*cap = nc;
	}
	(*arr)[n] = v;
}

void summary_add(Summary *s, const Sample *x)
{
	s->samples++;
	s->unit_flags |= x->flags & (SAMPLE_INTEGER | SAMPLE_BYTES);
	if (x->flags & SAMPLE_VERIFIED)
		s->verified++;
	if (x->flags & SAMPLE_IMPLAUSIBLE) {
		s->implausible++;
		return;
	}
	if ((x->flags & SAMPLE_STEADY) && (x->flags & SAMPLE_GPU_TIMED) && x->gpu_end_ns) {
		/* on the device's own clock, from the end of the first steady
		 * dispatch (its GPU time lies before) to the end of the last */
		if (s->duty_n++ == 0)
			s->duty_first_ms = (double)x->gpu_end_ns * 1e-6;
		else /* per dispatch: a submission of N trials ran N of them */
			s->duty_gpu_ns += (double)x->gpu_ns * sample_trials(x);
		s->duty_last_ms = (double)x->gpu_end_ns * 1e-6;
	}
	if ((x->flags & SAMPLE_STEADY) && x->size) {
		/* a transfer sweep: each size on its own; no jumps across sizes */
		size_t k = 0;
		while (k < s->nsizes && s->size_of[k] != x->size)
			k++;
		if (k == s->nsizes && k < SUMMARY_SIZES) {
			s->size_of[k] = x->size;
			s->nsizes++;
		}
		if (k < s->nsizes && s->size_n[k] < SUMMARY_SIZE_CAP) {
			if (!s->size_vals[k] && !(s->size_vals[k] = malloc(SUMMARY_SIZE_CAP * sizeof(double))))
				s->oom = true;
			else
				s->size_vals[k][s->size_n[k]++] = x->flops;
		}
	}
	if (x->flags & SAMPLE_STEADY) {
		s->steady_total++;
		if (!x->size)
			jump_add(&s->jumps, x->t_ms, x->flops);
		if (s->skip + 1 < s->stride) {
			s->skip++;
		} else {
			s->skip = 0;
			if (s->steady == SUMMARY_CAP) {
				double *arr[] = { s->steady_mhz, s->peak, s->steady_flops, s->steady_t };
				for (size_t a = 0; a < 4; a++)
					for (size_t i = 0; i < SUMMARY_CAP / 2; i++)
						arr[a][i] = arr[a][2 * i];
				s->steady /= 2;
				s->stride *= 2;
			}
			push(&s->steady_mhz, &s->cap_mhz, s->steady, (x->tel_valid & 1u) ? x->tel[0] : NAN, &s->oom);
			push(&s->peak, &s->cap_peak, s->steady, x->peak_flops > 0 ? x->flops / x->peak_flops : NAN, &s->oom);
			push(&s->steady_flops, &s->cap_flops, s->steady, x->flops, &s->oom);
			push(&s->steady_t, &s->cap_t, s->steady, x->t_ms, &s->oom);
			if (!s->oom)
				s->steady++;
		}
	}
	if ((x->flags & SAMPLE_GPU_TIMED) && x->cpu_ns > 0) {
		if (s->rskip + 1 < s->rstride) {
			s->rskip++;
		} else {
			s->rskip = 0;
			if (s->gpu_timed == SUMMARY_CAP) {
				for (size_t i = 0; i < SUMMARY_CAP / 2; i++)
					s->ratio[i] = s->ratio[2 * i];
				s->gpu_timed /= 2;
				s->rstride *= 2;
			}
			push(&s->ratio, &s->cap_ratio, s->gpu_timed, (double)x->gpu_ns / (double)x->cpu_ns, &s->oom);
			if (!s->oom)
				s->gpu_timed++;
		}
	}
}

void summary_done(Summary *s)
{
	free(s->steady_flops);
	free(s->steady_t);
	free(s->steady_mhz);
	free(s->peak);
	free(s->ratio);
	for (size_t k = 0; k < SUMMARY_SIZES; k++)
		free(s->size_vals[k]);
	memset(s, 0, sizeof *s);
}

void summary_result(const Summary *s, SummaryResult *r)
{
	memset(r, 0, sizeof *r);
	r->duty = NAN;
	r->samples = s->samples;
	r->unit = sample_flags_unit(s->unit_flags);
	r->steady = s->steady_total;
	r->steady_kept = s->steady;
	r->gpu_timed = s->gpu_timed;
	r->verified = s->verified;
	stats_compute(s->steady_flops, s->steady, &r->flops);
	r->njumps = s->jumps.njumps;
	memcpy(r->jumps, s->jumps.jumps, r->njumps * sizeof *r->jumps);
	r->implausible = s->implausible;
	for (size_t k = 0; k < s->nsizes; k++) {
		Stats st;
		SizeRow *row = &r->sizes[r->nsizes];
		if (!stats_compute(s->size_vals[k], s->size_n[k], &st))
			continue;
		*row = (SizeRow){ s->size_of[k], st.n, st.median, st.max, st.min };
		r->nsizes++;
	}
	double span_ms = s->duty_last_ms - s->duty_first_ms;
	r->duty = s->duty_n >= 3 && span_ms > 0 ? s->duty_gpu_ns * 1e-6 / span_ms : NAN;
	Stats ps;
	r->pct_peak = stats_compute(s->peak, s->steady, &ps) ? 100 * ps.median : NAN;
	/* clocks around each jump: medians of 5 steady samples either side */
	for (size_t j = 0; j < r->njumps && j < JUMP_MAX; j++) {
		double a[5], b[5];
		size_t na = 0, nb = 0;
		for (size_t i = 0; i < s->steady; i++) {
			if (s->steady_t[i] < s->jumps.jumps[j].t_ms)
				a[na++ % 5] = s->steady_mhz[i];
			else if (nb < 5)
				b[nb++] = s->steady_mhz[i];
		}
		Stats sa, sb;
		r->clk_before[j] = stats_compute(a, na < 5 ? na : 5, &sa) ? sa.median : NAN;
		r->clk_after[j] = stats_compute(b, nb, &sb) ? sb.median : NAN;
	}
	r->plateau_ms = jump_time_to_plateau(s->steady_t, s->steady_flops, s->steady, &r->plateau_flops);
	if (s->nsizes > 1) /* a sweep: levels differ by size, not by power state */
		r->plateau_ms = r->duty = NAN;
	r->ratio_median = NAN;
	if (s->gpu_timed) {
		Stats st;
		if (stats_compute(s->ratio, s->gpu_timed, &st))
			r->ratio_median = st.median;
	}
}

void report_summary_text(FILE *f, const SummaryResult *r, size_t dropped,
                         uint64_t checks_passed, double target_ms)
{
	fprintf(f, "\nSummary: %zu samples, %zu at the %.3g ms target, %zu dropped, "
	        "%" PRIu64 " result checks passed\n", r->samples, r->steady, target_ms, dropped,
	        checks_passed);
	if (r->steady_kept < r->steady)
		fprintf(f, "  statistics over %zu of them, evenly spread (memory stays fixed)\n", r->steady_kept);
	if (r->nsizes) {
		fprintf(f, "  %12s %14s %14s %14s %8s\n", "size", "median", "max", "min", "samples");
		for (size_t k = 0; k < r->nsizes; k++) {
			char sz[32], a[FMT_SI_LEN], b[FMT_SI_LEN], c[FMT_SI_LEN];
			const SizeRow *w = &r->sizes[k];
			fprintf(f, "  %12s %10s%-4s %10s%-4s %10s%-4s %8zu\n", mem_size_str(w->size, sz, sizeof sz),
			        fmt_si(w->median, a, sizeof a), r->unit, fmt_si(w->max, b, sizeof b), r->unit,
			        fmt_si(w->min, c, sizeof c), r->unit, w->n);
		}
	}
	if (r->flops.n && r->nsizes > 1) {
		fprintf(f, "  (%zu sizes: statistics by size above; none over all of them)\n", r->nsizes);
	} else if (r->flops.n) {
		char med[FMT_SI_LEN], max[FMT_SI_LEN], min[FMT_SI_LEN], mean[FMT_SI_LEN], ci[FMT_SI_LEN];
		fmt_si(r->flops.median, med, sizeof med);
		fmt_si(r->flops.max, max, sizeof max);
		fmt_si(r->flops.min, min, sizeof min);
		fmt_si(r->flops.mean, mean, sizeof mean);
		fmt_si(r->flops.ci95, ci, sizeof ci);
		const char *u = r->unit;
		fprintf(f, "  %s at target: median %s%s, max %s%s, min %s%s\n", u, med, u, max, u, min, u);
		fprintf(f, "                   mean %s%s +- %s%s (95%% CI), std %.2f%%\n", mean, u, ci, u,
		        r->flops.mean > 0 ? 100.0 * r->flops.std / r->flops.mean : 0.0);
	} else {
		fprintf(f, "  no sample reached the target time: run longer (--duration)\n");
	}
	for (size_t i = 0; i < r->njumps; i++) {
		char line[160];
		jump_format(&r->jumps[i], r->unit, line, sizeof line);
		fprintf(f, "  %s", line);
		if (i < JUMP_MAX && !isnan(r->clk_before[i]) && !isnan(r->clk_after[i]) &&
		    fabs(r->clk_after[i] / r->clk_before[i] - 1) > 0.03)
			fprintf(f, "  (clock %.0f -> %.0f MHz)", r->clk_before[i], r->clk_after[i]);
		fputc('\n', f);
	}
	if (!isnan(r->duty))
		fprintf(f, "  duty cycle: %.2f%% (GPU time / device timeline at the target)\n", 100 * r->duty);
	if (!isnan(r->pct_peak))
		fprintf(f, "  %% of theoretical peak (at each sample's clock): median %.1f%%\n", r->pct_peak);
	if (r->implausible)
		fprintf(f, "  %zu sample%s above 105%% of the theoretical peak: flagged implausible, "
		        "left out of the statistics\n", r->implausible, r->implausible == 1 ? "" : "s");
	if (!isnan(r->plateau_ms)) {
		char lv[FMT_SI_LEN];
		fprintf(f, "  time to plateau: %.1f ms (held within 3%% of %s%s)\n", r->plateau_ms,
		        fmt_si(r->plateau_flops, lv, sizeof lv), r->unit);
	}
	if (!isnan(r->ratio_median))
		fprintf(f, "  GPU/CPU time: median %.4f (GPU timestamps drive the loop)\n", r->ratio_median);
	else
		fprintf(f, "  GPU/CPU time: no GPU timestamps on this queue; CPU wall time drives the loop\n");
}

bool report_summary_json(FILE *f, const SummaryResult *r, size_t dropped, uint64_t checks_passed)
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
		cJSON *j = report_jump_json(&r->jumps[i], i);
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
