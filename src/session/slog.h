/* slog: the session log, JSON Lines written with cJSON. The engine thread
 * writes it itself, one flushed line per sample, so a slow screen or a killed
 * process loses nothing that was measured.
 *
 *   {"type":"session","format":"flopscope-session","version":1, ...}
 *   {"type":"sample", ...}            one per dispatch
 *   {"type":"change","index":..}      a sustained level change and its cause (change.h)
 *   {"type":"excursion",...}          a departure that came back (change.h)
 *   {"type":"gap",...}                the process was stopped (SIGSTOP, Ctrl-Z)
 *   {"type":"restart","t_ms":..}      the loop started again (dashboard r); the
 *                                     clock goes on, seq starts at 0
 *   {"type":"control","action":..}    a target change, pause, resume, or why it stopped
 *   {"type":"error","message":..}     the engine stopped on an error
 *   {"type":"summary", ...}           statistics, at the end
 *
 * A file may hold several sessions, one after the other (the suite's: one
 * file a device), each from its session record to the next; slogread.h
 * reads one of them. */
#ifndef FLOPSCOPE_SLOG_H
#define FLOPSCOPE_SLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "records.h"
#include "sample.h"

#define SLOG_FORMAT "flopscope-session"
/* 2: work, rate, peak_rate, rate_median ... (format 1: flop, flops,
 * peak_flops, flops_median ... whatever the unit; still read) */
#define SLOG_VERSION 2

/* What the first line records. Plain data: filled by the engine. */
typedef struct SessionMeta {
	char flopscope_version[32];
	char start_utc[32];          /* ISO 8601, e.g. 2026-11-21T23:15:09Z */
	char host[128], kernel[256], cpu[256];
	char device[256];
	uint32_t vendor_id, device_id;
	char uuid[40];
	char pci_bus_id[24];    /* "00000000:1B:00.0"; "" unknown */
	char driver_name[256], driver_info[256], driver_version[32], api_version[32];
	char device_type[32];
	uint32_t queue_family;
	char queue[12];              /* "compute", or "transfer" (the transfer-only family) */
	char workload[64];
	uint64_t flop_per_invocation;
	uint32_t local_size;
	char shader_hash[20];        /* FNV-1a, hex */
	double target_ms;
	uint32_t trials;             /* dispatches per submission */
	char timing[16];             /* "gpu" or "cpu" */
	char peak[200];              /* how the theoretical peak is computed, or why not */
	double peak_max_flops;       /* at the highest clock; 0 unknown */
	double sm_max_mhz;           /* the highest shader clock (the telemetry's); 0 unknown */
	char telemetry[1024];        /* the telemetry source, or why none */
	char unit[8];                /* the samples' unit: FLOPS, IOPS or B/s */
	/* several devices at once: the id every device's log of the run shares,
	 * this device's number (1..) and how many ran; "" / 0 alone */
	char node[40];
	uint32_t ordinal, devices;
	/* a burn's planned length, its window and its margin (--outlier); 0: not a burn */
	double burn_s, burn_window_s, burn_margin_pct;
	/* a burn's log kept within this many bytes (its share of --log-cap):
	 * samples thinned to it, a window record each window; 0: every sample */
	uint64_t burn_log_budget_b;
	/* a burn of several workloads: this run's turn of burn_turns (burn.h);
	 * 0 of 0: one workload */
	uint32_t burn_turn, burn_turns;
} SessionMeta;

/* The session record's fields, one row each (slog.c: session_cols): the
 * writer (slog_write_session, slog_print_session) and the reader
 * (slogread.c) walk the same rows, so a new field is one row. */
typedef enum MetaKind { META_STR, META_U32, META_U64, META_DBL } MetaKind;
typedef enum MetaWhen {
	META_ALWAYS, /* written always */
	META_SET,    /* written only when set (a string not "", a number > 0); read only then */
	META_NODE,   /* written only with a node id (several devices at once) */
} MetaWhen;
typedef struct MetaCol {
	const char *key;
	const char *old;     /* the name format 1 gave it; NULL none */
	MetaKind kind;
	size_t off, size;    /* the SessionMeta field */
	MetaWhen when;
	double lo;           /* a number read below it is none (0: any >= 0) */
	const char *dstr;    /* written for "" (a string); NULL: "" */
	double dnum;         /* written for 0 (a number); 0: 0 */
} MetaCol;
extern const MetaCol session_cols[];
extern const size_t session_col_count;

/* A burn's window as its log keeps it (its figures, not its verdict: a
 * "window" record, burn.h's BurnWindow), one row a field, which the writer
 * (slog_write_window) and the reader (slogread.c) walk. A number not
 * finite is left out, and read as NaN. */
typedef enum WinKind { WIN_INDEX, WIN_DBL, WIN_SIZE, WIN_BOOL, WIN_FLAG } WinKind;
typedef struct WinCol {
	const char *key;
	WinKind kind;       /* WIN_INDEX: the window's number, 1-based as the burn's records;
	                       WIN_FLAG: a bool written 0 or 1, as the burn's records do */
	size_t off;         /* the BurnWindow field */
} WinCol;
extern const WinCol window_cols[];
extern const size_t window_col_count;

typedef struct SessionLog {
	FILE *f;
	char path[4096];
	bool failed;                 /* a write failed; nothing more is written */
	bool created;                /* this open made the file (removed if it gets no line) */
	int err_no;                  /* why */
	char error[4352];
	uint64_t bytes;              /* written by this open (a burn's log kept within its budget) */
} SessionLog;

/* Closes the log and, when this open created the file and it holds
 * nothing (the first line could not be written: a full disk), removes it:
 * a refused run leaves no empty log behind. */
void slog_abandon(SessionLog *l);

/* The default folder of the logs: $XDG_STATE_HOME/flopscope, else
 * ~/.local/state/flopscope (the password database's home without HOME),
 * else (no home at all: true) $TMPDIR/flopscope-UID or /tmp/flopscope-UID,
 * which slog_open makes private and uses only while it is. */
bool slog_default_dir(char *dir, size_t len);

/* Whether dir is this user's alone: a folder (not a link) owned by the uid
 * that no one else may read or write; create: made 0700 when missing
 * (without create, a missing one is fine). err says why not. */
bool slog_private_dir(const char *dir, bool create, char *err, size_t errlen);

/* flopscope's own logs in dir (retain.h's names), oldest first, into
 * *out (slog_free_list it); 0 when there are none or dir cannot be read. */
size_t slog_list_logs(const char *dir, char ***out);
void slog_free_list(char **names, size_t n);

/* Removes the oldest of flopscope's own logs in the default folder
 * (retain.h: by name, regular files only) until at most keep remain and
 * they hold at most cap bytes (0: no limit). Never removes a log that is
 * being written (its writer holds a lock on it: each one is tried under a
 * lock of retention's own, held while it is removed) nor one of the
 * files spare[0..nspare) names (the command's inputs); those count, and
 * the next oldest goes instead. Returns how many went; *spared how many
 * were kept that way; err says the first removal that failed ("" when
 * none). */
size_t slog_retain(size_t keep, uint64_t cap, const char *const *spare, size_t nspare, size_t *spared, char *err,
                   size_t errlen);

/* The time now as file names carry it ("20261129T183913Z", UTC): taken once
 * where a run is planned, so that its devices' logs, its node id and the
 * burn's report share one. */
void slog_stamp_now(char *out, size_t len);
/* The default path: $XDG_STATE_HOME/flopscope (or ~/.local/state/flopscope)
 * / <stamp>-<device>-<workload>.jsonl. */
void slog_default_path(const char *stamp, const char *device, const char *workload, char *out, size_t len);
/* The log a run writes: NULL with no_log; `given` when set; else the default
 * path for `device` with `stamp` (NULL: now). A run after the first in one
 * process (`nth` > 1) gets "-nth" added so that it never overwrites the
 * first. Writes into buf. */
const char *slog_choose_path(bool no_log, const char *given, const char *device, const char *workload,
                             const char *stamp, unsigned nth, char *buf, size_t len);
/* Creates missing folders and the file; false with a message naming it. */
/* How a log's path is taken. */
typedef enum SlogMode {
	SLOG_NEW,      /* a new file; an existing regular file is refused (devices are written to) */
	SLOG_UNIQUE,   /* the default name: the next free one (-2, -3 ...) when taken */
	SLOG_REPLACE,  /* --force: an existing regular file is emptied and written */
	SLOG_APPEND,   /* a session after the others of an existing file (the suite's):
	                  the file must exist */
} SlogMode;
/* Opens the log; a regular file is locked (flock): a second writer refuses. */
bool slog_open(SessionLog *l, const char *path, SlogMode how, char *err, size_t errlen);
bool slog_write_session(SessionLog *l, const SessionMeta *m);
/* The same session record on f (--format json puts it first on stdout);
 * dev > 0: led by "dev" (several devices at once). */
bool slog_print_session(FILE *f, const SessionMeta *m, unsigned dev);
/* One sample; with "processes" where procs names the others it read (NULL: none). */
bool slog_write_sample(SessionLog *l, const Sample *s, const ProcTable *procs);
bool slog_write_restart(SessionLog *l, double t_ms);
/* {"type":"control","action":"target"|"pause"|"resume"|"stop","t_ms":..}
 * with "target_ms" (target_ms > 0) or "note" (not NULL): what the user did. */
bool slog_write_control(SessionLog *l, const char *action, double t_ms, double target_ms, const char *note);
/* {"type":"gap","t_ms":..,"gap_ms":..}: the process was stopped from t_ms
 * (the last completion before it) for gap_ms; nothing measured then. */
bool slog_write_gap(SessionLog *l, double t_ms, double gap_ms);
/* One record per level change, written when it is found (change.h), and
 * one per excursion. */
bool slog_write_change(SessionLog *l, const Change *c, size_t index, const char *unit);
bool slog_write_excursion(SessionLog *l, const Excursion *e, const char *unit);
bool slog_write_error(SessionLog *l, const char *message);
bool slog_write_summary(SessionLog *l, const SummaryResult *r, size_t dropped, uint64_t checks);
struct BurnWindow;
/* A burn's window, its figures as the engine cut them from every sample
 * (window_cols): the log's samples may be thinned, its windows never. */
bool slog_write_window(SessionLog *l, const struct BurnWindow *w);
void slog_close(SessionLog *l);

/* Host facts for the session line: host name, kernel, CPU model, UTC time. */
void slog_host_facts(SessionMeta *m);
/* The host name alone (as the session line has it; "unknown" when it
 * cannot be read). */
void slog_host_name(char *out, size_t len);

/* The id the logs of several devices measured together share: the run's
 * stamp (slog_stamp_now) and the process id ("20261123T150803Z-4242"). */
void slog_node_id(const char *stamp, char *out, size_t len);

/* A run's ids, taken once where it is planned (a burn, several devices,
 * the dashboard's devices, a suite's workload): its stamp and the node id
 * its devices' logs share. */
typedef struct SlogRunIds {
	char stamp[32], node[48];
} SlogRunIds;
void slog_run_ids(SlogRunIds *ids);

#endif
