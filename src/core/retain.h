/* retain: which old session logs go, so that the default log folder stays
 * bounded: at most `keep` logs and `cap` bytes, the oldest removed first.
 * Pure: the caller lists the folder and removes the files. */
#ifndef FLOPSCOPE_RETAIN_H
#define FLOPSCOPE_RETAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RETAIN_DEFAULT_KEEP 500                 /* logs */
#define RETAIN_DEFAULT_CAP (100ull << 20)       /* bytes: a day of dashboard use at 20 ms */

/* Whether a file name is one of flopscope's default log names
 * ("20261123T150803Z-device-workload.jsonl", "...-2.jsonl"): only those are
 * ever removed. */
bool retain_is_log_name(const char *name);

/* sizes[0..n) of the logs from oldest to newest; `room` bytes are wanted
 * for the log about to be written (0: none) and it counts as one log.
 * Marks remove[i] for the oldest ones to go until at most keep (0: no
 * limit) remain with it and their total plus room is within cap (0: no
 * limit). A log with spared[i] (being written, or read by this command;
 * spared may be NULL) counts but is never marked: the next oldest goes
 * instead. Returns how many are marked. */
size_t retain_pick(const uint64_t *sizes, const bool *spared, size_t n, size_t keep, uint64_t cap, uint64_t room,
                   bool *remove);

#endif
