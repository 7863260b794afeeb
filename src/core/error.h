/* error: one way to say that something failed. A constructor fills an Error:
 * the exit status the failure calls for, the VkResult behind it if any, and
 * what failed and why in words. Pure. */
#ifndef FLOPSCOPE_ERROR_H
#define FLOPSCOPE_ERROR_H

#include <stdint.h>

#define ERR_LEN 1024

/* The exit statuses, one table for every mode (README, docs/FLEET.md).
 * Where several hold, the first of WRONG, FAILED, OUTLIER, NOT_RUN,
 * NOT_JUDGED is the status; a signal that ends any mode (a run, a check, the suite, a
 * replay) makes it STATUS_SIGNAL + its number, whatever else held. */
typedef enum Status {
	STATUS_OK = 0,
	STATUS_FAILED = 1,   /* the device, the driver or the system failed; a check below its threshold */
	STATUS_USAGE = 2,    /* bad input: an option, a file, a shader */
	STATUS_WRONG = 3,    /* the device computed wrong results (a result check failed) */
	STATUS_OUTLIER = 4,  /* the outlier rule named a device: more than --outlier below its identical peers */
	STATUS_NOT_JUDGED = 5, /* a check held nothing to a reference: no peak known, no baseline, no peers */
	STATUS_NOT_RUN = 6,  /* a check could not run, for flopscope's, the driver's or the system's part: no
	                        driver, a device under another check or a measuring run, a run that ended
	                        in an error (a lost device), the validation layer's messages, the metrics
	                        file or the logs unwritable; no device verdict failed */
	STATUS_SIGNAL = 128, /* + the signal's number */
} Status;

/* The exit table in words, for every place that lists it (--help, the
 * metric's HELP; the man page, README and docs/FLEET.md are held to it by
 * tests/integration/cli.sh): X(status, what it means, a check's word for it
 * or "" where a check never ends so with its metrics written). */
#define STATUS_ROWS(X)                                                                                    \
	X(0, "success", "passed")                                                                         \
	X(1, "runtime failure (--check: a threshold missed)", "failed")                                   \
	X(2, "bad usage or input", "")                                                                    \
	X(3, "a result check failed (the device computed wrong values)", "wrong results")                 \
	X(4, "several devices: the outlier rule named one", "an outlier")                                 \
	X(5, "--check held nothing to a reference", "nothing judged")                                     \
	X(6, "--check could not run (a device under another check, a run that ended in an error, an "     \
	     "output that failed) and no device failed", "could not run")
/* Where several hold: a signal, then these, as the Status enum says. */
#define STATUS_PRECEDENCE "3, 1, 4, 6, 5"

typedef struct Error {
	Status status;
	int32_t vk;          /* the VkResult that failed; 0 (VK_SUCCESS) when none */
	char msg[ERR_LEN];
} Error;

#endif
