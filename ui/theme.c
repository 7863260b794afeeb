#include "theme.h"

#include "fileio.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const theme_role_names[ROLE_COUNT] = {
	"background", "text", "axis", "flops_line", "groups_line", "gpu_time", "cpu_time",
	"target_line", "jump_marker", "header", "status_ok", "status_warn", "status_error",
	"selection",
};

static const char *const COLOR_NAMES[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

void theme_default(Theme *t)
{
	static const ThemeStyle dark[ROLE_COUNT] = {
		[ROLE_BACKGROUND] = { -1, -1, 0 },
		[ROLE_TEXT] = { -1, -1, 0 },
		[ROLE_AXIS] = { 8, -1, 0 },
		[ROLE_FLOPS_LINE] = { 2, -1, THEME_BOLD },
		[ROLE_GROUPS_LINE] = { 6, -1, 0 },
		[ROLE_GPU_TIME] = { 3, -1, 0 },
		[ROLE_CPU_TIME] = { 5, -1, 0 },
		[ROLE_TARGET_LINE] = { 12, -1, 0 },  /* bright blue: not the red of the markers */
		[ROLE_JUMP_MARK] = { 1, -1, THEME_BOLD },
		[ROLE_HEADER] = { 0, 6, 0 },  /* not bold: bold black reads grey where bold brightens */
		[ROLE_STATUS_OK] = { 2, -1, THEME_BOLD },
		[ROLE_STATUS_WARN] = { 3, -1, THEME_BOLD },
		[ROLE_STATUS_ERROR] = { 1, -1, THEME_BOLD },
		[ROLE_SELECTION] = { -1, -1, THEME_REVERSE },
	};
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "dark (built in)");
	memcpy(t->role, dark, sizeof dark);
}

bool theme_color(const char *s, short *out)
{
	if (!strcasecmp(s, "default")) {
		*out = THEME_DEFAULT_COLOR;
		return true;
	}
	for (size_t i = 0; i < sizeof COLOR_NAMES / sizeof *COLOR_NAMES; i++) {
		if (!strcasecmp(s, COLOR_NAMES[i])) {
			*out = (short)i;
			return true;
		}
		if (!strncasecmp(s, "bright_", 7) && !strcasecmp(s + 7, COLOR_NAMES[i])) {
			*out = (short)(i + 8);
			return true;
		}
	}
	if (!strcasecmp(s, "gray") || !strcasecmp(s, "grey")) {
		*out = 8;
		return true;
	}
	return false;
}

static bool color_of(const cJSON *v, const char *role, const char *key, short *out,
                     char *err, size_t errlen)
{
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (d >= 0 && d <= 255 && d == (int)d) {
			*out = (short)d;
			return true;
		}
		snprintf(err, errlen, "role \"%s\": %s %g is not a colour 0..255", role, key, d);
		return false;
	}
	if (cJSON_IsString(v) && theme_color(v->valuestring, out))
		return true;
	if (cJSON_IsString(v))
		snprintf(err, errlen, "role \"%s\": %s \"%.40s\" is not a colour name (black red green "
		         "yellow blue magenta cyan white, bright_*, gray, default) or 0..255",
		         role, key, v->valuestring);
	else
		snprintf(err, errlen, "role \"%s\": %s must be a colour name or a number", role, key);
	return false;
}

static bool attrs_of(const cJSON *v, const char *role, unsigned *out, char *err, size_t errlen)
{
	static const struct { const char *name; unsigned flag; } A[] = {
		{ "bold", THEME_BOLD }, { "dim", THEME_DIM }, { "underline", THEME_UNDERLINE },
		{ "reverse", THEME_REVERSE }, { "standout", THEME_STANDOUT },
	};
	if (!cJSON_IsArray(v)) {
		snprintf(err, errlen, "role \"%s\": attrs must be a list such as [\"bold\"]", role);
		return false;
	}
	*out = 0;
	const cJSON *a;
	cJSON_ArrayForEach(a, v) {
		bool found = false;
		for (size_t i = 0; cJSON_IsString(a) && i < sizeof A / sizeof *A; i++)
			if (!strcmp(a->valuestring, A[i].name)) {
				*out |= A[i].flag;
				found = true;
			}
		if (!found) {
			snprintf(err, errlen, "role \"%s\": unknown attribute %s%.40s%s (bold dim underline "
			         "reverse standout)", role, cJSON_IsString(a) ? "\"" : "",
			         cJSON_IsString(a) ? a->valuestring : "(not a string)", cJSON_IsString(a) ? "\"" : "");
			return false;
		}
	}
	return true;
}

bool theme_parse(const char *json, size_t len, Theme *t, char *err, size_t errlen)
{
	theme_default(t);
	cJSON *root = cJSON_ParseWithLength(json, len);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		int line = 1;
		for (const char *p = json; at && p < at && p < json + len; p++)
			line += *p == '\n';
		snprintf(err, errlen, "not valid JSON (line %d)", line);
		return false;
	}
	bool ok = false;
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "the top level must be an object with \"name\" and \"roles\"");
		goto done;
	}
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (name && !cJSON_IsString(name)) {
		snprintf(err, errlen, "\"name\" must be a string");
		goto done;
	}
	if (name)
		snprintf(t->name, sizeof t->name, "%s", name->valuestring);
	const cJSON *roles = cJSON_GetObjectItemCaseSensitive(root, "roles");
	if (!cJSON_IsObject(roles)) {
		snprintf(err, errlen, "\"roles\" must be an object mapping role names to styles");
		goto done;
	}
	/* a role the file names starts blank (the terminal's colours, no
	 * attributes), not from the built-in dark theme: mono stays mono */
	bool named[ROLE_COUNT] = { false };
	const cJSON *r;
	cJSON_ArrayForEach(r, roles) {
		int role = -1;
		for (int i = 0; i < ROLE_COUNT; i++)
			if (!strcmp(r->string, theme_role_names[i]))
				role = i;
		if (role < 0) {
			snprintf(err, errlen, "unknown role \"%.40s\"", r->string);
			goto done;
		}
		if (!cJSON_IsObject(r)) {
			snprintf(err, errlen, "role \"%s\" must be an object like {\"fg\": \"green\"}", r->string);
			goto done;
		}
		ThemeStyle st = { THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0 };
		named[role] = true;
		const cJSON *k;
		cJSON_ArrayForEach(k, r) {
			if (!strcmp(k->string, "fg")) {
				if (!color_of(k, r->string, "fg", &st.fg, err, errlen))
					goto done;
			} else if (!strcmp(k->string, "bg")) {
				if (!color_of(k, r->string, "bg", &st.bg, err, errlen))
					goto done;
			} else if (!strcmp(k->string, "attrs")) {
				if (!attrs_of(k, r->string, &st.attrs, err, errlen))
					goto done;
			} else {
				snprintf(err, errlen, "role \"%s\": unknown key \"%.40s\" (fg, bg, attrs)",
				         r->string, k->string);
				goto done;
			}
		}
		t->role[role] = st;
	}
	/* a role the file leaves out takes its own text style */
	for (int i = 0; i < ROLE_COUNT; i++)
		if (!named[i])
			t->role[i] = named[ROLE_TEXT] ? t->role[ROLE_TEXT] : (ThemeStyle){ THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0 };
	ok = true;
done:
	cJSON_Delete(root);
	if (!ok)
		theme_default(t);
	return ok;
}

bool theme_load(const char *name_or_path, const char *dir, Theme *t, char *err, size_t errlen)
{
	char path[4096];
	size_t n = strlen(name_or_path);
	if (strchr(name_or_path, '/') || (n > 5 && !strcmp(name_or_path + n - 5, ".json")))
		snprintf(path, sizeof path, "%s", name_or_path);
	else
		snprintf(path, sizeof path, "%s/%s.json", dir, name_or_path);

	theme_default(t);
	size_t len;
	char why[512];
	char *buf = fileio_read(path, 1u << 20, &len, why, sizeof why);
	if (!buf) {
		snprintf(err, errlen, "theme: %s", why);
		return false;
	}
	bool ok = theme_parse(buf, len, t, why, sizeof why);
	free(buf);
	if (!ok)
		snprintf(err, errlen, "theme %s: %s", path, why);
	return ok;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t theme_list(const char *dir, char names[][64], size_t max)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name);
		if (l > 5 && l - 5 < 64 && !strcmp(e->d_name + l - 5, ".json")) {
			memcpy(names[n], e->d_name, l - 5);
			names[n][l - 5] = '\0';
			n++;
		}
	}
	closedir(d);
	qsort(names, n, sizeof names[0], cmp_names);
	return n;
}
