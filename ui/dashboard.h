/* dashboard: the live screen of one run, fed by a source: the engine (live)
 * or a recorded session log (replay). */
#ifndef FLOPSCOPE_DASHBOARD_H
#define FLOPSCOPE_DASHBOARD_H

#include "engine.h"
#include "summary.h"
#include "screen.h"

typedef enum DashExit {
	DASH_QUIT,   /* q, or a signal */
	DASH_BACK,   /* d: back to the picker */
	DASH_NEXT_WORKLOAD, /* w: the same device, the next workload */
} DashExit;

/* Where samples come from, and what the header shows. Optional operations
 * are NULL where the source cannot do them. */
typedef struct DashSource {
	void *ctx;
	char title[512];          /* device (queue, type) */
	const char *workload;
	bool timestamps;
	const char *log_path;     /* NULL: none */
	bool replay;
	bool (*next)(void *ctx, Sample *out);    /* non-blocking */
	EngineState (*state)(void *ctx);
	double (*target_ms)(void *ctx);
	uint64_t (*checks)(void *ctx);
	size_t (*dropped)(void *ctx);
	const char *(*error)(void *ctx);         /* NULL when none */
	const char *(*log_error)(void *ctx);     /* NULL when none */
	void (*pause)(void *ctx, bool paused);
	void (*restart)(void *ctx);
	void (*set_target)(void *ctx, double ms);
	double (*speed)(void *ctx, int dir);     /* replay: x2 (dir > 0), /2 (dir < 0); returns it */
	void (*stop)(void *ctx);
} DashSource;

/* Fills a source that reads the engine (which dashboard_run starts). */
void dash_source_engine(DashSource *src, Engine *e);

/* Shows the source until the user leaves, redrawing at most fps times a
 * second and only when something changed. *failed is set when the source
 * stopped with an error (shown on screen); *summary receives the statistics. */
DashExit dashboard_run(Screen *s, DashSource *src, unsigned fps, bool *failed, SummaryResult *summary);

#endif
