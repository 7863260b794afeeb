/* devsel: choosing one (device, compute queue family) entry, pure.
 * The tutorial's rules: "-N" picks entry N (1-based) of the list; a word picks
 * the entries whose name contains it, case-insensitively, and uses the first,
 * or the N-th of them when both are given. */
#ifndef FLOPSCOPE_DEVSEL_H
#define FLOPSCOPE_DEVSEL_H

#include <stddef.h>

typedef struct DevselQuery {
	const char *word; /* NULL: no name filter */
	unsigned index;   /* 1-based; 0: not given */
} DevselQuery;

/* Index into names[0..n) of the chosen entry, or -1 with a message in err.
 * Without word and index the first entry of the lowest rank wins (ranks:
 * smaller is preferred; rank may be NULL). */
int devsel_pick(const char *const *names, const int *rank, size_t n,
                const DevselQuery *q, char *err, size_t errlen);

/* Case-insensitive substring test (ASCII). */
int devsel_contains(const char *hay, const char *needle);

#endif
