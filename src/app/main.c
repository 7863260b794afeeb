/* flopscope: what a Vulkan compute device really delivers. */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "devsel.h"
#include "engine.h"
#include "headless.h"
#include "listing.h"
#include "offline.h"
#include "shader.h"
#include "slog.h"
#include "suite.h"
#include "latency.h"
#include "ui.h"
#include "version.h"
#include "vkctx.h"

static volatile sig_atomic_t quit_flag;

static void on_signal(int sig)
{
	quit_flag = sig;
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed pipe shows as EPIPE on write, a file over the size limit as
	 * EFBIG: both handled where we write. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
}

static int pick_device(const VkCtx *ctx, const Options *o)
{
	const char **names = calloc(ctx->entry_count, sizeof *names);
	int *rank = calloc(ctx->entry_count, sizeof *rank);
	if (!names || !rank) {
		free(names);
		free(rank);
		fprintf(stderr, "flopscope: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < ctx->entry_count; i++) {
		names[i] = ctx->entries[i].name;
		rank[i] = devinfo_type_rank(ctx->entries[i].type);
	}
	char err[ERR_LEN];
	DevselQuery q = { o->dev_word, o->dev_index };
	int idx = devsel_pick(names, rank, ctx->entry_count, &q, err, sizeof err);
	free(names);
	free(rank);
	if (idx < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		listing_print(stderr, &(DeviceList){ ctx->entries, ctx->entry_count }, false);
	}
	return idx;
}

int main(int argc, char **argv)
{
	uint64_t launch = compute_now_ns();
	setlocale(LC_ALL, "");
	Options o;
	char err[ERR_LEN];
	if (cli_parse(argc, argv, &o, err, sizeof err) < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 2;
	}
	/* the tests run everything under the validation layer */
	const char *fv = getenv("FLOPSCOPE_VALIDATE");
	if (fv && *fv && strcmp(fv, "0"))
		o.validate = true;
	if (o.help) {
		fputs(cli_usage, stdout);
		return 0;
	}
	if (o.version) {
		printf("flopscope %s\n", FLOPSCOPE_VERSION);
		return 0;
	}

	/* Recorded sessions need no device. */
	if (o.compare[0])
		return offline_compare(&o);
	if (o.export_file)
		return offline_export(&o);
	if (o.analyze)
		return offline_analyze(&o);
	if (o.replay && (o.headless || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		return offline_replay_table(&o);
	if (o.replay) {
		install_signals();
		int rc = ui_replay(&o, &quit_flag);
		if (rc >= 0)
			return rc;
		fprintf(stderr, "flopscope: cannot use this terminal; printing the table instead\n");
		return offline_replay_table(&o);
	}

	int wl = o.workload ? workload_find(o.workload) : WORKLOAD_FP32;
	if (wl < 0) {
		char names[256];
		workload_names(names, sizeof names);
		fprintf(stderr, "flopscope: --workload: \"%s\" is not one of %s\n", o.workload, names);
		return 2;
	}
	if ((o.size_lo || o.transfer_queue) && !o.suite && !workload_is_memory((WorkloadType)wl)) {
		fprintf(stderr, "flopscope: --size and --transfer-queue go with a memory workload (--workload copy, h2d, ...)\n");
		return 2;
	}

	VkCtx ctx;
	bool no_device;
	if (!vkctx_create(&ctx, o.validate, err, &no_device)) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 1;
	}
	int status = 0;
	if (o.list) {
		listing_print(stdout, &(DeviceList){ ctx.entries, ctx.entry_count }, o.verbose);
		goto out;
	}
	if (o.list_workloads) {
		int i = pick_device(&ctx, &o);
		if (i < 0) {
			status = 2;
			goto out;
		}
		printf("Workloads on %s (compute queue: %u):\n", ctx.entries[i].name, ctx.entries[i].queue_family);
		for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
			char why[256];
			bool ok = workload_supported((WorkloadType)w, devinfo_features(&ctx.entries[i]), why, sizeof why);
			printf("  %-10s %-5s  %-12s %s\n", workload_info[w].name, workload_info[w].unit,
			       ok ? "supported" : "unsupported", ok ? workload_info[w].what : why);
		}
		goto out;
	}
	if (o.latency) {
		int i = pick_device(&ctx, &o);
		status = i < 0 ? 2 : latency_run(&ctx, i, &o);
		goto out;
	}
	if (o.suite) {
		int i = pick_device(&ctx, &o);
		if (i < 0) {
			status = 2;
			goto out;
		}
		install_signals();
		status = suite_run(&ctx, i, &o, launch, &quit_flag);
		goto out;
	}
	bool named = o.dev_index || o.dev_word || o.default_device;
	if (!o.headless && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		o.headless = true;
	int idx = -1;
	if (named || o.headless) {
		idx = pick_device(&ctx, &o);
		if (idx < 0) {
			status = 2;
			goto out;
		}
	}
	install_signals();
	if (!o.headless) {
		/* A device named on the command line skips the picker. */
		o.workload = workload_info[wl].name;
		status = ui_run(&ctx, &o, idx, &quit_flag);
		if (status >= 0)
			goto out;
		const char *term = getenv("TERM");
		fprintf(stderr, "flopscope: cannot use this terminal (TERM=%s); printing the table instead\n",
		        term && *term ? term : "unset");
		o.headless = true;
		if (idx < 0 && (idx = pick_device(&ctx, &o)) < 0) {
			status = 2;
			goto out;
		}
	}

	char dir[4096], log_buf[4096];
	shader_dir_resolve(o.shader_dir, dir, sizeof dir);
	EngineConfig cfg = {
		.log_path = slog_choose_path(o.no_log, o.log, ctx.entries[idx].name, 1, log_buf, sizeof log_buf),
		.ctx = &ctx,
		.dev = &ctx.entries[idx],
		.target_ms = o.target_ms,
		.duration_s = o.duration_s,
		.shader_dir = dir,
		.serial = o.serial,
		.workload = (WorkloadType)wl,
		.trials = o.trials,
		.size_lo = o.size_lo,
		.size_hi = o.size_hi,
		.transfer_queue = o.transfer_queue,
		.launch_ns = launch,
		.no_cache = o.no_cache,
	};
	Engine e;
	int rc = engine_create(&e, &cfg, err);
	if (rc < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		status = rc == -2 ? 2 : 1;
		goto out;
	}
	status = headless_run(&e, &o, &quit_flag);
	engine_destroy(&e);
out:;
	vkctx_destroy(&ctx); /* the layer may still report while objects go */
	unsigned msgs = atomic_load(&ctx.validation_messages);
	if (o.validate && msgs) {
		fprintf(stderr, "flopscope: the validation layer reported %u message%s\n", msgs,
		        msgs == 1 ? "" : "s");
		if (status == 0)
			status = 1;
	}
	return status;
}
