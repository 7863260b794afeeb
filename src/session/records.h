/* records: the JSON encodings of a sample, a jump and a summary, as the
 * session log and --format json write them (one object per line). */
#ifndef FLOPSCOPE_RECORDS_H
#define FLOPSCOPE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "summary.h"

/* One sample as a JSON object on one line; false if it does not fit. */
bool record_sample_json(const Sample *s, char *buf, size_t len);
struct cJSON;
struct cJSON *record_jump_json(const Jump *j, size_t index);
bool record_summary_json(FILE *f, const SummaryResult *r, size_t dropped,
                         uint64_t checks_passed);

#endif
