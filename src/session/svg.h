/* svg: a session as an SVG report a person would paste into a document:
 * the statistics in a box; the throughput with the level changes numbered
 * (a power-state change red, any other grey) and listed in a table below;
 * workgroups on a log axis; GPU and CPU dispatch time with the target;
 * clock and power where they were read. Each plot has a legend; axes take
 * round steps; a stretch without samples is drawn as a gap, never joined;
 * no two labels overlap (their boxes are laid out with svg_text_width's
 * estimate, the one the tests hold the file to). Pure: writes to a FILE. */
#ifndef FLOPSCOPE_SVG_H
#define FLOPSCOPE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "burn.h"
#include "sample.h"
#include "summary.h"

/* r: the session's statistics (summary_result of every sample). */
/* The largest target the samples (or the session) were measured at, ms. */
double svg_targets_max(const Sample *s, size_t n, double session_target_ms);
/* "target 20 ms" or "targets 20 ms, 100 ms": every target the samples were
 * measured at, in order (the session's where they say none); how many. */
size_t svg_targets_str(const Sample *s, size_t n, double session_target_ms, char *out, size_t len);
bool svg_write(FILE *f, const char *title, const Sample *s, size_t n, double target_ms, const SummaryResult *r);

/* Several sweeps of copy sizes (h2d, d2h, cached host memory, the transfer
 * queue ...) in one chart: each size's median at the target against the
 * size, a line a sweep named by its label, as the Level Zero seed's
 * figures. unit: the samples' (B/s). */
typedef struct SvgSweep {
	const char *label;
	const SummaryResult *r;  /* its statistics: the medians by size */
} SvgSweep;
bool svg_write_sweeps(FILE *f, const char *title, const SvgSweep *sw, size_t n, const char *unit);

/* A soak's chart of quantity q (burn.h's traces) over the run, for the
 * burn's report: a line a trace (a run, or a device's runs merged), each
 * span's mean solid and the extreme that matters dotted (throughput and
 * clock: the least; power and temperature: the greatest), the windows'
 * edges; an <svg> element to put in a page (no XML declaration). unit: the
 * throughput's. A trace is named and coloured by its device's number, the
 * same in every chart. */
typedef struct SvgBurnDev {
	size_t number;           /* the device's among the burn's (1..) */
	const char *label;
	const BurnTrace *trace;  /* NULL: the device did not run */
} SvgBurnDev;
bool svg_write_burn(FILE *f, BurnQuantity q, const char *unit, const SvgBurnDev *d, size_t n, double window_s,
                    double ran_s);

#endif
