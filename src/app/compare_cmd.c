/* compare_cmd: --compare A B: two recorded sessions, a verdict and an overlay. */
#include "offline.h"
#include "version.h"
#include "columns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "fmt.h"
#include "plot.h"

/* Both curves (the first session of each side) on one Braille plot, A
 * green and B magenta. */
static void overlay(const SessionData *a, const SessionData *b, const char *unit)
{
	enum { WC = 70, HC = 12 };
	PlotCanvas c;
	if (!plot_canvas_init(&c, WC, HC, true))
		return;
	const SessionData *sd[2] = { a, b };
	double tmax = 0, fmax = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sd[k]->n; i++) {
			if (sd[k]->samples[i].t_ms * 1e-3 > tmax) tmax = sd[k]->samples[i].t_ms * 1e-3;
			if (sd[k]->samples[i].rate > fmax) fmax = sd[k]->samples[i].rate;
		}
	PlotAxis ax = { 0, tmax > 0 ? tmax : 1, false }, ay = { 0, fmax > 0 ? fmax * 1.05 : 1, false };
	for (int k = 0; k < 2; k++) {
		double *x = malloc((sd[k]->n + 1) * sizeof *x), *y = malloc((sd[k]->n + 1) * sizeof *y);
		for (size_t i = 0; x && y && i < sd[k]->n; i++) {
			x[i] = sd[k]->samples[i].t_ms * 1e-3;
			y[i] = sd[k]->samples[i].rate;
		}
		if (x && y)
			plot_series(&c, &ax, &ay, x, y, sd[k]->n, k);
		free(x);
		free(y);
	}
	char lab[FMT_SI_LEN], cell[8];
	printf("\n%s over time: \033[32mA\033[0m, \033[35mB\033[0m\n", unit);
	for (int r = 0; r < HC; r++) {
		if (r == 0)
			printf("%8s%-5.5s|", fmt_si(ay.max, lab, sizeof lab), unit);
		else if (r == HC - 1)
			printf("%13s|", "0");
		else
			printf("%13s|", "");
		for (int col = 0; col < WC; col++) {
			plot_cell(&c, col, r, cell);
			int sid = c.series[(size_t)r * WC + col];
			printf("%s%s%s", sid == 1 ? "\033[32m" : sid == 2 ? "\033[35m" : "", cell, sid ? "\033[0m" : "");
		}
		putchar('\n');
	}
	printf("%14s0 s%*s%.1f s\n", "", WC - 8, "", ax.max);
	plot_canvas_done(&c);
}

static void side_json(cJSON *o, const char *key, const char *const *files, unsigned n, const SideStats *st)
{
	cJSON *s = cJSON_AddObjectToObject(o, key);
	cJSON *f = s ? cJSON_AddArrayToObject(s, "files") : NULL;
	for (unsigned i = 0; f && i < n; i++)
		cJSON_AddItemToArray(f, cJSON_CreateString(files[i]));
	if (!s)
		return;
	cJSON_AddNumberToObject(s, "sessions", (double)st->sessions);
	cJSON_AddNumberToObject(s, "blocks", (double)st->blocks);
	cJSON_AddNumberToObject(s, "samples", (double)st->samples);
	cJSON_AddNumberToObject(s, "median", st->median);
	cJSON_AddNumberToObject(s, "best", st->best);
	cJSON_AddNumberToObject(s, "best_p90", st->top);
	cJSON_AddNumberToObject(s, "spread", st->spread);
	cJSON_AddNumberToObject(s, "noise", st->noise);
}

static const char *const VERDICT[] = { "slower", "cannot_tell", "faster" };

/* --compare --format json: one record. */
static void compare_json(const Options *o, const OfflineBlocks *l, const char *unit, const CompareResult *rp,
                         bool failed)
{
	CompareResult r = *rp;
	unsigned na = o->ncompare_a, nb = o->ncompare_b;
	const char *method = r.sessions_method ? "welch_over_sessions" : "block_bootstrap";
	cJSON *j = cJSON_CreateObject();
	if (j) {
		cJSON_AddStringToObject(j, "type", "compare");
		cJSON_AddStringToObject(j, "workload", l[0].d.meta.workload);
		cJSON_AddStringToObject(j, "unit", unit);
		cJSON_AddStringToObject(j, "method", method);
		cJSON_AddNumberToObject(j, "block_ms", COMPARE_BLOCK_MS);
		side_json(j, "a", o->compare_a, na, &r.a);
		side_json(j, "b", o->compare_b, nb, &r.b);
		cJSON_AddNumberToObject(j, "ratio", r.ratio);
		record_stamp(j);
		if (isfinite(r.ratio_lo)) {
			cJSON_AddNumberToObject(j, "ratio_lo", r.ratio_lo);
			cJSON_AddNumberToObject(j, "ratio_hi", r.ratio_hi);
		}
		cJSON_AddNumberToObject(j, "best_ratio", r.best_ratio);
		cJSON_AddNumberToObject(j, "best_p90_ratio", r.top_ratio);
		cJSON_AddNumberToObject(j, "spread", r.spread);
		cJSON_AddNumberToObject(j, "noise", r.noise);
		cJSON_AddNumberToObject(j, "min_effect_pct", 100 * r.min_effect);
		cJSON_AddStringToObject(j, "verdict", VERDICT[r.verdict + 1]);
		cJSON_AddStringToObject(j, "why", r.why);
		if (o->fail_if_slower > 0) {
			cJSON_AddNumberToObject(j, "fail_if_slower_pct", o->fail_if_slower);
			cJSON_AddBoolToObject(j, "failed", failed);
		}
	}
	json_line(stdout, j);
}

#define C_(f) offsetof(CompareLine, f)
/* --compare --format csv: the JSON record's fields as one row, each side's
 * flattened (a_..., b_...; its files joined with ';', a ';' or '\' in a
 * name written '\;' or '\\') */
typedef struct CompareLine {
	const char *workload, *unit, *method, *a_files, *b_files, *verdict, *why, *version;
	double block_ms, a[7], b[7], ratio, ratio_lo, ratio_hi, best_ratio, top_ratio, spread, noise, min_effect,
	       fail_pct;
	const char *failed;
} CompareLine;
#define SIDE(s, k, name) { NULL, #s "_" name, COL_NUMBER, C_(s[k]), "%.6g" }
static const Column compare_cols[] = {
	{ NULL, "workload", COL_TEXT, C_(workload), NULL },
	{ NULL, "unit", COL_TEXT, C_(unit), NULL },
	{ NULL, "method", COL_TEXT, C_(method), NULL },
	{ NULL, "block_ms", COL_NUMBER, C_(block_ms), "%.0f" },
	{ NULL, "a_files", COL_QUOTED, C_(a_files), NULL },
	SIDE(a, 0, "sessions"), SIDE(a, 1, "blocks"), SIDE(a, 2, "samples"), SIDE(a, 3, "median"), SIDE(a, 4, "best"),
	SIDE(a, 5, "best_p90"), SIDE(a, 6, "spread"),
	{ NULL, "b_files", COL_QUOTED, C_(b_files), NULL },
	SIDE(b, 0, "sessions"), SIDE(b, 1, "blocks"), SIDE(b, 2, "samples"), SIDE(b, 3, "median"), SIDE(b, 4, "best"),
	SIDE(b, 5, "best_p90"), SIDE(b, 6, "spread"),
	{ NULL, "ratio", COL_NUMBER, C_(ratio), "%.6g" },
	{ NULL, "ratio_lo", COL_NUMBER, C_(ratio_lo), "%.6g" },
	{ NULL, "ratio_hi", COL_NUMBER, C_(ratio_hi), "%.6g" },
	{ NULL, "best_ratio", COL_NUMBER, C_(best_ratio), "%.6g" },
	{ NULL, "best_p90_ratio", COL_NUMBER, C_(top_ratio), "%.6g" },
	{ NULL, "spread", COL_NUMBER, C_(spread), "%.6g" },
	{ NULL, "noise", COL_NUMBER, C_(noise), "%.6g" },
	{ NULL, "min_effect_pct", COL_NUMBER, C_(min_effect), "%.4g" },
	{ NULL, "verdict", COL_TEXT, C_(verdict), NULL },
	{ NULL, "why", COL_QUOTED, C_(why), NULL },
	{ NULL, "fail_if_slower_pct", COL_NUMBER, C_(fail_pct), "%.4g" },
	{ NULL, "failed", COL_TEXT, C_(failed), NULL },
	{ NULL, "flopscope", COL_TEXT, C_(version), NULL },
};
#undef SIDE
#undef C_

/* A side's files, joined with ';': a ';' or '\' in a name escaped with
 * '\' ("x;y.jsonl" read as two files); a name that does not fit whole is
 * left out, never cut. */
static const char *joined(const char *const *files, unsigned n, char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		size_t need = (i ? 1 : 0) + strlen(files[i]) * 2 + 1;
		if (at + need > len)
			break;
		if (i)
			out[at++] = ';';
		for (const char *c = files[i]; *c; c++) {
			if (*c == ';' || *c == '\\')
				out[at++] = '\\';
			out[at++] = *c;
		}
		out[at] = '\0';
	}
	return out;
}

static void side_values(const SideStats *s, double v[7])
{
	double w[7] = { (double)s->sessions, (double)s->blocks, (double)s->samples, s->median, s->best, s->top, s->spread };
	memcpy(v, w, sizeof w);
}

/* --compare --format csv: its header and one row. */
static void compare_csv(const Options *o, const OfflineBlocks *l, const char *unit, const CompareResult *r, bool failed)
{
	static char fa[8192], fb[8192];
	CompareLine c = { l[0].d.meta.workload, unit, r->sessions_method ? "welch_over_sessions" : "block_bootstrap",
	                  joined(o->compare_a, o->ncompare_a, fa, sizeof fa),
	                  joined(o->compare_b, o->ncompare_b, fb, sizeof fb), VERDICT[r->verdict + 1], r->why,
	                  FLOPSCOPE_VERSION, COMPARE_BLOCK_MS, { 0 }, { 0 }, r->ratio, r->ratio_lo, r->ratio_hi,
	                  r->best_ratio, r->top_ratio, r->spread, r->noise, 100 * r->min_effect,
	                  o->fail_if_slower > 0 ? o->fail_if_slower : NAN,
	                  o->fail_if_slower > 0 ? (failed ? "yes" : "no") : NULL };
	side_values(&r->a, c.a);
	side_values(&r->b, c.b);
	columns_csv_header(stdout, compare_cols, sizeof compare_cols / sizeof *compare_cols);
	columns_csv(stdout, compare_cols, sizeof compare_cols / sizeof *compare_cols, &c);
}

/* --compare's table, the verdict in words, and the overlay on a terminal. */
static void compare_table(const Options *o, const OfflineBlocks *l, const char *unit, const CompareResult *rp,
                          bool failed)
{
	CompareResult r = *rp;
	unsigned na = o->ncompare_a, nb = o->ncompare_b;
	for (int side = 0; side < 2; side++) {
		unsigned k0 = side ? na : 0, cnt = side ? nb : na;
		const SessionMeta *m = &l[k0].d.meta;
		char tms[32];
		printf("%s: %s%s\n   %s, %s (%s), %s, target %s\n", side ? "B" : "A",
		       side ? o->compare_b[0] : o->compare_a[0], cnt > 1 ? " and more" : "", m->device,
		       m->workload, unit, m->start_utc, fmt_ms(m->target_ms, tms, sizeof tms));
		for (unsigned k = 1; k < cnt; k++)
			printf("   %s\n", side ? o->compare_b[k] : o->compare_a[k]);
	}
	char s1[FMT_SI_LEN], s2[FMT_SI_LEN];
	printf("\n%-40s %14s %14s\n", "1 s batch means of the steady samples", "A", "B");
	printf("%-40s %14zu %14zu\n", "sessions", r.a.sessions, r.b.sessions);
	printf("%-40s %14zu %14zu\n", "blocks", r.a.blocks, r.b.blocks);
	printf("%-40s %14zu %14zu\n", "samples", r.a.samples, r.b.samples);
	printf("%-40s %9s%-5s %9s%-5s\n", r.sessions_method ? "median of the sessions" : "median",
	       fmt_si(r.a.median, s1, sizeof s1), unit, fmt_si(r.b.median, s2, sizeof s2), unit);
	printf("%-40s %9s%-5s %9s%-5s\n", "best block (least interference)", fmt_si(r.a.best, s1, sizeof s1),
	       unit, fmt_si(r.b.best, s2, sizeof s2), unit);
	printf("%-40s %13.1f%% %13.1f%%\n", "spread in a session (lowest-highest)", 100 * r.a.spread,
	       100 * r.b.spread);
	printf("%-40s %13.1f%% %13.1f%%\n", "noise in a session (10th-90th pct)", 100 * r.a.noise, 100 * r.b.noise);
	if (isfinite(r.ratio_lo))
		printf("\nratio B/A: %.4f (95%% interval %.4f .. %.4f, %s)\n", r.ratio, r.ratio_lo, r.ratio_hi,
		       r.sessions_method ? "Welch t over the sessions" : "bootstrap over 1 s blocks");
	else
		printf("\nratio B/A: %.4f (no interval: too few blocks)\n", r.ratio);
	printf("ratio B/A of the best blocks: %.4f (the best block), %.4f (the 90th percentiles)\n", r.best_ratio,
	       r.top_ratio);
	printf("minimum effect: %g%% (%s)\n", 100 * r.min_effect, o->min_effect > 0 ? "--min-effect"
	       : compare_default_min_effect(l[0].d.meta.device_type) == COMPARE_MIN_EFFECT_GPU
	       ? "the default for a GPU; --min-effect" : "the default for a CPU device; --min-effect");
	if (r.verdict == COMPARE_FASTER)
		printf("verdict: B is faster than A by %.1f%%: %s\n", 100 * (r.ratio - 1), r.why);
	else if (r.verdict == COMPARE_SLOWER)
		printf("verdict: B is slower than A by %.1f%%: %s\n", 100 * (1 - r.ratio), r.why);
	else
		printf("verdict: cannot tell: %s\n", r.why);
	if (o->fail_if_slower > 0)
		printf("--fail-if-slower %g: %s\n", o->fail_if_slower,
		       failed ? "FAIL (B is slower by more than that, with confidence)" : "pass");
	if (isatty(STDOUT_FILENO))
		overlay(&l[0].d, &l[na].d, unit);
}

int offline_compare(const Options *o)
{
	SlogPick pick = offline_pick(o);
	unsigned na = o->ncompare_a, nb = o->ncompare_b, n = na + nb;
	OfflineBlocks *l = calloc(n, sizeof *l);
	if (!l) {
		fprintf(stderr, "flopscope: out of memory\n");
		return 1;
	}
	int rc = 0;
	unsigned loaded = 0;
	for (; loaded < n; loaded++) {
		const char *path = loaded < na ? o->compare_a[loaded] : o->compare_b[loaded - na];
		if (!offline_load_blocks(path, &pick, &l[loaded])) {
			rc = 2;
			goto out;
		}
	}
	/* the same workload and unit throughout, unless --force */
	const char *unit = sample_flags_unit(l[0].flags);
	for (unsigned k = 1; k < n; k++) {
		const char *u = sample_flags_unit(l[k].flags);
		const char *path = k < na ? o->compare_a[k] : o->compare_b[k - na];
		if (strcmp(l[k].d.meta.workload, l[0].d.meta.workload) || strcmp(u, unit)) {
			fprintf(stderr, "flopscope: %s%s is %s (%s), %s is %s (%s): not comparable%s\n",
			        o->force ? "warning: " : "", o->compare_a[0], l[0].d.meta.workload, unit, path,
			        l[k].d.meta.workload, u, o->force ? " (compared anyway: --force)" : " (--force compares them anyway)");
			if (!o->force) {
				rc = 2;
				goto out;
			}
		}
	}
	BlockMeans ba[CLI_COMPARE_MAX], bb[CLI_COMPARE_MAX];
	for (unsigned k = 0; k < na; k++)
		ba[k] = l[k].blocks;
	for (unsigned k = 0; k < nb; k++)
		bb[k] = l[na + k].blocks;
	CompareSide sa = { ba, na }, sb = { bb, nb };
	CompareResult r;
	char err[256];
	double me = o->min_effect > 0 ? o->min_effect / 100 : compare_default_min_effect(l[0].d.meta.device_type);
	if (!compare_sides(&sa, &sb, me, &r, err, sizeof err)) {
		fprintf(stderr, "flopscope: --compare: %s\n", err);
		rc = 2;
		goto out;
	}
	/* --fail-if-slower: slower beyond the threshold, with confidence */
	bool failed = o->fail_if_slower > 0 && r.verdict == COMPARE_SLOWER &&
	              r.ratio_hi < 1 - o->fail_if_slower / 100;
	if (o->format == FORMAT_CSV) {
		compare_csv(o, l, unit, &r, failed);
	} else if (o->format == FORMAT_JSON) {
		compare_json(o, l, unit, &r, failed);
	} else {
		compare_table(o, l, unit, &r, failed);
	}
	if (failed)
		rc = 1;
out:
	for (unsigned k = 0; k < loaded && k < n; k++) {
		blocks_done(&l[k].blocks);
		session_data_done(&l[k].d);
	}
	free(l);
	return rc;
}
