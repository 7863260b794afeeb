#include "check.h"
#include "cli.h"
#include "cli_config.h"
#include "cli_impl.h"
#include "peak.h"
#include "error.h"
#include "workload.h"


#include <stdarg.h>
#include <stdbool.h>

static int parse(Options *o, char *err, int argc, ...)
{
	char *argv[16] = { "flopscope" };
	va_list ap;
	va_start(ap, argc);
	for (int i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	return cli_parse(argc, argv, o, err, 256);
}

static void cli_should_default_to_the_tutorials_settings(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 1) == 0);
	CHECK(o.target_ms == 20.0 && o.duration_s == 3.0);
	CHECK(o.format == FORMAT_TABLE && !o.headless && o.mode == MODE_MEASURE);
	CHECK(o.dev_index == 0 && o.dev_word == NULL);
}

static void cli_should_take_dash_n_and_a_name(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 3, "-2", "rtx") == 0);
	CHECK(o.dev_index == 2);
	CHECK_STR(o.dev_word, "rtx");
	CHECK(parse(&o, err, 2, "llvm") == 0);
	CHECK(o.dev_index == 0);
}

static void cli_should_read_values_in_both_spellings(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 4, "--target-ms", "5", "--duration=0.5") == 0);
	CHECK(o.target_ms == 5.0 && o.duration_s == 0.5 && o.duration_given);
	CHECK(parse(&o, err, 3, "--format", "csv") == 0);
	CHECK(o.format == FORMAT_CSV && o.headless);
	CHECK(parse(&o, err, 2, "--format=json") == 0);
	CHECK(o.format == FORMAT_JSON);
	CHECK(parse(&o, err, 3, "--list", "--verbose") == 0);
	CHECK(o.mode == MODE_LIST && o.verbose);
	CHECK(parse(&o, err, 3, "--duration", "0") == 0);
	CHECK(o.duration_s == 0.0);
	CHECK(parse(&o, err, 3, "--fps", "4") == 0);
	CHECK(o.fps == 4);
	CHECK(parse(&o, err, 1) == 0 && o.fps == 10);
}

static void cli_should_refuse_bad_input_with_a_reason(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 2, "--bogus") == -1);
	CHECK_STR(err, "unknown option --bogus (see --help)"); /* nothing near: no guess */
	/* a near miss: the option it most likely meant */
	CHECK(parse(&o, err, 3, "--targetms", "5") == -1);
	CHECK_STR(err, "unknown option --targetms (did you mean --target-ms? see --help)");
	CHECK(parse(&o, err, 3, "--dration", "5") == -1);
	CHECK_STR(err, "unknown option --dration (did you mean --duration? see --help)");
	CHECK(strcmp(workload_suggest("FP32"), "fp32") == 0 && strcmp(workload_suggest("bf16matrix"), "bf16-matrix") == 0);
	CHECK(workload_suggest("gemm") == NULL);
	/* a duration's range in words, not 2.592e+06 */
	CHECK(parse(&o, err, 3, "--duration", "-1") == -1);
	CHECK_STR(err, "--duration: -1 is out of range (0, until stopped, to 30 days)");
	/* every time option takes the same forms */
	CHECK(parse(&o, err, 2, "--duration=2s") == 0 && o.duration_s == 2);
	CHECK(parse(&o, err, 2, "--duration=500ms") == 0 && o.duration_s == 0.5);
	CHECK(parse(&o, err, 2, "--duration=2m") == 0 && o.duration_s == 120);
	CHECK(parse(&o, err, 2, "--duration=2x") == -1);
	CHECK_STR(err, "--duration: \"2x\" is not a duration (30, 30s, 500ms, 2m, 1h)");
	CHECK(parse(&o, err, 2, "--duration=31d") == -1 && strstr(err, "is not a duration"));
	CHECK(parse(&o, err, 3, "--interval", "500ms") == 0 && o.interval_s == 0.5);
	CHECK(parse(&o, err, 3, "--interval", "1e-5") == -1);
	CHECK_STR(err, "--interval: 1e-5 is out of range (0.1 s .. 30 days)");
	CHECK(parse(&o, err, 2, "--target-ms") == -1);
	CHECK(strstr(err, "needs a value"));
	CHECK(parse(&o, err, 3, "--target-ms", "0") == -1);
	CHECK(strstr(err, "out of range"));
	CHECK(parse(&o, err, 3, "--target-ms", "abc") == -1);
	CHECK(strstr(err, "not a number"));
	CHECK(parse(&o, err, 3, "--duration", "-1") == -1);
	CHECK(parse(&o, err, 3, "--duration", "1e300") == -1);
	CHECK(parse(&o, err, 3, "--duration", "nan") == -1);
	/* too large for a double is out of range, not "not a number"; a long
	 * value is cut in the message, whose reason stays (issue 27) */
	CHECK(parse(&o, err, 3, "--target-ms", "1e400") == -1 && strstr(err, "1e400 is out of range (0.001 .. 10000)"));
	CHECK(parse(&o, err, 3, "--target-ms", "nan") == -1 && strstr(err, "is not a number"));
	{
		char big[500];
		memset(big, '9', sizeof big - 1);
		big[sizeof big - 1] = '\0';
		CHECK(parse(&o, err, 3, "--target-ms", big) == -1 && strstr(err, "... is out of range"));
		big[3] = 'x';
		CHECK(parse(&o, err, 3, "--fps", big) == -1 && strstr(err, "...\" is not a number"));
	}
	/* a tiny positive duration is not "until stopped" (issue 27: 1e-10 never ended) */
	CHECK(parse(&o, err, 3, "--duration", "1e-10") == -1 && strstr(err, "below the shortest run"));
	CHECK(parse(&o, err, 3, "--duration", "0.0009") == -1);
	CHECK(parse(&o, err, 3, "--duration", "0.001") == 0 && o.duration_s == 0.001);
	CHECK(parse(&o, err, 3, "--format", "xml") == -1);
	CHECK(parse(&o, err, 2, "-0") == -1);
	CHECK(strstr(err, "numbered from 1"));
	/* several devices: -N -M (one may repeat), --all; the node view in a
	 * terminal (the table without one, decided at run time), one log each */
	CHECK(parse(&o, err, 3, "-1", "-2") == 0 && o.ndev_indexes == 2 && o.dev_indexes[1] == 2 && !o.headless);
	CHECK(parse(&o, err, 4, "-1", "-1", "--format=json") == 0 && o.dev_indexes[0] == 1 && o.dev_indexes[1] == 1);
	CHECK(parse(&o, err, 3, "nvidia", "--all") == 0 && o.all && !strcmp(o.dev_word, "nvidia"));
	CHECK(parse(&o, err, 3, "--all", "-1") == -1 && strstr(err, "--all and -N contradict"));
	CHECK(parse(&o, err, 4, "-1", "-2", "--suite") == 0 && o.ndev_indexes == 2 && !o.headless);
	/* --replay takes the logs of several devices, up to the next option */
	CHECK(parse(&o, err, 6, "--replay", "a.jsonl", "b.jsonl", "c.jsonl", "--headless") == 0 && o.nreplays == 3 &&
	      !strcmp(o.replay, "a.jsonl") && !strcmp(o.replays[2], "c.jsonl") && o.headless);
	CHECK(parse(&o, err, 3, "--replay", "a.jsonl") == 0 && o.nreplays == 1);
	/* --csv OUT; a device given to a mode that reads logs is refused */
	CHECK(parse(&o, err, 5, "--export", "a.jsonl", "--csv", "out.csv") == 0 && o.csv && !strcmp(o.csv_out, "out.csv"));
	CHECK(parse(&o, err, 4, "--export", "a.jsonl", "--csv") == 0 && o.csv && !o.csv_out);
	CHECK(parse(&o, err, 4, "--analyze", "a.jsonl", "nvidia") == -1 &&
	      strstr(err, "\"nvidia\": --analyze reads session logs and uses no device"));
	CHECK(parse(&o, err, 4, "--replay", "a.jsonl", "-2") == -1 && strstr(err, "uses no device"));
	CHECK(parse(&o, err, 4, "-1", "-2", "--latency") == -1 && strstr(err, "several devices at once measure a workload or the suite"));
	CHECK(parse(&o, err, 5, "-1", "-2", "--log", "x") == -1 && strstr(err, "each writes its own log"));
	CHECK(parse(&o, err, 4, "--all", "--outlier", "2.5") == 0 && o.outlier_pct == 2.5);
	CHECK(parse(&o, err, 4, "--all", "--outlier", "0") == -1);
	CHECK(parse(&o, err, 1) == 0 && o.outlier_pct == 5);
	CHECK(parse(&o, err, 3, "a", "b") == -1);
	CHECK(parse(&o, err, 2, "--verbose") == -1);
	CHECK(parse(&o, err, 2, "--list=yes") == -1);
	CHECK(parse(&o, err, 3, "--shader-dir", "") == -1);
	CHECK(parse(&o, err, 3, "--fps", "0") == -1);
	CHECK(parse(&o, err, 3, "--fps", "2.5") == -1);
	CHECK(parse(&o, err, 3, "--fps", "21") == -1);
	/* a second value is never taken silently over the first */
	CHECK(parse(&o, err, 5, "--target-ms", "5", "--target-ms", "40") == -1);
	CHECK_STR(err, "--target-ms is given twice");
	CHECK(parse(&o, err, 3, "--duration=1", "--duration=2") == -1);
	CHECK(parse(&o, err, 3, "--headless", "--headless") == -1);
	CHECK(parse(&o, err, 3, "-v", "--verbose") == -1);
	CHECK(parse(&o, err, 2, "") == -1);
	CHECK(strstr(err, "empty device name"));
	CHECK(parse(&o, err, 3, "--target-ms", "1e-300") == -1);
	CHECK(strstr(err, "out of range (0.001 .. 10000)"));
	CHECK(parse(&o, err, 3, "--target-ms", "0.001") == 0 && o.target_ms == 0.001);
	CHECK(parse(&o, err, 5, "--workload", "copy", "--size", "64m") == 0 && o.size_lo == 64ull << 20);
	CHECK(parse(&o, err, 3, "--size", "1k-2MiB") == 0 && o.size_lo == 1024 && o.size_hi == 2ull << 20);
	/* --format where the mode cannot honour it: refused, not ignored */
	CHECK(parse(&o, err, 4, "--latency", "--format", "csv") == -1);
	CHECK_STR(err, "--format csv does not apply to --latency (it writes table, json)");
	CHECK(parse(&o, err, 4, "--analyze", "a", "--format=csv") == -1);
	CHECK_STR(err, "--format csv does not apply to --analyze (it writes table, json)");
	CHECK(parse(&o, err, 5, "--compare", "a", "b", "--format=json") == 0 && o.format == FORMAT_JSON);
	/* --compare: A B, or several a side split by --; --fail-if-slower with it only */
	CHECK(parse(&o, err, 7, "--compare", "a1", "a2", "--", "b1", "b2") == 0 && o.ncompare_a == 2 &&
	      o.ncompare_b == 2 && !strcmp(o.compare_a[1], "a2") && !strcmp(o.compare_b[0], "b1"));
	CHECK(parse(&o, err, 5, "--compare", "a", "b", "--force") == 0 && o.ncompare_a == 1 && o.force);
	CHECK(parse(&o, err, 3, "--compare", "a") == -1);
	CHECK(strstr(err, "--compare needs session logs on both sides"));
	CHECK(parse(&o, err, 5, "--compare", "a", "b", "c") == -1);
	CHECK(parse(&o, err, 5, "--compare", "a", "--", "") == 0 && o.ncompare_b == 1);
	CHECK(parse(&o, err, 4, "--compare", "a", "--") == -1);
	CHECK(parse(&o, err, 7, "--compare", "a", "--", "b", "--", "c") == -1);
	CHECK_STR(err, "--compare: one -- between the two sides");
	/* "--compare -- b" took "--" for side A's log; a log twice on a side
	 * passed for two sessions; the same log on both sides is a comparison */
	CHECK(parse(&o, err, 4, "--compare", "--", "b") == -1 && strstr(err, "needs session logs on both sides"));
	CHECK(parse(&o, err, 7, "--compare", "a", "a", "--", "b", "c") == -1);
	CHECK_STR(err, "--compare: a is named twice on one side (a log counts once)");
	CHECK(parse(&o, err, 7, "--compare", "a", "b", "--", "c", "c") == -1 && strstr(err, "c is named twice"));
	CHECK(parse(&o, err, 7, "--compare", "a", "b", "--", "b", "a") == 0 && o.ncompare_a == 2);
	/* so on every list of logs: a replay's devices, a check's baselines, a
	 * chart's sweeps */
	CHECK(parse(&o, err, 4, "--replay", "a", "a") == -1);
	CHECK_STR(err, "--replay: a is named twice (a log counts once)");
	CHECK(parse(&o, err, 7, "--check", "--baseline", "a", "b", "a", "--no-log") == -1 && strstr(err, "--baseline: a is"));
	CHECK(parse(&o, err, 6, "--export", "a", "a", "--svg", "o.svg") == -1 && strstr(err, "--export: a is named twice"));
	CHECK(parse(&o, err, 4, "--replay", "a", "b") == 0 && o.nreplays == 2);
	CHECK(parse(&o, err, 6, "--compare", "a", "b", "--fail-if-slower", "5") == 0 && o.fail_if_slower == 5);
	CHECK(parse(&o, err, 6, "--compare", "a", "b", "--fail-if-slower", "0") == -1);
	CHECK(parse(&o, err, 6, "--compare", "a", "b", "--fail-if-slower", "nan") == -1);
	CHECK(parse(&o, err, 3, "--fail-if-slower", "5") == -1);
	CHECK_STR(err, "--fail-if-slower goes with --compare");
	CHECK(parse(&o, err, 3, "--list", "--format=csv") == 0 && o.format == FORMAT_CSV);
	CHECK(parse(&o, err, 3, "--latency", "--format=csv") == -1);
	CHECK(parse(&o, err, 4, "--list", "-v", "--format=csv") == -1);
	CHECK_STR(err, "--list --format csv has every field --verbose adds to the table: give one or the other");
	CHECK(parse(&o, err, 3, "--list", "--format=json") == 0 && o.format == FORMAT_JSON);
	CHECK(parse(&o, err, 4, "--list", "-v", "--format=json") == -1);
	CHECK(strstr(err, "--verbose") != NULL);
	CHECK(parse(&o, err, 4, "--analyze", "f", "--format=csv") == -1);
	CHECK(parse(&o, err, 4, "--suite", "--format", "json") == 0 && o.headless);
	CHECK(parse(&o, err, 4, "--replay", "f", "--format=csv") == 0);
	CHECK(parse(&o, err, 2, "--format=csv") == 0 && o.mode == MODE_MEASURE);
}

/* Every mode with its arguments, as a user types it. */
static const char *const mode_args[MODE_COUNT][3] = {
	[MODE_HELP] = { "--help" },
	[MODE_VERSION] = { "--version" },
	[MODE_LIST] = { "--list" },
	[MODE_LIST_WORKLOADS] = { "--list-workloads" },
	[MODE_SUITE] = { "--suite" },
	[MODE_LATENCY] = { "--latency" },
	[MODE_REPLAY] = { "--replay", "a.jsonl" },
	[MODE_COMPARE] = { "--compare", "a.jsonl", "b.jsonl" },
	[MODE_EXPORT] = { "--export", "a.jsonl" },
	[MODE_ANALYZE] = { "--analyze", "a.jsonl" },
	[MODE_LOGS] = { "--logs" },
	[MODE_SAVE_CONFIG] = { "--save-config" },
	[MODE_CHECK] = { "--check" },
	[MODE_COMPLETION] = { "--completion", "bash" },
	[MODE_WATCH] = { "--watch" },
	[MODE_FLEET] = { "--fleet", "http://prometheus:9090" },
	[MODE_BURN] = { "--burn", "30m" },
};

static int parse_modes(Options *o, char *err, int a, int b)
{
	char *argv[16] = { "flopscope" };
	int argc = 1;
	int which[2] = { a, b };
	for (int k = 0; k < 2; k++)
		for (int j = 0; which[k] >= 0 && j < 3 && mode_args[which[k]][j]; j++)
			argv[argc++] = (char *)mode_args[which[k]][j];
	return cli_parse(argc, argv, o, err, 256);
}

/* --burn DUR and --window DUR: the time forms, the default window, and a
 * burn cut into more windows than it keeps refused before anything runs */
static void burn_should_take_its_times_and_refuse_too_many_windows(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 3, "--burn", "30m") == 0 && o.mode == MODE_BURN && o.burn_s == 1800 && o.window_s == 60);
	CHECK(parse(&o, err, 5, "--burn", "4h", "--window", "90s") == 0 && o.burn_s == 14400 && o.window_s == 90);
	/* a window past the burn's end (the default 60 s of a 30 s burn) is the whole burn */
	CHECK(parse(&o, err, 3, "--burn", "30s") == 0 && o.window_s == 30);
	CHECK(parse(&o, err, 5, "--burn", "4s", "--window", "20s") == 0 && o.window_s == 4);
	CHECK(parse(&o, err, 5, "--burn", "720h", "--window", "1m") == -1 && strstr(err, "43200 windows; 20000 at most"));
	CHECK(parse(&o, err, 5, "--burn", "720h", "--window", "3m") == 0);
	CHECK(parse(&o, err, 3, "--burn", "0.5s") == -1);
	CHECK(parse(&o, err, 3, "--window", "10s") == -1 && strstr(err, "--window goes with --burn"));
}

static void cli_should_set_each_mode_once_and_refuse_every_pair(void)
{
	Options o;
	char err[256];
	for (int a = MODE_HELP; a < MODE_COUNT; a++) {
		CHECK(parse_modes(&o, err, a, -1) == 0 || a == MODE_EXPORT); /* --export needs --csv/--svg */
		if (a != MODE_EXPORT)
			CHECK(o.mode == (Mode)a);
		CHECK(strlen(cli_mode_option((Mode)a)) > 2);
		for (int b = MODE_HELP; b < MODE_COUNT; b++) {
			CHECK(parse_modes(&o, err, a, b) == -1);
			if (a != b) {
				CHECK(strstr(err, "two modes"));
				CHECK(strstr(err, cli_mode_option((Mode)a)) && strstr(err, cli_mode_option((Mode)b)));
			} else {
				CHECK(strstr(err, "given twice"));
			}
		}
	}
	CHECK(parse(&o, err, 3, "--suite", "--latency") == -1);
	CHECK_STR(err, "--suite and --latency are two modes: give one");
	CHECK(parse(&o, err, 3, "--list", "--suite") == -1);
	CHECK(parse(&o, err, 1) == 0 && o.mode == MODE_MEASURE);
}

/* --help is made from the tables: every option of the option table and
 * every workload of the workload table is in it, in 80 columns. */
static void cli_usage_should_name_every_option(void)
{
	static char help[CLI_HELP_MAX];
	size_t n = cli_help_text(help, sizeof help);
	CHECK(n > 0 && n < sizeof help && strlen(help) == n);
	const char *opts[] = { "--list", "--verbose", "--headless", "--format", "--target-ms",
	                       "--duration", "--validate", "--shader-dir", "--help", "--version",
	                       "--theme", "--fps" };
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		CHECK(strstr(help, opts[i]));
	const char *names[96];
	size_t k = cli_option_names(names, 96);
	CHECK(k > 40 && k < 96);
	for (size_t i = 0; i < k; i++)
		CHECK(strstr(help, names[i]));
	for (int w = 0; w < WORKLOAD_TYPE_COUNT; w++)
		CHECK(strstr(help, workload_info[w].name));
	for (const char *line = help; *line;) {
		size_t len = strcspn(line, "\n");
		CHECK(len <= 80);
		line += len + (line[len] == '\n');
	}
	/* cut to fit, never overrun */
	char small[64];
	CHECK(cli_help_text(small, sizeof small) == n && strlen(small) == sizeof small - 1);
}

/* The config file: keys checked as the options are, errors with the line,
 * the command line over the file, and what --save-config writes reads back. */
static void config_should_round_trip_and_yield_to_the_options(void)
{
	Options b, o;
	char err[256];
	cli_defaults(&b);
	const char *text = "# mine\n\ntheme = mono\ntarget_ms = 50  # slower\nfps=5\nwindow = whole\n"
	                   "outlier = 3\nlog_keep = 20\nlog_cap = 1M\n";
	CHECK(cli_config_apply(text, strlen(text), MODE_MEASURE, &b, err, sizeof err, NULL, 0) == 0);
	CHECK(!strcmp(b.theme, "mono") && b.target_ms == 50 && b.fps == 5 && b.whole && b.outlier_pct == 3 &&
	      b.log_keep == 20 && b.log_cap == 1 << 20);
	char *argv[] = { "flopscope", "--target-ms", "20", NULL };
	CHECK(cli_parse_with(3, argv, &b, &o, err, sizeof err) == 0);
	CHECK(o.target_ms == 20 && o.fps == 5 && !strcmp(o.theme, "mono") && o.theme == o.theme_buf);
	char out[2048];
	CHECK(cli_config_text(&o, out, sizeof out) > 0);
	CHECK(strstr(out, "\nlog_cap = 1M\n")); /* in the option's own form, not 1048576 */
	Options r;
	cli_defaults(&r);
	CHECK(cli_config_apply(out, strlen(out), MODE_MEASURE, &r, err, sizeof err, NULL, 0) == 0);
	CHECK(!strcmp(r.theme, "mono") && r.target_ms == 20 && r.fps == 5 && r.whole && r.outlier_pct == 3 &&
	      r.log_keep == 20 && r.log_cap == o.log_cap);
	/* and back, whatever size the option takes (multiples of 16 bytes, 16G at most) */
	for (unsigned long long cap = 16; cap <= 16ull << 30; cap = (cap * 3 + 1024) & ~15ull) {
		o.log_cap = cap;
		CHECK(cli_config_text(&o, out, sizeof out) > 0);
		cli_defaults(&r);
		CHECK(cli_config_apply(out, strlen(out), MODE_MEASURE, &r, err, sizeof err, NULL, 0) == 0 && r.log_cap == cap);
	}
	o.log_cap = 100ull << 20;
	CHECK(cli_config_text(&o, out, sizeof out) > 0 && strstr(out, "\nlog_cap = 100M\n"));
	/* the dashboard's saved target is a preference of measuring runs: a
	 * check (and the suite) measure at the default unless told otherwise;
	 * the fleet's keys (outlier, retention) count for the check */
	Options c;
	cli_defaults(&c);
	CHECK(cli_config_apply(text, strlen(text), MODE_CHECK, &c, err, sizeof err, NULL, 0) == 0);
	char *check[] = { "flopscope", "--check", NULL };
	CHECK(cli_parse_with(2, check, &c, &o, err, sizeof err) == 0);
	CHECK(o.target_ms == CLI_DEFAULT_TARGET_MS && o.outlier_pct == 3 && o.log_keep == 20);
	Options su;
	cli_defaults(&su);
	CHECK(cli_config_apply(text, strlen(text), MODE_SUITE, &su, err, sizeof err, NULL, 0) == 0);
	char *suite[] = { "flopscope", "--suite", NULL };
	CHECK(cli_parse_with(2, suite, &su, &o, err, sizeof err) == 0 && o.target_ms == CLI_DEFAULT_TARGET_MS);
	char *told[] = { "flopscope", "--check", "--target-ms", "40", NULL };
	CHECK(cli_parse_with(4, told, &c, &o, err, sizeof err) == 0 && o.target_ms == 40);
	char *plain[] = { "flopscope", NULL };
	CHECK(cli_parse_with(1, plain, &b, &o, err, sizeof err) == 0 && o.target_ms == 50);
	/* a value that does not count in the mode is still checked */
	CHECK(cli_config_apply("target_ms = 0\n", 14, MODE_CHECK, &c, err, sizeof err, NULL, 0) == -1);
	const char *bad[][2] = {
		{ "fps = 50\n", "line 1: fps" },
		{ "fps = 5\ntheme = a\nfps = 6\n", "line 3: fps given twice (line 1 too)" },
		{ "target_ms 20\n", "line 1: \"target_ms 20\" is not key = value" },
		{ "window = last\n", "window: auto or whole" },
		{ "log_keep = 2.5\n", "not a whole number" },
		{ "theme =\n", "theme: a theme name" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cli_defaults(&r);
		CHECK(cli_config_apply(bad[i][0], strlen(bad[i][0]), MODE_MEASURE, &r, err, sizeof err, NULL, 0) == -1);
		if (!strstr(err, bad[i][1]))
			fprintf(stderr, "  case %zu: \"%s\" lacks \"%s\"\n", i, err, bad[i][1]), check_failed_now = 1;
	}
}

/* The file round trip, round 3 (issue 27): a value with a # of its own, a
 * byte-order mark, CRLF, a key of a newer version (a warning, not exit 2);
 * a value that cannot be a line is refused before it is written. */
static void config_should_read_editors_files_and_newer_keys(void)
{
	Options r;
	char err[256], warn[256];
	cli_defaults(&r);
	const char *text = "\xEF\xBB\xBF# saved on Windows\r\ntheme = /home/me/themes/#1.json\r\nfps = 7 # fast\r\n"
	                   "gpu_colour = red\r\n";
	CHECK(cli_config_apply(text, strlen(text), MODE_MEASURE, &r, err, sizeof err, warn, sizeof warn) == 0);
	CHECK_STR(r.theme, "/home/me/themes/#1.json");
	CHECK(r.fps == 7);
	CHECK(strstr(warn, "line 4: unknown key \"gpu_colour\" ignored") != NULL);
	CHECK(cli_config_apply("fps = 5\0\n", 9, MODE_MEASURE, &r, err, sizeof err, NULL, 0) == -1 && strstr(err, "NUL"));
	CHECK(cli_config_value_ok("/home/me/themes/#1.json") && cli_config_value_ok("mono"));
	CHECK(!cli_config_value_ok("a\nfps = 1") && !cli_config_value_ok("my #theme") && !cli_config_value_ok(" lead") &&
	      !cli_config_value_ok("trail ") && !cli_config_value_ok("") && !cli_config_value_ok("#x"));
	/* every value that passes reads back as itself */
	const char *vals[] = { "mono", "/t/#1.json", "a=b", "x#y#z" };
	for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
		Options o, back;
		cli_defaults(&o);
		snprintf(o.theme_buf, sizeof o.theme_buf, "%s", vals[i]);
		o.theme = o.theme_buf;
		char out[2048];
		CHECK(cli_config_value_ok(vals[i]) && cli_config_text(&o, out, sizeof out) > 0);
		cli_defaults(&back);
		CHECK(cli_config_apply(out, strlen(out), MODE_MEASURE, &back, err, sizeof err, NULL, 0) == 0);
		CHECK_STR(back.theme, vals[i]);
	}
}

/* An option given to a mode that would ignore it is refused and named
 * (issue 27: --replay X --headless --target-ms 5 --log Y ran silently). */
static void options_a_mode_ignores_should_be_named(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 8, "--replay", "x", "--headless", "--target-ms", "5", "--log", "y") == -1);
	CHECK_STR(err, "--target-ms, --log do not apply to --replay, which would ignore them: drop them");
	CHECK(parse(&o, err, 5, "--replay", "x", "--duration", "3") == -1 && strstr(err, "--duration does not apply"));
	CHECK(parse(&o, err, 5, "--logs", "--serial", "--trials", "3") == -1 && strstr(err, "--serial, --trials"));
	CHECK(parse(&o, err, 4, "--compare", "a", "b") == 0);
	CHECK(parse(&o, err, 6, "--compare", "a", "b", "--fps", "3") == -1 && strstr(err, "to --compare"));
	CHECK(parse(&o, err, 3, "--list", "--no-log") == -1 && strstr(err, "--no-log does not apply to --list"));
	CHECK(parse(&o, err, 4, "--latency", "--trials", "3") == -1);
	/* where they mean something they are taken */
	CHECK(parse(&o, err, 7, "--target-ms", "5", "--log", "y", "--duration", "3") == 0);
	CHECK(parse(&o, err, 6, "--save-config", "--target-ms", "5", "--fps", "3") == 0);
	CHECK(parse(&o, err, 6, "--replay", "x", "--headless", "--workload", "fp32") == 0);
	CHECK(parse(&o, err, 5, "--suite", "--duration", "1", "--no-log") == 0);
}

static void check_options_should_parse_and_belong_to_check(void)
{
	Options o;
	char err[256];
	CHECK(parse(&o, err, 8, "--check", "--budget", "2m", "--threshold", "95", "--baseline", "a.jsonl") == 0);
	CHECK(o.mode == MODE_CHECK && o.budget_s == 120 && o.threshold_pct == 95 && o.nbaselines == 1);
	CHECK(parse(&o, err, 7, "--check", "--baseline", "a", "b", "--workload", "fp32,copy") == 0);
	CHECK(o.nbaselines == 2 && !strcmp(o.baselines[1], "b") && !strcmp(o.workload, "fp32,copy"));
	CHECK(parse(&o, err, 4, "--check", "--budget", "30") == 0 && o.budget_s == 30);
	CHECK(parse(&o, err, 4, "--check", "--budget", "1h") == 0 && o.budget_s == 3600);
	CHECK(parse(&o, err, 4, "--check", "--budget", "0.5s") == -1);
	CHECK_STR(err, "--budget: 0.5s is out of range (1 s .. 1 day)");
	CHECK(parse(&o, err, 4, "--check", "--budget", "30x") == -1);
	CHECK_STR(err, "--budget: \"30x\" is not a duration (30, 30s, 500ms, 2m, 1h)");
	CHECK(parse(&o, err, 4, "--check", "--threshold", "0") == -1);
	CHECK(parse(&o, err, 3, "--threshold", "90") == -1);
	CHECK_STR(err, "--threshold goes with --check");
	CHECK(parse(&o, err, 4, "--suite", "--baseline", "a") == -1);
	CHECK_STR(err, "--baseline goes with --check");
	CHECK(parse(&o, err, 3, "--workload", "fp32,copy") == -1);
	CHECK(parse(&o, err, 4, "--check", "--format", "csv") == 0);
	CHECK(parse(&o, err, 5, "--check", "--all", "--metrics-file", "x.prom") == 0 && !strcmp(o.metrics_file, "x.prom"));
	CHECK(parse(&o, err, 4, "--metrics-listen", "9400", "--headless") == 0 && !strcmp(o.metrics_listen, "9400"));
	CHECK(parse(&o, err, 4, "--replay", "a.jsonl", "--metrics-file=x") == -1);
	CHECK_STR(err, "--metrics-file goes with a measuring run, --check or --burn");
	/* --workload picks a session of a log of several; --suite runs them all */
	CHECK(parse(&o, err, 6, "--replay", "s.jsonl", "--workload", "h2d", "--transfer-queue") == 0 &&
	      !strcmp(o.workload, "h2d") && o.transfer_queue);
	CHECK(parse(&o, err, 6, "--compare", "a", "b", "--workload", "fp64") == 0 && !strcmp(o.workload, "fp64"));
	CHECK(parse(&o, err, 5, "--export", "s.jsonl", "--csv", "--transfer-queue") == -1);
	CHECK_STR(err, "--export: --transfer-queue picks a session with --workload NAME");
	CHECK(parse(&o, err, 4, "--suite", "--workload", "fp32") == -1);
	CHECK(strstr(err, "--suite runs every workload: --workload picks one (drop --suite)") == err);
}

/* A save keeps the keys a newer version wrote: their lines, as written. */
static void config_should_keep_a_newer_versions_keys(void)
{
	const char text[] = "fps = 4\r\nlink_colour = red  # theirs\n# a comment\ntarget_ms = 5\nnew.key=1\n";
	char out[256];
	CHECK(cli_config_unknown(text, sizeof text - 1, out, sizeof out) == 0);
	CHECK_STR(out, "link_colour = red  # theirs\nnew.key=1\n");
	CHECK(cli_config_unknown("fps = 4\n", 8, out, sizeof out) == 0 && !out[0]);
	/* what does not fit is left out whole, never cut */
	char small[12];
	CHECK(cli_config_unknown(text, sizeof text - 1, small, sizeof small) == 0 && !strcmp(small, "new.key=1\n"));
	/* round 4: past about 2 KB of file a save dropped the rest without a
	 * word; a long comment failed every command. The file's size plus 2
	 * holds every kept line, a 600-character one too; a comment of any
	 * length is a comment */
	static char big[8192], kept[8192 + 2];
	size_t n = 0;
	for (int k = 0; k < 60; k++)
		n += (size_t)snprintf(big + n, sizeof big - n, "newer_key_%02d = %s\n", k, "0123456789012345678901234567890123456789");
	n += (size_t)snprintf(big + n, sizeof big - n, "# %0600d\nlong_newer = %0600d\nfps = 4\n", 0, 7);
	CHECK(n > 3000);
	CHECK(cli_config_unknown(big, n, kept, n + 2) == 0);
	CHECK(strstr(kept, "newer_key_00 = ") == kept && strstr(kept, "newer_key_59 = ") && strstr(kept, "long_newer = 000"));
	CHECK(strlen(strstr(kept, "long_newer = ")) == strlen("long_newer = ") + 600 + 1);
	CHECK(!strstr(kept, "fps") && !strstr(kept, "# 000"));
	Options o;
	char err[300], warn[600];
	cli_defaults(&o);
	CHECK(cli_config_apply(big, n, MODE_MEASURE, &o, err, sizeof err, warn, sizeof warn) == 0 && o.fps == 4);
	/* a key this version knows is never that long: said */
	char longtheme[700];
	snprintf(longtheme, sizeof longtheme, "theme = /%0600d\n", 1);
	CHECK(cli_config_apply(longtheme, strlen(longtheme), MODE_MEASURE, &o, err, sizeof err, warn, sizeof warn) < 0 &&
	      strstr(err, "line 1: longer than"));
	/* a theme the config cannot hold is never saved */
	char theme[300];
	memset(theme, 'a', sizeof theme - 1);
	theme[sizeof theme - 1] = '\0';
	CHECK(!cli_config_value_ok(theme));
	theme[CLI_CONFIG_VALUE_MAX - 1] = '\0';
	CHECK(cli_config_value_ok(theme));
}

/* docs/flopscope.1 against the tables: its SYNOPSIS names every mode, its
 * OPTIONS every option, its EXIT STATUS every status of error.h (the man
 * page is written by hand; this keeps it whole). Run from the top folder. */
static char man_page[1 << 18];

/* the text of section NAME (".SH NAME" up to the next ".SH"), in man_page */
static const char *man_section(const char *name, size_t *len)
{
	char head[64];
	snprintf(head, sizeof head, "\n.SH %s\n", name);
	const char *a = strstr(man_page, head);
	if (!a)
		return NULL;
	a += strlen(head);
	const char *b = strstr(a, "\n.SH ");
	*len = b ? (size_t)(b - a) : strlen(a);
	return a;
}

/* "--suite" as roff writes it: "\-\-suite" */
static bool man_has(const char *sec, size_t len, const char *opt)
{
	char roff[96];
	size_t n = 0;
	for (const char *c = opt; *c && n + 3 < sizeof roff; c++) {
		if (*c == '-')
			roff[n++] = '\\';
		roff[n++] = *c;
	}
	roff[n] = '\0';
	for (const char *p = sec; p && p < sec + len; p++) {
		p = strstr(p, roff);
		if (!p || p >= sec + len)
			return false;
		char next = p[n];
		if (!(next == '-' || next == '_' || (next >= 'a' && next <= 'z')))
			return true; /* not the start of a longer name */
	}
	return false;
}

static void man_page_should_name_every_mode_option_and_status(void)
{
	FILE *f = fopen("docs/flopscope.1", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	size_t n = fread(man_page, 1, sizeof man_page - 1, f);
	fclose(f);
	man_page[n] = '\0';
	size_t slen = 0, olen = 0, elen = 0, dlen = 0;
	const char *syn = man_section("SYNOPSIS", &slen);
	const char *opts = man_section("OPTIONS", &olen);
	const char *dev = man_section("DEVICE SELECTION", &dlen);
	const char *ex = man_section("EXIT STATUS", &elen);
	CHECK(syn && opts && dev && ex);
	if (!syn || !opts || !dev || !ex)
		return;
	for (int m = 0; m < MODE_COUNT; m++) {
		const char *opt = cli_mode_option((Mode)m);
		if (opt[0] && !man_has(syn, slen, opt)) {
			fprintf(stderr, "  the SYNOPSIS lacks %s\n", opt);
			check_failed_now = 1;
		}
	}
	const char *names[128];
	size_t k = cli_option_names(names, 128);
	CHECK(k > 40 && k < 128);
	for (size_t i = 0; i < k; i++)
		if (!man_has(opts, olen, names[i]) && !man_has(dev, dlen, names[i])) {
			fprintf(stderr, "  OPTIONS lacks %s\n", names[i]);
			check_failed_now = 1;
		}
	static const char *const statuses[] = { ".B 0\n", ".B 1\n", ".B 2\n", ".B 3\n", ".B 4\n", ".B 5\n",
		                                 ".B 6\n", ".B 128 + N\n" };
	for (size_t i = 0; i < sizeof statuses / sizeof *statuses; i++) {
		const char *p = strstr(ex, statuses[i]);
		if (!p || p >= ex + elen) {
			fprintf(stderr, "  EXIT STATUS lacks %.*s\n", (int)strlen(statuses[i]) - 1, statuses[i]);
			check_failed_now = 1;
		}
	}
	/* the statuses of error.h are those the page lists */
	CHECK(STATUS_OK == 0 && STATUS_FAILED == 1 && STATUS_USAGE == 2 && STATUS_WRONG == 3 && STATUS_OUTLIER == 4 &&
	      STATUS_NOT_JUDGED == 5 && STATUS_NOT_RUN == 6 && STATUS_SIGNAL == 128);
}

/* The config file's keys are one table: every option row that shares a
 * key names one of it, --help's list and the unknown-key message are the
 * table's, and a saved file writes each key once. */
static void config_keys_should_be_one_table(void)
{
	size_t shared = 0;
	for (size_t i = 0; i < cli_option_count; i++)
		if (cli_option_specs[i].key) {
			CHECK(cli_config_key_known(cli_option_specs[i].key));
			shared++;
		}
	CHECK(shared >= 5 && !cli_config_key_known("nosuch") && !cli_config_key_known(""));
	char names[200], help[16384], err[300], text[4096];
	cli_config_key_names(names, sizeof names);
	cli_help_text(help, sizeof help);
	CHECK(strstr(help, "theme,") != NULL && strstr(names, "theme, target_ms") == names);
	/* --help wraps the list: each key is there, none left as %K */
	for (char *k = strtok(names, ", "); k; k = strtok(NULL, ", "))
		CHECK(strstr(help, k) != NULL);
	CHECK(!strstr(help, "%K"));
	Options o;
	cli_defaults(&o);
	CHECK(cli_config_key(&o, "nosuch", "nosuch", "1", err, sizeof err) < 0 && strstr(err, "window, outlier"));
	CHECK(cli_config_text(&o, text, sizeof text) > 0);
	cli_config_key_names(names, sizeof names);
	for (char *k = strtok(names, ", "); k; k = strtok(NULL, ", ")) {
		char line[64];
		snprintf(line, sizeof line, "\n%s = ", k);
		const char *at = strstr(text, line);
		CHECK(at != NULL && !strstr(at + 1, line));
	}
}

/* --help's thresholds come from the table the check judges by: the
 * text (wrapped) holds each class's, and the baseline's default. */
static void help_should_give_the_checks_thresholds_from_the_table(void)
{
	char thr[200], help[16384], flat[16384], want[300];
	peak_thresholds_text(thr, sizeof thr, "");
	char num[16];
	snprintf(num, sizeof num, "%g ", peak_check_threshold_pct(WORKLOAD_FP16_MATRIX));
	CHECK(strstr(thr, "FMA chains") && strstr(thr, "transfers") && strstr(thr, num));
	cli_help_text(help, sizeof help);
	/* the wrapping undone: a line break and its indent read as a blank */
	size_t n = 0;
	for (const char *p = help; *p && n + 1 < sizeof flat; p++) {
		if (*p == '\n' || *p == ' ') {
			if (n && flat[n - 1] != ' ')
				flat[n++] = ' ';
			continue;
		}
		flat[n++] = *p;
	}
	flat[n] = '\0';
	snprintf(want, sizeof want, "(default: %s)", thr);
	CHECK(strstr(flat, want) != NULL);
	snprintf(want, sizeof want, "median (default %g)", CLI_DEFAULT_THRESHOLD_PCT);
	CHECK(strstr(flat, want) != NULL);
}

int main(void)
{
	RUN(man_page_should_name_every_mode_option_and_status);
	RUN(config_keys_should_be_one_table);
	RUN(help_should_give_the_checks_thresholds_from_the_table);
	RUN(config_should_keep_a_newer_versions_keys);
	RUN(check_options_should_parse_and_belong_to_check);
	RUN(config_should_round_trip_and_yield_to_the_options);
	RUN(config_should_read_editors_files_and_newer_keys);
	RUN(options_a_mode_ignores_should_be_named);
	RUN(cli_should_default_to_the_tutorials_settings);
	RUN(cli_should_take_dash_n_and_a_name);
	RUN(cli_should_read_values_in_both_spellings);
	RUN(cli_should_refuse_bad_input_with_a_reason);
	RUN(cli_should_set_each_mode_once_and_refuse_every_pair);
	RUN(burn_should_take_its_times_and_refuse_too_many_windows);
	RUN(cli_usage_should_name_every_option);
	return CHECK_DONE();
}
