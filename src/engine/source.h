/* source: where a consumer's samples come from, live or recorded. The
 * dashboard reads a SampleSource, never the engine or a log directly; the
 * engine gives one (source_engine), a recorded log another (replay.h). */
#ifndef FLOPSCOPE_SOURCE_H
#define FLOPSCOPE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procs.h"
#include "runstate.h"
#include "sample.h"
#include "summary.h"

/* the engine, opaque (source_engine's) */
typedef struct Engine Engine;

/* What a screen asks of the run behind a source; optional ones are NULL
 * where it cannot. A control has its own ctx, so that a view acting on
 * several runs (the node view's zoom) gives one source's samples with
 * controls over all, forwarding nothing. */
typedef struct SourceControls {
	void *ctx;
	void (*pause)(void *ctx, bool paused);
	void (*restart)(void *ctx);
	void (*set_target)(void *ctx, double ms);
	double (*speed)(void *ctx, int dir);     /* replay: x2 (dir > 0), /2 (dir < 0); returns it
	                                            (INFINITY: every sample as soon as it is asked for) */
	/* replay: move the play position by delta_ms (INFINITY: to the end);
	 * true when it went back, so that the source plays again from the
	 * start up to there and the consumer must forget what it took */
	bool (*seek)(void *ctx, double delta_ms);
	void (*step)(void *ctx);                 /* replay: pause, and release one more sample */
	double (*position)(void *ctx, double *length); /* replay: the play position and the length, ms */
	void (*note_stop)(void *ctx, const char *why); /* why the next stop comes, for the log */
	/* another process on the device, ended from the process table (a live
	 * run's: procfs_ops, by pidfd); NULL: a replay's */
	const ProcOps *procs;
	void (*stop)(void *ctx);
} SourceControls;

/* What the header shows, the reads, and the controls; optional ones are
 * NULL where the source cannot do them. */
typedef struct SampleSource {
	void *ctx;
	char title[512];          /* device (queue, type) */
	const char *workload;
	bool timestamps;
	const char *log_path;     /* NULL: none */
	double max_mhz;           /* the highest shader clock; 0 unknown */
	bool replay;
	bool (*next)(void *ctx, Sample *out);    /* non-blocking */
	EngineState (*state)(void *ctx);
	double (*target_ms)(void *ctx);
	uint64_t (*checks)(void *ctx);           /* since the last restart */
	/* the run's statistics, every segment's: the one set a screen shows
	 * (the engine's own, or a replay's of what it has played) */
	void (*summary)(void *ctx, SummaryResult *out);
	size_t (*dropped)(void *ctx);
	void (*procs)(void *ctx, ProcTable *out);  /* the other processes now; NULL: never known */
	const char *(*error)(void *ctx);         /* NULL when none */
	const char *(*log_error)(void *ctx);     /* NULL when none */
	SourceControls ctl;
	/* a watcher of every sample taken (the metrics board); NULL: none */
	void (*tap)(void *tap_ctx, const Sample *s);
	void *tap_ctx;
} SampleSource;

/* The next sample (non-blocking), shown to the tap too. */
static inline bool source_next(SampleSource *src, Sample *out)
{
	if (!src->next(src->ctx, out))
		return false;
	if (src->tap)
		src->tap(src->tap_ctx, out);
	return true;
}

/* A source that reads the engine (the consumer starts it). */
void source_engine(SampleSource *src, Engine *e);

#endif
