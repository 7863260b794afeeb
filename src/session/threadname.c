#include "threadname.h"

#include <stdio.h>
#include <sys/prctl.h>

void thread_name(const char *what, unsigned n)
{
	char name[16]; /* TASK_COMM_LEN */
	if (n)
		snprintf(name, sizeof name, "%s %u", what, n);
	else
		snprintf(name, sizeof name, "%s", what);
	/* fails only for a bad pointer; nothing to do about it either way */
	(void)prctl(PR_SET_NAME, name, 0, 0, 0);
}
