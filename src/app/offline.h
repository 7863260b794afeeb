/* offline: what flopscope does with recorded session logs (no device):
 * replay as a table, export CSV or SVG, compare two sessions, find level
 * changes. Each returns
 * the exit status. */
#ifndef FLOPSCOPE_OFFLINE_H
#define FLOPSCOPE_OFFLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "compare.h"
#include "slogread.h"
#include "summary.h"

/* Reads a log in bounded memory; warnings and notes go to stderr. With sum,
 * the summary of the last run from every sample (summary_done it after);
 * also sees every sample as it is read (NULL: none). False (message
 * printed) when nothing is usable. */
/* keep_max: samples kept in d for plots (0: SLOG_KEEP_MAX; OFFLINE_KEEP_NONE
 * for a caller that sees every sample through also and keeps none). */
#define OFFLINE_KEEP_NONE 2
/* pick: the session of a file of several (the suite's), NULL: the file's one. */
bool offline_load(const char *path, const SlogPick *pick, SessionData *d, Summary *sum, const SlogVisitor *also,
                  size_t keep_max);
/* The session the options pick (--workload, --transfer-queue). */
SlogPick offline_pick(const Options *o);
/* One session log read for comparing: its 1 s block means (compare.h),
 * built as it is read; blocks_done them after. */
typedef struct OfflineBlocks {
	SessionData d;
	BlockMeans blocks;
	uint32_t flags;      /* the first sample's: the unit */
	bool any;
} OfflineBlocks;
bool offline_load_blocks(const char *path, const SlogPick *pick, OfflineBlocks *l);

/* The summary's result; *checks: the result checks the run passed, one
 * count in every view (its summary record's, else the checked samples). */
void offline_summarise(const Summary *s, const SessionData *d, SummaryResult *r, size_t *checks);

/* One file per command: replay_table.c, export.c, compare_cmd.c, analyze.c. */
int offline_replay_table(const Options *o);
/* --replay A B ...: a row per log and the outlier rule (multi.h's table). */
int offline_replay_node_table(const Options *o);
/* Each of --replay's logs read once into d[k] (keep_max as offline_load),
 * with its summary r[k] and checked samples verified[k]; false (said, none
 * kept) when one cannot be read. */
bool offline_node_load(const Options *o, SessionData *d, SummaryResult *r, size_t *verified, size_t keep_max);
/* The node table of logs already read: 0, 1 (stdout failed) or 2. */
int offline_node_table(const Options *o, const SessionData *d, const SummaryResult *r, const size_t *verified,
                       size_t n);
int offline_export(const Options *o);
int offline_compare(const Options *o);
int offline_analyze(const Options *o);
/* --logs: the default folder's sessions, newest first (loglist.c). */
int offline_list_logs(const Options *o);

#endif
