/* Session logs: writer and reader round trip, damaged and foreign files, the
 * comparison statistics, the SVG writer. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "compare.h"
#include "fileio.h"
#include "slog.h"
#include "slogread.h"
#include "burn.h"
#include "svg.h"

static Sample sample(uint64_t seq, double flops, bool steady)
{
	Sample s = { .seq = seq, .t_ms = 20.0 * (double)seq + 0.5, .x = 100 + (uint32_t)seq, .y = 2, .z = 1,
	             .work = 1000000 * (seq + 1), .gpu_ns = 19000000, .cpu_ns = 19500000, .rate = flops,
	             .flags = SAMPLE_GPU_TIMED | (steady ? SAMPLE_STEADY : 0) | (seq % 3 ? 0 : SAMPLE_VERIFIED) };
	s.groups = (uint64_t)s.x * s.y * s.z;
	/* the optional fields: unit, trials, transfer size */
	if (seq % 4 == 1) {
		s.flags |= SAMPLE_BYTES;
		s.size = 8192ull << seq;
	} else if (seq % 4 == 2) {
		s.flags |= SAMPLE_INTEGER;
	}
	s.trials = seq % 3 ? (uint32_t)(seq % 3) + 1 : 0;
	return s;
}

static SessionMeta meta(void)
{
	SessionMeta m;
	memset(&m, 0, sizeof m);
	slog_host_facts(&m);
	snprintf(m.device, sizeof m.device, "Test \"GPU\" <1>");
	snprintf(m.workload, sizeof m.workload, "fma_fp32");
	snprintf(m.timing, sizeof m.timing, "gpu");
	m.target_ms = 20;
	m.flop_per_invocation = 24576;
	return m;
}

static char *write_log(size_t n, bool summary)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/flopscope-test-%d.jsonl", (int)getpid());
	SessionLog l;
	char err[512];
	fileio_forget_noted(); /* each write_log is a command of its own */
	CHECK(slog_open(&l, path, SLOG_REPLACE, err, sizeof err));
	SessionMeta m = meta();
	CHECK(slog_write_session(&l, &m));
	Summary sum;
	summary_init(&sum);
	for (size_t i = 0; i < n; i++) {
		Sample s = sample(i, 1e11 + 1e9 * (double)(i % 7), i >= 3);
		CHECK(slog_write_sample(&l, &s, NULL));
		summary_add(&sum, &s);
	}
	if (summary) {
		SummaryResult r;
		summary_result(&sum, &r);
		CHECK(slog_write_summary(&l, &r, 0, 5));
	}
	summary_done(&sum);
	slog_close(&l);
	CHECK(!l.failed);
	return path;
}

#define HDR "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,\"device\":\"d\",\"target_ms\":20}\n"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void log_should_read_back_every_sample_exactly(void)
{
	const char *path = write_log(40, true);
	SessionData d;
	char err[512];
	CHECK(slog_read(path, &d, err, sizeof err) == 0);
	CHECK(d.n == 40 && d.has_summary && !d.warning[0]);
	CHECK_STR(d.meta.device, "Test \"GPU\" <1>");
	CHECK(d.meta.target_ms == 20 && d.meta.flop_per_invocation == 24576);
	for (size_t i = 0; i < d.n; i++) {
		Sample w = sample(i, 1e11 + 1e9 * (double)(i % 7), i >= 3);
		const Sample *g = &d.samples[i];
		CHECK(g->seq == w.seq && g->x == w.x && g->y == w.y && g->groups == w.groups);
		CHECK(g->work == w.work && g->gpu_ns == w.gpu_ns && g->cpu_ns == w.cpu_ns);
		CHECK(g->rate == w.rate && g->t_ms == w.t_ms && g->flags == w.flags);
		CHECK(g->trials == w.trials && g->size == w.size);
	}
	session_data_done(&d);
	unlink(path);
}

/* The session record's every field, from its row of session_cols: set to a
 * value of its own, written, read back the same (a new field is a row, and
 * this test holds the writer and the reader to it). */
static void every_session_field_should_read_back_as_written(void)
{
	SessionMeta m;
	memset(&m, 0, sizeof m);
	for (size_t i = 0; i < session_col_count; i++) {
		const MetaCol *c = &session_cols[i];
		char *p = (char *)&m + c->off;
		if (c->kind == META_STR)
			snprintf(p, c->size, "v%zu", i);
		else if (c->kind == META_U32)
			*(uint32_t *)(void *)p = (uint32_t)(i + 2);
		else if (c->kind == META_U64)
			*(uint64_t *)(void *)p = (uint64_t)(i + 2) << 33;
		else
			*(double *)(void *)p = (double)i + 2.25;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(f && slog_print_session(f, &m, 0));
	fclose(f);
	SessionData d;
	char err[512];
	CHECK(slog_parse(text, len, "meta", &d, err, sizeof err) == 0);
	for (size_t i = 0; i < session_col_count; i++) {
		const MetaCol *c = &session_cols[i];
		CHECK(strstr(text, c->key) != NULL);
		if (memcmp((char *)&d.meta + c->off, (char *)&m + c->off, c->size))
			fprintf(stderr, "  %s did not read back\n", c->key);
		CHECK(!memcmp((char *)&d.meta + c->off, (char *)&m + c->off, c->size));
	}
	session_data_done(&d);
	free(text);
}

typedef struct Windows {
	BurnWindow w[4];
	size_t n;
} Windows;

static void take_window(void *ctx, const BurnWindow *w)
{
	Windows *ws = ctx;
	if (ws->n < 4)
		ws->w[ws->n++] = *w;
}

/* A burn's window records: every field of window_cols back as written (a
 * number unread, NaN, left out and NaN again); a record without its number
 * is a damaged line, said, not a window. */
static void every_window_field_should_read_back_as_written(void)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/flopscope-win-%d.jsonl", (int)getpid());
	SessionLog l;
	char err[512];
	fileio_forget_noted();
	CHECK(slog_open(&l, path, SLOG_REPLACE, err, sizeof err));
	SessionMeta m = meta();
	CHECK(slog_write_session(&l, &m));
	BurnWindow w[2];
	memset(w, 0, sizeof w);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < window_col_count; i++) {
			const WinCol *c = &window_cols[i];
			char *p = (char *)&w[k] + c->off;
			switch (c->kind) {
			case WIN_INDEX: *(unsigned *)(void *)p = (unsigned)k + 4; break;
			case WIN_SIZE: *(size_t *)(void *)p = i * 1000 + (size_t)k; break;
			case WIN_DBL: *(double *)(void *)p = k ? NAN : 1.0 / 3.0 + (double)i; break;
			default: *(bool *)p = (i + (size_t)k) % 2; break;
			}
		}
	w[1].t0_s = 60, w[1].t1_s = 90.5; /* a window's span is always known */
	CHECK(slog_write_window(&l, &w[0]) && slog_write_window(&l, &w[1]));
	slog_close(&l);
	FILE *f = fopen(path, "a");
	CHECK(f && fputs("{\"type\":\"window\",\"t_start_s\":1,\"t_end_s\":2}\n", f) >= 0);
	fclose(f);
	Windows got = { .n = 0 };
	SlogVisitor v = { .ctx = &got, .window = take_window };
	SessionData d;
	CHECK(slog_read_visit(path, NULL, &v, 0, &d, err, sizeof err) == 0);
	CHECK(got.n == 2 && d.windows == 2 && d.damaged == 1);
	for (int k = 0; k < 2 && got.n == 2; k++)
		for (size_t i = 0; i < window_col_count; i++) {
			const WinCol *c = &window_cols[i];
			const char *a = (const char *)&w[k] + c->off, *b = (const char *)&got.w[k] + c->off;
			bool same;
			switch (c->kind) {
			case WIN_INDEX: same = *(const unsigned *)(const void *)a == *(const unsigned *)(const void *)b; break;
			case WIN_SIZE: same = *(const size_t *)(const void *)a == *(const size_t *)(const void *)b; break;
			case WIN_DBL: {
				double x = *(const double *)(const void *)a, y = *(const double *)(const void *)b;
				same = x == y || (isnan(x) && isnan(y));
				break;
			}
			default: same = *(const bool *)a == *(const bool *)b; break;
			}
			if (!same)
				fprintf(stderr, "  window %d: %s did not read back\n", k, c->key);
			CHECK(same);
		}
	session_data_done(&d);
	unlink(path);
}

static void log_should_keep_doubles_to_the_last_bit(void)
{
	/* values cJSON's 15-digit printing would move by an ulp */
	const double awkward[] = { 1079.8175000000001, 0.1 + 0.2, 94836163600.000015, 1.0 / 3 };
	SessionLog l;
	char err[512], path[64];
	snprintf(path, sizeof path, "/tmp/flopscope-exact-%d.jsonl", (int)getpid());
	fileio_forget_noted();
	CHECK(slog_open(&l, path, SLOG_REPLACE, err, sizeof err));
	SessionMeta m = meta();
	CHECK(slog_write_session(&l, &m));
	for (size_t i = 0; i < 4; i++) {
		Sample s = sample(i, awkward[i], true);
		s.t_ms = awkward[3 - i];
		CHECK(slog_write_sample(&l, &s, NULL));
	}
	slog_close(&l);
	SessionData d;
	CHECK(slog_read(path, &d, err, sizeof err) == 0);
	CHECK(d.n == 4);
	for (size_t i = 0; i < d.n; i++)
		CHECK(d.samples[i].rate == awkward[i] && d.samples[i].t_ms == awkward[3 - i]);
	session_data_done(&d);
	unlink(path);
}

static void log_cut_mid_line_should_keep_the_lines_before(void)
{
	const char *path = write_log(10, false);
	size_t len;
	char *buf = slurp(path, &len);
	SessionData d;
	char err[512];
	/* cut 30 bytes into the last sample line, as kill -9 mid-write would */
	size_t cut = len - 1;
	while (cut && buf[cut - 1] != '\n')
		cut--;
	CHECK(slog_parse(buf, cut + 30, "x.jsonl", &d, err, sizeof err) == 0);
	CHECK(d.n == 9);
	CHECK(strstr(d.warning, "x.jsonl:11: the last line is cut short"));
	CHECK(!d.has_summary);
	session_data_done(&d);
	free(buf);
	unlink(path);
}

static void log_with_a_bad_line_should_name_it(void)
{
	const char *path = write_log(5, true);
	size_t len;
	char *buf = slurp(path, &len);
	char *text = malloc(len + 64);
	/* a junk line after the third sample (line 5) */
	size_t at = 0;
	for (int nl = 0; nl < 4; at++)
		nl += buf[at] == '\n';
	memcpy(text, buf, at);
	strcpy(text + at, "{not json\n");
	memcpy(text + at + 10, buf + at, len - at);
	SessionData d;
	char err[512];
	CHECK(slog_parse(text, len + 10, "y.jsonl", &d, err, sizeof err) == 0);
	/* the damaged line is skipped and counted; every sample after it is used */
	CHECK(d.n == 5);
	CHECK(strstr(d.warning, "y.jsonl: 1 damaged line skipped (the first at line 5); 5 samples used"));
	session_data_done(&d);
	/* a sample that lacks a field */
	const char *bad = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,"
	                  "\"device\":\"d\",\"target_ms\":20}\n{\"type\":\"sample\",\"seq\":0}\n";
	CHECK(slog_parse(bad, strlen(bad), "z", &d, err, sizeof err) == 0);
	CHECK(d.n == 0 && strstr(d.warning, "z: 1 damaged line skipped (the first at line 2: a sample "
	                         "without a valid \"t_ms\")"));
	session_data_done(&d);
	/* numbers no run can write: negative, beyond a double (1e999 reads as
	 * inf), a gap of negative length; each line skipped and named */
	const char *odd = HDR
		"{\"type\":\"sample\",\"seq\":0,\"t_ms\":1,\"x\":1,\"y\":1,\"z\":1,\"groups\":1,\"flop\":1,"
		"\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":1e999,\"gpu_timed\":true,\"steady\":true,\"verified\":false}\n"
		"{\"type\":\"sample\",\"seq\":1,\"t_ms\":-5,\"x\":1,\"y\":1,\"z\":1,\"groups\":1,\"flop\":1,"
		"\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":1,\"gpu_timed\":true,\"steady\":true,\"verified\":false}\n"
		"{\"type\":\"gap\",\"t_ms\":3,\"gap_ms\":-1}\n";
	CHECK(slog_parse(odd, strlen(odd), "n", &d, err, sizeof err) == 0);
	CHECK(d.n == 0 && d.gaps == 0 && d.damaged == 3);
	CHECK(strstr(d.warning, "n: 3 damaged lines skipped (the first at line 2: a sample without a valid \"rate\")"));
	session_data_done(&d);
	/* records of unknown types only: no samples, said, refused */
	const char *alien = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,"
	                    "\"device\":\"d\",\"target_ms\":20}\n{\"type\":\"quantum\"}\n{\"type\":\"quantum\"}\n";
	CHECK(slog_parse(alien, strlen(alien), "q", &d, err, sizeof err) == -1);
	CHECK(strstr(err, "q: no samples this flopscope can read, and 2 records of a type it does not know "
	                  "(\"quantum\" ...), written by flopscope of an unknown version"));
	/* with a summary record too: still refused (it read as "Summary: 0 samples", exit 0) */
	const char *alien2 = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,\"flopscope\":\"9.0\","
	                     "\"device\":\"d\",\"target_ms\":20}\n{\"type\":\"quantum\"}\n{\"type\":\"summary\"}\n";
	CHECK(slog_parse(alien2, strlen(alien2), "q", &d, err, sizeof err) == -1);
	CHECK(strstr(err, "(\"quantum\"), written by flopscope 9.0"));
	session_data_done(&d);
	free(text);
	free(buf);
	unlink(path);
}

static void foreign_or_newer_files_should_be_refused(void)
{
	SessionData d;
	char err[512];
	const char *cases[][2] = {
		{ "hello world\n", "f:1: not a flopscope session log" },
		{ "{\"type\":\"session\",\"format\":\"other\"}\n", "f:1: not a flopscope session log" },
		{ "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":7,\"device\":\"d\",\"target_ms\":20}\n",
		  "f:1: written by a newer flopscope (log format 7; this one reads up to 2)" },
		{ "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1}\n", "lacks the device" },
		{ "", "empty file" },
		{ "\x7f" "ELF\x01\x02\n\x00\x00", "not a flopscope session log" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t len = i == 5 ? 8 : strlen(cases[i][0]);
		CHECK(slog_parse(cases[i][0], len, "f", &d, err, sizeof err) == -1);
		if (!strstr(err, cases[i][1]))
			fprintf(stderr, "  case %zu: \"%s\"\n", i, err), check_failed_now = 1;
	}
	CHECK(slog_read("/nonexistent/x.jsonl", &d, err, sizeof err) == -1);
	CHECK(strstr(err, "No such file"));
}

static void a_restart_should_keep_every_segment_on_one_timeline(void)
{
	const char *t = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,\"device\":\"d\",\"target_ms\":20}\n"
	                "{\"type\":\"sample\",\"seq\":0,\"t_ms\":1,\"x\":1,\"y\":1,\"z\":1,\"groups\":1,\"flop\":1,\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":1,\"gpu_timed\":true,\"steady\":false,\"verified\":true}\n"
	                "{\"type\":\"restart\",\"t_ms\":5}\n"
	                "{\"type\":\"telemetry\",\"sm_mhz\":1980}\n"
	                "{\"type\":\"sample\",\"seq\":0,\"t_ms\":2,\"x\":1,\"y\":1,\"z\":1,\"groups\":1,\"flop\":1,\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":7,\"gpu_timed\":true,\"steady\":false,\"verified\":false}\n"
	                "{\"type\":\"error\",\"message\":\"VK_ERROR_DEVICE_LOST\"}\n";
	SessionData d;
	char err[512];
	CHECK(slog_parse(t, strlen(t), "r", &d, err, sizeof err) == 0);
	/* both segments, on one timeline: the old clock restarted at 0 (t 2 after
	 * a restart at 5 ms reads as 7) */
	CHECK(d.n == 2 && d.samples[1].rate == 7 && d.restarts == 1);
	CHECK(d.samples[0].t_ms == 1 && d.samples[1].t_ms == 7);
	CHECK_STR(d.engine_error, "VK_ERROR_DEVICE_LOST");
	session_data_done(&d);
}

#define SAMPLE_FMT "{\"type\":\"sample\",\"seq\":%d,\"t_ms\":%d,\"x\":1,\"y\":1,\"z\":1,\"groups\":1,\"flop\":1," \
                   "\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":%d,\"gpu_timed\":true,\"steady\":true,\"verified\":false}\n"

/* A log whose sample lines were written twice (seq 0,0,1,1,2,2) or that
 * goes back in seq reads each sample once and says so; a restart's seq 0
 * and the next session's are no repeat. */
static void samples_that_repeat_in_seq_should_be_counted_once_and_said(void)
{
	char t[4096];
	int n = snprintf(t, sizeof t, "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,"
	                               "\"device\":\"d\",\"target_ms\":20}\n");
	static const int seqs[] = { 0, 0, 1, 1, 2, 2, 1, 3 };
	for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++)
		n += snprintf(t + n, sizeof t - (size_t)n, SAMPLE_FMT, seqs[i], (int)i, 10 + (int)i);
	n += snprintf(t + n, sizeof t - (size_t)n, "{\"type\":\"restart\",\"t_ms\":9}\n");
	n += snprintf(t + n, sizeof t - (size_t)n, SAMPLE_FMT, 0, 10, 30);
	SessionData d;
	char err[512];
	CHECK(slog_parse(t, (size_t)n, "dup.jsonl", &d, err, sizeof err) == 0);
	CHECK(d.n == 5 && d.repeated == 4 && d.first_repeated == 3);
	CHECK(d.n == 5 && d.samples[0].rate == 10 && d.samples[1].rate == 12 && d.samples[3].rate == 17 &&
	      d.samples[4].rate == 30);
	CHECK(strstr(d.warning, "dup.jsonl: 4 samples that repeat or go back in seq skipped (the first at line 3)"));
	session_data_done(&d);
}

/* A logged reading the hardware cannot give (a power of 1e308 W, a link of
 * 4294967297 lanes, a negative clock) is no reading: the table's range
 * (tel_rows.h), not a 309-digit mean; a reading within it is kept. */
static void readings_no_hardware_gives_should_be_no_reading(void)
{
	char t[2048];
	int n = snprintf(t, sizeof t, "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,"
	                               "\"device\":\"d\",\"target_ms\":20}\n"
	                               "{\"type\":\"sample\",\"seq\":0,\"t_ms\":1,\"x\":1,\"y\":1,\"z\":1,\"groups\":1,"
	                               "\"flop\":1,\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":1,\"gpu_timed\":true,\"steady\":true,"
	                               "\"verified\":false,\"power_w\":1e308,\"pcie_width\":4294967297,\"sm_mhz\":-5,"
	                               "\"temp_c\":61,\"other_cpu\":100.5,\"pcie_replays\":12}\n");
	SessionData d;
	char err[512];
	CHECK(slog_parse(t, (size_t)n, "b.jsonl", &d, err, sizeof err) == 0);
	CHECK(d.n == 1);
	if (d.n == 1) {
		const Sample *s = &d.samples[0];
		CHECK(!sample_has_tel(s, TEL_POWER_W) && !sample_has_tel(s, TEL_PCIE_WIDTH) && !sample_has_tel(s, TEL_SM_MHZ));
		CHECK(!sample_has_tel(s, TEL_OTHER_CPU));
		CHECK(sample_tel(s, TEL_TEMP_C) == 61 && sample_tel(s, TEL_PCIE_REPLAYS) == 12);
	}
	session_data_done(&d);
	/* every row of the table: a key of its own, a range */
	for (int i = 0; i < TEL_FIELD_COUNT; i++) {
		CHECK(tel_info[i].key && tel_info[i].what && tel_info[i].lo < tel_info[i].hi);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(tel_info[i].key, tel_info[j].key));
	}
}

typedef struct Seen {
	size_t samples, restarts, gaps;
	double sum, gap_ms;
	int last_seq;
	bool in_order;
} Seen;

static void seen_sample(void *ctx, const Sample *s)
{
	Seen *c = ctx;
	c->in_order &= (int)s->seq == c->last_seq + 1;
	c->last_seq = (int)s->seq;
	c->samples++;
	c->sum += s->rate;
}
static void seen_restart(void *ctx) { ((Seen *)ctx)->restarts++; ((Seen *)ctx)->last_seq = -1; }
static void seen_gap(void *ctx, double t, double ms) { (void)t; ((Seen *)ctx)->gaps++; ((Seen *)ctx)->gap_ms += ms; }

/* A log of n samples (seq 0.., flops = seq), a gap of 1500 ms after the
 * 10th; malloc'd. */
static char *long_log(int n, size_t *len)
{
	size_t cap = (size_t)n * 256 + 512, l = 0;
	char *t = malloc(cap);
	l += (size_t)snprintf(t + l, cap - l, HDR);
	for (int i = 0; i < n; i++) {
		l += (size_t)snprintf(t + l, cap - l, SAMPLE_FMT, i, i, i);
		if (i == 9)
			l += (size_t)snprintf(t + l, cap - l, "{\"type\":\"gap\",\"t_ms\":9,\"gap_ms\":1500}\n");
	}
	*len = l;
	return t;
}

static void a_long_log_should_be_seen_whole_and_kept_thinned(void)
{
	size_t len;
	char *t = long_log(1000, &len);
	Seen c = { .last_seq = -1, .in_order = true };
	SlogVisitor v = { .ctx = &c, .sample = seen_sample, .restart = seen_restart, .gap = seen_gap };
	SessionData d;
	char err[512];
	CHECK(slog_parse_visit(t, len, "long", NULL, &v, 64, &d, err, sizeof err) == 0);
	/* the visitor saw every sample, in order */
	CHECK(c.samples == 1000 && c.in_order && c.sum == 999.0 * 1000 / 2);
	CHECK(c.gaps == 1 && c.gap_ms == 1500 && d.gaps == 1 && d.gap_ms == 1500);
	/* at most 64 kept, evenly: seq 0, k, 2k, ... with k a power of two */
	CHECK(d.run_samples == 1000 && d.n <= 64 && d.n > 32);
	CHECK(d.stride == 16);
	for (size_t i = 0; i < d.n; i++)
		CHECK(d.samples[i].seq == i * d.stride);
	session_data_done(&d);
	/* without a limit: all of them */
	CHECK(slog_parse_visit(t, len, "long", NULL, NULL, 0, &d, err, sizeof err) == 0);
	CHECK(d.n == 1000 && d.stride == 1);
	session_data_done(&d);
	free(t);
}

static void the_file_reader_should_match_the_buffer_and_bound_a_line(void)
{
	size_t len;
	char *t = long_log(300, &len);
	/* a line of 3 MiB in the middle: one damaged line, not an error */
	const char *path = "/tmp/flopscope-test-long.jsonl";
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	size_t half = len / 2;
	while (t[half - 1] != '\n')
		half--;
	fwrite(t, 1, half, f);
	for (int i = 0; i < 3 << 20; i++)
		fputc('x', f);
	fputc('\n', f);
	fwrite(t + half, 1, len - half, f);
	CHECK(fclose(f) == 0);
	Seen c = { .last_seq = -1, .in_order = true };
	SlogVisitor v = { .ctx = &c, .sample = seen_sample, .restart = seen_restart, .gap = seen_gap };
	SessionData d;
	char err[512];
	CHECK(slog_read_visit(path, NULL, &v, 0, &d, err, sizeof err) == 0);
	CHECK(c.samples == 300 && c.in_order && d.n == 300);
	CHECK(d.damaged == 1 && strstr(d.warning, "a line of more than 1 MiB"));
	session_data_done(&d);
	/* a file with no line end at all (/dev/zero is the same) is refused, not read forever */
	CHECK(slog_read_visit("/dev/zero", NULL, &v, 0, &d, err, sizeof err) == -1);
	CHECK(strstr(err, "/dev/zero has a line of more than 67108864 bytes: not a text log"));
	unlink(path);
	free(t);
}

static void unwritable_log_should_say_where_and_why(void)
{
	SessionLog l;
	char err[512];
	CHECK(!slog_open(&l, "/proc/no/such/dir/x.jsonl", SLOG_NEW, err, sizeof err));
	CHECK(strstr(err, "cannot create the log folder /proc/no"));
	char p[256];
	setenv("XDG_STATE_HOME", "/state", 1);
	slog_default_path("20261121T231509Z", "llvmpipe (LLVM 15.0.6, 256 bits)", "fp32", p, sizeof p);
	CHECK_STR(p, "/state/flopscope/20261121T231509Z-llvmpipe-fp32.jsonl");
	slog_default_path("20261121T231509Z", "NVIDIA H200", "fp16-matrix", p, sizeof p);
	CHECK_STR(p, "/state/flopscope/20261121T231509Z-nvidia-h200-fp16-matrix.jsonl");
	CHECK(slog_choose_path(true, NULL, "x", "fp32", NULL, 1, p, sizeof p) == NULL);
	CHECK_STR(slog_choose_path(false, "/tmp/run.jsonl", "x", "fp32", "20261121T231509Z", 2, p, sizeof p),
	          "/tmp/run-2.jsonl");
	/* the devices of one run share the stamp it was planned with */
	CHECK_STR(slog_choose_path(false, NULL, "NVIDIA H200", "power", "20261121T231509Z", 2, p, sizeof p),
	          "/state/flopscope/20261121T231509Z-nvidia-h200-power-2.jsonl");
	char now[32];
	slog_stamp_now(now, sizeof now);
	CHECK(strlen(now) == 16 && now[8] == 'T' && now[15] == 'Z');
}

/* A log never destroys a file: an existing one is refused unless replaced
 * on purpose, a default name taken gets the next free one, and one writer
 * per file; a relative XDG_STATE_HOME is ignored (the XDG spec). */
static void logs_should_refuse_to_overwrite_and_share_a_file(void)
{
	char dir[] = "/tmp/fs-logs-XXXXXX", path[300], err[600], p[600];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/run.jsonl", dir);
	SessionLog a, b, c;
	CHECK(slog_open(&a, path, SLOG_NEW, err, sizeof err));
	CHECK(slog_write_restart(&a, 1.0));
	/* a second writer on the same path: refused, whatever the mode */
	CHECK(!slog_open(&b, path, SLOG_NEW, err, sizeof err) && strstr(err, "exists already"));
	CHECK(!slog_open(&b, path, SLOG_REPLACE, err, sizeof err) && strstr(err, "another process"));
	/* the default name: the next free one */
	CHECK(slog_open(&b, path, SLOG_UNIQUE, err, sizeof err));
	snprintf(p, sizeof p, "%s/run-2.jsonl", dir);
	CHECK_STR(b.path, p);
	slog_close(&a);
	slog_close(&b);
	/* after the first writer is done: NEW still refuses; REPLACE empties it */
	CHECK(!slog_open(&c, path, SLOG_NEW, err, sizeof err));
	CHECK(slog_open(&c, path, SLOG_REPLACE, err, sizeof err));
	slog_close(&c);
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 0);
	/* a device is written to, never replaced */
	CHECK(slog_open(&c, "/dev/null", SLOG_NEW, err, sizeof err));
	slog_close(&c);
	unlink(path);
	unlink(p);
	rmdir(dir);
	setenv("XDG_STATE_HOME", "state", 1);
	setenv("HOME", "/home/someone", 1);
	slog_default_path("20261121T231509Z", "NVIDIA H200", "int8dot", p, sizeof p);
	CHECK_STR(p, "/home/someone/.local/state/flopscope/20261121T231509Z-nvidia-h200-int8dot.jsonl");
	unsetenv("XDG_STATE_HOME");
}

/* A deterministic normal variate (Box-Muller over a fixed LCG). */
static double noise(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	double u1 = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	double u2 = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

/* A session as benchmarks make them: the session's own level (sessions
 * differ by a few percent), autocorrelated wander (AR(1), phi 0.95) and now
 * and then a contention burst; n samples at 20 ms into b. */
static void session(BlockMeans *b, uint64_t *s, double level, double session_sd, int n)
{
	blocks_init(b);
	double lv = level * (1 + session_sd * noise(s)), w = 0;
	for (int i = 0; i < n; i++) {
		w = 0.95 * w + 0.01 * noise(s);
		double x = lv * (1 + w);
		if (noise(s) > 0.9) /* bursts: about 5% of samples at half the rate */
			x *= 0.5;
		blocks_add(b, 20.0 * i, x);
	}
	blocks_cut(b);
}

static void compare_should_hold_up_to_autocorrelation_and_session_spread(void)
{
	uint64_t s = 42;
	BlockMeans a, b;
	CompareResult r;
	char err[256];
	/* blocks: 1 s and 5 samples; 250 samples at 20 ms are 5 blocks (the
	 * last one closes at the cut) */
	session(&a, &s, 1e11, 0, 250);
	CHECK(a.n == 5 && a.samples == 250);
	blocks_done(&a);
	/* A/A: sessions of one configuration differ by ~3%; in at least 19 of
	 * 20 pairs no difference is claimed */
	int claimed = 0;
	for (int k = 0; k < 20; k++) {
		session(&a, &s, 1e11, 0.03, 500);
		session(&b, &s, 1e11, 0.03, 500);
		CompareSide sa = { &a, 1 }, sb = { &b, 1 };
		CHECK(compare_sides(&sa, &sb, COMPARE_MIN_EFFECT, &r, err, sizeof err));
		claimed += r.verdict != COMPARE_CANNOT_TELL;
		blocks_done(&a);
		blocks_done(&b);
	}
	if (claimed > 1)
		fprintf(stderr, "  A/A: %d of 20 pairs claimed a difference\n", claimed), check_failed_now = 1;
	/* B at half the rate (a busy loop on one of two cores): slower, clearly */
	session(&a, &s, 1e11, 0.03, 500);
	session(&b, &s, 0.5e11, 0.03, 500);
	CompareSide sa = { &a, 1 }, sb = { &b, 1 };
	CHECK(compare_sides(&sa, &sb, COMPARE_MIN_EFFECT, &r, err, sizeof err));
	CHECK(r.verdict == COMPARE_SLOWER && fabs(r.ratio - 0.5) < 0.05 && r.ratio_hi < 1);
	CHECK(!r.sessions_method && r.a.blocks == 10 && r.best_ratio < 0.6);
	CHECK(compare_sides(&sb, &sa, COMPARE_MIN_EFFECT, &r, err, sizeof err) && r.verdict == COMPARE_FASTER);
	blocks_done(&b);
	/* too short to tell: 2 blocks */
	session(&b, &s, 0.5e11, 0, 100);
	CHECK(compare_sides(&sa, &sb, COMPARE_MIN_EFFECT, &r, err, sizeof err) && r.verdict == COMPARE_CANNOT_TELL);
	CHECK(strstr(r.why, "too short: 10 and 2 blocks"));
	blocks_done(&a);
	blocks_done(&b);
	/* nothing steady: refused */
	blocks_init(&a);
	session(&b, &s, 1e11, 0, 500);
	CHECK(!compare_sides(&sa, &sb, COMPARE_MIN_EFFECT, &r, err, sizeof err) && strstr(err, "A has no steady second"));
	blocks_done(&b);
	/* several sessions a side: Welch over the sessions. 3% session spread,
	 * 4 sessions each: a 20% shift is found, none is claimed without one */
	BlockMeans ma[4], mb[4];
	for (int k = 0; k < 4; k++) {
		session(&ma[k], &s, 1e11, 0.03, 300);
		session(&mb[k], &s, 1.2e11, 0.03, 300);
	}
	CompareSide wa = { ma, 4 }, wb = { mb, 4 };
	CHECK(compare_sides(&wa, &wb, COMPARE_MIN_EFFECT, &r, err, sizeof err));
	CHECK(r.sessions_method && r.verdict == COMPARE_FASTER && r.ratio_lo > 1 && fabs(r.ratio - 1.2) < 0.1);
	for (int k = 0; k < 4; k++) {
		blocks_done(&mb[k]);
		session(&mb[k], &s, 1e11, 0.03, 300);
	}
	CHECK(compare_sides(&wa, &wb, COMPARE_MIN_EFFECT, &r, err, sizeof err));
	CHECK(r.sessions_method && r.verdict == COMPARE_CANNOT_TELL && r.ratio_lo < 1 && r.ratio_hi > 1);
	for (int k = 0; k < 4; k++) {
		blocks_done(&ma[k]);
		blocks_done(&mb[k]);
	}
}

/* A session of 10 blocks of 1 s at level, each block's samples within 1%,
 * and the blocks listed in hit at frac of the level (interruptions). */
static void blocks_of(BlockMeans *b, double level, const int *hit, size_t nhit, double frac)
{
	blocks_init(b);
	for (int k = 0; k < 10; k++) {
		double f = 1;
		for (size_t j = 0; j < nhit; j++)
			f = hit[j] == k ? frac : f;
		for (int i = 0; i < 50; i++)
			blocks_add(b, 1000.0 * k + 20.0 * i, level * f * (1 + 0.01 * ((i * 7 + k) % 5 - 2) / 2));
	}
	blocks_cut(b);
}

/* The rule the calibration chose (docs/INTERPRETATION.md): a few
 * interrupted blocks do not hide a halved rate (the old lowest-to-highest
 * range did: "cannot tell" at 0.55); a session interrupted more than the
 * other is not called slower, its best blocks say so; a difference below
 * the minimum effect is not claimed, and is once the user lowers it. */
static void compare_should_see_through_interrupted_blocks(void)
{
	BlockMeans a, b;
	CompareResult r;
	char err[256];
	const int one[] = { 3 }, other[] = { 6 }, five[] = { 1, 3, 4, 6, 8 };
	/* B at 0.55 of A, one block of each at a third (the sessions:
	 * one interrupted block made the range 70%): slower */
	blocks_of(&a, 1e11, one, 1, 0.3);
	blocks_of(&b, 0.55e11, other, 1, 0.3);
	CompareSide sa = { &a, 1 }, sb = { &b, 1 };
	CHECK(compare_sides(&sa, &sb, COMPARE_MIN_EFFECT, &r, err, sizeof err));
	CHECK(r.spread > 0.6 && r.noise < 0.2);
	CHECK(r.verdict == COMPARE_SLOWER && fabs(r.ratio - 0.55) < 0.02 && fabs(r.best_ratio - 0.55) < 0.02);
	CHECK(strstr(r.why, "exceeds the minimum effect (15%)") != NULL);
	blocks_done(&a);
	blocks_done(&b);
	/* one configuration, B interrupted in five blocks of ten at 0.6: its
	 * median is lower, its best blocks are not */
	blocks_of(&a, 1e11, NULL, 0, 1);
	blocks_of(&b, 1e11, five, 5, 0.6);
	CHECK(compare_sides(&sa, &sb, 0.05, &r, err, sizeof err));
	if (r.verdict != COMPARE_CANNOT_TELL)
		fprintf(stderr, "  %s\n", r.why), check_failed_now = 1;
	blocks_done(&a);
	blocks_done(&b);
	/* 10% slower throughout: below the default minimum effect, found at 5% */
	blocks_of(&a, 1e11, NULL, 0, 1);
	blocks_of(&b, 0.9e11, NULL, 0, 1);
	CHECK(compare_sides(&sa, &sb, COMPARE_MIN_EFFECT, &r, err, sizeof err) && r.verdict == COMPARE_CANNOT_TELL);
	CHECK(strstr(r.why, "below the minimum effect (15%, --min-effect)") != NULL);
	CHECK(compare_sides(&sa, &sb, 0.05, &r, err, sizeof err) && r.verdict == COMPARE_SLOWER);
	blocks_done(&a);
	blocks_done(&b);
	/* the defaults: a GPU's sessions land closer than a shared CPU's */
	CHECK(compare_default_min_effect("DiscreteGpu") == COMPARE_MIN_EFFECT_GPU);
	CHECK(compare_default_min_effect("IntegratedGpu") == COMPARE_MIN_EFFECT_GPU);
	CHECK(compare_default_min_effect("Cpu") == COMPARE_MIN_EFFECT && compare_default_min_effect("") == 0.15);
}

static void svg_should_be_escaped_and_complete(void)
{
	Sample s[3] = { sample(0, 1e9, false), sample(1, 2e9, true), sample(2, 3e9, true) };
	/* one power-state change (red, labelled) and one other (grey, unlabelled) */
	static ChangeDetector cd;
	change_init(&cd);
	cd.changes[0] = (Change){ .kind = CHANGE_STEP, .cause = CAUSE_POWER_STATE, .t_ms = 30, .t_end_ms = 30,
	                          .before = 1e9, .after = 3e9, .ratio = 3 };
	cd.changes[1] = (Change){ .kind = CHANGE_STEP, .cause = CAUSE_NOT_POWER_STATE, .t_ms = 35, .t_end_ms = 35,
	                          .before = 3e9, .after = 1e9, .ratio = 1 / 3.0 };
	cd.nchanges = 2;
	cd.by_cause[CAUSE_POWER_STATE] = cd.by_cause[CAUSE_NOT_POWER_STATE] = 1;
	static SummaryResult r;
	memset(&r, 0, sizeof r);
	r.changes = cd;
	r.pct_peak = r.duty = NAN;
	r.samples = 3;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(svg_write(f, "a <b> & \"c\"", s, 3, 20, &r));
	fclose(f);
	CHECK(strstr(text, "<?xml version=\"1.0\""));
	CHECK(strstr(text, "a &lt;b&gt; &amp; &quot;c&quot;"));
	CHECK(strstr(text, "</svg>\n"));
	int polylines = 0;
	for (const char *p = text; (p = strstr(p, "<polyline")); p++)
		polylines++;
	CHECK(polylines == 4); /* FLOPS, groups, CPU time, GPU time: no telemetry, no clock plot */
	CHECK(strstr(text, "no clock or power readings"));
	/* the power-state marker solid and wider, the other grey and dashed:
	 * apart by shape as well as colour */
	CHECK(strstr(text, "stroke=\"#cf222e\" stroke-width=\"2\"/>"));
	CHECK(!strstr(text, "stroke=\"#cf222e\" stroke-dasharray"));
	CHECK(strstr(text, "stroke=\"#8c959f\" stroke-dasharray=\"4 3\"")); /* the other one, grey */
	/* both numbered and listed; the power-state one in red */
	CHECK(strstr(text, "fill=\"#cf222e\">1  step at 30.0 ms: 1.00 GFLOPS -&gt; 3.00 GFLOPS"));
	CHECK(strstr(text, "font-size=\"10\">2  step at 35.0 ms: 3.00 GFLOPS -&gt; 1.00 GFLOPS"));
	CHECK(strstr(text, "level changes: 1 power state, 1 not a power-state change, 0 unexplained"));
	CHECK(!strstr(text, "nan") && !strstr(text, "inf"));
	free(text);
}

/* The logs of one multi-device run are put in their devices' order; logs
 * of different runs, or without a node id, keep the order given. */
static void node_logs_should_be_ordered_by_device(void)
{
	SessionMeta m[3];
	memset(m, 0, sizeof m);
	for (int k = 0; k < 3; k++) {
		snprintf(m[k].node, sizeof m[k].node, "20261123T151027Z-42");
		m[k].devices = 3;
	}
	m[0].ordinal = 3;
	m[1].ordinal = 1;
	m[2].ordinal = 2;
	const SessionMeta *p[3] = { &m[0], &m[1], &m[2] };
	size_t perm[3];
	CHECK(slog_node_order(p, 3, perm));
	CHECK(perm[0] == 1 && perm[1] == 2 && perm[2] == 0);
	/* one device's log named twice: not one run of two devices */
	const SessionMeta *twice[2] = { &m[1], &m[1] };
	CHECK(!slog_node_order(twice, 2, perm) && perm[0] == 0 && perm[1] == 1);
	snprintf(m[2].node, sizeof m[2].node, "20261123T151030Z-43");
	CHECK(!slog_node_order(p, 3, perm));
	CHECK(perm[0] == 0 && perm[1] == 1 && perm[2] == 2);
	m[0].node[0] = m[1].node[0] = m[2].node[0] = '\0';
	CHECK(!slog_node_order(p, 3, perm) && perm[0] == 0);
	/* a session record with a node id reads back */
	char path[] = "/tmp/flopscope-node-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,\"device\":\"x\",\"workload\":\"fp32\","
	      "\"flop_per_invocation\":1,\"local_size\":1,\"target_ms\":20,\"node\":\"20261123T151027Z-42\","
	      "\"ordinal\":2,\"devices\":4}\n", f);
	fclose(f);
	SessionData d;
	char err[512];
	CHECK(slog_read(path, &d, err, sizeof err) >= 0);
	CHECK(!strcmp(d.meta.node, "20261123T151027Z-42") && d.meta.ordinal == 2 && d.meta.devices == 4);
	session_data_done(&d);
	unlink(path);
}


/* A session of `workload` on `queue` with samples of rate r, r+1, ... and a
 * summary (a median of r + 1), as the suite appends them to its file. */
static void append_session(char *buf, size_t len, const char *workload, const char *queue, double r, bool summary)
{
	size_t w = strlen(buf);
	w += (size_t)snprintf(buf + w, len - w, "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,"
	                      "\"device\":\"d\",\"target_ms\":20,\"workload\":\"%s\",\"queue\":\"%s\","
	                      "\"unit\":\"FLOPS\",\"start_utc\":\"2026-11-24T09:00:00Z\"}\n", workload, queue);
	for (int i = 0; i < 3; i++)
		w += (size_t)snprintf(buf + w, len - w, "{\"type\":\"sample\",\"seq\":%d,\"t_ms\":%d,\"x\":1,\"y\":1,"
		                      "\"z\":1,\"groups\":1,\"flop\":1,\"gpu_ns\":1,\"cpu_ns\":2,\"flops\":%g,"
		                      "\"gpu_timed\":true,\"steady\":true,\"verified\":true}\n", i, i, r + i);
	if (summary)
		snprintf(buf + w, len - w, "{\"type\":\"summary\",\"samples\":3,\"flops_median\":%g}\n", r + 1);
}

static void a_file_of_sessions_should_give_the_picked_one(void)
{
	char t[4096] = "", err[512];
	append_session(t, sizeof t, "fp32", "compute", 100, true);
	append_session(t, sizeof t, "h2d", "compute", 200, true);
	append_session(t, sizeof t, "h2d", "transfer", 300, true);
	SessionData d;
	/* no pick: refused, the sessions named, before any sample is used */
	CHECK(slog_parse(t, strlen(t), "s.jsonl", &d, err, sizeof err) == -1);
	CHECK_STR(err, "s.jsonl holds 3 sessions (fp32, h2d, h2d (transfer queue)): pick one with --workload NAME "
	               "(and --transfer-queue for one on the transfer queue)");
	static const struct { const char *w; bool tq; double first; } picks[] = {
		{ "fp32", false, 100 }, { "h2d", false, 200 }, { "h2d", true, 300 },
	};
	for (size_t i = 0; i < 3; i++) {
		SlogPick p = { picks[i].w, picks[i].tq };
		CHECK(slog_parse_visit(t, strlen(t), "s.jsonl", &p, NULL, 0, &d, err, sizeof err) == 0);
		CHECK(d.n == 3 && d.samples[0].rate == picks[i].first && d.samples[2].rate == picks[i].first + 2);
		CHECK_STR(d.meta.workload, picks[i].w);
		CHECK_STR(d.meta.queue, picks[i].tq ? "transfer" : "compute");
		CHECK(d.has_summary && !d.damaged && !d.warning[0]);
		session_data_done(&d);
	}
	SlogPick none = { "fp64", false }, tq = { "fp32", true };
	CHECK(slog_parse_visit(t, strlen(t), "s.jsonl", &none, NULL, 0, &d, err, sizeof err) == -1);
	CHECK_STR(err, "s.jsonl holds no fp64 session (it holds fp32, h2d, h2d (transfer queue))");
	CHECK(slog_parse_visit(t, strlen(t), "s.jsonl", &tq, NULL, 0, &d, err, sizeof err) == -1);
	CHECK_STR(err, "s.jsonl holds no fp32 (transfer queue) session (it holds fp32, h2d, h2d (transfer queue))");
	/* a file of one session: read as it is, and a pick must name it */
	char one[1024] = "";
	append_session(one, sizeof one, "int32", "compute", 5, true);
	CHECK(slog_parse(one, strlen(one), "o", &d, err, sizeof err) == 0 && d.n == 3);
	session_data_done(&d);
	SlogPick i32 = { "int32", false };
	CHECK(slog_parse_visit(one, strlen(one), "o", &i32, NULL, 0, &d, err, sizeof err) == 0 && d.n == 3);
	session_data_done(&d);
	CHECK(slog_parse_visit(one, strlen(one), "o", &none, NULL, 0, &d, err, sizeof err) == -1);
	CHECK_STR(err, "o holds no fp64 session (it holds int32)");
	/* a log written before the queue was recorded is a compute-queue one */
	const char *old = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,\"device\":\"d\","
	                  "\"target_ms\":20,\"workload\":\"h2d\"}\n";
	SlogPick h2d = { "h2d", false };
	CHECK(slog_parse_visit(old, strlen(old), "old", &h2d, NULL, 0, &d, err, sizeof err) == 0);
	session_data_done(&d);
}

/* A session record damaged mid-file still ends the session before it: the
 * next one's samples are never taken for the picked one's. */
static void a_damaged_session_record_should_end_the_session_before(void)
{
	char t[4096] = "", err[1024];
	append_session(t, sizeof t, "fp32", "compute", 100, false);
	size_t cut = strlen(t);
	append_session(t, sizeof t, "fp64", "compute", 900, true);
	/* the fp64 session record loses its end: no JSON, but its type is readable */
	char *nl = strchr(t + cut, '\n');
	memmove(t + cut + 60, nl, strlen(nl) + 1);
	SlogPick p = { "fp32", false };
	SessionData d;
	CHECK(slog_parse_visit(t, strlen(t), "dmg", &p, NULL, 0, &d, err, sizeof err) == 0);
	CHECK(d.n == 3 && d.samples[2].rate == 102 && !d.has_summary);
	CHECK(d.damaged == 1 && d.first_damaged == 5);
	CHECK(strstr(d.warning, "line 5: a damaged session record: the lines after it skipped") != NULL);
	session_data_done(&d);
	/* without a pick the file holds two sessions, the second unnamed */
	CHECK(slog_parse(t, strlen(t), "dmg", &d, err, sizeof err) == -1);
	CHECK_STR(err, "dmg holds 2 sessions (fp32, ? (line 5)): pick one with --workload NAME");
	/* a long list of sessions is cut, never overrun */
	size_t big = 256 * 1024;
	char *many = calloc(1, big);
	CHECK(many != NULL);
	for (int i = 0; i < 100; i++)
		append_session(many, big, i % 2 ? "fp16-matrix-f16" : "d2h-cached", "compute", i, true);
	CHECK(slog_parse(many, strlen(many), "many", &d, err, sizeof err) == -1);
	CHECK(strstr(err, "many holds 100 sessions (d2h-cached, fp16-matrix-f16, ") == err);
	CHECK(strstr(err, ", ...): pick one with --workload NAME") != NULL);
	free(many);
}

/* The suite's file: created once, each session appended (SLOG_APPEND), read
 * back by slog_index (what --logs lists) and by a pick. */
static void sessions_appended_should_be_indexed_and_read_back(void)
{
	char path[64], err[512];
	snprintf(path, sizeof path, "/tmp/flopscope-test-app-%d.jsonl", (int)getpid());
	unlink(path);
	SessionLog l;
	CHECK(!slog_open(&l, path, SLOG_APPEND, err, sizeof err));
	CHECK(strstr(err, "cannot write the session log /tmp/flopscope-test-app-") && strstr(err, "No such file"));
	CHECK(slog_open(&l, path, SLOG_NEW, err, sizeof err));
	slog_close(&l);
	static const char *const wl[] = { "fp32", "copy", "h2d" };
	for (int k = 0; k < 3; k++) {
		CHECK(slog_open(&l, path, SLOG_APPEND, err, sizeof err));
		SessionMeta m = meta();
		snprintf(m.workload, sizeof m.workload, "%s", wl[k]);
		snprintf(m.queue, sizeof m.queue, "%s", k == 2 ? "transfer" : "compute");
		snprintf(m.unit, sizeof m.unit, "%s", k ? "B/s" : "FLOPS");
		CHECK(slog_write_session(&l, &m));
		for (uint64_t i = 0; i < 4; i++) {
			Sample s = sample(i, 1e9 * (k + 1) + (double)i, true);
			CHECK(slog_write_sample(&l, &s, NULL));
		}
		if (k < 2) { /* the last is cut short: no summary */
			SummaryResult r;
			memset(&r, 0, sizeof r);
			r.samples = 4;
			r.flops.n = 4;
			r.flops.median = 1e9 * (k + 1);
			CHECK(slog_write_summary(&l, &r, 0, 1));
		}
		slog_close(&l);
		CHECK(!l.failed);
	}
	SlogEntry *e;
	size_t n;
	CHECK(slog_index(path, &e, &n, err, sizeof err));
	CHECK(n == 3);
	CHECK_STR(e[0].workload, "fp32");
	CHECK_STR(e[1].unit, "B/s");
	CHECK(e[0].complete && e[0].median == 1e9 && e[0].samples == 4 && !e[0].transfer_queue);
	CHECK(e[1].complete && e[1].median == 2e9);
	CHECK(!e[2].complete && isnan(e[2].median) && e[2].transfer_queue);
	free(e);
	SlogPick p = { "copy", false };
	SessionData d;
	CHECK(slog_read_visit(path, &p, NULL, 0, &d, err, sizeof err) == 0);
	CHECK(d.n == 4 && d.samples[0].rate == 2e9 && d.has_summary);
	session_data_done(&d);
	CHECK(slog_read(path, &d, err, sizeof err) == -1);
	CHECK(strstr(err, "holds 3 sessions (fp32, copy, h2d (transfer queue)): pick one with --workload NAME (and "));
	unlink(path);
	CHECK(!slog_index("/nonexistent/x.jsonl", &e, &n, err, sizeof err));
}

/* Log format 2 names the figures for what they are (work, rate,
 * peak_rate, work_per_invocation, peak_max_rate); a format 1 log, which
 * called them flop, flops, peak_flops ..., reads the same. */
static void both_log_formats_should_read_the_same(void)
{
	const char *v1 = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":1,\"device\":\"d\","
	                 "\"target_ms\":20,\"flop_per_invocation\":96,\"peak_max_flops\":5e12}\n"
	                 "{\"type\":\"sample\",\"seq\":0,\"t_ms\":1,\"x\":4,\"y\":1,\"z\":1,\"groups\":4,\"flop\":384,"
	                 "\"gpu_ns\":100,\"cpu_ns\":120,\"flops\":3.84e9,\"peak_flops\":4e12,\"gpu_timed\":true,"
	                 "\"steady\":true,\"verified\":true}\n";
	const char *v2 = "{\"type\":\"session\",\"format\":\"flopscope-session\",\"version\":2,\"device\":\"d\","
	                 "\"target_ms\":20,\"work_per_invocation\":96,\"peak_max_rate\":5e12}\n"
	                 "{\"type\":\"sample\",\"seq\":0,\"t_ms\":1,\"x\":4,\"y\":1,\"z\":1,\"groups\":4,\"work\":384,"
	                 "\"gpu_ns\":100,\"cpu_ns\":120,\"rate\":3.84e9,\"peak_rate\":4e12,\"gpu_timed\":true,"
	                 "\"steady\":true,\"verified\":true}\n";
	SessionData a, b;
	char err[256];
	CHECK(slog_parse(v1, strlen(v1), "v1", &a, err, sizeof err) == 0);
	CHECK(slog_parse(v2, strlen(v2), "v2", &b, err, sizeof err) == 0);
	CHECK(a.n == 1 && b.n == 1 && !a.damaged && !b.damaged);
	CHECK(a.samples[0].work == 384 && b.samples[0].work == 384);
	CHECK(a.samples[0].rate == 3.84e9 && b.samples[0].rate == 3.84e9);
	CHECK(a.samples[0].peak_flops == 4e12 && b.samples[0].peak_flops == 4e12);
	CHECK(a.meta.flop_per_invocation == 96 && b.meta.flop_per_invocation == 96);
	CHECK(a.meta.peak_max_flops == 5e12 && b.meta.peak_max_flops == 5e12);
	session_data_done(&a);
	session_data_done(&b);
}

int main(void)
{
	RUN(both_log_formats_should_read_the_same);
	RUN(samples_that_repeat_in_seq_should_be_counted_once_and_said);
	RUN(readings_no_hardware_gives_should_be_no_reading);
	RUN(node_logs_should_be_ordered_by_device);
	RUN(log_should_read_back_every_sample_exactly);
	RUN(every_session_field_should_read_back_as_written);
	RUN(every_window_field_should_read_back_as_written);
	RUN(log_should_keep_doubles_to_the_last_bit);
	RUN(log_cut_mid_line_should_keep_the_lines_before);
	RUN(log_with_a_bad_line_should_name_it);
	RUN(foreign_or_newer_files_should_be_refused);
	RUN(a_restart_should_keep_every_segment_on_one_timeline);
	RUN(a_file_of_sessions_should_give_the_picked_one);
	RUN(a_damaged_session_record_should_end_the_session_before);
	RUN(sessions_appended_should_be_indexed_and_read_back);
	RUN(a_long_log_should_be_seen_whole_and_kept_thinned);
	RUN(the_file_reader_should_match_the_buffer_and_bound_a_line);
	RUN(unwritable_log_should_say_where_and_why);
	RUN(logs_should_refuse_to_overwrite_and_share_a_file);
	RUN(compare_should_hold_up_to_autocorrelation_and_session_spread);
	RUN(compare_should_see_through_interrupted_blocks);
	RUN(svg_should_be_escaped_and_complete);
	return CHECK_DONE();
}
