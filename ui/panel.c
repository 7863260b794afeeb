#include "panel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "change.h"
#include "fmt.h"
#include "memwork.h"
#include "televent.h"
#include "throttle.h"

/* Who else is on the device now, before the statistics: a line that
 * counts them and names the device (the table is p's: proc_view.h); the
 * next row. */
static int draw_procs(const PanelView *v, Rect r, int y)
{
	const ProcTable pt = v->procs;
	if (!pt.total || y >= r.y + r.h)
		return y;
	char name[128], line[256];
	snprintf(name, sizeof name, "%s", v->dev ? v->dev : "it");
	if (strstr(name, " ("))
		*strstr(name, " (") = '\0';
	attrset(screen_attr(v->s, ROLE_TEXT) | A_BOLD);
	/* the longest words that fit the panel */
	const char *es = pt.total == 1 ? "" : "es", *ns = pt.foreign ? ", another PID namespace's" : "";
	snprintf(line, sizeof line, "%u other process%s on %s%s (p: the table)", pt.total, es, name, ns);
	if ((int)strlen(line) > r.w)
		snprintf(line, sizeof line, "%u other process%s on %s (p)", pt.total, es, name);
	if ((int)strlen(line) > r.w)
		snprintf(line, sizeof line, "%u other%s on %s (p)", pt.total, pt.total == 1 ? "" : "s", name);
	mvaddnstr(y++, r.x, line, r.w);
	return y;
}


void panel_stats(const PanelView *v, Rect r)
{
	const Stats *f = &v->stats->flops;
	/* a transfer sweep: the statistics of the size measured now, not of
	 * all sizes mixed */
	Stats per_size = { 0 };
	const SizeRow *row = NULL;
	for (size_t i = 0; v->last->size && i < v->stats->nsizes; i++)
		if (v->stats->sizes[i].size == v->last->size)
			row = &v->stats->sizes[i];
	if (v->last->size) {
		if (row) {
			per_size.n = row->n;
			per_size.min = row->min;
			per_size.median = row->median;
			per_size.max = row->max;
		}
		f = &per_size;
	}
	char a[FMT_SI_LEN], b[FMT_SI_LEN], line[80];
	int y = r.y;
	attrset(screen_attr(v->s, ROLE_TEXT) | A_BOLD);
	const char *u = sample_unit(v->last);
	snprintf(line, sizeof line, "%s at the target time", u);
	mvaddnstr(y++, r.x, line, r.w);
	attrset(screen_attr(v->s, ROLE_TEXT));
#define ROW(...) do { snprintf(line, sizeof line, __VA_ARGS__); if (y < r.y + r.h) mvaddnstr(y++, r.x, line, r.w); } while (0)
	ROW("last     %s%s", fmt_si(v->last->rate, a, sizeof a), u);
	y = draw_procs(v, r, y);
	if (v->last->size)
		ROW("size     %s", mem_size_str(v->last->size, a, sizeof a));
	if (f->n) {
		ROW("min      %s%s", fmt_si(f->min, a, sizeof a), u);
		ROW("median   %s%s", fmt_si(f->median, a, sizeof a), u);
		ROW("max      %s%s", fmt_si(f->max, a, sizeof a), u);
		if (!v->last->size) {
			/* sd: the spread of the samples; the CI below is the mean's */
			ROW("mean     %s%s", fmt_si(f->mean, a, sizeof a), u);
			ROW("sd       %s%s", fmt_si(f->std, b, sizeof b), u);
			ROW("95%% CI   +- %s%s", fmt_si(f->ci95, a, sizeof a), u);
		}
	} else {
		ROW("(growing: no sample at the");
		ROW(" target time yet)");
	}
	const Sample *ls = v->last;
	if (ls->peak_flops > 0)
		ROW("peak     %.1f%% of %s%s", 100 * ls->rate / ls->peak_flops,
		    fmt_si(ls->peak_flops, b, sizeof b), u);
	else if (v->total)
		ROW("peak     unknown"); /* said, as the node table says it: not left out */
	/* the rated peak, where the clock read is below the maximum */
	if (ls->peak_max_flops > 1.01 * ls->peak_flops && ls->peak_flops > 0)
		ROW("rated    %.1f%% of %s%s", 100 * ls->rate / ls->peak_max_flops,
		    fmt_si(ls->peak_max_flops, b, sizeof b), u);
	if (sample_has_tel(ls, TEL_SM_MHZ) && ls->tel[TEL_SM_MHZ] > 0)
		ROW("per cycle %s%s", fmt_si(ls->rate / (ls->tel[TEL_SM_MHZ] * 1e6), a, sizeof a), sample_work_unit(ls));
	if (!isnan(sample_power_w(ls)))
		ROW("per W    %s%s", fmt_si(ls->rate / sample_power_w(ls), a, sizeof a), u);
	ROW("samples  %zu at target", v->last->size ? f->n : v->stats->steady);
	if (!isnan(v->stats->ratio_median))
		ROW("GPU/CPU  %.4f median", v->stats->ratio_median);
	size_t dropped = v->dropped;
	attrset(screen_attr(v->s, dropped ? ROLE_STATUS_WARN : ROLE_TEXT));
	ROW("dropped  %zu", dropped);
	attrset(screen_attr(v->s, ROLE_TEXT));
	if (v->last->size)
		ROW("copies   %u a submission", v->last->x);
	else
		ROW("groups   %u x %u x %u", v->last->x, v->last->y, v->last->z);
	if (v->stats->segments > 1) /* r: the statistics go on over the restarts */
		ROW("segments %zu (r), all in", v->stats->segments);
	if (v->stats->implausible) {
		attrset(screen_attr(v->s, ROLE_STATUS_ERROR));
		ROW("%zu implausible (>105%% peak)", v->stats->implausible);
	}
#undef ROW
}

/* One change on a line of w columns: "12.3 s 3.10 TFLOPS->1.60 TFLOPS x0.52",
 * or with the unit once where that does not fit ("3.10 T->1.60 TFLOPS"),
 * then without the factor. */
static void change_line(const Change *c, const char *unit, int w, char *line, size_t len)
{
	char a[FMT_SI_LEN], b[FMT_SI_LEN];
	const char *ramp = c->kind == CHANGE_RAMP ? "ramp " : "";
	fmt_si(c->before, a, sizeof a);
	fmt_si(c->after, b, sizeof b);
	int n = snprintf(line, len, "%s%.1f s %s%s->%s%s x%.2f", ramp, c->t_ms * 1e-3, a, unit, b, unit, c->ratio);
	if (n > w)
		n = snprintf(line, len, "%s%.1f s %s->%s%s x%.2f", ramp, c->t_ms * 1e-3, a, b, unit, c->ratio);
	if (n > w)
		snprintf(line, len, "%s%.1f s %s->%s%s", ramp, c->t_ms * 1e-3, a, b, unit);
}

/* A change's parts under it, indented ("  GPU others x0.33, clock x0.95"),
 * where it has any and a row is left; the next row. */
static int draw_shares(const Change *c, Rect r, int y, int end)
{
	char parts[160], line[170];
	change_shares_short(c->share, parts, sizeof parts);
	if (!parts[0] || y >= end)
		return y;
	snprintf(line, sizeof line, "  %s", parts);
	mvaddnstr(y, r.x, line, r.w);
	return y + 1;
}

/* Power-state changes listed (newest last, older ones counted), the rest
 * in a quieter colour: counts by cause, excursions, and the newest. */
/* No power-state change: said, with the clock's state where a cause held
 * it from the start (a state, not a change) and the telemetry's first
 * event (the cap engaging at a run's start), in the marker colour: no
 * level change needs to follow it. Returns the next row. */
static int no_power_change(const PanelView *v, Rect r, int y, int end)
{
	char line[200];
	mvaddnstr(y++, r.x, "none detected", r.w);
	const Energy *e = &v->stats->energy;
	int top = -1;
	for (int k = 0; e->reasons && k < (int)throttle_reason_count && k < SUMMARY_REASONS; k++)
		if (e->reason_s[k] > 0 && (top < 0 || e->reason_s[k] > e->reason_s[top]))
			top = k;
	if (top >= 0 && e->reasons_seconds > 0 && y < end) {
		snprintf(line, sizeof line, HELD_BY ": %s %.0f%%", throttle_reasons[top].name,
		         100 * e->reason_s[top] / e->reasons_seconds);
		mvaddnstr(y++, r.x, line, r.w);
	}
	if (v->stats->events.n && y < end) {
		televent_format(&v->stats->events.ev[0], sample_unit(v->last), line, sizeof line);
		attrset(screen_attr(v->s, ROLE_JUMP_MARK));
		mvaddnstr(y++, r.x, line, r.w);
		attrset(screen_attr(v->s, ROLE_TEXT));
	}
	return y;
}

void panel_jumps(const PanelView *v, Rect r)
{
	const ChangeDetector *cd = &v->stats->changes;
	char line[200], a[FMT_SI_LEN];
	int end = r.y + r.h;
	attrset(screen_attr(v->s, ROLE_TEXT) | A_BOLD);
	mvaddnstr(r.y, r.x, "Power-state changes", r.w);
	attrset(screen_attr(v->s, ROLE_TEXT));
	int y = r.y + 1;
	if (!isnan(v->stats->plateau_ms) && y < end) {
		char pt[32];
		snprintf(line, sizeof line, "plateau %s at %s%s", fmt_ms(v->stats->plateau_ms, pt, sizeof pt),
		         fmt_si(v->stats->plateau_flops, a, sizeof a), sample_unit(v->last));
		mvaddnstr(y++, r.x, line, r.w);
	}
	size_t power = cd->by_cause[CAUSE_POWER_STATE], others = cd->nchanges - power;
	/* rows: the power-state list, then 4 quiet lines (others, by cause,
	 * excursions) and the newest others */
	int quiet = (others || cd->nexc) ? 4 : 1;
	int room = end - y - quiet;
	if (power == 0 && y < end) {
		y = no_power_change(v, r, y, end);
	} else {
		/* the newest power-state changes that fit, oldest of them first;
		 * the rest counted on a line above */
		const Change *pick[CHG_KEEP];
		size_t np = 0;
		for (size_t i = 0; i < change_kept(cd); i++)
			if (change_get(cd, i)->cause == CAUSE_POWER_STATE)
				pick[np++] = change_get(cd, i);
		size_t fit = room > 1 ? (size_t)room : 1;
		size_t show = np <= fit && power == np ? np : fit - 1;
		if (show < power && y < end) {
			snprintf(line, sizeof line, "+%zu earlier", power - show);
			attrset(screen_attr(v->s, ROLE_AXIS));
			mvaddnstr(y++, r.x, line, r.w);
		}
		attrset(screen_attr(v->s, ROLE_JUMP_MARK));
		for (size_t i = show < np ? show : np; i-- > 0 && y < end;) {
			change_line(pick[i], sample_unit(v->last), r.w, line, sizeof line);
			mvaddnstr(y++, r.x, line, r.w);
			y = draw_shares(pick[i], r, y, end);
		}
	}
	attrset(screen_attr(v->s, ROLE_AXIS));
	if ((others || cd->nexc) && y < end) {
		/* on two rows: the panel is 32 columns at every size */
		snprintf(line, sizeof line, "other changes %zu", others);
		mvaddnstr(y++, r.x, line, r.w);
		/* by cause, in the causes' words, a row each */
		for (int k = CAUSE_NOT_POWER_STATE; k <= CAUSE_UNEXPLAINED && y < end; k++) {
			snprintf(line, sizeof line, "  %s %zu", change_cause_names[k], cd->by_cause[k]);
			mvaddnstr(y++, r.x, line, r.w);
		}
		if (y < end) {
			snprintf(line, sizeof line, "excursions %zu (%.1f s)", cd->nexc, cd->exc_ms * 1e-3);
			mvaddnstr(y++, r.x, line, r.w);
		}
		/* the newest other changes, as many as fit */
		for (size_t i = 0; i < change_kept(cd) && y < end; i++) {
			const Change *c = change_get(cd, i);
			if (c->cause == CAUSE_POWER_STATE)
				continue;
			change_line(c, sample_unit(v->last), r.w, line, sizeof line);
			mvaddnstr(y++, r.x, line, r.w);
			y = draw_shares(c, r, y, end);
		}
	}
	attrset(screen_attr(v->s, ROLE_TEXT));
}
