/* procs: the other processes on a GPU, as NVML lists them, in words. Pure. */
#ifndef FLOPSCOPE_PROCS_H
#define FLOPSCOPE_PROCS_H

#include <stdbool.h>
#include <stddef.h>

/* The process ids of pids[0..n) without self and without repeats (a
 * process with a compute and a graphics context is listed twice): the
 * smallest cap of them, sorted,
 * into out (at most cap); how many there are (may exceed cap). */
size_t procs_others(const unsigned *pids, size_t n, unsigned self, unsigned *out, size_t cap);

/* "4711 flopscope, 4712 python3" for pids[0..n) and their names (NULL or
 * "": the pid alone), as many as fit in len with " and N more" for the
 * rest; total: how many there are in all (>= n). */
void procs_describe(const unsigned *pids, const char *const *names, size_t n, size_t total, char *out,
                    size_t len);

/* One other process on a device, as the process pane and table show it. */
#define PROCS_SHOWN 32
/* What a process holds on the device, as NVML lists it (DRM: unknown). */
typedef enum ProcKind { PROC_KIND_UNKNOWN, PROC_COMPUTE, PROC_GRAPHICS, PROC_BOTH } ProcKind;
extern const char *const procs_kind_names[]; /* "-", "compute", "graphics", "both" */
typedef struct ProcInfo {
	unsigned pid;
	char name[20];      /* /proc/PID/comm; "" unknown */
	char user[32];      /* its real uid's name (the uid's number without one); "" unknown */
	char cmd[112];      /* its command line, arguments joined by spaces (cut); "" unknown */
	long uid;           /* its real uid; -1 unknown */
	ProcKind kind;
	double mem_bytes;   /* its memory on the device; NaN unknown */
	double sm_pct;      /* its utilization of the device: NVML's SM figure, or its DRM
	                       engines' busy time over the last second; NaN unknown */
} ProcInfo;

/* The other processes of a reading: the first PROCS_SHOWN of them by pid,
 * how many in all, and whether their pids are another PID namespace's
 * (a container's: then counted, never named: this process is not among
 * NVML's pids, so none of them can be told from a local one). */
typedef struct ProcTable {
	ProcInfo p[PROCS_SHOWN];
	unsigned n, total;
	bool foreign;
} ProcTable;

/* One DRM client of a device as a process's fdinfo file states it (the
 * kernel's drm-usage-stats: drm-pdev, drm-client-id, drm-engine-* in ns,
 * and its memory: amdgpu's drm-memory-vram, xe's drm-resident-vram*,
 * i915's drm-resident-local*). */
typedef struct DrmClient {
	unsigned long long id;  /* drm-client-id: one client, however many fds */
	double engine_ns;       /* its engines' busy time, summed */
	double mem_bytes;       /* its device memory; NaN unstated */
} DrmClient;
/* Whether text (an fdinfo file) is a DRM client of the device at PCI
 * address pdev ("0000:03:00.0"), filled into c. */
bool procs_drm_client(const char *text, const char *pdev, DrmClient *c);

/* The device memory the table's processes hold, summed; NaN unless every
 * one of them is in the table and states it (0 with none). */
double procs_table_mem(const ProcTable *t);

/* The process table's columns, each one a sort key. */
typedef enum ProcCol { PROC_COL_PID, PROC_COL_USER, PROC_COL_KIND, PROC_COL_UTIL, PROC_COL_MEM, PROC_COL_CMD,
                       PROC_COL_COUNT } ProcCol;
extern const char *const procs_col_names[PROC_COL_COUNT]; /* "pid", "user", ... as the table heads them */
/* p[0..n) sorted by col (descending: the largest first); an unknown figure
 * last either way, ties by pid. */
void procs_sort(ProcInfo *p, size_t n, ProcCol col, bool descending);
/* Whether a /proc/PID/stat line says the process has ended (state Z or X:
 * a zombie its parent has not reaped, or dead); its name, in parentheses,
 * may hold spaces and parentheses: the state follows the last ')'. */
bool procs_stat_ended(const char *stat_line);
/* A /proc/PID/stat line's start time (field 22: clock ticks after boot),
 * which with the pid names one process for its whole life; false where the
 * line has none. */
bool procs_stat_start(const char *stat_line, unsigned long long *start);

/* A process the process table asked to end, held from the question on:
 * by its pidfd (Linux 5.3), so that no signal reaches a process that took
 * its pid after it ended; where there is none (fd -1), by its start time,
 * read again before each signal. */
typedef struct ProcClaim {
	unsigned pid;
	int fd;
	unsigned long long start;
} ProcClaim;

/* What a live run's source does with a claim (procfs.h's): each 0 done, 1
 * the process had ended, -1 refused or failed, why said. */
typedef struct ProcOps {
	/* holds pid, this user's to end (procs_may_signal), whose name (comm,
	 * sanitized) is still name: not, it ended and its pid is another's */
	int (*claim)(unsigned pid, const char *name, ProcClaim *c, char *why, size_t len);
	int (*signal)(const ProcClaim *c, int sig, char *why, size_t len);
	bool (*alive)(const ProcClaim *c);       /* a zombie has ended */
	void (*release)(ProcClaim *c);
} ProcOps;
/* Whether a process of uid target may be signalled by a caller of real uid
 * self and effective uid euid (kill(2)'s rule: root, or the same user);
 * the why when not ("another user's process (uid 0): only root may end it"). */
bool procs_may_signal(long self, long euid, long target, char *why, size_t len);

/* The table's processes as procs_describe says them ("4711 python3, 4712
 * x and 3 more"); "" when it has none. */
void procs_table_describe(const ProcTable *t, char *out, size_t len);

/* "537 python3 (root) util 98% 1.2 GiB" into out: what is known of p.
 * util is NVML's per-process SM utilization, or the DRM engines' busy
 * time over the last second: not a share of time (on an H100 another
 * process read 99% while flopscope kept 40% of its rate beside it,
 * docs/INTERPRETATION.md), so it apportions nothing. */
void procs_line(const ProcInfo *p, char *out, size_t len);

/* Whether line (one of /proc/locks: "3: FLOCK  ADVISORY  WRITE 4711
 * 00:1a:2345 0 EOF") is a flock held, not waited for ("3: -> FLOCK ..."),
 * on the file of device dev_major:dev_minor and inode ino; its holder's pid
 * into *pid (a pid another PID namespace's, 0 or -1, is no holder). */
bool procs_lock_holder(const char *line, unsigned dev_major, unsigned dev_minor, unsigned long long ino,
                       unsigned *pid);

#endif
