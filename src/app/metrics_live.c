#include "metrics_live.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "clock.h"
#include "fileio.h"
#include "summary.h"
#include "version.h"

typedef struct BoardRow {
	unsigned entry, engine;
	bool has_gpu;
	unsigned gpu;
	char uuid[40], pci[DEVINFO_PCI_LEN], name[256], driver[DEVINFO_DRIVER_STR_LEN], workload[32];
	WorkloadUnit unit;
	SummaryReader rd;       /* the run's statistics, read at each rendering; NULL read: */
	SummaryResult res;      /* ... these, read a last time when the run ended */
	Sample last;            /* the latest steady sample */
	bool has_last;
	uint32_t tel_valid;     /* the latest telemetry of any sample */
	double tel[SAMPLE_TEL_COUNT];
	uint64_t failed;        /* result checks that failed (the summary counts the passed) */
	CheckStatus check;
	double check_ratio, check_threshold, peer_ratio;
	uint64_t check_codes;   /* the verdict's causes, as verdict_code_bits */
	double shared_median;   /* a transfer's, every device at once; NaN: none */
	const char *reference;
	bool retired;
	bool device_only;       /* the device's readings alone (mboard_device_row) */
} BoardRow;

struct MetricsBoard {
	pthread_mutex_t mu;
	BoardRow **rows;
	size_t n, cap;
	double check_s;
	int exit_code;
	bool has_gpus;          /* a check's inventory of the host's GPUs: */
	MetricsGpus gpus;
};

MetricsBoard *mboard_create(void)
{
	MetricsBoard *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	if (pthread_mutex_init(&b->mu, NULL) != 0) {
		free(b);
		return NULL;
	}
	b->check_s = NAN;
	b->exit_code = -1;
	return b;
}

void mboard_destroy(MetricsBoard *b)
{
	if (!b)
		return;
	for (size_t k = 0; k < b->n; k++)
		free(b->rows[k]);
	free(b->rows);
	pthread_mutex_destroy(&b->mu);
	free(b);
}

int mboard_row(MetricsBoard *b, unsigned entry, const DeviceInfo *d, const char *workload, WorkloadUnit unit)
{
	BoardRow *r = calloc(1, sizeof *r);
	if (!r)
		return -1;
	r->entry = entry;
	r->has_gpu = d->has_gpu_index;
	r->gpu = d->gpu_index;
	devinfo_uuid_str(d->uuid, r->uuid, sizeof r->uuid);
	devinfo_pci_str(d, r->pci, sizeof r->pci);
	snprintf(r->name, sizeof r->name, "%s", d->name);
	devinfo_driver_str(d, r->driver, sizeof r->driver);
	snprintf(r->workload, sizeof r->workload, "%s", workload);
	r->unit = unit;
	r->res.ratio_median = r->res.pct_peak = r->res.pct_peak_max = r->res.plateau_ms = r->res.duty = r->res.noise = NAN;
	energy_init(&r->res.energy);
	r->check = CHECK_NONE;
	r->check_ratio = r->check_threshold = r->peer_ratio = r->shared_median = NAN;
	r->reference = "";
	pthread_mutex_lock(&b->mu);
	/* the same device and workload twice at once (two engines on one entry,
	 * or on two queue families of one device): numbered */
	unsigned same = 0;
	for (size_t k = 0; k < b->n; k++)
		same += !b->rows[k]->retired && !strcmp(b->rows[k]->uuid, r->uuid) && !strcmp(b->rows[k]->workload, workload);
	if (same)
		r->engine = same + 1;
	int idx = -1;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 8;
		BoardRow **rows = realloc(b->rows, cap * sizeof *rows);
		if (rows) {
			b->rows = rows;
			b->cap = cap;
		}
	}
	if (b->n < b->cap) {
		idx = (int)b->n;
		b->rows[b->n++] = r;
	}
	pthread_mutex_unlock(&b->mu);
	if (idx < 0)
		free(r);
	return idx;
}

/* The row, with the board's lock held; NULL (no lock held) when there is
 * no board or no such row. */
static BoardRow *lock_row(MetricsBoard *b, int row)
{
	if (!b)
		return NULL;
	pthread_mutex_lock(&b->mu);
	if (row >= 0 && (size_t)row < b->n)
		return b->rows[row];
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

int mboard_device_row(MetricsBoard *b, unsigned entry, const DeviceInfo *d)
{
	int row = mboard_row(b, entry, d, "", UNIT_FLOPS);
	BoardRow *r = lock_row(b, row);
	if (r) {
		r->device_only = true;
		pthread_mutex_unlock(&b->mu);
	}
	return row;
}

void mboard_sample(MetricsBoard *b, int row, const Sample *s)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	if ((s->flags & SAMPLE_STEADY) && !(s->flags & SAMPLE_IMPLAUSIBLE)) {
		r->last = *s;
		r->has_last = true;
	}
	for (int f = 0; f < SAMPLE_TEL_COUNT; f++) {
		if (s->tel_valid & (1u << f)) {
			r->tel[f] = s->tel[f];
			r->tel_valid |= 1u << f;
		}
	}
	pthread_mutex_unlock(&b->mu);
}

void mboard_attach(MetricsBoard *b, int row, SummaryReader rd)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	r->rd = rd;
	pthread_mutex_unlock(&b->mu);
}

/* The row's statistics read a last time and kept; its reader let go. */
static void row_end(BoardRow *r)
{
	if (r->rd.read)
		r->rd.read(r->rd.ctx, &r->res);
	r->rd = (SummaryReader){ 0 };
}

void mboard_end(MetricsBoard *b, int row)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	row_end(r);
	pthread_mutex_unlock(&b->mu);
}

void mboard_retire(MetricsBoard *b, int row)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	row_end(r);
	r->retired = true;
	pthread_mutex_unlock(&b->mu);
}

void mboard_check_failed(MetricsBoard *b, int row)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	r->failed++;
	pthread_mutex_unlock(&b->mu);
}

void mboard_verdict(MetricsBoard *b, int row, CheckStatus st, double ratio, double threshold, const char *reference,
                    double peer_ratio, uint64_t codes)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	r->check = st;
	r->check_ratio = ratio;
	r->check_threshold = threshold;
	r->reference = reference;
	r->peer_ratio = peer_ratio;
	r->check_codes = codes;
	pthread_mutex_unlock(&b->mu);
}

void mboard_shared(MetricsBoard *b, int row, double median)
{
	BoardRow *r = lock_row(b, row);
	if (!r)
		return;
	r->shared_median = median;
	pthread_mutex_unlock(&b->mu);
}

void mboard_gpus(MetricsBoard *b, const MetricsGpus *g)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->gpus = *g;
	b->has_gpus = true;
	pthread_mutex_unlock(&b->mu);
}

void mboard_check_end(MetricsBoard *b, double duration_s, int exit_code)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->mu);
	b->check_s = duration_s;
	b->exit_code = exit_code;
	pthread_mutex_unlock(&b->mu);
}

static double tel_or_nan(const BoardRow *r, TelField f, double scale)
{
	return (r->tel_valid & (1u << f)) ? r->tel[f] * scale : NAN;
}

char *mboard_render(MetricsBoard *b)
{
	pthread_mutex_lock(&b->mu);
	MetricsRow *rows = calloc(b->n ? b->n : 1, sizeof *rows);
	SummaryResult *sr = calloc(b->n ? b->n : 1, sizeof *sr);
	char *text = NULL;
	if (rows && sr) {
		size_t n = 0;
		for (size_t k = 0; k < b->n; k++) {
			const BoardRow *r = b->rows[k];
			if (r->retired)
				continue;
			MetricsRow *m = &rows[n];
			SummaryResult *res = &sr[n++];
			metrics_row_init(m);
			m->entry = r->entry;
			m->has_gpu = r->has_gpu;
			m->gpu = r->gpu;
			m->engine = r->engine;
			m->uuid = r->uuid;
			m->pci_bus_id = r->pci;
			m->name = r->name;
			m->driver = r->driver;
			m->workload = r->workload;
			m->unit = r->unit;
			m->has_now = r->has_last;
			m->now = r->last.rate;
			if (r->rd.read)
				r->rd.read(r->rd.ctx, res);
			else
				*res = r->res;
			if (res->flops.n)
				m->median = res->flops.median;
			m->peak_ratio = res->pct_peak / 100;
			m->rated_peak_ratio = res->pct_peak_max / 100;
			m->duty = res->duty;
			m->noise = res->noise;
			m->peer_ratio = r->peer_ratio;
			m->samples = res->samples;
			m->checks_passed = res->verified;
			m->checks_failed = r->failed;
			for (int c = 0; c < CAUSE_COUNT; c++)
				m->changes[c] = res->changes.by_cause[c];
			for (int f = 0; f < TEL_FIELD_COUNT; f++)
				m->tel[f] = tel_or_nan(r, (TelField)f, 1);
			m->energy_j = energy_known(&res->energy) ? res->energy.joules : NAN;
			m->has_reasons = res->energy.reasons;
			for (int c = 0; c < METRICS_REASONS && c < SUMMARY_REASONS; c++)
				m->clock_reduced_s[c] = res->energy.reason_s[c];
			for (int v = 0; v < ENERGY_VIOLATIONS; v++)
				m->violation_s[v] = energy_violation_s(&res->energy, (EnergyViolation)v);
			m->check = r->check;
			m->check_ratio = r->check_ratio;
			m->check_threshold = r->check_threshold;
			m->check_reference = r->reference;
			m->check_codes = r->check_codes;
			m->device_only = r->device_only;
			m->shared_median = r->shared_median;
		}
		text = metrics_render_host(rows, n, FLOPSCOPE_VERSION, b->check_s, b->exit_code,
		                           b->has_gpus ? &b->gpus : NULL);
	}
	pthread_mutex_unlock(&b->mu);
	free(rows);
	free(sr);
	return text;
}

bool mboard_write_file(MetricsBoard *b, const char *path, char *err, size_t len)
{
	char *text = mboard_render(b);
	if (!text) {
		snprintf(err, len, "%s: out of memory for the metrics", path);
		return false;
	}
	FileTmp t;
	FILE *f = fileio_create(path, FILE_OWN, false, &t, err, len);
	bool ok = f && fputs(text, f) >= 0;
	free(text);
	return f && fileio_commit(f, &t, ok, err, len);
}

/* A connection the guard watches: since when it waits for a request. */
typedef struct ConnSlot {
	bool used, answered;
	int fd;
	uint64_t since_ns;
} ConnSlot;

struct MetricsServer {
	struct MHD_Daemon *d;
	MetricsBoard *board;
	/* the guard: every connection's slot, and a thread that cuts a request
	 * that has not arrived whole in time (libmicrohttpd's own timeout is
	 * reset by every byte: clients trickling a header byte every 0.5 s held
	 * every slot and no scrape was answered) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stopping, guard_started;
	pthread_t guard;
	ConnSlot slots[METRICS_CONNECTIONS];
};

/* Ends a connection from outside libmicrohttpd's thread: its socket shut
 * down, which that thread reads as the end and closes. The slot's lock is
 * held: the socket is closed only after the slot is freed (the CLOSED
 * notification comes first), so the descriptor is still this one. */
static void conn_cut(ConnSlot *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->answered = true; /* cut once */
}

static void conn_notify(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_ConnectionNotificationCode toe)
{
	MetricsServer *s = cls;
	pthread_mutex_lock(&s->mu);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		ConnSlot *free_slot = NULL, *oldest = NULL;
		unsigned pending = 0;
		for (size_t i = 0; i < METRICS_CONNECTIONS; i++) {
			ConnSlot *k = &s->slots[i];
			if (!k->used) {
				if (!free_slot)
					free_slot = k;
			} else if (!k->answered) {
				pending++;
				if (!oldest || k->since_ns < oldest->since_ns)
					oldest = k;
			}
		}
		/* the newest waits, the oldest waiting goes: a request sent whole
		 * is answered long before so many newer ones come */
		if (pending >= METRICS_PENDING && oldest)
			conn_cut(oldest);
		if (free_slot && ci) {
			*free_slot = (ConnSlot){ .used = true, .fd = ci->connect_fd, .since_ns = clock_mono_ns() };
			*ctx = free_slot;
		} else {
			*ctx = NULL;
		}
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *ctx) {
		((ConnSlot *)*ctx)->used = false;
		*ctx = NULL;
	}
	pthread_mutex_unlock(&s->mu);
}

/* A request answered: the connection's next one (keep-alive) has its own
 * METRICS_REQUEST_S from now. */
static void request_done(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	(void)con_cls, (void)toe;
	MetricsServer *s = cls;
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	pthread_mutex_lock(&s->mu);
	if (ci && ci->socket_context) {
		ConnSlot *k = ci->socket_context;
		k->answered = false;
		k->since_ns = clock_mono_ns();
	}
	pthread_mutex_unlock(&s->mu);
}

static void *guard_main(void *arg)
{
	MetricsServer *s = arg;
	pthread_mutex_lock(&s->mu);
	while (!s->stopping) {
		uint64_t now = clock_mono_ns();
		for (size_t i = 0; i < METRICS_CONNECTIONS; i++) {
			ConnSlot *k = &s->slots[i];
			if (k->used && !k->answered && now - k->since_ns > (uint64_t)METRICS_REQUEST_S * 1000000000u)
				conn_cut(k);
		}
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += 200000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&s->cv, &s->mu, &until);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	(void)version, (void)upload, (void)upload_size, (void)con_cls;
	MetricsServer *s = cls;
	MetricsBoard *b = s->board;
	/* the request is here whole: the guard leaves it be */
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	pthread_mutex_lock(&s->mu);
	if (ci && ci->socket_context)
		((ConnSlot *)ci->socket_context)->answered = true;
	pthread_mutex_unlock(&s->mu);
	unsigned code = MHD_HTTP_OK;
	char *text = NULL;
	const char *fixed = NULL;
	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		code = MHD_HTTP_METHOD_NOT_ALLOWED;
		fixed = "GET /metrics\n";
	} else if (!strcmp(url, "/")) { /* a page that says where the metrics are, as node_exporter's */
		fixed = "<html><head><title>flopscope</title></head><body><h1>flopscope</h1>"
		        "<p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
	} else if (!strcmp(url, "/health")) { /* the exporter answers: a load balancer's or systemd's probe */
		fixed = "ok\n";
	} else if (strcmp(url, "/metrics")) {
		code = MHD_HTTP_NOT_FOUND;
		fixed = "flopscope serves /metrics\n";
	} else if (!(text = mboard_render(b))) {
		code = MHD_HTTP_INTERNAL_SERVER_ERROR;
		fixed = "out of memory\n";
	}
	struct MHD_Response *r = text ? MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE)
	                              : MHD_create_response_from_buffer(strlen(fixed), (void *)fixed,
	                                                                MHD_RESPMEM_PERSISTENT);
	if (!r) {
		free(text);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", text ? "text/plain; version=0.0.4; charset=utf-8"
	                                           : code == MHD_HTTP_OK && !strcmp(url, "/") ? "text/html; charset=utf-8"
	                                                                                      : "text/plain");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "GET, HEAD");
	enum MHD_Result ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* "PORT", "ADDR:PORT", "[ADDR6]:PORT" into host and port; false with why. */
static bool split_listen(const char *s, char *host, size_t hlen, char *port, size_t plen, char *why, size_t wlen)
{
	const char *colon = strrchr(s, ':');
	snprintf(why, wlen, "\"%s\" is not PORT, ADDR:PORT or [ADDR6]:PORT", s);
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':' || (size_t)(close - s - 1) >= hlen)
			return false;
		snprintf(host, hlen, "%.*s", (int)(close - s - 1), s + 1);
		snprintf(port, plen, "%s", close + 2);
	} else if (colon) {
		if ((size_t)(colon - s) >= hlen || strchr(s, ':') != colon)
			return false;
		snprintf(host, hlen, "%.*s", (int)(colon - s), s);
		snprintf(port, plen, "%s", colon + 1);
	} else {
		snprintf(host, hlen, "127.0.0.1");
		snprintf(port, plen, "%.*s", (int)(plen - 1), s);
	}
	if (!*host || !*port)
		return false;
	const char *p = colon && s[0] != '[' ? colon + 1 : s[0] == '[' ? strchr(s, ']') + 2 : s;
	size_t digits = strspn(p, "0123456789");
	if (!digits || p[digits])
		return false;
	if (digits > 5 || atoi(port) > 65535) {
		snprintf(why, wlen, "port %.*s%s is out of range (0 .. 65535; 0: one the system picks)", 12, p,
		         digits > 12 ? "..." : "");
		return false;
	}
	return true;
}

MetricsServer *metrics_serve(MetricsBoard *b, const char *listen_on, char *url, size_t urllen, char *err, size_t len)
{
	char host[256], port[8], why[200];
	if (!split_listen(listen_on, host, sizeof host, port, sizeof port, why, sizeof why)) {
		snprintf(err, len, "--metrics-listen: %s", why);
		return NULL;
	}
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
	                          .ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *ai = NULL;
	int gai = getaddrinfo(host, port, &hints, &ai);
	if (gai) {
		snprintf(err, len, "--metrics-listen %s: %s", listen_on, gai_strerror(gai));
		return NULL;
	}
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
	int one = 1;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 16) != 0) {
		snprintf(err, len, "--metrics-listen %s: cannot listen there: %s", listen_on, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return NULL;
	}
	bool v6 = ai->ai_family == AF_INET6;
	freeaddrinfo(ai);
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char shown[INET6_ADDRSTRLEN] = "?";
	unsigned bound = 0;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
		if (ss.ss_family == AF_INET6) {
			const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
			inet_ntop(AF_INET6, &a->sin6_addr, shown, sizeof shown);
			bound = ntohs(a->sin6_port);
		} else {
			const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
			inet_ntop(AF_INET, &a->sin_addr, shown, sizeof shown);
			bound = ntohs(a->sin_port);
		}
	}
	MetricsServer *s = calloc(1, sizeof *s);
	if (!s) {
		close(fd);
		snprintf(err, len, "--metrics-listen: out of memory");
		return NULL;
	}
	s->board = b;
	pthread_condattr_t ca;
	int e = pthread_mutex_init(&s->mu, NULL);
	if (!e && !(e = pthread_condattr_init(&ca))) {
		e = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		if (!e)
			e = pthread_cond_init(&s->cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	if (!e && !(e = pthread_create(&s->guard, NULL, guard_main, s)))
		s->guard_started = true;
	if (e) {
		snprintf(err, len, "--metrics-listen %s: cannot start the request guard: %s", listen_on, strerror(e));
		close(fd);
		metrics_server_stop(s);
		return NULL;
	}
	s->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0), 0, NULL, NULL, answer, s,
	                        MHD_OPTION_LISTEN_SOCKET, fd,
	                        /* a request idle this long is dropped: a scraper sends its
	                         * whole request at once */
	                        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)METRICS_IDLE_S,
	                        /* the guard bounds the whole request and keeps slots for
	                         * complete ones (METRICS_PENDING) */
	                        MHD_OPTION_NOTIFY_CONNECTION, conn_notify, s,
	                        MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
	                        MHD_OPTION_CONNECTION_LIMIT, (unsigned)METRICS_CONNECTIONS, MHD_OPTION_END);
	if (!s->d) {
		snprintf(err, len, "--metrics-listen %s: libmicrohttpd could not start its server", listen_on);
		close(fd);
		metrics_server_stop(s);
		return NULL;
	}
	snprintf(url, urllen, "http://%s%s%s:%u/metrics", v6 ? "[" : "", shown, v6 ? "]" : "", bound);
	return s;
}

void metrics_server_stop(MetricsServer *s)
{
	if (!s)
		return;
	if (s->d) {
		/* quiesced, the listening socket is ours to close (else MHD closes it) */
		MHD_socket fd = MHD_quiesce_daemon(s->d);
		MHD_stop_daemon(s->d);
		if (fd != MHD_INVALID_SOCKET)
			close(fd);
	}
	if (s->guard_started) {
		pthread_mutex_lock(&s->mu);
		s->stopping = true;
		pthread_cond_signal(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->guard, NULL);
		pthread_cond_destroy(&s->cv);
		pthread_mutex_destroy(&s->mu);
	}
	free(s);
}

bool metrics_out_open(MetricsOut *m, const Options *o, char *err, size_t len)
{
	*m = (MetricsOut){ .file = o->metrics_file };
	if (!o->metrics_file && !o->metrics_listen)
		return true;
	if (!(m->board = mboard_create())) {
		snprintf(err, len, "out of memory for the metrics");
		return false;
	}
	if (o->metrics_listen) {
		char url[300];
		if (!(m->server = metrics_serve(m->board, o->metrics_listen, url, sizeof url, err, len))) {
			mboard_destroy(m->board);
			m->board = NULL;
			return false;
		}
		fprintf(stderr, "flopscope: metrics at %s\n", url);
	}
	m->written_ns = clock_mono_ns();
	return true;
}

void metrics_out_tick(MetricsOut *m)
{
	if (!m || !m->file || !m->board)
		return;
	uint64_t now = clock_mono_ns();
	if (now - m->written_ns < (uint64_t)METRICS_FILE_EVERY_S * 1000000000ull)
		return;
	m->written_ns = now;
	char err[4400];
	if (!mboard_write_file(m->board, m->file, err, sizeof err))
		fprintf(stderr, "flopscope: --metrics-file: %s\n", err);
}

bool metrics_out_close(MetricsOut *m, char *err, size_t len)
{
	bool ok = true;
	if (m->board && m->file)
		ok = mboard_write_file(m->board, m->file, err, len);
	metrics_server_stop(m->server);
	mboard_destroy(m->board);
	*m = (MetricsOut){ 0 };
	return ok;
}

static void tap_sample(void *ctx, const Sample *s)
{
	const MetricsTap *t = ctx;
	mboard_sample(t->board, t->row, s);
}

void metrics_tap(MetricsTap *t, SampleSource *src, MetricsBoard *b, int row)
{
	t->board = b;
	t->row = row;
	src->tap = tap_sample;
	src->tap_ctx = t;
	mboard_attach(b, row, (SummaryReader){ src->ctx, src->summary });
}
