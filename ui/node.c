#include "node.h"
#include "clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adapt.h"
#include "cli.h"
#include "fmt.h"
#include "history.h"
#include "keys.h"
#include "layout.h"
#include "node_group.h"
#include "outlier.h"
#include "plot.h"
#include "summary.h"
#include "throttle.h"
#include "workload.h"

#define STATS_NS (250 * 1000 * 1000ull)  /* statistics refreshed 4 times a second */
#define WINDOW_S 60.0                    /* each panel shows the last minute */
#define HISTORY_CAP 4096

static const char *const HELP[] = {
	"1-9 / Enter  the device (or the highlighted row) in the full dashboard; there d or Esc "
	"comes back here",
	"up / down    move the highlighted row",
	"space        pause / resume every device",
	"r            restart every device from 1 workgroup",
	"+ / -        every device's target: next round value",
	"w            next workload every device runs",
	"d, Esc       back to the device picker",
	"t            next colour theme",
	"F1 ? h       this help",
	"F10 q        quit and print the table (Ctrl-C too)",
	"",
	"Panels: each device's current figure, % of peak, median, clock, power and temperature; "
	"its throughput over the whole run (then the last 60 s) on one scale for all devices, so "
	"the slow one shows",
	"Table: now, the median of the samples at the target time, % of peak, of peers (its median "
	"over the median of the devices of the same name), result checks passed, level changes "
	"(power-state/other), status",
	"OUTLIER: more than the --outlier threshold (default 5%) below its peers, and beyond the runs' "
	"noise (unsure: that far below, within the noise: cannot tell); on quit the table is printed "
	"(exit status 4 when --outlier was given)",
};

/* A burn: the run is as planned; the window's verdicts in the table */
#define BURN_LOCKED "a burn runs as planned: q ends it, its report marked interrupted"
static const char *const HELP_BURN[] = {
	"1-9 / Enter  the device (or the highlighted row) in the full dashboard, its plots and figures; "
	"there d or Esc go back (and by themselves when the burn ends)",
	"up / down    move the highlighted row",
	"t            next colour theme",
	"F1 ? h       this help",
	"F10 q        end the burn now (Ctrl-C too): its report is written, marked interrupted from the "
	"keyboard, exit 130 as SIGINT's",
	"",
	"A burn runs as planned: pause, restart, the target, another workload or device are refused, "
	"here and in a device in full",
	"Header: the window now, of how many, each how long, and the time left",
	"Panels: each device's current figure, median, clock, power and temperature; its throughput "
	"over the whole run (then the last 60 s) on one scale for all devices",
	"status: the device's verdict so far, its worst window's: PASS 3 of 8 (windows judged of those "
	"planned), or where it first went wrong and the causes' codes (FAIL w2: DRIFT); the windows "
	"are judged as they close, beside the same window of the other devices",
	"At the end the view leaves by itself: each device's verdict, the reports' paths and the exit",
};

/* A replay of several logs: the one-device replay's keys, on every log */
static const char *const HELP_REPLAY[] = {
	"1-9 / Enter  the log (or the highlighted row) in the full dashboard; there d or Esc "
	"comes back here",
	"up / down    move the highlighted row",
	"space        pause / resume every log's play",
	"< / >        slower / faster (x1/2 ... x64, then as fast as the screen takes them)",
	"left/right   10 s back / on (back: played again from the start up to there)",
	". (period)   paused, one sample on",
	"End e        the end: every sample",
	"t            next colour theme",
	"F1 ? h       this help",
	"F10 q        quit and print the table (Ctrl-C too)",
	"",
	"Panels and table as in the live view, from the recorded samples; the target and the "
	"workload are the recorded ones",
};

typedef struct NodeDev {
	SampleSource *src;
	History h;
	SummaryResult stats;     /* the source's, read at most 4 times a second */
	EngineState state;
	bool failed;
	char peer[600];          /* whom the outlier rule holds it beside: its device's name and its
	                            workload (a burn's workloads taking turns are rows of one device) */
} NodeDev;

typedef struct Node {
	Screen *s;
	NodeDev *dev;
	size_t n;
	const NodeOptions *opt;
	NodeDevice nd[NODE_MAX];  /* the outlier rule on the live medians */
	size_t outliers;
	NodeDevice now[NODE_MAX]; /* ... on each device's level now (its last NOW_S), the run's noise */
	size_t outliers_now;
	uint64_t stats_ns;
	int row;                  /* highlighted table row */
	bool help, dirty;         /* dirty: new samples or figures since the last turn */
	int help_scroll;
	bool stale;               /* the statistics are behind the samples taken */
	bool redraw_now;          /* back from a device in full: drawn at once */
	DashExit how;             /* how the screen is left */
} Node;

static void stats_reset(SummaryResult *r)
{
	memset(r, 0, sizeof *r);
	r->ratio_median = NAN;
	r->plateau_ms = NAN;
	r->pct_peak = NAN;
}

/* Takes every sample ready from every device but `skip` (the zoomed one,
 * which the dashboard reads itself; n for none). */
static void take(Node *nv, size_t skip)
{
	Sample smp;
	for (size_t k = 0; k < nv->n; k++) {
		NodeDev *d = &nv->dev[k];
		if (k == skip)
			continue;
		while (source_next(d->src, &smp)) {
			if (smp.seq == 0 && d->h.total) /* restarted: the plots with it */
				history_clear(&d->h);
			history_add(&d->h, &smp);
			nv->dirty = true;
		}
		EngineState st = d->src->state(d->src->ctx);
		if (st != d->state) {
			d->state = st;
			nv->dirty = true;
			if (st == ENGINE_ERROR)
				d->failed = true;
		}
	}
}

/* A device's level now: its last NOW_S of samples. A device that sank at
 * 8 s of 16 read "of peers 100%" on its whole run's median while it ran
 * at 30% of them. */
#define NOW_S 3.0

static void refresh_stats(Node *nv)
{
	for (size_t k = 0; k < nv->n; k++) {
		NodeDev *d = &nv->dev[k];
		d->src->summary(d->src->ctx, &d->stats);
		nv->nd[k].name = d->peer;
		nv->nd[k].median = !d->failed && d->stats.flops.n ? d->stats.flops.median : NAN;
		nv->nd[k].noise = d->stats.noise;
		/* held to the spread of its samples now, and its peers': a run's
		 * noise spans the very change being judged (a device that sank
		 * mid-run reads a noise of 90%) */
		double spread;
		double level = history_level_now_spread(&d->h, NOW_S, &spread);
		nv->now[k] = (NodeDevice){ .name = d->peer, .noise = spread,
		                           .median = !d->failed && d->stats.flops.n ? level : NAN };
	}
	nv->outliers = outlier_apply(nv->nd, nv->n, nv->opt->outlier_pct);
	nv->outliers_now = outlier_apply(nv->now, nv->n, nv->opt->outlier_pct);
}

static ThemeRole state_role(EngineState st)
{
	return st == ENGINE_ERROR ? ROLE_STATUS_ERROR
	     : st == ENGINE_PAUSED || st == ENGINE_DONE ? ROLE_STATUS_WARN : ROLE_STATUS_OK;
}

static void upper(char *p)
{
	for (; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
}

/* One device: its number, name and state; the headline figure with its
 * share of the peak, clock, power and temperature; its throughput. */
/* Who else is on the device, as "  1 other on it: 537 python3": named
 * where room (columns) holds the names, else counted; "" none. */
static void others_text(SampleSource *src, char *out, size_t len, int room)
{
	ProcTable pt = { .n = 0 };
	out[0] = '\0';
	if (src->procs)
		src->procs(src->ctx, &pt);
	if (!pt.total)
		return;
	char who[160];
	procs_table_describe(&pt, who, sizeof who);
	bool named = !pt.foreign && (int)strlen(who) + 24 < room;
	snprintf(out, len, "  %u other%s on it%s%s", pt.total, pt.total == 1 ? "" : "s", named ? ": " : "",
	         named ? who : "");
}

/* The runs' workloads, each once, in their order ("fp32"; logs of
 * several replayed: "fp32, int32"). */
static void workloads_text(const Node *nv, char *out, size_t len)
{
	size_t at = 0;
	out[0] = '\0';
	for (size_t k = 0; k < nv->n && at < len; k++) {
		const char *w = nv->dev[k].src->workload ? nv->dev[k].src->workload : "";
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = !strcmp(w, nv->dev[j].src->workload ? nv->dev[j].src->workload : "");
		if (!seen)
			at += (size_t)snprintf(out + at, len - at, "%s%s", at ? ", " : "", w);
	}
}

/* Whether the runs differ in workload (a burn's turns, logs of several
 * replayed): each panel then names its own. */
static bool runs_mixed(const Node *nv)
{
	const char *w0 = nv->dev[0].src->workload ? nv->dev[0].src->workload : "";
	for (size_t k = 1; k < nv->n; k++)
		if (strcmp(w0, nv->dev[k].src->workload ? nv->dev[k].src->workload : ""))
			return true;
	return false;
}

static void draw_panel(Node *nv, size_t k, Rect r, const PlotAxis *ay, double t1, bool mixed)
{
	NodeDev *d = &nv->dev[k];
	const Sample *ls = &d->h.last;
	char line[512], a[FMT_SI_LEN], b[FMT_SI_LEN], state[24];
	attrset(screen_attr(nv->s, ROLE_TEXT) | A_BOLD);
	snprintf(state, sizeof state, " %s ", engine_state_str(d->state));
	upper(state);
	if (mixed && d->src->workload)
		snprintf(line, sizeof line, "[%zu] %.20s: %.460s", k + 1, d->src->workload, d->src->title);
	else
		snprintf(line, sizeof line, "[%zu] %.480s", k + 1, d->src->title);
	mvaddstr(r.y, r.x, layout_fit_words(line, r.w - 2 - (int)strlen(state)));
	int sx = r.x + r.w - 1 - (int)strlen(state);
	attrset(screen_attr(nv->s, state_role(d->state)) | A_REVERSE);
	mvaddstr(r.y, sx > r.x ? sx : r.x, state);

	attrset(screen_attr(nv->s, ROLE_TEXT));
	int n = 0;
	if (d->h.total) {
		n = snprintf(line, sizeof line, " %s%s", fmt_si(ls->rate, a, sizeof a), sample_unit(ls));
		if (ls->peak_flops > 0)
			n += snprintf(line + n, sizeof line - (size_t)n, "  %.1f%% of peak", 100 * ls->rate / ls->peak_flops);
		if (d->stats.flops.n)
			n += snprintf(line + n, sizeof line - (size_t)n, "  median %s%s", fmt_si(d->stats.flops.median, b, sizeof b),
			              sample_unit(ls));
		if (sample_has_tel(ls, TEL_SM_MHZ) && d->src->max_mhz > 0) /* against its maximum */
			n += snprintf(line + n, sizeof line - (size_t)n, "  %.0f of %.0f MHz", ls->tel[TEL_SM_MHZ], d->src->max_mhz);
		else if (sample_has_tel(ls, TEL_SM_MHZ))
			n += snprintf(line + n, sizeof line - (size_t)n, "  %.0f MHz", ls->tel[TEL_SM_MHZ]);
		if (!isnan(sample_power_w(ls))) {
			char pw[64];
			sample_power_str(ls, pw, sizeof pw);
			n += snprintf(line + n, sizeof line - (size_t)n, "  %s", pw);
		}
		if (sample_has_tel(ls, TEL_TEMP_C))
			n += snprintf(line + n, sizeof line - (size_t)n, "  %.0f C", ls->tel[TEL_TEMP_C]);
		/* what holds the clock down now, as the dashboard says it: whole,
		 * or not at all where the pane is too narrow */
		char why[160];
		throttle_names(sample_has_tel(ls, TEL_THROTTLE) ? (uint64_t)ls->tel[TEL_THROTTLE] : 0, why, sizeof why);
		if (why[0] && n >= 0 && (size_t)n + strlen(why) + 11 < (size_t)(r.w > 1 ? r.w - 1 : 0))
			n += snprintf(line + n, sizeof line - (size_t)n, "  held by: %s", why);
		if (n >= 0 && (size_t)n < sizeof line)
			others_text(d->src, line + n, sizeof line - (size_t)n, (r.w > 1 ? r.w - 1 : 0) - n);
	} else {
		snprintf(line, sizeof line, " (no sample yet)");
	}
	const char *err = d->src->error(d->src->ctx);
	if (err) {
		attrset(screen_attr(nv->s, ROLE_STATUS_ERROR));
		snprintf(line, sizeof line, " %s", err);
	}
	mvaddnstr(r.y + 1, r.x, line, r.w - 1);
	if (r.h <= 2)
		return;
	Rect c = { r.x + 1, r.y + 2, r.w - 2, r.h - 2 };
	PlotCanvas cv;
	if (c.w < 1 || !plot_canvas_init(&cv, c.w, c.h, nv->s->braille))
		return;
	/* the whole run, then its last minute; the same for every panel */
	PlotAxis ax = { t1 > WINDOW_S ? t1 - WINDOW_S : 0, t1 > 0 ? t1 : 1, false };
	size_t from = history_from(&d->h, ax.min);
	plot_series_gaps(&cv, &ax, ay, d->h.t_s + from, d->h.flops + from, d->h.n - from, 0,
	                 plot_gap(d->h.t_s + from, d->h.n - from, 1.0));
	const ThemeRole roles[1] = { ROLE_FLOPS_LINE };
	screen_put_canvas(nv->s, &cv, c, roles);
	plot_canvas_done(&cv);
	/* the scale, at the right end of the top and bottom rows: a flat line
	 * near the top is a figure near the top of a named scale, not a frame */
	if (c.h >= 2 && c.w >= 16) {
		char top[FMT_SI_LEN + 16], bottom[32];
		snprintf(top, sizeof top, " %s ", fmt_axis(ay->max, sample_unit(ls), a, sizeof a));
		snprintf(bottom, sizeof bottom, " 0 %s ", sample_unit(ls));
		attrset(screen_attr(nv->s, ROLE_AXIS));
		mvaddstr(c.y, c.x + c.w - (int)strlen(top), top);
		mvaddstr(c.y + c.h - 1, c.x + c.w - (int)strlen(bottom), bottom);
	}
}

/* The table's device column: what the figures leave, at most the longest
 * title and at least the longest name alone (what comes before " (");
 * where even that does not fit, the checks column (in each panel too)
 * gives its 8 columns (*checks false). Below 100 columns the "now" column
 * is gone (narrow): the panels show the current figure. */
static int name_width(const Node *nv, int w, bool narrow, bool *checks)
{
	/* the columns after the name take 76 (63 narrow) and the status 8
	 * ("OUTLIER", "GROWING") */
	int nw = w - 84 + (narrow ? 13 : 0), longest = 6, name = 6;
	for (size_t k = 0; k < nv->n; k++) {
		const char *t = nv->dev[k].src->title, *q = strstr(t, " (");
		int n = q ? (int)(q - t) : (int)strlen(t);
		if ((int)strlen(t) > longest)
			longest = (int)strlen(t);
		if (n > name)
			name = n;
	}
	if (nw > longest)
		nw = longest;
	*checks = nw >= name;
	if (!*checks)
		nw += 8;
	return nw < name ? name : nw;
}

/* Whether every device's run has ended (its last samples may wait). */
static bool runs_ended(const Node *nv)
{
	for (size_t k = 0; k < nv->n; k++) {
		EngineState st = nv->dev[k].src->state(nv->dev[k].src->ctx);
		if (st != ENGINE_DONE && st != ENGINE_ERROR)
			return false;
	}
	return true;
}

/* The table's last line: the outlier rule's verdict so far, after (for
 * transfers of several at once) what their figures are: shares of the host. */
/* The first device far below its peers now: " now: [4] at 31% of its
 * peers' level now, 1 other on it: 1359 python3 |" ("" none). */
static void now_text(Node *nv, char *out, size_t len, int room)
{
	out[0] = '\0';
	for (size_t k = 0; k < nv->n; k++) {
		if (!nv->now[k].outlier)
			continue;
		char others[200];
		others_text(nv->dev[k].src, others, sizeof others, room);
		snprintf(out, len, " now: [%zu] at %.0f%% of its peers' level now%s%s%s |", k + 1,
		         100 * nv->now[k].node_ratio, others[0] ? "," : "", others, nv->outliers_now > 1 ? " (and more)" : "");
		return;
	}
}

static void draw_rule_line(Node *nv, Rect r)
{
	char line[512], a[FMT_SI_LEN];
	const char *so_far = runs_ended(nv) ? "" : " (so far)"; /* every run over: the verdict */
	attrset(screen_attr(nv->s, nv->outliers || nv->outliers_now ? ROLE_STATUS_ERROR : ROLE_AXIS));
	if (nv->outliers)
		snprintf(line, sizeof line, " outlier rule: %zu device%s more than %g%% below the median of %s identical peers",
		         nv->outliers, nv->outliers == 1 ? "" : "s", nv->opt->outlier_pct, nv->outliers == 1 ? "its" : "their");
	else
		snprintf(line, sizeof line, " outlier rule: no device more than %g%% below the median of its identical peers"
		         "%s", nv->opt->outlier_pct, so_far);
	/* the same, shorter, where the line is narrower than the words */
	if ((int)strlen(line) >= r.w) {
		if (nv->outliers)
			snprintf(line, sizeof line, " outlier rule: %zu device%s >%g%% below %s peers", nv->outliers,
			         nv->outliers == 1 ? "" : "s", nv->opt->outlier_pct, nv->outliers == 1 ? "its" : "their");
		else
			snprintf(line, sizeof line, " outlier rule: none >%g%% below its peers%s", nv->opt->outlier_pct, so_far);
	}
	size_t unsure = outlier_unsure(nv->nd, nv->n);
	if (unsure) { /* beside it: the shorter words where the line has no room */
		char more[96];
		snprintf(more, sizeof more, "; %zu within the runs' noise: cannot tell", unsure);
		if ((int)(strlen(line) + strlen(more)) >= r.w)
			snprintf(line, sizeof line, " outlier rule: %zu >%g%% below peers", nv->outliers,
			         nv->opt->outlier_pct);
		if ((int)(strlen(line) + strlen(more)) < r.w)
			strcat(line, more);
	}
	/* transfers of several at once through one host: each a share of it */
	int wl = workload_find(nv->dev[0].src->workload);
	char both[200 + sizeof line + 8];
	const char *rest = line;
	if (nv->n > 1 && wl >= 0 && workload_uses_host((WorkloadType)wl)) {
		double sum = 0;
		for (size_t k = 0; k < nv->n; k++)
			if (isfinite(nv->nd[k].median))
				sum += nv->nd[k].median;
		char host[200];
		snprintf(host, sizeof host, " at once: each a share of the host, not its link alone (%s%s in all) |",
		         fmt_si(sum, a, sizeof a), sample_unit(&nv->dev[0].h.last));
		if ((int)(strlen(host) + strlen(line)) >= r.w)
			snprintf(host, sizeof host, " shares of the host (%s%s in all) |", a, sample_unit(&nv->dev[0].h.last));
		snprintf(both, sizeof both, "%s%s", host, line);
		rest = both;
	}
	/* a device far below its peers now leads the line, with its cause */
	char now[400], all[sizeof now + sizeof both];
	now_text(nv, now, sizeof now, r.w - 40);
	snprintf(all, sizeof all, "%s%s", now, rest);
	mvaddnstr(r.y + r.h - 1, 0, all, r.w);
}

static void draw_table(Node *nv, Rect r)
{
	char line[512], a[FMT_SI_LEN], b[FMT_SI_LEN];
	bool narrow = r.w < 100, checks;
	int nw = name_width(nv, r.w, narrow, &checks);
	attrset(screen_attr(nv->s, ROLE_TEXT) | A_BOLD | A_UNDERLINE);
	mvhline(r.y, 0, ' ', r.w);
	char ck[24] = "";
	if (checks)
		snprintf(ck, sizeof ck, "%7s ", "checks");
	snprintf(line, sizeof line, " dev %-*s %*s %12s %9s %9s %s%8s  %s", nw, "device", narrow ? 0 : 12,
	         narrow ? "" : "now", "median", "% of peak", "of peers", ck, "changes", "status");
	mvaddnstr(r.y, 0, line, r.w);
	for (size_t k = 0; k < nv->n; k++) {
		NodeDev *d = &nv->dev[k];
		const Sample *ls = &d->h.last;
		const char *u = sample_unit(ls);
		char now[FMT_SI_LEN + 8] = "-", med[FMT_SI_LEN + 8] = "-", pk[16] = "unknown", peers[16] = "-",
		     chg[24], status[48];
		if (d->h.total)
			snprintf(now, sizeof now, "%s%s", fmt_si(ls->rate, a, sizeof a), u);
		if (isfinite(nv->nd[k].median))
			snprintf(med, sizeof med, "%s%s", fmt_si(nv->nd[k].median, b, sizeof b), u);
		if (isfinite(d->stats.pct_peak))
			snprintf(pk, sizeof pk, "%.1f%%", d->stats.pct_peak);
		if (isfinite(nv->nd[k].node_ratio))
			snprintf(peers, sizeof peers, "%.1f%%", 100 * nv->nd[k].node_ratio);
		change_format_cell(&d->stats.changes, chg, sizeof chg);
		ThemeRole role = ROLE_TEXT;
		const NodeBurnDev *bd = nv->opt->burn ? &nv->opt->burn->dev[k] : NULL;
		if (bd && !d->failed) { /* a burn's verdict so far, its windows' */
			snprintf(status, sizeof status, "%s", bd->text);
			role = bd->severity >= 2 ? ROLE_STATUS_ERROR : bd->severity ? ROLE_STATUS_WARN : ROLE_TEXT;
		} else if (!d->failed && !nv->nd[k].outlier && nv->now[k].outlier) {
			/* far below its peers now, whatever its run's median */
			snprintf(status, sizeof status, "OUTLIER now %.0f%%", 100 * nv->now[k].node_ratio);
			role = ROLE_STATUS_ERROR;
		} else if (d->failed || nv->nd[k].outlier || nv->nd[k].unsure || d->state == ENGINE_DONE) {
			/* the printed table's word (multi.c), the run's verdict */
			snprintf(status, sizeof status, "%s", outlier_status_word(d->failed, &nv->nd[k]));
			role = d->failed || nv->nd[k].outlier ? ROLE_STATUS_ERROR : nv->nd[k].unsure ? ROLE_STATUS_WARN : ROLE_TEXT;
		} else {
			snprintf(status, sizeof status, "%s", engine_state_str(d->state));
		}
		/* a title too long for its column: the device's name alone (what
		 * comes before " ("), its queue and type in the panel above */
		char name[512];
		snprintf(name, sizeof name, "%s", d->src->title);
		if ((int)strlen(name) > nw && strstr(name, " ("))
			*strstr(name, " (") = '\0';
		if (checks)
			snprintf(ck, sizeof ck, "%7llu ", (unsigned long long)d->src->checks(d->src->ctx));
		snprintf(line, sizeof line, " %3zu %-*.*s %*s %12s %9s %9s %s%8s  %s", k + 1, nw, nw, name,
		         narrow ? 0 : 12, narrow ? "" : now, med, pk, peers, ck, chg, status);
		attrset(screen_attr(nv->s, (int)k == nv->row ? ROLE_SELECTION : role));
		mvhline(r.y + 1 + (int)k, 0, ' ', r.w);
		mvaddnstr(r.y + 1 + (int)k, 0, line, r.w);
	}
	draw_rule_line(nv, r);
}

/* The header: how many run and in which states, the workload, the time
 * and the target (a burn's: its devices, workloads, window and time
 * left); returns the time the panels end at, the latest sample's. */
static double header(Node *nv)
{
	size_t by[ENGINE_STATE_COUNT] = { 0 };
	double t1 = 0;
	for (size_t k = 0; k < nv->n; k++) {
		by[nv->dev[k].state]++;
		if (nv->dev[k].h.n && nv->dev[k].h.t_s[nv->dev[k].h.n - 1] > t1)
			t1 = nv->dev[k].h.t_s[nv->dev[k].h.n - 1];
	}
	char line[512], states[160] = "";
	int m = 0;
	for (int st = 0; st < ENGINE_STATE_COUNT; st++)
		if (by[st])
			m += snprintf(states + m, sizeof states - (size_t)m, "%s%zu %s", m ? ", " : "", by[st],
			              engine_state_str((EngineState)st));
	attrset(screen_attr(nv->s, ROLE_HEADER));
	mvhline(0, 0, ' ', COLS);
	const SampleSource *s0 = nv->dev[0].src;
	char tms[32], wl[160];
	workloads_text(nv, wl, sizeof wl);
	if (nv->opt->burn) {
		const NodeBurn *b = nv->opt->burn;
		size_t devs = b->devices ? b->devices : nv->n;
		snprintf(line, sizeof line, " flopscope | burn-in of %zu device%s: %s | %.80s | %s", devs, devs == 1 ? "" : "s",
		         states, b->what[0] ? b->what : wl, b->header);
	}
	else if (s0->replay) { /* the logs' recorded target, as the dashboard's replay says it */
		double x = s0->ctl.speed ? s0->ctl.speed(s0->ctl.ctx, 0) : 1;
		char speed[24];
		snprintf(speed, sizeof speed, isinf(x) ? "max" : "x%g", x);
		snprintf(line, sizeof line, " flopscope | REPLAY %s | %zu logs: %s | %.80s | %.1f s | target %s", speed, nv->n,
		         states, wl, t1, fmt_ms(s0->target_ms(s0->ctx), tms, sizeof tms));
	} else
		snprintf(line, sizeof line, " flopscope | %zu devices: %s | %.80s | %.1f s | target %s", nv->n, states, wl, t1,
		         fmt_ms(s0->target_ms(s0->ctx), tms, sizeof tms));
	mvaddnstr(0, 0, line, COLS);
	return t1;
}

static void draw(Node *nv)
{
	NodeLayout l;
	layout_node(COLS, LINES, nv->n, &l);
	erase();
	if (l.too_small) {
		/* short lines, as screen_too_small's: what it takes, here */
		char line[4][80];
		int need = layout_node_rows(COLS, nv->n);
		snprintf(line[0], sizeof line[0], "terminal too small for %zu devices", nv->n);
		if (need)
			snprintf(line[1], sizeof line[1], "need %dx%d (wider: fewer rows),", COLS, need);
		else
			snprintf(line[1], sizeof line[1], "need %d columns or more,", LAYOUT_MIN_COLS);
		snprintf(line[2], sizeof line[2], "have %dx%d", COLS, LINES);
		snprintf(line[3], sizeof line[3], "1-9: a device in full, q quits");
		for (int k = 0; k < 4; k++) {
			attrset(screen_attr(nv->s, k ? ROLE_TEXT : ROLE_STATUS_WARN));
			mvaddnstr(k, 0, line[k], COLS);
		}
		attrset(A_NORMAL);
		refresh();
		return;
	}
	double t1 = header(nv);
	SampleSource *s0 = nv->dev[0].src;

	/* one scale for every panel of the same unit: the slow one shows */
	double hi = 0;
	for (size_t k = 0; k < nv->n; k++) {
		const History *h = &nv->dev[k].h;
		for (size_t i = history_from(h, t1 - WINDOW_S); i < h->n; i++)
			if (h->flops[i] > hi)
				hi = h->flops[i];
	}
	PlotAxis ay = { 0, hi > 0 ? hi * 1.05 : 1, false };
	plot_axis_round(&ay, 2); /* a round number at the top */
	bool mixed = runs_mixed(nv);
	for (size_t k = 0; k < nv->n; k++)
		draw_panel(nv, k, l.panel[k], &ay, t1, mixed);
	draw_table(nv, l.table);

	char sline[1024];
	int at;
	const char *keys = s0->replay ? "1-9 log in full  space pause  < > speed  left/right seek  . step  e end  ? help  q quit"
	                   : nv->opt->burn ? "1-9 device in full  up/down select  ? help  q end the burn (report marked interrupted)"
	                   : "1-9 device in full  space pause all  r restart all  +/- target  w workload  d devices  ? help  q quit";
	layout_status_line(nv->s->message, keys, COLS, sline, sizeof sline, &at);
	mvhline(l.status.y, 0, ' ', COLS);
	attrset(screen_attr(nv->s, (ThemeRole)nv->s->message_role));
	mvaddnstr(l.status.y, 0, sline, at);
	attrset(screen_attr(nv->s, ROLE_AXIS));
	mvaddnstr(l.status.y, at, sline + at, COLS - 1 - at);
	if (nv->help && nv->opt->burn)
		screen_help(nv->s, " flopscope: a burn-in ", HELP_BURN, sizeof HELP_BURN / sizeof *HELP_BURN,
		            &nv->help_scroll);
	else if (nv->help && s0->replay)
		screen_help(nv->s, " flopscope: a replay of several logs ", HELP_REPLAY, sizeof HELP_REPLAY / sizeof *HELP_REPLAY,
		            &nv->help_scroll);
	else if (nv->help)
		screen_help(nv->s, " flopscope: all devices ", HELP, sizeof HELP / sizeof *HELP, &nv->help_scroll);
	attrset(A_NORMAL);
	refresh();
}

/* A replay's speed, seek, step and end, on every log: the one-device
 * replay's keys (the position said is the first log's). */
static void node_replay_move(Node *nv, KeyAction act)
{
	Screen *s = nv->s;
	SampleSource *src = nv->dev[0].src;
	if (!src->ctl.seek || !src->ctl.speed) {
		screen_message(s, ROLE_STATUS_WARN, "< > . End and the arrows move a replay (--replay A B)");
		return;
	}
	if (act == ACT_SLOWER || act == ACT_FASTER) {
		double x = 0;
		for (size_t k = 0; k < nv->n; k++)
			x = nv->dev[k].src->ctl.speed(nv->dev[k].src->ctl.ctx, act == ACT_FASTER ? 1 : -1);
		if (isinf(x))
			screen_message(s, ROLE_STATUS_OK, "replay speed: as fast as the screen takes the samples (< slows)");
		else
			screen_message(s, ROLE_STATUS_OK, "replay speed x%g on all %zu", x, nv->n);
		return;
	}
	for (size_t k = 0; k < nv->n; k++) {
		SourceControls *c = &nv->dev[k].src->ctl;
		if (act == ACT_STEP)
			c->step(c->ctx);
		else /* back: played again from the start, the panels with it (seq 0) */
			c->seek(c->ctx, act == ACT_END ? INFINITY : act == ACT_SEEK_FWD ? 10e3 : -10e3);
	}
	double len, at = src->ctl.position(src->ctl.ctx, &len);
	char a[32], b[32];
	screen_message(s, ROLE_STATUS_OK, "%s%s of %s", act == ACT_STEP ? "paused, one sample on (. again, space "
	               "resumes): " : act == ACT_END ? "the end: " : "at ", fmt_ms(at, a, sizeof a), fmt_ms(len, b, sizeof b));
}

/* while zoomed, the other devices' samples are taken too; a burn's device
 * in full goes back to the node view when every run has ended (its
 * verdicts and report follow there) */
typedef struct Zoomed {
	Node *nv;
	size_t k;
} Zoomed;

static bool g_idle(void *ctx)
{
	const Zoomed *g = ctx;
	take(g->nv, g->k);
	return !(g->nv->opt->burn && runs_ended(g->nv));
}

static DashExit zoom(Node *nv, size_t k)
{
	SampleSource *z = nv->dev[k].src, *all[NODE_MAX];
	for (size_t j = 0; j < nv->n && j < NODE_MAX; j++)
		all[j] = nv->dev[j].src;
	SourceGroup group = { all, nv->n < NODE_MAX ? nv->n : NODE_MAX, z };
	Zoomed g = { nv, k };
	SampleSource src = *z; /* its samples (and their tap), the group's controls */
	src.ctl = source_group_controls(&group);
	snprintf(src.title, sizeof src.title, "[%zu of %zu] %.460s", k + 1, nv->n, z->title);
	DashOptions o = { .fps = nv->opt->fps, .whole = nv->opt->whole, .history = &nv->dev[k].h,
	                  .idle = g_idle, .idle_ctx = &g, .locked = nv->opt->burn ? BURN_LOCKED : NULL };
	bool failed = false;
	SummaryResult sum;
	screen_message(nv->s, ROLE_STATUS_OK, "device %zu in full: d or Esc back to all %zu", k + 1, nv->n);
	DashExit how = dashboard_run(nv->s, &src, &o, &failed, &sum);
	nv->dev[k].failed |= failed;
	nv->s->message[0] = '\0';
	return how;
}

/* A device in full (1-9, Enter): false when the screen is left from it
 * (*how says how). */
static bool node_zoom(Node *nv, size_t pick, DashExit *how)
{
	DashExit z = zoom(nv, pick);
	nv->redraw_now = true;
	if (z == DASH_QUIT || z == DASH_NEXT_WORKLOAD) {
		*how = z;
		return false;
	}
	return true;
}

/* What a key does in the node view: its action on every device, or one
 * device in full; false when the screen is left (*how says how). */
/* The keys that would change a burn's runs (its device in full refuses
 * them too: DashOptions.locked). */
static bool burn_refuses(KeyAction act)
{
	switch (act) {
	case ACT_PAUSE: case ACT_RESTART: case ACT_TARGET_UP: case ACT_TARGET_DOWN:
	case ACT_NEXT_WORKLOAD: case ACT_DEVICES: case ACT_BACK:
		return true;
	default:
		return false;
	}
}

static bool node_key(Node *nv, KeyAction act, int ch, DashExit *how)
{
	Screen *s = nv->s;
	NodeDev *dev = nv->dev;
	SampleSource *src = dev[0].src;
	size_t n = nv->n;
	if (act == ACT_QUIT)
		return false;
	if (act == ACT_PICK && (size_t)keys_digit(ch) < n)
		return node_zoom(nv, (size_t)keys_digit(ch), how);
	if (act == ACT_ENTER)
		return node_zoom(nv, (size_t)nv->row, how);
	switch (act) {
	case ACT_UP:
		if (nv->row > 0)
			nv->row--;
		break;
	case ACT_DOWN:
		if ((size_t)nv->row + 1 < n)
			nv->row++;
		break;
	case ACT_PAUSE: {
		/* all paused: resume all; else pause all (the zoomed
		 * view's space acts on all too) */
		bool all = true;
		for (size_t k = 0; k < n; k++)
			all &= dev[k].state == ENGINE_PAUSED || dev[k].state == ENGINE_DONE || dev[k].state == ENGINE_ERROR;
		bool paused = !all;
		for (size_t k = 0; k < n; k++)
			src[k].ctl.pause(src[k].ctl.ctx, paused);
		screen_message(s, ROLE_STATUS_WARN, paused ? "all %zu paused: space resumes" : "all %zu resumed", n);
		break;
	}
	case ACT_RESTART:
		for (size_t k = 0; k < n; k++)
			src[k].ctl.restart(src[k].ctl.ctx);
		screen_message(s, ROLE_STATUS_OK, "all %zu restarting from 1 workgroup", n);
		break;
	case ACT_TARGET_UP: case ACT_TARGET_DOWN: {
		if (!src[0].ctl.set_target) {
			screen_message(s, ROLE_STATUS_WARN, "the target was recorded; it cannot change in a replay");
			break;
		}
		double t = adapt_target_step(src[0].target_ms(src[0].ctx), act == ACT_TARGET_UP ? 1 : -1);
		for (size_t k = 0; k < n; k++)
			src[k].ctl.set_target(src[k].ctl.ctx, t);
		char tms[32];
		screen_message(s, ROLE_STATUS_OK, "target %s on all %zu", fmt_ms(t, tms, sizeof tms), n);
		break;
	}
	case ACT_NEXT_WORKLOAD:
		if (src[0].replay) {
			screen_message(s, ROLE_STATUS_WARN, "a replay shows the recorded workload");
			break;
		}
		*how = DASH_NEXT_WORKLOAD;
		return false;
	case ACT_DEVICES: case ACT_BACK: /* back one level, to the picker */
		if (src[0].replay) {
			if (act == ACT_DEVICES)
				screen_message(s, ROLE_STATUS_WARN, "a replay has no devices to pick");
			break;
		}
		*how = DASH_BACK;
		return false;
	case ACT_SLOWER: case ACT_FASTER: case ACT_SEEK_BACK: case ACT_SEEK_FWD: case ACT_END: case ACT_STEP:
		node_replay_move(nv, act);
		break;
	case ACT_THEME:
		screen_next_theme(s);
		break;
	case ACT_HELP:
		nv->help = true;
		nv->help_scroll = 0;
		break;
	default:
		break;
	}
	return true;
}

/* Every device's history and statistics; false (a message said why) when
 * there is no room for them. *ready: how many are set up. */
static bool node_init(Node *nv, SampleSource *src, size_t *ready)
{
	for (*ready = 0; *ready < nv->n; (*ready)++) {
		NodeDev *d = &nv->dev[*ready];
		memset(d, 0, sizeof *d);
		d->src = &src[*ready];
		snprintf(d->peer, sizeof d->peer, "%.511s\x1f%.80s", d->src->title, d->src->workload ? d->src->workload : "");
		if (!history_init(&d->h, HISTORY_CAP))
			break;
		stats_reset(&d->stats);
		nv->nd[*ready].median = NAN;
		nv->nd[*ready].noise = NAN;
		nv->nd[*ready].node_ratio = NAN;
	}
	if (*ready == nv->n)
		return true;
	screen_message(nv->s, ROLE_STATUS_ERROR, "out of memory for the sample histories");
	return false;
}

/* Whether every device's run has ended and its samples are taken. */
static bool all_ended(Node *nv)
{
	if (!runs_ended(nv))
		return false;
	take(nv, nv->n); /* the last ones, after the state said done */
	return true;
}

/* A turn of the loop: every device's new samples, and the statistics at
 * most STATS_NS apart, but never left behind the samples taken (a replay's
 * End took every sample at once and the table kept the figures of before). */
static unsigned node_tick(void *ctx, uint64_t now, bool dirty)
{
	Node *nv = ctx;
	take(nv, nv->n);
	dirty |= nv->dirty;
	nv->dirty = false;
	nv->stale |= dirty;
	if (nv->stale && now - nv->stats_ns >= STATS_NS) {
		refresh_stats(nv);
		nv->stats_ns = now;
		nv->stale = false;
		dirty = true;
	}
	if (nv->opt->burn && all_ended(nv)) { /* the burn is over: its verdicts and report follow */
		nv->how = DASH_DONE;
		return REACT_LEAVE;
	}
	return dirty ? REACT_REDRAW : 0;
}

static void node_draw(void *ctx)
{
	draw(ctx);
}

static unsigned node_on_key(void *ctx, KeyAction act, int ch)
{
	Node *nv = ctx;
	if (nv->opt->burn && burn_refuses(act)) {
		screen_message(nv->s, ROLE_STATUS_WARN, "%s", BURN_LOCKED);
		return 0;
	}
	bool stay = node_key(nv, act, ch, &nv->how);
	unsigned r = stay ? 0 : REACT_LEAVE;
	if (nv->redraw_now)
		r |= REACT_NOW;
	nv->redraw_now = false;
	return r;
}

DashExit node_run(Screen *s, SampleSource *src, size_t n, const NodeOptions *opt, bool *failed)
{
	if (n > NODE_MAX)
		n = NODE_MAX;
	NodeDev dev[NODE_MAX];
	Node nv = { .s = s, .dev = dev, .n = n, .opt = opt, .dirty = true, .stale = true, .how = DASH_QUIT };
	size_t ready;
	if (!node_init(&nv, src, &ready))
		nv.how = DASH_BACK;
	else
		screen_run(s, &(ScreenHandlers){ .ctx = &nv, .tick = node_tick, .draw = node_draw, .key = node_on_key,
		                                 .help = &nv.help, .help_scroll = &nv.help_scroll,
		                                 .frame_ns = 1000000000ull / (opt->fps ? opt->fps : 10), .timeout_ms = 50 });
	DashExit how = nv.how;
	for (size_t k = 0; k < n; k++) {
		if (src[k].ctl.note_stop)
			src[k].ctl.note_stop(src[k].ctl.ctx, how == DASH_NEXT_WORKLOAD ? "workload change (w)"
			                             : how == DASH_BACK ? "device list (d)" : "quit");
		src[k].ctl.pause(src[k].ctl.ctx, false);
		src[k].ctl.stop(src[k].ctl.ctx);
		if (src[k].state(src[k].ctx) == ENGINE_ERROR)
			dev[k].failed = true;
	}
	for (size_t k = 0; k < ready; k++) {
		failed[k] = dev[k].failed;
		history_done(&dev[k].h);
	}
	return how;
}
