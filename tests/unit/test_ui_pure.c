/* The dashboard's pure pieces: themes, plot rasterising, layout, history. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include <curses.h>

#include "check.h"
#include "history.h"
#include "keys.h"
#include "layout.h"
#include "plot.h"
#include "fileio.h"
#include "theme.h"

static void theme_should_parse_roles_colours_and_attributes(void)
{
	const char *j = "{\"name\":\"t\",\"roles\":{\"flops_line\":{\"fg\":\"bright_green\",\"bg\":17,"
	                "\"attrs\":[\"bold\",\"underline\"]},\"axis\":{\"fg\":\"default\"}}}";
	Theme t;
	char err[256];
	CHECK(theme_parse(j, strlen(j), &t, err, sizeof err));
	CHECK_STR(t.name, "t");
	CHECK(t.role[ROLE_FLOPS_LINE].fg == 10 && t.role[ROLE_FLOPS_LINE].bg == 17);
	CHECK(t.role[ROLE_FLOPS_LINE].attrs == (THEME_BOLD | THEME_UNDERLINE));
	CHECK(t.role[ROLE_AXIS].fg == THEME_DEFAULT_COLOR);
	/* a role named starts blank, not from the built-in dark theme; roles
	 * left out take the theme's own text style (here: none given, blank) */
	CHECK(t.role[ROLE_AXIS].attrs == 0 && t.role[ROLE_AXIS].bg == THEME_DEFAULT_COLOR);
	CHECK(t.role[ROLE_HEADER].fg == THEME_DEFAULT_COLOR && t.role[ROLE_HEADER].bg == THEME_DEFAULT_COLOR);
	const char *k = "{\"roles\":{\"text\":{\"fg\":\"white\"},\"axis\":{\"attrs\":[\"dim\"]}}}";
	CHECK(theme_parse(k, strlen(k), &t, err, sizeof err));
	CHECK(t.role[ROLE_AXIS].fg == THEME_DEFAULT_COLOR && t.role[ROLE_AXIS].attrs == THEME_DIM);
	CHECK(t.role[ROLE_JUMP_MARK].fg == 7);
}

static void theme_should_name_what_is_wrong(void)
{
	Theme t;
	char err[256];
	const char *cases[][2] = {
		{ "{\"roles\":{\"flop_line\":{}}}", "unknown role \"flop_line\"" },
		{ "{\"roles\":{\"axis\":{\"fg\":\"purple\"}}}", "\"purple\" is not a colour" },
		{ "{\"roles\":{\"axis\":{\"fg\":256}}}", "256 is not a colour" },
		{ "{\"roles\":{\"axis\":{\"attrs\":[\"blink\"]}}}", "unknown attribute \"blink\"" },
		{ "{\"roles\":{\"axis\":{\"colour\":1}}}", "unknown key \"colour\"" },
		{ "{\"roles\":[]}", "\"roles\" must be an object" },
		{ "{\n\"roles\": {\n  \"axis\": { \"fg\": 1, }\n}}", "not valid JSON (line 3)" },
		{ "[1,2]", "top level must be an object" },
		{ "{\"name\":5,\"roles\":{}}", "\"name\" must be a string" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		bool ok = theme_parse(cases[i][0], strlen(cases[i][0]), &t, err, sizeof err);
		CHECK(!ok);
		if (!ok && !strstr(err, cases[i][1]))
			fprintf(stderr, "  case %zu: \"%s\" lacks \"%s\"\n", i, err, cases[i][1]), check_failed_now = 1;
		CHECK(!strcmp(t.name, "dark (built in)")); /* falls back to the default */
	}
	/* deeply nested input is refused, not a crash */
	size_t depth = 5000;
	char *deep = malloc(2 * depth + 1);
	memset(deep, '[', depth);
	memset(deep + depth, ']', depth);
	deep[2 * depth] = '\0';
	CHECK(!theme_parse(deep, 2 * depth, &t, err, sizeof err));
	free(deep);
}

static void shipped_themes_should_load(void)
{
	char names[8][64];
	size_t n = theme_list("themes", names, 8);
	CHECK(n >= 3);
	const char *want[] = { "dark", "light", "mono" };
	for (size_t w = 0; w < 3; w++) {
		Theme t;
		char err[600];
		CHECK(theme_load(want[w], "themes", &t, err, sizeof err));
		CHECK_STR(t.name, want[w]);
		/* every shipped theme names every role */
		char path[64], *json;
		size_t len;
		snprintf(path, sizeof path, "themes/%s.json", want[w]);
		CHECK((json = fileio_read(path, 1 << 20, &len, err, sizeof err)) != NULL);
		for (int r = 0; json && r < ROLE_COUNT; r++) {
			char key[48];
			snprintf(key, sizeof key, "\"%s\"", theme_role_names[r]);
			if (!strstr(json, key))
				fprintf(stderr, "  %s lacks role %s\n", path, key), check_failed_now = 1;
		}
		free(json);
		/* mono: no colour in any role */
		for (int r = 0; !strcmp(want[w], "mono") && r < ROLE_COUNT; r++)
			CHECK(t.role[r].fg == THEME_DEFAULT_COLOR && t.role[r].bg == THEME_DEFAULT_COLOR);
	}
	Theme t;
	char err[600];
	CHECK(!theme_load("nosuch", "themes", &t, err, sizeof err));
	CHECK(strstr(err, "themes/nosuch.json: No such file"));
	/* a theme file over 1 MiB is refused, not parsed */
	char path[64];
	snprintf(path, sizeof path, "/tmp/flopscope-huge-%d.json", (int)getpid());
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("{\"roles\":{}, \"pad\":\"", f);
		for (int i = 0; i < (1 << 20); i++)
			fputc('x', f);
		fputs("\"}", f);
		fclose(f);
		CHECK(!theme_load(path, "themes", &t, err, sizeof err));
		CHECK(strstr(err, "is larger than 1048576 bytes"));
		remove(path);
	}
	/* a folder, a FIFO (with no writer or an idle one: never read, a read
	 * could wait for ever), a device, a symbolic-link loop: each refused
	 * with why */
	char fifo[64], loop_a[64], loop_b[64];
	snprintf(fifo, sizeof fifo, "/tmp/flopscope-fifo-%d.json", (int)getpid());
	snprintf(loop_a, sizeof loop_a, "/tmp/flopscope-loopa-%d.json", (int)getpid());
	snprintf(loop_b, sizeof loop_b, "/tmp/flopscope-loopb-%d.json", (int)getpid());
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK(symlink(loop_b, loop_a) == 0 && symlink(loop_a, loop_b) == 0);
	const char *cases[][2] = {
		{ "/tmp/", "/tmp/ is a folder, not a file" },
		{ fifo, "is a FIFO, not a regular file" },
		{ "/dev/zero", "is a device, not a regular file" },
		{ loop_a, "Too many levels of symbolic links" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		CHECK(!theme_load(cases[i][0], "themes", &t, err, sizeof err));
		if (!strstr(err, cases[i][1]))
			fprintf(stderr, "  %s: %s\n", cases[i][0], err), check_failed_now = 1;
	}
	unlink(fifo);
	unlink(loop_a);
	unlink(loop_b);
}

/* Compares the canvas, row by row, with a file under tests/golden/. */
static void check_golden(const PlotCanvas *c, const char *path)
{
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	char want[256], got[256];
	for (int r = 0; r < c->h; r++) {
		if (!fgets(want, sizeof want, f)) {
			CHECK(!"golden file too short");
			break;
		}
		want[strcspn(want, "\n")] = '\0';
		plot_row_text(c, r, got, sizeof got);
		CHECK_STR(got, want);
	}
	fclose(f);
}

static void plot_should_draw_braille_goldens(void)
{
	/* a ramp then a plateau, 8 x 3 cells (16 x 12 dots) */
	const double x[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const double y[] = { 0, 2, 4, 6, 6, 6, 6, 6 };
	PlotAxis ax = { 0, 7, false }, ay = { 0, 6, false };
	PlotCanvas c;
	CHECK(plot_canvas_init(&c, 8, 3, true));
	plot_series(&c, &ax, &ay, x, y, 8, 0);
	check_golden(&c, "tests/golden/plot_braille.txt");
	CHECK(c.series[0] == 0 && c.series[2 * 8] == 1);
	plot_canvas_done(&c);
}

static void axes_should_take_round_steps(void)
{
	CHECK(plot_nice_step(10, 5) == 2);
	CHECK(plot_nice_step(201e9, 4) == 100e9);   /* 50.25 G a tick: 100 G */
	CHECK(plot_nice_step(60, 6) == 10);
	CHECK(fabs(plot_nice_step(0.0172, 4) - 0.005) < 1e-15);
	CHECK(plot_nice_step(0, 4) == 1 && plot_nice_step(-3, 4) == 1);
	PlotAxis a = { 0, 201e9 * 1.05, false };
	double step = plot_axis_round(&a, 4);
	CHECK(step == 100e9 && a.min == 0 && a.max == 300e9);
	a = (PlotAxis){ 37.3, 61.9, false };
	step = plot_axis_round(&a, 5);
	CHECK(step == 10 && a.min == 30 && a.max == 70); /* 35..65 in 5s would be 6 intervals */
	/* never more intervals than asked */
	for (double hi = 0.11; hi < 1e6; hi *= 1.37) {
		a = (PlotAxis){ 0, hi, false };
		step = plot_axis_round(&a, 5);
		CHECK((a.max - a.min) / step <= 5 + 1e-9 && a.max >= hi);
	}
}

static void plot_should_draw_ascii_without_utf8(void)
{
	const double x[] = { 0, 1, 2, 3 };
	const double y[] = { 0, 1, 2, 2 };
	PlotAxis ax = { 0, 3, false }, ay = { 0, 2, false };
	PlotCanvas c;
	CHECK(plot_canvas_init(&c, 4, 2, false));
	plot_series(&c, &ax, &ay, x, y, 4, 0);
	check_golden(&c, "tests/golden/plot_ascii.txt");
	plot_canvas_done(&c);
}

static void plot_should_clip_and_break_on_nan(void)
{
	const double x[] = { 0, 1, 2, 3 };
	const double y[] = { 1, NAN, 1e300, 1 };
	PlotAxis ax = { 0, 3, false }, ay = { 0, 2, false };
	PlotCanvas c;
	CHECK(plot_canvas_init(&c, 4, 2, true));
	plot_series(&c, &ax, &ay, x, y, 4, 0);
	plot_hline(&c, &ay, 5, 1); /* off the axis: nothing */
	int set = 0;
	for (int i = 0; i < 8; i++)
		set += c.bits[i] != 0;
	CHECK(set == 2); /* the two finite, in-range points alone */
	plot_canvas_done(&c);
}

/* Change markers differ in shape, not only in colour: a solid line has a
 * dot in every dot row of its column, a dotted one in every other. */
static void vlines_should_be_solid_or_dotted(void)
{
	PlotAxis ax = { 0, 10, false };
	for (int braille = 0; braille < 2; braille++) {
		PlotCanvas c;
		CHECK(plot_canvas_init(&c, 10, 4, braille));
		plot_vline(&c, &ax, 0, 0, false);
		plot_vline(&c, &ax, 10, 1, true);
		int solid = 0, dotted = 0;
		for (int row = 0; row < 4; row++) {
			uint8_t a = c.bits[(size_t)row * 10], b = c.bits[(size_t)row * 10 + 9];
			for (int bit = 0; bit < 8; bit++) {
				solid += (a >> bit) & 1;
				dotted += (b >> bit) & 1;
			}
		}
		int rows = 4 * c.dy;
		CHECK(solid == rows && dotted == rows / 2);
		plot_canvas_done(&c);
	}
}

/* A flat series: within rel of its largest value; NaN skipped; nothing, or
 * nothing positive, is not flat. */
static void plot_flat_should_tell_a_flat_series(void)
{
	double lo = -1, hi = -1;
	const double clk[] = { 1980e6, NAN, 1975e6, 1980e6 };
	CHECK(plot_flat(clk, 4, 0.01, &lo, &hi) && lo == 1975e6 && hi == 1980e6);
	const double drop[] = { 1980e6, 1980e6, 1755e6 }; /* a power-state change */
	CHECK(!plot_flat(drop, 3, 0.01, &lo, &hi) && lo == 1755e6);
	CHECK(plot_flat(drop, 3, 0.2, &lo, &hi));
	const double none[] = { NAN, NAN }, zero[] = { 0, 0 };
	CHECK(!plot_flat(none, 2, 0.01, &lo, &hi));
	CHECK(!plot_flat(zero, 2, 0.01, &lo, &hi));
	CHECK(!plot_flat(clk, 0, 0.01, &lo, &hi));
}

static void plot_axis_fit_should_pick_readable_ranges(void)
{
	const double v[] = { 3e12, NAN, 6e12 };
	PlotAxis a;
	plot_axis_fit(v, 3, false, &a);
	CHECK(a.min == 0 && a.max > 6e12 && a.max < 6.5e12);
	const double g[] = { 1, 10, 48000 };
	plot_axis_fit(g, 3, true, &a);
	CHECK(a.min == 1 && a.max == 1e5);
	plot_axis_fit(v, 0, true, &a);
	CHECK(a.min == 1 && a.max == 10);
}

static bool inside(Rect r, int cols, int rows)
{
	return r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}

static bool overlap(Rect a, Rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static void layout_should_tile_without_overlap(void)
{
	const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 300, 90 }, { 81, 25 } };
	for (size_t s = 0; s < 12; s++) {
		Layout l;
		int c = sizes[s % 4][0], r = sizes[s % 4][1];
		bool clock = s >= 4, line = s >= 8;
		layout_compute(c, r, line ? LAYOUT_CLOCK_LINE : clock ? LAYOUT_CLOCK_PLOT : LAYOUT_NO_CLOCK, &l);
		CHECK(!l.too_small);
		Rect all[] = { l.header, l.flops, l.groups, l.times, l.stats, l.jumps, l.status, l.clock };
		size_t n = clock ? 8 : 7;
		for (size_t i = 0; i < n; i++) {
			CHECK(inside(all[i], c, r));
			for (size_t j = i + 1; j < n; j++)
				CHECK(!overlap(all[i], all[j]));
		}
		if (line) {
			/* one row of text; the throughput gets the rest */
			Layout p;
			layout_compute(c, r, LAYOUT_CLOCK_PLOT, &p);
			CHECK(l.clock.h == 1 && l.clock.y == l.flops.y + l.flops.h);
			CHECK(l.flops.h == p.flops.h + p.clock.h - 1);
		} else if (clock) {
			CHECK(layout_canvas(l.clock).h >= 2 && layout_canvas(l.flops).h >= 3);
		} else {
			CHECK(l.clock.h == 0);
		}
		Rect cv = layout_canvas(l.times);
		CHECK(cv.h >= 2 && cv.w >= 30);
		CHECK(l.flops.h >= l.groups.h);
	}
	Layout l;
	layout_compute(79, 24, LAYOUT_NO_CLOCK, &l);
	CHECK(l.too_small);
	layout_compute(80, 23, LAYOUT_CLOCK_PLOT, &l);
	CHECK(l.too_small);
	layout_compute(20, 5, LAYOUT_NO_CLOCK, &l);
	CHECK(l.too_small);
}

/* Several devices: every panel and the table inside the screen, none
 * overlapping, each panel at least 2 rows and 40 columns, from 2 to 8
 * devices at 80x24, 160x48 and 200x60. */
static void node_layout_should_fit_2_to_8_devices(void)
{
	const int sizes[][2] = { { 80, 24 }, { 160, 48 }, { 200, 60 } };
	for (size_t s = 0; s < 3; s++)
		for (size_t n = 1; n <= 8; n++) {
			int c = sizes[s][0], r = sizes[s][1];
			NodeLayout l;
			layout_node(c, r, n, &l);
			CHECK(!l.too_small);
			CHECK(inside(l.header, c, r) && inside(l.table, c, r) && inside(l.status, c, r));
			CHECK(l.table.h == (int)n + 2);
			for (size_t k = 0; k < n; k++) {
				CHECK(inside(l.panel[k], c, r));
				CHECK(l.panel[k].h >= 2 && l.panel[k].w >= NODE_PANEL_MIN_W);
				CHECK(!overlap(l.panel[k], l.table) && !overlap(l.panel[k], l.header));
				for (size_t j = k + 1; j < n; j++)
					CHECK(!overlap(l.panel[k], l.panel[j]));
			}
		}
	NodeLayout l;
	/* two devices on 80x24: stacked, with room for a plot */
	layout_node(80, 24, 2, &l);
	CHECK(l.columns == 1 && l.panel[0].h >= NODE_PANEL_GOOD_H);
	/* eight on 80x24: two columns of four, 3 rows each */
	layout_node(80, 24, 8, &l);
	CHECK(l.columns == 2 && l.panel[0].h == 3);
	/* too many for the screen, or none */
	layout_node(80, 24, 16, &l);
	CHECK(l.too_small);
	layout_node(80, 24, 0, &l);
	CHECK(l.too_small);
	layout_node(79, 24, 2, &l);
	CHECK(l.too_small);
	/* what a view too small says it needs: 16 devices take 36 rows at 80
	 * columns (2 panels a row, 8 rows of 2), 28 at 160 (4 a row) */
	CHECK(layout_node_rows(80, 16) == 36 && layout_node_rows(160, 16) == 28);
	CHECK(layout_node_rows(80, 8) == LAYOUT_MIN_ROWS && layout_node_rows(79, 2) == 0 &&
	      layout_node_rows(80, NODE_MAX + 1) == 0);
	layout_node(80, 35, 16, &l);
	CHECK(l.too_small);
	layout_node(80, 36, 16, &l);
	CHECK(!l.too_small);
}

static void history_should_stay_bounded_and_keep_the_whole_shape(void)
{
	History h;
	CHECK(history_init(&h, 8));
	for (uint64_t i = 0; i < 100; i++) {
		Sample s = { .seq = i, .t_ms = (double)i, .rate = (double)i, .groups = 1,
		             .cpu_ns = 1000, .gpu_ns = 900, .flags = SAMPLE_GPU_TIMED };
		history_add(&h, &s);
	}
	CHECK(h.n <= 8 && h.n >= 4);
	CHECK(h.total == 100 && h.last.seq == 99);
	CHECK(h.t_s[0] == 0.0);                 /* the start is kept */
	CHECK(h.t_s[h.n - 1] >= 0.064);         /* and the recent past */
	for (size_t i = 1; i < h.n; i++)
		CHECK(h.t_s[i] > h.t_s[i - 1]);
	CHECK_NEAR(h.gpu_s[0], 900e-9, 1e-15);
	CHECK(history_from(&h, 0.05) < h.n && h.t_s[history_from(&h, 0.05)] >= 0.05);
	history_clear(&h);
	CHECK(h.n == 0 && h.total == 0 && h.stride == 1);
	history_done(&h);
}

/* The level now: its last seconds' median, not the run's (the node view
 * holds it to its peers' levels now). */
static void history_level_now_should_be_the_last_seconds_median(void)
{
	History h;
	CHECK(history_init(&h, 4096));
	CHECK(isnan(history_level_now(&h, 3)));
	/* 10 s at 100, then 4 s at 30, a sample every 10 ms */
	for (uint64_t i = 0; i < 1400; i++) {
		Sample s = { .seq = i, .t_ms = 10.0 * (double)i, .rate = i < 1000 ? 100 : 30, .groups = 1,
		             .cpu_ns = 1000, .gpu_ns = 900, .flags = SAMPLE_GPU_TIMED | SAMPLE_STEADY };
		history_add(&h, &s);
	}
	CHECK_NEAR(history_level_now(&h, 3), 30, 1e-9);
	CHECK_NEAR(history_level_now(&h, 1e9), 100, 1e-9); /* the whole run: still the first level's */
	history_done(&h);
}

/* A sweep of copy sizes: the first growth is drawn, each later size's
 * regrowth is a gap; FMA runs (no size) keep every sample; a clear starts
 * over. */
static void history_should_leave_a_sweeps_regrowth_out(void)
{
	History h;
	CHECK(history_init(&h, 64));
	const struct { uint32_t size; bool steady; double rate; bool drawn; } in[] = {
		{ 4096, false, 1e6, true }, { 4096, false, 1e8, true }, { 4096, true, 1e9, true },
		{ 4096, true, 1e9, true }, { 65536, false, 2e6, false }, { 65536, false, 2e8, false },
		{ 65536, true, 5e9, true }, { 0, false, 3.0, true },
	};
	for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
		Sample s = { .seq = i, .t_ms = (double)i, .rate = in[i].rate, .groups = 1, .size = in[i].size,
		             .flags = in[i].steady ? SAMPLE_STEADY : 0 };
		history_add(&h, &s);
		CHECK(h.n == i + 1);
		CHECK(in[i].drawn ? h.flops[i] == in[i].rate : isnan(h.flops[i]));
		CHECK(h.groups[i] == 1); /* the other series keep every sample */
	}
	history_clear(&h);
	Sample g = { .rate = 7, .size = 65536 };
	history_add(&h, &g);
	CHECK(h.flops[0] == 7); /* a restart's growth is the first again */
	history_done(&h);
}

/* The targets in view: what the dispatch plot's log axis is decided on. */
static void history_should_tell_the_targets_in_view(void)
{
	History h;
	CHECK(history_init(&h, 64));
	double lo, hi;
	CHECK(!history_target_span(&h, 0, &lo, &hi));
	const double targets[6] = { 0, 20, 20, 50, 100, 100 }; /* 0: unknown (an old log) */
	for (int i = 0; i < 6; i++) {
		Sample s = { .t_ms = 100.0 * i, .rate = 1e9, .target_ms = targets[i] };
		history_add(&h, &s);
	}
	CHECK(isnan(h.target_s[0]) && h.target_s[1] == 0.02);
	CHECK(history_target_span(&h, 0, &lo, &hi) && lo == 0.02 && hi == 0.1);
	CHECK(history_target_span(&h, 4, &lo, &hi) && lo == 0.1 && hi == 0.1);
	CHECK(!history_target_span(&h, 6, &lo, &hi));
	history_done(&h);
}

/* The dispatch-time plot turns logarithmic for a target moved 4x or more,
 * or for one dispatch over 4x the target (a stall), and says which. */
static void history_should_log_the_times_for_a_stall_or_a_new_target(void)
{
	History h;
	CHECK(history_init(&h, 64));
	char why[120];
	for (int i = 0; i < 10; i++) {
		Sample s = { .t_ms = 20.0 * i, .rate = 1e9, .target_ms = 20, .flags = SAMPLE_GPU_TIMED,
		             .gpu_ns = 20000000, .cpu_ns = 21000000 };
		history_add(&h, &s);
	}
	CHECK(!history_times_log(&h, 0, why, sizeof why) && !why[0]);
	CHECK_NEAR(history_longest(&h, 0), 0.021, 1e-12);
	/* 79 ms (< 4x): still linear; 500 ms: log, and why */
	Sample slow = { .t_ms = 300, .rate = 1e9, .target_ms = 20, .flags = SAMPLE_GPU_TIMED, .gpu_ns = 79000000,
	                .cpu_ns = 79000000 };
	history_add(&h, &slow);
	CHECK(!history_times_log(&h, 0, why, sizeof why));
	Sample stall = slow;
	stall.t_ms = 900;
	stall.cpu_ns = 500000000;
	history_add(&h, &stall);
	CHECK(history_times_log(&h, 0, why, sizeof why));
	CHECK_STR(why, "a dispatch of 500 ms, 25x the target");
	/* out of view: linear again */
	CHECK(!history_times_log(&h, h.n, why, sizeof why));
	/* a target moved 5x */
	Sample moved = { .t_ms = 1000, .rate = 1e9, .target_ms = 100, .flags = SAMPLE_GPU_TIMED, .gpu_ns = 100000000,
	                 .cpu_ns = 100000000 };
	history_add(&h, &moved);
	CHECK(history_times_log(&h, 10, why, sizeof why));
	CHECK_STR(why, "targets 20 ms-100 ms in view");
	history_done(&h);
}

/* Every screen's last line keeps help and quit in view at 80 columns,
 * whatever the message; the other keys fill what is left, each whole. */
static void status_line_should_keep_help_and_quit_at_80_columns(void)
{
	const char *keys = "space pause  r restart  d devices  w workload  +/- target  z window  t theme  S save  ? help  q quit";
	char line[512];
	int at;
	layout_status_line("", keys, 200, line, sizeof line, &at);
	CHECK_STR(line, keys);
	CHECK(at == 0);
	layout_status_line("", keys, 80, line, sizeof line, &at);
	CHECK_STR(line, "space pause  r restart  d devices  w workload  +/- target  ? help  q quit");
	CHECK(strlen(line) <= 79);
	layout_status_line("restarting from 1 workgroup", keys, 80, line, sizeof line, &at);
	CHECK_STR(line, "restarting from 1 workgroup   space pause  r restart  d devices  ? help  q quit");
	CHECK(at == 30 && strlen(line) <= 79);
	/* a message longer than the line: cut, the essentials kept */
	char msg[300];
	memset(msg, 'x', sizeof msg - 1);
	msg[sizeof msg - 1] = '\0';
	layout_status_line(msg, keys, 80, line, sizeof line, &at);
	CHECK(strlen(line) == 79 && strstr(line, "...   ? help  q quit") && at == 65);
	/* a key item with a single space inside stays whole */
	layout_status_line("", "last 60 s (z: whole session)  space pause  ? help  q quit", 45, line, sizeof line, &at);
	CHECK_STR(line, "last 60 s (z: whole session)  ? help  q quit");
}

/* One map for both live screens: the keys their help names, each to one
 * action; a digit picks a device, other keys do nothing. */
static void keys_should_map_each_key_to_one_action(void)
{
	CHECK(keys_action('q') == ACT_QUIT && keys_action('Q') == ACT_QUIT && keys_action(KEY_F(10)) == ACT_QUIT);
	CHECK(keys_action(27) == ACT_BACK && keys_action('d') == ACT_DEVICES);
	CHECK(keys_action('?') == ACT_HELP && keys_action('h') == ACT_HELP && keys_action(KEY_F(1)) == ACT_HELP);
	CHECK(keys_action(' ') == ACT_PAUSE && keys_action('r') == ACT_RESTART);
	CHECK(keys_action('+') == ACT_TARGET_UP && keys_action('=') == ACT_TARGET_UP);
	CHECK(keys_action('-') == ACT_TARGET_DOWN && keys_action('_') == ACT_TARGET_DOWN);
	CHECK(keys_action('<') == ACT_SLOWER && keys_action('>') == ACT_FASTER);
	CHECK(keys_action('w') == ACT_NEXT_WORKLOAD && keys_action('z') == ACT_WHOLE && keys_action('t') == ACT_THEME);
	CHECK(keys_action('S') == ACT_SAVE && keys_action('s') == ACT_SORT); /* s: the fleet view's order */
	CHECK(keys_action('m') == ACT_MODEL && keys_action('f') == ACT_FILTER);
	CHECK(keys_action(KEY_PPAGE) == ACT_PAGE_UP && keys_action(KEY_NPAGE) == ACT_PAGE_DOWN);
	CHECK(keys_action(KEY_UP) == ACT_UP && keys_action('k') == ACT_UP && keys_action('j') == ACT_DOWN);
	CHECK(keys_action('\n') == ACT_ENTER && keys_action(KEY_ENTER) == ACT_ENTER && keys_action(KEY_RESIZE) == ACT_RESIZE);
	CHECK(keys_action('1') == ACT_PICK && keys_digit('1') == 0 && keys_digit('9') == 8);
	CHECK(keys_action('0') == ACT_NONE && keys_digit('0') == -1 && keys_digit('a') == -1);
	CHECK(keys_action('x') == ACT_NONE);
}

static void fit_words_should_cut_between_parts(void)
{
	char s[200];
	/* the header at 80 columns: the device's name whole, its open
	 * parenthesis gone */
	snprintf(s, sizeof s, " REPLAY x1 | 12.0 s | target 20 ms | fp32 | Golden GPU A (queue 0, DiscreteGpu), "
	         "recorded 2026-01-02T03:04:05Z");
	CHECK_STR(layout_fit_words(s, 70), " REPLAY x1 | 12.0 s | target 20 ms | fp32 | Golden GPU A");
	/* a plot title: whole items (two spaces apart), "70 C" not cut */
	snprintf(s, sizeof s, "clock 1410 MHz, power 299 W (line: 0..351 W)  70 C  P0");
	CHECK_STR(layout_fit_words(s, 49), "clock 1410 MHz, power 299 W (line: 0..351 W)");
	snprintf(s, sizeof s, "clock 1410 MHz, power 299 W (line: 0..351 W)  70 C  P0");
	CHECK_STR(layout_fit_words(s, 40), "clock 1410 MHz, power 299 W");
	/* fits: unchanged; one long word: cut */
	snprintf(s, sizeof s, "fits");
	CHECK_STR(layout_fit_words(s, 4), "fits");
	snprintf(s, sizeof s, "abcdefgh");
	CHECK_STR(layout_fit_words(s, 5), "abcde");
	CHECK_STR(layout_fit_words(s, 0), "");
}

int main(void)
{
	RUN(vlines_should_be_solid_or_dotted);
	RUN(fit_words_should_cut_between_parts);
	RUN(status_line_should_keep_help_and_quit_at_80_columns);
	RUN(history_should_log_the_times_for_a_stall_or_a_new_target);
	RUN(history_level_now_should_be_the_last_seconds_median);
	RUN(keys_should_map_each_key_to_one_action);
	RUN(node_layout_should_fit_2_to_8_devices);
	RUN(axes_should_take_round_steps);
	RUN(theme_should_parse_roles_colours_and_attributes);
	RUN(theme_should_name_what_is_wrong);
	RUN(shipped_themes_should_load);
	RUN(plot_should_draw_braille_goldens);
	RUN(plot_should_draw_ascii_without_utf8);
	RUN(plot_should_clip_and_break_on_nan);
	RUN(plot_axis_fit_should_pick_readable_ranges);
	RUN(plot_flat_should_tell_a_flat_series);
	RUN(layout_should_tile_without_overlap);
	RUN(history_should_stay_bounded_and_keep_the_whole_shape);
	RUN(history_should_leave_a_sweeps_regrowth_out);
	RUN(history_should_tell_the_targets_in_view);
	return CHECK_DONE();
}
