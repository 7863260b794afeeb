#include "picker.h"
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const HELP[] = {
	"up / down, j / k, mouse   move; a double click starts the entry",
	"space      mark the entry (several run at once, each with its own engine)",
	"a          mark every physical device once (as --all)",
	"Enter      start the marked entries, or the highlighted one when none is marked",
	"t          next colour theme",
	"F1 ? h     this help",
	"q, Esc, F10  quit",
	"",
	"An entry is a device and one of its compute queue families; the details below the list are "
	"what --list --verbose prints.",
};

static void draw(Screen *s, const DeviceList *list, int sel, const bool *marked, bool help, int *scroll)
{
	erase();
	attrset(screen_attr(s, ROLE_HEADER));
	mvhline(0, 0, ' ', COLS);
	mvprintw(0, 1, "flopscope: pick a device and compute queue (space marks several)");
	attrset(screen_attr(s, ROLE_TEXT));
	int list_top = 2;
	for (size_t i = 0; i < list->count && list_top + (int)i < LINES / 2; i++) {
		const DeviceInfo *d = &list->entries[i];
		char api[32], line[1024];
		devinfo_version_str(d->api_version, api, sizeof api);
		snprintf(line, sizeof line, "%s %3zu: %s (compute queue: %u, type: %s)  %s, Vulkan %s",
		         marked[i] ? "[x]" : "[ ]", i + 1,
		         d->name, d->queue_family, devinfo_type_str(d->type),
		         d->driver_name[0] ? d->driver_name : "driver ?", api);
		/* too long for the row: cut between words, "..." says there is more
		 * (the details below have it all) */
		if ((int)strlen(line) > COLS - 2 && COLS > 12) {
			layout_fit_words(line, COLS - 6);
			strcat(line, " ...");
		}
		attrset(screen_attr(s, (int)i == sel ? ROLE_SELECTION : ROLE_TEXT));
		mvhline(list_top + (int)i, 0, ' ', COLS);
		mvaddnstr(list_top + (int)i, 1, line, COLS - 2);
	}
	/* details of the highlighted entry: the --list --verbose facts */
	attrset(screen_attr(s, ROLE_AXIS));
	int y = LINES / 2;
	mvhline(y, 0, ACS_HLINE, COLS);
	mvprintw(y, 2, " details ");
	attrset(screen_attr(s, ROLE_TEXT));
	char text[4096];
	devinfo_details(&list->entries[sel], text, sizeof text);
	int row = y + 1;
	for (char *line = strtok(text, "\n"); line && row < LINES - 1; line = strtok(NULL, "\n"))
		mvaddnstr(row++, 0, line, COLS);
	char line[1024];
	int at;
	/* Enter first: the key that starts anything keeps its place at 80
	 * columns (it fell off behind the moves and marks) */
	layout_status_line(s->message, "Enter: start the marked (or this one)  space: mark  a: mark all  "
	                   "up/down j/k mouse: move  ? help  q quit", COLS, line, sizeof line, &at);
	attrset(screen_attr(s, s->message_role));
	mvaddnstr(LINES - 1, 0, line, at);
	attrset(screen_attr(s, ROLE_AXIS));
	mvaddnstr(LINES - 1, at, line + at, COLS - 1 - at);
	if (help)
		screen_help(s, " flopscope: the device picker ", HELP, sizeof HELP / sizeof *HELP, scroll);
	attrset(A_NORMAL);
	refresh();
}

/* The marked entries in list order into out; the highlighted one when none. */
static size_t chosen(const DeviceList *list, const bool *marked, int sel, int *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < list->count && n < cap; i++)
		if (marked[i])
			out[n++] = (int)i;
	if (!n && cap)
		out[n++] = sel;
	return n;
}

static size_t pick(Screen *s, const DeviceList *list, int initial, int *out, size_t cap);

size_t picker_run(Screen *s, const DeviceList *list, int initial, int *out, size_t cap)
{
	/* the mouse is the picker's only: captured while it shows */
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED, NULL);
	size_t n = pick(s, list, initial, out, cap);
	mousemask(0, NULL);
	return n;
}

/* a: every physical device once (its first entry), as --all; how many. */
static size_t mark_all(const DeviceList *list, bool *marked, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < list->count && i < PICKER_MAX; i++) {
		bool first = true;
		for (size_t j = 0; j < i; j++)
			first &= list->entries[j].phys_index != list->entries[i].phys_index;
		marked[i] = first && n < cap;
		n += marked[i];
	}
	return n;
}

/* A click moves to an entry; true for a double click on the highlighted one. */
static bool mouse(const DeviceList *list, int *sel)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return false;
	int row = ev.y - 2;
	if (row < 0 || (size_t)row >= list->count)
		return false;
	if (row == *sel && (ev.bstate & BUTTON1_DOUBLE_CLICKED))
		return true;
	*sel = row;
	return false;
}

static size_t pick(Screen *s, const DeviceList *list, int initial, int *out, size_t cap)
{
	int sel = initial >= 0 && (size_t)initial < list->count ? initial : 0;
	bool dirty = true, marked[PICKER_MAX] = { false }, help = false;
	size_t nmarked = 0;
	int scroll = 0;
	timeout(100);
	for (;;) {
		if (*s->quit)
			return 0;
		if (dirty && !screen_too_small(s))
			draw(s, list, sel, marked, help, &scroll);
		dirty = false;
		int ch = getch();
		if (ch == ERR)
			continue;
		dirty = true;
		if (LINES < 24 || COLS < 80) {
			if (ch == 'q' || ch == 'Q' || ch == 3 || ch == 28)
				return 0;
			continue;
		}
		if (help) {
			if (!screen_help_key(ch, &scroll))
				help = false;
			continue;
		}
		switch (ch) {
		case KEY_UP: case 'k':
			if (sel > 0)
				sel--;
			break;
		case KEY_DOWN: case 'j':
			if ((size_t)sel + 1 < list->count)
				sel++;
			break;
		case KEY_HOME: case 'g':
			sel = 0;
			break;
		case KEY_END: case 'G':
			sel = (int)list->count - 1;
			break;
		case ' ':
			if ((size_t)sel < PICKER_MAX && (marked[sel] || nmarked < cap)) {
				marked[sel] = !marked[sel];
				nmarked += marked[sel] ? 1 : (size_t)-1;
			} else {
				screen_message(s, ROLE_STATUS_WARN, "at most %zu devices at once", cap);
			}
			if ((size_t)sel + 1 < list->count)
				sel++;
			break;
		case 'a': /* every physical device once, as --all */
			nmarked = mark_all(list, marked, cap);
			break;
		case '\n': case '\r': case KEY_ENTER:
			s->message[0] = '\0';
			return chosen(list, marked, sel, out, cap);
		case 't':
			screen_next_theme(s);
			break;
		case 'q': case 'Q': case 27: case KEY_F(10): case 3: case 28: /* Ctrl-C, Ctrl-\ */
			return 0;
		case '?': case 'h': case KEY_F(1):
			help = true;
			scroll = 0;
			break;
		case KEY_MOUSE:
			if (mouse(list, &sel))
				return chosen(list, marked, sel, out, cap);
			break;
		default:
			break;
		}
	}
}
