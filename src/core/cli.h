/* cli: the command line, parsed into Options (options.h); --help and the
 * completions from the same tables (cli_help.c). Pure (no I/O). */
#ifndef FLOPSCOPE_CLI_H
#define FLOPSCOPE_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_num.h"
#include "options.h"

/* The option that selects a mode ("--suite"; "" for MODE_MEASURE). */
const char *cli_mode_option(Mode m);
/* The mode table's columns main() runs a mode by: whether it measures
 * (signals end it with its summary; the default log folder is bounded
 * first), needs the Vulkan instance and its device list, and may open a
 * screen (else, or without a terminal on standard input and output, it
 * prints). */
bool cli_mode_runs(Mode m);
bool cli_mode_on_device(Mode m);
bool cli_mode_has_screen(Mode m);

/* Fills o from argv. Returns 0, or -1 with a message in err (a usage error,
 * exit status 2). */
int cli_parse(int argc, char **argv, Options *o, char *err, size_t errlen);

/* The defaults every option starts from. */
void cli_defaults(Options *o);
/* As cli_parse, from base (the defaults with the config file applied)
 * instead of the defaults: the command line overrides the file. */
int cli_parse_with(int argc, char **argv, const Options *base, Options *o, char *err, size_t errlen);

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
