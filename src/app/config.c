#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	char path[4096], err[4400], text[4096];
	/* what is written must read back the same: a theme path with a newline
	 * or " #" cannot be a config line */
	if (o->theme && !cli_config_value_ok(o->theme)) {
		snprintf(msg, len, "cannot save the settings: the theme \"%.200s\" holds a newline, a \" #\" or a blank "
		         "at an end, which a config line cannot keep", o->theme);
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
	if (cli_config_text(o, text, sizeof text) >= (int)sizeof text) {
		snprintf(msg, len, "cannot save the settings: they do not fit %zu bytes", sizeof text);
		return 1;
	}
	/* a newer version's keys stay: this one does not know them, and does
	 * not take them away */
	char kept[2048] = "";
	size_t n = 0;
	char *old = fileio_read(path, 1 << 16, &n, err, sizeof err);
	if (old) {
		cli_config_unknown(old, n, kept, sizeof kept);
		free(old);
	}
	if (kept[0] && strlen(text) + strlen(kept) + 80 < sizeof text)
		snprintf(text + strlen(text), sizeof text - strlen(text),
		         "# keys a newer version wrote, kept as they were\n%s", kept);
	FileTmp t;
	FILE *f = fileio_create(path, FILE_OWN, false, &t, err, sizeof err);
	if (!f) {
		snprintf(msg, len, "%s", err);
		return 1;
	}
	fputs(text, f);
	if (!fileio_commit(f, &t, true, err, sizeof err)) {
		snprintf(msg, len, "%s", err);
		return 1;
	}
	snprintf(msg, len, "settings saved to %s", path);
	return 0;
}
