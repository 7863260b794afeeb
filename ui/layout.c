#include "layout.h"

#include <stdio.h>
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

int layout_node_rows(int cols, size_t n)
{
	/* a panel's 2 rows a grid row, the header, table and status lines: far
	 * below 4 * NODE_MAX + 3 + LAYOUT_MIN_ROWS rows at any width */
	for (int rows = LAYOUT_MIN_ROWS; rows <= LAYOUT_MIN_ROWS + 4 * NODE_MAX + 3; rows++) {
		NodeLayout l;
		layout_node(cols, rows, n, &l);
		if (!l.too_small)
			return rows;
	}
	return 0;
}

#define STATUS_ITEMS 24

void layout_status_line(const char *msg, const char *keys, int cols, char *out, size_t len, int *keys_at)
{
	/* the key items: runs of text parted by two or more spaces */
	const char *item[STATUS_ITEMS];
	size_t ilen[STATUS_ITEMS], n = 0;
	for (const char *p = keys; *p && n < STATUS_ITEMS;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *e = strstr(p, "  ");
		size_t l = e ? (size_t)(e - p) : strlen(p);
		item[n] = p;
		ilen[n++] = l;
		p += l;
	}
	size_t room = cols > 1 ? (size_t)cols - 1 : 0, essential = 0;
	size_t first_essential = n > 2 ? n - 2 : 0;
	for (size_t i = first_essential; i < n; i++)
		essential += ilen[i] + (i > first_essential ? 2 : 0);
	/* the message: what the essential keys leave */
	size_t mlen = strlen(msg), gap = 3;
	size_t mroom = room > essential + gap ? room - essential - gap : 0;
	char m[512];
	if (mlen > mroom) {
		size_t keep = mroom > 3 ? mroom - 3 : 0;
		if (keep > sizeof m - 4)
			keep = sizeof m - 4;
		snprintf(m, sizeof m, "%.*s...", (int)keep, msg);
	} else {
		snprintf(m, sizeof m, "%s", msg);
	}
	mlen = strlen(m);
	size_t at = mlen ? mlen + gap : 0;
	/* the other keys, in order, while they fit beside the essential ones */
	bool take[STATUS_ITEMS] = { false };
	size_t used = at + essential;
	for (size_t i = 0; i < first_essential; i++)
		if (used + ilen[i] + 2 <= room) {
			take[i] = true;
			used += ilen[i] + 2;
		}
	for (size_t i = first_essential; i < n; i++)
		take[i] = true;
	size_t o = (size_t)snprintf(out, len, "%s%s", m, mlen ? "   " : "");
	bool any = false;
	for (size_t i = 0; i < n && o < len; i++) {
		if (!take[i])
			continue;
		o += (size_t)snprintf(out + o, len - o, "%s%.*s", any ? "  " : "", (int)ilen[i], item[i]);
		any = true;
	}
	*keys_at = (int)(at < len ? at : len);
}

/* The last occurrence of sep that starts at or before cols, 0 if none. */
static size_t last_sep(const char *s, const char *sep, int cols)
{
	size_t best = 0;
	for (const char *p = s; (p = strstr(p, sep)) && p - s <= cols; p++)
		best = (size_t)(p - s);
	return best;
}

char *layout_fit_words(char *s, int cols)
{
	if (cols <= 0) {
		s[0] = 0;
		return s;
	}
	if ((int)strlen(s) <= cols)
		return s;
	size_t at = last_sep(s, "  ", cols);
	if (at < (size_t)cols / 2)
		at = last_sep(s, " ", cols);
	if (!at) {
		s[cols] = 0; /* one word longer than the line */
		return s;
	}
	s[at] = 0;
	char *open = strrchr(s, '('), *close = strrchr(s, ')');
	if (open && (!close || close < open))
		*open = 0;
	for (size_t n = strlen(s); n && strchr(" |,:;", s[n - 1]); n--)
		s[n - 1] = 0;
	return s;
}
