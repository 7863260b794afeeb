#include "screen.h"
#include "fmt.h"

#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "clock.h"
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
		/* a name like one of the folder's: which one */
		const char *names[SCREEN_MAX_THEMES], *near = NULL;
		for (size_t i = 0; i < s->theme_count; i++)
			names[i] = s->theme_names[i];
		if (!strchr(arg, '/'))
			near = fmt_nearest(arg, names, s->theme_count);
		if (near)
			screen_message(s, ROLE_STATUS_WARN, "no theme \"%s\": did you mean %s? (the built-in dark theme for now)",
			               arg, near);
		else
			screen_message(s, ROLE_STATUS_WARN, "%s; using the built-in dark theme", err);
		s->theme_index = -1;
		s->theme_arg[0] = '\0';
		return;
	}
	snprintf(s->theme_arg, sizeof s->theme_arg, "%s", arg);
	s->theme_index = -1;
	for (size_t i = 0; i < s->theme_count; i++)
		if (!strcmp(s->theme_names[i], arg))
			s->theme_index = (int)i;
}

const char *screen_theme_name(const Screen *s)
{
	return s->theme_arg[0] ? s->theme_arg : NULL;
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

bool screen_open(Screen *s, const char *theme_arg, atomic_int *quit)
{
	memset(s, 0, sizeof *s);
	s->quit = quit;
	const char *term = getenv("TERM");
	if (!term || !*term)
		return false;
	/* the size comes from the terminal itself (TIOCGWINSZ), never from a
	 * LINES or COLUMNS left in the environment by another terminal */
	use_env(TRUE);
	use_tioctl(TRUE); /* with use_env: the ioctl's size wins over LINES and COLUMNS */
	s->term = newterm(NULL, stdout, stdin);
	if (!s->term)
		return false;
	/* a terminal that cannot place the cursor (TERM=dumb, a printing
	 * terminal) drew one broken line: the caller prints the table */
	const char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1 || LINES < 2 || COLS < 2) {
		endwin();
		delscreen(s->term);
		s->term = NULL;
		return false;
	}
	active = s;
	atexit(restore_at_exit);
	cbreak();
	/* Ctrl-C and Ctrl-\ are keys on these screens (quit, exit 0): the
	 * terminal sends no SIGINT or SIGQUIT for them, so that a signal from
	 * elsewhere means what it means in every mode (128 + N); Ctrl-Z still
	 * suspends. endwin() puts the terminal's own settings back. */
	struct termios tio;
	if (tcgetattr(STDIN_FILENO, &tio) == 0) {
		tio.c_cc[VINTR] = _POSIX_VDISABLE;
		tio.c_cc[VQUIT] = _POSIX_VDISABLE;
		if (tcsetattr(STDIN_FILENO, TCSANOW, &tio) == 0)
			def_prog_mode();
	}
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	/* the mouse is captured only in the picker (picker.c), so that text
	 * can be selected in the dashboard; Esc acts at once */
	set_escdelay(25);
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

bool screen_resynced(void)
{
	/* resizes in quick succession (a tiling window manager, tmux's
	 * resize-window under load) can leave curses at a size the terminal no
	 * longer has: the frame drawn for it, diffed against a screen that is
	 * gone, stayed garbled. The size is read again, and where it differs
	 * the screen is redrawn whole. */
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || !ws.ws_row || !ws.ws_col ||
	    (ws.ws_row == LINES && ws.ws_col == COLS))
		return false;
	resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
	return true;
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

void screen_put_canvas(const Screen *s, const PlotCanvas *cv, Rect c, const ThemeRole *roles)
{
	char cell[8];
	for (int row = 0; row < cv->h; row++)
		for (int col = 0; col < cv->w; col++) {
			uint8_t sid = cv->series[(size_t)row * cv->w + col];
			if (!sid)
				continue;
			plot_cell(cv, col, row, cell);
			attrset(screen_attr(s, roles[sid - 1]));
			mvaddstr(c.y + row, c.x + col, cell);
		}
}

/* The display rows of the help text at width w: each line wrapped at
 * spaces; rows[i] points into lines, len[i] bytes long. */
static size_t help_rows(const char *const *lines, size_t n, int w, const char **rows, int *len, int *off,
                        size_t max)
{
	size_t r = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = lines[i];
		int left = (int)strlen(p);
		/* continuation rows hang under the text of "  KEY   text" (after
		 * the first gap of two spaces), else under the line's indent */
		int indent = 0;
		while (indent < left && p[indent] == ' ')
			indent++;
		const char *gap = strstr(p + indent, "  ");
		if (gap) {
			int at = (int)(gap - p);
			while (at < left && p[at] == ' ')
				at++;
			if (at < left && at <= w / 3)
				indent = at;
		}
		bool first = true;
		do {
			int room = w - (first ? 0 : indent);
			int take = left <= room ? left : room;
			if (take < left) { /* break at the last space that fits */
				int sp = take;
				while (sp > 0 && p[sp] != ' ')
					sp--;
				if (sp > 0)
					take = sp;
			}
			if (r < max) {
				rows[r] = p;
				len[r] = take;
				off[r] = first ? 0 : indent;
			}
			r++;
			p += take;
			left -= take;
			while (left > 0 && *p == ' ') {
				p++;
				left--;
			}
			first = false;
		} while (left > 0);
	}
	return r;
}

void screen_box(const Screen *s, int y, int x, int h, int w, const char *title)
{
	attrset(screen_attr(s, ROLE_TEXT));
	for (int i = 0; i < h; i++)
		mvhline(y + i, x, ' ', w);
	attrset(screen_attr(s, ROLE_AXIS));
	mvhline(y, x, ACS_HLINE, w);
	mvhline(y + h - 1, x, ACS_HLINE, w);
	mvvline(y, x, ACS_VLINE, h);
	mvvline(y, x + w - 1, ACS_VLINE, h);
	mvaddch(y, x, ACS_ULCORNER);
	mvaddch(y, x + w - 1, ACS_URCORNER);
	mvaddch(y + h - 1, x, ACS_LLCORNER);
	mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
	attrset(screen_attr(s, ROLE_TEXT) | A_BOLD);
	mvaddnstr(y, x + 2, title, w - 4);
}

void screen_help(const Screen *s, const char *title, const char *const *lines, size_t n, int *scroll)
{
	int longest = 0;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(lines[i]) > longest)
			longest = (int)strlen(lines[i]);
	int w = longest + 4, maxw = COLS - 2;
	if (w > maxw)
		w = maxw;
	if (w < 12)
		w = COLS;
	enum { MAX_ROWS = 512 };
	static const char *rows[MAX_ROWS];
	static int len[MAX_ROWS], off[MAX_ROWS];
	size_t nr = help_rows(lines, n, w - 4, rows, len, off, MAX_ROWS);
	if (nr > MAX_ROWS)
		nr = MAX_ROWS;
	int h = (int)nr + 2, maxh = LINES - 2;
	if (h > maxh)
		h = maxh;
	if (h < 3)
		h = LINES;
	int body = h - 2, top = (int)nr - body;
	if (top < 0)
		top = 0;
	if (*scroll > top)
		*scroll = top;
	if (*scroll < 0)
		*scroll = 0;
	int y = (LINES - h) / 2, x = (COLS - w) / 2;
	screen_box(s, y, x, h, w, title);
	attrset(screen_attr(s, ROLE_TEXT));
	for (int i = 0; i < body && *scroll + i < (int)nr; i++) {
		size_t r = (size_t)(*scroll + i);
		mvaddnstr(y + 1 + i, x + 2 + off[r], rows[r], len[r] < w - 4 - off[r] ? len[r] : w - 4 - off[r]);
	}
	attrset(screen_attr(s, ROLE_AXIS));
	char foot[80];
	if (top > 0)
		snprintf(foot, sizeof foot, " %d-%d of %zu: up/down/PgUp/PgDn scroll, other keys close ", *scroll + 1,
		         *scroll + body, nr);
	else
		snprintf(foot, sizeof foot, " any key closes ");
	int fl = (int)strlen(foot);
	mvaddnstr(y + h - 1, x + (w - fl > 2 ? w - fl - 2 : 1), foot, w - 2);
}

bool screen_help_key(int ch, int *scroll)
{
	/* a page: the rows a scrolling help shows (screen_help: LINES - 4), less
	 * one kept for context, as less pages */
	int page = LINES - 5 > 1 ? LINES - 5 : 1;
	switch (ch) {
	case KEY_UP: case 'k': *scroll -= 1; return true;
	case KEY_DOWN: case 'j': *scroll += 1; return true;
	case KEY_PPAGE: *scroll -= page; return true;
	case KEY_NPAGE: case ' ': *scroll += page; return true;
	case KEY_HOME: case 'g': *scroll = 0; return true;
	case KEY_END: case 'G': *scroll = 1 << 20; return true;
	case KEY_RESIZE: return true;
	default: return false;
	}
}

void screen_run(Screen *s, const ScreenHandlers *h)
{
	bool dirty = true;
	uint64_t last_draw = 0;
	while (!*s->quit) {
		uint64_t now = clock_mono_ns();
		unsigned r = h->tick(h->ctx, now, dirty);
		if (r & REACT_LEAVE)
			break;
		dirty |= (r & (REACT_REDRAW | REACT_NOW)) != 0;
		if (r & REACT_NOW)
			last_draw = 0;
		if (dirty && now - last_draw >= h->frame_ns) {
			h->draw(h->ctx);
			last_draw = now;
			dirty = false;
		}
		timeout(h->timeout_ms);
		int ch = getch();
		if (ch == ERR) {
			if (screen_resynced()) /* a resize curses missed: drawn again whole */
				dirty = true, last_draw = 0;
			continue;
		}
		dirty = true;
		if (ch == KEY_RESIZE)
			clearok(curscr, TRUE); /* the whole screen, not a diff against the old size */
		if (*h->help && screen_help_key(ch, h->help_scroll) && ch != KEY_RESIZE)
			continue;
		if (*h->help && ch != KEY_RESIZE) {
			*h->help = false;
			continue;
		}
		s->message[0] = '\0';
		KeyAction act = keys_action(ch);
		if (act == ACT_RESIZE) {
			last_draw = 0;
			continue;
		}
		r = h->key(h->ctx, act, ch);
		if (r & REACT_LEAVE)
			break;
		if (r & REACT_NOW)
			last_draw = 0;
	}
}
