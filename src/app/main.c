/* flopscope: what a Vulkan compute device really delivers. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdatomic.h>
#include <pthread.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fmt.h"
#include "config.h"
#include "clock.h"
#include "threadname.h"
#include "devsel.h"
#include "engine.h"
#include "headless.h"
#include "devlist.h"
#include "watch.h"
#include "fleet_cmd.h"
#include "inventory.h"
#include "listing.h"
#include "offline.h"
#include "outputs.h"
#include "multi.h"
#include "runcfg.h"
#include "shader.h"
#include "slog.h"
#include "paths.h"
#include "fileio.h"
#include "burn_cmd.h"
#include "check_cmd.h"
#include "metrics_live.h"
#include "gpumap.h"
#include "nvml.h"
#include "suite.h"
#include "latency.h"
#include "interactive.h"
#include "version.h"
#include "commit.h" /* generated: the build's commit (Makefile) */
#include "theme.h"
#include "vkctx.h"

/* Set (to the signal's number) when SIGINT, SIGTERM, SIGHUP or SIGQUIT asks the run
 * to stop; every loop that measures reads it. */
static atomic_int quit_flag;

/* The one thread that takes the stop signals and SIGCONT. */
static void *signal_main(void *arg)
{
	const sigset_t *set = arg;
	thread_name("fs-signals", 0);
	const struct timespec tick = { 0, CLOCK_ALIVE_MS * 1000000L };
	clock_note_alive();
	for (;;) {
		/* a sign of life each tick: a stop stops this thread too, so the
		 * last one before a SIGCONT says when the stop began */
		int sig = sigtimedwait(set, NULL, &tick);
		if (sig < 0) {
			/* EINTR: a stop woke the wait and ended there, its SIGCONT
			 * next; the tick (EAGAIN) too may return after a stop: the
			 * SIGCONT is pending by then */
			sigset_t pending;
			if (errno == EAGAIN && sigpending(&pending) == 0 && !sigismember(&pending, SIGCONT))
				clock_note_alive();
			continue;
		}
		if (sig == SIGCONT)
			clock_note_resume(); /* stopped and going on: the engine leaves that time out */
		else
			atomic_store(&quit_flag, sig);
	}
	return NULL;
}

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT ask the run to stop: the summary is printed
 * and logged, the terminal restored. Set up before anything that takes time
 * or starts a thread (the device list, the shader, the device), so that a
 * signal at any moment of a run ends it that way, never by the default
 * action.
 *
 * The signals are blocked here, in the main thread, and so in every thread
 * started after it (the engine's, the telemetry's, the driver's own), and
 * one thread takes them with sigtimedwait. A handler runs in whichever thread
 * the kernel picks, which may be a driver thread waiting where no handler
 * can run soon: under ThreadSanitizer, which defers a handler to the
 * thread's next intercepted call, a lavapipe thread parked in a raw futex
 * kept one SIGINT for good (CI, 1 of 100 tries). Where the thread cannot
 * start, said, the signals keep their default action. */
static void install_signals(void)
{
	static sigset_t set;
	static bool installed;
	if (installed)
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT); /* Ctrl-\ in the dashboard: left the alternate screen up, no summary */
	sigaddset(&set, SIGCONT);
	sigset_t old;
	int rc = pthread_sigmask(SIG_BLOCK, &set, &old);
	pthread_t t;
	if (!rc && (rc = pthread_create(&t, NULL, signal_main, &set)) != 0)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		fprintf(stderr, "flopscope: cannot start the signal thread (%s): a signal ends the run without its summary\n",
		        strerror(rc));
		return;
	}
	pthread_detach(t);
	installed = true;
}

/* What was printed reached standard output, or the status says why not
 * (outputs_stdout_failed: a reader that went away is a normal end). */
static int finish_stdout(int status)
{
	if (status != 0) {
		fflush(stdout); /* said already */
		return status;
	}
	return outputs_stdout_failed() ? 1 : 0;
}

/* How GPU indices were tied to devices (NVML, else the DRM render nodes'
 * order), or why they were not. */
static char map_why[600];
static GpuMap gpu_map = { NULL, NULL, map_why };

/* The entries' GPU indices: NVML's; where NVML has no GPUs, the DRM render
 * nodes' order (Slurm's GRES order on AMD and Intel nodes). */
static void map_gpus(VkCtx *ctx)
{
	char why[256];
	if (nvml_index_devices(ctx->entries, ctx->entry_count, map_why, sizeof map_why)) {
		for (size_t i = 0; i < ctx->entry_count; i++)
			if (ctx->entries[i].has_gpu_index) {
				gpu_map = (GpuMap){ "NVML", "nvidia-smi -L lists NVML's", NULL };
				return;
			}
		snprintf(map_why, sizeof map_why, "NVML knows no GPU Vulkan shows");
	}
	int drm = drm_index_devices(ctx->entries, ctx->entry_count, why, sizeof why);
	if (drm > 0) {
		gpu_map = (GpuMap){ "the DRM render nodes' order", "ls /sys/class/drm lists them", NULL };
		return;
	}
	size_t at = strlen(map_why);
	snprintf(map_why + at, sizeof map_why - at, "; %s", why);
}

static int pick_device(const VkCtx *ctx, const Options *o)
{
	char err[ERR_LEN];
	DevselQuery q = { o->dev_word, o->dev_index };
	int idx = devsel_pick(ctx->entries, ctx->entry_count, &q, err, sizeof err);
	if (idx < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		listing_print(stderr, &(DeviceList){ ctx->entries, ctx->entry_count }, false);
	}
	return idx;
}

/* --list's table: Vulkan's devices, then the host's GPUs it does not show,
 * marked, each with its likeliest cause (the check's inventory). */
static void list_with_missing(const VkCtx *ctx, bool verbose)
{
	listing_print(stdout, &(DeviceList){ ctx->entries, ctx->entry_count }, verbose);
	Inventory *inv = malloc(sizeof *inv);
	if (!inv) {
		fprintf(stderr, "flopscope: out of memory for the host's GPUs\n");
		return;
	}
	inventory_take(ctx->entries, ctx->entry_count, inv);
	for (size_t k = 0; k < inv->nmissing; k++) {
		const MissingGpu *m = &inv->missing[k];
		char gpu[16] = "-";
		if (m->gpu >= 0)
			snprintf(gpu, sizeof gpu, "%d", m->gpu);
		printf("   MISSING: GPU %s (%s%s%s%s%s): not seen by Vulkan: %s\n", gpu, m->name, m->uuid[0] ? ", " : "",
		       m->uuid, m->pci[0] ? ", " : "", m->pci, m->why);
	}
	free(inv);
}

/* --list's records (JSON, CSV): Vulkan's devices, then the host's GPUs it
 * does not show (device_missing records; CSV rows of state missing). */
static void list_records(const VkCtx *ctx, OutFormat format)
{
	if (!devlist_print(stdout, &(DeviceList){ ctx->entries, ctx->entry_count }, format))
		return;
	Inventory *inv = malloc(sizeof *inv);
	if (!inv) {
		fprintf(stderr, "flopscope: out of memory for the host's GPUs\n");
		return;
	}
	inventory_take(ctx->entries, ctx->entry_count, inv);
	for (size_t k = 0; k < inv->nmissing && devlist_print_missing(stdout, &inv->missing[k], format); k++)
		;
	free(inv);
}

/* Whether the devices picked are every GPU of the host (--all, or a check
 * naming none, with no word to filter them): the check's inventory. */
static bool every_device;

/* --all: every physical device (whose name has the word), its first
 * compute family; 0 (said) if none. */
static size_t pick_all(const VkCtx *ctx, const Options *o, int *idx, size_t cap)
{
	size_t n = 0;
	every_device = !o->dev_word;
	for (size_t i = 0; i < ctx->entry_count && n < cap; i++) {
		const DeviceInfo *d = &ctx->entries[i];
		bool seen = false;
		for (size_t k = 0; k < n; k++)
			seen |= ctx->entries[idx[k]].phys_index == d->phys_index;
		if (!seen && (!o->dev_word || devsel_matches(d, o->dev_word)))
			idx[n++] = (int)i;
	}
	if (!n) {
		if (o->dev_word)
			fprintf(stderr, "flopscope: --all: no device named by \"%s\" (its name, UUID or PCI address)\n",
			        o->dev_word);
		else
			fprintf(stderr, "flopscope: --all: no device\n");
		listing_print(stderr, &(DeviceList){ ctx->entries, ctx->entry_count }, false);
	}
	return n;
}

/* A job's GPUs that neither NVML nor the render nodes tie to devices: a
 * runtime's mask where it can be tied (ROCR_VISIBLE_DEVICES's UUIDs,
 * ZE_AFFINITY_MASK in PCI order), else every device, said, rather than a
 * prolog draining the node for want of a map. */
static size_t pick_job_unmapped(const VkCtx *ctx, const Options *o, const char *job, int *idx, size_t cap)
{
	char list[1024], why[ERR_LEN + 64], err[ERR_LEN];
	const char *from = NULL;
	int r = gpumap_runtime_list(ctx->entries, ctx->entry_count, getenv("ROCR_VISIBLE_DEVICES"),
	                            getenv("ZE_AFFINITY_MASK"), getenv("ZE_ENABLE_PCI_ID_DEVICE_ORDER"), list, sizeof list,
	                            &from, why, sizeof why);
	if (r > 0) {
		size_t n = devsel_gpu_list(ctx->entries, ctx->entry_count, list, from, &gpu_map, idx, cap, err, sizeof err);
		if (n) {
			fprintf(stderr, "flopscope: --check: SLURM_JOB_GPUS=%s cannot be tied to devices (%s); the job's GPUs "
			        "by %s=%s\n", job, map_why, from, getenv(from));
			return n;
		}
		snprintf(why, sizeof why, "%s", err);
	}
	fprintf(stderr, "flopscope: warning: SLURM_JOB_GPUS=%s cannot be tied to devices (%s%s%s): checking every "
	        "device\n", job, map_why, r ? "; " : "", r ? why : "");
	Options every = *o;
	every.all = true;
	every.gpus = NULL;
	return pick_all(ctx, &every, idx, cap);
}

/* The entries several devices at once name: each -N (a word filters the
 * list first), or with --all every physical device (whose name has the
 * word), its first compute family. Returns how many, 0 (said) if none. */
static size_t pick_devices(const VkCtx *ctx, const Options *o, int *idx, size_t cap)
{
	size_t n = 0;
	/* the GPUs named as nvidia-smi and Slurm name them: --gpus, or a job's
	 * own in a check that names no device */
	const char *list = o->gpus, *from = "--gpus";
	const char *job = getenv("SLURM_JOB_GPUS");
	if (!list && o->mode == MODE_CHECK && !o->ndev_indexes && !o->dev_word && job && *job) {
		list = job;
		from = "SLURM_JOB_GPUS";
		fprintf(stderr, "flopscope: --check: the job's GPUs, SLURM_JOB_GPUS=%s\n", job);
	}
	if (list) {
		char err[ERR_LEN];
		n = devsel_gpu_list(ctx->entries, ctx->entry_count, list, from, &gpu_map, idx, cap, err, sizeof err);
		/* no map to tie a well-formed list: every device, said; a
		 * malformed one is bad input whatever the map */
		if (!n && list == job && !gpu_map.by && devsel_gpu_list_wellformed(job, from, err, sizeof err))
			return pick_job_unmapped(ctx, o, job, idx, cap);
		if (!n) {
			fprintf(stderr, "flopscope: %s\n", err);
			listing_print(stderr, &(DeviceList){ ctx->entries, ctx->entry_count }, false);
		}
		return n;
	}
	if (o->all)
		return pick_all(ctx, o, idx, cap);
	if (!o->ndev_indexes) { /* one device, by its name or the default (pick_device says why not) */
		int i = pick_device(ctx, o);
		if (i < 0 || !cap)
			return 0;
		idx[0] = i;
		return 1;
	}
	for (unsigned k = 0; k < o->ndev_indexes && n < cap; k++) {
		Options one = *o;
		one.dev_index = o->dev_indexes[k];
		int i = pick_device(ctx, &one);
		if (i < 0)
			return 0;
		idx[n++] = i;
	}
	return n;
}

static int replay(const Options *o)
{
	if (o->headless)
		return o->nreplays > 1 ? offline_replay_node_table(o) : offline_replay_table(o);
	install_signals();
	int rc = interactive_replay(o, &quit_flag);
	if (rc >= 0)
		return rc;
	fprintf(stderr, "flopscope: cannot use this terminal; printing the table instead\n");
	return o->nreplays > 1 ? offline_replay_node_table(o) : offline_replay_table(o);
}

/* The default mode: the dashboard, or the table when there is no terminal
 * (idx < 0: the picker chooses). */
static int measure(const VkCtx *ctx, Options *o, int idx, WorkloadType wl, uint64_t launch, MetricsOut *mo)
{
	if (!o->headless) {
		/* A device named on the command line skips the picker. */
		int status = interactive_run(ctx, &(DeviceList){ ctx->entries, ctx->entry_count }, o, &idx, idx >= 0 ? 1 : 0,
		                             wl, launch, mo, &quit_flag);
		if (status >= 0)
			return status;
		const char *term = getenv("TERM");
		fprintf(stderr, "flopscope: cannot use this terminal (TERM=%s); printing the table instead\n",
		        term && *term ? term : "unset");
		o->headless = true;
		if (idx < 0 && (idx = pick_device(ctx, o)) < 0)
			return 2;
	}

	RunPaths paths;
	EngineConfig cfg;
	run_plan(o, RUN_HEADLESS, ctx, &ctx->entries[idx], wl, 1, launch, NULL, &paths, &cfg);

	return headless_run(&cfg, (size_t)idx + 1, o, mo, &quit_flag);
}

/* --save-config: the settings into the config file. */
static int save_config(const Options *o)
{
	char msg[4400];
	int status = config_save(o, msg, sizeof msg);
	fprintf(status ? stderr : stdout, "%s%s%s\n", status ? "flopscope: " : "", msg,
	        status == 2 ? ": not saved" : "");
	return status;
}

/* --watch: the devices named (several as a measuring run names them), or
 * the one picked. */
static int watch(VkCtx *ctx, Options *o)
{
	int idxs[CLI_MAX_DEVICES * 4];
	size_t n;
	if (o->ndev_indexes > 1 || o->all || o->gpus)
		n = pick_devices(ctx, o, idxs, sizeof idxs / sizeof *idxs);
	else
		n = (idxs[0] = pick_device(ctx, o)) >= 0;
	if (!n)
		return 2;
	/* a load-free watch holds no driver context: no instance (a check
	 * beside the exporter would name it as another process on the GPU) */
	vkctx_drop_instance(ctx);
	return watch_run(ctx, idxs, n, o, &quit_flag);
}

/* Several devices at once: a check (every physical device unless -N names
 * them), the suite, or a measuring run in the node view or its table. */
static int several_devices(const VkCtx *ctx, Options *o, WorkloadType wl, uint64_t launch, MetricsOut *mo)
{
	int idxs[CLI_MAX_DEVICES * 4];
	size_t n = pick_devices(ctx, o, idxs, sizeof idxs / sizeof *idxs);
	if (!n)
		return 2;
	if (o->mode == MODE_CHECK)
		return check_run(ctx, idxs, n, o, every_device, launch, &quit_flag);
	if (o->mode == MODE_SUITE)
		return suite_run(ctx, idxs, n, o, launch, &quit_flag);
	if (o->mode == MODE_BURN)
		return burn_run(ctx, o, idxs, n, launch, &quit_flag);
	if (!o->headless && n <= NODE_VIEW_MAX) {
		int status = interactive_run(ctx, &(DeviceList){ ctx->entries, ctx->entry_count }, o, idxs, n, wl, launch, mo,
		                             &quit_flag);
		if (status >= 0)
			return status;
		fprintf(stderr, "flopscope: cannot use this terminal; printing the table instead\n");
	}
	return multi_run(ctx, o, idxs, n, wl, launch, mo, &quit_flag);
}

/* The completion script, with the themes beside the program (or
 * FLOPSCOPE_THEME_DIR's). */
static int completion(const Options *o)
{
	static char text[CLI_HELP_MAX];
	char dir[4096], names[32][64];
	const char *list[32];
	paths_resource_dir(NULL, "FLOPSCOPE_THEME_DIR", "themes", dir, sizeof dir);
	size_t n = theme_list(dir, names, 32);
	for (size_t k = 0; k < n; k++)
		list[k] = names[k];
	size_t (*write)(char *, size_t, const char *const *, size_t) =
	    o->shell && !strcmp(o->shell, "zsh") ? cli_completion_zsh : cli_completion_bash;
	if (write(text, sizeof text, list, n) >= sizeof text) {
		fprintf(stderr, "flopscope: internal error: the completion script does not fit\n");
		return 1;
	}
	fputs(text, stdout);
	return 0;
}

/* Every mode, one case each (ctx: the device list, NULL for the modes the
 * mode table says need none). A mode on one device has it picked here,
 * once; the measuring run's picker is the dashboard's. */
static int run_mode(VkCtx *ctx, Options *o, WorkloadType wl, uint64_t launch, MetricsOut *mo)
{
	static char help[CLI_HELP_MAX];
	bool named = o->dev_index || o->dev_word || o->default_device;
	bool several = o->all || o->gpus || o->ndev_indexes > 1;
	int idx = -1;
	switch (o->mode) {
	case MODE_HELP:
		cli_help_text(help, sizeof help);
		fputs(help, stdout);
		return 0;
	case MODE_COMPLETION:
		return completion(o);
	case MODE_VERSION: {
		char vk[32];
		vkctx_headers_version(vk, sizeof vk);
		printf("flopscope %s (commit %s, Vulkan headers %s)\n", FLOPSCOPE_VERSION, FLOPSCOPE_COMMIT, vk);
		return 0;
	}
	case MODE_SAVE_CONFIG:
		return save_config(o);
	/* recorded sessions */
	case MODE_COMPARE:
		return offline_compare(o);
	case MODE_EXPORT:
		return offline_export(o);
	case MODE_ANALYZE:
		return offline_analyze(o);
	case MODE_REPLAY:
		return replay(o);
	case MODE_LOGS:
		return offline_list_logs(o);
	case MODE_FLEET:
		return fleet_run(o, &quit_flag);
	/* the devices */
	case MODE_LIST:
		/* a closed pipe is a normal end, as in every mode; another
		 * failed write is said (outputs_stdout_failed) */
		if (o->format != FORMAT_TABLE)
			list_records(ctx, o->format);
		else
			list_with_missing(ctx, o->verbose);
		return outputs_stdout_failed() ? 1 : 0;
	case MODE_CHECK:
		if (!o->ndev_indexes)
			o->all = true;
		return several_devices(ctx, o, wl, launch, mo);
	case MODE_BURN: /* every device (with NAME: those it names) unless entries or GPUs are named */
		if (!o->ndev_indexes && !o->gpus)
			o->all = true;
		return several_devices(ctx, o, wl, launch, mo);
	case MODE_LIST_WORKLOADS:
		if ((idx = pick_device(ctx, o)) < 0)
			return 2;
		devlist_workloads(stdout, &ctx->entries[idx], (size_t)idx + 1, o->format);
		return outputs_stdout_failed() ? 1 : 0;
	case MODE_LATENCY:
		return (idx = pick_device(ctx, o)) < 0 ? 2 : latency_run(ctx, idx, o);
	case MODE_WATCH:
		return watch(ctx, o);
	case MODE_SUITE:
		if (several)
			return several_devices(ctx, o, wl, launch, mo);
		return (idx = pick_device(ctx, o)) < 0 ? 2 : suite_run(ctx, &idx, 1, o, launch, &quit_flag);
	case MODE_MEASURE:
		if (several)
			return several_devices(ctx, o, wl, launch, mo);
		if ((named || o->headless) && (idx = pick_device(ctx, o)) < 0)
			return 2;
		return measure(ctx, o, idx, wl, launch, mo);
	case MODE_COUNT:
		break;
	}
	fprintf(stderr, "flopscope: internal error: mode %d has no case\n", (int)o->mode);
	return 2;
}

/* Before a mode runs: the signals it watches, its outputs held against its
 * inputs, the default log folder bounded. 0, or the exit status. */
static int prepare(const Options *o)
{
	char err[ERR_LEN];
	bool runs = cli_mode_runs(o->mode);
	/* modes that stop on a signal with their summary watch for it from now
	 * (a replay in the dashboard from when it opens) */
	if (runs || o->mode == MODE_WATCH) /* --watch runs until a signal: it ends with its status */
		install_signals();
	/* no output may destroy an input or another output: said before anything runs */
	if (!outputs_check(o, err, sizeof err)) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 2;
	}
	/* the default log folder stays bounded: the oldest logs go first */
	if (runs && !o->no_log && !o->log) {
		char why[4600];
		const char *inputs[OUTPUTS_MAX_INPUTS];
		size_t nin = outputs_inputs(o, inputs, OUTPUTS_MAX_INPUTS), spared;
		slog_retain(o->log_keep, o->log_cap, inputs, nin, &spared, why, sizeof why);
		if (why[0])
			fprintf(stderr, "flopscope: %s\n", why);
		if (spared)
			fprintf(stderr, "flopscope: log retention kept %zu old log%s over --log-keep/--log-cap: being "
			        "written by another run, or read by this one\n", spared, spared == 1 ? "" : "s");
	}
	return 0;
}

/* The modes on devices: the Vulkan instance, the metrics, then the mode. */
static int on_devices(Options *o, uint64_t launch)
{
	char err[ERR_LEN];
	/* --check's and --burn's lists: theirs to read */
	bool list = o->mode == MODE_CHECK || o->mode == MODE_BURN;
	int wl = o->workload && !list ? workload_find(o->workload) : WORKLOAD_FP32;
	if (wl < 0) {
		char names[256];
		workload_names(names, sizeof names);
		const char *near = workload_suggest(o->workload);
		fprintf(stderr, "flopscope: --workload: \"%s\" is not one of %s%s%s%s\n", o->workload, names,
		        near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		return 2;
	}
	if ((o->size_lo || o->transfer_queue) && o->mode != MODE_SUITE && o->mode != MODE_BURN &&
	    !workload_is_memory((WorkloadType)wl)) {
		fprintf(stderr, "flopscope: --size and --transfer-queue go with a memory workload (--workload copy, h2d, ...)\n");
		return 2;
	}
	VkCtx ctx;
	bool no_device;
	if (!vkctx_create(&ctx, o->validate, err, &no_device)) {
		fprintf(stderr, "flopscope: %s\n", err);
		/* a check with no driver could not run: no verdict on a device */
		return o->mode == MODE_CHECK ? STATUS_NOT_RUN : STATUS_FAILED;
	}
	/* NVML's numbers for the devices it knows: the gpu of the records that
	 * name devices and of the metrics, the indices --gpus and Slurm give.
	 * Not for one device's measuring run without metrics or --interval rows
	 * (whose identity has gpu), which names no gpu: NVML's start costs it
	 * ~25 ms (docs/PERFORMANCE.md). */
	bool names_gpus = o->mode != MODE_MEASURE || o->gpus || o->all || o->ndev_indexes > 1 || o->metrics_file ||
	                  o->metrics_listen || o->interval_s > 0;
	if (!names_gpus)
		snprintf(map_why, sizeof map_why, "NVML not asked");
	else
		map_gpus(&ctx);
	/* a measuring run's metrics (a check keeps its own) */
	MetricsOut mo = { 0 };
	if (o->mode == MODE_MEASURE && !metrics_out_open(&mo, o, err, sizeof err)) {
		fprintf(stderr, "flopscope: %s\n", err);
		vkctx_destroy(&ctx);
		return 2;
	}
	int status = run_mode(&ctx, o, (WorkloadType)wl, launch, &mo);
	if (!metrics_out_close(&mo, err, sizeof err)) {
		fprintf(stderr, "flopscope: --metrics-file: %s\n", err);
		if (!status)
			status = 1;
	}
	vkctx_destroy(&ctx); /* the layer may still report while objects go */
	unsigned msgs = atomic_load(&ctx.validation_messages);
	if (o->validate && msgs) {
		fprintf(stderr, "flopscope: the validation layer reported %u message%s\n", msgs,
		        msgs == 1 ? "" : "s");
		/* flopscope's own trouble: a check's verdicts stand, a pass is no pass */
		if (status == 0 || (o->mode == MODE_CHECK && status == STATUS_NOT_JUDGED))
			status = o->mode == MODE_CHECK ? STATUS_NOT_RUN : 1;
	}
	return status;
}

static int run(Options *opt, uint64_t launch)
{
	Options o = *opt;
	int status = prepare(&o);
	if (status)
		return status;
	/* a screen only on a terminal: else the table, said by no one */
	if (cli_mode_has_screen(o.mode) && !o.headless && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		o.headless = true;
	status = cli_mode_on_device(o.mode) ? on_devices(&o, launch) : run_mode(NULL, &o, WORKLOAD_FP32, launch, NULL);
	/* One status for a signal in every mode: a run, a check, the suite or a
	 * replay that SIGINT, SIGTERM, SIGHUP or SIGQUIT ended (its summary
	 * printed, its log closed) exits 128 + the signal's number, as a shell
	 * reports a command the signal killed; what it saw is in its output. */
	int sig = atomic_load(&quit_flag);
	return sig ? STATUS_SIGNAL + sig : status;
}

/* Standard input, output and error open, on /dev/null where they were
 * closed (`>&-`, some cron and service setups): else the session log would
 * get descriptor 1 and the table would be written into it. False when even
 * /dev/null cannot be opened. */
static bool std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n != fd) { /* the lowest free descriptor is fd */
			if (n >= 0)
				close(n);
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	if (!std_fds_open())
		return 1;
	uint64_t launch = clock_mono_ns();
	/* the user's characters (the screens' UTF-8), never the user's numbers:
	 * every number written (logs, CSV, JSON, metrics, SVG) or read (options,
	 * the config, logs) has a '.' whatever the locale (de_DE's ',' made every
	 * log invalid JSON and "0.5" not a number) */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	/* A closed pipe shows as EPIPE on write, a file over the size limit as
	 * EFBIG: both handled where we write. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	/* the defaults, then the config file, then the options */
	static Options base, o; /* static: o.theme may point into it */
	char err[ERR_LEN];
	cli_defaults(&base);
	bool no_config = false;
	for (int i = 1; i < argc; i++)
		no_config |= !strcmp(argv[i], "--no-config");
	/* the mode first: the file's values count where the option table says
	 * (a command line that does not parse is said below, after the file) */
	Options plain;
	char perr[ERR_LEN];
	bool parsed = cli_parse(argc, argv, &plain, perr, sizeof perr) == 0;
	if (!no_config && !config_load(&base, parsed ? plain.mode : MODE_MEASURE, err, sizeof err)) {
		/* --help and --version answer whatever the file holds */
		if (parsed && (plain.mode == MODE_HELP || plain.mode == MODE_VERSION)) {
			fprintf(stderr, "flopscope: warning: %s\n", err);
			cli_defaults(&base);
		} else {
			fprintf(stderr, "flopscope: %s\n", err);
			return 2;
		}
	}
	if (cli_parse_with(argc, argv, &base, &o, err, sizeof err) < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		return 2;
	}
	/* the tests run everything under the validation layer */
	const char *fv = getenv("FLOPSCOPE_VALIDATE");
	if (fv && *fv && strcmp(fv, "0"))
		o.validate = true;
	return finish_stdout(run(&o, launch));
}
