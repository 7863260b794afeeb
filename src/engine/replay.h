/* replay: a recorded session log as a sample source, played back on its
 * recorded time line at an adjustable speed. */
#ifndef FLOPSCOPE_REPLAY_H
#define FLOPSCOPE_REPLAY_H

#include <stdint.h>

#include "source.h"
#include "slogread.h"

typedef struct Replay {
	SessionData d;
	size_t next;         /* first sample not yet released */
	double speed;
	bool paused;
	double base_t_ms;    /* play position at base_ns */
	uint64_t base_ns;
	uint64_t checks;     /* the checked samples played */
	uint64_t unrecorded_checks; /* the log's checks of dispatches it has no sample of (the
	                               warm-up's): counted once the play is through */
	Summary sum;         /* of the samples played: the source's statistics */
	uint64_t (*clock_ns)(void);  /* monotonic clock; replaceable in tests */
} Replay;

/* Takes ownership of d. */
void replay_init(Replay *r, SessionData *d, uint64_t (*clock_ns)(void));
void replay_done(Replay *r);
void replay_source(SampleSource *src, Replay *r, const char *path);
/* The play position in ms of the recorded time line. */
double replay_position(const Replay *r);

#endif
