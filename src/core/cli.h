/* cli: the command line, parsed into Options; pure (no I/O). */
#ifndef FLOPSCOPE_CLI_H
#define FLOPSCOPE_CLI_H

#include <stdbool.h>
#include <stddef.h>

typedef enum OutFormat {
	FORMAT_TABLE,
	FORMAT_CSV,
	FORMAT_JSON,
	FORMAT_COUNT
} OutFormat;

/* What the program does; the parser sets it once, and a second mode is a
 * usage error (never one silently dropped). */
typedef enum Mode {
	MODE_MEASURE,        /* the default: dashboard, or headless output */
	MODE_HELP,           /* --help */
	MODE_VERSION,        /* --version */
	MODE_LIST,           /* --list */
	MODE_LIST_WORKLOADS, /* --list-workloads */
	MODE_SUITE,          /* --suite */
	MODE_LATENCY,        /* --latency */
	MODE_REPLAY,         /* --replay FILE */
	MODE_COMPARE,        /* --compare A B */
	MODE_EXPORT,         /* --export FILE */
	MODE_ANALYZE,        /* --analyze FILE */
	MODE_LOGS,           /* --logs: the recent sessions of the default folder */
	MODE_SAVE_CONFIG,    /* --save-config: the settings into the config file */
	MODE_CHECK,          /* --check: a short suite held to thresholds, PASS/FAIL */
	MODE_COMPLETION,     /* --completion bash: the shell's completion script */
	MODE_COUNT
} Mode;

/* The option that selects a mode ("--suite"; "" for MODE_MEASURE). */
const char *cli_mode_option(Mode m);

#define CLI_COMPARE_MAX 16
#define CLI_MAX_DEVICES 16
#define CLI_DEFAULT_OUTLIER_PCT 5.0
#define CLI_DEFAULT_BUDGET_S 30.0
#define CLI_MAX_BUDGET_S (24.0 * 3600)
#define CLI_MIN_BUDGET_S 1.0
#define CLI_DEFAULT_THRESHOLD_PCT 80.0

/* The longest config value that reads back, with its NUL (the theme's). */
#define CLI_CONFIG_VALUE_MAX 256

typedef struct Options {
	Mode mode;
	bool verbose, headless, validate, serial, no_cache;
	const char *shell;     /* --completion SHELL: "bash" or "zsh" */
	OutFormat format;
	double target_ms;      /* > 0 */
	double duration_s;     /* 0: until stopped */
	bool duration_given;
	unsigned dev_index;    /* -N, 1-based; 0 when absent (the first when several) */
	unsigned dev_indexes[CLI_MAX_DEVICES]; /* -N -M ...: several at once (one may repeat:
	                          two engines on one entry) */
	unsigned ndev_indexes;
	bool all;              /* --all: every physical device (whose name has dev_word) */
	double outlier_pct;    /* --outlier PCT: a device this far below its identical peers */
	const char *dev_word;  /* name filter or NULL */
	const char *gpus;      /* --gpus LIST: NVML indices, UUIDs or PCI addresses (devsel_gpu_list) */
	const char *shader_dir;/* NULL: next to the executable */
	unsigned fps;          /* dashboard frames a second, 1..20 */
	const char *workload;  /* --workload NAME; NULL: fp32 */
	unsigned trials;       /* --trials N: dispatches per submission, 1..CLI_MAX_TRIALS */
	unsigned long long size_lo, size_hi; /* --size SIZE or LO-HI in bytes; 0: default */
	bool transfer_queue;   /* --transfer-queue */
	bool default_device;   /* --default-device: no picker, the best-ranked entry */
	const char *theme;
	const char *log;       /* --log PATH */
	unsigned log_keep;     /* --log-keep N: old default logs kept (0: no limit) */
	bool whole;            /* the dashboard shows the whole run from the start (z) */
	bool no_config;        /* --no-config: the config file is not read */
	char theme_buf[CLI_CONFIG_VALUE_MAX]; /* the config file's theme (o->theme points here) */
	unsigned long long log_cap; /* --log-cap SIZE: their bytes (0: no limit) */
	const char *replay;    /* --replay FILE: the first of ... */
	const char *replays[CLI_MAX_DEVICES]; /* --replay A B ...: one log per device */
	unsigned nreplays;
	const char *analyze;   /* --analyze FILE */
	const char *compare_a[CLI_COMPARE_MAX]; /* --compare A B, or A1 A2 -- B1 B2 */
	const char *compare_b[CLI_COMPARE_MAX];
	unsigned ncompare_a, ncompare_b;
	double fail_if_slower; /* --fail-if-slower PCT; 0: off */
	double min_effect;     /* --min-effect PCT; 0: compare_default_min_effect's */
	const char *export_file; /* --export FILE (with --csv or --svg OUT): the first of ... */
	const char *exports[CLI_COMPARE_MAX]; /* --export A B ... --svg OUT: sweeps in one chart */
	unsigned nexports;
	bool csv;
	const char *csv_out;   /* --csv OUT: the file (NULL: standard output) */
	const char *svg;
	bool no_log;
	/* --check */
	double budget_s;       /* --budget DUR: the whole check's time */
	double threshold_pct;  /* --threshold PCT: of the peak, or of the baseline */
	const char *baselines[CLI_MAX_DEVICES]; /* --baseline A B ...: session logs */
	unsigned nbaselines;
	/* Prometheus exposition */
	const char *metrics_file;   /* --metrics-file PATH: written atomically */
	const char *metrics_listen; /* --metrics-listen [ADDR:]PORT: /metrics served */
	bool force;            /* --force: replace an existing --log or --svg file;
	                          --compare sessions of different workloads or units */
} Options;

#define CLI_DEFAULT_TARGET_MS 20.0
#define CLI_DEFAULT_DURATION_S 3.0
#define CLI_MIN_TARGET_MS 0.001   /* 1 us: below any device's launch latency */
#define CLI_MAX_TARGET_MS 10000.0

/* The next round target from ms in the 1-2-5 series (... 5, 10, 20, 50 ...
 * ms), up (dir > 0) or down, within the --target-ms range: the dashboard's
 * + and - keys, which therefore always reach 20 ms again. */
double cli_target_step(double ms, int dir);
#define CLI_DEFAULT_FPS 10
#define CLI_MAX_TRIALS 1000
#define CLI_MAX_DURATION_S (30.0 * 24 * 3600)
#define CLI_MIN_DURATION_S 0.001 /* a positive duration below it is refused (not taken as 0) */

/* Fills o from argv. Returns 0, or -1 with a message in err (a usage error,
 * exit status 2). */
int cli_parse(int argc, char **argv, Options *o, char *err, size_t errlen);

/* The defaults every option starts from. */
void cli_defaults(Options *o);
/* As cli_parse, from base (the defaults with the config file applied)
 * instead of the defaults: the command line overrides the file. */
int cli_parse_with(int argc, char **argv, const Options *base, Options *o, char *err, size_t errlen);

/* The config file ($XDG_CONFIG_HOME/flopscope/config): "key = value" lines,
 * # comments (at a line's start or after a blank), keys theme, target_ms,
 * fps, window (auto or whole), outlier, log_keep, log_cap, checked as the
 * options are; each key at most once, as on the command line; a UTF-8
 * byte-order mark and CRLF line ends read. Applies them to o, those that
 * count in mode (a saved dashboard target is not a check's: the option
 * table's key_modes; the others are checked all the same); -1 with
 * "line N: why" in err. A key this version does not know is skipped and
 * named in warn ("" when none). */
int cli_config_apply(const char *text, size_t len, Mode mode, Options *o, char *err, size_t errlen, char *warn,
                     size_t warnlen);
/* The lines of a config file's keys this version does not know (a newer
 * version's), as written, each ending in a newline, into out: what a save
 * keeps (an outlen of len + 2 always holds them all). -1 when the file does
 * not read (then out holds those before). */
int cli_config_unknown(const char *text, size_t len, char *out, size_t outlen);
/* Whether a config value survives a write and a read (no newline, no
 * " #", no blank at its ends, shorter than CLI_CONFIG_VALUE_MAX, what the
 * theme's buffer holds): --save-config refuses one that does not. */
bool cli_config_value_ok(const char *val);
/* The settings of o as a config file, every key documented; its length
 * (as snprintf). */
int cli_config_text(const Options *o, char *out, size_t len);

/* A duration: "30", "30s", "2m", "1h" (seconds, minutes, hours), into
 * seconds; -1 with the reason in err. */
int cli_parse_duration(const char *opt, const char *s, double lo, double hi, double *out, char *err,
                       size_t errlen);

/* The --help text, made from the option and workload tables, into out (cut
 * to fit len); returns its whole length (a buffer of CLI_HELP_MAX holds it). */
#define CLI_HELP_MAX 16384
size_t cli_help_text(char *out, size_t len);
/* bash's completion script for flopscope, from the option, mode and
 * workload tables: every option; after an option, what it takes (workloads,
 * formats, themes[0..nthemes), files); a device word: what --list shows at
 * completion time (an entry's -N, its UUID as nvidia-smi writes it, its
 * PCI address, its name's first word). Returns the length it needed (as
 * snprintf: out is cut, always terminated, when that is >= len). */
size_t cli_completion_bash(char *out, size_t len, const char *const *themes, size_t nthemes);
/* The same for zsh (#compdef, _arguments): every option with the start of
 * its help text, what each takes, the devices --list shows. */
size_t cli_completion_zsh(char *out, size_t len, const char *const *themes, size_t nthemes);
/* The options' names (--suite ...), from the table: at most cap; how many. */
size_t cli_option_names(const char **names, size_t cap);

#endif
