/* metrics_live: the figures of a run or a check as Prometheus metrics
 * (core/metrics.h renders them): a board the measuring loop feeds sample by
 * sample, written to a file atomically (--metrics-file, node_exporter's
 * textfile collector) or served on /metrics while the run goes on
 * (--metrics-listen, libmicrohttpd's own thread reads the board under its
 * lock). */
#ifndef FLOPSCOPE_METRICS_LIVE_H
#define FLOPSCOPE_METRICS_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "devinfo.h"
#include "metrics.h"
#include "sample.h"
#include "source.h"

typedef struct MetricsBoard MetricsBoard;

/* NULL when memory ran out. */
MetricsBoard *mboard_create(void);
void mboard_destroy(MetricsBoard *b);

/* A row for device entry number `entry` (1-based) running workload: its
 * index, or -1 when memory ran out. */
int mboard_row(MetricsBoard *b, unsigned entry, const DeviceInfo *d, const char *workload, WorkloadUnit unit);
/* Every sample of the row's run, as the consumer takes it: the latest
 * figures and telemetry (the statistics are the run's own: below). */
void mboard_sample(MetricsBoard *b, int row, const Sample *s);
/* A row of a device's readings alone, no workload or run (--watch's load-free
 * exporter): its telemetry families only, fed by mboard_sample. */
int mboard_device_row(MetricsBoard *b, unsigned entry, const DeviceInfo *d);
/* The row's statistics from now on are what rd reads (the engine's
 * summary, the source's), at each rendering, until mboard_end. */
void mboard_attach(MetricsBoard *b, int row, SummaryReader rd);
/* The run behind the row ends (its engine has stopped and is about to
 * go): its statistics are read a last time and kept. Every attached row
 * is ended before what its reader reads is destroyed. */
void mboard_end(MetricsBoard *b, int row);
/* The run ended with a failed result check. */
void mboard_check_failed(MetricsBoard *b, int row);
/* The row's run is over (the dashboard moved to another workload): its
 * series leave the exposition (it is ended, as mboard_end). */
void mboard_retire(MetricsBoard *b, int row);
/* A check's verdict on the row, its peers' ratio (NaN: none) and its
 * causes' codes (verdict_code_bits). */
void mboard_verdict(MetricsBoard *b, int row, CheckStatus st, double ratio, double threshold, const char *reference,
                    double peer_ratio, uint64_t codes);
/* A check's inventory of the host's GPUs (g's strings must outlive the
 * board). */
void mboard_gpus(MetricsBoard *b, const MetricsGpus *g);
/* The whole check: how long it took, its exit status. */
/* A transfer's median on the row's device while every device ran it at
 * once (its verdict came from its link alone): the host's share. */
void mboard_shared(MetricsBoard *b, int row, double median);
void mboard_check_end(MetricsBoard *b, double duration_s, int exit_code);

/* The exposition now (malloc'd; NULL: out of memory). */
char *mboard_render(MetricsBoard *b);
/* Writes it to path whole (a temporary renamed over it); false with why. */
bool mboard_write_file(MetricsBoard *b, const char *path, char *err, size_t len);

typedef struct MetricsServer MetricsServer;
/* Serves GET /metrics on listen ("PORT", "ADDR:PORT" or "[ADDR6]:PORT";
 * 127.0.0.1 when no address is given; port 0: one the system picks). NULL
 * with why in err. *url gets the address it serves, e.g.
 * "http://127.0.0.1:19400/metrics". */
MetricsServer *metrics_serve(MetricsBoard *b, const char *listen, char *url, size_t urllen, char *err, size_t len);
void metrics_server_stop(MetricsServer *s);

/* The metrics of a measuring run (--metrics-file, --metrics-listen): NULL
 * members when not asked for. */
typedef struct MetricsOut {
	MetricsBoard *board;
	MetricsServer *server;
	const char *file;
	uint64_t written_ns;   /* when the file was last written */
} MetricsOut;
/* Opens what o asks for (nothing when neither option is given); false
 * with why in err (a usage error: the address cannot be listened on). */
bool metrics_out_open(MetricsOut *m, const Options *o, char *err, size_t len);
/* The endpoint's limits (libmicrohttpd): a connection idle this many
 * seconds is closed; a request (its line and headers) must arrive whole
 * within METRICS_REQUEST_S of the connection or of the last answer on it,
 * however it trickles; at most METRICS_PENDING connections wait for their
 * request (a newer one pushes out the oldest), so the rest of the
 * METRICS_CONNECTIONS are kept for complete requests; no limit by address
 * (on the default 127.0.0.1 every local client shares one). */
#define METRICS_IDLE_S 2
#define METRICS_REQUEST_S 2
#define METRICS_PENDING 32
#define METRICS_CONNECTIONS 64

/* Between samples: the file rewritten every METRICS_FILE_EVERY_S. */
#define METRICS_FILE_EVERY_S 10
void metrics_out_tick(MetricsOut *m);
/* The file written a last time, the server stopped; false with why when
 * the file could not be written. */
bool metrics_out_close(MetricsOut *m, char *err, size_t len);

/* src passes every sample it gives to row too (the dashboard reads its
 * samples through a SampleSource), and the row reads src's statistics
 * (mboard_attach: mboard_end it before src's run goes). t must outlive
 * src's use. */
typedef struct MetricsTap {
	MetricsBoard *board;
	int row;
} MetricsTap;
void metrics_tap(MetricsTap *t, SampleSource *src, MetricsBoard *b, int row);

#endif
