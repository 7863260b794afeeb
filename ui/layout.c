#include "layout.h"

#include <string.h>

void layout_compute(int cols, int rows, bool with_clock, Layout *l)
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
	if (with_clock) {
		int ch = fh * 2 / 5;
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
