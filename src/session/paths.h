/* paths: where flopscope finds the files it reads at run time. */
#ifndef FLOPSCOPE_PATHS_H
#define FLOPSCOPE_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* The folder `sub` (e.g. "shaders", "themes"): `given` if not NULL, else
 * $env_var if set, else ../sub or ../share/flopscope/sub beside the
 * executable, else ./sub. */
void paths_resource_dir(const char *given, const char *env_var, const char *sub, char *out, size_t len);

/* flopscope's folder of an XDG kind: $VAR/flopscope when VAR is an
 * absolute path (the spec ignores a relative one), else
 * $HOME/home_rel/flopscope; false when neither is absolute. */
bool paths_xdg_dir(const char *var, const char *home_rel, char *out, size_t len);

/* The config file: $XDG_CONFIG_HOME/flopscope/config (an absolute
 * XDG_CONFIG_HOME), else ~/.config/flopscope/config; false without a home. */
bool paths_config_file(char *out, size_t len);

#endif
