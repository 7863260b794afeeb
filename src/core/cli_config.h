/* cli_config: the config file's keys, read, checked and written back (one
 * table of keys, cli_config.c). Pure. */
#ifndef FLOPSCOPE_CLI_CONFIG_H
#define FLOPSCOPE_CLI_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* The config file ($XDG_CONFIG_HOME/flopscope/config): "key = value" lines,
 * # comments (at a line's start or after a blank), keys theme, target_ms,
 * fps, window (auto or whole), outlier, log_keep, log_cap, checked as the
 * options are; each key at most once, as on the command line; a UTF-8
 * byte-order mark and CRLF line ends read. Applies them to o, those that
 * count in mode (a saved dashboard target is not a check's: the key's
 * modes in its row; the others are checked all the same); -1 with
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

#endif
