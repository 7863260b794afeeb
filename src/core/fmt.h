/* fmt: number formatting shared by every output (headless table, dashboard, logs). */
#ifndef FLOPSCOPE_FMT_H
#define FLOPSCOPE_FMT_H

#include <stddef.h>

/* Longest string fmt_si writes, terminator included. */
#define FMT_SI_LEN 24

/* The tutorial's formatFloatSI: three significant digits, a space, then an SI
 * prefix (n u m, none, k M G T P), e.g. 3.03e9 -> "3.03 G", 846e-6 -> "846 u",
 * 999.6 -> "1.00 k", 0 -> "0.00 ". NaN and infinities print "NaN", "inf",
 * "-inf" with a trailing space so a unit can follow. Returns out. */
char *fmt_si(double v, char *out, size_t len);

/* A plot axis' label: the value with its unit, "1.50 TFLOPS", "20.0 ms",
 * "0 B/s"; a count without a unit whole up to 99999 ("1000", "12"), then
 * with a prefix ("1.20 M"). Returns out. */
char *fmt_axis(double v, const char *unit, char *out, size_t len);

/* A reason given row after row (NULL: a row without one): "as above" where
 * it is the row above's, else itself; prev (len bytes) keeps the row's for
 * the next. */
const char *fmt_as_above(const char *why, char *prev, size_t len);

/* A time given in ms in the unit that reads best, 3 significant digits:
 * "20 ms", "1 s", "2.5 s", "500 us". Returns out. */
char *fmt_ms(double ms, char *out, size_t len);
/* v in fmt ("%.0f MHz") where finite, else "-": a table's cell. Returns out. */
char *fmt_cell(double v, const char *fmt, char *out, size_t len);
/* A moment of a run, or a span of one, given in ms: "241.5 ms" below a
 * second, "14.54 s" from there (the 10 ms a sample takes). Returns out. */
char *fmt_at_ms(double ms, char *out, size_t len);
/* v in the fewest significant digits that read back to v ("1234.5678",
 * "0.1", "5"): a setting written as it will be read. Returns out. */
char *fmt_exact(double v, char *out, size_t len);
/* Seconds in the largest whole unit that states them: "30 days", "2 h",
 * "90 s", "0.5 s". */
char *fmt_seconds(double s, char *out, size_t len);
/* Of cands[0..n), the one a mistyped word most likely meant: the nearest
 * by edit distance (a case difference costs nothing), within a third of
 * its length less its leading dashes (at least 1, at most 3); NULL when
 * none is that near. */
const char *fmt_nearest(const char *word, const char *const *cands, size_t n);

/* Makes a string from a file safe to print on a terminal, in place: C0 and
 * C1 control characters (ESC, CSI, BEL ...), DEL and bytes that are not
 * UTF-8 become '?'; printable UTF-8 stays. Returns s. */
char *fmt_printable(char *s);

/* s as one CSV field, quoted (RFC 4180: a quote doubled), at out + *at
 * within len (cut, never past len, always terminated); *at moves on. */
void fmt_csv_field(const char *s, char *out, size_t len, size_t *at);

#endif
