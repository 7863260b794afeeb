/* libFuzzer: the theme parser on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Theme t;
	char err[512];
	theme_parse((const char *)data, size, &t, err, sizeof err);
	return 0;
}
