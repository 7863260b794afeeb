/* theme: colour themes read from JSON (files in themes/) with cJSON. Pure: the
 * parsed theme is a table of colours and attribute flags; ui/dashboard maps
 * it onto curses. */
#ifndef FLOPSCOPE_THEME_H
#define FLOPSCOPE_THEME_H

#include <stdbool.h>
#include <stddef.h>

typedef enum ThemeRole {
	ROLE_BACKGROUND,
	ROLE_TEXT,
	ROLE_AXIS,
	ROLE_FLOPS_LINE,
	ROLE_GROUPS_LINE,
	ROLE_GPU_TIME,
	ROLE_CPU_TIME,
	ROLE_TARGET_LINE,
	ROLE_JUMP_MARK,
	ROLE_HEADER,
	ROLE_STATUS_OK,
	ROLE_STATUS_WARN,
	ROLE_STATUS_ERROR,
	ROLE_SELECTION,
	ROLE_COUNT
} ThemeRole;

enum {
	THEME_BOLD = 1 << 0,
	THEME_DIM = 1 << 1,
	THEME_UNDERLINE = 1 << 2,
	THEME_REVERSE = 1 << 3,
	THEME_STANDOUT = 1 << 4,
};

#define THEME_DEFAULT_COLOR (-1)

typedef struct ThemeStyle {
	short fg, bg;    /* 0..255, or THEME_DEFAULT_COLOR */
	unsigned attrs;  /* THEME_* flags */
} ThemeStyle;

typedef struct Theme {
	char name[64];
	ThemeStyle role[ROLE_COUNT];
} Theme;

extern const char *const theme_role_names[ROLE_COUNT];

/* The built-in dark theme: the fallback when no theme file can be used. */
void theme_default(Theme *t);

/* Parses a theme; roles it leaves out keep the default's style. On error
 * writes what is wrong (unknown role, bad colour, bad JSON) and returns false. */
bool theme_parse(const char *json, size_t len, Theme *t, char *err, size_t errlen);

/* NAME (a file NAME.json in dir) or a path (containing '/' or ending in
 * .json). On error the message names the file. */
bool theme_load(const char *name_or_path, const char *dir, Theme *t, char *err, size_t errlen);

/* Sorted names of the .json files in dir, at most max; returns the count. */
size_t theme_list(const char *dir, char names[][64], size_t max);

/* "red" or "196" -> 0..255, "default" -> -1; false when neither. */
bool theme_color(const char *s, short *out);

#endif
