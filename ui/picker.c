#include "picker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listing.h"

static void draw(Screen *s, const DeviceList *list, int sel)
{
	erase();
	attrset(screen_attr(s, ROLE_HEADER));
	mvhline(0, 0, ' ', COLS);
	mvprintw(0, 1, "flopscope: pick a device and compute queue");
	attrset(screen_attr(s, ROLE_TEXT));
	int list_top = 2;
	for (size_t i = 0; i < list->count && list_top + (int)i < LINES / 2; i++) {
		const DeviceInfo *d = &list->entries[i];
		char api[32], line[1024];
		devinfo_version_str(d->api_version, api, sizeof api);
		snprintf(line, sizeof line, "%3zu: %s (compute queue: %u, type: %s)  %s, Vulkan %s", i + 1,
		         d->name, d->queue_family, devinfo_type_str(d->type),
		         d->driver_name[0] ? d->driver_name : "driver ?", api);
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
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		listing_details(f, &list->entries[sel]);
		fclose(f);
		int row = y + 1;
		for (char *line = strtok(text, "\n"); line && row < LINES - 1; line = strtok(NULL, "\n"))
			mvaddnstr(row++, 0, line, COLS);
		free(text);
	}
	attrset(screen_attr(s, s->message[0] ? s->message_role : ROLE_AXIS));
	mvaddnstr(LINES - 1, 0, s->message[0] ? s->message
	                                      : "up/down j/k or mouse: move   Enter: start   t: theme   q: quit",
	          COLS - 1);
	attrset(A_NORMAL);
	refresh();
}

int picker_run(Screen *s, const DeviceList *list, int initial)
{
	int sel = initial >= 0 && (size_t)initial < list->count ? initial : 0;
	bool dirty = true;
	timeout(100);
	for (;;) {
		if (*s->quit)
			return -1;
		if (dirty && !screen_too_small(s))
			draw(s, list, sel);
		dirty = false;
		int ch = getch();
		if (ch == ERR)
			continue;
		dirty = true;
		if (LINES < 24 || COLS < 80) {
			if (ch == 'q' || ch == 'Q')
				return -1;
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
		case '\n': case '\r': case KEY_ENTER:
			s->message[0] = '\0';
			return sel;
		case 't':
			screen_next_theme(s);
			break;
		case 'q': case 'Q': case 27:
			return -1;
		case KEY_MOUSE: {
			MEVENT ev;
			if (getmouse(&ev) == OK) {
				int row = ev.y - 2;
				if (row >= 0 && (size_t)row < list->count) {
					if (row == sel && (ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)) &&
					    (ev.bstate & BUTTON1_DOUBLE_CLICKED))
						return sel;
					sel = row;
				}
			}
			break;
		}
		default:
			break;
		}
	}
}
