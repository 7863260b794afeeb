/* libFuzzer: the config file's reader on arbitrary bytes, and a property:
 * what a file read gives, written back as --save-config writes it, reads
 * back to the same settings (the same text again). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char t1[1 << 16], t2[1 << 16];
	char err[512], warn[600];
	Options o;
	cli_defaults(&o);
	for (int mode = 0; mode < MODE_COUNT; mode++) {
		Options m;
		cli_defaults(&m);
		cli_config_apply((const char *)data, size, (Mode)mode, &m, err, sizeof err, warn, sizeof warn);
	}
	if (cli_config_apply((const char *)data, size, MODE_MEASURE, &o, err, sizeof err, warn, sizeof warn) < 0)
		return 0;
	if (o.theme && !cli_config_value_ok(o.theme))
		return 0; /* --save-config refuses it, said why */
	int n1 = cli_config_text(&o, t1, sizeof t1);
	Options back;
	cli_defaults(&back);
	if (n1 <= 0 || (size_t)n1 >= sizeof t1 ||
	    cli_config_apply(t1, (size_t)n1, MODE_MEASURE, &back, err, sizeof err, warn, sizeof warn) < 0) {
		fprintf(stderr, "the written settings do not read back: %s\n%s", err, t1);
		abort();
	}
	/* the settings themselves, each key's: none rounded or cut on the way */
	if (back.target_ms != o.target_ms || back.outlier_pct != o.outlier_pct || back.fps != o.fps ||
	    back.whole != o.whole || back.expect_gpus != o.expect_gpus || back.log_keep != o.log_keep ||
	    back.log_cap != o.log_cap || strcmp(back.theme ? back.theme : "dark", o.theme ? o.theme : "dark")) {
		fprintf(stderr, "a setting changed on the way back (target_ms %.17g -> %.17g, outlier %.17g -> %.17g):\n%s",
		        o.target_ms, back.target_ms, o.outlier_pct, back.outlier_pct, t1);
		abort();
	}
	int n2 = cli_config_text(&back, t2, sizeof t2);
	if (n2 != n1 || memcmp(t1, t2, (size_t)n1)) {
		fprintf(stderr, "the settings changed on the way back:\n%s---\n%s", t1, t2);
		abort();
	}
	return 0;
}
