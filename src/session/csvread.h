/* csvread: a time series from CSV text whose header names t_ms and flops
 * (other columns ignored; a steady column, if present, keeps the rows where
 * it is not 0). Pure. */
#ifndef FLOPSCOPE_CSVREAD_H
#define FLOPSCOPE_CSVREAD_H

#include <stddef.h>

/* 0 with malloc'd t and x of n rows; -1 with "NAME:LINE: what" in err.
 * Blank lines and lines starting with '#' are skipped. */
int csv_parse_series(const char *text, size_t len, const char *name, double **t, double **x, size_t *n,
                     char *err, size_t errlen);

#endif
