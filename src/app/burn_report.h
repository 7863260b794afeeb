/* burn_report: the burn's report, as Markdown and as a self-contained HTML
 * page (inline SVG plots of throughput, clock, power and temperature over
 * the whole soak, the devices, each device's windows and causes), from
 * plain structs burn_cmd.c fills. */
#ifndef FLOPSCOPE_BURN_REPORT_H
#define FLOPSCOPE_BURN_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "burn.h"
#include "slog.h"

/* A judged window, as the report keeps it. */
typedef struct BurnKept {
	unsigned index;
	double t0, t1;
	bool partial;
	BurnStatus st;
	double median, min, mhz, watts, temp, held_power, held_thermal, held_hw, others, drift, peer;
	double slowdown, replays, ecc_new; /* the slowdown threshold, the window's PCIe replays and new
	                                      uncorrected ECC errors; NaN unread */
	char why[240];
	char codes[96];
} BurnKept;

typedef struct BurnReportDev {
	size_t number;           /* the device's among the burn's (1..): a device's workloads share it */
	const char *name;        /* the model; with several workloads taking turns, "model (workload)" */
	const char *unit;        /* its throughput's */
	const SessionMeta *m;    /* NULL: it did not start */
	const char *verdict;     /* "PASS" ... "ERROR" */
	const char *error;       /* why it could not run or failed; "" none */
	const BurnKept *kept;
	size_t nkept;
	const BurnTrace *trace;  /* its soak for the plots; NULL none */
} BurnReportDev;

typedef struct BurnReport {
	const SessionMeta *m0;   /* the first device's session (host, start, workload); NULL none */
	double burn_s, window_s, ran_s;
	int sig, status;         /* the signal that ended it (0 none); the exit status otherwise */
	bool by_key;             /* sig is SIGINT's for q or Ctrl-C in the node view (the terminal's raw
	                            mode reads them as keys) */
	const size_t *count;     /* windows by status, BURN_STATUS_COUNT */
	const BurnReportDev *d;
	size_t n;
	bool remade;             /* made again from the logs (--export --report), not by the burn */
} BurnReport;

/* A judged window as the report keeps it (its why and codes: the caller's). */
void burn_kept_of(const BurnWindow *w, BurnKept *k);

/* The report written new at path (over a file of its kind only with force,
 * fileio's rules), Markdown or HTML;
 * false where it could not be (err says why). */
bool burn_report_md(const BurnReport *r, const char *path, bool force, char *err, size_t len);
bool burn_report_html(const BurnReport *r, const char *path, bool force, char *err, size_t len);

#endif
