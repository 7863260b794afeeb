#include "headless.h"
#include "outputs.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "clock.h"
#include "columns.h"
#include "fmt.h"
#include "interval_out.h"
#include "metrics_live.h"
#include "report.h"
#include "slog.h"
#include "throttle.h"

static void print_preamble(const RunInfo *in, const Options *o)
{
	const DeviceInfo *d = in->dev;
	if (o->format != FORMAT_TABLE)
		return;
	printf("Using device:\n   %s (compute queue: %u, type: %s)\n", d->name, d->queue_family,
	       devinfo_type_str(d->type));
	const WorkloadInfo *wl = &workload_info[in->workload];
	printf("Workload: %s (%s), %llu %s per invocation, %u invocations per workgroup\n", wl->name, wl->what,
	       (unsigned long long)in->work_per_invocation,
	       workload_is_memory(in->workload) ? "bytes" : wl->unit == UNIT_IOPS ? "integer ops" : "FLOP",
	       in->local_size);
	char tms[32];
	printf("Timing: %s; target %s per dispatch%s\n",
	       in->timestamps ? "GPU timestamps (CPU wall time alongside)"
	                      : "CPU wall time (this queue family has no timestamps)",
	       fmt_ms(o->target_ms, tms, sizeof tms), o->duration_s > 0 ? "" : ", until Ctrl-C");
	if (in->log_path)
		printf("Session log: %s\n", in->log_path);
	if (o->interval_s > 0)
		printf("Rows: every %g s (the median, least and most of its dispatches)\n", o->interval_s);
	printf("\n");
	if (o->interval_s > 0)
		interval_out_header(FORMAT_TABLE, false);
	else
		fputs(report_table_header, stdout);
}

typedef struct Printer {
	OutFormat format;
	IntervalOut *iv; /* --interval: rows of S seconds; NULL: a row a sample */
	Engine *e;       /* its other processes, beside each JSON sample */
	MetricsOut *mo;
	int row;
	bool out_ok;
	int err_no;     /* errno of the failed write */
	char ident[REPORT_CSV_IDENT_LEN]; /* the CSV rows' identity columns */
} Printer;

/* One sample on stdout, or (s NULL) the end of a batch: stdout flushed
 * once for it; false (the engine is then stopped) once stdout cannot be
 * written. */
static bool print_sample(void *ctx, const Sample *s)
{
	Printer *p = ctx;
	if (s && p->mo && p->mo->board)
		mboard_sample(p->mo->board, p->row, s);
	if (!s && p->mo)
		metrics_out_tick(p->mo);
	/* --interval: an interval that ended with no dispatch in it is a row
	 * of 0 samples as it ends (a watcher tells a stall from a hang) */
	if (!s && p->iv && p->out_ok && !interval_out_idle(p->iv)) {
		p->err_no = errno;
		p->out_ok = false;
	}
	if (!s) {
		if (fflush(stdout) != 0) {
			p->err_no = errno;
			p->out_ok = false;
		}
		return p->out_ok;
	}
	char line[REPORT_CSV_ROW_LEN];
	bool ok;
	if (p->iv) {
		ok = interval_out_sample(p->iv, s);
	} else if (p->format == FORMAT_JSON) {
		ok = json_line(stdout, outputs_sample_json(s, 0, p->e));
	} else {
		if (p->format == FORMAT_TABLE)
			report_table_row(s, line, sizeof line);
		else
			report_csv_row(s, 1, p->ident, line, sizeof line);
		ok = printf("%s\n", line) >= 0;
	}
	if (!ok) {
		p->err_no = errno;
		p->out_ok = false;
	}
	return p->out_ok;
}

/* The samples of the set's one engine. */
static bool print_member_sample(void *ctx, size_t k, const Sample *s)
{
	(void)k;
	return print_sample(ctx, s);
}

static int run_one(Engine *e, EngineSet *set, const Options *o, MetricsOut *mo, int row, size_t entry,
                   atomic_int *quit);

int headless_run(const EngineConfig *cfg, size_t entry, const Options *o, MetricsOut *mo, atomic_int *quit)
{
	EngineSet set;
	Error err;
	if (!engine_set_create(&set, cfg, 1, true, &err)) {
		fprintf(stderr, "flopscope: %s\n", err.msg);
		engine_set_destroy(&set);
		return err.status;
	}
	int row = mo && mo->board ? mboard_row(mo->board, (unsigned)entry, cfg->dev, workload_info[cfg->workload].name,
	                                       workload_info[cfg->workload].unit) : -1;
	int status = run_one(set.m[0].e, &set, o, mo, row, entry, quit);
	mboard_end(mo ? mo->board : NULL, row); /* before the engine goes */
	engine_set_destroy(&set);
	return status;
}

/* What the rows are of, before them: the table's preamble, the CSV
 * header, the JSON session record. */
static void print_heads(Engine *e, const Options *o)
{
	const RunInfo *in = engine_info(e);
	print_preamble(in, o);
	if (o->format != FORMAT_TABLE && in->log_path)
		fprintf(stderr, "flopscope: session log %s\n", in->log_path);
	if (o->format == FORMAT_CSV && o->interval_s > 0)
		interval_out_header(FORMAT_CSV, false);
	else if (o->format == FORMAT_CSV)
		fputs(report_csv_header(), stdout);
	else if (o->format == FORMAT_JSON)
		slog_print_session(stdout, engine_meta(e), 0); /* what the samples are of */
	fflush(stdout);
}

/* --interval: the run's last, shorter row. */
static void print_last_interval(Printer *p)
{
	if (p->iv && p->out_ok && (!interval_out_last(p->iv) || fflush(stdout) != 0)) {
		p->err_no = errno;
		p->out_ok = false;
	}
}

static int run_one(Engine *e, EngineSet *set, const Options *o, MetricsOut *mo, int row, size_t entry,
                   atomic_int *quit)
{
	const RunInfo *in = engine_info(e);
	int status = 0;
	print_heads(e, o);

	if (!engine_set_start(set, true)) {
		fprintf(stderr, "flopscope: %s\n", set->m[0].err.msg);
		return 1;
	}
	if (mo)
		mboard_attach(mo->board, row, engine_summary_reader(e));
	IntervalOut iv;
	const char *unit = workload_unit_names[workload_info[in->workload].unit];
	interval_out_init(&iv, o, unit, in->dev, entry, 0);
	Printer p = { .format = o->format, .iv = o->interval_s > 0 ? &iv : NULL, .e = e, .mo = mo, .row = row,
	              .out_ok = true };
	report_csv_identity(engine_meta(e), p.ident, sizeof p.ident);
	engine_set_drain(set, print_member_sample, &p, quit);
	engine_set_finish(set);
	print_last_interval(&p);
	interval_out_done(&iv);
	if (!p.out_ok && p.err_no != EPIPE) {
		fprintf(stderr, "flopscope: cannot write to standard output: %s; stopped\n", strerror(p.err_no));
		status = 1;
	}
	/* EPIPE: the reader went away (`| head`), a normal way to stop: the log
	 * has every sample and the summary; nothing more goes to stdout */

	/* the engine's own statistics: every sample, as the log has them */
	const EngineMember *m = &set->m[0];
	const SummaryResult *rp = &m->sum;
	size_t dropped = engine_dropped(e);
	uint64_t checks = m->checks;
	/* the summary where the format puts it: JSON and the table on stdout
	 * (while it can be written), CSV's in words on stderr */
	if (o->format == FORMAT_CSV)
		report_summary_text(stderr, rp, dropped, checks, o->target_ms);
	else if (p.out_ok && o->format == FORMAT_JSON)
		record_summary_json(stdout, rp, dropped, checks);
	else if (p.out_ok)
		report_summary_text(stdout, rp, dropped, checks, o->target_ms);
	fflush(stdout);
	if (rp->oom)
		fprintf(stderr, "flopscope: out of memory for the summary; statistics cover the first %zu samples\n",
		        rp->steady);
	FILE *info = o->format != FORMAT_TABLE ? stderr : p.out_ok ? stdout : NULL;
	if (info && in->telemetry_active)
		fprintf(info, "  telemetry: %s; %.0f us a reading, every 10 ms on its own thread\n",
		        in->telemetry_note, engine_telemetry_read_us(e));
	else if (info)
		fprintf(info, "  telemetry: %s\n", in->telemetry_note);
	if (info) {
		/* times over a second in seconds (an H100's first cooperative-matrix
		 * pipeline takes 8 s) */
		char sh[32], dv[32], pl[32], wu[32], fs[32];
		fprintf(info, "  theoretical peak: %s\n", in->peak_how);
		fprintf(info, "  start: shader %s (%s%s), device and pipeline %s (pipeline %s, %s), "
		        "warm-up %s; first sample %s after launch\n", fmt_ms(in->start_shader_ms, sh, sizeof sh),
		        in->spirv_cached ? "SPIR-V from the cache" : "compiled by shaderc",
		        in->shader_on_thread ? ", beside the device's creation" : "",
		        fmt_ms(in->start_device_ms, dv, sizeof dv), fmt_ms(in->start_pipeline_ms, pl, sizeof pl),
		        in->pipeline_cache_loaded ? "pipeline cache loaded" : "no pipeline cache yet",
		        fmt_ms(in->start_warmup_ms, wu, sizeof wu), fmt_ms(m->first_ms, fs, sizeof fs));
	}
	outputs_run_notes(in);
	if (m->log_failed) {
		/* measured, but the evidence is incomplete */
		fprintf(stderr, "flopscope: %s\n", engine_log_error(e));
		status = 1;
	}
	if (m->failed) {
		fprintf(stderr, "flopscope: %s\n", m->error);
		status = m->wrong ? STATUS_WRONG : 1;
		if (m->wrong && mo)
			mboard_check_failed(mo->board, row);
	}
	return status;
}
