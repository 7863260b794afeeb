#include "procfs.h"

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"

const char *procfs_root(void)
{
	const char *r = getenv("FLOPSCOPE_PROC_ROOT");
	return r && *r ? r : "/proc";
}

/* sanitized here, once, for every output (fmt_printable): any user names
 * their own process (prctl PR_SET_NAME) with escapes, and the kernel keeps
 * 15 bytes of a long name, cutting a multibyte character. */
/* Its command line, the arguments joined by spaces, cut to the field. */
static void read_cmdline(ProcInfo *p)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%u/cmdline", procfs_root(), p->pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	size_t n = fread(p->cmd, 1, sizeof p->cmd - 1, f);
	fclose(f);
	while (n && p->cmd[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (p->cmd[i] == '\0')
			p->cmd[i] = ' ';
	p->cmd[n] = '\0';
	fmt_printable(p->cmd);
}

/* The first line of /proc/PID/WHAT into line (its newline dropped);
 * false unreadable. */
static bool read_line(unsigned pid, const char *what, char *line, size_t len)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%u/%s", procfs_root(), pid, what);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fgets(line, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		line[strcspn(line, "\n")] = '\0';
	return ok;
}

/* pid's real uid (status' Uid line); -1 unreadable */
static long read_uid(unsigned pid)
{
	char path[600], line[256];
	snprintf(path, sizeof path, "%s/%u/status", procfs_root(), pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	unsigned uid;
	long found = -1;
	while (found < 0 && fgets(line, sizeof line, f))
		if (sscanf(line, "Uid: %u", &uid) == 1)
			found = uid;
	fclose(f);
	return found;
}

/* A uid's user name (its number where the system has none), sanitized.
 * Kept a minute by the thread that asked (each telemetry thread asks for
 * the same few users every 250 ms, and a name service such as sssd or
 * LDAP may take milliseconds to answer): no lock, no shared state. */
#define USER_CACHE 16
#define USER_CACHE_S 60
typedef struct UserName {
	uid_t uid;
	time_t at;   /* when it was looked up (CLOCK_MONOTONIC s); 0: empty */
	char name[sizeof ((ProcInfo *)0)->user];
} UserName;
static _Thread_local UserName user_cache[USER_CACHE];
static _Thread_local unsigned user_next;

static void user_name(uid_t uid, char *out, size_t len)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	time_t t = now.tv_sec + 1; /* never 0 */
	for (unsigned k = 0; k < USER_CACHE; k++) {
		const UserName *u = &user_cache[k];
		if (u->at && u->uid == uid && t - u->at < USER_CACHE_S) {
			snprintf(out, len, "%s", u->name);
			return;
		}
	}
	UserName *u = &user_cache[user_next++ % USER_CACHE];
	struct passwd pw, *res = NULL;
	char buf[1024];
	if (getpwuid_r(uid, &pw, buf, sizeof buf, &res) == 0 && res)
		snprintf(u->name, sizeof u->name, "%s", res->pw_name);
	else
		snprintf(u->name, sizeof u->name, "%lu", (unsigned long)uid);
	fmt_printable(u->name);
	u->uid = uid;
	u->at = t;
	snprintf(out, len, "%s", u->name);
}

void procfs_names(ProcInfo *p)
{
	p->uid = -1;
	read_cmdline(p);
	if (read_line(p->pid, "comm", p->name, sizeof p->name))
		fmt_printable(p->name);
	p->uid = read_uid(p->pid);
	if (p->uid < 0)
		return;
	user_name((uid_t)p->uid, p->user, sizeof p->user);
}

/* pid's start time (its stat line's) and whether it has ended; false
 * where its stat cannot be read (gone) */
static bool read_start(unsigned pid, unsigned long long *start, bool *ended)
{
	char line[1024];
	if (!read_line(pid, "stat", line, sizeof line) || !procs_stat_start(line, start))
		return false;
	*ended = procs_stat_ended(line);
	return true;
}

/* whether the pidfd's process has ended (its fd reads as ready) */
static bool pidfd_ended(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) != 0;
}

static int ended(char *why, size_t len)
{
	snprintf(why, len, "it has ended");
	return 1;
}

int procfs_claim(unsigned pid, const char *name, ProcClaim *c, char *why, size_t len)
{
	*c = (ProcClaim){ .pid = pid, .fd = -1 };
	if (!procs_may_signal((long)getuid(), (long)geteuid(), read_uid(pid), why, len))
		return -1;
	long fd = syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (fd < 0 && errno == ESRCH)
		return ended(why, len);
	if (fd < 0 && errno != ENOSYS) {
		snprintf(why, len, "pidfd_open: %s", strerror(errno));
		return -1;
	}
	c->fd = (int)fd;
	/* its stat read while the pidfd's process still runs is that
	 * process's: a pid is not taken again before its process ends */
	bool gone = false;
	char comm[sizeof ((ProcInfo *)0)->name] = "";
	if (!read_start(pid, &c->start, &gone) || gone ||
	    (name && name[0] && (!read_line(pid, "comm", comm, sizeof comm) || strcmp(fmt_printable(comm), name))) ||
	    (c->fd >= 0 && pidfd_ended(c->fd))) {
		procfs_release(c);
		return ended(why, len);
	}
	return 0;
}

int procfs_claim_signal(const ProcClaim *c, int sig, char *why, size_t len)
{
	unsigned long long start;
	bool gone = false;
	int rc;
	if (c->fd >= 0)
		rc = (int)syscall(SYS_pidfd_send_signal, c->fd, sig, NULL, 0);
	else if (!read_start(c->pid, &start, &gone) || start != c->start || gone)
		return ended(why, len);
	else
		rc = kill((pid_t)c->pid, sig);
	if (rc == 0)
		return 0;
	if (errno == ESRCH)
		return ended(why, len);
	snprintf(why, len, "%s", strerror(errno));
	return -1;
}

bool procfs_claim_alive(const ProcClaim *c)
{
	unsigned long long start;
	bool gone = false;
	if (c->fd >= 0)
		return !pidfd_ended(c->fd);
	return read_start(c->pid, &start, &gone) && start == c->start && !gone;
}

void procfs_release(ProcClaim *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

const ProcOps procfs_ops = {
	.claim = procfs_claim, .signal = procfs_claim_signal, .alive = procfs_claim_alive, .release = procfs_release,
};

size_t procfs_lock_holders(int fd, unsigned *pids, size_t cap)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return 0;
	char path[600], line[256];
	snprintf(path, sizeof path, "%s/locks", procfs_root());
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = 0;
	unsigned self = (unsigned)getpid(), pid;
	while (n < cap && fgets(line, sizeof line, f)) {
		if (!procs_lock_holder(line, major(st.st_dev), minor(st.st_dev), (unsigned long long)st.st_ino, &pid) ||
		    pid == self)
			continue;
		bool seen = false; /* a shared lock taken twice by one process */
		for (size_t k = 0; k < n && !seen; k++)
			seen = pids[k] == pid;
		if (!seen)
			pids[n++] = pid;
	}
	fclose(f);
	return n;
}
