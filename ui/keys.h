/* keys: the one key-to-action map of the live screens (the dashboard and
 * the node view); each screen says what an action does there, or that it
 * does nothing there. Pure (curses' key numbers only). */
#ifndef FLOPSCOPE_KEYS_H
#define FLOPSCOPE_KEYS_H

typedef enum KeyAction {
	ACT_NONE,
	ACT_QUIT,          /* q Q F10 */
	ACT_BACK,          /* Esc: back one level */
	ACT_DEVICES,       /* d: the device picker */
	ACT_HELP,          /* ? h F1 */
	ACT_RESIZE,        /* the terminal changed size */
	ACT_PAUSE,         /* space */
	ACT_RESTART,       /* r */
	ACT_TARGET_UP,     /* + = */
	ACT_TARGET_DOWN,   /* - _ */
	ACT_SLOWER,        /* < : a replay's speed /2 */
	ACT_FASTER,        /* > : x2, then as fast as the screen takes them */
	ACT_SEEK_BACK,     /* left: a replay 10 s back */
	ACT_SEEK_FWD,      /* right: 10 s on */
	ACT_END,           /* End e: a replay's end */
	ACT_STEP,          /* . : a replay paused, one sample on */
	ACT_NEXT_WORKLOAD, /* w */
	ACT_WHOLE,         /* z: the whole session or the last 60 s */
	ACT_THEME,         /* t */
	ACT_SAVE,          /* S */
	ACT_UP,            /* up k */
	ACT_DOWN,          /* down j */
	ACT_ENTER,         /* Enter */
	ACT_PICK,          /* 1-9: the device of that number (keys_digit) */
	ACT_SORT,          /* s: the next order (the fleet view) */
	ACT_MODEL,         /* m: the next model shown alone, then all (the fleet view) */
	ACT_FILTER,        /* f: only the rows to act on, or all (the fleet view) */
	ACT_PAGE_UP,       /* PgUp */
	ACT_PAGE_DOWN,     /* PgDn */
} KeyAction;

KeyAction keys_action(int ch);
/* ACT_PICK's device: 0 for '1' ... 8 for '9'; -1 for another key. */
int keys_digit(int ch);

#endif
