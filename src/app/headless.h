/* headless: the consumer that prints samples as they come (table, CSV, JSON). */
#ifndef FLOPSCOPE_HEADLESS_H
#define FLOPSCOPE_HEADLESS_H

#include <stdatomic.h>

#include "cli.h"
#include "engine_set.h"

/* One device's run from cfg, through the engine set as every mode's runs
 * go (a set of one): built, started, its samples printed as they come,
 * until it is done, fails, or *quit is set (then stopped); its summary
 * after. Returns the exit status: 0; 1 on an engine or output failure;
 * the engine's own where it could not be built (2 usage, 3 wrong values).
 * mo: the metrics (metrics_live.h; NULL or no board: none), where the run
 * built has a row of its own, its device entry number `entry` (1-based). */
struct MetricsOut;
int headless_run(const EngineConfig *cfg, size_t entry, const Options *o, struct MetricsOut *mo, atomic_int *quit);

#endif
