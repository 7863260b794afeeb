/* burn_remake: flopscope --export LOG... --report OUT.md|OUT.html: a
 * burn's report made again from its devices' session logs. */
#ifndef FLOPSCOPE_BURN_REMAKE_H
#define FLOPSCOPE_BURN_REMAKE_H

#include "cli.h"

/* 0 written; 2 a log is not a burn's, or the logs are not one burn's; 1
 * the report could not be written (said on stderr). */
int burn_remake(const Options *o);

#endif
