/* devlock: one check a device at a time, across processes and users.
 *
 * A lock file a device, keyed by its identity (the UUID as nvidia-smi
 * writes it), in the system's lock folder (FLOPSCOPE_LOCK_DIR, else
 * /run/lock): a check holds it exclusively (flock) for its whole run; a
 * measuring run holds it shared, so that a check on a device being
 * measured, or a run on a device under check, is found and said instead of
 * two loads measuring each other without a word. The kernel drops a lock
 * with its process: nothing is left to clean up. */
#ifndef FLOPSCOPE_DEVLOCK_H
#define FLOPSCOPE_DEVLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct DevLock {
	int fd;            /* -1: none held */
	char path[4200];
} DevLock;

typedef enum DevLockResult {
	DEVLOCK_TAKEN,     /* held */
	DEVLOCK_BUSY,      /* another process holds it (the other kind, or a check) */
	DEVLOCK_NONE,      /* no lock could be made (no lock folder, a file that is not ours):
	                      the caller goes on without, said in err */
	DEVLOCK_STOPPED,   /* *stop was set while waiting (a signal asked the run to end) */
} DevLockResult;

/* The lock of device key, exclusive (a check) or shared (a measuring run),
 * waiting up to wait_s for it (0: not at all), and no longer than *stop
 * stays 0 (stop NULL: nothing ends the wait early; read every 100 ms at
 * most). err says why it is not held. */
DevLockResult devlock_take(DevLock *l, const char *key, bool exclusive, double wait_s, const atomic_int *stop,
                           char *err, size_t errlen);
void devlock_release(DevLock *l);

#endif
