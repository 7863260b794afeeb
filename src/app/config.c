#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_config.h"
#include "fileio.h"
#include "paths.h"

bool config_load(Options *o, Mode mode, char *err, size_t len)
{
	char path[4096], why[4400];
	if (!paths_config_file(path, sizeof path))
		return true;
	struct stat st;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return true;
	size_t n;
	char *text = fileio_read(path, 1 << 16, &n, why, sizeof why);
	if (!text) {
		snprintf(err, len, "config: %s (--no-config ignores it)", why);
		return false;
	}
	char warn[600];
	int rc = cli_config_apply(text, n, mode, o, why, sizeof why, warn, sizeof warn);
	free(text);
	if (rc == 0 && warn[0])
		fprintf(stderr, "flopscope: warning: %s: %s (a newer version's setting?)\n", path, warn);
	if (rc < 0) {
		snprintf(err, len, "%s: %s (--no-config ignores the file)", path, why);
		return false;
	}
	return true;
}

int config_save(const Options *o, char *msg, size_t len)
{
	char path[4096], err[4400], mine[4096];
	/* what is written must read back the same: a theme path with a newline
	 * or " #" cannot be a config line */
	if (o->theme && !cli_config_value_ok(o->theme)) {
		snprintf(msg, len, "cannot save the settings: the theme \"%.200s%s\" holds a newline, a \" #\" or a blank "
		         "at an end, or is longer than the %d characters a config line keeps", o->theme,
		         strlen(o->theme) > 200 ? "..." : "", CLI_CONFIG_VALUE_MAX - 1);
		return 2;
	}
	if (!paths_config_file(path, sizeof path)) {
		snprintf(msg, len, "cannot save the settings: neither XDG_CONFIG_HOME nor HOME is an absolute path");
		return 1;
	}
	if (!fileio_mkdirs(path, "config folder", err, sizeof err)) {
		snprintf(msg, len, "%s", err);
		return 1;
	}
	if (cli_config_text(o, mine, sizeof mine) >= (int)sizeof mine) {
		snprintf(msg, len, "cannot save the settings: they do not fit %zu bytes", sizeof mine);
		return 1;
	}
	/* a newer version's keys stay, every one: this one does not know them,
	 * and does not take them away (they fit the old file's size) */
	char *kept = NULL;
	size_t n = 0;
	struct stat st;
	char *old = fileio_read(path, 1 << 16, &n, err, sizeof err);
	if (!old && stat(path, &st) == 0) {
		/* what the file holds cannot be read: replacing it would lose it */
		snprintf(msg, len, "cannot save the settings: %s: the file is kept as it is", err);
		return 1;
	}
	if (old) {
		if (!(kept = calloc(1, n + 2))) {
			free(old);
			snprintf(msg, len, "cannot save the settings: out of memory");
			return 1;
		}
		cli_config_unknown(old, n, kept, n + 2);
		free(old);
	}
	FileTmp t;
	FILE *f = fileio_create(path, FILE_OWN, false, &t, err, sizeof err);
	if (!f) {
		free(kept);
		snprintf(msg, len, "%s", err);
		return 1;
	}
	bool ok = fputs(mine, f) >= 0 &&
	          (!kept || !kept[0] || fprintf(f, "# keys a newer version wrote, kept as they were\n%s", kept) >= 0);
	free(kept);
	if (!fileio_commit(f, &t, ok, err, sizeof err)) {
		snprintf(msg, len, "%s", err);
		return 1;
	}
	snprintf(msg, len, "settings saved to %s", path);
	return 0;
}
