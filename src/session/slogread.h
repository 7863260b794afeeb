/* slogread: reading a session log back. Pure parsing (slog_parse) on a
 * buffer; slog_read reads a file. A line that cannot be used ends the read
 * with a warning naming it; the samples before it are kept. */
#ifndef FLOPSCOPE_SLOGREAD_H
#define FLOPSCOPE_SLOGREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "sample.h"
#include "slog.h"

typedef struct SessionData {
	SessionMeta meta;
	Sample *samples;         /* of the last run (a restart starts a new one) */
	size_t n, cap;
	size_t lines;            /* lines read and used */
	size_t restarts;
	bool has_summary;        /* the run ended normally */
	char engine_error[512];  /* an error record, if any */
	char warning[768];       /* what was skipped, with line numbers; empty when nothing */
	size_t damaged;          /* lines that are no record, or a sample without its fields: skipped */
	size_t first_damaged;    /* the first of them (line number) */
	char first_damage[96];   /* what was wrong with it, when known */
	size_t unknown;          /* records of types this version does not know: skipped */
	bool cut_short;          /* the last line has no newline (a killed run): left out */
} SessionData;

/* 0: read (perhaps with a warning); -1: not usable at all, err says why
 * ("NAME:LINE: ..."). name is used in messages. */
int slog_parse(const char *text, size_t len, const char *name, SessionData *out, char *err, size_t errlen);
int slog_read(const char *path, SessionData *out, char *err, size_t errlen);
void session_data_done(SessionData *d);

#endif
