/* options: what the command line (and the config file) set: the modes, the
 * formats, the Options every mode reads and their limits. Types only; the
 * parser is cli.h's, the config file cli_config.h's. Pure. */
#ifndef FLOPSCOPE_OPTIONS_H
#define FLOPSCOPE_OPTIONS_H

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
	MODE_WATCH,          /* --watch: telemetry without load, a row every --interval */
	MODE_FLEET,          /* --fleet URL: a fleet's GPUs as a Prometheus server holds them */
	MODE_BURN,           /* --burn DUR: a soak of every GPU at once, judged in windows */
	MODE_COUNT
} Mode;

#define CLI_COMPARE_MAX 16
#define CLI_MAX_DEVICES 16
#define CLI_DEFAULT_OUTLIER_PCT 5.0
#define CLI_DEFAULT_BUDGET_S 30.0
#define CLI_MAX_BUDGET_S (24.0 * 3600)
#define CLI_MIN_BUDGET_S 1.0
#define CLI_DEFAULT_THRESHOLD_PCT 80.0
#define CLI_BURN_WINDOW_S 60.0 /* --window's default */
#define CLI_MIN_WINDOW_S 1.0
#define CLI_BURN_MAX_WINDOWS 20000 /* windows of one burn: a 30-day burn wants windows of 130 s */

/* The longest config value that reads back, with its NUL (the theme's). */
#define CLI_CONFIG_VALUE_MAX 256

typedef struct Options {
	Mode mode;
	bool verbose, headless, validate, serial, no_cache;
	const char *shell;     /* --completion SHELL: "bash" or "zsh" */
	OutFormat format;
	double target_ms;      /* > 0 */
	double duration_s;     /* 0: until stopped */
	double interval_s;     /* --interval S: headless rows of S seconds; 0: a row a sample */
	bool duration_given;
	unsigned dev_index;    /* -N, 1-based; 0 when absent (the first when several) */
	unsigned dev_indexes[CLI_MAX_DEVICES]; /* -N -M ...: several at once (one may repeat:
	                          two engines on one entry) */
	unsigned ndev_indexes;
	bool all;              /* --all: every physical device (whose name has dev_word) */
	double outlier_pct;    /* --outlier PCT: a device this far below its identical peers */
	bool outlier_given;    /* ... on the command line: the node view's quit is a verdict (exit 4) */
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
	unsigned expect_gpus;  /* --expect-gpus N: a check of every device fails with fewer GPUs (0: no count) */
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
	const char *fleet_url;   /* --fleet URL: a Prometheus server */
	const char *export_file; /* --export FILE (with --csv or --svg OUT): the first of ... */
	const char *exports[CLI_COMPARE_MAX]; /* --export A B ... --svg OUT: sweeps in one chart */
	unsigned nexports;
	bool csv;
	const char *csv_out;   /* --csv OUT: the file (NULL: standard output) */
	const char *svg;
	const char *report;    /* --export LOG... --report OUT.md|OUT.html: a burn's report remade */
	bool no_log;
	/* --check */
	double budget_s;       /* --budget DUR: the whole check's time */
	double threshold_pct;  /* --threshold PCT: of the peak, or of the baseline */
	const char *baselines[CLI_MAX_DEVICES]; /* --baseline A B ...: session logs */
	unsigned nbaselines;
	/* --burn */
	double burn_s;         /* --burn DUR: the soak's length */
	double window_s;       /* --window DUR: its windows (default CLI_BURN_WINDOW_S) */
	/* Prometheus exposition */
	const char *metrics_file;   /* --metrics-file PATH: written atomically */
	const char *metrics_listen; /* --metrics-listen [ADDR:]PORT: /metrics served */
	bool force;            /* --force: replace an existing --log or --svg file;
	                          --compare sessions of different workloads or units */
} Options;

#define CLI_DEFAULT_TARGET_MS 20.0
#define CLI_DEFAULT_DURATION_S 3.0
#define CLI_MIN_INTERVAL_S 0.1 /* --interval: five 20 ms dispatches a row */
#define CLI_MIN_TARGET_MS 0.001   /* 1 us: below any device's launch latency */
#define CLI_MAX_TARGET_MS 10000.0

#define CLI_DEFAULT_FPS 10
#define CLI_MAX_TRIALS 1000
#define CLI_MAX_DURATION_S (30.0 * 24 * 3600)
#define CLI_MIN_DURATION_S 0.001 /* a positive duration below it is refused (not taken as 0) */

#endif
