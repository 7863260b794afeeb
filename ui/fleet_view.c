/* fleet_view: the fleet on a terminal (fleet_view.h). */
#include "fleet_view.h"
#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layout.h"

static const char *const HELP[] = {
	"A row a GPU and workload, grouped by host (Prometheus' instance label).",
	"",
	"  of fleet   its median over the median of its model's on the workload",
	"  OUTLIER    more than the margin below that, and beyond the runs' noise",
	"  MISSING    a GPU its host has and Vulkan does not show",
	"  verdict    the last check's status; causes: its codes (docs/FLEET.md)",
	"",
	"  s  the next order: host, verdict (to act on first), of fleet, power",
	"  m  one model alone, the next, then all",
	"  f  only the rows to act on, or all",
	"  r  read again now (else every few seconds)",
	"  up/down, PgUp/PgDn  scroll",
	"  q  quit",
};

typedef struct FleetView {
	Screen *s;
	FleetFetch fetch;
	void *ctx;
	const FleetViewOptions *o;
	FleetRow *rows;
	size_t n;
	size_t outliers, bad;
	FleetSort sort;
	char model[128];       /* "" every model */
	bool bad_only;
	int top;               /* the first row shown */
	uint64_t read_ns;      /* when last read; 0: never */
	char read_at[16];      /* HH:MM:SS of the last good read */
	char error[700];       /* the last read's failure; "" none */
	char warn[300];
	bool help;
	int help_scroll;
} FleetView;

/* Reads the fleet again: the rows replaced, or the old ones kept with the
 * failure said (never shown as healthy: the error stands in the header). */
static void reread(FleetView *v, uint64_t now)
{
	FleetRow *rows = NULL;
	size_t n = 0;
	char why[600] = "";
	v->warn[0] = '\0';
	v->read_ns = now;
	if (!v->fetch(v->ctx, &rows, &n, why, sizeof why, v->warn, sizeof v->warn)) {
		snprintf(v->error, sizeof v->error, "%s", why);
		free(rows);
		return;
	}
	v->error[0] = '\0';
	free(v->rows);
	v->rows = rows;
	v->n = n;
	v->outliers = fleet_judge(v->rows, v->n, v->o->outlier_pct);
	v->bad = 0;
	for (size_t k = 0; k < n; k++)
		v->bad += fleet_row_bad(&v->rows[k]);
	fleet_sort(v->rows, v->n, v->sort);
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(v->read_at, sizeof v->read_at, "%H:%M:%S", &tm);
}

static unsigned fv_tick(void *ctx, uint64_t now, bool dirty)
{
	FleetView *v = ctx;
	if (!v->read_ns || (double)(now - v->read_ns) * 1e-9 >= v->o->every_s) {
		reread(v, now);
		return REACT_REDRAW;
	}
	return dirty ? REACT_REDRAW : 0;
}

/* The rows shown (filtered), at most cap, into idx; how many. */
static size_t shown(const FleetView *v, size_t *idx, size_t cap)
{
	size_t m = 0;
	for (size_t k = 0; k < v->n && m < cap; k++)
		if (fleet_row_shown(&v->rows[k], v->model, v->bad_only))
			idx[m++] = k;
	return m;
}

static void fv_draw(void *ctx)
{
	FleetView *v = ctx;
	erase();
	if (v->help) {
		screen_help(v->s, " flopscope: the fleet ", HELP, sizeof HELP / sizeof *HELP, &v->help_scroll);
		refresh();
		return;
	}
	char line[1024];
	attrset(screen_attr(v->s, ROLE_HEADER));
	mvhline(0, 0, ' ', COLS);
	snprintf(line, sizeof line, " flopscope | fleet: %zu rows, %zu outlier%s, %zu to act on | %s | read %s, every %g s "
	         "| by %s%s%s%s", v->n, v->outliers, v->outliers == 1 ? "" : "s", v->bad, v->o->source,
	         v->read_at[0] ? v->read_at : "never", v->o->every_s, fleet_sort_names[v->sort],
	         v->model[0] ? " | model " : "", v->model, v->bad_only ? " | to act on only" : "");
	mvaddnstr(0, 0, line, COLS);
	int y = 1;
	if (v->error[0] || v->warn[0]) {
		attrset(screen_attr(v->s, v->error[0] ? ROLE_STATUS_ERROR : ROLE_STATUS_WARN));
		snprintf(line, sizeof line, " %s%s%s", v->error[0] ? "cannot read the fleet: " : "a partial answer: ",
		         v->error[0] ? v->error : v->warn, v->error[0] && v->n ? " (the rows are of the last read)" : "");
		mvaddnstr(y++, 0, line, COLS);
	}
	attrset(screen_attr(v->s, ROLE_AXIS));
	fleet_head(line, sizeof line);
	mvaddnstr(y++, 0, line, COLS);
	size_t *idx = malloc((v->n ? v->n : 1) * sizeof *idx);
	size_t m = idx ? shown(v, idx, v->n) : 0;
	int rows = LINES - y - 1;
	if (v->top > (int)m - rows)
		v->top = (int)m - rows;
	if (v->top < 0)
		v->top = 0;
	for (int r = 0; r < rows && (size_t)(v->top + r) < m; r++) {
		const FleetRow *fr = &v->rows[idx[v->top + r]];
		bool same = v->top + r > 0 && !strcmp(v->rows[idx[v->top + r - 1]].host, fr->host);
		fleet_line(fr, same ? "" : fr->host, line, sizeof line);
		attrset(screen_attr(v->s, fleet_row_bad(fr) ? ROLE_STATUS_ERROR : fr->unsure ? ROLE_STATUS_WARN : ROLE_TEXT));
		mvaddnstr(y + r, 0, line, COLS);
	}
	free(idx);
	char sline[1024];
	int at;
	layout_status_line(v->s->message, "s sort  m model  f to act on  r read now  up/down scroll  ? help  q quit", COLS,
	                   sline, sizeof sline, &at);
	attrset(screen_attr(v->s, (ThemeRole)v->s->message_role));
	mvaddnstr(LINES - 1, 0, sline, at);
	attrset(screen_attr(v->s, ROLE_AXIS));
	mvaddnstr(LINES - 1, at, sline + at, COLS - 1 - at);
	attrset(A_NORMAL);
	refresh();
}

/* The next model of the rows after the one shown ("" after the last). */
static void next_model(FleetView *v)
{
	const char *next = NULL;
	for (size_t k = 0; k < v->n; k++) {
		const char *m = v->rows[k].name;
		if (m[0] && strcmp(m, v->model) > 0 && (!next || strcmp(m, next) < 0))
			next = m;
	}
	snprintf(v->model, sizeof v->model, "%s", next ? next : "");
	v->top = 0;
}

static unsigned fv_key(void *ctx, KeyAction act, int ch)
{
	(void)ch;
	FleetView *v = ctx;
	switch (act) {
	case ACT_QUIT: case ACT_BACK:
		return REACT_LEAVE;
	case ACT_SORT:
		v->sort = (FleetSort)((v->sort + 1) % FLEET_SORT_COUNT);
		fleet_sort(v->rows, v->n, v->sort);
		v->top = 0;
		break;
	case ACT_MODEL:
		next_model(v);
		break;
	case ACT_FILTER:
		v->bad_only = !v->bad_only;
		v->top = 0;
		break;
	case ACT_RESTART:
		v->read_ns = 0; /* the next turn reads */
		break;
	case ACT_UP: case ACT_DOWN:
		v->top += act == ACT_UP ? -1 : 1;
		break;
	case ACT_PAGE_UP: case ACT_PAGE_DOWN:
		v->top += (act == ACT_PAGE_UP ? -1 : 1) * (LINES > 4 ? LINES - 4 : 1);
		break;
	case ACT_THEME:
		screen_next_theme(v->s);
		break;
	case ACT_HELP:
		v->help = true;
		v->help_scroll = 0;
		break;
	default:
		break;
	}
	return REACT_NOW;
}

void fleet_view_run(Screen *s, FleetFetch fetch, void *ctx, const FleetViewOptions *o)
{
	FleetView v = { .s = s, .fetch = fetch, .ctx = ctx, .o = o };
	screen_run(s, &(ScreenHandlers){ .ctx = &v, .tick = fv_tick, .draw = fv_draw, .key = fv_key, .help = &v.help,
	                                 .help_scroll = &v.help_scroll,
	                                 .frame_ns = 1000000000ull / (o->fps ? o->fps : 10), .timeout_ms = 100 });
	free(v.rows);
}
