#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memwork.h"
#include "retain.h"

const char cli_usage[] =
	"usage: flopscope [options] [-N] [NAME]\n"
	"\n"
	"Measures the floating-point throughput a Vulkan compute device delivers with\n"
	"the adaptive 20 ms loop: start at 1 workgroup, multiply by 10 while a dispatch\n"
	"takes less than target/10, then rescale so each dispatch takes the target time.\n"
	"\n"
	"Device selection (see --list):\n"
	"  -N                 use entry N of the list (1-based)\n"
	"  NAME               use the first entry whose name contains NAME\n"
	"                     (case-insensitive); with -N, the N-th such entry\n"
	"  --default-device   no picker: the first discrete GPU, else integrated,\n"
	"                     virtual, CPU device (what headless runs use)\n"
	"  -N -M ...          several entries at once, one engine each (the same\n"
	"                     entry twice: two engines on it); a table a device\n"
	"  --all              every physical device (with NAME: whose name has it),\n"
	"                     its first compute queue family\n"
	"  --outlier PCT      with several devices: one whose median is more than PCT%\n"
	"                     (default 5) below its identical peers' is named, exit 4\n"
	"\n"
	"Options:\n"
	"  --list             list devices and compute queue families, then exit\n"
	"  --verbose          with --list: limits, timestamps, memory, features\n"
	"  --headless         print a table instead of the dashboard (automatic\n"
	"                     when stdout is not a terminal)\n"
	"  --format FMT       headless output: table (default), csv, json (JSON Lines)\n"
	"  --target-ms MS     wanted time of one dispatch (default 20)\n"
	"  --workload NAME    fp32 (default), fp64, int32, fp16, int8dot (FLOPS,\n"
	"                     IOPS; int8dot: packed 4 x 8-bit dot products);\n"
	"                     fp32-scalar, fp16-scalar (the chains as scalars);\n"
	"                     copy (device memory: a copy shader, read + write);\n"
	"                     h2d, h2d-cached, d2h, d2h-cached, d2d (vkCmdCopyBuffer\n"
	"                     between host-visible coherent or cached memory and\n"
	"                     device-local memory, swept from 8 KiB to 1 GiB)\n"
	"  --size SIZE|LO-HI  memory workloads: the copy shader's buffer, or the\n"
	"                     transfers' one size or sweep range (64M, 8K-1G; the\n"
	"                     default is as large as the device allows, up to 1G)\n"
	"  --transfer-queue   transfers on the device's transfer-only queue family\n"
	"  --list-workloads   the workloads and whether the chosen device runs them\n"
	"  --trials N         N dispatches back to back in each submission, as\n"
	"                     Gridwise does (1..1000, default 1): the loop sizes the\n"
	"                     submission, times shown are per dispatch\n"
	"  --latency          launch latency: 500 empty dispatches, one at a time;\n"
	"                     GPU and CPU time per submit in us (--format json too)\n"
	"  --suite            every supported workload for a short window each (2 s,\n"
	"                     or --duration), then one table; --format json too;\n"
	"                     one session log a device, a session a workload\n"
	"  --check            a node check: a short suite on every GPU (or those\n"
	"                     named), each workload held to a threshold; a PASS/FAIL\n"
	"                     line a device and workload; exit 0 all pass, 1 a\n"
	"                     threshold missed, 3 a result was wrong (docs/FLEET.md)\n"
	"  --workload A,B,... with --check: its workloads (default fp32,\n"
	"                     fp16-matrix, copy, h2d, d2h; those a device runs)\n"
	"  --budget DUR       with --check: the whole check's time (30s, 2m; default\n"
	"                     30s), shared among the workloads\n"
	"  --threshold PCT    with --check: the % of the baseline's median (default\n"
	"                     80) or of the theoretical peak where known (default:\n"
	"                     90 FMA chains, 55 tensor, 80 copy, 70 transfers) to reach\n"
	"  --baseline A ...   with --check: session logs to hold the workloads of\n"
	"                     the same name to, by the --compare rules\n"
	"  --metrics-file PATH  Prometheus text exposition of the results, replaced\n"
	"                     atomically (node_exporter's textfile collector)\n"
	"  --metrics-listen [ADDR:]PORT  serve /metrics while measuring (default\n"
	"                     address 127.0.0.1)\n"
	"  --duration S       seconds to measure (default: 3 headless, until quit in\n"
	"                     the dashboard; 0 = until stopped with Ctrl-C or q)\n"
	"  --log PATH         write the session log (JSON Lines) to PATH; by default\n"
	"                     every run writes $XDG_STATE_HOME/flopscope/\n"
	"                     TIME-DEVICE-WORKLOAD.jsonl\n"
	"                     (~/.local/state/flopscope/ without XDG_STATE_HOME)\n"
	"  --no-log           record nothing\n"
	"  --no-config        ignore the config file ($XDG_CONFIG_HOME/flopscope/config,\n"
	"                     ~/.config/flopscope/config: theme, target_ms, fps,\n"
	"                     window, outlier, log_keep, log_cap; the options win)\n"
	"  --save-config      write these settings (the file's, then the options') there\n"

	"  --logs             the recent sessions of the default folder, newest first:\n"
	"                     start, device, workload, median, samples, path\n"
	"  --log-keep N       keep at most N of the default folder's logs, the oldest\n"
	"                     removed first (default 500; 0: no limit)\n"
	"  --log-cap SIZE     ... and at most SIZE bytes of them (default 100M, a day\n"
	"                     of dashboard use at 20 ms; 0: no limit)\n"
	"  --force            replace an existing --log file or --svg output (never a\n"
	"                     device, a link, a folder or the input itself);\n"
	"                     --compare sessions of different workloads or units\n"
	"\n"
	"Session logs:\n"
	"  --replay FILE      show a recorded session again (the dashboard in a\n"
	"                     terminal; with --headless or --format, the table)\n"
	"  --replay A B ...   the logs of several devices (e.g. one multi-device\n"
	"                     run) side by side: the node view, or the table\n"
	"  --compare A B      is B faster than A? medians of 1 s batch means, the\n"
	"                     best block, a 95% interval; a verdict only beyond the\n"
	"                     spread one session shows, else \"cannot tell\"\n"
	"  --compare A1 A2 -- B1 B2   several sessions a side: the sessions' own\n"
	"                     spread decides (Welch); --format json\n"
	"  --fail-if-slower PCT  exit 1 when B is slower than A by more than PCT%\n"
	"                     with confidence (for CI)\n"
	"  --analyze FILE     level changes and their causes, excursions, time to\n"
	"                     plateau of a session log, or of a CSV with t_ms and\n"
	"                     flops columns (--format json)\n"
	"  --export FILE --csv [OUT]    samples as CSV on standard output, or into OUT\n"
	"  --export FILE --svg OUT.svg  FLOPS, workgroup and time plots as SVG\n"
	"  --workload NAME    with these: the session of that workload in a file of\n"
	"                     several (--suite writes one a device); add\n"
	"                     --transfer-queue for one on the transfer queue\n"
	"\n"
	"Other options:\n"
	"  --serial           time every dispatch alone (idle queue, submit, wait),\n"
	"                     as the tutorial and Gridwise do; by default dispatches\n"
	"                     at the target time are pipelined, 3 in flight\n"
	"  --no-cache         neither read nor write the SPIR-V and pipeline caches\n"
	"                     ($XDG_CACHE_HOME/flopscope, ~/.cache/flopscope)\n"
	"  --validate         enable VK_LAYER_KHRONOS_validation; any message it\n"
	"                     reports makes the run fail (exit 1)\n"
	"  --fps N            dashboard redraws at most N times a second (1..20,\n"
	"                     default 10); each frame costs the device a little\n"
	"                     where the device is this CPU (docs/PERFORMANCE.md)\n"
	"  --theme NAME|PATH  dashboard colours: dark (default), light, mono, or a\n"
	"                     JSON file (see themes/); NO_COLOR=1 disables colour\n"
	"  --shader-dir DIR   read shaders from DIR (default: shaders/ next to the\n"
	"                     program, or $FLOPSCOPE_SHADER_DIR)\n"
	"  --help, --version\n"
	"\n"
	"Dashboard keys:\n"
	"  up/down j/k, mouse, Enter   pick a device (picker); space marks several\n"
	"  space  pause/resume     r  restart the loop      d, Esc  back one level\n"
	"  + / -  target: next round value (1 2 5 10 20 50 ... ms)\n"
	"  z      whole session / window   t  next theme    1-9  a device in full\n"
	"  w      next workload (fp32 ... h2h, those the device runs)\n"
	"  F1 ?   help             F10 q  quit (Ctrl-C too)\n"
	"  < / >  replay speed /2, x2 (--replay)\n"
	"\n"
	"Exit status: 0 success, 1 runtime failure (--check: a threshold missed),\n"
	"2 bad usage or input, 3 a result check failed (the device computed wrong\n"
	"values), 4 several devices: the outlier rule named one.\n";

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

static const char *const mode_options[MODE_COUNT] = {
	[MODE_MEASURE] = "",
	[MODE_HELP] = "--help",
	[MODE_VERSION] = "--version",
	[MODE_LIST] = "--list",
	[MODE_LIST_WORKLOADS] = "--list-workloads",
	[MODE_SUITE] = "--suite",
	[MODE_LATENCY] = "--latency",
	[MODE_REPLAY] = "--replay",
	[MODE_COMPARE] = "--compare",
	[MODE_EXPORT] = "--export",
	[MODE_ANALYZE] = "--analyze",
	[MODE_LOGS] = "--logs",
	[MODE_SAVE_CONFIG] = "--save-config",
	[MODE_CHECK] = "--check",
};

const char *cli_mode_option(Mode m)
{
	return m < MODE_COUNT ? mode_options[m] : "";
}

/* A mode is chosen once: a second one (or the same twice) is a usage error. */
static int set_mode(Options *o, Mode m, char *err, size_t errlen)
{
	if (o->mode == m) {
		snprintf(err, errlen, "%s is given twice", mode_options[m]);
		return -1;
	}
	if (o->mode != MODE_MEASURE) {
		snprintf(err, errlen, "%s and %s are two modes: give one", mode_options[o->mode],
		         mode_options[m]);
		return -1;
	}
	o->mode = m;
	return 0;
}

/* Each option: whether it takes a value, and the modes it means something
 * in. One given to a mode that would ignore it is refused, named, never
 * taken silently (issue 27: --replay X --target-ms 5 --log Y ran as if
 * neither were given). M_ANY: every mode (the mode options themselves, and
 * those validate() holds to their modes with a message of their own). */
#define M_(m) (1u << (m))
enum {
	M_ANY = (1u << MODE_COUNT) - 1,
	M_RUN = M_(MODE_MEASURE) | M_(MODE_SUITE) | M_(MODE_CHECK),
	M_DEVICE = M_RUN | M_(MODE_LATENCY) | M_(MODE_LIST) | M_(MODE_LIST_WORKLOADS),
	M_READ = M_(MODE_REPLAY) | M_(MODE_COMPARE) | M_(MODE_EXPORT) | M_(MODE_ANALYZE),
};
typedef struct OptionSpec {
	const char *name;
	bool value;     /* --name VALUE or --name=VALUE */
	unsigned modes; /* M_ bits */
} OptionSpec;
static const OptionSpec option_specs[] = {
	/* modes */
	{ "--help", false, M_ANY }, { "-h", false, M_ANY }, { "--version", false, M_ANY },
	{ "--list", false, M_ANY }, { "--list-workloads", false, M_ANY }, { "--logs", false, M_ANY },
	{ "--save-config", false, M_ANY }, { "--suite", false, M_ANY }, { "--latency", false, M_ANY },
	{ "--check", false, M_ANY }, { "--replay", true, M_ANY }, { "--compare", true, M_ANY },
	{ "--export", true, M_ANY }, { "--analyze", true, M_ANY },
	/* held to their modes in validate() */
	{ "--format", true, M_ANY }, { "--verbose", false, M_ANY }, { "-v", false, M_ANY },
	{ "--csv", false, M_ANY }, { "--svg", true, M_ANY }, { "--fail-if-slower", true, M_ANY },
	{ "--budget", true, M_ANY }, { "--threshold", true, M_ANY }, { "--baseline", true, M_ANY },
	{ "--metrics-file", true, M_ANY }, { "--metrics-listen", true, M_ANY }, { "--no-config", false, M_ANY },
	/* held here */
	{ "--target-ms", true, M_RUN | M_(MODE_SAVE_CONFIG) },
	{ "--duration", true, M_(MODE_MEASURE) | M_(MODE_SUITE) },
	{ "--trials", true, M_RUN },
	{ "--size", true, M_RUN },
	{ "--serial", false, M_RUN },
	{ "--transfer-queue", false, M_RUN | M_READ },
	{ "--log", true, M_RUN },
	{ "--no-log", false, M_RUN },
	{ "--log-keep", true, M_RUN | M_(MODE_LOGS) | M_(MODE_SAVE_CONFIG) },
	{ "--log-cap", true, M_RUN | M_(MODE_LOGS) | M_(MODE_SAVE_CONFIG) },
	{ "--fps", true, M_(MODE_MEASURE) | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG) },
	{ "--theme", true, M_(MODE_MEASURE) | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG) },
	{ "--headless", false, M_(MODE_MEASURE) | M_(MODE_REPLAY) },
	{ "--force", false, M_RUN | M_(MODE_REPLAY) | M_(MODE_COMPARE) | M_(MODE_EXPORT) },
	{ "--no-cache", false, M_RUN | M_(MODE_LATENCY) },
	{ "--shader-dir", true, M_RUN | M_(MODE_LATENCY) },
	{ "--validate", false, M_DEVICE },
	{ "--default-device", false, M_RUN | M_(MODE_LATENCY) | M_(MODE_LIST_WORKLOADS) },
	{ "--all", false, M_RUN },
	{ "--workload", true, M_(MODE_MEASURE) | M_(MODE_CHECK) | M_(MODE_LATENCY) | M_READ },
	{ "--outlier", true, M_RUN | M_(MODE_REPLAY) | M_(MODE_SAVE_CONFIG) },
};

static const OptionSpec *option_spec(const char *name)
{
	for (size_t i = 0; i < sizeof option_specs / sizeof *option_specs; i++)
		if (!strcmp(option_specs[i].name, name))
			return &option_specs[i];
	return NULL;
}

/* The options of seen[0..n) that mode would ignore, named; -1 when any. */
static int mode_takes(Mode mode, char seen[][32], size_t n, char *err, size_t errlen)
{
	char names[256] = "";
	size_t bad = 0;
	for (size_t k = 0; k < n; k++) {
		const OptionSpec *spec = option_spec(seen[k]);
		if (spec && !(spec->modes & M_(mode))) {
			size_t w = strlen(names);
			snprintf(names + w, sizeof names - w, "%s%.31s", bad++ ? ", " : "", seen[k]);
		}
	}
	if (!bad)
		return 0;
	snprintf(err, errlen, "%s %s not apply to %s, which would ignore %s: drop %s", names, bad == 1 ? "does" : "do",
	         mode == MODE_MEASURE ? "a measuring run" : mode_options[mode], bad == 1 ? "it" : "them",
	         bad == 1 ? "it" : "them");
	return -1;
}

/* What the options say together: --export's output, --log against
 * --no-log, --verbose's mode, the formats a mode can write. */
static int validate(Options *o, bool format_given, char *err, size_t errlen)
{
	if (o->export_file && o->csv == !!o->svg) {
		snprintf(err, errlen, "--export FILE needs one of --csv [OUT.csv] or --svg OUT.svg");
		return -1;
	}
	if (!o->export_file && (o->csv || o->svg)) {
		snprintf(err, errlen, "--csv and --svg go with --export FILE");
		return -1;
	}
	if (o->log && o->no_log) {
		snprintf(err, errlen, "--log and --no-log contradict each other");
		return -1;
	}
	/* the modes that read logs use no device: a name or -N there is a
	 * mistake (e.g. a file meant for an option that takes none) */
	if ((o->dev_word || o->ndev_indexes || o->all) &&
	    (o->mode == MODE_REPLAY || o->mode == MODE_COMPARE || o->mode == MODE_EXPORT || o->mode == MODE_ANALYZE ||
	     o->mode == MODE_LOGS)) {
		if (o->dev_word)
			snprintf(err, errlen, "\"%s\": %s reads session logs and uses no device", o->dev_word,
			         mode_options[o->mode]);
		else
			snprintf(err, errlen, "%s reads session logs and uses no device", mode_options[o->mode]);
		return -1;
	}
	bool several = o->ndev_indexes > 1 || o->all;
	if (o->all && o->ndev_indexes) {
		snprintf(err, errlen, "--all and -N contradict each other: give one");
		return -1;
	}
	if (o->mode != MODE_CHECK && (o->budget_s > 0 || o->threshold_pct > 0 || o->nbaselines)) {
		snprintf(err, errlen, "%s goes with --check", o->nbaselines ? "--baseline" : o->budget_s > 0 ?
		         "--budget" : "--threshold");
		return -1;
	}
	if ((o->metrics_file || o->metrics_listen) && o->mode != MODE_CHECK && o->mode != MODE_MEASURE) {
		snprintf(err, errlen, "%s goes with a measuring run or --check", o->metrics_file ? "--metrics-file" :
		         "--metrics-listen");
		return -1;
	}
	bool reads_logs = o->mode == MODE_REPLAY || o->mode == MODE_COMPARE || o->mode == MODE_EXPORT ||
	                  o->mode == MODE_ANALYZE;
	if (o->mode == MODE_SUITE && o->workload) {
		snprintf(err, errlen, "--suite runs every workload: --workload picks one (drop --suite), or a "
		         "session of a suite's log (with --replay, --export, --compare, --analyze)");
		return -1;
	}
	if (reads_logs && o->transfer_queue && !o->workload) {
		snprintf(err, errlen, "%s: --transfer-queue picks a session with --workload NAME", mode_options[o->mode]);
		return -1;
	}
	if (o->mode != MODE_CHECK && o->workload && strchr(o->workload, ',')) {
		snprintf(err, errlen, "--workload: one workload (a list goes with --check)");
		return -1;
	}
	if (several && o->mode != MODE_MEASURE && o->mode != MODE_SUITE && o->mode != MODE_CHECK) {
		snprintf(err, errlen, "several devices at once measure a workload or the suite (%s measures one "
		         "device)", mode_options[o->mode]);
		return -1;
	}
	if (several && o->log) {
		snprintf(err, errlen, "--log names one file; with several devices each writes its own log "
		         "(the default place, or --no-log)");
		return -1;
	}
	if (o->fail_if_slower > 0 && o->mode != MODE_COMPARE) {
		snprintf(err, errlen, "--fail-if-slower goes with --compare");
		return -1;
	}
	if (o->verbose && o->mode != MODE_LIST) {
		snprintf(err, errlen, "--verbose only applies to --list");
		return -1;
	}
	if (format_given) {
		/* the formats each mode can write; any other is refused, never ignored */
		enum { T = 1u << FORMAT_TABLE, C = 1u << FORMAT_CSV, J = 1u << FORMAT_JSON };
		static const unsigned formats_of[MODE_COUNT] = {
			[MODE_MEASURE] = T | C | J, [MODE_REPLAY] = T | C | J, [MODE_SUITE] = T | J,
			[MODE_CHECK] = T | C | J,
			[MODE_LATENCY] = T | J, [MODE_ANALYZE] = T | J, [MODE_COMPARE] = T | J, [MODE_LOGS] = T | J,
		};
		static const char *const names[FORMAT_COUNT] = { "table", "csv", "json" };
		unsigned can = formats_of[o->mode];
		if (!(can & (1u << o->format))) {
			char list[40] = "";
			for (int f = 0; f < FORMAT_COUNT; f++)
				if (can & (1u << f))
					snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? ", " : "",
					         names[f]);
			if (can)
				snprintf(err, errlen, "--format %s does not apply to %s (it writes %s)", names[o->format],
				         o->mode == MODE_MEASURE ? "a measuring run" : mode_options[o->mode], list);
			else
				snprintf(err, errlen, "--format does not apply to %s", mode_options[o->mode]);
			return -1;
		}
		o->headless = true;
	}
	return 0;
}

static int config_key(Options *o, const char *key, const char *shown, const char *val, char *err, size_t errlen);

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

int cli_parse_with(int argc, char **argv, const Options *base, Options *o, char *err, size_t errlen)
{
	*o = *base;
	if (base->theme == base->theme_buf)
		o->theme = o->theme_buf;

	bool format_given = false;
	char seen[48][32];
	size_t nseen = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char name[32];
		const char *val = NULL;

		if (a[0] == '-' && all_digits(a + 1)) {
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
			continue;
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (!*a) {
				snprintf(err, errlen, "an empty device name would match every device: give part of "
				         "a name, or -N (see --list)");
				return -1;
			}
			if (o->dev_word) {
				snprintf(err, errlen, "\"%s\": a device name was already given (\"%s\")", a, o->dev_word);
				return -1;
			}
			o->dev_word = a;
			continue;
		}
		/* --name=value or --name value */
		const char *eq = strchr(a, '=');
		size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
		if (nlen >= sizeof name) {
			snprintf(err, errlen, "unknown option %.40s (see --help)", a);
			return -1;
		}
		memcpy(name, a, nlen);
		name[nlen] = '\0';
		if (eq)
			val = eq + 1;
		/* every option once: a second value is not silently taken over the first */
		const char *canon = !strcmp(name, "-h") ? "--help" : !strcmp(name, "-v") ? "--verbose" : name;
		for (size_t k = 0; k < nseen; k++) {
			if (!strcmp(seen[k], canon)) {
				snprintf(err, errlen, "%s is given twice", canon);
				return -1;
			}
		}
		if (nseen < sizeof seen / sizeof *seen && strlen(canon) < sizeof seen[0])
			memcpy(seen[nseen++], canon, strlen(canon) + 1);

		const OptionSpec *spec = option_spec(name);
		if (!spec) {
			snprintf(err, errlen, "unknown option %s (see --help)", name);
			return -1;
		}
		bool needs = spec->value;
		if (needs && !val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%s needs a value (see --help)", name);
				return -1;
			}
			val = argv[++i];
		} else if (!needs && val) {
			snprintf(err, errlen, "%s takes no value", name);
			return -1;
		}

		if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
			if (set_mode(o, MODE_HELP, err, errlen))
				return -1;
		} else if (!strcmp(name, "--version")) {
			if (set_mode(o, MODE_VERSION, err, errlen))
				return -1;
		} else if (!strcmp(name, "--list")) {
			if (set_mode(o, MODE_LIST, err, errlen))
				return -1;
		} else if (!strcmp(name, "--logs")) {
			if (set_mode(o, MODE_LOGS, err, errlen))
				return -1;
		} else if (!strcmp(name, "--save-config")) {
			if (set_mode(o, MODE_SAVE_CONFIG, err, errlen))
				return -1;
		} else if (!strcmp(name, "--no-config")) {
			o->no_config = true;

		} else if (!strcmp(name, "--verbose") || !strcmp(name, "-v")) {
			o->verbose = true;
		} else if (!strcmp(name, "--headless")) {
			o->headless = true;
		} else if (!strcmp(name, "--force")) {
			o->force = true;
		} else if (!strcmp(name, "--no-cache")) {
			o->no_cache = true;
		} else if (!strcmp(name, "--serial")) {
			o->serial = true;
		} else if (!strcmp(name, "--validate")) {
			o->validate = true;
		} else if (!strcmp(name, "--format")) {
			static const char *const names[FORMAT_COUNT] = { "table", "csv", "json" };
			int f = -1;
			for (int k = 0; k < FORMAT_COUNT; k++)
				if (!strcmp(val, names[k]))
					f = k;
			if (f < 0) {
				snprintf(err, errlen, "--format: \"%s\" is not one of table, csv, json", val);
				return -1;
			}
			o->format = (OutFormat)f;
			format_given = true;
		} else if (!strcmp(name, "--target-ms")) {
			if (config_key(o, "target_ms", name, val, err, errlen))
				return -1;
		} else if (!strcmp(name, "--duration")) {
			if (parse_number(name, val, 0, CLI_MAX_DURATION_S, false, &o->duration_s, err, errlen))
				return -1;
			/* 1e-10 s became 0 ns, "until stopped", and never ended */
			if (o->duration_s > 0 && o->duration_s < CLI_MIN_DURATION_S) {
				snprintf(err, errlen, "--duration: %s s is below the shortest run, %g s (0 runs until stopped)",
				         val, CLI_MIN_DURATION_S);
				return -1;
			}
			o->duration_given = true;
		} else if (!strcmp(name, "--workload")) {
			o->workload = val;
		} else if (!strcmp(name, "--trials")) {
			double n;
			if (parse_number(name, val, 1, CLI_MAX_TRIALS, false, &n, err, errlen))
				return -1;
			if (n != (unsigned)n) {
				snprintf(err, errlen, "--trials: %s is not a whole number", val);
				return -1;
			}
			o->trials = (unsigned)n;
		} else if (!strcmp(name, "--size")) {
			uint64_t lo, hi;
			char why[200];
			if (!mem_parse_size(val, &lo, &hi, why, sizeof why)) {
				snprintf(err, errlen, "--size: %s", why);
				return -1;
			}
			o->size_lo = lo;
			o->size_hi = hi;
		} else if (!strcmp(name, "--log-keep") || !strcmp(name, "--log-cap")) {
			if (config_key(o, name[6] == 'k' ? "log_keep" : "log_cap", name, val, err, errlen))
				return -1;
		} else if (!strcmp(name, "--transfer-queue")) {
			o->transfer_queue = true;
		} else if (!strcmp(name, "--default-device")) {
			o->default_device = true;
		} else if (!strcmp(name, "--latency")) {
			if (set_mode(o, MODE_LATENCY, err, errlen))
				return -1;
		} else if (!strcmp(name, "--check")) {
			if (set_mode(o, MODE_CHECK, err, errlen))
				return -1;
		} else if (!strcmp(name, "--budget")) {
			if (cli_parse_duration(name, val, CLI_MIN_BUDGET_S, CLI_MAX_BUDGET_S, &o->budget_s, err, errlen))
				return -1;
		} else if (!strcmp(name, "--threshold")) {
			if (parse_number(name, val, 0, 1000, true, &o->threshold_pct, err, errlen))
				return -1;
		} else if (!strcmp(name, "--baseline")) {
			o->baselines[o->nbaselines++] = val;
			while (i + 1 < argc && argv[i + 1][0] != '-') {
				if (o->nbaselines == CLI_MAX_DEVICES) {
					snprintf(err, errlen, "--baseline: at most %d logs", CLI_MAX_DEVICES);
					return -1;
				}
				o->baselines[o->nbaselines++] = argv[++i];
			}
		} else if (!strcmp(name, "--metrics-file")) {
			if (!*val) {
				snprintf(err, errlen, "--metrics-file: an empty path");
				return -1;
			}
			o->metrics_file = val;
		} else if (!strcmp(name, "--metrics-listen")) {
			o->metrics_listen = val;
		} else if (!strcmp(name, "--suite")) {
			if (set_mode(o, MODE_SUITE, err, errlen))
				return -1;
		} else if (!strcmp(name, "--list-workloads")) {
			if (set_mode(o, MODE_LIST_WORKLOADS, err, errlen))
				return -1;
		} else if (!strcmp(name, "--analyze")) {
			if (set_mode(o, MODE_ANALYZE, err, errlen))
				return -1;
			o->analyze = val;
		} else if (!strcmp(name, "--replay")) {
			if (set_mode(o, MODE_REPLAY, err, errlen))
				return -1;
			/* FILE, or several (the logs of several devices): the files up
			 * to the next option */
			o->replay = val;
			o->replays[o->nreplays++] = val;
			while (i + 1 < argc && argv[i + 1][0] != '-') {
				if (o->nreplays == CLI_MAX_DEVICES) {
					snprintf(err, errlen, "--replay: at most %d logs at once", CLI_MAX_DEVICES);
					return -1;
				}
				o->replays[o->nreplays++] = argv[++i];
			}
		} else if (!strcmp(name, "--compare")) {
			if (set_mode(o, MODE_COMPARE, err, errlen))
				return -1;
			/* A B, or A1 A2 ... -- B1 B2 ...: the files up to the next option */
			const char *files[2 * CLI_COMPARE_MAX + 1];
			unsigned nf = 0, split = 0;
			files[nf++] = val;
			while (i + 1 < argc && (argv[i + 1][0] != '-' || !strcmp(argv[i + 1], "--"))) {
				if (!strcmp(argv[i + 1], "--")) {
					if (split) {
						snprintf(err, errlen, "--compare: one -- between the two sides");
						return -1;
					}
					split = nf;
				} else if (nf == 2 * CLI_COMPARE_MAX) {
					snprintf(err, errlen, "--compare: at most %d sessions a side", CLI_COMPARE_MAX);
					return -1;
				} else {
					files[nf++] = argv[i + 1];
				}
				i++;
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
		} else if (!strcmp(name, "--all")) {
			o->all = true;
		} else if (!strcmp(name, "--outlier")) {
			if (config_key(o, "outlier", name, val, err, errlen))
				return -1;
		} else if (!strcmp(name, "--fail-if-slower")) {
			if (parse_number(name, val, 0.001, 99.999, false, &o->fail_if_slower, err, errlen))
				return -1;
		} else if (!strcmp(name, "--export")) {
			if (set_mode(o, MODE_EXPORT, err, errlen))
				return -1;
			o->export_file = val;
		} else if (!strcmp(name, "--csv")) {
			/* --csv, or --csv OUT (a file, not standard output) */
			o->csv = true;
			if (i + 1 < argc && argv[i + 1][0] != '-' && argv[i + 1][0])
				o->csv_out = argv[++i];
		} else if (!strcmp(name, "--svg")) {
			o->svg = val;
		} else if (!strcmp(name, "--log")) {
			if (!*val) {
				snprintf(err, errlen, "--log: empty path");
				return -1;
			}
			o->log = val;
		} else if (!strcmp(name, "--no-log")) {
			o->no_log = true;
		} else if (!strcmp(name, "--fps")) {
			if (config_key(o, "fps", name, val, err, errlen))
				return -1;
		} else if (!strcmp(name, "--theme")) {
			if (!*val) {
				snprintf(err, errlen, "--theme: empty name");
				return -1;
			}
			o->theme = val;
		} else if (!strcmp(name, "--shader-dir")) {
			if (!*val) {
				snprintf(err, errlen, "--shader-dir: empty path");
				return -1;
			}
			o->shader_dir = val;
		} else {
			snprintf(err, errlen, "unknown option %s (see --help)", name);
			return -1;
		}
	}
	if (validate(o, format_given, err, errlen))
		return -1;
	return mode_takes(o->mode, seen, nseen, err, errlen);
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

int cli_config_apply(const char *text, size_t len, Options *o, char *err, size_t errlen, char *warn, size_t warnlen)
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
		size_t n = 0;
		while (i < len && text[i] != '\n') {
			if (text[i] == '\0') {
				snprintf(err, errlen, "line %d: a NUL byte: not a text file", line);
				return -1;
			}
			if (n + 1 < sizeof buf)
				buf[n++] = text[i];
			else if (n + 1 == sizeof buf) {
				snprintf(err, errlen, "line %d: longer than %zu characters", line, sizeof buf - 1);
				return -1;
			}
			i++;
		}
		i++; /* the newline */
		buf[n] = '\0';
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
			if (warn && warnlen) {
				size_t w = strlen(warn);
				snprintf(warn + w, warnlen - w, "%sline %d: unknown key \"%.40s\" ignored", w ? "; " : "", line, p);
			}
			continue;
		}
		if (seen_at[k]) {
			snprintf(err, errlen, "line %d: %s given twice (line %d too): which one is meant?", line, p, seen_at[k]);
			return -1;
		}
		seen_at[k] = line;
		char why[400];
		if (config_key(o, p, p, val, why, sizeof why) < 0) {
			snprintf(err, errlen, "line %d: %s", line, why);
			return -1;
		}
	}
	return 0;
}

bool cli_config_value_ok(const char *val)
{
	/* a line holds no newline; " #" would start a comment; blanks at either
	 * end are trimmed */
	size_t n = strlen(val);
	if (!n || strchr(val, '\n') || strchr(val, '\r'))
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
