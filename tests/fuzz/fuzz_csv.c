/* libFuzzer: the CSV series reader (--analyze) on arbitrary bytes, with and
 * without the telemetry columns. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "csvread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double *t, *x, (*tel)[TEL_FIELD_COUNT];
	size_t n;
	char err[512];
	if (csv_parse_series((const char *)data, size, "fuzz", &t, &x, &n, err, sizeof err) == 0) {
		free(t);
		free(x);
	}
	if (csv_parse_trace((const char *)data, size, "fuzz", &t, &x, &tel, &n, err, sizeof err) == 0) {
		free(t);
		free(x);
		free(tel);
	}
	return 0;
}
