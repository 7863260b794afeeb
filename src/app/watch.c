/* watch: --watch, the devices' telemetry with no load of flopscope's, a row
 * a device every --interval seconds, as nvidia-smi dmon -d S gives it:
 * clocks, power and its limit, temperature, P-state, clock-event reasons,
 * other processes, the PCIe link. Each device's telemetry source is read
 * on this thread (no engine, no queue, no shader). */
#include "watch.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "columns.h"
#include "fmt.h"
#include "metrics_live.h"
#include "outputs.h"
#include "peak.h"
#include "records.h"
#include "telemetry.h"
#include "throttle.h"

#define R_(f) offsetof(WatchLine, f)
typedef struct WatchLine {
	double t, dev;
	double v[TEL_FIELD_COUNT];
	const char *reasons, *link, *who;
	const ProcTable *procs;  /* NULL: not listed */
	RowIdentity id;
} WatchLine;
static const Column watch_cols[] = {
	{ "utc", NULL, COL_UTC, 0, NULL },
	{ "t_s", "t_s", COL_NUMBER, R_(t), "%.3f" },
	{ "dev", "dev", COL_NUMBER, R_(dev), "%.0f" },
	/* the readings: a column each of tel_rows.h's rows shown in --watch */
	{ "readings", "readings", COL_TEL_WATCH, R_(v), NULL },
	{ "reasons", "reasons", COL_QUOTED, R_(reasons), NULL },
	{ "other_processes", "other_processes", COL_QUOTED, R_(who), NULL },
	{ "processes", "processes", COL_PROCESSES, R_(procs), NULL },
	{ "pcie_link", "pcie_link", COL_QUOTED, R_(link), NULL },
	{ "identity", "identity", COL_IDENTITY, R_(id), NULL },
};
#undef R_

#define WATCH_ROW "%8s %3s %9s %9s %8s %6s %5s %3s %6s  %s\n"

static void table_header(void)
{
	printf(WATCH_ROW, "seconds", "dev", "clock", "memory", "power", "limit", "temp", "P", "others", "held by");
}

/* A value of the reading in a table cell: "-" where not read. */
static const char *cell(const WatchLine *l, TelField f, const char *fmt, char *out, size_t len)
{
	if (isnan(l->v[f]))
		return "-";
	snprintf(out, len, fmt, l->v[f]);
	return out;
}

static bool print_row(OutFormat format, const WatchLine *l)
{
	if (format == FORMAT_JSON)
		return json_line(stdout, columns_json("watch", watch_cols, NCOLS(watch_cols), l));
	if (format == FORMAT_CSV)
		return columns_csv(stdout, watch_cols, NCOLS(watch_cols), l);
	char t[16], dev[8], a[16], b[16], c[16], d[16], e[16], p[8], o[16];
	snprintf(t, sizeof t, "%.1f", l->t);
	snprintf(dev, sizeof dev, "%.0f", l->dev);
	const char *others = cell(l, TEL_OTHER_GPU, "%.0f", o, sizeof o);
	if (isnan(l->v[TEL_OTHER_GPU]) && !isnan(l->v[TEL_OTHER_CPU])) /* a CPU device: the others' share of the cores */
		others = cell(l, TEL_OTHER_CPU, "%.0f%%", o, sizeof o);
	return printf(WATCH_ROW, t, dev, cell(l, TEL_SM_MHZ, "%.0f MHz", a, sizeof a),
	              cell(l, TEL_MEM_MHZ, "%.0f MHz", b, sizeof b), cell(l, TEL_POWER_W, "%.0f W", c, sizeof c),
	              cell(l, TEL_POWER_LIMIT_W, "%.0f W", d, sizeof d), cell(l, TEL_TEMP_C, "%.0f C", e, sizeof e),
	              cell(l, TEL_PSTATE, "%.0f", p, sizeof p), others,
	              l->reasons ? l->reasons : isnan(l->v[TEL_THROTTLE]) ? "-" : "none") >= 0;
}

/* One device's row now: its source read once into r (the caller's: the row
 * points into it), the PCIe link from sysfs. */
static bool read_row(Telemetry *t, TelReading *r, WatchLine *l, char *reasons, size_t rlen, char *link, size_t llen)
{
	bool ok = t->active && t->src.read(&t->src, r);
	for (int f = 0; f < TEL_FIELD_COUNT; f++)
		l->v[f] = ok && tel_has(r, (TelField)f) ? r->v[f] : NAN;
	double pl[TEL_PCIE_VALUES];
	link[0] = reasons[0] = '\0';
	if (t->pcie_dir[0]) {
		telemetry_pcie_link(t->pcie_dir, pl);
		for (int k = 0; k < TEL_PCIE_VALUES; k++)
			if (isnan(l->v[TEL_PCIE_GTS + k]))
				l->v[TEL_PCIE_GTS + k] = pl[k];
		if (l->v[TEL_PCIE_GTS] > 0 && l->v[TEL_PCIE_MAX_GTS] > 0) {
			char now[32], max[32];
			pcie_link_str(l->v[TEL_PCIE_GTS], l->v[TEL_PCIE_WIDTH], now, sizeof now);
			pcie_link_str(l->v[TEL_PCIE_MAX_GTS], l->v[TEL_PCIE_MAX_WIDTH], max, sizeof max);
			snprintf(link, llen, "%s of %s", now, max);
		}
	}
	if (!isnan(l->v[TEL_THROTTLE]))
		throttle_names((uint64_t)l->v[TEL_THROTTLE], reasons, rlen);
	l->reasons = reasons[0] ? reasons : NULL;
	l->link = link[0] ? link : NULL;
	l->who = ok && r->who[0] ? r->who : NULL;
	l->procs = ok && tel_has(r, TEL_OTHER_GPU) && !r->procs.foreign ? &r->procs : NULL;
	return ok;
}

/* The load-free exporter (--watch --metrics-listen): a board of the
 * devices' readings, a row a device, served; false (said) where it cannot
 * listen. */
typedef struct WatchExport {
	MetricsBoard *board;
	MetricsServer *server;
	int rows[CLI_MAX_DEVICES * 4];
} WatchExport;

static bool export_start(WatchExport *x, const VkCtx *ctx, const int *idx, size_t n, const char *listen_on)
{
	char url[300], err[512];
	if (!(x->board = mboard_create())) {
		fprintf(stderr, "flopscope: out of memory for the metrics\n");
		return false;
	}
	for (size_t k = 0; k < n; k++)
		x->rows[k] = mboard_device_row(x->board, (unsigned)idx[k] + 1, &ctx->entries[idx[k]]);
	if (!(x->server = metrics_serve(x->board, listen_on, url, sizeof url, err, sizeof err))) {
		fprintf(stderr, "flopscope: %s\n", err);
		mboard_destroy(x->board);
		x->board = NULL;
		return false;
	}
	fprintf(stderr, "flopscope: metrics at %s\n", url);
	return true;
}

/* A device's row of readings onto its board row. */
static void export_row(WatchExport *x, size_t k, const WatchLine *l)
{
	Sample s = { .tel_valid = 0 };
	for (int f = 0; f < TEL_FIELD_COUNT; f++)
		if (!isnan(l->v[f])) {
			s.tel[f] = l->v[f];
			s.tel_valid |= 1u << f;
		}
	mboard_sample(x->board, x->rows[k], &s);
}

static void export_stop(WatchExport *x)
{
	metrics_server_stop(x->server);
	mboard_destroy(x->board);
}

int watch_run(const VkCtx *ctx, const int *idx, size_t n, const Options *o, atomic_int *quit)
{
	WatchExport x = { .board = NULL };
	if (n > CLI_MAX_DEVICES * 4)
		n = CLI_MAX_DEVICES * 4;
	if (o->metrics_listen && !export_start(&x, ctx, idx, n, o->metrics_listen))
		return 2;
	Telemetry *t = calloc(n, sizeof *t);
	if (!t) {
		fprintf(stderr, "flopscope: --watch: out of memory for %zu devices\n", n);
		if (x.board)
			export_stop(&x);
		return 1;
	}
	double every = o->interval_s > 0 ? o->interval_s : 1.0;
	double until = o->duration_given ? o->duration_s : 0; /* 0: until stopped */
	size_t read = 0;
	for (size_t k = 0; k < n; k++) {
		const DeviceInfo *d = &ctx->entries[idx[k]];
		read += telemetry_open_watch(&t[k], d);
		fprintf(stderr, "flopscope: --watch [%zu] %s: %s\n", k + 1, d->name, t[k].note);
	}
	if (o->format == FORMAT_TABLE) {
		printf("Watching %zu device%s every %g s, %s (no load of flopscope's):\n", n, n == 1 ? "" : "s", every,
		       until > 0 ? "for the duration given" : "until Ctrl-C");
		table_header();
	} else if (o->format == FORMAT_CSV) {
		columns_csv_header(stdout, watch_cols, NCOLS(watch_cols));
	}
	uint64_t t0 = clock_mono_ns();
	bool out = true;
	for (unsigned long tick = 0; out && !atomic_load(quit); tick++) {
		double now = (double)(clock_mono_ns() - t0) * 1e-9;
		for (size_t k = 0; k < n && out; k++) {
			char reasons[160], link[80];
			TelReading r;
			WatchLine l = { .t = now, .dev = (double)(k + 1), .reasons = reasons, .link = link,
			                .id = { &ctx->entries[idx[k]], (size_t)idx[k] + 1, NULL } };
			read_row(&t[k], &r, &l, reasons, sizeof reasons, link, sizeof link);
			if (x.board)
				export_row(&x, k, &l);
			out = print_row(o->format, &l);
		}
		out = out && fflush(stdout) == 0;
		double next = (double)(tick + 1) * every;
		if (until > 0 && next > until + 1e-9)
			break;
		/* to the next tick on the run's own clock, a signal ends it sooner */
		while (!atomic_load(quit)) {
			double left = next - (double)(clock_mono_ns() - t0) * 1e-9;
			if (left <= 0)
				break;
			struct timespec ts = { 0, (long)((left < 0.05 ? left : 0.05) * 1e9) };
			nanosleep(&ts, NULL);
		}
	}
	int err = errno;
	if (x.board)
		export_stop(&x);
	for (size_t k = 0; k < n; k++)
		telemetry_close(&t[k]);
	free(t);
	if (!out && err != EPIPE) {
		fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(err));
		return 1;
	}
	if (!read)
		fprintf(stderr, "flopscope: --watch: no device gave a reading (see above)\n");
	return atomic_load(quit) ? STATUS_SIGNAL + atomic_load(quit) : 0;
}
