/* cli_config: the config file: its keys (one table: an option that shares
 * a key names it in its row's .key, cli.c), read, checked and written back.
 * Pure. */
#include "cli_config.h"
#include "cli_impl.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "memwork.h"

/* Each key's parser (shown: the key, or the option that shares it, in
 * messages) and its value as a saved file writes it. */
static int set_theme(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	if (!*val || strlen(val) >= sizeof o->theme_buf) {
		snprintf(err, errlen, "%s: a theme name or path of 1 to %zu characters", shown, sizeof o->theme_buf - 1);
		return -1;
	}
	snprintf(o->theme_buf, sizeof o->theme_buf, "%s", val);
	o->theme = o->theme_buf;
	return 0;
}

static void show_theme(const Options *o, char *out, size_t len)
{
	snprintf(out, len, "%s", o->theme ? o->theme : "dark");
}

static int set_target(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	return cli_number(shown, val, CLI_MIN_TARGET_MS, CLI_MAX_TARGET_MS, false, &o->target_ms, err, errlen);
}

static void show_target(const Options *o, char *out, size_t len)
{
	fmt_exact(o->target_ms, out, len);
}

/* A whole number in [lo, hi] into *to. */
static int set_whole(const char *shown, const char *val, double lo, double hi, const char *of, unsigned *to,
                     char *err, size_t errlen)
{
	double v;
	if (cli_number(shown, val, lo, hi, false, &v, err, errlen))
		return -1;
	if (v != (double)(unsigned)v) {
		snprintf(err, errlen, "%s: %s is not a whole number%s", shown, val, of);
		return -1;
	}
	*to = (unsigned)v;
	return 0;
}

static int set_fps(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	return set_whole(shown, val, 1, 20, "", &o->fps, err, errlen);
}

static void show_fps(const Options *o, char *out, size_t len)
{
	snprintf(out, len, "%u", o->fps);
}

static int set_window(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	if (strcmp(val, "whole") && strcmp(val, "auto")) {
		snprintf(err, errlen, "%s: auto or whole, not \"%.40s\"", shown, val);
		return -1;
	}
	o->whole = !strcmp(val, "whole");
	return 0;
}

static void show_window(const Options *o, char *out, size_t len)
{
	snprintf(out, len, "%s", o->whole ? "whole" : "auto");
}

static int set_outlier(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	return cli_number(shown, val, 0.1, 99.9, false, &o->outlier_pct, err, errlen);
}

static void show_outlier(const Options *o, char *out, size_t len)
{
	fmt_exact(o->outlier_pct, out, len);
}

static int set_expect_gpus(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	return set_whole(shown, val, 0, 4096, " of GPUs", &o->expect_gpus, err, errlen);
}

static void show_expect_gpus(const Options *o, char *out, size_t len)
{
	snprintf(out, len, "%u", o->expect_gpus);
}

static int set_log_keep(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
	return set_whole(shown, val, 0, 1e6, " of logs", &o->log_keep, err, errlen);
}

static void show_log_keep(const Options *o, char *out, size_t len)
{
	snprintf(out, len, "%u", o->log_keep);
}

static int set_log_cap(Options *o, const char *shown, const char *val, char *err, size_t errlen)
{
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
	return 0;
}

/* in the option's own form: 100M, 2G (powers of 1024, as it reads them) */
static void show_log_cap(const Options *o, char *out, size_t len)
{
	static const char unit[] = "KMGT";
	unsigned long long v = o->log_cap;
	int u = -1;
	while (v && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(out, len, "%llu", v);
	else
		snprintf(out, len, "%llu%c", v, unit[u]);
}

/* The config file's keys, in the order a saved file writes them, each with
 * the comment above it there. An option that shares a key names it in its
 * row's .key (cli.c); --help's and the messages' lists come from here. */
typedef struct ConfigKey {
	const char *key;
	unsigned modes;       /* the modes in which the file's value counts (1 << Mode bits; 0: all); elsewhere
	                         it is checked and not applied (a dashboard preference is no setting of a check) */
	const char *comment;
	int (*set)(Options *o, const char *shown, const char *val, char *err, size_t errlen);
	void (*show)(const Options *o, char *out, size_t len);
} ConfigKey;

static const ConfigKey config_keys[] = {
	{ "theme", 0, "theme: dark, light, mono, or a theme file's path", set_theme, show_theme },
	{ "target_ms", 1u << MODE_MEASURE | 1u << MODE_SAVE_CONFIG, "the dispatch time the adaptive loop aims at, ms (0.001 .. 10000)", set_target, show_target },
	{ "fps", 0, "dashboard redraws a second at most (1 .. 20)", set_fps, show_fps },
	{ "window", 0, "the dashboard's time axis: auto (the whole run, then its last 60 s past\n"
	            "120 s) or whole (always); z toggles", set_window, show_window },
	{ "outlier", 0, "several devices: a device this many % below its peers' median is named", set_outlier,
	  show_outlier },
	{ "expect_gpus", 1u << MODE_CHECK | 1u << MODE_SAVE_CONFIG, "a check of every device fails a node whose Vulkan "
	  "shows fewer GPUs (0: no count)", set_expect_gpus, show_expect_gpus },
	{ "log_keep", 0, "the default log folder keeps at most log_keep logs and log_cap bytes (0: no limit)",
	  set_log_keep, show_log_keep },
	{ "log_cap", 0, NULL, set_log_cap, show_log_cap },
};
enum { CONFIG_KEYS = sizeof config_keys / sizeof *config_keys };

size_t cli_config_key_names(char *out, size_t len)
{
	size_t at = 0;
	if (len)
		out[0] = '\0';
	for (size_t k = 0; k < CONFIG_KEYS; k++) {
		int w = snprintf(at < len ? out + at : NULL, at < len ? len - at : 0, "%s%s", k ? ", " : "", config_keys[k].key);
		at += w > 0 ? (size_t)w : 0;
	}
	return at;
}

bool cli_config_key_known(const char *key)
{
	for (size_t k = 0; k < CONFIG_KEYS; k++)
		if (!strcmp(config_keys[k].key, key))
			return true;
	return false;
}

int cli_config_key(Options *o, const char *key, const char *shown, const char *val, char *err, size_t errlen)
{
	for (size_t k = 0; k < CONFIG_KEYS; k++)
		if (!strcmp(config_keys[k].key, key))
			return config_keys[k].set(o, shown, val, err, errlen);
	char names[160];
	cli_config_key_names(names, sizeof names);
	snprintf(err, errlen, "unknown key \"%.40s\" (%s)", key, names);
	return -1;
}

/* The config file's line at *i into buf (without its newline), *i past
 * it; its length, or (size_t)-1 with err for a NUL byte or a line too long.
 * A comment line ('#' its first non-blank) or a newer version's key is
 * never too long: *skip says the line was passed over whole (buf holds
 * nothing), *long_line that it was longer than buf (a newer version's key
 * is kept from text, *start its first byte). */
static size_t config_line(const char *text, size_t len, size_t *i, char *buf, size_t size, int line, char *err,
                          size_t errlen, bool *skip, size_t *start, size_t *raw_len)
{
	size_t from = *i, n = 0;
	*skip = false;
	*start = from;
	while (*i < len && text[*i] != '\n') {
		if (text[*i] == '\0') {
			snprintf(err, errlen, "line %d: a NUL byte: not a text file", line);
			return (size_t)-1;
		}
		(*i)++;
	}
	*raw_len = *i - from;
	(*i)++; /* the newline */
	size_t b = from;
	while (b < from + *raw_len && (text[b] == ' ' || text[b] == '\t'))
		b++;
	if (b < from + *raw_len && text[b] == '#') {
		*skip = true; /* a comment, however long */
		buf[0] = '\0';
		return 0;
	}
	n = *raw_len;
	if (n + 1 > size) {
		/* a key this version knows has no value that long; a newer
		 * version's is kept as written */
		const char *eq = memchr(text + from, '=', n);
		size_t k = eq ? (size_t)(eq - (text + b)) : 0;
		while (k && (text[b + k - 1] == ' ' || text[b + k - 1] == '\t'))
			k--;
		bool known = false;
		for (int c = 0; eq && c < CONFIG_KEYS; c++)
			known |= strlen(config_keys[c].key) == k && !memcmp(config_keys[c].key, text + b, k);
		if (!eq || known) {
			snprintf(err, errlen, "line %d: longer than %zu characters", line, size - 1);
			return (size_t)-1;
		}
		*skip = true;
		snprintf(buf, size, "%.*s", (int)(k < 60 ? k : 60), text + b);
		return (size_t)-2;
	}
	memcpy(buf, text + from, n);
	buf[n] = '\0';
	return n;
}

/* keep: the lines of unknown keys, as written (n bytes of raw), each
 * ending in a newline */
static void keep_line(char *keep, size_t keeplen, const char *raw, size_t n)
{
	size_t w = strlen(keep);
	if (n && raw[n - 1] == '\r')
		n--;
	if (w + n + 2 <= keeplen)
		snprintf(keep + w, keeplen - w, "%.*s\n", (int)n, raw);
}

/* A newer version's key at line, added to warn. */
static void warn_unknown(char *warn, size_t warnlen, int line, const char *key)
{
	if (!warn || !warnlen)
		return;
	size_t w = strlen(warn);
	snprintf(warn + w, warnlen - w, "%sline %d: unknown key \"%.40s\" ignored", w ? "; " : "", line, key);
}

/* Whether the file's value of key counts in mode (its row's modes). */
static bool key_counts(const char *key, Mode mode)
{
	for (size_t k = 0; k < CONFIG_KEYS; k++)
		if (!strcmp(config_keys[k].key, key))
			return !config_keys[k].modes || (config_keys[k].modes & 1u << mode);
	return true;
}

/* cli_config_apply's walk; keep (keeplen > 0) gathers the unknown keys' lines. */
static int config_walk(const char *text, size_t len, Mode mode, Options *o, char *err, size_t errlen, char *warn,
                       size_t warnlen, char *keep, size_t keeplen)
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
		bool skip;
		size_t start, raw_len;
		size_t n = config_line(text, len, &i, buf, sizeof buf, line, err, errlen, &skip, &start, &raw_len);
		if (n == (size_t)-1)
			return -1;
		if (skip) {
			if (n == (size_t)-2) { /* a newer version's long line */
				warn_unknown(warn, warnlen, line, buf);
				if (keeplen)
					keep_line(keep, keeplen, text + start, raw_len);
			}
			continue;
		}
		char raw[512];
		memcpy(raw, buf, n + 1);
		if (n && raw[n - 1] == '\r')
			raw[n - 1] = '\0';
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
		while (k < CONFIG_KEYS && strcmp(config_keys[k].key, p))
			k++;
		if (k == CONFIG_KEYS) {
			/* a newer version's key in a shared home: said, not fatal */
			warn_unknown(warn, warnlen, line, p);
			if (keeplen)
				keep_line(keep, keeplen, raw, strlen(raw));
			continue;
		}
		if (seen_at[k]) {
			snprintf(err, errlen, "line %d: %s given twice (line %d too): which one is meant?", line, p, seen_at[k]);
			return -1;
		}
		seen_at[k] = line;
		char why[400];
		Options scratch = *o; /* a value that does not count here is checked all the same */
		if (cli_config_key(key_counts(p, mode) ? o : &scratch, p, p, val, why, sizeof why) < 0) {
			snprintf(err, errlen, "line %d: %s", line, why);
			return -1;
		}
	}
	return 0;
}

int cli_config_apply(const char *text, size_t len, Mode mode, Options *o, char *err, size_t errlen, char *warn,
                     size_t warnlen)
{
	return config_walk(text, len, mode, o, err, errlen, warn, warnlen, NULL, 0);
}

int cli_config_unknown(const char *text, size_t len, char *out, size_t outlen)
{
	Options scratch;
	char err[16];
	memset(&scratch, 0, sizeof scratch); /* values are checked, none read */
	if (outlen)
		out[0] = '\0';
	return config_walk(text, len, MODE_SAVE_CONFIG, &scratch, err, sizeof err, NULL, 0, out, outlen);
}

bool cli_config_value_ok(const char *val)
{
	/* a line holds no newline; " #" would start a comment; blanks at either
	 * end are trimmed; the theme, the longest value, must fit what is read */
	size_t n = strlen(val);
	if (!n || n >= CLI_CONFIG_VALUE_MAX || strchr(val, '\n') || strchr(val, '\r'))
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
	size_t at = 0;
	int w = snprintf(out, len, "# flopscope settings: the command line's options override them.\n");
	at += w > 0 ? (size_t)w : 0;
	for (size_t k = 0; k < CONFIG_KEYS; k++) {
		char value[CLI_CONFIG_VALUE_MAX + 64];
		config_keys[k].show(o, value, sizeof value);
		/* each comment line behind "# " */
		for (const char *c = config_keys[k].comment; c && *c;) {
			const char *nl = strchr(c, '\n');
			int n = nl ? (int)(nl - c) : (int)strlen(c);
			w = snprintf(at < len ? out + at : NULL, at < len ? len - at : 0, "# %.*s\n", n, c);
			at += w > 0 ? (size_t)w : 0;
			c += n + (nl != NULL);
		}
		w = snprintf(at < len ? out + at : NULL, at < len ? len - at : 0, "%s = %s\n", config_keys[k].key, value);
		at += w > 0 ? (size_t)w : 0;
	}
	return (int)at;
}
