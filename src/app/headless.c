#include "headless.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "report.h"

static void print_preamble(const Engine *e, const Options *o)
{
	const DeviceInfo *d = e->cfg.dev;
	if (o->format != FORMAT_TABLE)
		return;
	printf("Using device:\n   %s (compute queue: %u, type: %s)\n", d->name, d->queue_family,
	       devinfo_type_str(d->type));
	const WorkloadInfo *wl = &workload_info[e->cfg.workload];
	printf("Workload: %s (%s), %llu %s per invocation, %u invocations per workgroup\n", wl->name, wl->what,
	       (unsigned long long)e->flop_per_invocation, workload_is_memory(e->cfg.workload) ? "bytes" : !strcmp(wl->unit, "IOPS") ? "integer ops" : "FLOP",
	       e->params.local_size);
	printf("Timing: %s; target %.3g ms per dispatch%s\n",
	       e->comp.timestamps ? "GPU timestamps (CPU wall time alongside)"
	                          : "CPU wall time (this queue family has no timestamps)",
	       o->target_ms, o->duration_s > 0 ? "" : ", until Ctrl-C");
	if (engine_log_path((Engine *)e))
		printf("Session log: %s\n", engine_log_path((Engine *)e));
	printf("\n%s", report_table_header);
}

int headless_run(Engine *e, const Options *o, volatile sig_atomic_t *quit)
{
	char err[ERR_LEN];
	char line[1024];
	int status = 0;
	bool out_ok = true;
	Summary sum;
	summary_init(&sum);

	print_preamble(e, o);
	if (o->format != FORMAT_TABLE && engine_log_path(e))
		fprintf(stderr, "flopscope: session log %s\n", engine_log_path(e));
	if (o->format == FORMAT_CSV)
		fputs(report_csv_header, stdout);
	fflush(stdout);

	if (!engine_start(e, err)) {
		fprintf(stderr, "flopscope: %s\n", err);
		summary_done(&sum);
		return 1;
	}
	for (;;) {
		if (*quit)
			engine_request_stop(e);
		EngineState st = engine_state(e);
		bool finished = st == ENGINE_DONE || st == ENGINE_ERROR;
		Sample s;
		bool any = false;
		while (ring_pop(&e->ring, &s)) {
			any = true;
			summary_add(&sum, &s);
			if (!out_ok)
				continue;
			switch (o->format) {
			case FORMAT_TABLE:
				report_table_row(&s, line, sizeof line);
				break;
			case FORMAT_CSV:
				report_csv_row(&s, line, sizeof line);
				break;
			default:
				if (!record_sample_json(&s, line, sizeof line))
					snprintf(line, sizeof line, "{\"type\":\"error\",\"what\":\"out of memory\"}");
				break;
			}
			if (printf("%s\n", line) < 0)
				out_ok = false;
		}
		if (any && out_ok && fflush(stdout) != 0)
			out_ok = false;
		if (!out_ok && status == 0) {
			fprintf(stderr, "flopscope: cannot write to standard output: %s; stopping\n",
			        strerror(errno));
			engine_request_stop(e);
			status = 1;
		}
		if (finished && !any)
			break;
		if (!any) {
			struct timespec ts = { 0, 2 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	engine_join(e);

	SummaryResult r;
	summary_result(&sum, &r);
	size_t dropped = ring_dropped(&e->ring);
	uint64_t checks = engine_checks_passed(e);
	if (out_ok) {
		if (o->format == FORMAT_JSON)
			record_summary_json(stdout, &r, dropped, checks);
		else
			report_summary_text(o->format == FORMAT_TABLE ? stdout : stderr, &r, dropped, checks,
			                    o->target_ms);
		fflush(stdout);
	}
	if (sum.oom)
		fprintf(stderr, "flopscope: out of memory for the summary; statistics cover the first %zu samples\n",
		        r.steady);
	FILE *info = o->format == FORMAT_TABLE ? stdout : stderr;
	if (e->tel.active)
		fprintf(info, "  telemetry: %s; %.0f us a reading, every 10 ms on its own thread\n", e->tel.note,
		        telemetry_read_us(&e->tel));
	else
		fprintf(info, "  telemetry: %s\n", e->tel.note);
	fprintf(info, "  theoretical peak: %s\n", e->peak.how);
	uint64_t first = atomic_load(&e->first_sample_ns);
	fprintf(info, "  start: shader %.1f ms (%s), device and pipeline %.1f ms (pipeline %.1f ms, %s), "
	        "warm-up %.1f ms; first sample %.1f ms after launch\n", e->start_shader_ms,
	        e->spirv_cached ? "SPIR-V from the cache" : "compiled by shaderc", e->start_device_ms,
	        e->comp.pipeline_ms, e->comp.cache_loaded ? "pipeline cache loaded" : "no pipeline cache yet",
	        e->start_warmup_ms, (double)first * 1e-6);
	if (engine_log_error(e)) {
		/* measured, but the evidence is incomplete */
		fprintf(stderr, "flopscope: %s\n", engine_log_error(e));
		status = 1;
	}
	if (engine_state(e) == ENGINE_ERROR) {
		fprintf(stderr, "flopscope: %s\n", engine_error(e));
		status = 1;
	}
	summary_done(&sum);
	return status;
}
