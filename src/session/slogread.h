/* slogread: reading a session log back, line by line in bounded memory
 * (slog_parse on a buffer, slog_read on a file of any length). A damaged line
 * costs that line: skipped, counted, named in the warning. Every sample can
 * be seen as it is read (SlogVisitor); SessionData keeps at most
 * SLOG_KEEP_MAX of the last run's samples, thinned evenly beyond that. */
#ifndef FLOPSCOPE_SLOGREAD_H
#define FLOPSCOPE_SLOGREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"
#include "slog.h"

/* samples kept for a plot or replay: beyond it every other one is let go */
#define SLOG_KEEP_MAX ((size_t)1 << 19)
/* the longest line read; a longer one is a damaged line */
#define SLOG_MAX_LINE ((size_t)1 << 20)

/* What a reader sees as it goes: every sample of every run, in order. Any
 * member may be NULL. */
typedef struct SlogVisitor {
	void *ctx;
	void (*sample)(void *ctx, const Sample *s);
	void (*restart)(void *ctx);
	void (*gap)(void *ctx, double t_ms, double gap_ms);
	/* a burn's window record (slog_write_window), in the log's order */
	void (*window)(void *ctx, const struct BurnWindow *w);
} SlogVisitor;

typedef struct SessionData {
	SessionMeta meta;
	Sample *samples;         /* of every segment (restarts), on one timeline */
	size_t n, cap;
	size_t keep_max;         /* SLOG_KEEP_MAX, or less (tests) */
	size_t stride;           /* 1: every sample of the run kept; k: one in k */
	size_t run_samples;      /* samples read (n of them kept) */
	double t_offset, restart_t; /* the timeline across restarts */
	bool after_restart;
	size_t gaps;             /* stops (SIGSTOP, Ctrl-Z): not measured */
	double gap_ms;           /* their total length */
	size_t lines;            /* lines read and used */
	size_t restarts;
	size_t windows;          /* a burn's window records */
	bool has_summary;        /* the run ended normally */
	uint64_t summary_checks; /* its summary's checks_passed: the samples' checks and those of
	                            dispatches not recorded (the warm-up's) */
	char engine_error[512];  /* an error record, if any */
	char warning[768];       /* what was skipped, with line numbers; empty when nothing */
	size_t damaged;          /* lines that are no record, or a sample without its fields: skipped */
	size_t first_damaged;    /* the first of them (line number) */
	char first_damage[96];   /* what was wrong with it, when known */
	size_t unknown;          /* records of types this version does not know: skipped */
	char first_unknown[40];  /* the first such type, as the log names it */
	bool cut_short;          /* the last line has no newline (a killed run): left out */
	size_t repeated;         /* samples whose seq repeats or goes back: skipped, counted once */
	size_t first_repeated;   /* the first of them (line number) */
} SessionData;

/* Which session of a file that holds several (a suite's, slog.h): the one
 * of this workload on this queue. A file of one session is read as it is
 * without a pick, and must hold the picked one with one. */
typedef struct SlogPick {
	const char *workload;  /* NULL: no pick; a file of several sessions is refused */
	bool transfer_queue;   /* the session on the transfer-only queue */
} SlogPick;

/* 0: read (perhaps with a warning); -1: not usable at all, err says why
 * ("NAME:LINE: ..."). name is used in messages. */
int slog_parse(const char *text, size_t len, const char *name, SessionData *out, char *err, size_t errlen);
int slog_read(const char *path, SessionData *out, char *err, size_t errlen);

/* The logs of one multi-device run (every meta with the same node id, each
 * device once) in their devices' order: perm[i] is the index of the i-th; the given order
 * when they are not one run. Returns whether they are. */
bool slog_node_order(const SessionMeta *const *metas, size_t n, size_t *perm);
/* Either, with a pick (NULL: none), a visitor (NULL: none) and a keep limit
 * (0: SLOG_KEEP_MAX). A file of several sessions without a pick, or
 * without the picked one, is refused with the sessions it holds named. */
int slog_parse_visit(const char *text, size_t len, const char *name, const SlogPick *pick, const SlogVisitor *v,
                     size_t keep_max, SessionData *out, char *err, size_t errlen);
int slog_read_visit(const char *path, const SlogPick *pick, const SlogVisitor *v, size_t keep_max,
                    SessionData *out, char *err, size_t errlen);

/* The sessions a file holds, read from their session and summary records
 * only: what --logs lists and what a check's baseline offers. */
typedef struct SlogEntry {
	char start_utc[32], device[256], workload[64], unit[8];
	bool transfer_queue;
	bool complete;           /* it has its summary record */
	double median;           /* the summary's median; NAN without one */
	double samples;          /* the summary's sample count; NAN without one */
} SlogEntry;
/* Fills *out (free() it) with *n entries; false with err when the file
 * cannot be read or its first line is no session record. */
bool slog_index(const char *path, SlogEntry **out, size_t *n, char *err, size_t errlen);
/* "h2d (transfer queue)", "fp32": a session's name in messages. */
void slog_entry_label(const char *workload, bool transfer_queue, char *out, size_t len);
void session_data_done(SessionData *d);

#endif
