/* engine_log: the engine's session log: its meta record (the device, the
 * workload, the peak), the changes and excursions as they are found, the
 * error and the summary that end it. */
#include "engine_impl.h"
#include "burn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

void engine_fill_meta(Engine *e)
{
	SessionMeta *m = &e->meta;
	const DeviceInfo *d = e->cfg.dev;
	slog_host_facts(m);
	snprintf(m->flopscope_version, sizeof m->flopscope_version, "%s", FLOPSCOPE_VERSION);
	snprintf(m->device, sizeof m->device, "%s", d->name);
	snprintf(m->device_type, sizeof m->device_type, "%s", devinfo_type_str(d->type));
	m->vendor_id = d->vendor_id;
	m->device_id = d->device_id;
	devinfo_uuid_str(d->uuid, m->uuid, sizeof m->uuid);
	devinfo_pci_str(d, m->pci_bus_id, sizeof m->pci_bus_id);
	snprintf(m->driver_name, sizeof m->driver_name, "%s", d->driver_name);
	snprintf(m->driver_info, sizeof m->driver_info, "%s", d->driver_info);
	devinfo_driver_version_str(d, m->driver_version, sizeof m->driver_version);
	devinfo_version_str(d->api_version, m->api_version, sizeof m->api_version);
	m->queue_family = e->qdev.queue_family; /* the family the work runs on */
	snprintf(m->queue, sizeof m->queue, "%s", e->cfg.transfer_queue ? "transfer" : "compute");
	snprintf(m->workload, sizeof m->workload, "%s", workload_info[e->cfg.workload].name);
	m->flop_per_invocation = e->work.per_invocation;
	m->local_size = e->work.local_size;
	snprintf(m->shader_hash, sizeof m->shader_hash, "%016llx", (unsigned long long)e->shader_hash);
	m->target_ms = e->cfg.target_ms;
	m->trials = e->work.trials;
	snprintf(m->timing, sizeof m->timing, "%s", e->comp.timestamps ? "gpu" : "cpu");
	snprintf(m->peak, sizeof m->peak, "%s", e->peak.how);
	m->peak_max_flops = peak_flops(&e->peak, e->peak.max_mhz);
	m->sm_max_mhz = e->tel.active ? e->tel.src.max_mhz : 0;
	snprintf(m->unit, sizeof m->unit, "%s", workload_unit_names[workload_info[e->cfg.workload].unit]);
	snprintf(m->telemetry, sizeof m->telemetry, "%s", e->tel.note);
	m->burn_s = e->cfg.burn_s;
	m->burn_window_s = e->cfg.burn_window_s;
	m->burn_margin_pct = e->cfg.burn_margin_pct;
	m->burn_log_budget_b = e->cfg.burn_s > 0 ? e->cfg.burn_log_budget_b : 0;
	m->burn_turns = e->cfg.burn_s > 0 && e->cfg.burn_turns > 1 ? e->cfg.burn_turns : 0;
	m->burn_turn = m->burn_turns ? e->cfg.burn_turn : 0;
	if (e->cfg.node_id && e->cfg.ordinal) {
		snprintf(m->node, sizeof m->node, "%s", e->cfg.node_id);
		m->ordinal = e->cfg.ordinal;
		m->devices = e->cfg.devices;
	}
}

void engine_log_step(Engine *e, bool ok)
{
	if (!ok && e->log.failed && !atomic_load(&e->log_failed))
		atomic_store_explicit(&e->log_failed, true, memory_order_release);
}

/* Records for the changes and excursions found since the counts given. */
void engine_log_changes(Engine *e, size_t nchanges, size_t nexc)
{
	const ChangeDetector *cd = &e->sum.changes;
	const char *unit = sample_flags_unit(e->sum.unit_flags);
	for (size_t i = cd->nchanges - nchanges; e->log.f && i-- > 0;)
		if (change_get(cd, i))
			engine_log_step(e, slog_write_change(&e->log, change_get(cd, i), cd->nchanges - 1 - i, unit));
	for (size_t i = cd->nexc - nexc; e->log.f && i-- > 0;)
		if (change_excursion(cd, i))
			engine_log_step(e, slog_write_excursion(&e->log, change_excursion(cd, i), unit));
}

/* The engine thread changes the statistics between these two. */
void engine_sum_begin(Engine *e)
{
	pthread_mutex_lock(&e->sum_mu);
}

void engine_sum_end(Engine *e)
{
	e->sum_ver++;
	pthread_mutex_unlock(&e->sum_mu);
}

bool engine_log_burn_begin(Engine *e)
{
	if (!(e->cfg.burn_s > 0 && e->cfg.burn_window_s > 0) || !e->log.f)
		return true;
	e->cut = malloc(sizeof *e->cut);
	if (e->cut && burn_cut_init(e->cut, e->cfg.burn_s, e->cfg.burn_window_s)) {
		burn_cut_turns(e->cut, e->cfg.burn_turn, e->cfg.burn_turns);
		return true;
	}
	free(e->cut);
	e->cut = NULL;
	return false;
}

/* Room kept in a burn's log budget for each window's record and for the
 * records at its end (the summary, an error): theirs, not the samples'. */
#define BURN_WINDOW_RECORD_B 640.0
#define BURN_END_RECORDS_B 4096.0

/* Whether a sample at t_s fits a burn's log budget: what the log holds
 * besides its window records (the session record, the samples, the level
 * changes) may grow with the burn's time to the budget less the room kept
 * for every window's record and the end's, a window's worth granted ahead
 * so that the first samples are kept; samples past the planned length
 * share what is left. A budget too small for the windows keeps no sample. */
static bool within_budget(const Engine *e, double t_s)
{
	uint64_t budget = e->meta.burn_log_budget_b;
	if (!budget)
		return true;
	double w = e->cfg.burn_window_s, share = (t_s + w) / (e->cfg.burn_s + w);
	double windows = ceil(e->cfg.burn_s / w - 1e-9) + 1;
	double room = (double)budget - windows * BURN_WINDOW_RECORD_B - BURN_END_RECORDS_B;
	return (double)(e->log.bytes - e->log_win_bytes) <= room * (share < 1 ? share : 1);
}

static void write_window(Engine *e, const BurnWindow *w)
{
	uint64_t before = e->log.bytes;
	engine_log_step(e, slog_write_window(&e->log, w));
	e->log_win_bytes += e->log.bytes - before;
}

void engine_log_sample(Engine *e, const Sample *s)
{
	BurnWindow closed;
	if (e->cut && burn_cut_add(e->cut, s, &closed))
		write_window(e, &closed);
	if (within_budget(e, s->t_ms / 1000.0))
		engine_log_step(e, slog_write_sample(&e->log, s, &e->procs));
}

void engine_log_turn_end(Engine *e)
{
	BurnWindow closed;
	if (e->cut && burn_cut_turn_end(e->cut, &closed))
		write_window(e, &closed);
}

/* A burn's last window, cut short by the end or a failure (partial). */
static void burn_close(Engine *e, const char *error)
{
	if (!e->cut)
		return;
	if (e->cut->seen && e->log.f) {
		BurnWindow w;
		burn_cut_close(e->cut, &w, burn_cut_more(e->cut) || error, e->cut->cur + 1);
		w.error = w.error || (error && !atomic_load(&e->wrong));
		write_window(e, &w);
	}
	burn_cut_free(e->cut);
	free(e->cut);
	e->cut = NULL;
}

void engine_log_finish(Engine *e, const char *error)
{
	/* a departure still open at the end is settled, and recorded */
	size_t nc = e->sum.changes.nchanges, ne = e->sum.changes.nexc;
	engine_sum_begin(e);
	summary_finish(&e->sum);
	engine_sum_end(e);
	engine_log_changes(e, nc, ne);
	burn_close(e, error);
	if (!e->log.f)
		return;
	if (error)
		engine_log_step(e, slog_write_error(&e->log, error));
	SummaryResult r;
	summary_result(&e->sum, &r);
	engine_log_step(e, slog_write_summary(&e->log, &r, ring_dropped(&e->ring), atomic_load(&e->checks_passed)));
	slog_close(&e->log);
	engine_log_step(e, !e->log.failed);
}

