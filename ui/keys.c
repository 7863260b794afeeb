#include "keys.h"

#include <curses.h>
#include <stddef.h>

static const struct {
	int key;
	KeyAction act;
} map[] = {
	{ 'q', ACT_QUIT }, { 'Q', ACT_QUIT }, { KEY_F(10), ACT_QUIT },
	{ 3, ACT_QUIT }, { 28, ACT_QUIT }, /* Ctrl-C, Ctrl-\: keys on this screen (screen.c) */
	{ 27, ACT_BACK },
	{ 'd', ACT_DEVICES },
	{ '?', ACT_HELP }, { 'h', ACT_HELP }, { KEY_F(1), ACT_HELP },
	{ KEY_RESIZE, ACT_RESIZE },
	{ ' ', ACT_PAUSE },
	{ 'r', ACT_RESTART },
	{ '+', ACT_TARGET_UP }, { '=', ACT_TARGET_UP },
	{ '-', ACT_TARGET_DOWN }, { '_', ACT_TARGET_DOWN },
	{ '<', ACT_SLOWER }, { '>', ACT_FASTER },
	{ KEY_LEFT, ACT_SEEK_BACK }, { KEY_RIGHT, ACT_SEEK_FWD }, { KEY_END, ACT_END }, { 'e', ACT_END },
	{ '.', ACT_STEP },
	{ 'w', ACT_NEXT_WORKLOAD },
	{ 'z', ACT_WHOLE },
	{ 't', ACT_THEME },
	{ 'S', ACT_SAVE },
	{ KEY_UP, ACT_UP }, { 'k', ACT_UP },
	{ KEY_DOWN, ACT_DOWN }, { 'j', ACT_DOWN },
	{ '\n', ACT_ENTER }, { '\r', ACT_ENTER }, { KEY_ENTER, ACT_ENTER },
	{ 's', ACT_SORT }, { 'm', ACT_MODEL }, { 'f', ACT_FILTER },
	{ KEY_PPAGE, ACT_PAGE_UP }, { KEY_NPAGE, ACT_PAGE_DOWN },
};

KeyAction keys_action(int ch)
{
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (map[i].key == ch)
			return map[i].act;
	return keys_digit(ch) >= 0 ? ACT_PICK : ACT_NONE;
}

int keys_digit(int ch)
{
	return ch >= '1' && ch <= '9' ? ch - '1' : -1;
}
