/* check_judge: a device's run against its reference and causes (check_impl.h). */
#include "check_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "peak.h"
#include "throttle.h"
#include "verdict.h"

/* The baselines of a workload on a device: the logs of that workload
 * recorded on a device of that name. */
static size_t baselines_for(const OfflineBlocks *bl, size_t nb, const char *wl, const char *dev, BlockMeans *out,
                            size_t cap, const char **other_device)
{
	size_t m = 0;
	*other_device = NULL;
	for (size_t k = 0; k < nb; k++) {
		if (strcmp(bl[k].d.meta.workload, wl))
			continue;
		if (strcmp(bl[k].d.meta.device, dev)) {
			*other_device = bl[k].d.meta.device;
			continue;
		}
		if (m < cap)
			out[m++] = bl[k].blocks;
	}
	return m;
}

void check_baselines_done(OfflineBlocks *bl, size_t n)
{
	for (size_t k = 0; bl && k < n; k++) {
		blocks_done(&bl[k].blocks);
		session_data_done(&bl[k].d);
	}
	free(bl);
}

/* One baseline session into bl[*n]: false (message printed) when it is bad
 * input. A session of a file of several (of_many) that cannot serve is
 * passed over, said. */
static bool load_baseline(const char *path, const SlogPick *pick, bool of_many, OfflineBlocks *bl, size_t *n)
{
	OfflineBlocks *b = &bl[*n];
	if (!offline_load_blocks(path, pick, b))
		return false;
	const char *why = !b->blocks.n ? "no steady 1 s block to compare with" :
	                  workload_find(b->d.meta.workload) < 0 ? "a workload flopscope does not run" : NULL;
	if (why && !of_many) {
		fprintf(stderr, "flopscope: --baseline %s: %s (\"%s\")\n", path, why, b->d.meta.workload);
		blocks_done(&b->blocks);
		session_data_done(&b->d);
		return false;
	}
	if (why) {
		fprintf(stderr, "flopscope: note: --baseline %s: its %s session is not used: %s\n", path, pick->workload,
		        why);
		blocks_done(&b->blocks);
		session_data_done(&b->d);
		return true;
	}
	(*n)++;
	return true;
}

/* Every baseline session: a log's one, or each compute-queue session of a
 * suite's file (a check measures on the compute queue). */
bool check_load_baselines(const Options *o, OfflineBlocks **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	for (unsigned k = 0; k < o->nbaselines; k++) {
		SlogEntry *e;
		size_t ne;
		char err[1024];
		if (!slog_index(o->baselines[k], &e, &ne, err, sizeof err)) {
			fprintf(stderr, "flopscope: --baseline: %s\n", err);
			return false;
		}
		OfflineBlocks *g = realloc(*out, (cap + ne) * sizeof *g);
		if (!g) {
			free(e);
			fprintf(stderr, "flopscope: out of memory for the baselines\n");
			return false;
		}
		*out = g;
		cap += ne;
		bool ok = true;
		for (size_t i = 0; ok && i < ne; i++) {
			SlogPick pick = { e[i].workload, e[i].transfer_queue };
			if (ne == 1 || !e[i].transfer_queue)
				ok = load_baseline(o->baselines[k], &pick, ne > 1, *out, n);
		}
		free(e);
		if (!ok)
			return false;
	}
	return true;
}

/* The figure against the theoretical peak: the rated one (at the maximum
 * clock) where that clock is known, so a clock kept low cannot pass for a
 * healthy one, else the one at the clock read; false when no peak is known. */
static bool judge_peak(const SummaryResult *r, double t_peak, Verdict *v)
{
	bool rated = !isnan(r->pct_peak_max);
	if (!rated && isnan(r->pct_peak))
		return false;
	v->ref = "peak";
	v->threshold = t_peak;
	v->ratio = (rated ? r->pct_peak_max : r->pct_peak) / 100;
	v->st = v->ratio >= t_peak ? CHECK_PASS : CHECK_FAIL;
	const char *verb = v->st == CHECK_PASS ? "reaches" : "below";
	VerdictCode code = v->st == CHECK_PASS ? VC_AT_PEAK : VC_BELOW_PEAK;
	double f[] = { v->ratio, t_peak, r->pct_peak / 100 };
	if (rated)
		verdict_add(&v->causes, false, code, f, "%.1f%% of the theoretical peak at the maximum clock (median; %.1f%% "
		            "at the clock read), %s the threshold %.0f%%", r->pct_peak_max, r->pct_peak, verb, 100 * t_peak);
	else
		verdict_add(&v->causes, false, code, f, "%.1f%% of the theoretical peak (median, at the clock read; no "
		            "maximum clock known), %s the threshold %.0f%%", r->pct_peak, verb, 100 * t_peak);
	return true;
}

/* The power workload's figure: its mean power held to the power limit, as
 * DCGM's targeted_power holds its load. */
static void judge_power(const SuiteDev *sd, double t_peak, Verdict *v)
{
	char why[VC_TEXT_LEN];
	PowerVerdict pv = energy_verdict(&sd->r.energy, t_peak, &v->ratio, why, sizeof why);
	if (pv != POWER_NA) {
		v->ref = "power_limit";
		v->threshold = t_peak;
	}
	v->st = pv == POWER_REACHED ? CHECK_PASS : pv == POWER_NA ? CHECK_NOREF : CHECK_FAIL;
	static const VerdictCode code[] = { [POWER_REACHED] = VC_AT_POWER_LIMIT, [POWER_SHORT] = VC_BELOW_POWER_LIMIT,
		                            [POWER_SLOWED] = VC_THROTTLE_HW, [POWER_NA] = VC_NO_POWER_READING };
	double f[] = { v->ratio, t_peak, energy_known(&sd->r.energy) ? energy_mean_w(&sd->r.energy) : NAN };
	verdict_add(&v->causes, false, code[pv], f, "%s", why);
}

static void judge_figure(const Options *o, const VkCtx *ctx, const SuiteDev *sd, BlockMeans *run,
                         const OfflineBlocks *bl, size_t nb, const WorkloadInfo *wi, Verdict *v)
{
	const DeviceInfo *d = &ctx->entries[sd->idx];
	WorkloadType w = wi->id;
	/* --threshold, else the baseline's default, else the workload's share of
	 * its peak that a healthy device reaches */
	double t = (o->threshold_pct > 0 ? o->threshold_pct : CLI_DEFAULT_THRESHOLD_PCT) / 100;
	double t_peak = (o->threshold_pct > 0 ? o->threshold_pct : peak_check_threshold_pct(w)) / 100;
	*v = (Verdict){ .st = CHECK_NOREF, .median = NAN, .ratio = NAN, .threshold = NAN, .ref = "", .peer = NAN,
	                .checks = sd->checks };
	if (sd->wrong) {
		v->st = CHECK_WRONG;
		verdict_add(&v->causes, false, VC_WRONG_RESULT, NULL, "%s", sd->err);
		return;
	}
	if (sd->rc == 2 && workload_is_memory(w)) {
		v->st = CHECK_SKIP; /* a memory type or heap this device lacks */
		verdict_add(&v->causes, false, VC_UNSUPPORTED, NULL, "%s", sd->err);
		return;
	}
	if (sd->rc) {
		v->st = CHECK_ERROR;
		verdict_add(&v->causes, false, VC_RUN_ERROR, NULL, "%s", sd->err);
		return;
	}
	if (!sd->r.flops.n) {
		v->st = CHECK_FAIL;
		verdict_add(&v->causes, false, VC_NO_STEADY_SAMPLE, NULL,
		            "no sample reached the target in its window (a longer --budget)");
		return;
	}
	v->median = sd->r.flops.median;
	if (wi->kind == WL_POWER) {
		judge_power(sd, t_peak, v);
		return;
	}
	BlockMeans base[COMPARE_MAX_SESSIONS];
	const char *other = NULL;
	size_t nbase = baselines_for(bl, nb, wi->name, d->name, base, COMPARE_MAX_SESSIONS, &other);
	if (nbase) {
		CompareSide a = { base, nbase }, b = { run, 1 };
		CompareResult r;
		char err[256];
		v->ref = "baseline";
		v->threshold = t;
		/* the threshold is the check's measure of effect: no minimum beside it */
		if (!compare_sides(&a, &b, 0, &r, err, sizeof err)) {
			v->st = CHECK_UNSURE;
			verdict_add(&v->causes, false, VC_BASELINE_UNUSABLE, NULL, "cannot compare with the baseline: %s", err);
			return;
		}
		v->ratio = r.ratio;
		char why[VC_TEXT_LEN];
		CompareVerdict cv = compare_threshold(&r, t, why, sizeof why);
		v->st = cv == COMPARE_FASTER ? CHECK_PASS : cv == COMPARE_SLOWER ? CHECK_FAIL : CHECK_UNSURE;
		double f[] = { r.ratio, t };
		verdict_add(&v->causes, false, cv == COMPARE_FASTER ? VC_AT_BASELINE : cv == COMPARE_SLOWER ?
		            VC_BELOW_BASELINE : VC_BASELINE_UNSURE, f, "%s", why);
		return;
	}
	if (judge_peak(&sd->r, t_peak, v))
		return;
	if (other)
		verdict_add(&v->causes, false, VC_NO_REFERENCE, NULL, "no peak known and the %s baseline is of %s: only the "
		            "result checks held", wi->name, other);
	else if (nb)
		/* baselines were given, of other workloads: said, not "no baseline" */
		verdict_add(&v->causes, false, VC_NO_REFERENCE, NULL, "no peak known for %s on this device and the "
		            "--baseline log%s hold%s %s%s, no %s session: only the result checks held", wi->name,
		            nb == 1 ? "" : "s", nb == 1 ? "s" : "", bl[0].d.meta.workload, nb > 1 ? " ..." : "", wi->name);
	else
		/* the row names the workload: the words are the same on every such row */
		verdict_add(&v->causes, false, VC_NO_REFERENCE, NULL, "no peak known on this device and no baseline "
		            "(--baseline LOG): only the result checks held");
}

/* The verdict: the figure against its reference, then the clock's causes:
 * a fault reason that held it down (HW slowdown, a thermal slowdown, the
 * power brake) fails the workload, named with its time, whatever the
 * figure (a figure at a throttled clock can read 99% of the peak at that
 * clock); the power cap is reported, not failed, as DCGM's diagnostics do.
 * Other processes on the device are named, whatever the verdict. */
void check_verdict(const Options *o, const VkCtx *ctx, const SuiteDev *sd, BlockMeans *run, const OfflineBlocks *bl,
                   size_t nb, const WorkloadInfo *wi, Verdict *v)
{
	judge_figure(o, ctx, sd, run, bl, nb, wi, v);
	if (v->st != CHECK_WRONG && v->st != CHECK_ERROR && v->st != CHECK_SKIP) {
		char fault[300], cap[128], link[112];
		bool faulted = energy_fault(&sd->r.energy, fault, sizeof fault, cap, sizeof cap);
		/* a transfer over a link trained below what it can do (x8 or Gen3
		 * where x16 Gen5 is due): a fault of the node, whatever the figure */
		if (peak_kind(wi->id) == PEAK_PCIE && link_degraded(&sd->r.link, link, sizeof link)) {
			v->st = CHECK_FAIL;
			verdict_add(&v->causes, true, VC_LINK_DOWNGRADED, NULL, "the link ran at %s, a fault", link);
		}
		/* a link that retransmits (DCGM's pcie plugin fails the same count) */
		if (peak_kind(wi->id) == PEAK_PCIE && link_replays_excess(&sd->r.link, link, sizeof link)) {
			v->st = CHECK_FAIL;
			double f[] = { link_replays(&sd->r.link), PCIE_MAX_REPLAYS };
			verdict_add(&v->causes, true, VC_PCIE_REPLAYS, f, "%s, a fault", link);
		}
		if (faulted && wi->kind != WL_POWER) { /* power's verdict has said it */
			v->st = CHECK_FAIL;
			verdict_add(&v->causes, true, VC_THROTTLE_HW, NULL, HELD_BY ": %s, a fault", fault);
		} else if (cap[0] && wi->kind != WL_POWER) {
			verdict_add(&v->causes, false, VC_POWER_CAP, NULL, "%s (reported, not failed)", cap);
		}
	}
	const SharedBy *sb = &sd->r.shared;
	if (sb->max > 0)
		verdict_add(&v->causes, false, VC_OTHER_PROCESS, &sb->max, "other processes on the GPU: %.0f at most%s%s",
		            sb->max, sb->who[0] ? ": " : "", sb->who);
}
