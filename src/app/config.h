/* config: the settings file ($XDG_CONFIG_HOME/flopscope/config, cli.h's
 * format), read before the options and written by --save-config or the
 * dashboard's S key. */
#ifndef FLOPSCOPE_CONFIG_H
#define FLOPSCOPE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* Applies the file to o when there is one; false with "PATH: line N: why"
 * (or why it cannot be read) in err. */
bool config_load(Options *o, Mode mode, char *err, size_t len);
/* Writes o's settings there, whole (the folders made as needed); msg says
 * where, or why not. Returns the exit status: 0, 2 for a value a config
 * line cannot keep (a theme with a newline, " #" or a blank at an end), 1
 * when the file cannot be written. */
int config_save(const Options *o, char *msg, size_t len);

#endif
