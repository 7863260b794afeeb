/* cli: the command line: numbers and durations, the mode and option tables,
 * the parser and its checks (cli_help.c writes --help and the completions
 * from the tables, cli_config.c reads and writes the config file). Pure. */
#include "cli.h"
#include "cli_impl.h"

#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "devsel.h"
#include "fmt.h"
#include "memwork.h"
#include "retain.h"
#include "workload.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* ---- the mode table ---------------------------------------------------- */

const char *const cli_format_names[FORMAT_COUNT] = { "table", "csv", "json" };

const ModeSpec cli_mode_specs[MODE_COUNT] = {
	/* option, called, formats; then what holds of the mode (cli_impl.h) */
	[MODE_MEASURE] = { "", "a measuring run", F_T | F_C | F_J, .several = true, .runs = true, .device = true,
	                   .screen = true },
	[MODE_HELP] = { "--help", "--help", 0 },
	[MODE_VERSION] = { "--version", "--version", 0 },
	[MODE_LIST] = { "--list", "--list", F_T | F_C | F_J, .device = true },
	[MODE_LIST_WORKLOADS] = { "--list-workloads", "--list-workloads", F_T | F_C | F_J, .device = true },
	[MODE_SUITE] = { "--suite", "--suite", F_T | F_C | F_J, .several = true, .runs = true, .device = true },
	[MODE_LATENCY] = { "--latency", "--latency", F_T | F_J, .device = true },
	[MODE_REPLAY] = { "--replay", "--replay", F_T | F_C | F_J, .no_device = true, .picks_session = true,
	                  .screen = true },
	[MODE_COMPARE] = { "--compare", "--compare", F_T | F_C | F_J, .no_device = true, .picks_session = true },
	[MODE_EXPORT] = { "--export", "--export", 0, .no_device = true, .picks_session = true },
	[MODE_ANALYZE] = { "--analyze", "--analyze", F_T | F_J, .no_device = true, .picks_session = true },
	[MODE_LOGS] = { "--logs", "--logs", F_T | F_J, .no_device = true },
	[MODE_SAVE_CONFIG] = { "--save-config", "--save-config", 0 },
	[MODE_CHECK] = { "--check", "--check", F_T | F_C | F_J, .several = true, .runs = true, .device = true },
	[MODE_COMPLETION] = { "--completion", "--completion", 0 },
	[MODE_WATCH] = { "--watch", "--watch", F_T | F_C | F_J, .several = true, .device = true },
	[MODE_FLEET] = { "--fleet", "--fleet", F_T | F_C | F_J, .no_device = true, .screen = true },
	[MODE_BURN] = { "--burn", "--burn", F_T | F_J, .several = true, .runs = true, .device = true, .screen = true },
};

const char *cli_mode_option(Mode m)
{
	return m < MODE_COUNT ? cli_mode_specs[m].option : "";
}

bool cli_mode_runs(Mode m)
{
	return m < MODE_COUNT && cli_mode_specs[m].runs;
}

bool cli_mode_on_device(Mode m)
{
	return m < MODE_COUNT && cli_mode_specs[m].device;
}

bool cli_mode_has_screen(Mode m)
{
	return m < MODE_COUNT && cli_mode_specs[m].screen;
}

/* A mode is chosen once: a second one (or the same twice) is a usage error. */
static int set_mode(Options *o, Mode m, char *err, size_t errlen)
{
	if (o->mode == m) {
		snprintf(err, errlen, "%s is given twice", cli_mode_specs[m].option);
		return -1;
	}
	if (o->mode != MODE_MEASURE) {
		snprintf(err, errlen, "%s and %s are two modes: give one", cli_mode_specs[o->mode].option, cli_mode_specs[m].option);
		return -1;
	}
	o->mode = m;
	return 0;
}

/* ---- the option table -------------------------------------------------- */

const char *const cli_section_titles[H_COUNT] = {
	[H_DEVICE] = "Device selection (see --list):", [H_OPTIONS] = "Options:",
	[H_LOGS] = "Session logs:", [H_OTHER] = "Other options:",
};

static int take_string(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	if (!*val && s->empty) {
		snprintf(err, errlen, "%s: %s", s->name, s->empty);
		return -1;
	}
	*(const char **)(void *)((char *)o + s->str - 1) = val;
	return 0;
}

/* --gpus: a list's form checked here, bad input before any device starts */
static int take_gpus(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	if (take_string(s, o, a, val, err, errlen) < 0)
		return -1;
	return devsel_gpu_list_wellformed(val, s->name, err, errlen) ? 0 : -1;
}

/* Prometheus' address: http:// or https://, a host after it, short enough
 * to hold with a query (libcurl would otherwise read file://, ftp:// ...). */
#define FLEET_URL_MAX 1024
static int take_fleet_url(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	size_t scheme = !strncasecmp(val, "http://", 7) ? 7 : !strncasecmp(val, "https://", 8) ? 8 : 0;
	if (take_string(s, o, a, val, err, errlen) < 0)
		return -1;
	if (!scheme || !val[scheme] || val[scheme] == '/' || strlen(val) > FLEET_URL_MAX ||
	    strpbrk(val, " \t\r\n")) {
		snprintf(err, errlen, "%s: \"%.200s%s\" is not Prometheus' address: http://HOST:PORT or https://..., at "
		         "most %d characters, no space", s->name, val, strlen(val) > 200 ? "..." : "", FLEET_URL_MAX);
		return -1;
	}
	return 0;
}

static int take_shell(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	if (strcmp(val, "bash") != 0 && strcmp(val, "zsh") != 0) {
		snprintf(err, errlen, "%s: \"%s\" is not a shell flopscope writes completion for (bash, zsh)", s->name,
		         val);
		return -1;
	}
	o->shell = val;
	return 0;
}

static int take_key(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_config_key(o, s->key, s->name, val, err, errlen);
}

/* --outlier on the command line: a verdict asked for (the node view's
 * quit exits 4 for an outlier only then). */
static int take_outlier(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	int r = take_key(s, o, a, val, err, errlen);
	if (!r)
		o->outlier_given = true;
	return r;
}

static int take_format(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)s;
	for (int k = 0; k < FORMAT_COUNT; k++)
		if (!strcmp(val, cli_format_names[k])) {
			o->format = (OutFormat)k;
			a->format_given = true;
			return 0;
		}
	snprintf(err, errlen, "--format: \"%s\" is not one of table, csv, json", val);
	return -1;
}

static int take_duration(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	if (cli_parse_duration(s->name, val, 0, CLI_MAX_DURATION_S, &o->duration_s, err, errlen)) {
		double v;
		char most[32];
		if (cli_time_seconds(val, &v)) /* a time out of range: the range in words */
			snprintf(err, errlen, "--duration: %.40s%s is out of range (0, until stopped, to %s)", val,
			         strlen(val) > 40 ? "..." : "", fmt_seconds(CLI_MAX_DURATION_S, most, sizeof most));
		return -1;
	}
	/* 1e-10 s became 0 ns, "until stopped", and never ended */
	if (o->duration_s > 0 && o->duration_s < CLI_MIN_DURATION_S) {
		snprintf(err, errlen, "--duration: %s s is below the shortest run, %g s (0 runs until stopped)", val,
		         CLI_MIN_DURATION_S);
		return -1;
	}
	o->duration_given = true;
	return 0;
}

static int take_interval(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_parse_duration(s->name, val, CLI_MIN_INTERVAL_S, CLI_MAX_DURATION_S, &o->interval_s, err, errlen);
}

static int take_trials(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	double n;
	if (cli_number(s->name, val, 1, CLI_MAX_TRIALS, false, &n, err, errlen))
		return -1;
	if (n != (unsigned)n) {
		snprintf(err, errlen, "--trials: %s is not a whole number", val);
		return -1;
	}
	o->trials = (unsigned)n;
	return 0;
}

static int take_size(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)s;
	(void)a;
	uint64_t lo, hi;
	char why[200];
	if (!mem_parse_size(val, &lo, &hi, why, sizeof why)) {
		snprintf(err, errlen, "--size: %s", why);
		return -1;
	}
	o->size_lo = lo;
	o->size_hi = hi;
	return 0;
}

static int take_budget(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_parse_duration(s->name, val, CLI_MIN_BUDGET_S, CLI_MAX_BUDGET_S, &o->budget_s, err, errlen);
}

static int take_burn(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_parse_duration(s->name, val, CLI_MIN_WINDOW_S, CLI_MAX_DURATION_S, &o->burn_s, err, errlen);
}

static int take_window(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_parse_duration(s->name, val, CLI_MIN_WINDOW_S, CLI_MAX_BUDGET_S, &o->window_s, err, errlen);
}

static int take_threshold(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_number(s->name, val, 0, 1000, true, &o->threshold_pct, err, errlen);
}

static int take_min_effect(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_number(s->name, val, 0.001, 99.999, false, &o->min_effect, err, errlen);
}

static int take_fail_if_slower(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return cli_number(s->name, val, 0.001, 99.999, false, &o->fail_if_slower, err, errlen);
}

/* -1 with why where a log of list[0..n) is named twice (as many sessions,
 * devices or sweeps as names, a copy would pass for one more); else 0 */
static int named_twice(const char *what, const char *const *list, unsigned n, const char *one, char *err,
                       size_t errlen)
{
	for (unsigned k = 1; k < n; k++)
		for (unsigned j = 0; j < k; j++)
			if (!strcmp(list[j], list[k])) {
				snprintf(err, errlen, "%s: %s is named twice%s (a log counts once)", what, list[k], one);
				return -1;
			}
	return 0;
}

/* val, then the words up to the next option, into list (at most max) */
static int take_files(const char *what, const char **list, unsigned *n, Args *a, const char *val, char *err,
                      size_t errlen)
{
	list[(*n)++] = val;
	while (a->i + 1 < a->argc && a->argv[a->i + 1][0] != '-') {
		if (*n == CLI_MAX_DEVICES) {
			snprintf(err, errlen, "%s: at most %d logs%s", what, CLI_MAX_DEVICES,
			         !strcmp(what, "--replay") ? " at once" : "");
			return -1;
		}
		list[(*n)++] = a->argv[++a->i];
	}
	return named_twice(what, list, *n, "", err, errlen);
}

static int take_baseline(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	return take_files(s->name, o->baselines, &o->nbaselines, a, val, err, errlen);
}

/* FILE, or several (the logs of several devices): the files up to the next option */
static int take_replay(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	o->replay = val;
	return take_files(s->name, o->replays, &o->nreplays, a, val, err, errlen);
}

/* A B, or A1 A2 ... -- B1 B2 ...: the files up to the next option */
static int take_compare(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)s;
	const char *files[2 * CLI_COMPARE_MAX + 1];
	unsigned nf = 0, split = 0;
	files[nf++] = val;
	while (a->i + 1 < a->argc && (a->argv[a->i + 1][0] != '-' || !strcmp(a->argv[a->i + 1], "--"))) {
		if (!strcmp(a->argv[a->i + 1], "--")) {
			if (split) {
				snprintf(err, errlen, "--compare: one -- between the two sides");
				return -1;
			}
			split = nf;
		} else if (nf == 2 * CLI_COMPARE_MAX) {
			snprintf(err, errlen, "--compare: at most %d sessions a side", CLI_COMPARE_MAX);
			return -1;
		} else {
			files[nf++] = a->argv[a->i + 1];
		}
		a->i++;
	}
	if (!split && nf == 2)
		split = 1;
	if (!split || split == nf || !strcmp(val, "--")) {
		snprintf(err, errlen, "--compare needs session logs on both sides: --compare A B, or "
		         "--compare A1 A2 -- B1 B2");
		return -1;
	}
	/* a session counts once a side: named again it would pass for another
	 * and narrow the side's spread (the same log on both sides compares) */
	if (named_twice("--compare", files, split, " on one side", err, errlen) < 0 ||
	    named_twice("--compare", files + split, nf - split, " on one side", err, errlen) < 0)
		return -1;
	if (split > CLI_COMPARE_MAX || nf - split > CLI_COMPARE_MAX) {
		snprintf(err, errlen, "--compare: at most %d sessions a side", CLI_COMPARE_MAX);
		return -1;
	}
	for (unsigned k = 0; k < nf; k++) {
		if (k < split)
			o->compare_a[o->ncompare_a++] = files[k];
		else
			o->compare_b[o->ncompare_b++] = files[k];
	}
	return 0;
}

/* FILE, or several (sweeps drawn in one chart): the files up to the next option */
static int take_export(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	if (take_string(s, o, a, val, err, errlen) < 0)
		return -1;
	o->exports[0] = val;
	o->nexports = 1;
	while (a->i + 1 < a->argc && a->argv[a->i + 1][0] != '-') {
		if (o->nexports == CLI_COMPARE_MAX) {
			snprintf(err, errlen, "--export: at most %d logs", CLI_COMPARE_MAX);
			return -1;
		}
		o->exports[o->nexports++] = a->argv[++a->i];
	}
	return named_twice("--export", o->exports, o->nexports, "", err, errlen);
}

/* --csv, or --csv OUT (a file, not standard output) */
static int take_csv(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)s;
	(void)val;
	(void)err;
	(void)errlen;
	o->csv = true;
	if (a->i + 1 < a->argc && a->argv[a->i + 1][0] != '-' && a->argv[a->i + 1][0])
		o->csv_out = a->argv[++a->i];
	return 0;
}

/* The command line, one row an option (and one a positional form), in the
 * order --help gives them. */
const OptionSpec cli_option_specs[] = {
	/* device selection: positional forms, read before any lookup */
	{ .name = "-N", .positional = true, .modes = M_ANY,
	  .help = { { H_DEVICE, "-N", "use entry N of the list (1-based)" } } },
	{ .name = "NAME", .positional = true, .modes = M_ANY,
	  .help = { { H_DEVICE, "NAME", "use the first entry NAME names: part of its name (case-insensitive), its "
	              "UUID (GPU-... as nvidia-smi -L prints it, or 8 or more of its first hex digits) or its PCI "
	              "address (00000000:1B:00.0, 0000:1b:00.0, 1b:00.0); with -N, the N-th such entry" } } },
	{ .name = "--default-device", .modes = M_RUN | M_(MODE_LATENCY) | M_(MODE_LIST_WORKLOADS) | M_(MODE_WATCH),
	  .flag = FLAG(default_device),
	  .help = { { H_DEVICE, "--default-device", "no picker: the first discrete GPU, else integrated, virtual, "
	              "CPU device (what headless runs use)" } } },
	{ .name = "-N -M", .positional = true, .modes = M_ANY,
	  .help = { { H_DEVICE, "-N -M ...", "several entries at once, one engine each (the same entry twice: two "
	              "engines on it); a table a device" } } },
	{ .name = "--all", .modes = M_RUN | M_(MODE_WATCH), .flag = FLAG(all),
	  .help = { { H_DEVICE, "--all", "every physical device (with NAME: those it names), its first compute "
	              "queue family" } } },
	{ .name = "--gpus", .value = true, .modes = M_RUN | M_(MODE_WATCH), .str = STR(gpus), .empty = "an empty list",
	  .take = take_gpus,
	  .help = { { H_DEVICE, "--gpus LIST", "the GPUs named by NVML index (as nvidia-smi and Slurm number them; "
	              "0,2 or 0-3), UUID or PCI address, each its first compute queue family; --check takes "
	              "SLURM_JOB_GPUS when set and no device is named" } } },
	{ .name = "--outlier", .value = true, .modes = M_RUN | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG) | M_(MODE_FLEET),
	  .key = "outlier", .take = take_outlier,
	  .help = { { H_DEVICE, "--outlier PCT", "with several devices: one whose median is more than PCT% "
	              "(default 5) below its identical peers', and by more than the runs' noise, is named, exit 4 "
	              "(quitting the node view: only with --outlier given); within the noise: cannot tell" } } },
	{ .name = "--expect-gpus", .value = true, .modes = M_(MODE_CHECK) | M_(MODE_SAVE_CONFIG), .key = "expect_gpus",
	  .take = take_key,
	  .help = { { H_DEVICE, "--expect-gpus N", "with --check of every device: fail a node whose Vulkan shows "
	              "fewer than N GPUs (a GPU gone from NVML and the PCI bus too); the config key expect_gpus" } } },
	/* options */
	{ .name = "--list", .modes = M_ANY, .mode = MODE_LIST,
	  .help = { { H_OPTIONS, "--list", "list devices and compute queue families, then exit; with --format json "
	              "a JSON Lines record an entry (csv: a row): its UUID, PCI address, driver, host" } } },
	{ .name = "--verbose", .alias = "-v", .modes = M_(MODE_LIST), .goes_with = "--list", .flag = FLAG(verbose),
	  .help = { { H_OPTIONS, "--verbose", "with --list: limits, timestamps, memory, features" } } },
	{ .name = "--headless", .modes = M_(MODE_MEASURE) | M_(MODE_REPLAY) | M_(MODE_FLEET) | M_(MODE_BURN), .flag = FLAG(headless),
	  .help = { { H_OPTIONS, "--headless", "print a table instead of the dashboard (automatic when stdout is "
	              "not a terminal)" } } },
	{ .name = "--format", .value = true, .modes = M_ANY, .take = take_format,
	  .help = { { H_OPTIONS, "--format FMT", "headless output: table (default), csv, json (JSON Lines)" } } },
	{ .name = "--target-ms", .value = true, .modes = M_RUN | M_(MODE_SAVE_CONFIG), .key = "target_ms",
	  .take = take_key,
	  .help = { { H_OPTIONS, "--target-ms MS", "wanted time of one dispatch (default 20)" } } },
	{ .name = "--workload", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_CHECK) | M_(MODE_BURN) | M_(MODE_LATENCY) | M_READ,
	  .str = STR(workload), .take = take_string,
	  .help = { { H_OPTIONS, "--workload NAME", "what to measure (default fp32): %W; --list-workloads says what "
	              "each is and which the device runs; copy and the transfers (h2d ... h2h) measure memory, the "
	              "transfers swept from 8 KiB to 1 GiB" },
	            { H_OPTIONS, "--workload A,B,...", "with --check: its workloads (default fp32, fp16-matrix, copy, "
	              "h2d, d2h; those a device runs); with --burn: workloads taking turns, a window each (power,copy)" },
	            { H_LOGS, "--workload NAME", "with --replay, --compare, --export, --analyze: the session of that "
	              "workload in a file of several (--suite writes one a device); add --transfer-queue for one on "
	              "the transfer queue" } } },
	{ .name = "--size", .value = true, .modes = M_RUN, .take = take_size,
	  .help = { { H_OPTIONS, "--size SIZE|LO-HI", "memory workloads: the copy shader's buffer, or the "
	              "transfers' one size or sweep range (64M, 8K-1G; the default is as large as the device "
	              "allows, up to 1G)" } } },
	{ .name = "--transfer-queue", .modes = M_RUN | M_READ, .flag = FLAG(transfer_queue),
	  .help = { { H_OPTIONS, "--transfer-queue", "transfers on the device's transfer-only queue family" } } },
	{ .name = "--list-workloads", .modes = M_ANY, .mode = MODE_LIST_WORKLOADS,
	  .help = { { H_OPTIONS, "--list-workloads", "the workloads and whether the chosen device runs them" } } },
	{ .name = "--trials", .value = true, .modes = M_RUN, .take = take_trials,
	  .help = { { H_OPTIONS, "--trials N", "N dispatches back to back in each submission, as Gridwise does "
	              "(1..1000, default 1): the loop sizes the submission, times shown are per dispatch" } } },
	{ .name = "--watch", .modes = M_ANY, .mode = MODE_WATCH,
	  .help = { { H_OPTIONS, "--watch", "the devices' telemetry with no load: clocks, power and its limit, "
	              "temperature, P-state, clock-event reasons, other processes, the PCIe link, a row a device "
	              "every --interval seconds (1 s) for --duration (until Ctrl-C), as nvidia-smi dmon" } } },
	{ .name = "--latency", .modes = M_ANY, .mode = MODE_LATENCY,
	  .help = { { H_OPTIONS, "--latency", "launch latency: 500 empty dispatches, one at a time; GPU and CPU time "
	              "per submit in us (--format json too)" } } },
	{ .name = "--suite", .modes = M_ANY, .mode = MODE_SUITE,
	  .help = { { H_OPTIONS, "--suite", "every supported workload for a short window each (2 s, or --duration), "
	              "then one table; --format json too; one session log a device, a session a workload" } } },
	{ .name = "--fleet", .value = true, .modes = M_ANY, .mode = MODE_FLEET, .str = STR(fleet_url),
	  .empty = "an empty URL", .take = take_fleet_url,
	  .help = { { H_OPTIONS, "--fleet URL", "a fleet's GPUs as the Prometheus server at URL (http:// or https://) holds flopscope's "
	              "series: a row a GPU and workload by host, the last check's verdict and causes, the readings, "
	              "and the GPUs more than --outlier below their model's median across the fleet; exit 1 where "
	              "one is to act on, 6 where Prometheus cannot be read" } } },
	{ .name = "--check", .modes = M_ANY, .mode = MODE_CHECK,
	  .help = { { H_OPTIONS, "--check", "a node check: a short suite on every GPU (or those named), each "
	              "workload held to a threshold; a PASS/FAIL line a device and workload; exit 0 all pass, 1 a "
	              "threshold missed, 3 a result was wrong (docs/FLEET.md)" } } },
	{ .name = "--burn", .value = true, .modes = M_ANY, .mode = MODE_BURN, .take = take_burn,
	  .help = { { H_OPTIONS, "--burn DUR", "a burn-in: the power workload (or --workload) on every GPU (or those "
	              "named) at once for DUR (30m, 4h), judged in --window windows by the check's rules (a wrong "
	              "result, a thermal or HW-slowdown hold, throughput sinking below its first window, an outlier "
	              "among identical peers) with a Markdown report beside the logs; exit as --check's" } } },
	{ .name = "--window", .value = true, .modes = M_(MODE_BURN), .goes_with = "--burn", .take = take_window,
	  .help = { { H_OPTIONS, "--window DUR", "with --burn: the windows each GPU is judged in (default 60s; one longer than the burn is the whole burn)" } } },
	{ .name = "--budget", .value = true, .modes = M_(MODE_CHECK), .goes_with = "--check", .take = take_budget,
	  .help = { { H_OPTIONS, "--budget DUR", "with --check: the whole check's time (30s, 2m; default 30s), "
	              "shared among the workloads" } } },
	{ .name = "--threshold", .value = true, .modes = M_(MODE_CHECK), .goes_with = "--check", .take = take_threshold,
	  .help = { { H_OPTIONS, "--threshold PCT", "with --check: the % of the baseline's median (default %B) or of "
	              "the theoretical peak where known (default: %T) to reach" } } },
	{ .name = "--baseline", .value = true, .modes = M_(MODE_CHECK), .goes_with = "--check", .take = take_baseline,
	  .help = { { H_OPTIONS, "--baseline A ...", "with --check: session logs to hold the workloads of the same "
	              "name to, by the --compare rules" } } },
	{ .name = "--metrics-file", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_CHECK) | M_(MODE_BURN),
	  .goes_with = "a measuring run, --check or --burn", .str = STR(metrics_file), .empty = "an empty path",
	  .take = take_string,
	  .help = { { H_OPTIONS, "--metrics-file PATH", "Prometheus text exposition of the results, replaced "
	              "atomically (node_exporter's textfile collector); a burn's after each window" } } },
	{ .name = "--metrics-listen", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_CHECK) | M_(MODE_WATCH),
	  .goes_with = "a measuring run, --watch or --check", .str = STR(metrics_listen), .take = take_string,
	  .help = { { H_OPTIONS, "--metrics-listen [ADDR:]PORT", "serve /metrics (and /health) while measuring, "
	              "or with --watch the devices' readings with no load of flopscope's (default address "
	              "127.0.0.1)" } } },
	{ .name = "--duration", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_SUITE) | M_(MODE_WATCH),
	  .take = take_duration,
	  .help = { { H_OPTIONS, "--duration S", "time to measure, in seconds or with a unit as every time option "
	              "(2s, 500ms, 2m; default: 3 s headless, until quit in the dashboard; 0 = until stopped with "
	              "Ctrl-C or q)" } } },
	{ .name = "--interval", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_WATCH) | M_(MODE_FLEET),
	  .take = take_interval,
	  .help = { { H_OPTIONS, "--interval S", "headless: a row every S seconds (or 500ms, 1m: median, min and max, samples, "
	              "clock, power, clock-event reasons, other processes), as nvidia-smi dmon -d S, instead of a "
	              "row a dispatch" },
	            { H_OPTIONS, "--interval S", "with --fleet on a terminal: how often the view reads Prometheus "
	              "(default 5 s)" } } },
	{ .name = "--log", .value = true, .modes = M_RUN, .str = STR(log), .empty = "empty path", .take = take_string,
	  .help = { { H_OPTIONS, "--log PATH", "write the session log (JSON Lines) to PATH; by default every run "
	              "writes $XDG_STATE_HOME/flopscope/TIME-DEVICE-WORKLOAD.jsonl (~/.local/state/flopscope/ "
	              "without XDG_STATE_HOME)" } } },
	{ .name = "--no-log", .modes = M_RUN, .flag = FLAG(no_log),
	  .help = { { H_OPTIONS, "--no-log", "record nothing" } } },
	{ .name = "--no-config", .modes = M_ANY, .flag = FLAG(no_config),
	  .help = { { H_OPTIONS, "--no-config", "ignore the config file ($XDG_CONFIG_HOME/flopscope/config, "
	              "~/.config/flopscope/config: %K; the options win)" } } },
	{ .name = "--save-config", .modes = M_ANY, .mode = MODE_SAVE_CONFIG,
	  .help = { { H_OPTIONS, "--save-config", "write these settings (the file's, then the options') there" } } },
	{ .name = "--completion", .value = true, .modes = M_ANY, .mode = MODE_COMPLETION, .take = take_shell,
	  .help = { { H_OPTIONS, "--completion SHELL", "bash's or zsh's completion script on stdout: options, "
	              "workloads, themes, files and the devices --list shows (source <(flopscope --completion bash))" } } },
	{ .name = "--logs", .modes = M_ANY, .mode = MODE_LOGS,
	  .help = { { H_OPTIONS, "--logs", "the recent sessions of the default folder, newest first: start, device, "
	              "workload, median, samples, path" } } },
	{ .name = "--log-keep", .value = true, .modes = M_RUN | M_(MODE_LOGS) | M_(MODE_SAVE_CONFIG),
	  .key = "log_keep", .take = take_key,
	  .help = { { H_OPTIONS, "--log-keep N", "keep at most N of the default folder's logs, the oldest removed "
	              "first (default 500; 0: no limit)" } } },
	{ .name = "--log-cap", .value = true, .modes = M_RUN | M_(MODE_LOGS) | M_(MODE_SAVE_CONFIG),
	  .key = "log_cap", .take = take_key,
	  .help = { { H_OPTIONS, "--log-cap SIZE", "... and at most SIZE bytes of them (default 100M, a day of "
	              "dashboard use at 20 ms; 0: no limit)" } } },
	{ .name = "--force", .modes = M_RUN | M_(MODE_REPLAY) | M_(MODE_COMPARE) | M_(MODE_EXPORT), .flag = FLAG(force),
	  .help = { { H_OPTIONS, "--force", "replace an existing --log file or --svg output (never a device, a "
	              "link, a folder or the input itself); --compare sessions of different workloads or units" } } },
	/* session logs */
	{ .name = "--replay", .value = true, .modes = M_ANY, .mode = MODE_REPLAY, .take = take_replay,
	  .help = { { H_LOGS, "--replay FILE", "show a recorded session again (the dashboard in a terminal; with "
	              "--headless or --format, the table)" },
	            { H_LOGS, "--replay A B ...", "the logs of several devices (e.g. one multi-device run) side by "
	              "side: the node view, or the table" } } },
	{ .name = "--compare", .value = true, .modes = M_ANY, .mode = MODE_COMPARE, .take = take_compare,
	  .help = { { H_LOGS, "--compare A B", "is B faster than A? medians of 1 s batch means, the best block, a "
	              "95% interval; a verdict only beyond the minimum effect and one session's noise, with the best blocks "
	              "agreeing, else \"cannot tell\" and why" },
	            { H_LOGS, "--compare A1 A2 -- B1 B2", "several sessions a side: the sessions' own spread decides "
	              "(Welch); --format json" } } },
	{ .name = "--min-effect", .value = true, .modes = M_(MODE_COMPARE), .goes_with = "--compare", .take = take_min_effect,
	  .help = { { H_LOGS, "--min-effect PCT", "the smallest difference a verdict claims (default 15 on a CPU "
	              "device, 5 on a GPU: what sessions of one configuration were seen to differ by; "
	              "docs/INTERPRETATION.md)" } } },
	{ .name = "--fail-if-slower", .value = true, .modes = M_(MODE_COMPARE), .goes_with = "--compare", .take = take_fail_if_slower,
	  .help = { { H_LOGS, "--fail-if-slower PCT", "exit 1 when B is slower than A by more than PCT% with "
	              "confidence (for CI)" } } },
	{ .name = "--analyze", .value = true, .modes = M_ANY, .mode = MODE_ANALYZE, .str = STR(analyze),
	  .take = take_string,
	  .help = { { H_LOGS, "--analyze FILE", "level changes and their causes, excursions, time to plateau of a "
	              "session log, or of a CSV with t_ms and flops columns (--format json)" } } },
	{ .name = "--export", .value = true, .modes = M_ANY, .mode = MODE_EXPORT, .str = STR(export_file),
	  .take = take_export,
	  .help = { { H_LOGS, "--export FILE", "a session log's samples as CSV or its plots as SVG: with --csv or "
	              "--svg" },
	            { H_LOGS, "--export A B ... --svg OUT.svg", "several sweeps of copy sizes (h2d, d2h, cached "
	              "memory, the transfer queue) in one chart by size, a line each" } } },
	{ .name = "--csv", .modes = M_(MODE_EXPORT), .goes_with = "--export FILE", .take = take_csv,
	  .help = { { H_LOGS, "--export FILE --csv [OUT]", "samples as CSV on standard output, or into OUT" } } },
	{ .name = "--svg", .value = true, .modes = M_(MODE_EXPORT), .goes_with = "--export FILE", .str = STR(svg), .take = take_string,
	  .help = { { H_LOGS, "--export FILE --svg OUT.svg", "FLOPS, workgroup and time plots as SVG" } } },
	{ .name = "--report", .value = true, .modes = M_(MODE_EXPORT), .goes_with = "--export FILE", .str = STR(report),
	  .take = take_string,
	  .help = { { H_LOGS, "--export LOG... --report OUT.md|OUT.html", "a burn's report remade from the logs of "
	              "its devices: each window judged again from the logged samples, as the burn judged it" } } },
	/* other options */
	{ .name = "--serial", .modes = M_RUN, .flag = FLAG(serial),
	  .help = { { H_OTHER, "--serial", "time every dispatch alone (idle queue, submit, wait), as the tutorial "
	              "and Gridwise do; by default dispatches at the target time are pipelined, 3 in flight" } } },
	{ .name = "--no-cache", .modes = M_RUN | M_(MODE_LATENCY), .flag = FLAG(no_cache),
	  .help = { { H_OTHER, "--no-cache", "neither read nor write the SPIR-V and pipeline caches "
	              "($XDG_CACHE_HOME/flopscope, ~/.cache/flopscope)" } } },
	{ .name = "--validate", .modes = M_DEVICE, .flag = FLAG(validate),
	  .help = { { H_OTHER, "--validate", "enable VK_LAYER_KHRONOS_validation; any message it reports makes the "
	              "run fail (exit 1)" } } },
	{ .name = "--fps", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG),
	  .key = "fps", .take = take_key,
	  .help = { { H_OTHER, "--fps N", "dashboard redraws at most N times a second (1..20, default 10); each "
	              "frame costs the device a little where the device is this CPU (docs/PERFORMANCE.md)" } } },
	{ .name = "--theme", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG) |
	                                             M_(MODE_FLEET),
	  .str = STR(theme), .empty = "empty name", .take = take_string,
	  .help = { { H_OTHER, "--theme NAME|PATH", "dashboard colours: dark (default), light, mono, or a JSON file "
	              "(see themes/); NO_COLOR=1 disables colour" } } },
	{ .name = "--shader-dir", .value = true, .modes = M_RUN | M_(MODE_LATENCY), .str = STR(shader_dir),
	  .empty = "empty path", .take = take_string,
	  .help = { { H_OTHER, "--shader-dir DIR", "read shaders from DIR (default: shaders/ next to the program, "
	              "or $FLOPSCOPE_SHADER_DIR)" } } },
	{ .name = "--help", .alias = "-h", .modes = M_ANY, .mode = MODE_HELP,
	  .help = { { H_OTHER, "--help, --version", "this text; the version" } } },
	{ .name = "--version", .modes = M_ANY, .mode = MODE_VERSION },
};
const size_t cli_option_count = sizeof cli_option_specs / sizeof *cli_option_specs;

static const OptionSpec *option_spec(const char *name)
{
	for (size_t i = 0; i < cli_option_count; i++)
		if (!cli_option_specs[i].positional &&
		    (!strcmp(cli_option_specs[i].name, name) || (cli_option_specs[i].alias && !strcmp(cli_option_specs[i].alias, name))))
			return &cli_option_specs[i];
	return NULL;
}

/* The options of seen[0..n) that mode would ignore, named (the first with
 * a goes_with, by where it goes); -1 when any. */
static int mode_takes(Mode mode, char seen[][32], size_t n, char *err, size_t errlen)
{
	char names[256] = "";
	size_t bad = 0;
	for (size_t k = 0; k < n; k++) {
		const OptionSpec *spec = option_spec(seen[k]);
		if (spec && !(spec->modes & M_(mode)) && spec->goes_with) {
			snprintf(err, errlen, "%s goes with %s", spec->name, spec->goes_with);
			return -1;
		}
		if (spec && !(spec->modes & M_(mode))) {
			size_t w = strlen(names);
			snprintf(names + w, sizeof names - w, "%s%.31s", bad++ ? ", " : "", seen[k]);
		}
	}
	if (!bad)
		return 0;
	snprintf(err, errlen, "%s %s not apply to %s, which would ignore %s: drop %s", names, bad == 1 ? "does" : "do",
	         cli_mode_specs[mode].called, bad == 1 ? "it" : "them", bad == 1 ? "it" : "them");
	return -1;
}

/* The formats mode writes, "table, json" */
static void format_list(unsigned can, char *out, size_t len)
{
	out[0] = '\0';
	for (int f = 0; f < FORMAT_COUNT; f++)
		if (can & (1u << f))
			snprintf(out + strlen(out), len - strlen(out), "%s%s", *out ? ", " : "", cli_format_names[f]);
}

/* What the options say together: --export's output, --log against
 * --no-log, devices against what the mode takes (its table row). An option
 * alone in a mode it means nothing in is mode_takes' (its table row). */
/* What several devices, and the devices' naming, allow. */
static int validate_devices(Options *o, const ModeSpec *m, char *err, size_t errlen)
{
	bool several = o->ndev_indexes > 1 || o->all || o->gpus;
	if (o->all && o->ndev_indexes) {
		snprintf(err, errlen, "--all and -N contradict each other: give one");
		return -1;
	}
	if (o->gpus && (o->all || o->ndev_indexes || o->dev_word)) {
		snprintf(err, errlen, "--gpus names the devices: give it alone (without %s)",
		         o->all ? "--all" : o->ndev_indexes ? "-N" : "a device word");
		return -1;
	}
	if (several && !m->several) {
		snprintf(err, errlen, "several devices at once measure a workload or the suite (%s measures one "
		         "device)", m->option);
		return -1;
	}
	if (several && o->log) {
		snprintf(err, errlen, "--log names one file; with several devices each writes its own log "
		         "(the default place, or --no-log)");
		return -1;
	}
	return 0;
}

/* --workload as the mode takes it: none with --suite, one name, or with
 * --check and --burn a list read here (each takes it again from
 * workload_list); -1 with why */
static int validate_workloads(const Options *o, const ModeSpec *m, char *err, size_t errlen)
{
	if (o->mode == MODE_SUITE && o->workload) {
		snprintf(err, errlen, "--suite runs every workload: --workload picks one (drop --suite), or a "
		         "session of a suite's log (with --replay, --export, --compare, --analyze)");
		return -1;
	}
	if (m->picks_session && o->transfer_queue && !o->workload) {
		snprintf(err, errlen, "%s: --transfer-queue picks a session with --workload NAME", m->option);
		return -1;
	}
	bool list = o->mode == MODE_CHECK || o->mode == MODE_BURN;
	if (!list && o->workload && strchr(o->workload, ',')) {
		snprintf(err, errlen, "--workload: one workload (a list goes with --check or --burn)");
		return -1;
	}
	int wl[WORKLOAD_TYPE_COUNT];
	size_t nwl;
	return list && o->workload && !workload_list(o->workload, wl, &nwl, err, errlen) ? -1 : 0;
}

static int validate(Options *o, bool format_given, char *err, size_t errlen)
{
	const ModeSpec *m = &cli_mode_specs[o->mode];
	if (o->export_file && (int)o->csv + !!o->svg + !!o->report != 1) {
		snprintf(err, errlen, "--export FILE needs one of --csv [OUT.csv], --svg OUT.svg or --report OUT.md|OUT.html");
		return -1;
	}
	size_t rl = o->report ? strlen(o->report) : 0;
	if (o->report && !(rl > 3 && !strcmp(o->report + rl - 3, ".md")) && !(rl > 5 && !strcmp(o->report + rl - 5, ".html"))) {
		snprintf(err, errlen, "--report %s: a report is Markdown (OUT.md) or HTML (OUT.html)", o->report);
		return -1;
	}
	if (o->nexports > 1 && o->csv) {
		snprintf(err, errlen, "--export with %u logs draws their sweeps in one chart: --svg OUT.svg (--csv takes "
		         "one log)", o->nexports);
		return -1;
	}
	if (o->log && o->no_log) {
		snprintf(err, errlen, "--log and --no-log contradict each other");
		return -1;
	}
	/* the modes that read logs use no device: a name or -N there is a
	 * mistake (e.g. a file meant for an option that takes none) */
	if ((o->dev_word || o->ndev_indexes || o->all) && m->no_device) {
		if (o->dev_word)
			snprintf(err, errlen, "\"%s\": %s reads session logs and uses no device", o->dev_word, m->option);
		else
			snprintf(err, errlen, "%s reads session logs and uses no device", m->option);
		return -1;
	}
	if (validate_devices(o, m, err, errlen))
		return -1;
	/* a window past the burn's end is the whole burn: one window, said as
	 * such everywhere ("judged every 60 s" of a 30 s burn was not) */
	if (o->mode == MODE_BURN && o->window_s > o->burn_s)
		o->window_s = o->burn_s;
	if (o->mode == MODE_BURN && ceil(o->burn_s / o->window_s - 1e-9) > CLI_BURN_MAX_WINDOWS) {
		char a[32], w[32];
		snprintf(err, errlen, "--window %s cuts --burn %s into %.0f windows; %d at most: a longer --window",
		         fmt_seconds(o->window_s, w, sizeof w), fmt_seconds(o->burn_s, a, sizeof a),
		         ceil(o->burn_s / o->window_s - 1e-9), CLI_BURN_MAX_WINDOWS);
		return -1;
	}
	if (validate_workloads(o, m, err, errlen))
		return -1;
	if (format_given) {
		if (!(m->formats & (1u << o->format))) {
			char list[40];
			format_list(m->formats, list, sizeof list);
			if (m->formats)
				snprintf(err, errlen, "--format %s does not apply to %s (it writes %s)", cli_format_names[o->format],
				         m->called, list);
			else
				snprintf(err, errlen, "--format does not apply to %s", m->option);
			return -1;
		}
		o->headless = true;
	}
	if (o->interval_s > 0 && o->mode != MODE_FLEET) /* rows of S seconds are a table's, CSV's or JSON's (the
	                                                   fleet view's: how often it reads) */
		o->headless = true;
	if (o->mode == MODE_LIST && o->verbose && o->format != FORMAT_TABLE) {
		snprintf(err, errlen, "--list --format %s has every field --verbose adds to the table: give one or "
		         "the other", cli_format_names[o->format]);
		return -1;
	}
	return 0;
}

void cli_defaults(Options *o)
{
	memset(o, 0, sizeof *o);
	o->target_ms = CLI_DEFAULT_TARGET_MS;
	o->log_keep = RETAIN_DEFAULT_KEEP;
	o->log_cap = RETAIN_DEFAULT_CAP;
	o->duration_s = CLI_DEFAULT_DURATION_S;
	o->format = FORMAT_TABLE;
	o->fps = CLI_DEFAULT_FPS;
	o->trials = 1;
	o->outlier_pct = CLI_DEFAULT_OUTLIER_PCT;
	o->window_s = CLI_BURN_WINDOW_S;
}

int cli_parse(int argc, char **argv, Options *o, char *err, size_t errlen)
{
	Options d;
	cli_defaults(&d);
	return cli_parse_with(argc, argv, &d, o, err, errlen);
}

/* A device word: -N (an entry; several give several devices) or a name. */
static int device_word(Options *o, const char *a, char *err, size_t errlen)
{
	if (a[0] == '-') {
		unsigned long n = strtoul(a + 1, NULL, 10);
		if (n == 0 || n > 100000) {
			snprintf(err, errlen, "%s: entries are numbered from 1 (see --list)", a);
			return -1;
		}
		if (o->ndev_indexes == CLI_MAX_DEVICES) {
			snprintf(err, errlen, "%s: at most %d devices at once", a, CLI_MAX_DEVICES);
			return -1;
		}
		if (!o->dev_index)
			o->dev_index = (unsigned)n;
		o->dev_indexes[o->ndev_indexes++] = (unsigned)n;
		return 0;
	}
	if (!*a) {
		snprintf(err, errlen, "an empty device name would match every device: give part of a name, or -N "
		         "(see --list)");
		return -1;
	}
	if (o->dev_word) {
		snprintf(err, errlen, "\"%s\": a device name was already given (\"%s\")", a, o->dev_word);
		return -1;
	}
	o->dev_word = a;
	return 0;
}

/* One option at a->argv[a->i] (--name, --name=value or --name value): its
 * row found, its value taken, done once (seen holds those so far). */
static int one_option(Options *o, Args *a, char seen[][32], size_t *nseen, size_t cap, char *err, size_t errlen)
{
	const char *arg = a->argv[a->i];
	char name[32];
	const char *eq = strchr(arg, '=');
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
	if (nlen >= sizeof name) {
		snprintf(err, errlen, "unknown option %.40s (see --help)", arg);
		return -1;
	}
	memcpy(name, arg, nlen);
	name[nlen] = '\0';
	const char *val = eq ? eq + 1 : NULL;
	const OptionSpec *spec = option_spec(name);
	if (!spec) {
		const char *names[256];
		size_t nn = 0;
		for (size_t i = 0; i < cli_option_count && nn < 256; i++)
			if (!cli_option_specs[i].positional)
				names[nn++] = cli_option_specs[i].name;
		const char *near = fmt_nearest(name, names, nn);
		snprintf(err, errlen, "unknown option %s (%s%s%ssee --help)", name, near ? "did you mean " : "",
		         near ? near : "", near ? "? " : "");
		return -1;
	}
	/* every option once: a second value is not silently taken over the first */
	for (size_t k = 0; k < *nseen; k++)
		if (!strcmp(seen[k], spec->name)) {
			snprintf(err, errlen, "%s is given twice", spec->name);
			return -1;
		}
	if (*nseen < cap && strlen(spec->name) < sizeof seen[0])
		memcpy(seen[(*nseen)++], spec->name, strlen(spec->name) + 1);
	if (spec->value && !val) {
		if (a->i + 1 >= a->argc) {
			snprintf(err, errlen, "%s needs a value (see --help)", name);
			return -1;
		}
		val = a->argv[++a->i];
	} else if (!spec->value && val) {
		snprintf(err, errlen, "%s takes no value", name);
		return -1;
	}
	if (spec->mode != MODE_MEASURE && set_mode(o, spec->mode, err, errlen))
		return -1;
	if (spec->flag)
		*(bool *)(void *)((char *)o + spec->flag - 1) = true;
	return spec->take ? spec->take(spec, o, a, val, err, errlen) : 0;
}

int cli_parse_with(int argc, char **argv, const Options *base, Options *o, char *err, size_t errlen)
{
	*o = *base;
	if (base->theme == base->theme_buf)
		o->theme = o->theme_buf;
	Args a = { .argc = argc, .argv = argv, .i = 1, .format_given = false };
	char seen[48][32];
	size_t nseen = 0;
	for (; a.i < argc; a.i++) {
		const char *arg = argv[a.i];
		bool word = arg[0] != '-' || arg[1] == '\0' || all_digits(arg + 1);
		if (word ? device_word(o, arg, err, errlen)
		         : one_option(o, &a, seen, &nseen, sizeof seen / sizeof *seen, err, errlen))
			return -1;
	}
	if (validate(o, a.format_given, err, errlen))
		return -1;
	return mode_takes(o->mode, seen, nseen, err, errlen);
}

