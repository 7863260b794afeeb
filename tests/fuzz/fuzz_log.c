/* libFuzzer: the session log reader on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "slogread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SessionData d;
	char err[1024];
	if (slog_parse((const char *)data, size, "fuzz", &d, err, sizeof err) == 0)
		session_data_done(&d);
	return 0;
}
