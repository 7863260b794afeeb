/* cli_num: numbers and durations as the command line and the config file
 * take them, refused with the option's name and the range. Pure. */
#ifndef FLOPSCOPE_CLI_NUM_H
#define FLOPSCOPE_CLI_NUM_H

#include <stdbool.h>
#include <stddef.h>

/* A time as every time option takes it: "30", "30s", "500ms", "2m", "1h"
 * (seconds unless said), into seconds; false where s is none. */
bool cli_time_seconds(const char *s, double *out);
/* The forms, for a refusal: "30, 30s, 500ms, 2m, 1h" */
#define CLI_TIME_FORMS "30, 30s, 500ms, 2m, 1h"
/* A duration (cli_time_seconds) in [lo, hi] seconds; -1 with the reason in
 * err. */
int cli_parse_duration(const char *opt, const char *s, double lo, double hi, double *out, char *err,
                       size_t errlen);
/* A number of opt in [lo, hi] ((lo, hi] with lo_open) into *out; -1 with err. */
int cli_number(const char *opt, const char *s, double lo, double hi, bool lo_open, double *out, char *err,
               size_t errlen);

#endif
