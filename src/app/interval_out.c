/* interval_out: see interval_out.h. */
#include "interval_out.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "clock.h"
#include "columns.h"
#include "fmt.h"
#include "records.h"
#include "throttle.h"

#define I_(f) offsetof(IntervalLine, f)
/* --interval's rows: a record of columns (CSV header and JSON from one table) */
typedef struct IntervalLine {
	double dev;             /* its number among several (CSV: 1 alone, as the sample rows';
	                           JSON: left out alone, as the sample records') */
	double t0, t1, median, min, max;
	const char *unit;
	uint64_t samples, verified;
	double mhz, watts, throttle;
	const char *reasons;
	double others;
	RowIdentity id;
} IntervalLine;
static const Column interval_cols[] = {
	{ "dev", "dev", COL_NUMBER, I_(dev), "%.0f" },
	{ "utc", NULL, COL_UTC, 0, NULL },
	{ "t_start_s", "t_start_s", COL_NUMBER, I_(t0), "%.3f" },
	{ "t_end_s", "t_end_s", COL_NUMBER, I_(t1), "%.3f" },
	{ "median", "median", COL_NUMBER, I_(median), "%.6g" },
	{ "min", "min", COL_NUMBER, I_(min), "%.6g" },
	{ "max", "max", COL_NUMBER, I_(max), "%.6g" },
	{ "unit", "unit", COL_TEXT, I_(unit), NULL },
	{ "samples", "samples", COL_COUNT, I_(samples), NULL },
	{ "verified_samples", "verified_samples", COL_COUNT, I_(verified), NULL },
	{ TEL_KEY_SM_MHZ, TEL_KEY_SM_MHZ, COL_NUMBER, I_(mhz), "%.0f" },
	{ TEL_KEY_POWER_W, TEL_KEY_POWER_W, COL_NUMBER, I_(watts), "%.1f" },
	{ "throttle", "throttle", COL_NUMBER, I_(throttle), "%.0f" },
	{ "reasons", "reasons", COL_QUOTED, I_(reasons), NULL },
	{ "other_gpu", "other_gpu", COL_NUMBER, I_(others), "%.0f" },
	{ NULL, "identity", COL_IDENTITY, I_(id), NULL },
};
#undef I_

#define INTERVAL_ROW "%-9s %11s %11s %11s %7s %8s %6s %6s  %s\n"

void interval_out_init(IntervalOut *p, const Options *o, const char *unit, const DeviceInfo *dev, size_t entry,
                       unsigned num)
{
	*p = (IntervalOut){ .format = o->format, .unit = unit, .dev = dev, .entry = entry, .num = num,
	                    .run_off_ms = NAN };
	interval_init(&p->iv, o->interval_s);
}

void interval_out_done(IntervalOut *p)
{
	interval_done(&p->iv);
}

void interval_out_header(OutFormat format, bool several)
{
	if (format == FORMAT_CSV)
		columns_csv_header(stdout, interval_cols, NCOLS(interval_cols)); /* entry is among the identity's */
	else if (format == FORMAT_TABLE)
		printf("%s" INTERVAL_ROW, several ? "dev " : "", "seconds", "median", "min", "max", "samples", "clock",
		       "power", "others", "held by");
}

/* One --interval row on stdout; false when stdout failed. */
static bool print_interval(IntervalOut *p, const IntervalRow *r)
{
	char reasons[160] = "";
	if (r->has_reasons)
		throttle_names(r->reasons, reasons, sizeof reasons);
	IntervalLine l = { p->num ? (double)p->num : p->format == FORMAT_CSV ? 1 : NAN, r->t0_s, r->t1_s, r->median,
	                   r->min, r->max, p->unit, r->samples, r->verified, r->sm_mhz, r->power_w,
	                   r->has_reasons ? (double)r->reasons : NAN, reasons, r->others,
	                   { .dev = p->format == FORMAT_CSV ? p->dev : NULL, .entry = p->entry } };
	if (p->format == FORMAT_JSON) {
		cJSON *j = columns_json("interval", interval_cols, NCOLS(interval_cols), &l);
		if (j && !record_stamp(j)) {
			cJSON_Delete(j);
			j = NULL;
		}
		return json_line(stdout, j);
	}
	if (p->format == FORMAT_CSV)
		return columns_csv(stdout, interval_cols, NCOLS(interval_cols), &l);
	char span[48], med[FMT_SI_LEN], lo[FMT_SI_LEN], hi[FMT_SI_LEN], mhz[16], w[16], oth[16];
	char fm[FMT_SI_LEN + 8], fl[FMT_SI_LEN + 8], fh[FMT_SI_LEN + 8];
	snprintf(span, sizeof span, "%.2f-%.2f", r->t0_s, r->t1_s);
	if (r->samples) {
		snprintf(fm, sizeof fm, "%s%s", fmt_si(r->median, med, sizeof med), p->unit);
		snprintf(fl, sizeof fl, "%s%s", fmt_si(r->min, lo, sizeof lo), p->unit);
		snprintf(fh, sizeof fh, "%s%s", fmt_si(r->max, hi, sizeof hi), p->unit);
	} else { /* no dispatch ended in it */
		snprintf(fm, sizeof fm, "-");
		snprintf(fl, sizeof fl, "-");
		snprintf(fh, sizeof fh, "-");
	}
	fmt_cell(r->sm_mhz, "%.0f MHz", mhz, sizeof mhz);
	fmt_cell(r->power_w, "%.0f W", w, sizeof w);
	fmt_cell(r->others, "%.0f", oth, sizeof oth);
	char n[24], dev[16] = "";
	snprintf(n, sizeof n, "%zu", r->samples);
	if (p->num)
		snprintf(dev, sizeof dev, "%3u ", p->num);
	return printf("%s" INTERVAL_ROW, dev, span, fm, fl, fh, n, mhz, w, oth,
	              reasons[0] ? reasons : r->has_reasons ? "none" : "-") >= 0;
}

bool interval_out_sample(IntervalOut *p, const Sample *s)
{
	if (!isfinite(p->run_off_ms))
		p->run_off_ms = (double)clock_mono_ns() * 1e-6 - s->t_ms;
	IntervalRow r;
	bool ok = true;
	while (ok && interval_due(&p->iv, s->t_ms, &r)) /* those before it, with a dispatch or none */
		ok = print_interval(p, &r);
	interval_add(&p->iv, s);
	return ok;
}

bool interval_out_idle(IntervalOut *p)
{
	IntervalRow r;
	bool ok = true;
	while (ok && isfinite(p->run_off_ms) && interval_idle(&p->iv, (double)clock_mono_ns() * 1e-6 - p->run_off_ms, &r))
		ok = print_interval(p, &r);
	return ok;
}

bool interval_out_last(IntervalOut *p)
{
	IntervalRow last;
	return !interval_flush(&p->iv, &last) || print_interval(p, &last);
}
