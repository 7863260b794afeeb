/* cli_impl: what the command line's three files share (cli.c: the option
 * and mode tables, the parser; cli_help.c: --help and the completions from
 * the tables; cli_config.c: the config file, its keys the option rows'
 * .key column). Private to them. Pure. */
#ifndef FLOPSCOPE_CLI_IMPL_H
#define FLOPSCOPE_CLI_IMPL_H

#include <stddef.h>

#include "cli_num.h"
#include "options.h"

enum { F_T = 1u << FORMAT_TABLE, F_C = 1u << FORMAT_CSV, F_J = 1u << FORMAT_JSON };

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
	bool runs;           /* it measures: signals end it with its summary, the default log folder bounded */
	bool device;         /* it needs the Vulkan instance and its device list */
	bool screen;         /* it opens a screen where standard input and output are terminals */
} ModeSpec;


/* The modes an option means something in. One given to a mode that would
 * ignore it is refused, named, never taken silently (issue 27: --replay X
 * --target-ms 5 --log Y ran as if neither were given). M_ANY: every mode
 * (the mode options themselves, and those validate() holds to their modes
 * with a message of their own). */
#define M_(m) (1u << (m))
enum {
	M_ANY = (1u << MODE_COUNT) - 1,
	M_RUN = M_(MODE_MEASURE) | M_(MODE_SUITE) | M_(MODE_CHECK) | M_(MODE_BURN),
	M_DEVICE = M_RUN | M_(MODE_LATENCY) | M_(MODE_LIST) | M_(MODE_LIST_WORKLOADS) | M_(MODE_WATCH),
	M_READ = M_(MODE_REPLAY) | M_(MODE_COMPARE) | M_(MODE_EXPORT) | M_(MODE_ANALYZE),
};

/* --help's sections, in order */
typedef enum HelpSection { H_NONE, H_DEVICE, H_OPTIONS, H_LOGS, H_OTHER, H_COUNT } HelpSection;

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
	const char *goes_with; /* in a mode it means nothing in: "NAME goes with GOES_WITH" */
	TakeFn take;         /* what it does with its value; NULL: flag or mode only */
	HelpForm help[3];
};


extern const char *const cli_format_names[FORMAT_COUNT];
extern const ModeSpec cli_mode_specs[MODE_COUNT];
extern const char *const cli_section_titles[H_COUNT];
/* the option rows, in the order --help gives them */
extern const OptionSpec cli_option_specs[];
extern const size_t cli_option_count;

/* One setting onto o, checked the same way from the config file (key,
 * shown as the key) and the command line (shown as the option). */
int cli_config_key(Options *o, const char *key, const char *shown, const char *val, char *err, size_t errlen);
/* "theme, target_ms, ...": the config file's keys, from its table; the
 * length it needed (cut at len). */
size_t cli_config_key_names(char *out, size_t len);
/* Whether key is one of them (every option row's .key must be). */
bool cli_config_key_known(const char *key);

#endif
