/* fleet_cmd: --fleet URL (fleet_cmd.h). */
#include "fleet_cmd.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "columns.h"
#include "error.h"
#include "fleet.h"
#include "fleet_read.h"
#include "fleet_view.h"
#include "fmt.h"
#include "records.h"
#include "version.h"

#define FLEET_BODY_MAX (256u << 20) /* an answer larger than this is refused */
#define FLEET_TIMEOUT_MS 10000

typedef struct Body {
	char *s;
	size_t n;
	bool too_big;
} Body;

static size_t body_write(char *p, size_t size, size_t nmemb, void *ctx)
{
	Body *b = ctx;
	size_t k = size * nmemb;
	if (b->n + k + 1 > FLEET_BODY_MAX) {
		b->too_big = true;
		return 0;
	}
	char *s = realloc(b->s, b->n + k + 1);
	if (!s)
		return 0;
	memcpy(s + b->n, p, k);
	b->s = s;
	b->n += k;
	s[b->n] = '\0';
	return k;
}

/* One instant query in flight: its handle, answer and error. */
typedef struct Query {
	CURL *c;
	char *url;
	Body b;
	char err[CURL_ERROR_SIZE];
	CURLcode rc;
} Query;

/* The query's handle set up (false: out of memory, or a libcurl that cannot
 * be kept to HTTP: redirects too, which libcurl otherwise lets reach FTP). */
static bool query_start(Query *q, const char *base, const char *promql, char *why, size_t len)
{
	*q = (Query){ .c = curl_easy_init(), .rc = CURLE_FAILED_INIT };
	char *e = q->c ? curl_easy_escape(q->c, promql, 0) : NULL;
	size_t ul = strlen(base) + (e ? strlen(e) : 0) + 32;
	q->url = e ? malloc(ul) : NULL;
	if (!q->url) {
		curl_free(e);
		snprintf(why, len, "out of memory for the queries");
		return false;
	}
	snprintf(q->url, ul, "%s/api/v1/query?query=%s", base, e);
	curl_free(e);
	curl_easy_setopt(q->c, CURLOPT_URL, q->url);
	curl_easy_setopt(q->c, CURLOPT_WRITEFUNCTION, body_write);
	curl_easy_setopt(q->c, CURLOPT_WRITEDATA, &q->b);
	curl_easy_setopt(q->c, CURLOPT_ERRORBUFFER, q->err);
	curl_easy_setopt(q->c, CURLOPT_TIMEOUT_MS, (long)FLEET_TIMEOUT_MS);
	curl_easy_setopt(q->c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(q->c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(q->c, CURLOPT_PRIVATE, q);
	CURLcode rc = curl_easy_setopt(q->c, CURLOPT_PROTOCOLS_STR, "http,https");
	if (rc == CURLE_OK)
		rc = curl_easy_setopt(q->c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	if (rc != CURLE_OK)
		snprintf(why, len, "libcurl cannot be held to HTTP and HTTPS: %s", curl_easy_strerror(rc));
	return rc == CURLE_OK;
}

static void query_done(Query *q)
{
	curl_easy_cleanup(q->c);
	free(q->url);
	free(q->b.s);
}

/* An answered query's result array (the caller deletes *doc); NULL with
 * why: the server unreachable, an HTTP error, an error answer, or not
 * Prometheus' JSON. warn: its warnings (a partial answer), "" none. */
static cJSON *query_result(Query *q, cJSON **doc, char *why, size_t len, char *warn, size_t wlen)
{
	*doc = NULL;
	long http = 0;
	curl_easy_getinfo(q->c, CURLINFO_RESPONSE_CODE, &http);
	cJSON *j = q->rc == CURLE_OK && q->b.s ? cJSON_Parse(q->b.s) : NULL;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	bool success = cJSON_IsString(st) && !strcmp(st->valuestring, "success");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "data"), "result");
	if (q->rc != CURLE_OK)
		snprintf(why, len, "%s", q->b.too_big ? "an answer over 256 MiB" : q->err[0] ? q->err : curl_easy_strerror(q->rc));
	else if (cJSON_IsString(st) && !strcmp(st->valuestring, "error")) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
		snprintf(why, len, "Prometheus: %s (HTTP %ld)", cJSON_IsString(e) ? e->valuestring : "an error", http);
	} else if (http != 200)
		snprintf(why, len, "HTTP %ld (is it Prometheus' address?)", http);
	else if (!success || !cJSON_IsArray(res))
		snprintf(why, len, "not a Prometheus API answer (no data.result)");
	if (q->rc != CURLE_OK || !success || http != 200 || !cJSON_IsArray(res)) {
		cJSON_Delete(j);
		return NULL;
	}
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, "warnings");
	if (cJSON_IsArray(w) && cJSON_GetArraySize(w) && !warn[0]) {
		const cJSON *w0 = cJSON_GetArrayItem(w, 0);
		snprintf(warn, wlen, "%s", cJSON_IsString(w0) ? w0->valuestring : "a partial answer");
	}
	*doc = j;
	return (cJSON *)res;
}

/* Every query at once (a fleet's answers take Prometheus a tenth of a
 * second each: one after another they added up to a second). */
static bool queries_run(Query *q, size_t n, char *why, size_t len)
{
	CURLM *m = curl_multi_init();
	if (!m) {
		snprintf(why, len, "libcurl would not start");
		return false;
	}
	for (size_t k = 0; k < n; k++)
		curl_multi_add_handle(m, q[k].c);
	int running = 1;
	CURLMcode mc = CURLM_OK;
	while (running && mc == CURLM_OK) {
		mc = curl_multi_perform(m, &running);
		if (running && mc == CURLM_OK)
			mc = curl_multi_poll(m, NULL, 0, 100, NULL);
	}
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(m, &left)))
		if (msg->msg == CURLMSG_DONE) {
			Query *x = NULL;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&x);
			if (x)
				x->rc = msg->data.result;
		}
	for (size_t k = 0; k < n; k++)
		curl_multi_remove_handle(m, q[k].c);
	curl_multi_cleanup(m);
	if (mc != CURLM_OK) {
		snprintf(why, len, "libcurl: %s", curl_multi_strerror(mc));
		return false;
	}
	return true;
}

/* The fleet's rows from the server at base; false with why. */
static bool read_fleet(const char *base, Fleet *f, char *why, size_t len, char *warn, size_t wlen)
{
	/* a reading's family and unit from its row of the measured quantities
	 * (tel_rows.h: .metric, .scale), dcgm-exporter's by name */
	enum { NOT_TEL = -1 };
	struct {
		Fill what;
		const char *promql;
		double scale;
		int tel;
	} qs[] = {
		{ F_INFO, "flopscope_device_info", 1, NOT_TEL },
		{ F_MISSING, "flopscope_gpu_missing == 1", 1, NOT_TEL },
		{ F_MEDIAN, "{__name__=~\"flopscope_throughput_median_(flops|ops|bytes_per_second)\"}", 1, NOT_TEL },
		{ F_NOISE, "flopscope_noise_ratio", 1, NOT_TEL },
		{ F_STATUS, "flopscope_check_status == 1", 1, NOT_TEL },
		{ F_CAUSE, "flopscope_check_cause{severity=~\"fail|error|warn\"}", 1, NOT_TEL },
		{ F_POWER, NULL, 1, TEL_POWER_W },
		{ F_CLOCK, NULL, 1, TEL_SM_MHZ },
		{ F_TEMP, NULL, 1, TEL_TEMP_C },
		/* dcgm-exporter's where flopscope has none (joined by UUID) */
		{ F_POWER, "DCGM_FI_DEV_POWER_USAGE", 1, NOT_TEL },
		{ F_CLOCK, "DCGM_FI_DEV_SM_CLOCK", 1, NOT_TEL },
		{ F_TEMP, "DCGM_FI_DEV_GPU_TEMP", 1, NOT_TEL },
	};
	enum { NQ = sizeof qs / sizeof *qs };
	/* the readings as they are now: a live exporter's (--watch, a run's
	 * --metrics-listen), not those a check's file holds from its end
	 * (node_exporter serves that file, as the check's exit code, from
	 * the same instance; on one host beside a --watch exporter, the
	 * first answer was the check's: an idle GPU at the check's 365 W
	 * and 1980 MHz) */
	char live[NQ][128];
	for (size_t k = 0; k < NQ; k++)
		if (qs[k].tel != NOT_TEL) {
			snprintf(live[k], sizeof live[k], "%s unless on(instance) flopscope_check_exit_code",
			         tel_info[qs[k].tel].metric);
			qs[k].promql = live[k];
			qs[k].scale = 1 / tel_info[qs[k].tel].scale;
		}
	Query q[NQ];
	Fleet readings = { 0 };
	bool ok = true;
	for (size_t k = 0; k < NQ; k++)
		if (!query_start(&q[k], base, qs[k].promql, ok ? why : NULL, ok ? len : 0))
			ok = false;
	ok = ok && queries_run(q, NQ, why, len);
	/* the answers in the table's order: the GPUs first, their readings last */
	for (size_t k = 0; ok && k < NQ; k++) {
		cJSON *doc;
		const cJSON *res = query_result(&q[k], &doc, why, len, warn, wlen);
		if (!res) {
			char w[600];
			snprintf(w, sizeof w, "%s", why);
			snprintf(why, len, "%s: query %s: %s", base, qs[k].promql, w);
			ok = false;
			break;
		}
		fleet_read_fill(f, &readings, qs[k].what, res, qs[k].scale);
		cJSON_Delete(doc);
	}
	for (size_t k = 0; k < NQ; k++)
		query_done(&q[k]);
	fleet_read_join(f, &readings);
	free(readings.rows);
	fleet_read_free_index(&readings);
	fleet_read_drop_device_rows(f);
	if (ok && f->full)
		snprintf(warn, wlen, "more than %d rows: the rest left out", FLEET_MAX_ROWS);
	return ok;
}

static void print_table(const FleetRow *r, size_t n, const char *base, size_t hosts, size_t gpus, double pct)
{
	printf("Fleet of %zu GPU%s on %zu host%s (Prometheus %s); fleet outlier rule %g%% below its model's median "
	       "on the workload, beyond the runs' noise\n", gpus, gpus == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s",
	       base, pct);
	char line[1024];
	fleet_head(line, sizeof line);
	printf("%s\n", line);
	for (size_t k = 0; k < n; k++) {
		fleet_line(&r[k], k && !strcmp(r[k - 1].host, r[k].host) ? "" : r[k].host, line, sizeof line);
		printf("%s\n", line);
	}
	size_t outliers = 0;
	for (size_t k = 0; k < n; k++) {
		if (!r[k].outlier)
			continue;
		if (!outliers++)
			printf("\nFleet outliers:\n");
		printf("  %s GPU %s %s (%s): %s at %.1f%% of the median of its %zu peers (beyond the noise, %.1f%%)%s%s\n",
		       r[k].host, r[k].gpu[0] ? r[k].gpu : "-", r[k].uuid, r[k].name, r[k].workload, 100 * r[k].fleet_ratio,
		       r[k].peers, 100 * r[k].noise_ref, r[k].codes[0] ? "; causes " : "", r[k].codes);
	}
	if (!outliers)
		printf("\nNo GPU more than %g%% below the median of its model's on a workload, beyond the noise.\n", pct);
}

/* A fleet_gpu record's columns, walked by the CSV and the JSON writers:
 * each its key (JSON and CSV header alike), form and place in FleetRow;
 * every key is in every record (null where unknown). */
#define FC(k, f, m, fmt) { k, k, f, offsetof(FleetRow, m), fmt }
static const Column fleet_cols[] = {
	FC("host", COL_CHARS_STRING, host, NULL),       FC("gpu", COL_CHARS_INDEX, gpu, NULL),
	FC("uuid", COL_CHARS_QUOTED, uuid, NULL),       FC("model", COL_CHARS_QUOTED, name, NULL),
	FC("workload", COL_CHARS, workload, NULL),      FC("median", COL_NUMBER_NULL, median, "%.6g"),
	FC("unit", COL_CHARS, unit, NULL),              FC("fleet_ratio", COL_NUMBER_NULL, fleet_ratio, "%.4f"),
	FC("peers", COL_SIZE, peers, NULL),             FC("noise_ref", COL_NUMBER_NULL, noise_ref, "%.4f"),
	FC("outlier", COL_BOOL, outlier, NULL),         FC("unsure", COL_BOOL, unsure, NULL),
	FC("verdict", COL_CHARS, verdict, NULL),        FC("codes", COL_CHARS_WORDS, codes, NULL),
	FC("missing", COL_BOOL, missing, NULL),         FC(TEL_KEY_POWER_W, COL_NUMBER_NULL, power_w, "%.1f"),
	FC("clock_mhz", COL_NUMBER_NULL, clock_mhz, "%.0f"), FC(TEL_KEY_TEMP_C, COL_NUMBER_NULL, temp_c, "%.0f"),
};

static void print_csv(const FleetRow *r, size_t n)
{
	columns_csv_header(stdout, fleet_cols, NCOLS(fleet_cols));
	for (size_t k = 0; k < n; k++)
		columns_csv(stdout, fleet_cols, NCOLS(fleet_cols), &r[k]);
}

/* Row r as a fleet_gpu record (NULL: out of memory). */
static cJSON *gpu_json(const FleetRow *r)
{
	return columns_json("fleet_gpu", fleet_cols, NCOLS(fleet_cols), r);
}

static void add_str(cJSON *j, const char *k, const char *v)
{
	if (v[0])
		cJSON_AddStringToObject(j, k, v);
	else
		cJSON_AddNullToObject(j, k);
}

static bool print_json(const FleetRow *r, size_t n, const char *base, size_t hosts, size_t gpus, size_t outliers,
                       size_t bad, const char *warn, int status)
{
	bool ok = true;
	for (size_t k = 0; ok && k < n; k++) {
		cJSON *j = gpu_json(&r[k]);
		if (!j)
			return false;
		ok = json_line(stdout, j);
	}
	cJSON *e = cJSON_CreateObject();
	if (!e)
		return false;
	cJSON_AddStringToObject(e, "type", "fleet_end");
	cJSON_AddStringToObject(e, "prometheus", base);
	cJSON_AddNumberToObject(e, "hosts", (double)hosts);
	cJSON_AddNumberToObject(e, "gpus", (double)gpus);
	cJSON_AddNumberToObject(e, "outliers", (double)outliers);
	cJSON_AddNumberToObject(e, "to_act_on", (double)bad);
	add_str(e, "warning", warn);
	cJSON_AddNumberToObject(e, "exit", status);
	record_stamp(e);
	return json_line(stdout, e) && ok;
}

/* Distinct hosts and GPUs of the rows (sorted by host). */
static void count(const FleetRow *r, size_t n, size_t *hosts, size_t *gpus)
{
	*hosts = *gpus = 0;
	for (size_t k = 0; k < n; k++) {
		bool new_host = !k || strcmp(r[k].host, r[k - 1].host);
		*hosts += new_host;
		bool seen = false;
		for (size_t j = k; j-- > 0 && !strcmp(r[j].host, r[k].host);)
			seen |= !strcmp(r[j].uuid, r[k].uuid);
		*gpus += !seen;
	}
}

/* The screen's reads: the fleet's rows from the server now. */
static bool fetch(void *ctx, FleetRow **rows, size_t *n, char *why, size_t len, char *warn, size_t wlen)
{
	Fleet f = { 0 };
	bool ok = read_fleet(ctx, &f, why, len, warn, wlen);
	fleet_read_free_index(&f);
	*rows = f.rows;
	*n = f.n;
	return ok;
}

/* The table, CSV or JSON of one read; the exit status. */
static int fleet_once(const Options *o, const char *base)
{
	Fleet f = { 0 };
	char why[1200] = "", warn[600] = "";
	bool read = read_fleet(base, &f, why, sizeof why, warn, sizeof warn);
	fleet_read_free_index(&f);
	if (!read) {
		/* never shown as a healthy fleet */
		fprintf(stderr, "flopscope: --fleet: %s\n", why);
		free(f.rows);
		return STATUS_NOT_RUN;
	}
	if (warn[0])
		fprintf(stderr, "flopscope: --fleet: warning: %s (a partial answer)\n", warn);
	size_t outliers = fleet_judge(f.rows, f.n, o->outlier_pct);
	fleet_sort(f.rows, f.n, FLEET_BY_HOST);
	size_t hosts, gpus, bad = 0;
	count(f.rows, f.n, &hosts, &gpus);
	for (size_t k = 0; k < f.n; k++)
		bad += fleet_row_bad(&f.rows[k]);
	int status = bad ? STATUS_FAILED : STATUS_OK;
	if (!f.n)
		fprintf(stderr, "flopscope: --fleet: %s holds no flopscope series (no flopscope_device_info): is it "
		        "scraping the nodes' check files or exporters?\n", base);
	if (o->format == FORMAT_JSON)
		print_json(f.rows, f.n, base, hosts, gpus, outliers, bad, warn, status);
	else if (o->format == FORMAT_CSV)
		print_csv(f.rows, f.n);
	else
		print_table(f.rows, f.n, base, hosts, gpus, o->outlier_pct);
	fflush(stdout);
	free(f.rows);
	return status;
}

int fleet_run(const Options *o, atomic_int *quit)
{
	char base[2048];
	snprintf(base, sizeof base, "%s", o->fleet_url);
	size_t bl = strlen(base);
	while (bl && base[bl - 1] == '/')
		base[--bl] = '\0';
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "flopscope: --fleet: libcurl would not start\n");
		return STATUS_NOT_RUN;
	}
	int status = -1;
	if (!o->headless) {
		Screen s;
		if (screen_open(&s, o->theme, quit)) {
			FleetViewOptions vo = { .source = base, .every_s = o->interval_s > 0 ? o->interval_s : 5,
			                        .outlier_pct = o->outlier_pct, .fps = o->fps };
			fleet_view_run(&s, fetch, base, &vo);
			screen_close(&s);
			status = STATUS_OK;
		} else {
			fprintf(stderr, "flopscope: cannot use this terminal; printing the table instead\n");
		}
	}
	if (status < 0)
		status = fleet_once(o, base);
	curl_global_cleanup();
	return status;
}
