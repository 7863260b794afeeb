/* engine_set: several engines built, started, drained and finished
 * together, each with what became of it. The one way a mode runs engines
 * side by side (the dashboard and node view, --all / -1 -2, the suite);
 * screens pause and stop them through their sources' controls, and a quit
 * stops the drain. */
#ifndef FLOPSCOPE_ENGINE_SET_H
#define FLOPSCOPE_ENGINE_SET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

typedef struct EngineMember {
	Engine *e;            /* NULL: not built, not started, or destroyed */
	Error err;            /* why it was not built (err.status: 2 usage, 3 wrong values) or not
	                         started (status 1); msg "" when it was */
	/* after engine_set_finish */
	SummaryResult sum;    /* the run's statistics (the log's summary line) */
	uint64_t checks;      /* result checks passed */
	double first_ms;      /* its first sample after launch, 0: none */
	bool spirv_cached;    /* its start found its SPIR-V in the cache */
	bool pipeline_cached; /* ... and its pipeline cache's data */
	bool failed;          /* it ended in ENGINE_ERROR: error says why */
	bool wrong;           /* ... because it computed wrong values */
	bool log_failed;      /* its session log could not be written */
	char error[ERR_LEN];
} EngineMember;

typedef struct EngineSet {
	EngineMember *m;
	size_t n;
} EngineSet;

/* Builds one engine per cfg[k]. all_or_none: at the first that cannot be
 * built, those built are destroyed and no more are tried (false); else
 * every one is tried (false only when none could be). False with err
 * filled also when the set cannot be allocated. */
bool engine_set_create(EngineSet *s, const EngineConfig *cfg, size_t n, bool all_or_none, Error *err);
/* Starts every engine built; one that cannot start is destroyed, its err
 * filled (all_or_none: so are all the others, and false). Returns whether
 * any (all_or_none: all) started. */
bool engine_set_start(EngineSet *s, bool all_or_none);
/* The samples of all as they come (engine_drain_all). */
void engine_set_drain(EngineSet *s, bool (*on_sample)(void *ctx, size_t k, const Sample *sample), void *ctx,
                      atomic_int *quit);
/* Waits for every engine, then fills each member's results. */
void engine_set_finish(EngineSet *s);
/* Destroys the engines and frees the set. */
void engine_set_destroy(EngineSet *s);

#endif
