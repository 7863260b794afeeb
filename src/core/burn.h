/* burn: a soak's windows, each judged (flopscope --burn). Pure.
 *
 * A burn runs one workload (the power workload by default) on every device
 * at once for minutes to hours; its time is cut into windows (--window,
 * 60 s), and each device's window is judged on its own samples:
 *  - a wrong result (the device's run stopped with one) fails it (WRONG);
 *  - the run failing in the driver is an ERROR;
 *  - a thermal or HW-slowdown hold (NVML's reasons, AMD's and Intel's
 *    mapped onto them) for at least BURN_HOLD_SHARE of its samples fails it
 *    (THROTTLE_HW); the power cap is reported, not failed;
 *  - its steady median below the device's first judged window's by more
 *    than the margin (--outlier's %) and by more than that window's noise
 *    (the 10th-to-90th percentile range of its 1 s block means over their
 *    median, as the node rule's; the window's own where the first's is
 *    unknown: a window's own spread holds any step inside it, as another
 *    process starting, and says nothing of the level) fails it (DRIFT:
 *    throughput sinking over the soak, as a GPU's that heats does); below
 *    by the margin but within the noise it cannot tell (DRIFT_UNSURE);
 *  - among identical devices, a window more than the margin and the noise
 *    below its peers' median of the same window (outlier.h's rule) is an
 *    OUTLIER;
 *  - other processes on the device are named (OTHER_PROCESS).
 * A window with no steady sample is judged by its results and holds alone.
 * The burn's verdict for a device is its worst window's. */
#ifndef FLOPSCOPE_BURN_H
#define FLOPSCOPE_BURN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"
#include "verdict.h"

/* the share of a window's samples under a thermal or HW-slowdown hold that
 * fails it (a few samples' glitch does not) */
#define BURN_HOLD_SHARE 0.05

typedef enum BurnStatus {
	BURN_PASS,
	BURN_UNSURE,   /* below the first window or its peers within the noise: cannot tell */
	BURN_OUTLIER,
	BURN_FAIL,     /* a hold, a drift */
	BURN_WRONG,
	BURN_ERROR,
	BURN_STATUS_COUNT
} BurnStatus;
/* "pass", "unsure", ... as records and the report write them */
extern const char *const burn_status_names[BURN_STATUS_COUNT];
/* "PASS", "UNSURE", ... as the table and the reports write them */
extern const char *const burn_status_words[BURN_STATUS_COUNT];

typedef struct BurnWindow {
	unsigned index;          /* 0, 1, ... */
	double t0_s, t1_s;       /* its span of the device's run */
	bool partial;            /* cut short by the burn's end or a signal */
	size_t samples, steady, verified;
	double median, min, max; /* the steady samples' rate; NaN with none */
	double noise;            /* the 10th-to-90th percentile range of its 1 s block means over
	                            their median; NaN with fewer than 3 blocks */
	double mhz, watts;       /* medians of the readings; NaN unread */
	double temp_max;         /* the highest temperature read; NaN unread */
	double temp_slowdown;    /* the GPU's own slowdown threshold (its readings'); NaN unknown */
	double held_power, held_thermal, held_hw; /* shares of its samples with the reason bits
	                                             (power cap; thermal; HW slowdown or power
	                                             brake); NaN: no reasons read */
	double others;           /* the most other processes on the device at once; NaN unread */
	double replays;          /* the PCIe link's replays the driver counted within it; NaN unread */
	double ecc_new;          /* uncorrected ECC errors counted within it (NVML's volatile count); NaN unread */
	bool remap_pending, remap_failed; /* a row remap waited for a reset / failed, in any reading */
	bool wrong, error;       /* the run stopped in it: a wrong result, a failure */
	/* the verdict (burn_judge, burn_judge_peers) */
	BurnStatus status;
	double drift;            /* median over the first judged window's; NaN */
	double peer_ratio;       /* median over its peers' median; NaN */
	Causes causes;
} BurnWindow;

/* A window's hottest temperature this near its GPU's slowdown threshold
 * (or past it) is said: TEMP_NEAR_SLOWDOWN (a warning); at or past it,
 * TEMP_AT_SLOWDOWN fails the window (the driver slows the clock there). */
#define BURN_SLOWDOWN_MARGIN_C 5.0
/* Window w's figures from its samples s[0..n) (t0_s, t1_s and index set
 * by the caller); false out of memory (w's figures NaN). */
bool burn_window_stats(BurnWindow *w, const Sample *s, size_t n);

/* The verdict of w against first (the device's first window with a steady
 * median; NULL or w itself: none to drift from), margin_pct the least
 * effect (--outlier); other processes named by who ("" none known). */
void burn_judge(BurnWindow *w, const BurnWindow *first, double margin_pct, const char *who);

/* The windows of one index on n devices, names[k] each device's model:
 * each more than margin_pct and the noise below its identical peers'
 * median is an OUTLIER (within the noise: UNSURE); returns how many
 * outliers. w[k] NULL: a device with no such window. */
size_t burn_judge_peers(BurnWindow *const *w, const char *const *names, size_t n, double margin_pct);

/* A device's verdict over its windows (count[] by status): its worst. */
BurnStatus burn_worst(const size_t count[BURN_STATUS_COUNT]);
/* The burn's exit status from the windows' counts and the devices whose
 * run failed: a wrong result first, then a failed window, an outlier, a
 * run that failed (the check's order: 3, 1, 4, 6); 0 all passed. */
int burn_exit_status(const size_t count[BURN_STATUS_COUNT], size_t devices_failed);

/* A device's run cut into windows by its samples' time (t_ms / 1000 /
 * window_s; the last window holds what comes past the planned length): a
 * window's samples kept for its median, clock, power and shares (past
 * BURN_KEEP_SAMPLES every 2nd, then 4th, ... of them), its minimum,
 * maximum, hottest temperature and counts exact. The burn's live run and
 * a remake from its logs cut the same way. */
#define BURN_KEEP_SAMPLES 8192
typedef struct BurnCut {
	double burn_s, window_s;
	unsigned windows;          /* planned: ceil(burn_s / window_s) */
	unsigned turn, turns;      /* burn_cut_turns: its run's turn of turns (0 of 1: every window) */
	unsigned cur;              /* the window being filled */
	Sample *buf;
	size_t n, stride, seen;    /* kept, every stride-th of seen since it began */
	size_t samples, verified;
	double min, max, temp;     /* exact over the window */
} BurnCut;
/* A burn of several workloads (--workload power,copy) takes turns: window
 * i is the run of workload i % turns's, each device running them one at a
 * time (the others' runs wait their turn). turns 0 or 1: one workload,
 * every window its. */
/* Whether a sample at t_s falls in one of turn's windows. */
bool burn_turn_owns(double t_s, double window_s, unsigned turn, unsigned turns);
/* The seconds from t_s to the start of turn's next window (0: t_s is in
 * one of its windows); negative where none begins before burn_s: its run
 * is over. */
double burn_turn_wait(double t_s, double burn_s, double window_s, unsigned turn, unsigned turns);
/* How many of the plan's windows are turn's. */
unsigned burn_turn_windows(unsigned windows, unsigned turn, unsigned turns);
/* The name a run goes by in the report and beside its peers: its device's
 * model, and where workloads take turns its workload ("llvmpipe (copy)"):
 * the burn and its remake from the logs name a run alike. */
void burn_run_name(const char *device, const char *workload, unsigned turns, char *out, size_t len);

/* false out of memory */
bool burn_cut_init(BurnCut *c, double burn_s, double window_s);
/* The cut of a run that takes turn of turns: it begins at its first window;
 * a sample outside its windows (one that ended past its turn) is left out. */
void burn_cut_turns(BurnCut *c, unsigned turn, unsigned turns);
/* Its run's turn has ended (its engine holds, what was in flight
 * completed): the window being filled is closed into *closed and true
 * returned, where a turn's window had samples and is not the plan's last
 * (that one closes at the burn's end). A sample of it that comes later is
 * left out. */
bool burn_cut_turn_end(BurnCut *c, BurnWindow *closed);
/* Whether windows of the cut's remain in the plan after the one being
 * filled: closed at the run's end, it was cut short (partial). */
bool burn_cut_more(const BurnCut *c);
void burn_cut_free(BurnCut *c);
/* s into its window; where s is the first of a later window, the one
 * being filled is closed into *closed first (burn_cut_close) and true
 * returned: the caller judges it. A sample outside the cut's turns is
 * left out (false). */
bool burn_cut_add(BurnCut *c, const Sample *s, BurnWindow *closed);
/* The window being filled, closed into *w: its span (partial: cut short,
 * ending at its last sample), figures and counts; the next one begun at
 * index. false out of memory (w->error set, no figure). */
bool burn_cut_close(BurnCut *c, BurnWindow *w, bool partial, unsigned next);

/* A device's soak as the report plots it: its run cut into at most
 * BURN_TRACE_POINTS spans of equal length, each with the least, the
 * greatest and the mean of what its samples read (throughput of the steady
 * ones, clock, power, temperature). Where the run outgrows the points, each
 * two neighbours become one and the span doubles: the memory stays the same
 * whatever the burn's length, and a span's least (a window's minimum) is
 * never lost, only its time blurred. */
#define BURN_TRACE_POINTS 512
typedef enum BurnQuantity { BURN_Q_RATE, BURN_Q_MHZ, BURN_Q_WATTS, BURN_Q_TEMP, BURN_Q_COUNT } BurnQuantity;
typedef struct BurnAgg {
	double min, max, sum;
	size_t n;
} BurnAgg;
typedef struct BurnPoint {
	long slot;               /* its span: [slot, slot + 1) x span_s of the run */
	BurnAgg q[BURN_Q_COUNT];
} BurnPoint;
typedef struct BurnTrace {
	double span_s;
	size_t n;
	BurnPoint p[BURN_TRACE_POINTS];
} BurnTrace;

/* An empty trace for a burn of burn_s: spans of burn_s over half the points
 * (room to overrun), 0.1 s at the least. */
void burn_trace_init(BurnTrace *t, double burn_s);
/* A sample at t_s of the run into its span (samples in time order; a
 * reading NaN where unread, the rate where the sample is not steady). */
void burn_trace_add(BurnTrace *t, const Sample *s, double t_s);
/* A point's mean of q; NaN where nothing was read. */
double burn_agg_mean(const BurnAgg *a);
/* b's points added to into's, as if b's samples had been added to it: the
 * device's runs taking turns, one line a device (traces of one burn: spans
 * of one start, each a power of two of the other; the coarser kept). */
void burn_trace_merge(BurnTrace *into, const BurnTrace *b);

#endif
