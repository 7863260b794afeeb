#include "slogread.h"
#include "fmt.h"

#include "fileio.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sample_tel_names[SAMPLE_TEL_COUNT] = {
	"sm_mhz", "mem_mhz", "power_w", "temp_c", "pstate", "throttle",
};

#define MAX_LOG_BYTES (1ull << 31)

static bool get_num(const cJSON *o, const char *k, double *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsNumber(x))
		return false;
	*v = x->valuedouble;
	return true;
}

static void get_str(const cJSON *o, const char *k, char *out, size_t len)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	snprintf(out, len, "%s", cJSON_IsString(x) ? x->valuestring : "");
	/* a crafted log's strings reach the terminal: no escape sequence does */
	fmt_printable(out);
}

static bool parse_meta(const cJSON *o, SessionMeta *m)
{
	double v;
	get_str(o, "flopscope", m->flopscope_version, sizeof m->flopscope_version);
	get_str(o, "start_utc", m->start_utc, sizeof m->start_utc);
	get_str(o, "host", m->host, sizeof m->host);
	get_str(o, "kernel", m->kernel, sizeof m->kernel);
	get_str(o, "cpu", m->cpu, sizeof m->cpu);
	get_str(o, "device", m->device, sizeof m->device);
	get_str(o, "device_type", m->device_type, sizeof m->device_type);
	get_str(o, "uuid", m->uuid, sizeof m->uuid);
	get_str(o, "driver_name", m->driver_name, sizeof m->driver_name);
	get_str(o, "driver_info", m->driver_info, sizeof m->driver_info);
	get_str(o, "driver_version", m->driver_version, sizeof m->driver_version);
	get_str(o, "api_version", m->api_version, sizeof m->api_version);
	get_str(o, "workload", m->workload, sizeof m->workload);
	get_str(o, "shader_hash", m->shader_hash, sizeof m->shader_hash);
	get_str(o, "timing", m->timing, sizeof m->timing);
	get_str(o, "peak", m->peak, sizeof m->peak);
	get_str(o, "telemetry", m->telemetry, sizeof m->telemetry);
	if (get_num(o, "peak_max_flops", &v)) m->peak_max_flops = v;
	if (get_num(o, "vendor_id", &v)) m->vendor_id = (uint32_t)v;
	if (get_num(o, "device_id", &v)) m->device_id = (uint32_t)v;
	if (get_num(o, "queue_family", &v)) m->queue_family = (uint32_t)v;
	if (get_num(o, "flop_per_invocation", &v)) m->flop_per_invocation = (uint64_t)v;
	if (get_num(o, "local_size", &v)) m->local_size = (uint32_t)v;
	if (get_num(o, "trials", &v) && v >= 1 && v <= UINT32_MAX) m->trials = (uint32_t)v;
	if (!get_num(o, "target_ms", &m->target_ms) || !(m->target_ms > 0))
		return false;
	return m->device[0] != '\0';
}

/* Fills s from a sample record; the name of a missing field in *missing. */
static bool parse_sample(const cJSON *o, Sample *s, const char **missing)
{
	static const char *const NUMS[] = { "seq", "t_ms", "x", "y", "z", "groups", "flop",
	                                    "gpu_ns", "cpu_ns", "flops" };
	double v[10];
	for (int i = 0; i < 10; i++)
		if (!get_num(o, NUMS[i], &v[i]) || v[i] < 0) {
			*missing = NUMS[i];
			return false;
		}
	memset(s, 0, sizeof *s);
	s->seq = (uint64_t)v[0];
	s->t_ms = v[1];
	s->x = (uint32_t)v[2];
	s->y = (uint32_t)v[3];
	s->z = (uint32_t)v[4];
	s->groups = (uint64_t)v[5];
	s->work = (uint64_t)v[6];
	s->gpu_ns = (uint64_t)v[7];
	s->cpu_ns = (uint64_t)v[8];
	s->rate = v[9];
	static const struct { const char *k; uint32_t f; } FLAGS[] = {
		{ "gpu_timed", SAMPLE_GPU_TIMED }, { "steady", SAMPLE_STEADY }, { "verified", SAMPLE_VERIFIED },
	};
	/* optional: telemetry, peak, the guard */
	for (int i = 0; i < SAMPLE_TEL_COUNT; i++)
		if (get_num(o, sample_tel_names[i], &s->tel[i]))
			s->tel_valid |= 1u << i;
	get_num(o, "peak_flops", &s->peak_flops);
	double end;
	if (get_num(o, "gpu_end_ns", &end) && end >= 0)
		s->gpu_end_ns = (uint64_t)end;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "pipelined")))
		s->flags |= SAMPLE_PIPELINED;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "implausible")))
		s->flags |= SAMPLE_IMPLAUSIBLE;
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(o, "unit");
	if (cJSON_IsString(unit) && !strcmp(unit->valuestring, "IOPS"))
		s->flags |= SAMPLE_INTEGER;
	if (cJSON_IsString(unit) && !strcmp(unit->valuestring, "B/s"))
		s->flags |= SAMPLE_BYTES;
	double n;
	if (get_num(o, "trials", &n) && n >= 1 && n <= UINT32_MAX)
		s->trials = (uint32_t)n;
	if (get_num(o, "size", &n) && n >= 0)
		s->size = (uint64_t)n;
	for (int i = 0; i < 3; i++) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, FLAGS[i].k);
		if (!cJSON_IsBool(b)) {
			*missing = FLAGS[i].k;
			return false;
		}
		if (cJSON_IsTrue(b))
			s->flags |= FLAGS[i].f;
	}
	return true;
}

static bool add(SessionData *d, const Sample *s)
{
	if (d->n == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 256;
		Sample *g = realloc(d->samples, nc * sizeof *g);
		if (!g)
			return false;
		d->samples = g;
		d->cap = nc;
	}
	d->samples[d->n++] = *s;
	return true;
}

int slog_parse(const char *text, size_t len, const char *name, SessionData *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof *d);
	size_t pos = 0, lineno = 0;
	char *line = NULL;
	size_t line_cap = 0;
	int rc = 0;
	for (;;) {
		bool nl, oom;
		long got = fileio_next_line(text, len, &pos, &line, &line_cap, &nl, &oom);
		if (got < 0) {
			if (oom) {
				snprintf(err, errlen, "%s: out of memory", name);
				rc = -1;
			}
			break;
		}
		size_t l = (size_t)got;
		lineno++;
		if (l == 0 && !nl)
			break;
		cJSON *o = cJSON_ParseWithLength(line, l);
		const cJSON *type = o ? cJSON_GetObjectItemCaseSensitive(o, "type") : NULL;
		if (lineno == 1) {
			const cJSON *fmt = o ? cJSON_GetObjectItemCaseSensitive(o, "format") : NULL;
			double ver = 0;
			if (!cJSON_IsString(type) || strcmp(type->valuestring, "session") ||
			    !cJSON_IsString(fmt) || strcmp(fmt->valuestring, SLOG_FORMAT)) {
				snprintf(err, errlen, "%s:1: not a flopscope session log (the first line is no "
				         "{\"type\":\"session\",\"format\":\"%s\"} record)", name, SLOG_FORMAT);
				rc = -1;
			} else if (!get_num(o, "version", &ver) || ver < 1) {
				snprintf(err, errlen, "%s:1: the session record has no format version", name);
				rc = -1;
			} else if (ver > SLOG_VERSION) {
				snprintf(err, errlen, "%s:1: written by a newer flopscope (log format %g; this "
				         "one reads up to %d)", name, ver, SLOG_VERSION);
				rc = -1;
			} else if (!parse_meta(o, &d->meta)) {
				snprintf(err, errlen, "%s:1: the session record lacks the device or target_ms", name);
				rc = -1;
			}
			cJSON_Delete(o);
			if (rc)
				break;
			d->lines = 1;
			continue;
		}
		if (!o || !cJSON_IsString(type)) {
			cJSON_Delete(o);
			if (!nl) {
				d->cut_short = true;
				break;
			}
			if (!d->damaged++)
				d->first_damaged = lineno;
			continue; /* one damaged line costs that line, not the rest */
		}
		const char *t = type->valuestring;
		if (!strcmp(t, "sample")) {
			Sample s;
			const char *missing = "";
			if (!parse_sample(o, &s, &missing)) {
				if (!d->damaged++) {
					d->first_damaged = lineno;
					snprintf(d->first_damage, sizeof d->first_damage, "a sample without a valid \"%s\"",
					         missing);
				}
				cJSON_Delete(o);
				continue;
			}
			if (!add(d, &s)) {
				snprintf(err, errlen, "%s:%zu: out of memory", name, lineno);
				cJSON_Delete(o);
				rc = -1;
				break;
			}
		} else if (!strcmp(t, "restart")) {
			d->n = 0;
			d->restarts++;
			d->has_summary = false;
		} else if (!strcmp(t, "error")) {
			get_str(o, "message", d->engine_error, sizeof d->engine_error);
		} else if (!strcmp(t, "summary")) {
			d->has_summary = true;
		} else {
			d->unknown++; /* other types (later features) are skipped, and counted */
		}
		d->lines = lineno;
		cJSON_Delete(o);
	}
	free(line);
	if (rc == 0 && lineno == 0) {
		snprintf(err, errlen, "%s: empty file, not a flopscope session log", name);
		rc = -1;
	}
	if (rc == 0 && d->n == 0 && d->unknown && !d->has_summary) {
		snprintf(err, errlen, "%s: no samples, and %zu records of types this flopscope does not know "
		         "(written by a newer one?)", name, d->unknown);
		rc = -1;
	}
	if (rc == 0) {
		size_t w = 0;
		if (d->damaged)
			w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s: %zu damaged line%s skipped "
			                      "(the first at line %zu%s%s); ", name, d->damaged, d->damaged == 1 ? "" : "s",
			                      d->first_damaged, d->first_damage[0] ? ": " : "", d->first_damage);
		if (d->cut_short && w < sizeof d->warning)
			w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s:%zu: the last line is cut "
			                      "short (was the run killed?); ", name, lineno);
		if (w && w < sizeof d->warning)
			snprintf(d->warning + w, sizeof d->warning - w, "%zu samples used", d->n);
	}
	if (rc)
		session_data_done(d);
	return rc;
}

int slog_read(const char *path, SessionData *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	size_t n;
	char *buf = fileio_read(path, MAX_LOG_BYTES, &n, err, errlen);
	if (!buf)
		return -1;
	int rc = slog_parse(buf, n, path, out, err, errlen);
	free(buf);
	return rc;
}

void session_data_done(SessionData *d)
{
	free(d->samples);
	d->samples = NULL;
	d->n = d->cap = 0;
}
