/* analyze: --analyze FILE: level changes in a session log or a CSV trace. */
#include "offline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "csvread.h"
#include "fileio.h"
#include "fmt.h"
#include "jump.h"
#include "report.h"

/* A CSV file with t_ms and flops columns (see csvread.h). */
static bool read_csv(const char *path, double **t, double **x, size_t *n)
{
	char err[1024];
	size_t len;
	char *text = fileio_read(path, 1u << 30, &len, err, sizeof err);
	if (!text) {
		fprintf(stderr, "flopscope: %s\n", err);
		return false;
	}
	bool ok = csv_parse_series(text, len, path, t, x, n, err, sizeof err) == 0;
	if (!ok)
		fprintf(stderr, "flopscope: %s\n", err);
	free(text);
	return ok;
}

int offline_analyze(const Options *o)
{
	double *t = NULL, *x = NULL;
	size_t n = 0;
	FILE *f = fopen(o->analyze, "r");
	int c = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	const char *unit = "FLOPS";
	if (c == '{') { /* a session log: its steady samples */
		SessionData d;
		if (!offline_load(o->analyze, &d))
			return 2;
		if (d.n)
			unit = sample_flags_unit(d.samples[0].flags);
		size_t sizes = 0;
		for (size_t i = 0; i < d.n; i++)
			if (d.samples[i].size && (!i || d.samples[i].size != d.samples[i - 1].size))
				sizes++;
		if (sizes > 1) {
			/* levels that change with the copy size are not power states */
			printf("%s is a transfer sweep over %zu sizes: its level changes with the size, not the power "
			       "state; --replay FILE --headless gives the table by size, or record one size with --size\n",
			       o->analyze, sizes);
			session_data_done(&d);
			return 0;
		}
		t = malloc((d.n + 1) * sizeof *t);
		x = malloc((d.n + 1) * sizeof *x);
		for (size_t i = 0; t && x && i < d.n; i++)
			if (d.samples[i].flags & SAMPLE_STEADY) {
				t[n] = d.samples[i].t_ms;
				x[n++] = d.samples[i].rate;
			}
		session_data_done(&d);
		if (!t || !x) {
			free(t);
			free(x);
			fprintf(stderr, "flopscope: out of memory\n");
			return 1;
		}
	} else if (!read_csv(o->analyze, &t, &x, &n)) {
		return 2;
	}
	JumpDetector jd;
	jump_init(&jd);
	for (size_t i = 0; i < n; i++)
		jump_add(&jd, t[i], x[i]);
	double level;
	double plateau = jump_time_to_plateau(t, x, n, &level);
	char line[256], lv[FMT_SI_LEN];
	for (size_t i = 0; i < jd.njumps; i++) {
		if (o->format == FORMAT_JSON) {
			cJSON *j = record_jump_json(&jd.jumps[i], i);
			char *text = j ? cJSON_PrintUnformatted(j) : NULL;
			if (text)
				printf("%s\n", text);
			cJSON_free(text);
			cJSON_Delete(j);
		} else {
			jump_format(&jd.jumps[i], unit, line, sizeof line);
			printf("%s\n", line);
		}
	}
	if (o->format == FORMAT_JSON) {
		if (isnan(plateau))
			printf("{\"type\":\"plateau\",\"reached\":false,\"samples\":%zu}\n", n);
		else
			printf("{\"type\":\"plateau\",\"reached\":true,\"t_ms\":%.17g,\"flops\":%.17g,\"samples\":%zu}\n",
			       plateau, level, n);
	} else if (isnan(plateau)) {
		printf("plateau: not reached (%zu samples%s)\n", n, n < 6 ? ", too few" : "");
	} else {
		printf("plateau %.1f ms  %s%s\n", plateau, fmt_si(level, lv, sizeof lv), unit);
	}
	free(t);
	free(x);
	return fflush(stdout) == 0 ? 0 : 1;
}
