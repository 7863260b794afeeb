/* error: one way to say that something failed. A constructor fills an Error:
 * the exit status the failure calls for, the VkResult behind it if any, and
 * what failed and why in words. Pure. */
#ifndef FLOPSCOPE_ERROR_H
#define FLOPSCOPE_ERROR_H

#include <stdint.h>

#define ERR_LEN 1024

/* The exit statuses (docs/flopscope.1, EXIT STATUS). */
typedef enum Status {
	STATUS_OK = 0,
	STATUS_FAILED = 1,   /* the device, the driver or the system failed */
	STATUS_USAGE = 2,    /* bad input: an option, a file, a shader */
	STATUS_WRONG = 3,    /* the device computed wrong results (a result check failed) */
} Status;

typedef struct Error {
	Status status;
	int32_t vk;          /* the VkResult that failed; 0 (VK_SUCCESS) when none */
	char msg[ERR_LEN];
} Error;

#endif
