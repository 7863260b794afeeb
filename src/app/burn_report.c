#include "burn_report.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "fileio.h"
#include "fmt.h"
#include "memwork.h"
#include "svg.h"
#include "svg_draw.h"
#include "version.h"

void burn_kept_of(const BurnWindow *w, BurnKept *k)
{
	*k = (BurnKept){ .index = w->index, .t0 = w->t0_s, .t1 = w->t1_s, .partial = w->partial, .st = w->status,
	                 .median = w->median, .min = w->min, .mhz = w->mhz, .watts = w->watts, .temp = w->temp_max,
	                 .held_power = w->held_power, .held_thermal = w->held_thermal, .held_hw = w->held_hw,
	                 .others = w->others, .drift = w->drift, .peer = w->peer_ratio, .slowdown = w->temp_slowdown,
	                 .replays = w->replays, .ecc_new = w->ecc_new };
}

/* A remade report says so, and what the logs could not give. */
#define REMADE "remade from the devices' session logs (flopscope --export --report): each window judged again " \
               "from its logged figures (an older log's: from its samples); other processes counted, not named; " \
               "a signal that ended the burn unknown"

/* What both forms say first: the verdict's word and the exit status. */
static const char *verdict_word(const BurnReport *r)
{
	return r->sig ? (r->status ? "FAIL, interrupted" : "INTERRUPTED") : r->status ? "FAIL" : "PASS";
}

static int exit_of(const BurnReport *r)
{
	return r->sig ? STATUS_SIGNAL + r->sig : r->status;
}

/* How it was interrupted, after "interrupted ". */
static const char *interrupted_how(const BurnReport *r, char *out, size_t len)
{
	if (r->by_key)
		snprintf(out, len, "from the keyboard (q or Ctrl-C in the node view: exit as by SIGINT)");
	else
		snprintf(out, len, "by signal %d", r->sig);
	return out;
}

/* A device's hottest window's temperature; NaN unread. */
static double hottest(const BurnReportDev *d)
{
	double hot = NAN;
	for (size_t w = 0; w < d->nkept; w++)
		hot = !(d->kept[w].temp <= hot) && isfinite(d->kept[w].temp) ? d->kept[w].temp : hot;
	return hot;
}

/* A window's median, first (last: the last one) of the device's; "-" none. */
static const char *edge_median(const BurnReportDev *d, bool last, char *out, size_t len)
{
	const BurnKept *k = d->nkept ? &d->kept[last ? d->nkept - 1 : 0] : NULL;
	char a[FMT_SI_LEN];
	if (k && isfinite(k->median))
		snprintf(out, len, "%s%s", fmt_si(k->median, a, sizeof a), d->unit);
	else
		snprintf(out, len, "-");
	return out;
}

/* The hottest reading and, where known, the GPU's slowdown threshold: "65 / 89". */
static const char *temp_cell(const BurnKept *k, char *out, size_t len)
{
	if (isfinite(k->temp) && isfinite(k->slowdown))
		snprintf(out, len, "%.0f / %.0f", k->temp, k->slowdown);
	else
		fmt_cell(k->temp, "%.0f", out, len);
	return out;
}

static void held_by(const BurnKept *k, char *out, size_t len)
{
	if (isfinite(k->held_power))
		snprintf(out, len, "power cap %.0f%%, thermal %.0f%%, HW slowdown %.0f%%", 100 * k->held_power,
		         100 * k->held_thermal, 100 * k->held_hw);
	else
		snprintf(out, len, "-");
}

/* The head's lines both forms print, as plain text (each form adds its
 * marks: the verdict and "interrupted" strong, the command as code). */
typedef struct HeadLines {
	char title[320];        /* flopscope burn-in of HOST */
	char started[192];      /* started UTC; 2s asked in windows of 1s, 2.0 s ran */
	char interrupted[112];  /* how, or "" */
	char command[160];
	char devices[32];       /* ", 2 devices" */
	char version[96];
	char logs[192];         /* how the logs were kept, or "" */
	char counts[192];       /* ": 2 windows pass, ..." after the verdict's word and exit */
} HeadLines;

static void head_lines(const BurnReport *r, HeadLines *h)
{
	const SessionMeta *m0 = r->m0;
	char dur[32], win[32];
	snprintf(h->title, sizeof h->title, "flopscope burn-in of %s", m0 ? m0->host : "this host");
	snprintf(h->started, sizeof h->started, "started %s; %s asked in windows of %s, %.1f s ran",
	         m0 ? m0->start_utc : "(unknown)", fmt_seconds(r->burn_s, dur, sizeof dur),
	         fmt_seconds(r->window_s, win, sizeof win), r->ran_s);
	h->interrupted[0] = '\0';
	if (r->sig)
		interrupted_how(r, h->interrupted, sizeof h->interrupted);
	snprintf(h->command, sizeof h->command, "flopscope --burn %gs --window %gs --workload %s", r->burn_s,
	         r->window_s, m0 ? m0->workload : "?");
	snprintf(h->devices, sizeof h->devices, ", %zu device%s", r->n, r->n == 1 ? "" : "s");
	snprintf(h->version, sizeof h->version, "flopscope %s, records of schema %d", FLOPSCOPE_VERSION,
	         FLOPSCOPE_SCHEMA_VERSION);
	h->logs[0] = '\0';
	if (m0 && m0->burn_log_budget_b) {
		char b[32];
		snprintf(h->logs, sizeof h->logs, "session logs: each device's within %s (its share of --log-cap), "
		         "its samples thinned to fit, every window's figures from all of them",
		         mem_size_str(m0->burn_log_budget_b, b, sizeof b));
	}
	const size_t *c = r->count;
	snprintf(h->counts, sizeof h->counts,
	         " (exit %d): %zu windows pass, %zu unsure, %zu outlier, %zu fail, %zu wrong, %zu error", exit_of(r),
	         c[BURN_PASS], c[BURN_UNSURE], c[BURN_OUTLIER], c[BURN_FAIL], c[BURN_WRONG], c[BURN_ERROR]);
}

/* Text as Markdown shows it, never as its marks: a name from a log or a
 * process's (a "|" opened a table cell of its own, "*y*" became emphasis,
 * "<b>" HTML) has each mark escaped with a backslash; "_" only where it
 * could open or close emphasis (not inside THERMAL_HOLD). */
static void md_text(FILE *f, const char *s)
{
	for (const char *c = s; *c; c++) {
		bool word_before = c > s && isalnum((unsigned char)c[-1]), word_after = isalnum((unsigned char)c[1]);
		if (strchr("\\`*[]<>|&~", *c) || (*c == '_' && !(word_before && word_after)))
			fputc('\\', f);
		fputc(*c, f);
	}
}

/* Text as a code span: fenced by one backtick more than its longest run. */
static void md_code(FILE *f, const char *s)
{
	size_t run = 0, longest = 0;
	for (const char *c = s; *c; c++)
		longest = (run = *c == '`' ? run + 1 : 0) > longest ? run : longest;
	for (size_t k = 0; k <= longest; k++)
		fputc('`', f);
	fputs(longest ? " " : "", f);
	fputs(s, f);
	fputs(longest ? " " : "", f);
	for (size_t k = 0; k <= longest; k++)
		fputc('`', f);
}

static void md_head(FILE *f, const BurnReport *r)
{
	HeadLines h;
	head_lines(r, &h);
	fputs("# ", f);
	md_text(f, h.title);
	fputs("\n\n- ", f);
	md_text(f, h.started);
	if (h.interrupted[0]) {
		fputs(": **interrupted** ", f);
		md_text(f, h.interrupted);
	}
	fputs("\n- as run: ", f);
	md_code(f, h.command);
	fprintf(f, "%s\n- %s\n", h.devices, h.version);
	if (h.logs[0])
		fprintf(f, "- %s\n", h.logs);
	if (r->remade)
		fprintf(f, "- %s\n", REMADE);
	fprintf(f, "- verdict: **%s**%s\n\n", verdict_word(r), h.counts);
}

/* A window's row: its cells as text, in the columns both tables have. */
enum { WC_WINDOW, WC_SPAN, WC_STATUS, WC_MEDIAN, WC_MIN, WC_MHZ, WC_WATTS, WC_TEMP, WC_HELD, WC_OTHERS, WC_REPLAYS,
       WC_ECC, WC_CAUSES, WC_COUNT };
static const char *const window_heads[WC_COUNT] = {
	"window", "s", "status", "median (%s)", "min", "clock MHz", "power W", "hottest / slowdown C", "held by",
	"others", "PCIe replays", "new ECC errors", "causes",
};

static void window_cells(const BurnKept *k, char cell[WC_COUNT][360])
{
	char a[FMT_SI_LEN];
	snprintf(cell[WC_WINDOW], 360, "%u%s", k->index + 1, k->partial ? " (partial)" : "");
	snprintf(cell[WC_SPAN], 360, "%.4g-%.4g", k->t0, k->t1);
	snprintf(cell[WC_STATUS], 360, "%s", burn_status_words[k->st]);
	snprintf(cell[WC_MEDIAN], 360, "%s", isfinite(k->median) ? fmt_si(k->median, a, sizeof a) : "-");
	snprintf(cell[WC_MIN], 360, "%s", isfinite(k->min) ? fmt_si(k->min, a, sizeof a) : "-");
	fmt_cell(k->mhz, "%.0f", cell[WC_MHZ], 360);
	fmt_cell(k->watts, "%.0f", cell[WC_WATTS], 360);
	temp_cell(k, cell[WC_TEMP], 360);
	held_by(k, cell[WC_HELD], 360);
	fmt_cell(k->others, "%.0f", cell[WC_OTHERS], 360);
	fmt_cell(k->replays, "%.0f", cell[WC_REPLAYS], 360);
	fmt_cell(k->ecc_new, "%.0f", cell[WC_ECC], 360);
	snprintf(cell[WC_CAUSES], 360, "%.96s%s%.240s", k->codes, k->why[0] ? ": " : "", k->why);
}

static void md_windows(FILE *f, const BurnReportDev *d)
{
	for (int c = 0; c < WC_COUNT; c++) {
		fputs(c ? " | " : "| ", f);
		fprintf(f, window_heads[c], d->unit);
	}
	fputs(" |\n", f);
	for (int c = 0; c < WC_COUNT; c++)
		fputs(c ? " --- |" : "| --- |", f);
	fputc('\n', f);
	for (size_t w = 0; w < d->nkept; w++) {
		static char cell[WC_COUNT][360];
		window_cells(&d->kept[w], cell);
		for (int c = 0; c < WC_COUNT; c++) {
			fputs(c ? " | " : "| ", f);
			md_text(f, cell[c]);
		}
		fputs(" |\n", f);
	}
}

bool burn_report_md(const BurnReport *r, const char *path, bool force, char *err, size_t len)
{
	FileTmp t;
	FILE *f = fileio_create(path, FILE_NEW, force, &t, err, len);
	if (!f)
		return false;
	md_head(f, r);
	fprintf(f, "## Devices\n\n| dev | device | driver | UUID | PCI | verdict | windows | first window | last "
	        "window | hottest |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (size_t k = 0; k < r->n; k++) {
		const BurnReportDev *d = &r->d[k];
		char first[48], last[48], hot[16];
		const char *text[] = { d->name, d->m ? d->m->driver_info : "", d->m ? d->m->uuid : "",
		                       d->m ? d->m->pci_bus_id : "", d->verdict };
		fprintf(f, "| %zu |", d->number);
		for (size_t c = 0; c < sizeof text / sizeof *text; c++) {
			fputc(' ', f);
			md_text(f, text[c]);
			fputs(" |", f);
		}
		fprintf(f, " %zu | %s | %s | %s |\n", d->nkept, edge_median(d, false, first, sizeof first),
		        edge_median(d, true, last, sizeof last), fmt_cell(hottest(d), "%.0f C", hot, sizeof hot));
	}
	for (size_t k = 0; k < r->n; k++) {
		const BurnReportDev *d = &r->d[k];
		fprintf(f, "\n## [%zu] ", d->number);
		md_text(f, d->name);
		fputs("\n\n", f);
		if (d->error[0]) {
			fputs("The run failed: ", f);
			md_text(f, d->error);
			fputs("\n\n", f);
		}
		if (d->nkept)
			md_windows(f, d);
	}
	return fileio_commit(f, &t, !ferror(f), err, len);
}

/* The page's cells: text escaped; a status cell carries its class. */
static void td(FILE *f, const char *s)
{
	fputs("<td>", f);
	svg_esc(f, s);
	fputs("</td>", f);
}

static void html_head(FILE *f, const BurnReport *r)
{
	HeadLines h;
	head_lines(r, &h);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", f);
	svg_esc(f, h.title);
	fputs("</title>\n<style>\nbody { font-family: sans-serif; margin: 2em; max-width: 1100px; }\n"
	      "table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }\n"
	      "th, td { border: 1px solid #d0d7de; padding: 3px 7px; text-align: left; vertical-align: top; }\n"
	      "th { background: #f6f8fa; }\n.PASS { background: #dafbe1; }\n.UNSURE, .OUTLIER { background: #fff8c5; }\n"
	      ".FAIL, .WRONG, .ERROR { background: #ffebe9; }\nsvg { display: block; max-width: 100%; height: auto; }\n"
	      "</style>\n</head>\n<body>\n<h1>", f);
	svg_esc(f, h.title);
	fputs("</h1>\n<ul>\n<li>", f);
	svg_esc(f, h.started);
	fputs("</li>\n", f);
	if (h.interrupted[0]) {
		fputs("<li><strong>interrupted</strong> ", f);
		svg_esc(f, h.interrupted);
		fputs("</li>\n", f);
	}
	fputs("<li>as run: <code>", f);
	svg_esc(f, h.command);
	fprintf(f, "</code>%s</li>\n<li>%s</li>\n", h.devices, h.version);
	if (h.logs[0])
		fprintf(f, "<li>%s</li>\n", h.logs);
	if (r->remade)
		fprintf(f, "<li>%s</li>\n", REMADE);
	fprintf(f, "<li>verdict: <strong class=\"%s\">%s</strong>%s</li>\n</ul>\n", r->status ? "FAIL" : "PASS",
	        verdict_word(r), h.counts);
}

static void html_devices(FILE *f, const BurnReport *r)
{
	fputs("<h2>Devices</h2>\n<table>\n<tr><th>dev</th><th>device</th><th>driver</th><th>UUID</th><th>PCI</th>"
	      "<th>verdict</th><th>windows</th><th>first window</th><th>last window</th><th>hottest</th></tr>\n", f);
	for (size_t k = 0; k < r->n; k++) {
		const BurnReportDev *d = &r->d[k];
		char first[48], last[48], hot[16], nw[24];
		fprintf(f, "<tr><td>%zu</td>", d->number);
		td(f, d->name);
		td(f, d->m ? d->m->driver_info : "");
		td(f, d->m ? d->m->uuid : "");
		td(f, d->m ? d->m->pci_bus_id : "");
		fprintf(f, "<td class=\"%s\">%s</td>", d->verdict, d->verdict);
		snprintf(nw, sizeof nw, "%zu", d->nkept);
		td(f, nw);
		td(f, edge_median(d, false, first, sizeof first));
		td(f, edge_median(d, true, last, sizeof last));
		td(f, fmt_cell(hottest(d), "%.0f C", hot, sizeof hot));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The throughput's plot: one a unit where workloads took turns (FLOPS and
 * B/s share no axis), each with the runs of that unit. */
static bool rate_plots(FILE *f, const BurnReport *r, const SvgBurnDev *dv, size_t n)
{
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		bool first = true; /* the first run of its unit draws the plot */
		for (size_t j = 0; j < k && first; j++)
			first = strcmp(r->d[j].unit, r->d[k].unit) != 0;
		if (!first)
			continue;
		SvgBurnDev same[64];
		size_t m = 0;
		for (size_t j = k; j < n; j++)
			if (!strcmp(r->d[j].unit, r->d[k].unit))
				same[m++] = dv[j];
		ok = svg_write_burn(f, BURN_Q_RATE, r->d[k].unit, same, m, r->window_s, r->ran_s);
	}
	return ok;
}

/* What a device reads whatever it runs (clock, power, temperature): a
 * line a device, its workloads' turns one trace (own[j] where merged, the
 * caller frees). The devices' count; 0 out of memory. */
static size_t by_device(const BurnReport *r, size_t n, SvgBurnDev *out, BurnTrace **own)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		const BurnReportDev *d = &r->d[k];
		size_t j = 0;
		while (j < m && out[j].number != d->number)
			j++;
		if (j == m) {
			own[m] = NULL;
			out[m++] = (SvgBurnDev){ d->number, d->m ? d->m->device : d->name, d->trace };
		} else if (d->trace && !out[j].trace) {
			out[j].trace = d->trace;
		} else if (d->trace) {
			if (!own[j] && (own[j] = malloc(sizeof *own[j])) != NULL) {
				*own[j] = *out[j].trace;
				out[j].trace = own[j];
			}
			if (!own[j])
				return 0;
			burn_trace_merge(own[j], d->trace);
		}
	}
	return m;
}

/* The four plots of the soak, every device in each. */
static bool html_plots(FILE *f, const BurnReport *r)
{
	SvgBurnDev dv[64], dev[64];
	BurnTrace *own[64] = { 0 };
	size_t n = r->n < 64 ? r->n : 64;
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		dv[k] = (SvgBurnDev){ r->d[k].number, r->d[k].name, r->d[k].trace };
		any |= r->d[k].trace && r->d[k].trace->n;
	}
	if (!any)
		return true;
	size_t ndev = by_device(r, n, dev, own);
	fprintf(f, "<h2>Over the burn</h2>\n<p>Each device's run in spans of equal length: the mean of each span a solid "
	        "line, its least (throughput, clock) or greatest (power, temperature) dotted, so that no window's dip or "
	        "peak is lost however long the burn.%s Power is the driver's instant reading where it has one (NVML's "
	        "NVML_FI_DEV_POWER_INSTANT), else its average.</p>\n",
	        ndev < n ? " Throughput is a line a workload, in a plot a unit; the clock, power and temperature a line a "
	                   "device, its workloads' windows together." : "");
	static const char *const what[BURN_Q_COUNT] = { "throughput", "clock", "power", "temperature" };
	bool ok = ndev > 0;
	for (int q = 0; q < BURN_Q_COUNT && ok; q++) {
		bool read = false;
		for (size_t k = 0; k < n && !read; k++)
			for (size_t i = 0; dv[k].trace && i < dv[k].trace->n && !read; i++)
				read = dv[k].trace->p[i].q[q].n > 0;
		if (read && q == BURN_Q_RATE)
			ok = rate_plots(f, r, dv, n);
		else if (read)
			ok = svg_write_burn(f, (BurnQuantity)q, "", dev, ndev, r->window_s, r->ran_s);
		else
			fprintf(f, "<p>No %s was read on %s.</p>\n", what[q], ndev == 1 ? "this device" : "these devices");
	}
	for (size_t j = 0; j < n; j++)
		free(own[j]);
	return ok;
}

static void html_windows(FILE *f, const BurnReportDev *d)
{
	fputs("<table>\n<tr>", f);
	for (int c = 0; c < WC_COUNT; c++) {
		char h[64];
		snprintf(h, sizeof h, window_heads[c], d->unit);
		fputs("<th>", f);
		svg_esc(f, h);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t w = 0; w < d->nkept; w++) {
		static char cell[WC_COUNT][360];
		window_cells(&d->kept[w], cell);
		fputs("<tr>", f);
		for (int c = 0; c < WC_COUNT; c++) {
			if (c == WC_STATUS)
				fprintf(f, "<td class=\"%s\">%s</td>", cell[c], cell[c]);
			else
				td(f, cell[c]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

bool burn_report_html(const BurnReport *r, const char *path, bool force, char *err, size_t len)
{
	FileTmp t;
	FILE *f = fileio_create(path, FILE_NEW, force, &t, err, len);
	if (!f)
		return false;
	html_head(f, r);
	html_devices(f, r);
	bool ok = html_plots(f, r);
	for (size_t k = 0; k < r->n; k++) {
		const BurnReportDev *d = &r->d[k];
		char h[320];
		snprintf(h, sizeof h, "[%zu] %s", d->number, d->name);
		fputs("<h2>", f);
		svg_esc(f, h);
		fputs("</h2>\n", f);
		if (d->error[0]) {
			fputs("<p>The run failed: ", f);
			svg_esc(f, d->error);
			fputs("</p>\n", f);
		}
		if (d->nkept)
			html_windows(f, d);
	}
	fputs("</body>\n</html>\n", f);
	return fileio_commit(f, &t, ok && !ferror(f), err, len);
}
