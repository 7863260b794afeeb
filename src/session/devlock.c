#include "devlock.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fileio.h"
#include "procfs.h"

/* The lock file of key: FLOPSCOPE_LOCK_DIR (absolute) or /run/lock, the
 * key kept to [A-Za-z0-9.:-]. Opened read-only (flock needs no more),
 * never through a link, made readable by all so that every user's
 * flopscope can lock it. -1 with why in err. */
static int open_lock(const char *key, char *path, size_t plen, char *err, size_t errlen)
{
	const char *dir = getenv("FLOPSCOPE_LOCK_DIR");
	if (!dir || dir[0] != '/')
		dir = "/run/lock";
	char safe[128];
	size_t n = 0;
	for (const char *p = key; *p && n + 1 < sizeof safe; p++)
		safe[n++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		                    *p == '.' || *p == ':' || *p == '-' ? *p : '_';
	safe[n] = '\0';
	snprintf(path, plen, "%s/flopscope-%s.lock", dir, safe);
	int fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open the device's lock %s: %s", fileio_shown(path), strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "the device's lock %s is not a regular file", fileio_shown(path));
		close(fd);
		return -1;
	}
	if (st.st_uid == geteuid() && (st.st_mode & 0444) != 0444)
		(void)!fchmod(fd, 0644); /* a umask of 077 would keep other users out */
	return fd;
}

/* "4711 flopscope (ann)", "4711 flopscope (ann), 4712 ..." (three
 * at most: a shared lock has as many holders as measuring runs): who holds
 * the lock open as fd, as procfs' locks names them; "" where it cannot tell
 * (a holder in another PID namespace, procfs not mounted). */
static void holders(int fd, char *out, size_t len)
{
	unsigned pids[3];
	out[0] = '\0';
	size_t n = procfs_lock_holders(fd, pids, 3), w = 0;
	for (size_t i = 0; i < n && w < len; i++) {
		ProcInfo p = { .pid = pids[i], .mem_bytes = NAN, .sm_pct = NAN };
		char one[80];
		procfs_names(&p);
		procs_line(&p, one, sizeof one); /* no memory or utilization: pid, name, user */
		w += (size_t)snprintf(out + w, len - w, "%s%s", i ? ", " : "", one);
	}
}

DevLockResult devlock_take(DevLock *l, const char *key, bool exclusive, double wait_s, const atomic_int *stop,
                           char *err, size_t errlen)
{
	l->fd = -1;
	err[0] = '\0';
	int fd = open_lock(key, l->path, sizeof l->path, err, errlen);
	if (fd < 0)
		return DEVLOCK_NONE;
	uint64_t until = clock_mono_ns() + (uint64_t)(wait_s > 0 ? wait_s * 1e9 : 0);
	for (;;) {
		if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) {
			l->fd = fd;
			return DEVLOCK_TAKEN;
		}
		int e = errno;
		if (e != EWOULDBLOCK && e != EINTR) {
			snprintf(err, errlen, "cannot lock %s: %s", fileio_shown(l->path), strerror(e));
			close(fd);
			return DEVLOCK_NONE;
		}
		if (clock_mono_ns() >= until)
			break;
		if (stop && atomic_load(stop)) {
			close(fd);
			snprintf(err, errlen, "stopped by a signal while waiting for its lock %s", fileio_shown(l->path));
			return DEVLOCK_STOPPED;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	}
	char who[200];
	holders(fd, who, sizeof who);
	close(fd);
	if (exclusive)
		snprintf(err, errlen, "the device is under another check or a measuring run (its lock %s is held%s%s)",
		         fileio_shown(l->path), who[0] ? " by " : "", who);
	else
		snprintf(err, errlen, "its lock %s is held by a check%s%s", fileio_shown(l->path), who[0] ? ", " : "", who);
	return DEVLOCK_BUSY;
}

void devlock_release(DevLock *l)
{
	if (l->fd >= 0)
		close(l->fd); /* the lock goes with the descriptor */
	l->fd = -1;
}
