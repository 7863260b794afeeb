/* libFuzzer: the command line's parser on arbitrary words (the input split
 * at NUL bytes into argv, at most 64), and what a parse keeps: a usage error
 * says why; a parse that succeeds holds the same settings when its words
 * are parsed again. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	char *argv[66] = { "flopscope" };
	int argc = 1;
	for (char *p = buf; p < buf + size && argc < 65; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	Options o, again;
	char err[1024] = "", err2[1024] = "";
	int rc = cli_parse(argc, argv, &o, err, sizeof err);
	if (rc < 0 && !err[0]) {
		fprintf(stderr, "a usage error without a reason\n");
		abort();
	}
	if (rc == 0) {
		/* the parser keeps pointers into argv, never writes them */
		if (cli_parse(argc, argv, &again, err2, sizeof err2) != 0 || again.mode != o.mode ||
		    again.target_ms != o.target_ms || again.duration_s != o.duration_s) {
			fprintf(stderr, "a second parse of the same words differs: %s\n", err2);
			abort();
		}
	}
	free(buf);
	return 0;
}
