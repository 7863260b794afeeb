/* libFuzzer: the CSV series reader (--analyze) on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "csvread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double *t, *x;
	size_t n;
	char err[512];
	if (csv_parse_series((const char *)data, size, "fuzz", &t, &x, &n, err, sizeof err) == 0) {
		free(t);
		free(x);
	}
	return 0;
}
