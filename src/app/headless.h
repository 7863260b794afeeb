/* headless: the consumer that prints samples as they come (table, CSV, JSON). */
#ifndef FLOPSCOPE_HEADLESS_H
#define FLOPSCOPE_HEADLESS_H

#include <stdatomic.h>

#include "cli.h"
#include "engine.h"

/* Runs until the engine is done, fails, or *quit is set (then stops it).
 * Returns the exit status: 0, or 1 on an engine or output failure. */
struct MetricsOut;
/* mo: the metrics (metrics_live.h; NULL or no board: none), row the run's. */
int headless_run(Engine *e, const Options *o, struct MetricsOut *mo, int row, atomic_int *quit);

#endif
