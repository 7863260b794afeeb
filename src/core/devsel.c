#include "devsel.h"

#include <ctype.h>
#include <stdio.h>

int devsel_contains(const char *hay, const char *needle)
{
	if (!*needle)
		return 1;
	for (; *hay; hay++) {
		const char *h = hay, *n = needle;
		while (*h && *n && tolower((unsigned char)*h) == tolower((unsigned char)*n)) {
			h++;
			n++;
		}
		if (!*n)
			return 1;
	}
	return 0;
}

int devsel_pick(const char *const *names, const int *rank, size_t n,
                const DevselQuery *q, char *err, size_t errlen)
{
	if (n == 0) {
		snprintf(err, errlen, "no compatible device");
		return -1;
	}
	if (!q->word) {
		if (q->index) {
			if (q->index > n) {
				snprintf(err, errlen, "device %u does not exist: there %s %zu entr%s",
				         q->index, n == 1 ? "is" : "are", n, n == 1 ? "y" : "ies");
				return -1;
			}
			return (int)q->index - 1;
		}
		size_t best = 0;
		for (size_t i = 1; i < n; i++)
			if (rank && rank[i] < rank[best])
				best = i;
		return (int)best;
	}
	unsigned want = q->index ? q->index : 1, seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (devsel_contains(names[i], q->word) && ++seen == want)
			return (int)i;
	}
	if (seen == 0)
		snprintf(err, errlen, "no device name contains \"%s\"", q->word);
	else
		snprintf(err, errlen, "only %u device%s match \"%s\", not %u",
		         seen, seen == 1 ? "" : "s", q->word, want);
	return -1;
}
