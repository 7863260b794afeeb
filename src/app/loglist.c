/* loglist: --logs: the sessions of the default log folder, newest first:
 * when, device, workload, median and samples from the summary record at
 * the end (or "cut short" without one), and the path. Reads each log's first
 * line and its last 64 KiB only. */
#include "offline.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "fmt.h"
#include "memwork.h"
#include "slog.h"

#define TAIL_BYTES 65536

/* The first line of f as JSON, or NULL. */
static cJSON *first_record(FILE *f)
{
	char line[16384];
	if (!fgets(line, sizeof line, f))
		return NULL;
	return cJSON_Parse(line);
}

/* The last summary record within the file's last TAIL_BYTES, or NULL. */
static cJSON *last_summary(FILE *f)
{
	static char buf[TAIL_BYTES + 1];
	if (fseek(f, 0, SEEK_END) != 0)
		return NULL;
	long end = ftell(f), from = end > TAIL_BYTES ? end - TAIL_BYTES : 0;
	if (end < 0 || fseek(f, from, SEEK_SET) != 0)
		return NULL;
	size_t n = fread(buf, 1, (size_t)(end - from), f);
	buf[n] = '\0';
	char *last = NULL;
	for (char *p = buf; p && *p;) {
		char *e = strchr(p, '\n');
		if (e)
			*e = '\0';
		if (strstr(p, "\"type\":\"summary\""))
			last = p;
		p = e ? e + 1 : NULL;
	}
	return last ? cJSON_Parse(last) : NULL;
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : "?";
}

int offline_list_logs(const Options *o)
{
	char dir[4096];
	slog_default_dir(dir, sizeof dir);
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT) {
			if (o->format == FORMAT_TABLE)
				printf("No session logs yet (%s does not exist).\n", dir);
			return 0;
		}
		fprintf(stderr, "flopscope: cannot read %s: %s\n", dir, strerror(errno));
		return 1;
	}
	closedir(d); /* it exists: list it */
	char **names;
	size_t n = slog_list_logs(dir, &names);
	int status = 0;
	uint64_t total = 0;
	if (o->format == FORMAT_TABLE)
		printf("%-20s  %-30s %-15s %14s %8s  %s\n", "start (UTC)", "device", "workload", "median", "samples",
		       "log");
	for (size_t k = n; k-- > 0;) { /* newest first */
		char path[4400];
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		struct stat st;
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		total += (uint64_t)st.st_size;
		FILE *f = fopen(path, "r");
		if (!f) {
			fprintf(stderr, "flopscope: cannot read %s: %s\n", path, strerror(errno));
			status = 1;
			continue;
		}
		cJSON *s = first_record(f), *sum = last_summary(f);
		fclose(f);
		const cJSON *med = sum ? cJSON_GetObjectItemCaseSensitive(sum, "flops_median") : NULL;
		const cJSON *cnt = sum ? cJSON_GetObjectItemCaseSensitive(sum, "samples") : NULL;
		const char *unit = s ? str_of(s, "unit") : "?";
		if (o->format == FORMAT_JSON) {
			cJSON *j = cJSON_CreateObject();
			if (j) {
				cJSON_AddStringToObject(j, "type", "log");
				cJSON_AddStringToObject(j, "path", path);
				cJSON_AddStringToObject(j, "start_utc", s ? str_of(s, "start_utc") : "?");
				cJSON_AddStringToObject(j, "device", s ? str_of(s, "device") : "?");
				cJSON_AddStringToObject(j, "workload", s ? str_of(s, "workload") : "?");
				if (cJSON_IsNumber(med)) {
					cJSON_AddNumberToObject(j, "median", med->valuedouble);
					cJSON_AddStringToObject(j, "unit", unit);
				}
				if (cJSON_IsNumber(cnt))
					cJSON_AddNumberToObject(j, "samples", cnt->valuedouble);
				cJSON_AddBoolToObject(j, "complete", sum != NULL);
				cJSON_AddNumberToObject(j, "bytes", (double)st.st_size);
				char *text = cJSON_PrintUnformatted(j);
				if (text)
					printf("%s\n", text);
				cJSON_free(text);
				cJSON_Delete(j);
			}
		} else {
			char v[FMT_SI_LEN], medtxt[FMT_SI_LEN + 8] = "cut short", samp[24] = "-";
			if (cJSON_IsNumber(med))
				snprintf(medtxt, sizeof medtxt, "%s%s", fmt_si(med->valuedouble, v, sizeof v), unit);
			else if (sum)
				snprintf(medtxt, sizeof medtxt, "-");
			if (cJSON_IsNumber(cnt))
				snprintf(samp, sizeof samp, "%.0f", cnt->valuedouble);
			char dev[256];
			snprintf(dev, sizeof dev, "%s", s ? str_of(s, "device") : "? (not readable)");
			fmt_printable(dev);
			printf("%-20.20s  %-30.30s %-15.15s %14s %8s  %s\n", s ? str_of(s, "start_utc") : "?", dev,
			       s ? str_of(s, "workload") : "?", medtxt, samp, path);
		}
		cJSON_Delete(s);
		cJSON_Delete(sum);
	}
	if (o->format == FORMAT_TABLE) {
		char v[32], c[32] = "no size limit";
		if (o->log_cap)
			mem_size_str(o->log_cap, c, sizeof c);
		printf("%zu logs, %s in %s (kept: at most %u logs and %s; --log-keep, --log-cap)\n", n,
		       mem_size_str(total, v, sizeof v), dir, o->log_keep, c);
	}
	slog_free_list(names, n);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "flopscope: cannot write to standard output: %s\n", strerror(errno));
		return 1;
	}
	return status;
}
