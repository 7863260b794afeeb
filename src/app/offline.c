/* offline: what every offline command shares. */
#include "offline.h"

#include <stdio.h>

/* Reads a log; warnings go to stderr. Returns false (message printed) when
 * nothing is usable. */
bool offline_load(const char *path, SessionData *d)
{
	char err[1024];
	if (slog_read(path, d, err, sizeof err) < 0) {
		fprintf(stderr, "flopscope: %s\n", err);
		return false;
	}
	if (d->warning[0])
		fprintf(stderr, "flopscope: warning: %s\n", d->warning);
	if (d->engine_error[0])
		fprintf(stderr, "flopscope: the recorded run ended in an error: %s\n", d->engine_error);
	return true;
}

void offline_summarise(const SessionData *d, SummaryResult *r, size_t *verified)
{
	Summary s;
	summary_init(&s);
	for (size_t i = 0; i < d->n; i++)
		summary_add(&s, &d->samples[i]);
	summary_result(&s, r);
	*verified = s.verified;
	summary_done(&s);
}
