#include "telemetry.h"
#include "tel_impl.h"
#include "clock.h"
#include "threadname.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- the sampling thread ---------------------------------------------- */

/* The PCIe link into r: read again every 250 ms (its speed follows the
 * load on some GPUs), the last reading between. */
static void pcie_into(Telemetry *t, TelReading *r)
{
	if (!t->pcie_dir[0])
		return;
	uint64_t now = clock_mono_ns();
	if (!t->pcie_ns || now - t->pcie_ns >= 250000000ull) {
		telemetry_pcie_link(t->pcie_dir, t->pcie);
		t->pcie_ns = now;
	}
	for (int k = 0; k < TEL_PCIE_VALUES; k++)
		if (isfinite(t->pcie[k]) && !tel_has(r, (TelField)(TEL_PCIE_GTS + k))) /* the driver's first */
			tel_set(r, (TelField)(TEL_PCIE_GTS + k), t->pcie[k]);
}

static void *tel_main(void *arg)
{
	Telemetry *t = arg;
	thread_name("fs-telemetry", 0);
	while (!atomic_load(&t->stop)) {
		TelReading r;
		uint64_t t0 = clock_mono_ns();
		bool ok = t->src.read(&t->src, &r);
		if (ok)
			pcie_into(t, &r);
		atomic_fetch_add(&t->read_ns, clock_mono_ns() - t0);
		atomic_fetch_add(&t->reads, 1);
		if (ok) {
			pthread_mutex_lock(&t->mu);
			t->latest = r;
			pthread_mutex_unlock(&t->mu);
		}
		struct timespec ts = { 0, (long)t->period_ms * 1000000L };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static bool open_source(Telemetry *t, const DeviceInfo *d, bool no_context);

bool telemetry_open(Telemetry *t, const DeviceInfo *d)
{
	return open_source(t, d, false);
}

bool telemetry_open_watch(Telemetry *t, const DeviceInfo *d)
{
	return open_source(t, d, true);
}

static bool open_source(Telemetry *t, const DeviceInfo *d, bool no_context)
{
	memset(t, 0, sizeof *t);
	t->src.no_context = no_context;
	atomic_init(&t->stop, false);
	pthread_mutex_init(&t->mu, NULL);
	atomic_init(&t->reads, 0);
	atomic_init(&t->read_ns, 0);
	if (!telemetry_pcie_dir(d, t->pcie_dir, sizeof t->pcie_dir))
		t->pcie_dir[0] = '\0';
	if (getenv("FLOPSCOPE_NO_TELEMETRY")) {
		snprintf(t->note, sizeof t->note, "telemetry off (FLOPSCOPE_NO_TELEMETRY)");
		return false;
	}
	for (const TelDriver *const *drv = tel_drivers; *drv; drv++) {
		if ((*drv)->serves(d)) {
			t->active = (*drv)->open(&t->src, d, t->note, sizeof t->note);
			return t->active;
		}
		if ((*drv)->may_serve && (*drv)->may_serve(d)) {
			if ((*drv)->open(&t->src, d, t->note, sizeof t->note))
				return t->active = true;
			memset(&t->src, 0, sizeof t->src); /* what it set before it gave up */
			t->src.no_context = no_context;
		}
	}
	snprintf(t->note, sizeof t->note, "no telemetry source for vendor 0x%04x: clocks and power N/A", d->vendor_id);
	return false;
}

bool telemetry_start(Telemetry *t, unsigned period_ms)
{
	if (!t->active)
		return false;
	t->period_ms = period_ms ? period_ms : 10;
	/* one reading before anything is measured */
	TelReading r;
	if (t->src.read(&t->src, &r)) {
		pcie_into(t, &r);
		t->latest = r;
	}
	if (pthread_create(&t->thread, NULL, tel_main, t) != 0)
		return false;
	t->thread_started = true;
	return true;
}

void telemetry_latest(Telemetry *t, TelReading *out)
{
	if (!t->active) {
		memset(out, 0, sizeof *out);
		return;
	}
	pthread_mutex_lock(&t->mu);
	*out = t->latest;
	pthread_mutex_unlock(&t->mu);
}

double telemetry_read_us(Telemetry *t)
{
	uint64_t n = atomic_load(&t->reads);
	return n ? (double)atomic_load(&t->read_ns) / (double)n * 1e-3 : 0;
}

void telemetry_close(Telemetry *t)
{
	if (t->thread_started) {
		atomic_store(&t->stop, true);
		pthread_join(t->thread, NULL);
		t->thread_started = false;
	}
	if (t->active && t->src.close)
		t->src.close(&t->src);
	t->active = false;
	pthread_mutex_destroy(&t->mu);
}

