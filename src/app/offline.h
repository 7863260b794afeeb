/* offline: what flopscope does with recorded session logs (no device):
 * replay as a table, export CSV or SVG, compare two sessions. Each returns
 * the exit status. */
#ifndef FLOPSCOPE_OFFLINE_H
#define FLOPSCOPE_OFFLINE_H

#include "cli.h"

int offline_replay_table(const Options *o);
int offline_export(const Options *o);
int offline_compare(const Options *o);
int offline_analyze(const Options *o);

#endif
