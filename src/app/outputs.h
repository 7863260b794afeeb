/* outputs: what a command writes, held against what it reads before
 * anything runs, so that no output destroys an input or another output. */
#ifndef FLOPSCOPE_OUTPUTS_H
#define FLOPSCOPE_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "sample.h"

/* False, with "--OPTION PATH ..." and why in err (the caller exits 2), when
 * an output of o names an input of o (the same path, or the same file by
 * device and inode), when two outputs name one file, or when an output
 * replaced whole (--metrics-file, --svg, --csv OUT) could not be by
 * fileio_may_replace's rules (a device, a folder, another user's link, an
 * existing file without --force). The live checks stay where the files are
 * opened; this one answers before a device is opened or a sample taken. */
bool outputs_check(const Options *o, char *err, size_t len);

/* The files o reads (--replay, --analyze, --compare, --export,
 * --baseline), at most cap, in paths; how many. */
size_t outputs_inputs(const Options *o, const char **paths, size_t cap);
enum { OUTPUTS_MAX_INPUTS = 4 * CLI_MAX_DEVICES + 2 * CLI_COMPARE_MAX + 8 };

/* Whether standard output failed: false when it took everything, or when
 * its reader went away (`flopscope ... | head`: a normal end in every
 * mode, said nowhere); true, with "cannot write to standard output: why"
 * said on stderr, for any other failure (a full disk, /dev/full). */
bool outputs_stdout_failed(void);

struct cJSON;
struct Engine;
/* A sample's JSON record for stdout (dev > 0: one of several devices),
 * with the engine's table of the other processes where the sample read
 * some (the table read only then). NULL out of memory. */
struct cJSON *outputs_sample_json(const Sample *s, unsigned dev, struct Engine *e);

struct RunInfo;
/* What a run's start found and the user should know, said once on stderr:
 * a cache entry not used or replaced (a note), a device under a check (a
 * warning). The dashboard shows the same on its status line. */
void outputs_run_notes(const struct RunInfo *in);

#endif
