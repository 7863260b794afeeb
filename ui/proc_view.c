/* proc_view: see proc_view.h. */
#include "proc_view.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"

/* lets go of the process held (none: claim.pid 0) */
static void let_go(ProcView *v)
{
	if (v->claim.pid && v->ops)
		v->ops->release(&v->claim);
	v->claim.pid = 0;
	v->asking = false;
}

void proc_view_open(ProcView *v, const ProcOps *ops)
{
	/* a process sent SIGTERM stays held for its SIGKILL; a question is not */
	if (v->asking)
		let_go(v);
	ProcClaim held = v->claim;
	const ProcOps *held_ops = v->ops;
	uint64_t kill_ns = v->kill_ns;
	*v = (ProcView){ .open = true, .col = PROC_COL_MEM, .desc = true, .ops = ops };
	if (held.pid) {
		v->claim = held;
		v->ops = held_ops;
		v->kill_ns = kill_ns;
	}
}

void proc_view_close(ProcView *v)
{
	v->open = false;
	if (v->asking)
		let_go(v);
}

/* The table's rows in the view's order (at most PROCS_SHOWN). */
static unsigned sorted(const ProcView *v, const ProcTable *t, ProcInfo *out)
{
	unsigned n = t->n < PROCS_SHOWN ? t->n : PROCS_SHOWN;
	memcpy(out, t->p, n * sizeof *out);
	procs_sort(out, n, v->col, v->desc);
	return n;
}

static void cell_num(double x, const char *fmt, double scale, char *out, size_t len)
{
	if (isfinite(x))
		snprintf(out, len, fmt, x * scale);
	else
		snprintf(out, len, "-");
}

#define ROW_FMT " %7s  %-10.10s %-10s %10s %12s  %s"

static void draw_rows(Screen *s, ProcView *v, const ProcInfo *p, unsigned n, int y, int x, int w, int rows)
{
	if (v->sel >= (int)n)
		v->sel = n ? (int)n - 1 : 0;
	for (unsigned k = 0; k < n; k++) /* the highlighted process where it sorted to */
		if (v->sel_pid && p[k].pid == v->sel_pid)
			v->sel = (int)k;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + rows)
		v->top = v->sel - rows + 1;
	for (int r = 0; r < rows && v->top + r < (int)n; r++) {
		const ProcInfo *q = &p[v->top + r];
		char pid[16], util[16], mem[24], line[512];
		snprintf(pid, sizeof pid, "%u", q->pid);
		cell_num(q->sm_pct, "%.0f%%", 1, util, sizeof util);
		cell_num(q->mem_bytes, "%.1f MiB", 1.0 / (1024 * 1024), mem, sizeof mem);
		snprintf(line, sizeof line, ROW_FMT, pid, q->user[0] ? q->user : "-", procs_kind_names[q->kind], util, mem,
		         q->cmd[0] ? q->cmd : q->name[0] ? q->name : "-");
		attrset(screen_attr(s, v->top + r == v->sel ? ROLE_SELECTION : ROLE_TEXT));
		mvhline(y + r, x, ' ', w);
		mvaddnstr(y + r, x, line, w);
	}
	if (n)
		v->sel_pid = p[v->sel].pid;
}

void proc_view_draw(Screen *s, ProcView *v, const ProcTable *t, const char *dev)
{
	int w = COLS - 4, h = LINES - 4, x = 2, y = 2;
	if (w < 30 || h < 6)
		return;
	char title[512];
	snprintf(title, sizeof title, " processes on %s: %u%s ", dev, t->total,
	         t->foreign ? " (another PID namespace's: counted, not named)" : t->total > t->n ? " (the first shown)" : "");
	screen_box(s, y, x, h, w, title);
	/* the heads, the sort column marked */
	char head[PROC_COL_COUNT][32];
	for (int c = 0; c < PROC_COL_COUNT; c++)
		snprintf(head[c], sizeof head[c], "%s%s", procs_col_names[c], c == (int)v->col ? (v->desc ? " v" : " ^") : "");
	char line[512];
	snprintf(line, sizeof line, ROW_FMT, head[PROC_COL_PID], head[PROC_COL_USER], head[PROC_COL_KIND],
	         head[PROC_COL_UTIL], head[PROC_COL_MEM], head[PROC_COL_CMD]);
	attrset(screen_attr(s, ROLE_TEXT) | A_BOLD | A_UNDERLINE);
	mvaddnstr(y + 1, x + 1, line, w - 2); /* inside the box's borders */
	ProcInfo p[PROCS_SHOWN];
	unsigned n = t->foreign ? 0 : sorted(v, t, p);
	draw_rows(s, v, p, n, y + 2, x + 1, w - 2, h - 3);
	attrset(screen_attr(s, ROLE_AXIS));
	const char *keys = v->asking ? " y: end it (SIGTERM, then SIGKILL if it stays)  any other key: no "
	                              : " up/down  left/right: sort column  s: reverse  F9: end one  p Esc: close ";
	mvaddnstr(y + h - 1, x + 2, keys, w - 4);
	attrset(A_NORMAL);
}

/* F9: the highlighted process, asked about on the status line. */
static void ask(Screen *s, ProcView *v, const ProcTable *t)
{
	ProcInfo p[PROCS_SHOWN];
	unsigned n = t->foreign ? 0 : sorted(v, t, p);
	if (!n) {
		screen_message(s, ROLE_STATUS_WARN, "no process to end");
		return;
	}
	const ProcInfo *q = &p[v->sel < (int)n ? v->sel : 0];
	char why[160];
	if (!v->ops) {
		screen_message(s, ROLE_STATUS_WARN, "a replay ends no process");
		return;
	}
	if (v->claim.pid) {
		screen_message(s, ROLE_STATUS_WARN, "%u is being ended: SIGKILL follows if it stays", v->claim.pid);
		return;
	}
	/* held from the question on: "y" seconds later ends this process,
	 * never one that took its pid; another user's is refused there
	 * (procs_may_signal, its uid read afresh) */
	int rc = v->ops->claim(q->pid, q->name, &v->claim, why, sizeof why);
	if (rc != 0) {
		v->claim.pid = 0;
		screen_message(s, ROLE_STATUS_WARN, "%u %s not ended: %s", q->pid, q->name, why);
		return;
	}
	v->asking = true;
	screen_message(s, ROLE_STATUS_WARN, "end %u %s (%s)? y: SIGTERM, then SIGKILL after %.0f s if it stays", q->pid,
	               q->name, q->user[0] ? q->user : "?", PROC_VIEW_KILL_WAIT_S);
}

static void end_it(Screen *s, ProcView *v)
{
	char why[160];
	unsigned pid = v->claim.pid;
	v->asking = false;
	int rc = v->ops->signal(&v->claim, SIGTERM, why, sizeof why);
	if (rc == 0) {
		v->kill_ns = clock_mono_ns() + (uint64_t)(PROC_VIEW_KILL_WAIT_S * 1e9);
		screen_message(s, ROLE_STATUS_OK, "SIGTERM sent to %u", pid);
	} else {
		let_go(v);
		screen_message(s, ROLE_STATUS_WARN, "%u not ended: %s", pid, why);
	}
}

bool proc_view_key(Screen *s, ProcView *v, const ProcTable *t, int ch)
{
	if (v->asking) {
		if (ch == 'y' || ch == 'Y')
			end_it(s, v);
		else {
			let_go(v);
			screen_message(s, ROLE_STATUS_OK, "not ended");
		}
		return true;
	}
	switch (ch) {
	case KEY_UP: case 'k': v->sel -= v->sel > 0; v->sel_pid = 0; break;
	case KEY_DOWN: case 'j': v->sel += v->sel + 1 < (int)t->n; v->sel_pid = 0; break;
	case KEY_LEFT: v->col = (ProcCol)((v->col + PROC_COL_COUNT - 1) % PROC_COL_COUNT); break;
	case KEY_RIGHT: v->col = (ProcCol)((v->col + 1) % PROC_COL_COUNT); break;
	case 's': v->desc = !v->desc; break;
	case KEY_F(9): ask(s, v, t); break;
	case 'p': case 27: case 'q': proc_view_close(v); return false;
	default: break;
	}
	return true;
}

bool proc_view_tick(Screen *s, ProcView *v, uint64_t now_ns)
{
	if (!v->claim.pid || v->asking || now_ns < v->kill_ns)
		return false;
	unsigned pid = v->claim.pid;
	char why[160];
	if (!v->ops->alive(&v->claim))
		screen_message(s, ROLE_STATUS_OK, "%u ended after SIGTERM", pid);
	else if (v->ops->signal(&v->claim, SIGKILL, why, sizeof why) == 0)
		screen_message(s, ROLE_STATUS_WARN, "%u still ran %.0f s after SIGTERM: SIGKILL sent", pid, PROC_VIEW_KILL_WAIT_S);
	else
		screen_message(s, ROLE_STATUS_WARN, "%u: SIGKILL not sent: %s", pid, why);
	let_go(v);
	return true;
}
