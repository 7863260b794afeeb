/* check_out: the check's lines and records (check_impl.h). */
#include "check_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "columns.h"
#include "peak.h"
#include "fmt.h"
#include "inventory.h"
#include "listing.h"
#include "records.h"
#include "slog.h"
#include "verdict.h"
#include "version.h"

/* A JSON record on a line of its own, freed. */
void check_print_record(cJSON *j)
{
	json_line(stdout, j);
}

/* A line of the check, a device and workload, as its JSON record and CSV
 * line write it: a verdict (check), or a transfer of several devices at
 * once (check_shared, its CSV line under the same header). */
typedef struct CheckLine {
	const char *status;
	RowIdentity id;
	const char *workload, *unit;
	double median, ratio, threshold, peer_ratio, devices, sum;
	const char *reference;
	uint64_t checks;
	const char *why;        /* the causes' clauses */
	const char *codes;      /* CSV: the causes' codes, "|" between */
	const Causes *causes;   /* JSON: the causes (record_causes) */
	const char *others;     /* other processes on the device during the run; NULL: none seen */
	const ProcTable *procs; /* ... their table when the most were seen; NULL: none named */
	const char *link;       /* its PCIe link during the run, and at most ("Gen5 x16 of Gen5 x16"); NULL: unknown */
	double replays;         /* the link's replays during the run; NaN: not counted, or no transfer */
	const Energy *energy;   /* JSON: the run's energy (record_energy); NULL: none */
} CheckLine;

#define L_(f) offsetof(CheckLine, f)
/* the verdict's columns: the CSV header is theirs */
static const Column check_cols[] = {
	{ "utc", NULL, COL_UTC, 0, NULL },
	{ "status", "status", COL_TEXT, L_(status), NULL },
	{ "identity", "identity", COL_IDENTITY, L_(id), NULL },
	{ "workload", "workload", COL_TEXT, L_(workload), NULL },
	{ "median", "median", COL_NUMBER, L_(median), "%.6g" },
	{ "unit", "unit", COL_TEXT, L_(unit), NULL },
	{ "reference", "reference", COL_QUOTED, L_(reference), NULL },
	{ "ratio", "ratio", COL_NUMBER, L_(ratio), "%.4f" },
	{ "threshold", "threshold", COL_NUMBER, L_(threshold), "%.4f" },
	{ "peer_ratio", NULL, COL_NUMBER, L_(peer_ratio), NULL },
	{ "checks_passed", "checks_passed", COL_COUNT, L_(checks), NULL },
	{ "why", "why", COL_QUOTED, L_(why), NULL },
	{ "other_processes", "other_processes", COL_QUOTED, L_(others), NULL },
	{ "processes", "processes", COL_PROCESSES, L_(procs), NULL },
	{ "pcie_link", "pcie_link", COL_QUOTED, L_(link), NULL },
	{ TEL_KEY_PCIE_REPLAYS, TEL_KEY_PCIE_REPLAYS, COL_NUMBER, L_(replays), "%.0f" },
	{ NULL, "codes", COL_QUOTED, L_(codes), NULL },
};
/* a shared transfer's: the verdict's CSV columns (no verdict, reference or
 * threshold), its own JSON keys */
static const Column shared_cols[] = {
	{ "utc", NULL, COL_UTC, 0, NULL },
	{ NULL, "status", COL_TEXT, L_(status), NULL },
	{ "identity", "identity", COL_IDENTITY, L_(id), NULL },
	{ "workload", "workload", COL_TEXT, L_(workload), NULL },
	{ "median", "median", COL_NUMBER, L_(median), "%.6g" },
	{ "unit", "unit", COL_TEXT, L_(unit), NULL },
	{ NULL, "reference", COL_QUOTED, L_(reference), NULL },
	{ NULL, "ratio", COL_NUMBER, L_(ratio), "%.4f" },
	{ NULL, "threshold", COL_NUMBER, L_(threshold), "%.4f" },
	{ NULL, "checks_passed", COL_COUNT, L_(checks), NULL },
	{ "devices", NULL, COL_NUMBER, L_(devices), NULL },
	{ "sum", NULL, COL_NUMBER, L_(sum), NULL },
	{ "why", "why", COL_QUOTED, L_(why), NULL },
	{ "other_processes", "other_processes", COL_QUOTED, L_(others), NULL },
	{ NULL, "processes", COL_PROCESSES, L_(procs), NULL },
	{ NULL, "pcie_link", COL_QUOTED, L_(link), NULL },
	{ NULL, TEL_KEY_PCIE_REPLAYS, COL_NUMBER, L_(replays), "%.0f" },
	{ NULL, "codes", COL_QUOTED, L_(codes), NULL },
};
#undef L_

static void put_line(const Options *o, const char *type, const Column *cols, size_t n, const CheckLine *l)
{
	if (o->format == FORMAT_JSON) {
		cJSON *j = columns_json(type, cols, n, l);
		if (j && ((l->energy && !record_energy(j, l->energy)) || !record_causes(j, l->causes))) {
			cJSON_Delete(j);
			j = NULL;
		}
		check_print_record(j);
	} else
		columns_csv(stdout, cols, n, l);
}

/* Who shared the device during a run, in words ("1 at most: 537 python3",
 * "2 at most"), or NULL where no other process was seen. */
static const char *shared_text(const SharedBy *sb, char *out, size_t len)
{
	if (!(sb->max > 0))
		return NULL;
	snprintf(out, len, "%.0f at most%s%s", sb->max, sb->who[0] ? ": " : "", sb->who);
	return out;
}

/* A run's PCIe link as it ran and at most: "Gen5 x16 of Gen5 x16" (the
 * lowest seen below the maximum where it ran there most of the run); NULL
 * where unknown or no transfer was measured. */
static const char *link_text(const LinkSeen *l, const WorkloadInfo *wi, char *out, size_t len)
{
	if (!l->n || peak_kind(wi->id) != PEAK_PCIE)
		return NULL;
	char now[32], max[32], why[8];
	bool low = link_degraded(l, why, sizeof why);
	pcie_link_str(low ? l->gts : l->max_gts, low ? l->width : l->max_width, now, sizeof now);
	pcie_link_str(l->max_gts, l->max_width, max, sizeof max);
	snprintf(out, len, "%s of %s", now, max);
	return out;
}

/* A transfer's PCIe replays during its run; NaN where not counted. */
static double link_replays_of(const LinkSeen *l, const WorkloadInfo *wi)
{
	return peak_kind(wi->id) == PEAK_PCIE ? link_replays(l) : NAN;
}

void check_print_line(const Options *o, const VkCtx *ctx, const SuiteDev *sd, const WorkloadInfo *wi,
                      const Verdict *v)
{
	const DeviceInfo *d = &ctx->entries[sd->idx];
	const char *st = check_status_names[v->st];
	char shared[160], linkbuf[80], why[VC_MAX * VC_TEXT_LEN];
	const char *others = shared_text(&sd->r.shared, shared, sizeof shared);
	const char *link = link_text(&sd->r.link, wi, linkbuf, sizeof linkbuf);
	verdict_text(&v->causes, why, sizeof why);
	if (o->format != FORMAT_TABLE) {
		char codes[VC_MAX * 24];
		verdict_codes(&v->causes, "|", codes, sizeof codes);
		CheckLine l = { .status = st, .id = { d, (size_t)sd->idx + 1, NULL }, .workload = wi->name,
		                .unit = workload_unit_names[wi->unit], .median = v->median, .ratio = v->ratio,
		                .threshold = v->threshold, .peer_ratio = v->peer, .devices = NAN, .sum = NAN,
		                .reference = v->ref, .checks = v->checks, .why = why, .codes = codes,
		                .causes = &v->causes, .others = others,
		                .procs = sd->r.shared.procs.n ? &sd->r.shared.procs : NULL, .link = link,
		                .replays = link_replays_of(&sd->r.link, wi), .energy = &sd->r.energy };
		put_line(o, "check", check_cols, NCOLS(check_cols), &l);
		return;
	}
	char upper[8] = "";
	for (size_t i = 0; st[i] && i + 1 < sizeof upper; i++)
		upper[i] = (char)(st[i] >= 'a' && st[i] <= 'z' ? st[i] - 32 : st[i]);
	char med[FMT_SI_LEN], fig[48] = "-";
	if (!isnan(v->median))
		snprintf(fig, sizeof fig, "%s%s", fmt_si(v->median, med, sizeof med), workload_unit_names[wi->unit]);
	char pw[48] = "";
	const Energy *e = &sd->r.energy;
	bool say = energy_known(e) && wi->kind != WL_POWER; /* power's verdict says it */
	if (say)
		snprintf(pw, sizeof pw, "%.0f W%s", energy_mean_w(e), e->limit_w > 0 ? "" : ",");
	if (say && e->limit_w > 0)
		snprintf(pw + strlen(pw), sizeof pw - strlen(pw), " (%.0f%% of %.0f W),", 100 * energy_mean_w(e) / e->limit_w,
		         e->limit_w);
	char rp[48] = "";
	double replays = link_replays_of(&sd->r.link, wi);
	if (!isnan(replays))
		snprintf(rp, sizeof rp, "%s%.0f replay%s", link ? ", " : "; PCIe ", replays, replays == 1 ? "" : "s");
	/* the words are the causes' (other processes among them); a row whose
	 * words are the row's above says "as above" (four NOREF rows repeated a
	 * 100-character reason, each wrapping at 100 columns) */
	static char prev[VC_MAX * VC_TEXT_LEN];
	printf("%-6s [%d] %-16s %14s  %s%s%s%s%s%s\n", upper, sd->idx + 1, wi->name, fig, pw, pw[0] ? " " : "",
	       fmt_as_above(why, prev, sizeof prev), link ? "; PCIe " : "", link ? link : "", rp);
}


/* A transfer's line for device sd of m that ran it at once: its median
 * then, and the sum of the nsum of them measured; held to no threshold.
 * not_measured: why this one has no median (the sum is the others'). */
void check_print_shared(const Options *o, const VkCtx *ctx, const SuiteDev *sd, const WorkloadInfo *wi,
                        double median, size_t m, double sum, size_t nsum, const char *not_measured)
{
	const DeviceInfo *d = &ctx->entries[sd->idx];
	char why[600], a[FMT_SI_LEN], b[FMT_SI_LEN], of[48] = "";
	const char *unit = workload_unit_names[wi->unit];
	if (nsum < m)
		snprintf(of, sizeof of, "the %zu of them measured", nsum);
	else
		snprintf(of, sizeof of, "the %zu together", m);
	if (not_measured)
		snprintf(why, sizeof why, "with the %zu devices at once: not measured: %s; its verdict is its link's, "
		         "measured alone", m, not_measured);
	else
		snprintf(why, sizeof why, "with the %zu devices at once: its share of the host (%s: %s%s), held to no "
		         "threshold; its verdict is its link's, measured alone", m, of, fmt_si(sum, b, sizeof b), unit);
	Causes cs = { .n = 0 };
	double f[] = { (double)m, nsum ? sum : NAN };
	verdict_add(&cs, false, VC_SHARED_TRANSFER, f, "%s", why);
	if (o->format != FORMAT_TABLE) {
		CheckLine l = { .status = "shared", .id = { d, (size_t)sd->idx + 1, NULL }, .workload = wi->name,
		                .unit = unit, .median = median, .ratio = NAN, .threshold = NAN, .peer_ratio = NAN,
		                .devices = (double)m, .sum = sum, .reference = NULL, .checks = sd->checks, .why = why,
		                .codes = verdict_causes[VC_SHARED_TRANSFER].code, .causes = &cs, .others = NULL,
		                .link = NULL, .replays = NAN, .energy = NULL };
		put_line(o, "check_shared", shared_cols, NCOLS(shared_cols), &l);
	} else {
		char fig[48] = "-";
		if (!isnan(median))
			snprintf(fig, sizeof fig, "%s%s", fmt_si(median, a, sizeof a), unit);
		printf("%-6s [%d] %-16s %14s  %s\n", "SHARED", sd->idx + 1, wi->name, fig, why);
	}
}

/* A missing line's record, begun: {"type":type,"status":"missing"}. */
static cJSON *missing_begin(const char *type)
{
	cJSON *j = cJSON_CreateObject();
	if (j && (!cJSON_AddStringToObject(j, "type", type) || !record_utc(j) ||
	          !cJSON_AddStringToObject(j, "status", check_status_names[CHECK_MISSING]))) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

/* ... ended (ok: its own fields went in): the host, the stamp, the words
 * and the causes; printed. */
static void missing_end(cJSON *j, bool ok, const Causes *cs)
{
	char host[256];
	slog_host_name(host, sizeof host);
	ok = ok && j && cJSON_AddStringToObject(j, "host", host) && record_stamp(j) &&
	     cJSON_AddStringToObject(j, "why", cs->c[0].text) && record_causes(j, cs);
	if (!ok) {
		cJSON_Delete(j);
		j = NULL;
	}
	check_print_record(j);
}

/* A missing line's CSV row under the check's header: no entry, driver,
 * workload or figures. */
/* A MISSING row under the check's header, through its columns (m NULL: a
 * row of no GPU, the count's): every other column empty. */
static void missing_csv(const MissingGpu *m, const Causes *cs)
{
	static const MissingGpu none = { .gpu = -1 };
	CheckLine l = { .status = check_status_names[CHECK_MISSING], .id = { .missing = m ? m : &none },
	                .median = NAN, .ratio = NAN, .threshold = NAN, .peer_ratio = NAN, .devices = NAN, .sum = NAN,
	                .why = cs->c[0].text, .codes = verdict_causes[cs->c[0].code].code, .replays = NAN };
	columns_csv(stdout, check_cols, NCOLS(check_cols), &l);
}

void check_print_missing(const Options *o, const MissingGpu *m)
{
	missing_print(o->format, m, "check_missing");
}

void missing_print(OutFormat format, const MissingGpu *m, const char *type)
{
	Causes cs = { .n = 0 };
	double g = m->gpu >= 0 ? m->gpu : NAN;
	verdict_add(&cs, false, VC_MISSING, &g, "not seen by Vulkan: %s", m->why);
	char idx[16] = "";
	if (m->gpu >= 0)
		snprintf(idx, sizeof idx, "%d", m->gpu);
	if (format == FORMAT_JSON) {
		cJSON *j = missing_begin(type);
		bool ok = j && (m->gpu >= 0 ? cJSON_AddNumberToObject(j, "gpu", m->gpu) : cJSON_AddNullToObject(j, "gpu")) &&
		          cJSON_AddStringToObject(j, "device", m->name) &&
		          (m->uuid[0] ? cJSON_AddStringToObject(j, "uuid", m->uuid) : cJSON_AddNullToObject(j, "uuid")) &&
		          (m->pci[0] ? cJSON_AddStringToObject(j, "pci_bus_id", m->pci) :
		                       cJSON_AddNullToObject(j, "pci_bus_id"));
		missing_end(j, ok, &cs);
	} else if (format == FORMAT_CSV) {
		missing_csv(m, &cs);
	} else {
		printf("%-7s GPU %s (%s%s%s%s%s)  %s\n", "MISSING", idx[0] ? idx : "-", m->name, m->uuid[0] ? ", " : "",
		       m->uuid, m->pci[0] ? ", " : "", m->pci, cs.c[0].text);
	}
}

void check_print_gpu_count(const Options *o, unsigned expected, size_t visible, size_t listed)
{
	Causes cs = { .n = 0 };
	double f[] = { expected, (double)visible };
	char more[96] = "";
	if (listed)
		snprintf(more, sizeof more, " (%zu more listed MISSING)", listed);
	verdict_add(&cs, false, VC_GPU_COUNT, f, "expected %u GPU%s (--expect-gpus), Vulkan shows %zu%s", expected,
	            expected == 1 ? "" : "s", visible, more);
	if (o->format == FORMAT_JSON) {
		cJSON *j = missing_begin("check_gpu_count");
		bool ok = j && cJSON_AddNumberToObject(j, "expected", expected) &&
		          cJSON_AddNumberToObject(j, "visible", (double)visible);
		missing_end(j, ok, &cs);
	} else if (o->format == FORMAT_CSV) {
		missing_csv(NULL, &cs);
	} else {
		printf("%-7s %s\n", "MISSING", cs.c[0].text);
	}
}

void check_print_csv_header(void)
{
	columns_csv_header(stdout, check_cols, NCOLS(check_cols));
}
