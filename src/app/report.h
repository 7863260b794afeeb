/* report: the headless outputs (the tutorial's table, CSV) and the closing
 * summary in words. Rows are written into buffers; the JSON encodings are
 * session/records.h, the statistics core/summary.h. */
#ifndef FLOPSCOPE_REPORT_H
#define FLOPSCOPE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "records.h"
#include "slog.h"
#include "summary.h"

/* Two header lines of the table, each ending in '\n'. */
extern const char report_table_header[];
/* The samples' CSV header (with its newline): the same columns whatever
 * the device count, every field a JSON sample has. */
const char *report_csv_header(void);

void report_table_row(const Sample *s, char *buf, size_t len);
/* A CSV row: device dev's (0: one device, written 1) sample's fields,
 * then ident (report_csv_identity). */
void report_csv_row(const Sample *s, unsigned dev, const char *ident, char *buf, size_t len);
/* The columns that name the device on every CSV row (the header's last
 * five: device, uuid, pci_bus_id, host, flopscope), comma-led, text quoted
 * as RFC 4180 says: from the session's record, so that a headless run and
 * the export of its log write the same. */
#define REPORT_CSV_IDENT_LEN 1400
#define REPORT_CSV_ROW_LEN (2048 + REPORT_CSV_IDENT_LEN) /* a row, its identity with it */
void report_csv_identity(const SessionMeta *m, char *out, size_t len);

/* Human summary, several lines. dropped: samples the ring lost. */
/* The level changes found, in words: counts by cause, then each kept one
 * (oldest first), each line starting with indent. */
/* most: at most this many, the largest (0: every one kept); the
 * summary printed after a run shows REPORT_SUMMARY_CHANGES. */
#define REPORT_SUMMARY_CHANGES 5
void report_changes(FILE *f, const ChangeDetector *cd, const char *unit, const char *indent, size_t most);
/* The run's energy: "energy: 5.58 kJ over 8.00 s of dispatches, mean 698 W,
 * max 723 W of a 700 W limit (mean 100%); 800 GFLOP/J", or "energy: N/A (no
 * power reading)"; then the time at each cause of reduced clocks where the
 * reasons were read. */
void report_energy_text(FILE *f, const Energy *e, const char *unit, const char *indent);
/* The run's telemetry events (televent.h), the first `most` in words (all
 * kept when 0); nothing where there were none. */
#define REPORT_SUMMARY_EVENTS 5
void report_events(FILE *f, const TelEvents *t, const char *unit, const char *indent, size_t most);
void report_summary_text(FILE *f, const SummaryResult *r, size_t dropped,
                         uint64_t checks_passed, double target_ms);

#endif
