#include "slogread.h"
#include "version.h"
#include "fmt.h"

#include "fileio.h"
#include "burn.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool get_num(const cJSON *o, const char *k, double *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble)) /* 1e999 parses as inf */
		return false;
	*v = x->valuedouble;
	return true;
}

/* k, else the name format 1 gave it (old). */
static bool get_num2(const cJSON *o, const char *k, const char *old, double *v)
{
	return get_num(o, k, v) || get_num(o, old, v);
}

static void get_str(const cJSON *o, const char *k, char *out, size_t len)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	snprintf(out, len, "%s", cJSON_IsString(x) ? x->valuestring : "");
	/* a crafted log's strings reach the terminal: no escape sequence does */
	fmt_printable(out);
}

/* A burn's window record (window_cols); false without its number and span. */
static bool parse_window(const cJSON *o, BurnWindow *w)
{
	memset(w, 0, sizeof *w);
	for (size_t i = 0; i < window_col_count; i++) {
		const WinCol *c = &window_cols[i];
		char *p = (char *)w + c->off;
		double v;
		bool has = get_num(o, c->key, &v);
		switch (c->kind) {
		case WIN_INDEX:
			if (!has || v < 1 || v > 1e6)
				return false;
			*(unsigned *)(void *)p = (unsigned)v - 1;
			break;
		case WIN_SIZE: *(size_t *)(void *)p = has && v >= 0 && v < 1e15 ? (size_t)v : 0; break;
		case WIN_DBL: *(double *)(void *)p = has ? v : NAN; break;
		case WIN_FLAG: *(bool *)p = has && v != 0; break;
		default: *(bool *)p = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, c->key)); break;
		}
	}
	return isfinite(w->t0_s) && isfinite(w->t1_s) && w->t1_s >= w->t0_s;
}

static bool parse_meta(const cJSON *o, SessionMeta *m)
{
	for (size_t i = 0; i < session_col_count; i++) {
		const MetaCol *c = &session_cols[i];
		char *p = (char *)m + c->off;
		if (c->kind == META_STR) {
			get_str(o, c->key, p, c->size);
			continue;
		}
		double v;
		if (!get_num(o, c->key, &v) && !(c->old && get_num(o, c->old, &v)))
			continue;
		if (v < c->lo || v < 0 || (c->when == META_SET && !(v > 0)))
			continue; /* none: as the writer never writes it */
		switch (c->kind) {
		case META_U32:
			if (v <= UINT32_MAX)
				*(uint32_t *)(void *)p = (uint32_t)v;
			break;
		case META_U64:
			if (v < 18446744073709551616.0)
				*(uint64_t *)(void *)p = (uint64_t)v;
			break;
		default:
			*(double *)(void *)p = v;
			break;
		}
	}
	return m->target_ms > 0 && m->device[0] != '\0';
}

/* A record's members by name, found by a hash rather than a walk of the
 * list for each of a sample's ~60 names (the walk's strcmp was a third of a
 * long log's replay). The first of two members of one name wins, as in
 * cJSON_GetObjectItemCaseSensitive; a record of more members than half
 * the slots is read by the walk. */
#define KEY_SLOTS 256
typedef struct Keys {
	const cJSON *o;
	bool walk;                   /* too many members: cJSON's own lookup */
	const cJSON *slot[KEY_SLOTS];
} Keys;

static uint32_t key_hash(const char *k)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h;
}

static void keys_index(Keys *ks, const cJSON *o)
{
	ks->o = o;
	ks->walk = false;
	memset(ks->slot, 0, sizeof ks->slot);
	size_t n = 0;
	for (const cJSON *c = o ? o->child : NULL; c; c = c->next) {
		if (!c->string)
			continue;
		if (++n > KEY_SLOTS / 2) {
			ks->walk = true;
			return;
		}
		uint32_t i = key_hash(c->string) % KEY_SLOTS;
		while (ks->slot[i] && strcmp(ks->slot[i]->string, c->string))
			i = (i + 1) % KEY_SLOTS;
		if (!ks->slot[i])
			ks->slot[i] = c;
	}
}

static const cJSON *keys_get(const Keys *ks, const char *k)
{
	if (ks->walk)
		return cJSON_GetObjectItemCaseSensitive(ks->o, k);
	for (uint32_t i = key_hash(k) % KEY_SLOTS; ks->slot[i]; i = (i + 1) % KEY_SLOTS)
		if (!strcmp(ks->slot[i]->string, k))
			return ks->slot[i];
	return NULL;
}

static bool keys_num(const Keys *ks, const char *k, double *v)
{
	const cJSON *x = keys_get(ks, k);
	if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
		return false;
	*v = x->valuedouble;
	return true;
}

static bool keys_num2(const Keys *ks, const char *k, const char *old, double *v)
{
	return keys_num(ks, k, v) || keys_num(ks, old, v);
}

/* Fills s from a sample record; the name of a missing field in *missing. */
static bool parse_sample(const cJSON *o, Sample *s, const char **missing)
{
	Keys ks;
	keys_index(&ks, o);
	static const char *const NUMS[] = { "seq", "t_ms", "x", "y", "z", "groups", "work",
	                                    "gpu_ns", "cpu_ns", "rate" };
	static const char *const OLD[] = { [6] = "flop", [9] = "flops" }; /* format 1's names */
	double v[10];
	for (int i = 0; i < 10; i++)
		if (!(keys_num(&ks, NUMS[i], &v[i]) || (OLD[i] && keys_num(&ks, OLD[i], &v[i]))) || v[i] < 0) {
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
	/* a logged reading the hardware cannot give is none (tel_rows.h) */
	for (int i = 0; i < SAMPLE_TEL_COUNT; i++)
		if (keys_num(&ks, tel_info[i].key, &s->tel[i]) && tel_plausible((TelField)i, s->tel[i]))
			s->tel_valid |= 1u << i;
	keys_num2(&ks, "peak_rate", "peak_flops", &s->peak_flops);
	keys_num2(&ks, "peak_max_rate", "peak_max_rate", &s->peak_max_flops);
	double end;
	if (keys_num(&ks, "gpu_end_ns", &end) && end >= 0)
		s->gpu_end_ns = (uint64_t)end;
	if (cJSON_IsTrue(keys_get(&ks, "pipelined")))
		s->flags |= SAMPLE_PIPELINED;
	if (cJSON_IsTrue(keys_get(&ks, "implausible")))
		s->flags |= SAMPLE_IMPLAUSIBLE;
	const cJSON *unit = keys_get(&ks, "unit");
	if (cJSON_IsString(unit) && !strcmp(unit->valuestring, "IOPS"))
		s->flags |= SAMPLE_INTEGER;
	if (cJSON_IsString(unit) && !strcmp(unit->valuestring, "B/s"))
		s->flags |= SAMPLE_BYTES;
	double n;
	if (keys_num(&ks, "trials", &n) && n >= 1 && n <= UINT32_MAX)
		s->trials = (uint32_t)n;
	if (keys_num(&ks, "size", &n) && n >= 0)
		s->size = (uint64_t)n;
	if (keys_num(&ks, "target_ms", &n) && n > 0)
		s->target_ms = n;
	for (int i = 0; i < 3; i++) {
		const cJSON *b = keys_get(&ks, FLAGS[i].k);
		if (!cJSON_IsBool(b)) {
			*missing = FLAGS[i].k;
			return false;
		}
		if (cJSON_IsTrue(b))
			s->flags |= FLAGS[i].f;
	}
	return true;
}

/* Keeps a sample of the last run: every one until keep_max, then every
 * other one of those kept and one in twice as many from then on. */
static bool keep(SessionData *d, const Sample *s)
{
	if (d->run_samples++ % d->stride)
		return true;
	if (d->n == d->keep_max) {
		for (size_t i = 0; i < d->n / 2; i++)
			d->samples[i] = d->samples[2 * i];
		d->n /= 2;
		d->stride *= 2;
		if ((d->run_samples - 1) % d->stride)
			return true;
	}
	if (d->n == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 256;
		if (nc > d->keep_max)
			nc = d->keep_max;
		Sample *g = realloc(d->samples, nc * sizeof *g);
		if (!g)
			return false;
		d->samples = g;
		d->cap = nc;
	}
	d->samples[d->n++] = *s;
	return true;
}

/* The sessions a file holds, as they are seen: what a refusal says. */
typedef struct Held {
	size_t sessions;
	bool chosen;             /* the picked one is among them */
	bool any_tq;             /* one on the transfer queue is */
	char names[480];         /* their names, cut with "..." */
} Held;

/* A read in progress: one line at a time. */
typedef struct Reader {
	SessionData *d;
	const char *name;
	const SlogPick *pick;    /* NULL or no workload: the file's one session */
	const SlogVisitor *v;
	size_t lineno;
	bool active;             /* the lines now belong to the session read */
	Held held;               /* the sessions seen */
	bool has_seq;            /* a sample of this segment read: last_seq is its seq */
	uint64_t last_seq;
} Reader;

static void damaged(SessionData *d, size_t lineno, const char *what)
{
	if (d->damaged++)
		return;
	d->first_damaged = lineno;
	snprintf(d->first_damage, sizeof d->first_damage, "%s", what);
}

void slog_entry_label(const char *workload, bool transfer_queue, char *out, size_t len)
{
	snprintf(out, len, "%s%s", workload[0] ? workload : "?", transfer_queue ? " (transfer queue)" : "");
}

static bool meta_tq(const SessionMeta *m)
{
	return !strcmp(m->queue, "transfer");
}

/* Whether line[0..l) holds s (lines are not NUL-terminated). */
static bool holds(const char *line, size_t l, const char *s)
{
	size_t k = strlen(s);
	const char *end = line + l;
	for (const char *p = line; (size_t)(end - p) >= k; p++) {
		p = memchr(p, s[0], (size_t)(end - p) - k + 1);
		if (!p)
			return false;
		if (!memcmp(p, s, k))
			return true;
	}
	return false;
}

/* One more session (workload NULL: an unreadable record at line lineno)
 * into h; whether it is the one picked (a pick's first match; without a
 * pick, the file's first session). */
static bool held_note(Held *h, const SlogPick *pick, const char *workload, bool tq, size_t lineno)
{
	char label[96];
	if (workload)
		slog_entry_label(workload, tq, label, sizeof label);
	else
		snprintf(label, sizeof label, "? (line %zu)", lineno);
	size_t w = strlen(h->names);
	if (w + strlen(label) + 8 < sizeof h->names)
		snprintf(h->names + w, sizeof h->names - w, "%s%s", w ? ", " : "", label);
	else if (w + 6 < sizeof h->names && (w < 3 || strcmp(h->names + w - 3, "...")))
		snprintf(h->names + w, sizeof h->names - w, ", ...");
	h->sessions++;
	h->any_tq |= workload && tq;
	bool picked = pick && pick->workload;
	bool it = workload && (picked ? !h->chosen && !strcmp(workload, pick->workload) && tq == pick->transfer_queue
	                              : h->sessions == 1);
	h->chosen |= it;
	return it;
}

/* Why a session record cannot be read ("" when it can), into m. */
static void session_record(const cJSON *o, SessionMeta *m, char *why, size_t len)
{
	const cJSON *type = o ? cJSON_GetObjectItemCaseSensitive(o, "type") : NULL;
	const cJSON *fmt = o ? cJSON_GetObjectItemCaseSensitive(o, "format") : NULL;
	double ver = 0;
	memset(m, 0, sizeof *m);
	why[0] = '\0';
	if (!cJSON_IsString(type) || strcmp(type->valuestring, "session") || !cJSON_IsString(fmt) ||
	    strcmp(fmt->valuestring, SLOG_FORMAT))
		snprintf(why, len, "not a flopscope session log (the first line is no "
		         "{\"type\":\"session\",\"format\":\"%s\"} record)", SLOG_FORMAT);
	else if (!get_num(o, "version", &ver) || ver < 1)
		snprintf(why, len, "the session record has no format version");
	else if (ver > SLOG_VERSION)
		snprintf(why, len, "written by a newer flopscope (log format %g; this one reads up to %d)", ver,
		         SLOG_VERSION);
	else if (!parse_meta(o, m))
		snprintf(why, len, "the session record lacks the device or target_ms");
}

/* A session record: the first line, or where the next session of the file
 * begins. Decides whether its lines are the ones read. */
static int feed_session(Reader *r, const cJSON *o, char *err, size_t errlen)
{
	r->has_seq = false; /* a new session counts from 0 */
	SessionMeta m;
	char why[160];
	session_record(o, &m, why, sizeof why);
	if (why[0] && r->lineno == 1) {
		snprintf(err, errlen, "%s:1: %s", r->name, why);
		return -1;
	}
	/* an unreadable record's lines are nobody's: never taken for the session before */
	if (why[0] && r->active)
		damaged(r->d, r->lineno, "an unreadable session record: the lines after it skipped");
	r->active = held_note(&r->held, r->pick, why[0] ? NULL : m.workload, meta_tq(&m), r->lineno);
	if (r->active) {
		r->d->meta = m;
		r->d->lines = r->lineno;
	}
	return 0;
}

/* One line: 0 go on, 1 the end (a last line cut short), -1 unusable. */
/* A line of the session that is not JSON with a type: the end of a log
 * cut short (no newline: 1), a damaged session record (the lines after it
 * skipped), or one damaged line, which costs that line, not the rest. */
static int feed_damaged(Reader *r, const char *line, size_t l, bool nl)
{
	SessionData *d = r->d;
	if (!nl) {
		d->cut_short = true;
		return 1;
	}
	if (holds(line, l, "\"type\":\"session\"")) {
		/* a damaged session record: the next session's lines are not this one's */
		damaged(d, r->lineno, "a damaged session record: the lines after it skipped");
		r->active = held_note(&r->held, r->pick, NULL, false, r->lineno);
		return 0;
	}
	damaged(d, r->lineno, "");
	return 0;
}

/* A sample record: kept on the one timeline over every segment, and
 * passed to the visitor (0); damaged (1); no memory (-1). */
static int feed_sample(Reader *r, const cJSON *o, char *err, size_t errlen)
{
	SessionData *d = r->d;
	Sample s;
	const char *missing = "";
	if (!parse_sample(o, &s, &missing)) {
		char what[96];
		snprintf(what, sizeof what, "a sample without a valid \"%s\"", missing);
		damaged(d, r->lineno, what);
		return 1;
	}
	/* a sample that repeats or goes back in seq (a log whose lines were
	 * written twice, two logs joined): skipped, counted once, said */
	if (r->has_seq && s.seq <= r->last_seq) {
		if (!d->repeated++)
			d->first_repeated = r->lineno;
		return 0;
	}
	r->has_seq = true;
	r->last_seq = s.seq;
	/* logs before 0.1 restarted the clock at a restart; they are put after
	 * the segment before */
	if (d->after_restart && s.t_ms < d->restart_t) /* the clock began again at 0 */
		d->t_offset += d->restart_t;
	d->after_restart = false;
	s.t_ms += d->t_offset;
	if (!keep(d, &s)) {
		snprintf(err, errlen, "%s:%zu: out of memory", r->name, r->lineno);
		return -1;
	}
	if (r->v && r->v->sample)
		r->v->sample(r->v->ctx, &s);
	return 0;
}

/* A gap record: a stop, counted and passed to the visitor; false when
 * damaged. */
static bool feed_gap(Reader *r, const cJSON *o)
{
	SessionData *d = r->d;
	double at = 0, ms = 0;
	if (!get_num(o, "t_ms", &at) || !get_num(o, "gap_ms", &ms) || !(ms >= 0)) {
		damaged(d, r->lineno, "a gap without a valid \"t_ms\" or \"gap_ms\"");
		return false;
	}
	d->gaps++;
	d->gap_ms += ms;
	if (r->v && r->v->gap)
		r->v->gap(r->v->ctx, at, ms);
	return true;
}

static int feed(Reader *r, const char *line, size_t l, bool nl, bool too_long, char *err, size_t errlen)
{
	SessionData *d = r->d;
	const SlogVisitor *v = r->v;
	r->lineno++;
	if (too_long) {
		if (r->lineno == 1) {
			snprintf(err, errlen, "%s:1: not a flopscope session log (a first line of more than %zu bytes)",
			         r->name, SLOG_MAX_LINE);
			return -1;
		}
		if (r->active)
			damaged(d, r->lineno, "a line of more than 1 MiB");
		return 0;
	}
	/* another session's lines are skipped unread, but for where the next begins */
	if (r->lineno > 1 && !r->active && !holds(line, l, "\"session\""))
		return 0;
	cJSON *o = cJSON_ParseWithLength(line, l);
	const cJSON *type = o ? cJSON_GetObjectItemCaseSensitive(o, "type") : NULL;
	if (r->lineno == 1 || (cJSON_IsString(type) && !strcmp(type->valuestring, "session"))) {
		int rc = feed_session(r, o, err, errlen);
		cJSON_Delete(o);
		return rc;
	}
	if (!r->active) {
		cJSON_Delete(o);
		return 0;
	}
	if (!o || !cJSON_IsString(type)) {
		cJSON_Delete(o);
		return feed_damaged(r, line, l, nl);
	}
	const char *t = type->valuestring;
	int rc = 0;
	if (!strcmp(t, "sample")) {
		rc = feed_sample(r, o, err, errlen);
		if (rc > 0) { /* a damaged line is not counted read */
			cJSON_Delete(o);
			return 0;
		}
	} else if (!strcmp(t, "restart")) {
		/* a new segment: kept, on the same timeline */
		double at = 0;
		d->restarts++;
		d->after_restart = true;
		r->has_seq = false; /* a new segment counts from 0 again */
		d->restart_t = get_num(o, "t_ms", &at) && at >= 0 ? at : 0;
		if (v && v->restart)
			v->restart(v->ctx);
	} else if (!strcmp(t, "gap")) {
		if (!feed_gap(r, o)) {
			cJSON_Delete(o);
			return 0;
		}
	} else if (!strcmp(t, "window")) {
		BurnWindow w;
		if (!parse_window(o, &w)) {
			cJSON_Delete(o);
			return feed_damaged(r, line, l, nl);
		}
		d->windows++;
		if (v && v->window)
			v->window(v->ctx, &w);
	} else if (!strcmp(t, "error")) {
		get_str(o, "message", d->engine_error, sizeof d->engine_error);
	} else if (!strcmp(t, "summary")) {
		d->has_summary = true;
		double c;
		if (get_num(o, "checks_passed", &c) && c >= 0 && c < 1e15)
			d->summary_checks = (uint64_t)c;
	} else if (!strcmp(t, "change") || !strcmp(t, "excursion") || !strcmp(t, "control")) {
		/* this version's own: found again from the samples, or the
		 * dashboard's actions; not read here */
	} else {
		/* other types (later features) are skipped, counted and named */
		if (!d->unknown++)
			snprintf(d->first_unknown, sizeof d->first_unknown, "%.32s", t);
	}
	d->lines = r->lineno;
	cJSON_Delete(o);
	return rc;
}

static void reader_begin(Reader *r, SessionData *d, const char *name, const SlogPick *pick, const SlogVisitor *v,
                         size_t keep_max)
{
	memset(d, 0, sizeof *d);
	d->keep_max = keep_max ? (keep_max < 2 ? 2 : keep_max & ~(size_t)1) : SLOG_KEEP_MAX;
	d->stride = 1;
	*r = (Reader){ .d = d, .name = name, .pick = pick, .v = v };
}

/* Whether the pick (or its absence) finds no one session among those a
 * file holds (held: their names); err says so. */
static bool refused(const char *name, const SlogPick *pick, const Held *h, char *err, size_t errlen)
{
	bool picked = pick && pick->workload;
	if (h->sessions > 1 && !picked) {
		snprintf(err, errlen, "%s holds %zu sessions (%s): pick one with --workload NAME%s", name, h->sessions,
		         h->names, h->any_tq ? " (and --transfer-queue for one on the transfer queue)" : "");
		return true;
	}
	if (picked && !h->chosen) {
		char want[96];
		slog_entry_label(pick->workload, pick->transfer_queue, want, sizeof want);
		snprintf(err, errlen, "%s holds no %s session (it holds %s)", name, want, h->names);
		return true;
	}
	return false;
}

/* What the read came to: the checks that need the whole file, the warning. */
static int reader_end(Reader *r, int rc, char *err, size_t errlen)
{
	SessionData *d = r->d;
	if (rc == 0 && r->lineno == 0) {
		snprintf(err, errlen, "%s: empty file, not a flopscope session log", r->name);
		rc = -1;
	}
	if (rc == 0 && refused(r->name, r->pick, &r->held, err, errlen))
		rc = -1;
	/* records not understood: never a silent "0 samples" (the summary
	 * record alone made such a log read as an empty session, exit 0) */
	if (rc == 0 && d->n == 0 && d->unknown) {
		snprintf(err, errlen, "%s: no samples this flopscope can read, and %zu record%s of a type it does not "
		         "know (\"%s\"%s), written by flopscope %s; this is flopscope %s", r->name, d->unknown,
		         d->unknown == 1 ? "" : "s", d->first_unknown, d->unknown > 1 ? " ..." : "",
		         d->meta.flopscope_version[0] ? d->meta.flopscope_version : "of an unknown version",
		         FLOPSCOPE_VERSION);
		rc = -1;
	}
	if (rc == 0) {
		size_t w = 0;
		if (d->unknown)
			w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s: %zu record%s of a type this "
			                      "flopscope does not know skipped (\"%s\"%s, written by flopscope %s); ",
			                      r->name, d->unknown, d->unknown == 1 ? "" : "s", d->first_unknown,
			                      d->unknown > 1 ? " ..." : "",
			                      d->meta.flopscope_version[0] ? d->meta.flopscope_version : "?");
		if (d->damaged)
			w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s: %zu damaged line%s skipped "
			                      "(the first at line %zu%s%s); ", r->name, d->damaged,
			                      d->damaged == 1 ? "" : "s", d->first_damaged, d->first_damage[0] ? ": " : "",
			                      d->first_damage);
		if (d->repeated && w < sizeof d->warning)
			w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s: %zu sample%s that repeat%s or go%s "
			                      "back in seq skipped (the first at line %zu); ", r->name, d->repeated,
			                      d->repeated == 1 ? "" : "s", d->repeated == 1 ? "s" : "", d->repeated == 1 ? "es" : "",
			                      d->first_repeated);
		if (d->cut_short && w < sizeof d->warning)
			w += (size_t)snprintf(d->warning + w, sizeof d->warning - w, "%s:%zu: the last line is cut "
			                      "short (was the run killed?); ", r->name, r->lineno);
		if (w && w < sizeof d->warning)
			snprintf(d->warning + w, sizeof d->warning - w, "%zu samples used", d->run_samples);
	}
	if (rc < 0)
		session_data_done(d);
	return rc < 0 ? -1 : 0;
}

int slog_parse_visit(const char *text, size_t len, const char *name, const SlogPick *pick, const SlogVisitor *v,
                     size_t keep_max, SessionData *d, char *err, size_t errlen)
{
	Reader r;
	reader_begin(&r, d, name, pick, v, keep_max);
	size_t pos = 0;
	int rc = 0;
	while (rc == 0 && pos < len) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - start) : len - pos;
		pos += l + (nl ? 1 : 0);
		bool too_long = l > SLOG_MAX_LINE;
		rc = feed(&r, start, too_long ? 0 : l, nl != NULL, too_long, err, errlen);
	}
	if (rc > 0)
		rc = 0; /* a last line cut short ends the read */
	return reader_end(&r, rc, err, errlen);
}

int slog_parse(const char *text, size_t len, const char *name, SessionData *d, char *err, size_t errlen)
{
	return slog_parse_visit(text, len, name, NULL, NULL, 0, d, err, errlen);
}

/* The sessions a file holds, from a light first pass (session records
 * only): a refused pick is said before any sample is seen. A pipe or FIFO
 * can be read once: its read says so at the end instead. */
static bool pick_refused(const char *path, const SlogPick *pick, char *err, size_t errlen)
{
	SlogEntry *e;
	size_t n;
	char why[256];
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !slog_index(path, &e, &n, why, sizeof why))
		return false; /* the read says what is wrong */
	Held h = { 0 };
	for (size_t k = 0; k < n; k++)
		held_note(&h, pick, e[k].workload, e[k].transfer_queue, 0);
	free(e);
	return refused(path, pick, &h, err, errlen);
}

int slog_read_visit(const char *path, const SlogPick *pick, const SlogVisitor *v, size_t keep_max,
                    SessionData *d, char *err, size_t errlen)
{
	if (pick_refused(path, pick, err, errlen)) {
		memset(d, 0, sizeof *d);
		return -1;
	}
	Reader r;
	reader_begin(&r, d, path, pick, v, keep_max);
	LineReader lr;
	if (!fileio_lines_open(&lr, path, SLOG_MAX_LINE, err, errlen))
		return -1;
	int rc = 0;
	while (rc == 0) {
		bool nl, too_long;
		long got = fileio_lines_next(&lr, &nl, &too_long, err, errlen);
		if (got == -1)
			break;
		if (got < 0) {
			rc = -1;
			break;
		}
		rc = feed(&r, lr.line, (size_t)got, nl, too_long, err, errlen);
	}
	if (rc > 0)
		rc = 0;
	fileio_lines_close(&lr);
	return reader_end(&r, rc, err, errlen);
}

int slog_read(const char *path, SessionData *d, char *err, size_t errlen)
{
	return slog_read_visit(path, NULL, NULL, 0, d, err, errlen);
}

void session_data_done(SessionData *d)
{
	free(d->samples);
	d->samples = NULL;
	d->n = d->cap = 0;
}

bool slog_node_order(const SessionMeta *const *metas, size_t n, size_t *perm)
{
	bool one = n > 0 && metas[0]->node[0];
	for (size_t k = 0; k < n; k++) {
		perm[k] = k;
		one &= !strcmp(metas[k]->node, metas[0]->node);
	}
	/* one run's devices each once: a log named twice is not two devices */
	for (size_t i = 0; one && i < n; i++)
		for (size_t j = i + 1; one && j < n; j++)
			one = metas[i]->ordinal != metas[j]->ordinal;
	if (!one)
		return false;
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful of devices */
		for (size_t j = i; j > 0 && metas[perm[j - 1]]->ordinal > metas[perm[j]]->ordinal; j--) {
			size_t t = perm[j];
			perm[j] = perm[j - 1];
			perm[j - 1] = t;
		}
	return true;
}

/* The numbers of a summary record into e. */
static void index_summary(const cJSON *o, SlogEntry *e)
{
	e->complete = true;
	get_num2(o, "rate_median", "flops_median", &e->median);
	get_num(o, "samples", &e->samples);
}

bool slog_index(const char *path, SlogEntry **out, size_t *n, char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	LineReader lr;
	if (!fileio_lines_open(&lr, path, SLOG_MAX_LINE, err, errlen))
		return false;
	SlogEntry *e = NULL;
	size_t k = 0, cap = 0, lineno = 0;
	bool ok = true, cur = false; /* cur: the lines belong to e[k - 1] */
	for (;;) {
		bool nl, too_long;
		long got = fileio_lines_next(&lr, &nl, &too_long, err, errlen);
		if (got == -1)
			break;
		if (got < 0) {
			ok = false;
			break;
		}
		lineno++;
		size_t l = too_long ? 0 : (size_t)got;
		bool ses = holds(lr.line, l, "\"session\""), sum = cur && holds(lr.line, l, "\"summary\"");
		if (lineno > 1 && !ses && !sum)
			continue;
		cJSON *o = cJSON_ParseWithLength(lr.line, l);
		const cJSON *type = o ? cJSON_GetObjectItemCaseSensitive(o, "type") : NULL;
		const char *t = cJSON_IsString(type) ? type->valuestring : "";
		if (lineno == 1 || !strcmp(t, "session")) {
			SessionMeta m;
			char why[160];
			session_record(o, &m, why, sizeof why);
			cur = !why[0];
			if (why[0] && lineno == 1) {
				snprintf(err, errlen, "%s:1: %s", path, why);
				ok = false;
			} else if (cur && k == cap) {
				size_t nc = cap ? 2 * cap : 16;
				SlogEntry *g = realloc(e, nc * sizeof *g);
				if (!g) {
					snprintf(err, errlen, "%s: out of memory", path);
					ok = false;
				} else {
					e = g;
					cap = nc;
				}
			}
			if (ok && cur) {
				SlogEntry *x = &e[k++];
				*x = (SlogEntry){ .transfer_queue = meta_tq(&m), .median = NAN, .samples = NAN };
				snprintf(x->start_utc, sizeof x->start_utc, "%s", m.start_utc);
				snprintf(x->device, sizeof x->device, "%s", m.device);
				snprintf(x->workload, sizeof x->workload, "%s", m.workload);
				snprintf(x->unit, sizeof x->unit, "%s", m.unit);
			}
		} else if (!strcmp(t, "summary") && cur) {
			index_summary(o, &e[k - 1]);
		}
		cJSON_Delete(o);
		if (!ok)
			break;
	}
	fileio_lines_close(&lr);
	if (ok && lineno == 0) {
		snprintf(err, errlen, "%s: empty file, not a flopscope session log", path);
		ok = false;
	}
	if (!ok) {
		free(e);
		return false;
	}
	*out = e;
	*n = k;
	return true;
}
