/* csvread: a time series from CSV text whose header names t_ms and flops
 * (a steady column, if present, keeps the rows where it is not 0; the
 * telemetry columns by the log's names, sm_mhz, throttle, other_gpu,
 * other_cpu ..., if asked for; other columns ignored). Pure. */
#ifndef FLOPSCOPE_CSVREAD_H
#define FLOPSCOPE_CSVREAD_H

#include <stddef.h>

#include "sample.h"

/* 0 with malloc'd t and x of n rows; -1 with "NAME:LINE: what" in err.
 * CSV as RFC 4180 defines it: a field in double quotes may hold commas,
 * line breaks and "" (a quote); CRLF or LF ends a record; a quote inside an
 * unquoted field, text after a closing quote, or a quote never closed is
 * an error that says so. Blank lines and lines starting with '#' are
 * skipped. The rows' t_ms must not run backwards. */
int csv_parse_series(const char *text, size_t len, const char *name, double **t, double **x, size_t *n,
                     char *err, size_t errlen);
/* The same, and where tel is not NULL each row's telemetry too, from the
 * columns named as tel_info[].key names the fields (flopscope's own CSV
 * has sm_mhz): malloc'd, NaN for a cell without a reading or a file
 * without the column. */
int csv_parse_trace(const char *text, size_t len, const char *name, double **t, double **x,
                    double (**tel)[TEL_FIELD_COUNT], size_t *n, char *err, size_t errlen);

#endif
