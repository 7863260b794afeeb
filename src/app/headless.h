/* headless: the consumer that prints samples as they come (table, CSV, JSON). */
#ifndef FLOPSCOPE_HEADLESS_H
#define FLOPSCOPE_HEADLESS_H

#include <signal.h>

#include "cli.h"
#include "engine.h"

/* Runs until the engine is done, fails, or *quit is set (then stops it).
 * Returns the exit status: 0, or 1 on an engine or output failure. */
int headless_run(Engine *e, const Options *o, volatile sig_atomic_t *quit);

#endif
