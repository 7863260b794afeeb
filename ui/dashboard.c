#include "dashboard.h"
#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "adapt.h"
#include "cli.h"
#include "fmt.h"
#include "memwork.h"
#include "history.h"
#include "panel.h"
#include "proc_view.h"
#include "keys.h"
#include "change.h"
#include "layout.h"
#include "plot.h"
#include "summary.h"
#include "throttle.h"
#include "workload.h"

#define STATS_NS (250 * 1000 * 1000ull)  /* statistics refreshed 4 times a second */
#define WINDOW_S 60.0                    /* scrolling window once the session is longer */
#define WHOLE_MAX_S 120.0
#define HISTORY_CAP 8192

static const char *const HELP[] = {
	"Keys",
	"  space      pause / resume (the loop, or the replay)",
	"  r          restart the loop from 1 workgroup (a replay: from its start)",
	"  + / -      target: the next round value (1 2 5 10 20 50 ... ms), 1 us to 10 s; live only",
	"  w          next workload the device runs; live only",
	"  < / >      replay speed /2, x2, then as fast as the screen takes them; replays only",
	"  arrows     a replay 10 s back (left) or on (right); End or e: its end; a full stop (.): one sample on, paused",
	"  z          whole session / the last 60 s",
	"  p          the processes on the device, as nvtop's table (below); live only",
	"  t          next colour theme",
	"  S          save the theme, target and window (z) as the defaults (the config file)",
	"  d, Esc     back to the device picker, or to all devices when zoomed from them",
	"  F1 ? h     this help; F10 q quit (Ctrl-C too)",
	"",
	"What the screen shows",
	"  AT TARGET  the loop has reached the target dispatch time and holds it (it does not mean the "
	"throughput is stable); GROWING: still multiplying the workgroups by 10; PAUSED, DONE, ERROR",
	"  FLOPS plot the throughput of each dispatch, or IOPS, or B/s for memory workloads; in a sweep "
	"of copy sizes each size grows from 1 workgroup again: that growth is left out (a gap), not drawn "
	"as a dip",
	"  red marks  power-state changes: a sustained level change with the clock, P-state or a "
	"throttle reason changing beside it",
	"  grey marks other sustained level changes: not a power-state change (the clock unchanged, e.g. "
	"another process took the device or the CPU), or unexplained (no telemetry to tell)",
	"  excursion  a departure that came back within 500 ms or 5 samples: counted, not marked",
	"  events     red too: a cause of reduced clocks (power cap, thermal, HW slowdown) turning on or "
	"off, or the clock stepping by more than 5%, as the telemetry read it, whatever the throughput did; "
	"held by: the reasons holding the clock, with their share of the run",
	"  workgroups the groups of each dispatch (log scale); for transfers: bandwidth by copy size",
	"  dispatch   GPU time (timestamps) and CPU time of each dispatch; the target is its own line; "
	"a log scale, said in its title, while the window holds targets 4x or more apart (after + or "
	"-) or a dispatch 4x or more the target (a stall): the 20 ms ones stay readable beside it",
	"  legends    on each plot's title row where there is room: its lines, the target, and the "
	"kinds of change marked in view",
	"  clock      SM or CPU clock, with power drawn to its own scale, temperature, P-state: \"clock X "
	"of Y MHz\" now and the device's highest, \"power X / Y W (P%)\" now and its limit; one "
	"row of text (\"flat over N s\", with the range) while the clock stays within 1% and power "
	"within 10% over the window",
	"  power      the power workload's plot in the clock's place: power in W against the limit "
	"(its line, \"limit\" in the legend), the clock drawn so that its maximum meets the limit's line, "
	"what holds it, the changes and events marked; always a plot, never flattened to a row",
	"",
	"The process table (p)",
	"  every process the driver lists on the device: pid, user, type (compute, graphics, both), GPU "
	"util (NVML's share of the SMs), GPU memory, command line; up/down move, left/right the sort "
	"column, s reverses it; F9 ends the highlighted one after y (SIGTERM, then SIGKILL if it still "
	"runs 3 s later; another user's process only as root); p or Esc closes",
	"",
	"The statistics panel",
	"  the run's: the same figures as the log's summary and the summary printed on quit, and over "
	"every segment after r (the plots show the last segment)",
	"  median, min, max of the samples at the target time; mean, and sd: the standard deviation "
	"(the spread of the samples)",
	"  95% CI     +- the 95% confidence interval of the mean (the summary's +- is the same)",
	"  FLOPS at the target time  the panel's heading (IOPS, B/s): its figures are of the samples "
	"at the target dispatch time, the growth left out",
	"  peak       % of the theoretical peak at the sample's clock (formula in the summary); over 105% "
	"is flagged implausible, never shown as a result",
	"  rated      % of the peak at the device's highest clock (the rated figure), where the clock read "
	"is below it",
	"  per cycle  work per clock cycle (rate / clock), a clock-independent figure",
	"  per W      work per joule (rate / power)",
	"  plateau    how long the run took to hold within 3% of its final level",
	"  GPU/CPU    GPU time over CPU time per dispatch: near 1, the device is kept busy",
	"  dropped    samples the screen was too slow to take (the log has them all)",
	"  Power-state changes  the level changes with the clock, P-state or a reason changing beside "
	"them, newest last; none detected: none yet",
	"  other changes  the level changes that are not a power-state change, and those unexplained, "
	"counted, the newest listed",
	"  excursions  departures that came back within 500 ms or 5 samples: how many, and their time",
	"  N other processes on DEVICE  who else holds a context on it now; p shows them",
};

typedef struct Dash {
	Screen *s;
	SampleSource *src;
	History h;           /* zoomed from the node view: its history, moved */
	SummaryResult stats; /* the source's, read at most every STATS_NS */
	uint64_t stats_ns;
	bool whole, help;
	bool clock_line;     /* the clock and power shown as a row of text: flat */
	ProcView procs;      /* the process table (p) */
	bool power_view;     /* the plot being drawn is the power workload's power and clock: its
	                        horizontal line is the limit, and it marks the changes and events
	                        though it has two lines */
	bool zoom;           /* zoomed from the node view */
	bool paused;
	int help_scroll;
	double t_origin;     /* the time axis' start: the first sample since the start or r; NaN before */
	char last_line[160];
	/* the loop's (screen_run) */
	const DashOptions *opt;
	bool *failed;
	DashExit how;
	EngineState last_state;
} Dash;

typedef struct Series {
	const double *y;
	ThemeRole role;
	const char *name;   /* in the legend where a plot has more than one line */
} Series;

/* The y axis of a plot's canvas: top, middle and bottom labels, and the
 * line under the canvas where the x labels go. */
static void draw_y_axis(Dash *d, Rect c, const PlotAxis *ay, const char *unit)
{
	char a[FMT_SI_LEN + 16], lab[48];
	double mid = ay->log ? sqrt(ay->min * ay->max) : 0.5 * (ay->min + ay->max);
	const double yv[3] = { ay->max, mid, ay->min };
	const int yr[3] = { c.y, c.y + (c.h - 1) / 2, c.y + c.h - 1 };
	attrset(screen_attr(d->s, ROLE_AXIS));
	for (int i = 0; i < 3; i++) {
		snprintf(lab, sizeof lab, "%*s", LAYOUT_YLABEL_W - 1, fmt_axis(yv[i], unit, a, sizeof a));
		mvaddnstr(yr[i], 0, lab, LAYOUT_YLABEL_W - 1);
		mvaddch(yr[i], LAYOUT_YLABEL_W - 1, ACS_VLINE);
	}
	mvhline(c.y + c.h, c.x, ACS_HLINE, c.w);
}

/* The legend, right-aligned on a plot's title row where it fits: each line
 * of a plot with several in its colour, the target, and the kinds of change
 * marked in view. */
static void draw_legend(Dash *d, Rect frame, const char *title, const Series *ser, size_t nser, bool target,
                        bool power_mark, bool other_mark, bool event_mark)
{
	Series key[8]; /* name and colour only */
	size_t nkey = 0;
	for (size_t i = 0; i < nser && nser > 1; i++)
		key[nkey++] = (Series){ NULL, ser[i].role, ser[i].name };
	if (target)
		key[nkey++] = (Series){ NULL, ROLE_TARGET_LINE, d->power_view ? "limit" : "target" };
	if (power_mark)
		key[nkey++] = (Series){ NULL, ROLE_JUMP_MARK, "| power-state change" };
	if (other_mark)
		key[nkey++] = (Series){ NULL, ROLE_AXIS, ": other change" };
	if (event_mark && !power_mark)
		key[nkey++] = (Series){ NULL, ROLE_JUMP_MARK, "| power-state event" };
	int kw = 0;
	for (size_t i = 0; i < nkey; i++)
		kw += (int)strlen(key[i].name) + 2;
	int lx = frame.w - kw - 1;
	if (!nkey || lx < (int)strlen(title) + 2)
		return;
	for (size_t i = 0; i < nkey; i++) {
		attrset(screen_attr(d->s, key[i].role) | A_BOLD);
		mvaddstr(frame.y, lx + 2, key[i].name);
		lx += (int)strlen(key[i].name) + 2;
	}
}

static void draw_plot(Dash *d, Rect frame, const char *title, const char *unit, bool logy,
                      const Series *ser, size_t nser, const double *target, size_t from,
                      double t0, double t1)
{
	Rect c = layout_canvas(frame);
	size_t n = d->h.n - from;
	attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
	char tl[300];
	snprintf(tl, sizeof tl, "%s", title);
	mvaddstr(frame.y, 0, layout_fit_words(tl, frame.w));
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
	if (!logy) /* round numbers at the top, middle and bottom labels */
		plot_axis_round(&ay, 2);

	PlotCanvas cv;
	if (!plot_canvas_init(&cv, c.w, c.h, d->s->braille))
		return;
	if (target)
		plot_hline(&cv, &ay, *target, (int)nser);
	/* level changes: a power-state change in the marker colour, others
	 * quiet; the kinds in view go in the legend */
	const ChangeDetector *cd = &d->stats.changes;
	bool power_mark = false, other_mark = false;
	bool marks = !logy && (nser == 1 || d->power_view);
	for (size_t j = 0; j < change_kept(cd) && marks; j++) {
		const Change *ch = change_get(cd, j);
		bool power = ch->cause == CAUSE_POWER_STATE;
		/* a power-state change solid, the others dotted: told apart by
		 * shape, not by colour alone */
		plot_vline(&cv, &ax, ch->t_ms * 1e-3, (int)nser + (power ? 1 : 2), !power);
		if (ch->t_ms * 1e-3 >= t0 && ch->t_ms * 1e-3 <= t1)
			*(power ? &power_mark : &other_mark) = true;
	}
	/* the telemetry's events (a cause on or off, the clock's step): solid,
	 * in the marker colour, whatever the throughput did */
	bool event_mark = false;
	for (size_t j = 0; j < d->stats.events.n && marks; j++) {
		double t = d->stats.events.ev[j].t_ms * 1e-3;
		plot_vline(&cv, &ax, t, (int)nser + 1, false);
		event_mark |= t >= t0 && t <= t1;
	}
	draw_legend(d, frame, title, ser, nser, target != NULL, power_mark, other_mark, event_mark);
	/* the first series drawn last, on top (the GPU time over the CPU's);
	 * a stretch without samples stays a gap */
	double gap = plot_gap(d->h.t_s + from, n, 1.0);
	for (size_t k = nser; k-- > 0;)
		plot_series_gaps(&cv, &ax, &ay, d->h.t_s + from, ser[k].y + from, n, (int)k, gap);
	ThemeRole roles[8];
	for (size_t k = 0; k < nser; k++)
		roles[k] = ser[k].role;
	roles[nser] = ROLE_TARGET_LINE;
	roles[nser + 1] = ROLE_JUMP_MARK;
	roles[nser + 2] = ROLE_AXIS;
	screen_put_canvas(d->s, &cv, c, roles);
	plot_canvas_done(&cv);

	/* labels: top, middle, bottom of the y axis; ends of the time axis */
	char lab[40];
	draw_y_axis(d, c, &ay, unit);
	snprintf(lab, sizeof lab, "%.1f s", t0);
	mvaddstr(c.y + c.h, c.x, lab);
	snprintf(lab, sizeof lab, "%.1f s", ax.max);
	mvaddstr(c.y + c.h, c.x + c.w - (int)strlen(lab), lab);
}

static void draw_header(Dash *d)
{
	SampleSource *src = d->src;
	EngineState st = src->state(src->ctx);
	char line[1024], state[16];
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
	char mode[32] = "";
	if (src->replay && src->ctl.speed) {
		double x = src->ctl.speed(src->ctl.ctx, 0);
		if (isinf(x))
			snprintf(mode, sizeof mode, " REPLAY max |");
		else
			snprintf(mode, sizeof mode, " REPLAY x%g |", x);
	}
	char tms[32];
	snprintf(line, sizeof line, "%s %.1f s | target %s | %s | %s", mode, d->h.last.t_ms * 1e-3,
	         fmt_ms(src->target_ms(src->ctx), tms, sizeof tms), src->workload, src->title);
	int x = getcurx(stdscr);
	mvaddstr(0, x, layout_fit_words(line, COLS - x));
	const char *log = src->log_path ? src->log_path : "off (--no-log)";
	for (int pass = 0; pass < 2; pass++) {
		snprintf(line, sizeof line, " times: %s | samples %zu | checks %llu ok | log %s",
		         src->timestamps ? "GPU timestamps + CPU wall" : "CPU wall clock (no timestamps)",
		         d->h.total, (unsigned long long)src->checks(src->ctx), log);
		/* a path longer than the line: its file name (the whole path is
		 * printed after quitting) */
		if ((int)strlen(line) <= COLS || !src->log_path || !strrchr(src->log_path, '/'))
			break;
		log = strrchr(src->log_path, '/') + 1;
	}
	mvaddnstr(1, 0, line, COLS);
}

/* Transfers: the median of each size's steady samples, bandwidth over size
 * (log2 x axis), where a sweep would otherwise plot its workgroups. */
static void draw_size_plot(Dash *d, Rect frame, const char *unit)
{
	const SummaryResult *r = &d->stats;
	Rect c = layout_canvas(frame);
	attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
	char title[80];
	snprintf(title, sizeof title, "%s by copy size (median of each size so far)", unit);
	mvaddnstr(frame.y, 0, title, frame.w);
	double x[SUMMARY_SIZES], y[SUMMARY_SIZES];
	size_t n = 0;
	for (size_t i = 0; i < r->nsizes; i++) {
		x[n] = log2((double)r->sizes[i].size);
		y[n++] = r->sizes[i].median;
	}
	PlotAxis ax = { n ? x[0] : 13, n ? x[0] + 2 : 15, false }, ay;
	plot_axis_fit(y, n, false, &ay);
	if (!(ay.max > ay.min)) {
		ay.min = 0;
		ay.max = n ? y[0] * 1.1 + 1 : 1;
	}
	ay.min = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] < ax.min) ax.min = x[i];
		if (x[i] > ax.max) ax.max = x[i];
	}
	PlotCanvas cv;
	if (!plot_canvas_init(&cv, c.w, c.h, d->s->braille))
		return;
	plot_series(&cv, &ax, &ay, x, y, n, 0);
	ThemeRole roles[2] = { ROLE_FLOPS_LINE, ROLE_TARGET_LINE };
	screen_put_canvas(d->s, &cv, c, roles);
	plot_canvas_done(&cv);
	char lab[40];
	draw_y_axis(d, c, &ay, unit);
	mem_size_str((uint64_t)exp2(ax.min), lab, sizeof lab);
	mvaddstr(c.y + c.h, c.x, lab);
	mem_size_str((uint64_t)exp2(ax.max), lab, sizeof lab);
	mvaddstr(c.y + c.h, c.x + c.w - (int)strlen(lab), lab);
}

/* The clock's limits over the window, and power's, where flat. */
typedef struct Flat {
	double clo, chi, plo, phi;
} Flat;

/* The clock plot (power as a second line drawn to its own scale, 0 .. its
 * maximum filling the same height, named in the title), or one row of text
 * while both are flat. */
/* The power workload's limit, where its plot is power against it (its
 * power and limit read); NaN for every other run. */
static double power_view_limit(const Dash *d)
{
	const Sample *ls = &d->h.last;
	int wl = d->src->workload ? workload_find(d->src->workload) : -1;
	if (wl < 0 || workload_info[wl].kind != WL_POWER || isnan(sample_power_w(ls)) ||
	    !sample_has_tel(ls, TEL_POWER_LIMIT_W) || !(ls->tel[TEL_POWER_LIMIT_W] > 0))
		return NAN;
	return ls->tel[TEL_POWER_LIMIT_W];
}

/* The power workload's panel: power against the limit (the target line),
 * the clock against its maximum (where known) drawn to the limit's
 * height; what holds the clock in the title; the changes and the
 * telemetry's events (the cap engaging) marked. */
static void draw_power_view(Dash *d, Rect r, double limit, size_t from, double t0, double t_end)
{
	const Sample *ls = &d->h.last;
	static double scaled[HISTORY_CAP];
	double cmax = d->src->max_mhz * 1e6;
	for (size_t i = 0; i < d->h.n && cmax > 0; i++)
		scaled[i] = d->h.clk_hz[i] / cmax * limit;
	Series ser[2] = { { d->h.power_w, ROLE_FLOPS_LINE, "power" }, { scaled, ROLE_GROUPS_LINE, "clock" } };
	char why[160], title[512];
	double w = sample_power_w(ls);
	throttle_names(sample_has_tel(ls, TEL_THROTTLE) ? (uint64_t)ls->tel[TEL_THROTTLE] : 0, why, sizeof why);
	int n = snprintf(title, sizeof title, "power %.0f of %.0f W limit (%.0f%%)", w, limit, 100 * w / limit);
	if (why[0])
		n += snprintf(title + n, sizeof title - (size_t)n, "  held by: %s", why);
	if (cmax > 0)
		snprintf(title + n, sizeof title - (size_t)n, "  clock %.0f of %.0f MHz", ls->tel[TEL_SM_MHZ],
		         d->src->max_mhz);
	d->power_view = true;
	draw_plot(d, r, title, "W", false, ser, cmax > 0 ? 2 : 1, &limit, from, t0, t_end);
	d->power_view = false;
}

static void draw_clock(Dash *d, Rect r, const Flat *f, bool power, size_t from, double t0, double t_end)
{
	double limit = power_view_limit(d);
	if (!isnan(limit)) {
		draw_power_view(d, r, limit, from, t0, t_end);
		return;
	}
	const Sample *ls = &d->h.last;
	/* the clock line, and power as a second line drawn to its own scale
	 * (0 .. its maximum fills the same height), named in the title */
	/* the clock against its maximum, where the telemetry gives one */
	enum { P_CLOCK, P_POWER, P_LINE, P_TEMP, P_PSTATE, P_HELD, P_OTHERS, P_COUNT };
	char part[P_COUNT][200] = { "" };
	if (d->src->max_mhz > 0)
		snprintf(part[P_CLOCK], sizeof part[P_CLOCK], "clock %.0f of %.0f MHz", ls->tel[TEL_SM_MHZ], d->src->max_mhz);
	else
		snprintf(part[P_CLOCK], sizeof part[P_CLOCK], "clock %.0f MHz", ls->tel[TEL_SM_MHZ]);
	static double scaled[HISTORY_CAP];
	Series ck[2] = { { d->h.clk_hz, ROLE_GROUPS_LINE, "clock" }, { scaled, ROLE_CPU_TIME, "power" } };
	size_t nser = 1;
	if (power) {
		char pw[64];
		sample_power_str(ls, pw, sizeof pw);
		snprintf(part[P_POWER], sizeof part[P_POWER], ", power %s", pw);
	}
	if (power && !d->clock_line) {
		/* the window's largest clock and power: plot_flat's, in draw() */
		double pmax = f->phi, cmax = f->chi;
		for (size_t i = 0; i < d->h.n; i++)
			scaled[i] = pmax > 0 ? d->h.power_w[i] / pmax * cmax : NAN;
		nser = 2;
		snprintf(part[P_LINE], sizeof part[P_LINE], " (line: 0..%.0f W)", pmax);
	}
	if (sample_has_tel(ls, TEL_TEMP_C))
		snprintf(part[P_TEMP], sizeof part[P_TEMP], "  %.0f C", ls->tel[TEL_TEMP_C]);
	if (sample_has_tel(ls, TEL_PSTATE))
		snprintf(part[P_PSTATE], sizeof part[P_PSTATE], "  P%.0f", ls->tel[TEL_PSTATE]);
	/* what holds the clock down now, not only at a change */
	char why[160];
	throttle_names(sample_has_tel(ls, TEL_THROTTLE) ? (uint64_t)ls->tel[TEL_THROTTLE] : 0, why, sizeof why);
	if (why[0])
		snprintf(part[P_HELD], sizeof part[P_HELD], "  held by: %s", why);
	/* others on the GPU (NVML's lists); their names are in the log's changes */
	if (sample_has_tel(ls, TEL_OTHER_GPU) && ls->tel[TEL_OTHER_GPU] > 0)
		snprintf(part[P_OTHERS], sizeof part[P_OTHERS], "  %.0f other process%s on the GPU", ls->tel[TEL_OTHER_GPU],
		         ls->tel[TEL_OTHER_GPU] == 1 ? "" : "es");
	/* too wide for the row (the plot's names take its right end): the
	 * least telling parts go first, whole, what holds the clock last */
	static const int drop[] = { P_LINE, P_PSTATE, P_TEMP, P_OTHERS, P_HELD };
	int room = r.w - (d->clock_line ? 0 : 16), len = 0;
	for (int k = 0; k < P_COUNT; k++)
		len += (int)strlen(part[k]);
	for (size_t k = 0; k < sizeof drop / sizeof *drop && len > room; k++) {
		len -= (int)strlen(part[drop[k]]);
		part[drop[k]][0] = '\0';
	}
	char title[1400];
	int n = 0;
	for (int k = 0; k < P_COUNT; k++)
		n += snprintf(title + n, sizeof title - (size_t)n, "%s", part[k]);
	if (d->clock_line) {
		n += snprintf(title + n, sizeof title - (size_t)n, "   flat over %.0f s: %.0f-%.0f MHz", t_end - t0,
		              f->clo * 1e-6, f->chi * 1e-6);
		if (power)
			snprintf(title + n, sizeof title - (size_t)n, ", %.0f-%.0f W", f->plo, f->phi);
		attrset(screen_attr(d->s, ROLE_TEXT) | A_BOLD);
		mvaddstr(r.y, 0, layout_fit_words(title, r.w));
	} else {
		draw_plot(d, r, title, "Hz", false, ck, nser, NULL, from, t0, t_end);
	}
}

/* The status line: a message or the run's error, then the keys as far as
 * the line allows. */
static void draw_status(Dash *d, int y, double t_end)
{
	SampleSource *src = d->src;
	const char *msg = d->s->message;
	ThemeRole role = (ThemeRole)d->s->message_role;
	const char *err = src->error(src->ctx), *lerr = src->log_error ? src->log_error(src->ctx) : NULL;
	if (err) {
		msg = err;
		role = ROLE_STATUS_ERROR;
	} else if (lerr) {
		msg = lerr;
		role = ROLE_STATUS_ERROR;
	}
	/* the keys stay in view after a message, as far as the line allows */
	double t0 = isnan(d->t_origin) ? 0 : d->t_origin;
	const char *keys = !d->whole && t_end - t0 > WHOLE_MAX_S ? "last 60 s (z: whole session)  space pause  r restart  ? help  q quit"
	                 : src->replay ? "space pause  </> speed  left/right seek  e end  . step  r restart  z window  t theme  ? help  q quit"
	                               : "space pause  r restart  d devices  w workload  +/- target  z window  t theme  S save  ? help  q quit";
	char line[1024];
	int at;
	layout_status_line(msg, keys, COLS, line, sizeof line, &at);
	mvhline(y, 0, ' ', COLS);
	attrset(screen_attr(d->s, role));
	mvaddnstr(y, 0, line, at);
	attrset(screen_attr(d->s, ROLE_AXIS));
	mvaddnstr(y, at, line + at, COLS - 1 - at);
}

static void draw(Dash *d)
{
	if (screen_too_small(d->s))
		return;
	double t_end = d->h.n ? d->h.t_s[d->h.n - 1] : 0, t0 = isnan(d->t_origin) ? 0 : d->t_origin;
	if (!d->whole && t_end - t0 > WHOLE_MAX_S)
		t0 = t_end - WINDOW_S;
	size_t from = history_from(&d->h, t0);
	const Sample *ls = &d->h.last;
	bool clock = sample_has_tel(ls, TEL_SM_MHZ), power = clock && !isnan(sample_power_w(ls));
	/* a clock flat over the window (within 1%, power within 10%) takes one
	 * row of text and gives the rest to the throughput; it becomes a plot
	 * again past 2% (20% for power), so that a clock at the edge does not
	 * make the layout flicker */
	double clo = 0, chi = 0, plo = 0, phi = 0;
	if (clock) {
		bool in = d->clock_line;
		bool cflat = plot_flat(d->h.clk_hz + from, d->h.n - from, in ? 0.02 : 0.01, &clo, &chi);
		bool pflat = !power || plot_flat(d->h.power_w + from, d->h.n - from, in ? 0.20 : 0.10, &plo, &phi);
		/* the power workload's power against its limit is always a plot */
		d->clock_line = cflat && pflat && isnan(power_view_limit(d));
	}
	Layout l;
	layout_compute(COLS, LINES, !clock ? LAYOUT_NO_CLOCK : d->clock_line ? LAYOUT_CLOCK_LINE : LAYOUT_CLOCK_PLOT, &l);
	erase();
	draw_header(d);
	double target = d->src->target_ms(d->src->ctx) * 1e-3;
	Series fl = { d->h.flops, ROLE_FLOPS_LINE, NULL };
	Series gr = { d->h.groups, ROLE_GROUPS_LINE, NULL };
	Series tm[2] = { { d->h.gpu_s, ROLE_GPU_TIME, "GPU" }, { d->h.cpu_s, ROLE_CPU_TIME, "CPU" } };
	/* the headline: the current figure, and the median at the target */
	char head[160], a[FMT_SI_LEN], b[FMT_SI_LEN];
	const char *u = sample_unit(&d->h.last);
	int hn = snprintf(head, sizeof head, "%s   now %s%s", u, fmt_si(d->h.last.rate, a, sizeof a), u);
	if (d->stats.flops.n && !d->h.last.size)
		snprintf(head + hn, sizeof head - (size_t)hn, "   median %s%s", fmt_si(d->stats.flops.median, b, sizeof b), u);
	else if (d->h.last.size)
		snprintf(head + hn, sizeof head - (size_t)hn, "   each size from its target (the growth between sizes left out)");
	draw_plot(d, l.flops, d->h.total ? head : u, u, false, &fl, 1, NULL, from, t0, t_end);
	if (clock)
		draw_clock(d, l.clock, &(Flat){ clo, chi, plo, phi }, power, from, t0, t_end);
	if (d->h.last.size)
		draw_size_plot(d, l.groups, sample_unit(&d->h.last));
	else
		draw_plot(d, l.groups, "workgroups (log)", "", true, &gr, 1, NULL, from, t0, t_end);
	/* a target moved by 4x or more within the window, or a stall of more
	 * than 4x the target: a log axis, so that every dispatch time stays
	 * readable */
	char ttl[160] = "dispatch time", why[120];
	bool tlog = history_times_log(&d->h, from, why, sizeof why);
	if (tlog)
		snprintf(ttl, sizeof ttl, "dispatch time (log: %s)", why);
	draw_plot(d, l.times, ttl, "s", tlog, tm, d->src->timestamps ? 2 : 1, &target, from, t0, t_end);
	PanelView pv = { d->s, &d->stats, &d->h.last, d->h.total, d->src->dropped(d->src->ctx), { .n = 0 },
	                 d->src->title };
	if (d->src->procs)
		d->src->procs(d->src->ctx, &pv.procs);
	panel_stats(&pv, l.stats);
	panel_jumps(&pv, l.jumps);

	draw_status(d, l.status.y, t_end);
	if (d->procs.open)
		proc_view_draw(d->s, &d->procs, &pv.procs, d->src->title);
	if (d->help)
		screen_help(d->s, " flopscope: keys and marks ", HELP, sizeof HELP / sizeof *HELP, &d->help_scroll);
	attrset(A_NORMAL);
	refresh();
}

/* The loop started over: the plots with it. The statistics are the
 * source's (a live run's cover every segment; a replay from its start
 * starts its own over): read again at once. */
static void restart(Dash *d)
{
	history_clear(&d->h);
	d->stats_ns = 0;
	d->t_origin = NAN;
}

/* + and -: round values (1, 2, 5, 10, 20, 50 ... ms) over the --target-ms
 * range: 20 ms is always one step away. */
static void dash_target(Dash *d, int dir)
{
	SampleSource *src = d->src;
	if (!src->ctl.set_target) {
		screen_message(d->s, ROLE_STATUS_WARN, "the target was recorded; it cannot change in a replay");
		return;
	}
	double t = adapt_target_step(src->target_ms(src->ctx), dir);
	src->ctl.set_target(src->ctl.ctx, t);
	char tms[32];
	screen_message(d->s, ROLE_STATUS_OK, "target %s", fmt_ms(t, tms, sizeof tms));
}

/* S: the theme, target and window as the defaults. */
static void dash_save(Dash *d, const DashOptions *opt)
{
	char msg[512];
	if (!opt->save) {
		screen_message(d->s, ROLE_STATUS_WARN, "settings cannot be saved from here");
		return;
	}
	bool ok = opt->save(opt->save_ctx, screen_theme_name(d->s), d->src->target_ms(d->src->ctx), d->whole, msg,
	                    sizeof msg);
	screen_message(d->s, ok ? ROLE_STATUS_OK : ROLE_STATUS_ERROR, "%s", msg);
}

/* A replay's speed and position: < > left right End e . */
static void dash_replay_move(Dash *d, KeyAction act)
{
	Screen *s = d->s;
	SampleSource *src = d->src;
	if (act == ACT_SLOWER || act == ACT_FASTER) {
		if (!src->ctl.speed) {
			screen_message(s, ROLE_STATUS_WARN, "< and > set the speed of a replay (--replay FILE)");
			return;
		}
		double x = src->ctl.speed(src->ctl.ctx, act == ACT_FASTER ? 1 : -1);
		if (isinf(x))
			screen_message(s, ROLE_STATUS_OK, "replay speed: as fast as the screen takes the samples (< slows)");
		else
			screen_message(s, ROLE_STATUS_OK, "replay speed x%g", x);
		return;
	}
	if (!src->ctl.seek) {
		screen_message(s, ROLE_STATUS_WARN, "left/right, End and . move through a replay (--replay FILE)");
		return;
	}
	if (act == ACT_STEP) {
		src->ctl.step(src->ctl.ctx);
		d->paused = true;
	} else if (src->ctl.seek(src->ctl.ctx, act == ACT_END ? INFINITY : act == ACT_SEEK_FWD ? 10e3 : -10e3)) {
		restart(d); /* played again from the start up to there */
	}
	double len, at = src->ctl.position(src->ctl.ctx, &len);
	char a[32], b[32];
	screen_message(s, ROLE_STATUS_OK, "%s%s of %s", act == ACT_STEP ? "paused, one sample on (. again, space "
	               "resumes): " : act == ACT_END ? "the end: " : "at ", fmt_ms(at, a, sizeof a), fmt_ms(len, b, sizeof b));
}

/* What a key's action does in the dashboard; false when the screen is left
 * (*how says how). */
static bool dash_key(Dash *d, const DashOptions *opt, KeyAction act, DashExit *how)
{
	Screen *s = d->s;
	SampleSource *src = d->src;
	if (act == ACT_QUIT)
		return false;
	if (act == ACT_BACK && (d->zoom || !src->replay)) { /* back one level (all devices, or the picker) */
		*how = DASH_BACK;
		return false;
	}
	if (COLS < LAYOUT_MIN_COLS || LINES < LAYOUT_MIN_ROWS)
		return true;
	if (opt->locked && (act == ACT_PAUSE || act == ACT_RESTART || act == ACT_DEVICES || act == ACT_TARGET_UP ||
	                    act == ACT_TARGET_DOWN || act == ACT_NEXT_WORKLOAD)) {
		screen_message(s, ROLE_STATUS_WARN, "%s", opt->locked);
		return true;
	}
	switch (act) {
	case ACT_PAUSE:
		d->paused = !d->paused;
		src->ctl.pause(src->ctl.ctx, d->paused);
		screen_message(s, ROLE_STATUS_WARN, d->paused ? "paused: space resumes" : "resumed");
		break;
	case ACT_RESTART:
		src->ctl.restart(src->ctl.ctx);
		if (src->replay)
			restart(d);
		screen_message(s, ROLE_STATUS_OK, src->replay ? "replay from the start"
		                                              : "restarting from 1 workgroup");
		break;
	case ACT_DEVICES:
		if (src->replay) {
			screen_message(s, ROLE_STATUS_WARN, "a replay has no devices to pick");
			break;
		}
		*how = DASH_BACK;
		return false;
	case ACT_TARGET_UP: case ACT_TARGET_DOWN:
		dash_target(d, act == ACT_TARGET_UP ? 1 : -1);
		break;
	case ACT_SLOWER: case ACT_FASTER: case ACT_SEEK_BACK: case ACT_SEEK_FWD: case ACT_END: case ACT_STEP:
		dash_replay_move(d, act);
		break;
	case ACT_NEXT_WORKLOAD:
		if (src->replay) {
			screen_message(s, ROLE_STATUS_WARN, "a replay shows the recorded workload");
			break;
		}
		*how = DASH_NEXT_WORKLOAD;
		return false;
	case ACT_WHOLE: {
		d->whole = !d->whole;
		double t_end = d->h.n ? d->h.t_s[d->h.n - 1] : 0, t0 = isnan(d->t_origin) ? 0 : d->t_origin;
		if (t_end - t0 <= WHOLE_MAX_S)
			screen_message(s, ROLE_STATUS_OK, "z: the whole session is in view (past %.0f s the plots show "
			               "the last %.0f s, and z all of it)", WHOLE_MAX_S, WINDOW_S);
		else
			screen_message(s, ROLE_STATUS_OK, d->whole ? "the whole session (z: the last %.0f s)"
			                                           : "the last %.0f s (z: the whole session)", WINDOW_S);
		break;
	}
	case ACT_THEME:
		screen_next_theme(s);
		break;
	case ACT_SAVE:
		dash_save(d, opt);
		break;
	case ACT_HELP:
		d->help = true;
		d->help_scroll = 0;
		break;
	default: /* nothing here: the node view's keys */
		break;
	}
	return true;
}

/* The samples ready, into the history and the statistics; whether any came. */
static bool dash_take(Dash *d)
{
	Sample smp;
	bool any = false;
	while (source_next(d->src, &smp)) {
		if (smp.seq == 0 && d->h.total)
			restart(d);
		history_add(&d->h, &smp);
		if (isnan(d->t_origin))
			d->t_origin = smp.t_ms * 1e-3;
		any = true;
	}
	return any;
}

/* The dashboard's history: moved in from the node view, or new; false
 * when it cannot be had. */
static bool dash_init(Dash *d, const DashOptions *opt)
{
	if (d->zoom) {
		d->h = *opt->history;
	} else if (!history_init(&d->h, HISTORY_CAP)) {
		screen_message(d->s, ROLE_STATUS_ERROR, "out of memory for the sample history");
		return false;
	}
	d->stats.ratio_median = NAN;
	d->stats.plateau_ms = NAN;
	d->stats.pct_peak = NAN;
	return true;
}

/* Leaving: back to the node view with everything, or the run stopped (the
 * log says why) and its last samples counted. */
static DashExit dash_leave(Dash *d, const DashOptions *opt, DashExit how, bool *failed, SummaryResult *summary)
{
	SampleSource *src = d->src;
	if (d->zoom) {
		/* the node view goes on with the device: nothing is stopped */
		src->summary(src->ctx, summary);
		*opt->history = d->h;
		return how;
	}
	if (src->ctl.note_stop) /* the log says why the run ended */
		src->ctl.note_stop(src->ctl.ctx, how == DASH_NEXT_WORKLOAD ? "workload change (w)"
		                         : how == DASH_BACK ? "device list (d)" : "quit");
	src->ctl.pause(src->ctl.ctx, false);
	src->ctl.stop(src->ctl.ctx);
	/* the screen may have shown the error before the loop saw it change */
	if (src->state(src->ctx) == ENGINE_ERROR)
		*failed = true;
	Sample smp;
	while (source_next(src, &smp)) /* the last samples, to the tap */
		;
	src->summary(src->ctx, summary);
	history_done(&d->h);
	return how;
}

/* A turn of the loop: the new samples, the run's state, the statistics
 * (4 times a second while it runs; at once when it has stopped, so that the
 * last figures on screen are the summary's and the log's). */
static unsigned dash_tick(void *ctx, uint64_t now, bool dirty)
{
	Dash *d = ctx;
	SampleSource *src = d->src;
	if (d->opt->idle && !d->opt->idle(d->opt->idle_ctx)) {
		d->how = DASH_BACK;
		return REACT_LEAVE;
	}
	dirty |= dash_take(d);
	dirty |= proc_view_tick(d->s, &d->procs, now);
	EngineState st = src->state(src->ctx);
	if (st != d->last_state) {
		d->last_state = st;
		dirty = true;
		if (st == ENGINE_ERROR)
			*d->failed = true;
	}
	bool still = st == ENGINE_DONE || st == ENGINE_ERROR || st == ENGINE_PAUSED;
	if (dirty && (still || now - d->stats_ns >= STATS_NS)) {
		src->summary(src->ctx, &d->stats);
		d->stats_ns = now;
	}
	return dirty ? REACT_REDRAW : 0;
}

static void dash_draw(void *ctx)
{
	draw(ctx);
}

static unsigned dash_on_key(void *ctx, KeyAction act, int ch)
{
	Dash *d = ctx;
	if (d->procs.open || ch == 'p') { /* the process table takes the keys while it is open */
		ProcTable t = { .n = 0 };
		if (d->src->procs)
			d->src->procs(d->src->ctx, &t);
		if (d->procs.open)
			proc_view_key(d->s, &d->procs, &t, ch);
		else if (d->src->procs)
			proc_view_open(&d->procs, d->src->ctl.procs);
		else
			screen_message(d->s, ROLE_STATUS_WARN, "no process list: %s", d->src->replay
			               ? "a replay's log has the others' count, not the processes" : "the driver gives none");
		return REACT_NOW;
	}
	return dash_key(d, d->opt, act, &d->how) ? 0 : REACT_LEAVE;
}

DashExit dashboard_run(Screen *s, SampleSource *src, const DashOptions *opt, bool *failed, SummaryResult *summary)
{
	memset(summary, 0, sizeof *summary);
	summary->ratio_median = NAN;
	summary->plateau_ms = NAN;
	summary->pct_peak = NAN;
	const uint64_t frame_ns = 1000000000ull / (opt->fps ? opt->fps : 10);
	Dash d = { .s = s, .src = src, .whole = opt->whole, .zoom = opt->history != NULL, .t_origin = NAN, .opt = opt,
	           .failed = failed, .how = DASH_QUIT, .last_state = ENGINE_READY };
	*failed = false;
	if (!dash_init(&d, opt))
		return DASH_BACK;
	if (d.h.n) /* zoomed from the node view: its history's start */
		d.t_origin = d.h.t_s[0];
	screen_run(s, &(ScreenHandlers){ .ctx = &d, .tick = dash_tick, .draw = dash_draw, .key = dash_on_key,
	                                 .help = &d.help, .help_scroll = &d.help_scroll, .frame_ns = frame_ns,
	                                 .timeout_ms = (int)(frame_ns / 1000000 < 100 ? frame_ns / 1000000 : 100) });
	return dash_leave(&d, opt, d.how, failed, summary);
}
