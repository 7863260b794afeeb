/* layout: where each part of the dashboard goes for a terminal size. Pure. */
#ifndef FLOPSCOPE_LAYOUT_H
#define FLOPSCOPE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24
#define LAYOUT_PANEL_W 32   /* statistics and jump list, right side */
#define LAYOUT_YLABEL_W 12  /* y-axis labels left of each plot: "1.50 TFLOPS" and the axis line */

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

/* Several devices at once: a header line, a panel per device in a grid,
 * the combined table (a heading, a row per device, the outlier line) and
 * the status line. Panels are at least NODE_PANEL_MIN_W wide and 2 high
 * (a title and the headline; more rows become a throughput plot); the
 * grid takes the fewest columns that give each panel NODE_PANEL_GOOD_H
 * rows, else the most rows. */
#define NODE_MAX 16
#define NODE_PANEL_MIN_W 40
#define NODE_PANEL_GOOD_H 6

typedef struct NodeLayout {
	bool too_small;
	int columns;                 /* of the panel grid */
	Rect header;
	Rect panel[NODE_MAX];        /* device k's panel */
	Rect table;
	Rect status;
} NodeLayout;

void layout_node(int cols, int rows, size_t n, NodeLayout *l);
/* The fewest rows the node view of n devices takes at cols columns; 0
 * where no height is enough (under LAYOUT_MIN_COLS, more than NODE_MAX). */
int layout_node_rows(int cols, size_t n);

/* What the clock and power take under the FLOPS plot: nothing, one row of
 * text (flat over the window), or a plot. */
typedef enum { LAYOUT_NO_CLOCK, LAYOUT_CLOCK_LINE, LAYOUT_CLOCK_PLOT } LayoutClock;

void layout_compute(int cols, int rows, LayoutClock clock, Layout *l);

/* A screen's last line: a message (may be "") and its keys, items parted
 * by two or more spaces ("space pause  r restart  ? help  q quit"), in cols
 * columns (the last left free). The last two items (help and quit) are
 * always there; the message gets the room they leave, cut with "..." only
 * where it must be; the other keys fill what is left, in order, each whole.
 * Writes the line into out and the column where the keys start into
 * *keys_at (the caller draws them in another colour). */
void layout_status_line(const char *msg, const char *keys, int cols, char *out, size_t len, int *keys_at);

/* s cut, in place, to at most cols bytes between its parts, never inside
 * one: at the last item boundary (two spaces) that keeps at least half of
 * cols, else at the last space; a parenthesis left open and
 * trailing separators (" |", ",", ":") go too. Unchanged when it fits.
 * Returns s. */
char *layout_fit_words(char *s, int cols);

/* The canvas inside a plot frame: below the title, right of the labels,
 * above the time axis line. */
Rect layout_canvas(Rect frame);

#endif
