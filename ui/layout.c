#include "layout.h"

#include <string.h>

void layout_compute(int cols, int rows, LayoutClock clock, Layout *l)
{
	memset(l, 0, sizeof *l);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		l->too_small = true;
		return;
	}
	l->header = (Rect){ 0, 0, cols, 2 };
	l->status = (Rect){ 0, rows - 1, cols, 1 };
	int top = 2, avail = rows - 3;
	int left_w = cols - LAYOUT_PANEL_W - 1;
	/* FLOPS gets half the height, the other two plots a quarter each */
	int fh = avail / 2, gh = (avail - fh) / 2, th = avail - fh - gh;
	l->flops = (Rect){ 0, top, left_w, fh };
	if (clock != LAYOUT_NO_CLOCK) {
		int ch = clock == LAYOUT_CLOCK_LINE ? 1 : fh * 2 / 5;
		l->flops.h = fh - ch;
		l->clock = (Rect){ 0, top + l->flops.h, left_w, ch };
	}
	l->groups = (Rect){ 0, top + fh, left_w, gh };
	l->times = (Rect){ 0, top + fh + gh, left_w, th };
	int px = left_w + 1, sh = 16;
	l->stats = (Rect){ px, top, LAYOUT_PANEL_W, sh };
	l->jumps = (Rect){ px, top + sh, LAYOUT_PANEL_W, avail - sh };
}

Rect layout_canvas(Rect f)
{
	Rect c = { f.x + LAYOUT_YLABEL_W, f.y + 1, f.w - LAYOUT_YLABEL_W, f.h - 2 };
	if (c.w < 1)
		c.w = 1;
	if (c.h < 1)
		c.h = 1;
	return c;
}

void layout_node(int cols, int rows, size_t n, NodeLayout *l)
{
	memset(l, 0, sizeof *l);
	int table_h = (int)n + 2;
	int avail = rows - 2 - table_h; /* header and status lines */
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS || n == 0 || n > NODE_MAX || avail < 2) {
		l->too_small = true;
		return;
	}
	int best_c = 0, best_h = 0;
	for (int c = 1; c <= 4 && c <= (int)n && cols / c >= NODE_PANEL_MIN_W; c++) {
		int r = ((int)n + c - 1) / c, h = avail / r;
		int capped = h < NODE_PANEL_GOOD_H ? h : NODE_PANEL_GOOD_H;
		int best_capped = best_h < NODE_PANEL_GOOD_H ? best_h : NODE_PANEL_GOOD_H;
		if (capped > best_capped) {
			best_c = c;
			best_h = h;
		}
	}
	if (best_h < 2) {
		l->too_small = true;
		return;
	}
	l->columns = best_c;
	l->header = (Rect){ 0, 0, cols, 1 };
	int w = cols / best_c;
	for (size_t k = 0; k < n; k++) {
		int row = (int)k / best_c, col = (int)k % best_c;
		/* the last column takes what the division leaves */
		int pw = col == best_c - 1 ? cols - col * w : w;
		l->panel[k] = (Rect){ col * w, 1 + row * best_h, pw, best_h };
	}
	l->table = (Rect){ 0, rows - 1 - table_h, cols, table_h };
	l->status = (Rect){ 0, rows - 1, cols, 1 };
}
