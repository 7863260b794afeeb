/* layout: where each part of the dashboard goes for a terminal size. Pure. */
#ifndef FLOPSCOPE_LAYOUT_H
#define FLOPSCOPE_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24
#define LAYOUT_PANEL_W 32   /* statistics and jump list, right side */
#define LAYOUT_YLABEL_W 10  /* y-axis labels left of each plot */

typedef struct Rect {
	int x, y, w, h;
} Rect;

typedef struct Layout {
	bool too_small;
	Rect header;                 /* two lines */
	Rect flops, groups, times;   /* plot frames: a title line, then the canvas */
	Rect clock;                  /* telemetry: under FLOPS; h == 0 without it */
	Rect stats, jumps;           /* right panel */
	Rect status;                 /* last line */
} Layout;

/* with_clock: room for the clock plot under the FLOPS plot. */
void layout_compute(int cols, int rows, bool with_clock, Layout *l);

/* The canvas inside a plot frame: below the title, right of the labels,
 * above the time axis line. */
Rect layout_canvas(Rect frame);

#endif
