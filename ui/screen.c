#include "screen.h"

#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "paths.h"

static Screen *active; /* for the atexit guard */

static void restore_at_exit(void)
{
	if (active && !isendwin())
		endwin();
}

static short usable(short c)
{
	if (c < 0 || c >= COLORS)
		return -1;
	return c;
}

void screen_apply_theme(Screen *s)
{
	if (!s->color)
		return;
	for (int r = 0; r < ROLE_COUNT; r++)
		init_pair((short)(r + 1), usable(s->theme.role[r].fg), usable(s->theme.role[r].bg));
	bkgdset(' ' | screen_attr(s, ROLE_BACKGROUND));
}

attr_t screen_attr(const Screen *s, ThemeRole r)
{
	const ThemeStyle *st = &s->theme.role[r];
	attr_t a = 0;
	if (s->color)
		a |= COLOR_PAIR(r + 1);
	if (st->attrs & THEME_BOLD) a |= A_BOLD;
	if (st->attrs & THEME_DIM) a |= A_DIM;
	if (st->attrs & THEME_UNDERLINE) a |= A_UNDERLINE;
	if (st->attrs & THEME_REVERSE) a |= A_REVERSE;
	if (st->attrs & THEME_STANDOUT) a |= A_STANDOUT;
	/* Without colours the lines and the header still need to stand out. */
	if (!s->color && st->attrs == 0 && (r == ROLE_HEADER || r == ROLE_SELECTION))
		a |= A_REVERSE;
	return a;
}

void screen_message(Screen *s, ThemeRole role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_role = role;
}

static void load_theme(Screen *s, const char *arg)
{
	char err[600];
	if (!theme_load(arg, s->themes_dir, &s->theme, err, sizeof err)) {
		screen_message(s, ROLE_STATUS_WARN, "%s; using the built-in dark theme", err);
		s->theme_index = -1;
		return;
	}
	s->theme_index = -1;
	for (size_t i = 0; i < s->theme_count; i++)
		if (!strcmp(s->theme_names[i], arg))
			s->theme_index = (int)i;
}

void screen_next_theme(Screen *s)
{
	if (s->theme_count == 0) {
		screen_message(s, ROLE_STATUS_WARN, "no themes in %s", s->themes_dir);
		return;
	}
	s->theme_index = (s->theme_index + 1) % (int)s->theme_count;
	load_theme(s, s->theme_names[s->theme_index]);
	if (!s->message[0] || s->message_role != ROLE_STATUS_WARN)
		screen_message(s, ROLE_STATUS_OK, "theme %s", s->theme.name);
	screen_apply_theme(s);
}

bool screen_open(Screen *s, const char *theme_arg, volatile sig_atomic_t *quit)
{
	memset(s, 0, sizeof *s);
	s->quit = quit;
	const char *term = getenv("TERM");
	if (!term || !*term)
		return false;
	s->term = newterm(NULL, stdout, stdin);
	if (!s->term)
		return false;
	active = s;
	atexit(restore_at_exit);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED, NULL);
	s->braille = !strcmp(nl_langinfo(CODESET), "UTF-8");
	const char *nc = getenv("NO_COLOR");
	s->color = has_colors() && !(nc && *nc);
	if (s->color) {
		start_color();
		use_default_colors();
	}
	paths_resource_dir(NULL, "FLOPSCOPE_THEME_DIR", "themes", s->themes_dir, sizeof s->themes_dir);
	s->theme_count = theme_list(s->themes_dir, s->theme_names, SCREEN_MAX_THEMES);
	theme_default(&s->theme);
	s->theme_index = -1;
	load_theme(s, theme_arg ? theme_arg : "dark");
	screen_apply_theme(s);
	return true;
}

void screen_close(Screen *s)
{
	if (!s->term)
		return;
	endwin();
	delscreen(s->term);
	s->term = NULL;
	active = NULL;
}

bool screen_too_small(Screen *s)
{
	if (COLS >= LAYOUT_MIN_COLS && LINES >= LAYOUT_MIN_ROWS)
		return false;
	erase();
	attrset(screen_attr(s, ROLE_STATUS_WARN));
	mvprintw(0, 0, "terminal too small");
	attrset(screen_attr(s, ROLE_TEXT));
	mvprintw(1, 0, "need %dx%d,", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	mvprintw(2, 0, "have %dx%d", COLS, LINES);
	mvprintw(3, 0, "q quits");
	refresh();
	return true;
}
