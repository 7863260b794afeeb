#include "dashboard.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fmt.h"
#include "history.h"
#include "jump.h"
#include "layout.h"
#include "plot.h"
#include "report.h"

#define STATS_NS (250 * 1000 * 1000ull)  /* statistics refreshed 4 times a second */
#define WINDOW_S 60.0                    /* scrolling window once the session is longer */
#define WHOLE_MAX_S 120.0
#define HISTORY_CAP 8192

static const char *const HELP[] = {
	"space   pause / resume the loop",
	"r       restart the loop from 1 workgroup",
	"d       back to the device picker",
	"+ / -   target dispatch time x2 / /2",
	"z       whole session / scrolling window",
	"t       next colour theme",
	"?       this help (any key closes it)",
	"q       quit (Ctrl-C too)",
};

typedef struct Dash {
	Screen *s;
	Engine *e;
	History h;
	Summary sum;
	SummaryResult stats;
	uint64_t stats_ns;
	bool whole, help;
	Jump jumps[64];
	size_t njumps;      /* filled by the jump detector when it runs */
	char last_line[160];
} Dash;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put_cells(Dash *d, const PlotCanvas *cv, Rect c, const ThemeRole *roles)
{
	char cell[8];
	for (int row = 0; row < cv->h; row++)
		for (int col = 0; col < cv->w; col++) {
			uint8_t sid = cv->series[(size_t)row * cv->w + col];
			if (!sid)
				continue;
			plot_cell(cv, col, row, cell);
			attrset(screen_attr(d->s, roles[sid - 1]));
			mvaddstr(c.y + row, c.x + col, cell);
		}
}

typedef struct Series {
	const double *y;
	ThemeRole role;
} Series;

static void draw_plot(Dash *d, Rect frame, const char *title, const char *unit, bool logy,
                      const Series *ser, size_t nser, const double *target, size_t from,
                      double t0, double t1)
{
	Rect c = layout_canvas(frame);
	size_t n = d->h.n - from;
	attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
	mvaddnstr(frame.y, 0, title, frame.w);
	int lx = (int)strlen(title) + 2;
	for (size_t i = 0; i < nser && nser > 1; i++) {
		attrset(screen_attr(d->s, ser[i].role));
		mvaddstr(frame.y, lx, i == 0 ? "GPU" : "CPU");
		lx += 5;
	}
	if (target) {
		attrset(screen_attr(d->s, ROLE_TARGET_LINE));
		mvaddstr(frame.y, lx, "target");
	}

	/* the y axis covers every series of the window, and the target */
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < nser; k++) {
		PlotAxis a;
		plot_axis_fit(ser[k].y + from, n, logy, &a);
		if (n && a.min < lo) lo = a.min;
		if (n && a.max > hi) hi = a.max;
	}
	PlotAxis ay = { 0, 1, logy }, ax = { t0, t1 > t0 ? t1 : t0 + 1, false };
	if (lo < hi) {
		ay.min = lo;
		ay.max = hi;
	} else if (logy) {
		ay.min = 1;
		ay.max = 10;
	}
	if (target && !logy && *target * 1.1 > ay.max)
		ay.max = *target * 1.1;

	PlotCanvas cv;
	if (!plot_canvas_init(&cv, c.w, c.h, d->s->braille))
		return;
	if (target)
		plot_hline(&cv, &ay, *target, (int)nser);
	for (size_t j = 0; j < d->njumps && !logy && nser == 1; j++)
		plot_vline(&cv, &ax, d->jumps[j].t_ms * 1e-3, (int)nser + 1);
	for (size_t k = 0; k < nser; k++)
		plot_series(&cv, &ax, &ay, d->h.t_s + from, ser[k].y + from, n, (int)k);
	ThemeRole roles[8];
	for (size_t k = 0; k < nser; k++)
		roles[k] = ser[k].role;
	roles[nser] = ROLE_TARGET_LINE;
	roles[nser + 1] = ROLE_JUMP_MARK;
	put_cells(d, &cv, c, roles);
	plot_canvas_done(&cv);

	/* labels: top, middle, bottom of the y axis; ends of the time axis */
	char a[FMT_SI_LEN], lab[40];
	double mid = logy ? sqrt(ay.min * ay.max) : 0.5 * (ay.min + ay.max);
	const double yv[3] = { ay.max, mid, ay.min };
	const int yr[3] = { c.y, c.y + (c.h - 1) / 2, c.y + c.h - 1 };
	attrset(screen_attr(d->s, ROLE_AXIS));
	for (int i = 0; i < 3; i++) {
		snprintf(lab, sizeof lab, "%8s%s", fmt_si(yv[i], a, sizeof a), unit);
		mvaddnstr(yr[i], 0, lab, LAYOUT_YLABEL_W - 1);
		mvaddch(yr[i], LAYOUT_YLABEL_W - 1, ACS_VLINE);
	}
	mvhline(c.y + c.h, c.x, ACS_HLINE, c.w);
	snprintf(lab, sizeof lab, "%.1f s", t0);
	mvaddstr(c.y + c.h, c.x, lab);
	snprintf(lab, sizeof lab, "%.1f s", ax.max);
	mvaddstr(c.y + c.h, c.x + c.w - (int)strlen(lab), lab);
}

static void draw_header(Dash *d)
{
	Engine *e = d->e;
	const DeviceInfo *dev = e->cfg.dev;
	EngineState st = engine_state(e);
	char line[512], state[16];
	attrset(screen_attr(d->s, ROLE_HEADER));
	mvhline(0, 0, ' ', COLS);
	mvhline(1, 0, ' ', COLS);
	mvaddstr(0, 0, " flopscope ");
	/* the state first, so that a narrow terminal never hides it */
	ThemeRole r = st == ENGINE_ERROR ? ROLE_STATUS_ERROR
	            : st == ENGINE_PAUSED || st == ENGINE_DONE ? ROLE_STATUS_WARN : ROLE_STATUS_OK;
	snprintf(state, sizeof state, " %s ", engine_state_str(st));
	for (char *p = state; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	attrset(screen_attr(d->s, r) | A_REVERSE);
	addstr(state);
	attrset(screen_attr(d->s, ROLE_HEADER));
	snprintf(line, sizeof line, " %.1f s | target %.3g ms | fma_fp32 | %s (queue %u, %s)",
	         d->h.last.t_ms * 1e-3, engine_target_ms(e), dev->name, dev->queue_family,
	         devinfo_type_str(dev->type));
	int x = getcurx(stdscr);
	mvaddnstr(0, x, line, COLS - x);
	attrset(screen_attr(d->s, ROLE_HEADER));
	snprintf(line, sizeof line, " times: %s | samples %zu | result checks %llu passed | theme %s | ? help",
	         e->comp.timestamps ? "GPU timestamps (CPU wall alongside)" : "CPU wall clock (no timestamps)",
	         d->h.total, (unsigned long long)engine_checks_passed(e), d->s->theme.name);
	mvaddnstr(1, 0, line, COLS);
}

static void draw_stats(Dash *d, Rect r)
{
	const Stats *f = &d->stats.flops;
	char a[FMT_SI_LEN], b[FMT_SI_LEN], line[80];
	int y = r.y;
	attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
	mvaddnstr(y++, r.x, "FLOPS at the target time", r.w);
	attrset(screen_attr(d->s, ROLE_TEXT));
#define ROW(...) do { snprintf(line, sizeof line, __VA_ARGS__); mvaddnstr(y++, r.x, line, r.w); } while (0)
	ROW("last     %sFLOPS", fmt_si(d->h.last.flops, a, sizeof a));
	if (f->n) {
		ROW("min      %sFLOPS", fmt_si(f->min, a, sizeof a));
		ROW("median   %sFLOPS", fmt_si(f->median, a, sizeof a));
		ROW("max      %sFLOPS", fmt_si(f->max, a, sizeof a));
		ROW("mean     %s+- %s", fmt_si(f->mean, a, sizeof a), fmt_si(f->std, b, sizeof b));
		ROW("95%% CI   +- %sFLOPS", fmt_si(f->ci95, a, sizeof a));
	} else {
		ROW("(growing: no sample at the");
		ROW(" target time yet)");
	}
	ROW("samples  %zu at target", d->stats.steady);
	if (!isnan(d->stats.ratio_median))
		ROW("GPU/CPU  %.4f median", d->stats.ratio_median);
	size_t dropped = ring_dropped(&d->e->ring);
	attrset(screen_attr(d->s, dropped ? ROLE_STATUS_WARN : ROLE_TEXT));
	ROW("dropped  %zu", dropped);
	attrset(screen_attr(d->s, ROLE_TEXT));
	ROW("groups   %u x %u x %u", d->h.last.x, d->h.last.y, d->h.last.z);
#undef ROW
}

static void draw_jumps(Dash *d, Rect r)
{
	attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
	mvaddnstr(r.y, r.x, "Power-state jumps", r.w);
	attrset(screen_attr(d->s, ROLE_TEXT));
	if (d->njumps == 0) {
		mvaddnstr(r.y + 1, r.x, "none detected", r.w);
		return;
	}
	for (size_t i = 0; i < d->njumps && (int)i + 1 < r.h; i++) {
		char a[FMT_SI_LEN], b[FMT_SI_LEN], line[80];
		const Jump *j = &d->jumps[i];
		snprintf(line, sizeof line, "%7.0f ms %s-> %s x%.2f", j->t_ms, fmt_si(j->before, a, sizeof a),
		         fmt_si(j->after, b, sizeof b), j->ratio);
		attrset(screen_attr(d->s, ROLE_JUMP_MARK));
		mvaddnstr(r.y + 1 + (int)i, r.x, line, r.w);
	}
}

static void draw_help(Dash *d)
{
	int n = (int)(sizeof HELP / sizeof *HELP), w = 50, h = n + 4;
	int y = (LINES - h) / 2, x = (COLS - w) / 2;
	attrset(screen_attr(d->s, ROLE_TEXT));
	for (int i = 0; i < h; i++)
		mvhline(y + i, x, ' ', w);
	attrset(screen_attr(d->s, ROLE_AXIS));
	mvhline(y, x, ACS_HLINE, w);
	mvhline(y + h - 1, x, ACS_HLINE, w);
	attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
	mvaddstr(y, x + 2, " keys ");
	attrset(screen_attr(d->s, ROLE_TEXT));
	for (int i = 0; i < n; i++)
		mvaddnstr(y + 2 + i, x + 2, HELP[i], w - 4);
}

static void draw(Dash *d)
{
	if (screen_too_small(d->s))
		return;
	Layout l;
	layout_compute(COLS, LINES, &l);
	erase();
	draw_header(d);

	double t_end = d->h.n ? d->h.t_s[d->h.n - 1] : 0, t0 = 0;
	if (!d->whole && t_end > WHOLE_MAX_S)
		t0 = t_end - WINDOW_S;
	size_t from = history_from(&d->h, t0);
	double target = engine_target_ms(d->e) * 1e-3;
	Series fl = { d->h.flops, ROLE_FLOPS_LINE };
	Series gr = { d->h.groups, ROLE_GROUPS_LINE };
	Series tm[2] = { { d->h.gpu_s, ROLE_GPU_TIME }, { d->h.cpu_s, ROLE_CPU_TIME } };
	draw_plot(d, l.flops, "FLOPS", "", false, &fl, 1, NULL, from, t0, t_end);
	draw_plot(d, l.groups, "workgroups (log)", "", true, &gr, 1, NULL, from, t0, t_end);
	draw_plot(d, l.times, "dispatch time", "s", false, tm, d->e->comp.timestamps ? 2 : 1, &target,
	          from, t0, t_end);
	draw_stats(d, l.stats);
	draw_jumps(d, l.jumps);

	EngineState st = engine_state(d->e);
	const char *msg = d->s->message;
	ThemeRole role = (ThemeRole)d->s->message_role;
	if (st == ENGINE_ERROR) {
		msg = engine_error(d->e);
		role = ROLE_STATUS_ERROR;
	} else if (!msg[0]) {
		msg = d->whole || t_end <= WHOLE_MAX_S ? "space pause  r restart  d devices  +/- target  z window  t theme  ? help  q quit"
		                                       : "last 60 s (z: whole session)   space pause  r restart  ? help  q quit";
		role = ROLE_AXIS;
	}
	attrset(screen_attr(d->s, role));
	mvhline(l.status.y, 0, ' ', COLS);
	mvaddnstr(l.status.y, 0, msg, COLS - 1);
	if (d->help)
		draw_help(d);
	attrset(A_NORMAL);
	refresh();
}

static void restart(Dash *d)
{
	history_clear(&d->h);
	summary_done(&d->sum);
	summary_init(&d->sum);
	memset(&d->stats, 0, sizeof d->stats);
	d->stats.ratio_median = NAN;
	d->njumps = 0;
}

DashExit dashboard_run(Screen *s, Engine *e, unsigned fps, bool *failed, SummaryResult *summary)
{
	const uint64_t frame_ns = 1000000000ull / (fps ? fps : 10);
	memset(summary, 0, sizeof *summary);
	summary->ratio_median = NAN;
	Dash d = { .s = s, .e = e };
	char err[ERR_LEN];
	*failed = false;
	if (!history_init(&d.h, HISTORY_CAP)) {
		screen_message(s, ROLE_STATUS_ERROR, "out of memory for the sample history");
		return DASH_BACK;
	}
	summary_init(&d.sum);
	d.stats.ratio_median = NAN;
	if (!engine_start(e, err)) {
		screen_message(s, ROLE_STATUS_ERROR, "%s", err);
		history_done(&d.h);
		summary_done(&d.sum);
		*failed = true;
		return DASH_BACK;
	}
	timeout((int)(frame_ns / 1000000 < 100 ? frame_ns / 1000000 : 100));
	DashExit how = DASH_QUIT;
	bool dirty = true, paused = false;
	uint64_t last_draw = 0;
	EngineState last_state = ENGINE_READY;
	Sample smp;
	for (;;) {
		if (*s->quit)
			break;
		while (ring_pop(&e->ring, &smp)) {
			if (smp.seq == 0 && d.h.total)
				restart(&d);
			history_add(&d.h, &smp);
			summary_add(&d.sum, &smp);
			dirty = true;
		}
		EngineState st = engine_state(e);
		if (st != last_state) {
			last_state = st;
			dirty = true;
			if (st == ENGINE_ERROR)
				*failed = true;
		}
		uint64_t now = now_ns();
		if (dirty && now - d.stats_ns >= STATS_NS) {
			summary_result(&d.sum, &d.stats);
			d.stats_ns = now;
		}
		if (dirty && now - last_draw >= frame_ns) {
			draw(&d);
			last_draw = now;
			dirty = false;
		}
		int ch = getch();
		if (ch == ERR)
			continue;
		dirty = true;
		if (d.help && ch != KEY_RESIZE) {
			d.help = false;
			continue;
		}
		s->message[0] = '\0';
		if (ch == 'q' || ch == 'Q')
			break;
		if (ch == KEY_RESIZE) {
			last_draw = 0;
			continue;
		}
		if (COLS < LAYOUT_MIN_COLS || LINES < LAYOUT_MIN_ROWS)
			continue;
		switch (ch) {
		case ' ':
			paused = !paused;
			engine_set_paused(e, paused);
			screen_message(s, ROLE_STATUS_WARN, paused ? "paused: space resumes" : "resumed");
			break;
		case 'r':
			engine_request_restart(e);
			screen_message(s, ROLE_STATUS_OK, "restarting from 1 workgroup");
			break;
		case 'd':
			how = DASH_BACK;
			goto out;
		case '+': case '=': {
			double t = engine_target_ms(e) * 2;
			engine_set_target_ms(e, t > 1000 ? 1000 : t);
			screen_message(s, ROLE_STATUS_OK, "target %.3g ms", engine_target_ms(e));
			break;
		}
		case '-': case '_': {
			double t = engine_target_ms(e) / 2;
			engine_set_target_ms(e, t < 1 ? 1 : t);
			screen_message(s, ROLE_STATUS_OK, "target %.3g ms", engine_target_ms(e));
			break;
		}
		case 'z':
			d.whole = !d.whole;
			break;
		case 't':
			screen_next_theme(s);
			break;
		case '?': case 'h':
			d.help = true;
			break;
		default:
			break;
		}
	}
out:
	engine_set_paused(e, false);
	engine_request_stop(e);
	engine_join(e);
	while (ring_pop(&e->ring, &smp))
		summary_add(&d.sum, &smp);
	summary_result(&d.sum, summary);
	history_done(&d.h);
	summary_done(&d.sum);
	return how;
}
