/* screen: the terminal (curses setup, colours from the theme, restore on
 * every exit path) shared by the picker and the dashboard. */
#ifndef FLOPSCOPE_SCREEN_H
#define FLOPSCOPE_SCREEN_H

#include <curses.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "keys.h"
#include "layout.h"
#include "plot.h"
#include "theme.h"

#define SCREEN_MAX_THEMES 32

typedef struct Screen {
	SCREEN *term;
	bool color;          /* colours in use (not NO_COLOR, terminal has them) */
	bool braille;        /* UTF-8 locale */
	Theme theme;
	char themes_dir[4096];
	char theme_names[SCREEN_MAX_THEMES][64];
	size_t theme_count;
	int theme_index;     /* into theme_names, -1 for a path or the built-in one */
	char theme_arg[256]; /* the loaded theme as named ("" the built-in one) */
	char message[512];   /* shown in the status line until replaced */
	int message_role;
	atomic_int *quit;
} Screen;

/* false when the terminal cannot be opened (TERM unset or unknown). */
bool screen_open(Screen *s, const char *theme_arg, atomic_int *quit);
void screen_close(Screen *s);
/* The curses attributes of a theme role. */
attr_t screen_attr(const Screen *s, ThemeRole r);
void screen_apply_theme(Screen *s);
void screen_next_theme(Screen *s);
/* The theme in use as the user named it (a name of the themes folder, or
 * the --theme argument); NULL for the built-in one. */
const char *screen_theme_name(const Screen *s);
void screen_message(Screen *s, ThemeRole role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Puts a plot canvas's cells at c, each series k (1..) in roles[k - 1]. */
void screen_put_canvas(const Screen *s, const PlotCanvas *cv, Rect c, const ThemeRole *roles);
/* A help overlay: a bordered box centred on the screen, as large as the
 * text or the screen allows; lines longer than the box wrap at spaces;
 * *scroll (clamped here) is the first row shown when it does not all fit,
 * and the box says how to scroll. */
void screen_help(const Screen *s, const char *title, const char *const *lines, size_t n, int *scroll);
/* A bordered box at (y, x), h rows by w columns, blank inside, its title
 * on its top border (the help's and the process table's). */
void screen_box(const Screen *s, int y, int x, int h, int w, const char *title);
/* A key while the help is open: scrolls it (up, down, pages, home, end)
 * and returns true, or returns false: the key closes it. */
bool screen_help_key(int ch, int *scroll);
/* Draws the "terminal too small" notice; true if the terminal is too small. */
bool screen_too_small(Screen *s);
/* Whether the terminal's size (read now) differs from curses' idea of it:
 * then curses takes it and the next refresh redraws the screen whole. */
bool screen_resynced(void);

/* What a screen does in the loop every screen runs (htop's reaction bits):
 * each turn returns REACT_ bits. */
enum {
	REACT_REDRAW = 1 << 0, /* something changed: draw at the next frame */
	REACT_NOW = 1 << 1,    /* draw at once, not waiting for the frame */
	REACT_LEAVE = 1 << 2,  /* the screen is left */
};

typedef struct ScreenHandlers {
	void *ctx;
	/* every turn, before drawing: takes what is new (dirty: a redraw is
	 * due already) */
	unsigned (*tick)(void *ctx, uint64_t now_ns, bool dirty);
	void (*draw)(void *ctx);
	/* a key that is neither the help's nor a resize */
	unsigned (*key)(void *ctx, KeyAction act, int ch);
	bool *help;            /* the help overlay is open (a key scrolls or closes it) */
	int *help_scroll;
	uint64_t frame_ns;     /* a frame: draws at most this often */
	int timeout_ms;        /* a turn waits this long for a key */
} ScreenHandlers;

/* The loop: tick, draw at most once a frame, one key (the help's, a
 * resize's or the screen's), until a handler leaves or quit is set. */
void screen_run(Screen *s, const ScreenHandlers *h);

#endif
