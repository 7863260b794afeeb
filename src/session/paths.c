#include "paths.h"

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void paths_resource_dir(const char *given, const char *env_var, const char *sub, char *out, size_t len)
{
	if (given) {
		snprintf(out, len, "%s", given);
		return;
	}
	const char *env = getenv(env_var);
	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		const char *d = dirname(exe);
		static const char *const layouts[] = { "%s/../%s", "%s/../share/flopscope/%s" };
		for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
			char cand[4400];
			snprintf(cand, sizeof cand, layouts[i], d, sub);
			if (is_dir(cand)) {
				snprintf(out, len, "%s", cand);
				return;
			}
		}
	}
	snprintf(out, len, "%s", sub);
}

bool paths_xdg_dir(const char *var, const char *home_rel, char *out, size_t len)
{
	const char *x = getenv(var), *home = getenv("HOME");
	if (x && x[0] == '/')
		snprintf(out, len, "%s/flopscope", x);
	else if (home && home[0] == '/')
		snprintf(out, len, "%s/%s/flopscope", home, home_rel);
	else
		return false;
	return true;
}

bool paths_config_file(char *out, size_t len)
{
	char dir[4000];
	if (!paths_xdg_dir("XDG_CONFIG_HOME", ".config", dir, sizeof dir))
		return false;
	snprintf(out, len, "%s/config", dir);
	return true;
}
