#include "cli.h"

#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memwork.h"
#include "retain.h"
#include "workload.h"

static int parse_number(const char *opt, const char *s, double lo, double hi,
                        bool lo_open, double *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || end == s || isnan(v)) {
		snprintf(err, errlen, "%s: \"%.40s%s\" is not a number", opt, s, strlen(s) > 40 ? "..." : "");
		return -1;
	}
	/* a number too large (or too small) for a double is a number still:
	 * out of range, not "not a number" */
	if (errno == ERANGE || !isfinite(v)) {
		snprintf(err, errlen, "%s: %.40s%s is out of range (%s%g .. %g)", opt, s, strlen(s) > 40 ? "..." : "",
		         lo_open ? "above " : "", lo, hi);
		return -1;
	}
	if ((lo_open ? v <= lo : v < lo) || v > hi) {
		snprintf(err, errlen, "%s: %.40s%s is out of range (%s%g .. %g)", opt, s, strlen(s) > 40 ? "..." : "",
		         lo_open ? "above " : "", lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_duration(const char *opt, const char *s, double lo, double hi, double *out, char *err,
                       size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 0;
	if (!*s || end == s || errno == ERANGE || !isfinite(v) || !unit) {
		snprintf(err, errlen, "%s: \"%s\" is not a duration (30, 30s, 2m, 1h)", opt, s);
		return -1;
	}
	v *= unit;
	if (v < lo || v > hi) {
		snprintf(err, errlen, "%s: %s is out of range (%g s .. %g s)", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int config_key(Options *o, const char *key, const char *shown, const char *val, char *err, size_t errlen);

/* ---- the mode table ---------------------------------------------------- */

enum { F_T = 1u << FORMAT_TABLE, F_C = 1u << FORMAT_CSV, F_J = 1u << FORMAT_JSON };
static const char *const format_names[FORMAT_COUNT] = { "table", "csv", "json" };

/* What each mode is: the option that selects it, how messages call it, the
 * formats it writes (any other --format is refused, never ignored), and
 * what it takes. */
typedef struct ModeSpec {
	const char *option;  /* "--suite"; "" for MODE_MEASURE */
	const char *called;  /* in messages */
	unsigned formats;    /* F_ bits; 0: --format does not apply */
	bool no_device;      /* it reads session logs and uses no device */
	bool picks_session;  /* --workload (and --transfer-queue) pick a session of its logs */
	bool several;        /* it can run several devices at once */
} ModeSpec;

static const ModeSpec mode_specs[MODE_COUNT] = {
	[MODE_MEASURE] = { "", "a measuring run", F_T | F_C | F_J, false, false, true },
	[MODE_HELP] = { "--help", "--help", 0, false, false, false },
	[MODE_VERSION] = { "--version", "--version", 0, false, false, false },
	[MODE_LIST] = { "--list", "--list", F_T | F_J, false, false, false },
	[MODE_LIST_WORKLOADS] = { "--list-workloads", "--list-workloads", 0, false, false, false },
	[MODE_SUITE] = { "--suite", "--suite", F_T | F_J, false, false, true },
	[MODE_LATENCY] = { "--latency", "--latency", F_T | F_J, false, false, false },
	[MODE_REPLAY] = { "--replay", "--replay", F_T | F_C | F_J, true, true, false },
	[MODE_COMPARE] = { "--compare", "--compare", F_T | F_J, true, true, false },
	[MODE_EXPORT] = { "--export", "--export", 0, true, true, false },
	[MODE_ANALYZE] = { "--analyze", "--analyze", F_T | F_J, true, true, false },
	[MODE_LOGS] = { "--logs", "--logs", F_T | F_J, true, false, false },
	[MODE_SAVE_CONFIG] = { "--save-config", "--save-config", 0, false, false, false },
	[MODE_CHECK] = { "--check", "--check", F_T | F_C | F_J, false, false, true },
	[MODE_COMPLETION] = { "--completion", "--completion", 0, false, false, false },
};

const char *cli_mode_option(Mode m)
{
	return m < MODE_COUNT ? mode_specs[m].option : "";
}

/* A mode is chosen once: a second one (or the same twice) is a usage error. */
static int set_mode(Options *o, Mode m, char *err, size_t errlen)
{
	if (o->mode == m) {
		snprintf(err, errlen, "%s is given twice", mode_specs[m].option);
		return -1;
	}
	if (o->mode != MODE_MEASURE) {
		snprintf(err, errlen, "%s and %s are two modes: give one", mode_specs[o->mode].option, mode_specs[m].option);
		return -1;
	}
	o->mode = m;
	return 0;
}

/* ---- the option table -------------------------------------------------- */

/* The modes an option means something in. One given to a mode that would
 * ignore it is refused, named, never taken silently (issue 27: --replay X
 * --target-ms 5 --log Y ran as if neither were given). M_ANY: every mode
 * (the mode options themselves, and those validate() holds to their modes
 * with a message of their own). */
#define M_(m) (1u << (m))
enum {
	M_ANY = (1u << MODE_COUNT) - 1,
	M_RUN = M_(MODE_MEASURE) | M_(MODE_SUITE) | M_(MODE_CHECK),
	M_DEVICE = M_RUN | M_(MODE_LATENCY) | M_(MODE_LIST) | M_(MODE_LIST_WORKLOADS),
	M_READ = M_(MODE_REPLAY) | M_(MODE_COMPARE) | M_(MODE_EXPORT) | M_(MODE_ANALYZE),
};

/* --help's sections, in order */
typedef enum HelpSection { H_NONE, H_DEVICE, H_OPTIONS, H_LOGS, H_OTHER, H_COUNT } HelpSection;
static const char *const section_titles[H_COUNT] = {
	[H_DEVICE] = "Device selection (see --list):", [H_OPTIONS] = "Options:",
	[H_LOGS] = "Session logs:", [H_OTHER] = "Other options:",
};

/* One way to write the option in --help: its section, the usage, the text
 * (wrapped; "%W" stands for the workloads' names, from their table). */
typedef struct HelpForm {
	HelpSection section;
	const char *usage, *text;
} HelpForm;

/* The arguments being read, for the options that take several */
typedef struct Args {
	int argc;
	char **argv;
	int i;              /* the option's index; a taker that reads more moves it */
	bool format_given;
} Args;

typedef struct OptionSpec OptionSpec;
typedef int (*TakeFn)(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen);

/* FLAG(f), STR(f): a field of Options, +1 so that 0 means none */
#define FLAG(f) (offsetof(Options, f) + 1)
#define STR(f) (offsetof(Options, f) + 1)

struct OptionSpec {
	const char *name;    /* "--suite" */
	const char *alias;   /* "-h", "-v"; NULL */
	bool value;          /* --name VALUE or --name=VALUE */
	bool positional;     /* a form of the device words (-N, NAME): --help only */
	unsigned modes;      /* M_ bits */
	Mode mode;           /* the mode it selects; MODE_MEASURE: none */
	size_t flag;         /* FLAG(field): a bool it sets */
	size_t str;          /* STR(field): the string it stores (with take_string) */
	const char *empty;   /* take_string: why an empty value is refused; NULL: taken */
	const char *key;     /* take_key: the config file's key it shares */
	unsigned key_modes;  /* the modes in which the config file's value counts (0: all the option's);
	                        elsewhere it is checked and not applied (key_counts) */
	const char *goes_with; /* in a mode it means nothing in: "NAME goes with GOES_WITH" */
	TakeFn take;         /* what it does with its value; NULL: flag or mode only */
	HelpForm help[3];
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
	return config_key(o, s->key, s->name, val, err, errlen);
}

static int take_format(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)s;
	for (int k = 0; k < FORMAT_COUNT; k++)
		if (!strcmp(val, format_names[k])) {
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
	if (parse_number(s->name, val, 0, CLI_MAX_DURATION_S, false, &o->duration_s, err, errlen))
		return -1;
	/* 1e-10 s became 0 ns, "until stopped", and never ended */
	if (o->duration_s > 0 && o->duration_s < CLI_MIN_DURATION_S) {
		snprintf(err, errlen, "--duration: %s s is below the shortest run, %g s (0 runs until stopped)", val,
		         CLI_MIN_DURATION_S);
		return -1;
	}
	o->duration_given = true;
	return 0;
}

static int take_trials(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	double n;
	if (parse_number(s->name, val, 1, CLI_MAX_TRIALS, false, &n, err, errlen))
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

static int take_threshold(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return parse_number(s->name, val, 0, 1000, true, &o->threshold_pct, err, errlen);
}

static int take_min_effect(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return parse_number(s->name, val, 0.001, 99.999, false, &o->min_effect, err, errlen);
}

static int take_fail_if_slower(const OptionSpec *s, Options *o, Args *a, const char *val, char *err, size_t errlen)
{
	(void)a;
	return parse_number(s->name, val, 0.001, 99.999, false, &o->fail_if_slower, err, errlen);
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
	return 0;
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
	if (!split || split == nf) {
		snprintf(err, errlen, "--compare needs session logs on both sides: --compare A B, or "
		         "--compare A1 A2 -- B1 B2");
		return -1;
	}
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
	return 0;
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
static const OptionSpec option_specs[] = {
	/* device selection: positional forms, read before any lookup */
	{ .name = "-N", .positional = true, .modes = M_ANY,
	  .help = { { H_DEVICE, "-N", "use entry N of the list (1-based)" } } },
	{ .name = "NAME", .positional = true, .modes = M_ANY,
	  .help = { { H_DEVICE, "NAME", "use the first entry NAME names: part of its name (case-insensitive), its "
	              "UUID (GPU-... as nvidia-smi -L prints it, or 8 or more of its first hex digits) or its PCI "
	              "address (00000000:1B:00.0, 0000:1b:00.0, 1b:00.0); with -N, the N-th such entry" } } },
	{ .name = "--default-device", .modes = M_RUN | M_(MODE_LATENCY) | M_(MODE_LIST_WORKLOADS),
	  .flag = FLAG(default_device),
	  .help = { { H_DEVICE, "--default-device", "no picker: the first discrete GPU, else integrated, virtual, "
	              "CPU device (what headless runs use)" } } },
	{ .name = "-N -M", .positional = true, .modes = M_ANY,
	  .help = { { H_DEVICE, "-N -M ...", "several entries at once, one engine each (the same entry twice: two "
	              "engines on it); a table a device" } } },
	{ .name = "--all", .modes = M_RUN, .flag = FLAG(all),
	  .help = { { H_DEVICE, "--all", "every physical device (with NAME: those it names), its first compute "
	              "queue family" } } },
	{ .name = "--gpus", .value = true, .modes = M_RUN, .str = STR(gpus), .empty = "an empty list",
	  .take = take_string,
	  .help = { { H_DEVICE, "--gpus LIST", "the GPUs named by NVML index (as nvidia-smi and Slurm number them; "
	              "0,2 or 0-3), UUID or PCI address, each its first compute queue family; --check takes "
	              "SLURM_JOB_GPUS when set and no device is named" } } },
	{ .name = "--outlier", .value = true, .modes = M_RUN | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG),
	  .key = "outlier", .take = take_key,
	  .help = { { H_DEVICE, "--outlier PCT", "with several devices: one whose median is more than PCT% "
	              "(default 5) below its identical peers' is named, exit 4" } } },
	/* options */
	{ .name = "--list", .modes = M_ANY, .mode = MODE_LIST,
	  .help = { { H_OPTIONS, "--list", "list devices and compute queue families, then exit; with --format json "
	              "a JSON Lines record an entry: its UUID, PCI address, driver, host" } } },
	{ .name = "--verbose", .alias = "-v", .modes = M_(MODE_LIST), .goes_with = "--list", .flag = FLAG(verbose),
	  .help = { { H_OPTIONS, "--verbose", "with --list: limits, timestamps, memory, features" } } },
	{ .name = "--headless", .modes = M_(MODE_MEASURE) | M_(MODE_REPLAY), .flag = FLAG(headless),
	  .help = { { H_OPTIONS, "--headless", "print a table instead of the dashboard (automatic when stdout is "
	              "not a terminal)" } } },
	{ .name = "--format", .value = true, .modes = M_ANY, .take = take_format,
	  .help = { { H_OPTIONS, "--format FMT", "headless output: table (default), csv, json (JSON Lines)" } } },
	{ .name = "--target-ms", .value = true, .modes = M_RUN | M_(MODE_SAVE_CONFIG), .key = "target_ms",
	  .key_modes = M_(MODE_MEASURE) | M_(MODE_SAVE_CONFIG), .take = take_key,
	  .help = { { H_OPTIONS, "--target-ms MS", "wanted time of one dispatch (default 20)" } } },
	{ .name = "--workload", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_CHECK) | M_(MODE_LATENCY) | M_READ,
	  .str = STR(workload), .take = take_string,
	  .help = { { H_OPTIONS, "--workload NAME", "what to measure (default fp32): %W; --list-workloads says what "
	              "each is and which the device runs; copy and the transfers (h2d ... h2h) measure memory, the "
	              "transfers swept from 8 KiB to 1 GiB" },
	            { H_OPTIONS, "--workload A,B,...", "with --check: its workloads (default fp32, fp16-matrix, copy, "
	              "h2d, d2h; those a device runs)" },
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
	{ .name = "--latency", .modes = M_ANY, .mode = MODE_LATENCY,
	  .help = { { H_OPTIONS, "--latency", "launch latency: 500 empty dispatches, one at a time; GPU and CPU time "
	              "per submit in us (--format json too)" } } },
	{ .name = "--suite", .modes = M_ANY, .mode = MODE_SUITE,
	  .help = { { H_OPTIONS, "--suite", "every supported workload for a short window each (2 s, or --duration), "
	              "then one table; --format json too; one session log a device, a session a workload" } } },
	{ .name = "--check", .modes = M_ANY, .mode = MODE_CHECK,
	  .help = { { H_OPTIONS, "--check", "a node check: a short suite on every GPU (or those named), each "
	              "workload held to a threshold; a PASS/FAIL line a device and workload; exit 0 all pass, 1 a "
	              "threshold missed, 3 a result was wrong (docs/FLEET.md)" } } },
	{ .name = "--budget", .value = true, .modes = M_(MODE_CHECK), .goes_with = "--check", .take = take_budget,
	  .help = { { H_OPTIONS, "--budget DUR", "with --check: the whole check's time (30s, 2m; default 30s), "
	              "shared among the workloads" } } },
	{ .name = "--threshold", .value = true, .modes = M_(MODE_CHECK), .goes_with = "--check", .take = take_threshold,
	  .help = { { H_OPTIONS, "--threshold PCT", "with --check: the % of the baseline's median (default 80) or of "
	              "the theoretical peak where known (default: 90 FMA chains, 55 tensor, 80 copy, 70 transfers) "
	              "to reach" } } },
	{ .name = "--baseline", .value = true, .modes = M_(MODE_CHECK), .goes_with = "--check", .take = take_baseline,
	  .help = { { H_OPTIONS, "--baseline A ...", "with --check: session logs to hold the workloads of the same "
	              "name to, by the --compare rules" } } },
	{ .name = "--metrics-file", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_CHECK),
	  .goes_with = "a measuring run or --check", .str = STR(metrics_file), .empty = "an empty path",
	  .take = take_string,
	  .help = { { H_OPTIONS, "--metrics-file PATH", "Prometheus text exposition of the results, replaced "
	              "atomically (node_exporter's textfile collector)" } } },
	{ .name = "--metrics-listen", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_CHECK),
	  .goes_with = "a measuring run or --check", .str = STR(metrics_listen), .take = take_string,
	  .help = { { H_OPTIONS, "--metrics-listen [ADDR:]PORT", "serve /metrics while measuring (default address "
	              "127.0.0.1)" } } },
	{ .name = "--duration", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_SUITE), .take = take_duration,
	  .help = { { H_OPTIONS, "--duration S", "seconds to measure (default: 3 headless, until quit in the "
	              "dashboard; 0 = until stopped with Ctrl-C or q)" } } },
	{ .name = "--log", .value = true, .modes = M_RUN, .str = STR(log), .empty = "empty path", .take = take_string,
	  .help = { { H_OPTIONS, "--log PATH", "write the session log (JSON Lines) to PATH; by default every run "
	              "writes $XDG_STATE_HOME/flopscope/TIME-DEVICE-WORKLOAD.jsonl (~/.local/state/flopscope/ "
	              "without XDG_STATE_HOME)" } } },
	{ .name = "--no-log", .modes = M_RUN, .flag = FLAG(no_log),
	  .help = { { H_OPTIONS, "--no-log", "record nothing" } } },
	{ .name = "--no-config", .modes = M_ANY, .flag = FLAG(no_config),
	  .help = { { H_OPTIONS, "--no-config", "ignore the config file ($XDG_CONFIG_HOME/flopscope/config, "
	              "~/.config/flopscope/config: theme, target_ms, fps, window, outlier, log_keep, log_cap; the "
	              "options win)" } } },
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
	{ .name = "--theme", .value = true, .modes = M_(MODE_MEASURE) | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG),
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
enum { OPTION_SPECS = sizeof option_specs / sizeof *option_specs };

static const OptionSpec *option_spec(const char *name)
{
	for (size_t i = 0; i < OPTION_SPECS; i++)
		if (!option_specs[i].positional &&
		    (!strcmp(option_specs[i].name, name) || (option_specs[i].alias && !strcmp(option_specs[i].alias, name))))
			return &option_specs[i];
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
	         mode_specs[mode].called, bad == 1 ? "it" : "them", bad == 1 ? "it" : "them");
	return -1;
}

/* The formats mode writes, "table, json" */
static void format_list(unsigned can, char *out, size_t len)
{
	out[0] = '\0';
	for (int f = 0; f < FORMAT_COUNT; f++)
		if (can & (1u << f))
			snprintf(out + strlen(out), len - strlen(out), "%s%s", *out ? ", " : "", format_names[f]);
}

/* What the options say together: --export's output, --log against
 * --no-log, devices against what the mode takes (its table row). An option
 * alone in a mode it means nothing in is mode_takes' (its table row). */
static int validate(Options *o, bool format_given, char *err, size_t errlen)
{
	const ModeSpec *m = &mode_specs[o->mode];
	if (o->export_file && o->csv == !!o->svg) {
		snprintf(err, errlen, "--export FILE needs one of --csv [OUT.csv] or --svg OUT.svg");
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
	if (o->mode == MODE_SUITE && o->workload) {
		snprintf(err, errlen, "--suite runs every workload: --workload picks one (drop --suite), or a "
		         "session of a suite's log (with --replay, --export, --compare, --analyze)");
		return -1;
	}
	if (m->picks_session && o->transfer_queue && !o->workload) {
		snprintf(err, errlen, "%s: --transfer-queue picks a session with --workload NAME", m->option);
		return -1;
	}
	if (o->mode != MODE_CHECK && o->workload && strchr(o->workload, ',')) {
		snprintf(err, errlen, "--workload: one workload (a list goes with --check)");
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
	if (format_given) {
		if (!(m->formats & (1u << o->format))) {
			char list[40];
			format_list(m->formats, list, sizeof list);
			if (m->formats)
				snprintf(err, errlen, "--format %s does not apply to %s (it writes %s)", format_names[o->format],
				         m->called, list);
			else
				snprintf(err, errlen, "--format does not apply to %s", m->option);
			return -1;
		}
		o->headless = true;
	}
	if (o->mode == MODE_LIST && o->verbose && o->format == FORMAT_JSON) {
		snprintf(err, errlen, "--list --format json has every field --verbose adds to the table: give one or "
		         "the other");
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
		snprintf(err, errlen, "unknown option %s (see --help)", name);
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

/* ---- --help, from the tables ------------------------------------------- */

typedef struct Text {
	char *out;
	size_t len, at;
} Text;

static void put(Text *t, const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++, t->at++)
		if (t->at + 1 < t->len)
			t->out[t->at] = s[k];
	if (t->len)
		t->out[t->at + 1 < t->len ? t->at : t->len - 1] = '\0';
}

static void puts_(Text *t, const char *s)
{
	put(t, s, strlen(s));
}

enum { HELP_WIDTH = 78, HELP_TEXT_COL = 21 };

/* One form: the usage at column 2, the text wrapped at HELP_WIDTH from
 * HELP_TEXT_COL ("%W": the workloads' names). */
static void help_form(Text *t, const HelpForm *f)
{
	char text[1024];
	const char *w = strstr(f->text, "%W");
	if (w) {
		char names[512];
		workload_names(names, sizeof names);
		snprintf(text, sizeof text, "%.*s%s%s", (int)(w - f->text), f->text, names, w + 2);
	} else {
		snprintf(text, sizeof text, "%s", f->text);
	}
	puts_(t, "  ");
	puts_(t, f->usage);
	size_t col = 2 + strlen(f->usage);
	if (col + 2 > HELP_TEXT_COL) {
		puts_(t, "  ");
		col += 2;
	} else {
		for (; col < HELP_TEXT_COL; col++)
			puts_(t, " ");
	}
	const char *p = text;
	while (*p) {
		size_t word = strcspn(p, " ");
		if (col > HELP_TEXT_COL && col + 1 + word > HELP_WIDTH) {
			puts_(t, "\n");
			for (col = 0; col < HELP_TEXT_COL; col++)
				puts_(t, " ");
		} else if (col > HELP_TEXT_COL && p != text) {
			puts_(t, " ");
			col++;
		}
		put(t, p, word);
		col += word;
		p += word;
		while (*p == ' ')
			p++;
	}
	puts_(t, "\n");
}

static const char help_head[] =
	"usage: flopscope [options] [-N] [NAME]\n"
	"\n"
	"Measures the floating-point throughput a Vulkan compute device delivers with\n"
	"the adaptive 20 ms loop: start at 1 workgroup, multiply by 10 while a dispatch\n"
	"takes less than target/10, then rescale so each dispatch takes the target time.\n";

static const char help_tail[] =
	"\n"
	"Dashboard keys:\n"
	"  up/down j/k, mouse, Enter   pick a device (picker); space marks several\n"
	"  space  pause/resume     r  restart the loop      d, Esc  back one level\n"
	"  + / -  target: next round value (1 2 5 10 20 50 ... ms)\n"
	"  z      whole session / window   t  next theme    1-9  a device in full\n"
	"  w      next workload (fp32 ... h2h, those the device runs)\n"
	"  F1 ?   help             F10 q  quit (Ctrl-C too)\n"
	"  < / >  replay speed /2, x2, max   left/right  10 s back, on   e End  the end\n"
	"  .      one sample on, paused (--replay)\n"
	"\n"
	"Exit status: 0 success, 1 runtime failure (--check: a threshold missed),\n"
	"2 bad usage or input, 3 a result check failed (the device computed wrong\n"
	"values), 4 several devices: the outlier rule named one, 5 --check held\n"
	"nothing to a reference, 128+N ended by signal N (man flopscope).\n";

size_t cli_help_text(char *out, size_t len)
{
	Text t = { out, len, 0 };
	if (len)
		out[0] = '\0';
	puts_(&t, help_head);
	for (int s = H_DEVICE; s < H_COUNT; s++) {
		puts_(&t, "\n");
		puts_(&t, section_titles[s]);
		puts_(&t, "\n");
		for (size_t i = 0; i < OPTION_SPECS; i++)
			for (size_t f = 0; f < sizeof option_specs[i].help / sizeof *option_specs[i].help; f++)
				if (option_specs[i].help[f].section == (HelpSection)s)
					help_form(&t, &option_specs[i].help[f]);
	}
	puts_(&t, help_tail);
	return t.at;
}

/* The placeholder of an option's value in its first help form ("FILE" of
 * "--analyze FILE"), into out; "" when none. */
static void placeholder(const OptionSpec *s, char *out, size_t len)
{
	const char *form = s->help[0].usage ? s->help[0].usage : "";
	const char *sp = strchr(form, ' ');
	snprintf(out, len, "%s", sp ? sp + 1 : "");
	out[strcspn(out, " ")] = '\0';
}

/* What an option's value is, for the completions: a file or folder, a
 * word from a list the generator writes itself, or anything else. */
typedef enum ValueKind { V_NONE, V_FILE, V_WORD, V_OTHER } ValueKind;

static ValueKind value_kind(const OptionSpec *s)
{
	static const char *const file_words[] = { "FILE", "PATH", "A", "DIR", "OUT", "OUT.svg" };
	if (!s->value)
		return V_NONE;
	if (!strcmp(s->name, "--workload") || !strcmp(s->name, "--format") || !strcmp(s->name, "--theme") ||
	    !strcmp(s->name, "--completion"))
		return V_WORD;
	char ph[32];
	placeholder(s, ph, sizeof ph);
	for (size_t k = 0; k < sizeof file_words / sizeof *file_words; k++)
		if (!strcmp(ph, file_words[k]))
			return V_FILE;
	return V_OTHER;
}

/* The words a V_WORD option offers, space-separated: the workloads (their
 * table), the formats, the shells, the themes given. */
static void put_words(Text *t, const OptionSpec *s, const char *const *themes, size_t nthemes)
{
	if (!strcmp(s->name, "--workload")) {
		for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++) {
			puts_(t, w ? " " : "");
			puts_(t, workload_info[w].name);
		}
	} else if (!strcmp(s->name, "--format")) {
		puts_(t, "table csv json");
	} else if (!strcmp(s->name, "--completion")) {
		puts_(t, "bash zsh");
	} else {
		/* a theme's name is a file's: one that is not a plain word (a quote,
		 * a space) is left out of the script, never quoted into it */
		bool first = true;
		for (size_t k = 0; k < nthemes; k++) {
			if (!themes[k][0] || strspn(themes[k], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-+") !=
			                         strlen(themes[k]))
				continue;
			puts_(t, first ? "" : " ");
			puts_(t, themes[k]);
			first = false;
		}
	}
}

/* The devices --list shows now, as the completions offer them: -N, the
 * name's first word, GPU-UUID, the PCI address (a sed script over its JSON
 * Lines; "null" where an entry has no PCI address) */
#define LIST_DEVICES_SED                                                                                        \
	"--list --format json --no-config 2>/dev/null | sed -n "                                                \
	"'s/.*\"entry\":\\([0-9]*\\).*\"device\":\"\\([^ \"]*\\)[^\"]*\".*\"uuid\":\"\\([^\"]*\\)\",\"pci_bus_id\":" \
	"\"\\{0,1\\}\\([^\",]*\\).*/-\\1 \\2 GPU-\\3 \\4/p'"

size_t cli_completion_bash(char *out, size_t len, const char *const *themes, size_t nthemes)
{
	Text t = { out, len, 0 };
	if (len)
		out[0] = '\0';
	puts_(&t, "# bash completion for flopscope, written by `flopscope --completion bash` from its\n"
	          "# option and workload tables. Load it with: source <(flopscope --completion bash)\n"
	          "# COMPREPLY gets the words of $1 that start with $cur, taken literally:\n"
	          "# never through compgen -W, which expands $(...) in a word (a device's name)\n"
	          "_flopscope_words() {\n"
	          "\tlocal -a ws\n"
	          "\tlocal w\n"
	          "\tread -r -d '' -a ws <<<\"$1\"\n"
	          "\tfor w in \"${ws[@]}\"; do [[ $w == \"$cur\"* ]] && COMPREPLY+=(\"$w\"); done\n"
	          "}\n"
	          "# the files that start with $cur, one a word whatever spaces they hold\n"
	          "_flopscope_files() {\n"
	          "\tlocal f\n"
	          "\tcompopt -o filenames 2>/dev/null\n"
	          "\twhile IFS= read -r f; do COMPREPLY+=(\"$f\"); done < <(compgen -f -- \"$cur\")\n"
	          "}\n"
	          "_flopscope() {\n"
	          "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	          "\tCOMPREPLY=()\n"
	          "\tcase $prev in\n");
	/* the options that take a word of a list: the words, and for a theme
	 * a file too */
	for (size_t i = 0; i < OPTION_SPECS; i++) {
		const OptionSpec *s = &option_specs[i];
		if (s->positional || value_kind(s) != V_WORD)
			continue;
		puts_(&t, "\t");
		puts_(&t, s->name);
		puts_(&t, ") _flopscope_words '");
		put_words(&t, s, themes, nthemes);
		puts_(&t, !strcmp(s->name, "--theme") ? "'; _flopscope_files; return ;;\n" : "'; return ;;\n");
	}
	/* options that take a file or a folder, then those that take anything else */
	for (int files = 1; files >= 0; files--) {
		bool any = false;
		for (size_t i = 0; i < OPTION_SPECS; i++) {
			const OptionSpec *s = &option_specs[i];
			if (s->positional || value_kind(s) != (files ? V_FILE : V_OTHER))
				continue;
			puts_(&t, any ? "|" : "\t");
			puts_(&t, s->name);
			any = true;
		}
		if (any)
			puts_(&t, files ? ") _flopscope_files; return ;;\n"
			                : ") return ;; # a number, a size, a list: nothing to offer\n");
	}
	puts_(&t, "\tesac\n\tif [[ $cur == -* ]]; then\n\t\t_flopscope_words '");
	bool first = true;
	for (size_t i = 0; i < OPTION_SPECS; i++) {
		if (option_specs[i].positional)
			continue;
		puts_(&t, first ? "" : " ");
		puts_(&t, option_specs[i].name);
		first = false;
	}
	puts_(&t, "'\n\t\t[[ $cur =~ ^-[0-9]*$ ]] || return\n\tfi\n"
	          "\t# the devices --list shows now: -N, the UUID, the PCI address, the name's first word\n"
	          "\tlocal devs\n"
	          "\tdevs=$(\"${COMP_WORDS[0]}\" " LIST_DEVICES_SED ")\n"
	          "\t_flopscope_words \"${devs//null/}\"\n"
	          "}\ncomplete -F _flopscope flopscope\n");
	return t.at;
}

/* The start of an option's help text as a zsh description: up to the first
 * ';', '(' or 60 bytes (at a word), with _arguments' and the single quote's
 * specials escaped. */
static void zsh_description(Text *t, const OptionSpec *s)
{
	const char *txt = s->help[0].text ? s->help[0].text : "";
	size_t n = strcspn(txt, ";(%");
	if (n > 60) {
		n = 60;
		while (n > 30 && txt[n] != ' ')
			n--;
	}
	while (n && (txt[n - 1] == ' ' || txt[n - 1] == ','))
		n--;
	for (size_t i = 0; i < n; i++) {
		char c = txt[i];
		if (c == '\'')
			puts_(t, "'\\''");
		else if (c == '[' || c == ']' || c == ':' || c == '\\') {
			put(t, "\\", 1);
			put(t, &c, 1);
		} else
			put(t, &c, 1);
	}
}

size_t cli_completion_zsh(char *out, size_t len, const char *const *themes, size_t nthemes)
{
	Text t = { out, len, 0 };
	if (len)
		out[0] = '\0';
	puts_(&t, "#compdef flopscope\n"
	          "# zsh completion for flopscope, written by `flopscope --completion zsh` from its\n"
	          "# option and workload tables: put it in a folder of $fpath as _flopscope.\n"
	          "\n"
	          "# the devices --list shows now: -N, the name's first word, the UUID, the PCI address\n"
	          "_flopscope_devices() {\n"
	          "\tlocal -a devs\n"
	          "\tdevs=(${=${\"$(\"${words[1]}\" " LIST_DEVICES_SED ")\"//null/}})\n"
	          "\tcompadd -a devs\n"
	          "}\n"
	          "\n"
	          "_flopscope() {\n"
	          "\t_arguments \\\n");
	for (size_t i = 0; i < OPTION_SPECS; i++) {
		const OptionSpec *s = &option_specs[i];
		if (s->positional)
			continue;
		puts_(&t, "\t\t'");
		puts_(&t, s->name);
		puts_(&t, "[");
		zsh_description(&t, s);
		puts_(&t, "]");
		char ph[32];
		placeholder(s, ph, sizeof ph);
		switch (value_kind(s)) {
		case V_NONE:
			break;
		case V_FILE:
			puts_(&t, ":");
			puts_(&t, ph);
			puts_(&t, !strcmp(ph, "DIR") ? ":_files -/" : ":_files");
			break;
		case V_OTHER:
			puts_(&t, ":");
			puts_(&t, ph);
			puts_(&t, ": ");
			break;
		case V_WORD:
			puts_(&t, ":");
			puts_(&t, ph);
			puts_(&t, ":(");
			put_words(&t, s, themes, nthemes);
			puts_(&t, ")");
			break;
		}
		puts_(&t, "' \\\n");
	}
	puts_(&t, "\t\t'*:device:_flopscope_devices'\n"
	          "}\n"
	          "\n"
	          "_flopscope \"$@\"\n");
	return t.at;
}

size_t cli_option_names(const char **names, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < OPTION_SPECS; i++)
		if (!option_specs[i].positional && n < cap)
			names[n++] = option_specs[i].name;
	return n;
}

double cli_target_step(double ms, int dir)
{
	/* the series from CLI_MIN_TARGET_MS (1 us) to CLI_MAX_TARGET_MS (10 s) */
	static const double mant[3] = { 1, 2, 5 };
	double best = dir > 0 ? CLI_MAX_TARGET_MS : CLI_MIN_TARGET_MS;
	for (int e = -3; e <= 4; e++)
		for (int m = 0; m < 3; m++) {
			double v = mant[m] * pow(10, e);
			if (v < CLI_MIN_TARGET_MS * 0.999 || v > CLI_MAX_TARGET_MS * 1.001)
				continue;
			/* strictly beyond ms (relative 1e-9: 20 is 20) */
			if (dir > 0 && v > ms * (1 + 1e-9) && v < best)
				best = v;
			if (dir <= 0 && v < ms * (1 - 1e-9) && v > best)
				best = v;
		}
	return best;
}

/* One setting onto o, checked the same way from the config file (key,
 * shown as the key) and the command line (shown as the option). */
static int config_key(Options *o, const char *key, const char *shown, const char *val, char *err, size_t errlen)
{
	double v;
	if (!strcmp(key, "theme")) {
		if (!*val || strlen(val) >= sizeof o->theme_buf) {
			snprintf(err, errlen, "%s: a theme name or path of 1 to %zu characters", shown, sizeof o->theme_buf - 1);
			return -1;
		}
		snprintf(o->theme_buf, sizeof o->theme_buf, "%s", val);
		o->theme = o->theme_buf;
	} else if (!strcmp(key, "target_ms")) {
		if (parse_number(shown, val, CLI_MIN_TARGET_MS, CLI_MAX_TARGET_MS, false, &o->target_ms, err, errlen))
			return -1;
	} else if (!strcmp(key, "fps") || !strcmp(key, "log_keep")) {
		bool fps = key[0] == 'f';
		if (parse_number(shown, val, fps ? 1 : 0, fps ? 20 : 1e6, false, &v, err, errlen))
			return -1;
		if (v != (double)(unsigned)v) {
			snprintf(err, errlen, "%s: %s is not a whole number%s", shown, val, fps ? "" : " of logs");
			return -1;
		}
		*(fps ? &o->fps : &o->log_keep) = (unsigned)v;
	} else if (!strcmp(key, "window")) {
		if (strcmp(val, "whole") && strcmp(val, "auto")) {
			snprintf(err, errlen, "%s: auto or whole, not \"%.40s\"", shown, val);
			return -1;
		}
		o->whole = !strcmp(val, "whole");
	} else if (!strcmp(key, "outlier")) {
		if (parse_number(shown, val, 0.1, 99.9, false, &o->outlier_pct, err, errlen))
			return -1;
	} else if (!strcmp(key, "log_cap")) {
		uint64_t lo = 0, hi = 0;
		char why[200];
		if (strcmp(val, "0") && !mem_parse_size(val, &lo, &hi, why, sizeof why)) {
			snprintf(err, errlen, "%s: %s", shown, why);
			return -1;
		}
		if (lo != hi) {
			snprintf(err, errlen, "%s: one size (e.g. 100M), not a range", shown);
			return -1;
		}
		o->log_cap = hi;
	} else {
		snprintf(err, errlen, "unknown key \"%.40s\" (theme, target_ms, fps, window, outlier, log_keep, log_cap)",
		         key);
		return -1;
	}
	return 0;
}

static const char *const config_keys[] = { "theme", "target_ms", "fps", "window", "outlier", "log_keep", "log_cap" };
enum { CONFIG_KEYS = sizeof config_keys / sizeof *config_keys };

/* The config file's line at *i into buf (without its newline), *i past
 * it; its length, or (size_t)-1 with err for a NUL byte or a line too long.
 * A comment line ('#' its first non-blank) or a newer version's key is
 * never too long: *skip says the line was passed over whole (buf holds
 * nothing), *long_line that it was longer than buf (a newer version's key
 * is kept from text, *start its first byte). */
static size_t config_line(const char *text, size_t len, size_t *i, char *buf, size_t size, int line, char *err,
                          size_t errlen, bool *skip, size_t *start, size_t *raw_len)
{
	size_t from = *i, n = 0;
	*skip = false;
	*start = from;
	while (*i < len && text[*i] != '\n') {
		if (text[*i] == '\0') {
			snprintf(err, errlen, "line %d: a NUL byte: not a text file", line);
			return (size_t)-1;
		}
		(*i)++;
	}
	*raw_len = *i - from;
	(*i)++; /* the newline */
	size_t b = from;
	while (b < from + *raw_len && (text[b] == ' ' || text[b] == '\t'))
		b++;
	if (b < from + *raw_len && text[b] == '#') {
		*skip = true; /* a comment, however long */
		buf[0] = '\0';
		return 0;
	}
	n = *raw_len;
	if (n + 1 > size) {
		/* a key this version knows has no value that long; a newer
		 * version's is kept as written */
		const char *eq = memchr(text + from, '=', n);
		size_t k = eq ? (size_t)(eq - (text + b)) : 0;
		while (k && (text[b + k - 1] == ' ' || text[b + k - 1] == '\t'))
			k--;
		bool known = false;
		for (int c = 0; eq && c < CONFIG_KEYS; c++)
			known |= strlen(config_keys[c]) == k && !memcmp(config_keys[c], text + b, k);
		if (!eq || known) {
			snprintf(err, errlen, "line %d: longer than %zu characters", line, size - 1);
			return (size_t)-1;
		}
		*skip = true;
		snprintf(buf, size, "%.*s", (int)(k < 60 ? k : 60), text + b);
		return (size_t)-2;
	}
	memcpy(buf, text + from, n);
	buf[n] = '\0';
	return n;
}

/* keep: the lines of unknown keys, as written (n bytes of raw), each
 * ending in a newline */
static void keep_line(char *keep, size_t keeplen, const char *raw, size_t n)
{
	size_t w = strlen(keep);
	if (n && raw[n - 1] == '\r')
		n--;
	if (w + n + 2 <= keeplen)
		snprintf(keep + w, keeplen - w, "%.*s\n", (int)n, raw);
}

/* A newer version's key at line, added to warn. */
static void warn_unknown(char *warn, size_t warnlen, int line, const char *key)
{
	if (!warn || !warnlen)
		return;
	size_t w = strlen(warn);
	snprintf(warn + w, warnlen - w, "%sline %d: unknown key \"%.40s\" ignored", w ? "; " : "", line, key);
}

/* Whether the file's value of key counts in mode (the option table's
 * key_modes: a dashboard preference is no setting of a check). */
static bool key_counts(const char *key, Mode mode)
{
	for (size_t i = 0; i < OPTION_SPECS; i++)
		if (option_specs[i].key && !strcmp(option_specs[i].key, key))
			return !option_specs[i].key_modes || (option_specs[i].key_modes & M_(mode));
	return true;
}

/* cli_config_apply's walk; keep (keeplen > 0) gathers the unknown keys' lines. */
static int config_walk(const char *text, size_t len, Mode mode, Options *o, char *err, size_t errlen, char *warn,
                       size_t warnlen, char *keep, size_t keeplen)
{
	size_t i = 0;
	int seen_at[CONFIG_KEYS] = { 0 };
	if (warn && warnlen)
		warn[0] = '\0';
	/* a byte-order mark some editors put first */
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		i = 3;
	for (int line = 1; i < len; line++) {
		char buf[512];
		bool skip;
		size_t start, raw_len;
		size_t n = config_line(text, len, &i, buf, sizeof buf, line, err, errlen, &skip, &start, &raw_len);
		if (n == (size_t)-1)
			return -1;
		if (skip) {
			if (n == (size_t)-2) { /* a newer version's long line */
				warn_unknown(warn, warnlen, line, buf);
				if (keeplen)
					keep_line(keep, keeplen, text + start, raw_len);
			}
			continue;
		}
		char raw[512];
		memcpy(raw, buf, n + 1);
		if (n && raw[n - 1] == '\r')
			raw[n - 1] = '\0';
		/* a comment: # at the line's start, or after a blank (a value may
		 * hold a # of its own: "theme = ~/themes/#1.json") */
		for (char *h = buf; (h = strchr(h, '#')) != NULL; h++)
			if (h == buf || h[-1] == ' ' || h[-1] == '\t') {
				*h = '\0';
				break;
			}
		char *p = buf;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		char *end = p + strlen(p);
		/* CRLF line ends (a file saved on Windows) read as LF */
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		if (!*p)
			continue;
		char *eq = strchr(p, '=');
		if (!eq) {
			snprintf(err, errlen, "line %d: \"%.60s\" is not key = value", line, p);
			return -1;
		}
		char *kend = eq;
		while (kend > p && (kend[-1] == ' ' || kend[-1] == '\t'))
			kend--;
		*kend = '\0';
		char *val = eq + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		int k = 0;
		while (k < CONFIG_KEYS && strcmp(config_keys[k], p))
			k++;
		if (k == CONFIG_KEYS) {
			/* a newer version's key in a shared home: said, not fatal */
			warn_unknown(warn, warnlen, line, p);
			if (keeplen)
				keep_line(keep, keeplen, raw, strlen(raw));
			continue;
		}
		if (seen_at[k]) {
			snprintf(err, errlen, "line %d: %s given twice (line %d too): which one is meant?", line, p, seen_at[k]);
			return -1;
		}
		seen_at[k] = line;
		char why[400];
		Options scratch = *o; /* a value that does not count here is checked all the same */
		if (config_key(key_counts(p, mode) ? o : &scratch, p, p, val, why, sizeof why) < 0) {
			snprintf(err, errlen, "line %d: %s", line, why);
			return -1;
		}
	}
	return 0;
}

int cli_config_apply(const char *text, size_t len, Mode mode, Options *o, char *err, size_t errlen, char *warn,
                     size_t warnlen)
{
	return config_walk(text, len, mode, o, err, errlen, warn, warnlen, NULL, 0);
}

int cli_config_unknown(const char *text, size_t len, char *out, size_t outlen)
{
	Options scratch;
	char err[16];
	cli_defaults(&scratch);
	if (outlen)
		out[0] = '\0';
	return config_walk(text, len, MODE_SAVE_CONFIG, &scratch, err, sizeof err, NULL, 0, out, outlen);
}

bool cli_config_value_ok(const char *val)
{
	/* a line holds no newline; " #" would start a comment; blanks at either
	 * end are trimmed; the theme, the longest value, must fit what is read */
	size_t n = strlen(val);
	if (!n || n >= CLI_CONFIG_VALUE_MAX || strchr(val, '\n') || strchr(val, '\r'))
		return false;
	if (val[0] == ' ' || val[0] == '\t' || val[n - 1] == ' ' || val[n - 1] == '\t' || val[0] == '#')
		return false;
	for (const char *h = strchr(val, '#'); h; h = strchr(h + 1, '#'))
		if (h[-1] == ' ' || h[-1] == '\t')
			return false;
	return true;
}

int cli_config_text(const Options *o, char *out, size_t len)
{
	char cap[32];
	snprintf(cap, sizeof cap, "%llu", o->log_cap);
	return snprintf(out, len,
	                "# flopscope settings: the command line's options override them.\n"
	                "# theme: dark, light, mono, or a theme file's path\n"
	                "theme = %s\n"
	                "# the dispatch time the adaptive loop aims at, ms (0.001 .. 10000)\n"
	                "target_ms = %g\n"
	                "# dashboard redraws a second at most (1 .. 20)\n"
	                "fps = %u\n"
	                "# the dashboard's time axis: auto (the whole run, then its last 60 s past\n"
	                "# 120 s) or whole (always); z toggles\n"
	                "window = %s\n"
	                "# several devices: a device this many %% below its peers' median is named\n"
	                "outlier = %g\n"
	                "# the default log folder keeps at most log_keep logs and log_cap bytes (0: no limit)\n"
	                "log_keep = %u\n"
	                "log_cap = %s\n",
	                o->theme ? o->theme : "dark", o->target_ms, o->fps, o->whole ? "whole" : "auto", o->outlier_pct,
	                o->log_keep, cap);
}
