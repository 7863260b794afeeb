/* O_PATH, readlinkat on a link's own descriptor */
#define _GNU_SOURCE
#include "fileio.h"

#include <signal.h>
#include <stdatomic.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fileio_shown(const char *path)
{
	static _Thread_local char buf[4][300];
	static _Thread_local unsigned k;
	size_t n = strlen(path);
	if (n <= 280)
		return path;
	char *b = buf[k++ % 4];
	snprintf(b, sizeof buf[0], "%.60s...%s", path, path + n - 200);
	return b;
}

/* A FIFO's first writer: waited for a bounded time (FIFO_WAIT_MS), so that
 * `mkfifo f; producer > f & flopscope --replay f` does not race the
 * producer's open; none by then: it reads as empty, said by the caller. */
#define FIFO_WAIT_MS 2000
static void wait_for_writer(int fd)
{
	/* Linux: a FIFO's read end with no writer yet polls as nothing (no
	 * POLLHUP until a writer has come and gone) */
	struct pollfd p = { .fd = fd, .events = POLLIN };
	for (int waited = 0; waited < FIFO_WAIT_MS; waited += 100) {
		int n = poll(&p, 1, 100);
		if (n > 0 || (n < 0 && errno != EINTR))
			return;
	}
}

/* Opens a file to read: never blocks for good on a FIFO that has no writer
 * (its first writer is waited for FIFO_WAIT_MS at most, then it reads as
 * empty), refuses a folder with a clear reason; regular_only: refuses
 * whatever is not a regular file (a FIFO whose writer never writes would
 * block the read for good, deaf to SIGINT and SIGTERM). */
static FILE *open_input(const char *path, bool regular_only, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", fileio_shown(path), strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot open %s: %s", fileio_shown(path), strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is a folder, not a file", fileio_shown(path));
		close(fd);
		return NULL;
	}
	if (regular_only && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is %s, not a regular file: refused (a read from it may wait for ever)",
		         fileio_shown(path), S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
		close(fd);
		return NULL;
	}
	if (S_ISFIFO(st.st_mode))
		wait_for_writer(fd);
	int fl = fcntl(fd, F_GETFL);
	FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", fileio_shown(path), strerror(errno));
		close(fd);
	}
	return f;
}

char *fileio_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	FILE *f = open_input(path, true, err, errlen);
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 1 >= cap) {
			/* never more than max + 2 bytes: one past max tells the file is
			 * too large (/dev/zero took 4.2 GB when the buffer doubled first) */
			if (cap >= max + 2) {
				snprintf(err, errlen, "%s is larger than %zu bytes", fileio_shown(path), max);
				goto fail;
			}
			size_t nc = cap ? cap * 2 : 65536;
			if (nc > max + 2)
				nc = max + 2;
			char *g = realloc(buf, nc);
			if (!g) {
				snprintf(err, errlen, "out of memory reading %s", fileio_shown(path));
				goto fail;
			}
			buf = g;
			cap = nc;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				snprintf(err, errlen, "cannot read %s: %s", fileio_shown(path), strerror(errno));
				goto fail;
			}
			break;
		}
	}
	if (n > max) {
		snprintf(err, errlen, "%s is larger than %zu bytes", fileio_shown(path), max);
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

long fileio_next_line(const char *text, size_t len, size_t *pos, char **buf, size_t *cap, bool *newline,
                      bool *oom)
{
	*oom = false;
	if (*pos >= len)
		return -1;
	const char *start = text + *pos;
	const char *nl = memchr(start, '\n', len - *pos);
	size_t l = nl ? (size_t)(nl - start) : len - *pos;
	if (l + 1 > *cap) {
		char *g = realloc(*buf, l + 1);
		if (!g) {
			*oom = true;
			return -1;
		}
		*buf = g;
		*cap = l + 1;
	}
	memcpy(*buf, start, l);
	(*buf)[l] = '\0';
	*pos += l + (nl ? 1 : 0);
	*newline = nl != NULL;
	return (long)l;
}

#define LINE_CHUNK 65536

bool fileio_lines_open(LineReader *r, const char *path, size_t max_line, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->path = path;
	r->max = max_line;
	r->f = open_input(path, false, err, errlen); /* a log may be streamed (zcat log.gz > fifo) */
	if (!r->f)
		return false;
	fileio_note_input(fileno(r->f), path); /* never an output of this run */
	r->chunk = malloc(LINE_CHUNK);
	r->cap = 4096 < max_line + 1 ? 4096 : max_line + 1;
	r->line = malloc(r->cap);
	if (!r->chunk || !r->line) {
		snprintf(err, errlen, "out of memory reading %s", fileio_shown(path));
		fileio_lines_close(r);
		return false;
	}
	return true;
}

long fileio_lines_next(LineReader *r, bool *newline, bool *too_long, char *err, size_t errlen)
{
	size_t l = 0, skipped = 0;
	bool any = false;
	*newline = *too_long = false;
	for (;;) {
		if (r->cpos == r->clen) {
			r->clen = fread(r->chunk, 1, LINE_CHUNK, r->f);
			r->cpos = 0;
			if (r->clen == 0) {
				if (ferror(r->f)) {
					snprintf(err, errlen, "cannot read %s: %s", fileio_shown(r->path), strerror(errno));
					return -2;
				}
				break; /* the end: a last line without a newline, or none */
			}
		}
		any = true;
		const char *start = r->chunk + r->cpos;
		size_t avail = r->clen - r->cpos;
		const char *nl = memchr(start, '\n', avail);
		size_t take = nl ? (size_t)(nl - start) : avail;
		r->cpos += take + (nl ? 1 : 0);
		if (!*too_long && l + take > r->max) {
			*too_long = true; /* the rest of it is read past, never kept */
			l = 0;
		}
		if (*too_long && (skipped += take) / 64 > r->max) {
			/* /dev/zero, or a binary file: no line ends */
			snprintf(err, errlen, "%s has a line of more than %zu bytes: not a text log", fileio_shown(r->path),
			         r->max * 64);
			return -2;
		}
		if (!*too_long) {
			if (l + take + 1 > r->cap) {
				size_t nc = r->cap;
				while (nc < l + take + 1)
					nc *= 2;
				if (nc > r->max + 1)
					nc = r->max + 1;
				char *g = realloc(r->line, nc);
				if (!g) {
					snprintf(err, errlen, "out of memory reading %s", fileio_shown(r->path));
					return -2;
				}
				r->line = g;
				r->cap = nc;
			}
			memcpy(r->line + l, start, take);
			l += take;
		}
		if (nl) {
			*newline = true;
			break;
		}
	}
	if (!any)
		return -1;
	r->line[l] = '\0';
	return (long)l;
}

void fileio_lines_close(LineReader *r)
{
	if (r->f)
		fclose(r->f);
	free(r->chunk);
	free(r->line);
	memset(r, 0, sizeof *r);
}

/* --- the files this process reads and writes in place ----------------- */

typedef struct Noted {
	dev_t dev;
	ino_t ino;
	bool input;
	char path[512];
} Noted;
static Noted noted[256];
static size_t n_noted;
/* a spin lock: held for a few compares (pthread.h is not included here:
 * -Isrc/core has a sched.h of its own that it would pick up) */
static atomic_flag noted_mu = ATOMIC_FLAG_INIT;
static void noted_lock(void)
{
	while (atomic_flag_test_and_set_explicit(&noted_mu, memory_order_acquire))
		;
}
static void noted_unlock(void)
{
	atomic_flag_clear_explicit(&noted_mu, memory_order_release);
}

static void note(int fd, const char *path, bool input)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return; /* only a regular file can be replaced or removed */
	noted_lock();
	bool known = false;
	for (size_t i = 0; i < n_noted && !known; i++)
		known = noted[i].dev == st.st_dev && noted[i].ino == st.st_ino;
	if (!known && n_noted < sizeof noted / sizeof *noted) {
		Noted *n = &noted[n_noted++];
		*n = (Noted){ .dev = st.st_dev, .ino = st.st_ino, .input = input };
		snprintf(n->path, sizeof n->path, "%s", path);
	}
	noted_unlock();
}

void fileio_note_input(int fd, const char *path)
{
	note(fd, path, true);
}

void fileio_note_output(int fd, const char *path)
{
	note(fd, path, false);
}

void fileio_forget_noted(void)
{
	noted_lock();
	n_noted = 0;
	noted_unlock();
}

const char *fileio_noted(const struct stat *st, bool *is_input)
{
	const char *path = NULL;
	noted_lock();
	for (size_t i = 0; i < n_noted && !path; i++)
		if (noted[i].dev == st->st_dev && noted[i].ino == st->st_ino) {
			path = noted[i].path; /* entries are never removed: stays valid */
			if (is_input)
				*is_input = noted[i].input;
		}
	noted_unlock();
	return path;
}

/* --- temporaries, and their removal on a signal ---------------------------- */

/* state: 0 free, 1 being filled, 2 a temporary on disk */
static struct {
	atomic_int state;
	char path[4200];
} live[16];
static atomic_int handler_installed;

void fileio_remove_temporaries(void)
{
	for (size_t i = 0; i < sizeof live / sizeof *live; i++)
		if (atomic_load(&live[i].state) == 2)
			unlink(live[i].path);
}

static void on_stop_signal(int sig)
{
	fileio_remove_temporaries();
	/* SA_RESETHAND restored the default action: the signal, blocked in
	 * here, ends the process as it would have on return */
	raise(sig);
}

/* SIGINT, SIGTERM and SIGHUP remove the temporaries before they end the
 * process, where they still have their default action (an ignored SIGHUP
 * stays ignored; the signal thread's modes block them and stop cleanly). */
static void install_handler(void)
{
	if (atomic_exchange(&handler_installed, 1))
		return;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_stop_signal;
		sa.sa_flags = SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

static int live_add(const char *tmp)
{
	for (int i = 0; i < (int)(sizeof live / sizeof *live); i++) {
		int expect = 0;
		if (atomic_compare_exchange_strong(&live[i].state, &expect, 1)) {
			snprintf(live[i].path, sizeof live[i].path, "%s", tmp);
			atomic_store(&live[i].state, 2);
			return i;
		}
	}
	return -1; /* more than 16 at once: removed on failure, not on a signal */
}

static void live_drop(int slot)
{
	if (slot >= 0)
		atomic_store(&live[slot].state, 0);
}

/* --- which file an output replaces ----------------------------------------- */

/* The umask, read without changing it (umask(2) sets it, racing other
 * threads that create files); 022 where /proc does not say. */
static mode_t current_umask(void)
{
	mode_t m = 022;
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return m;
	char line[256];
	unsigned v;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Umask: %o", &v) == 1) {
			m = (mode_t)(v & 0777);
			break;
		}
	fclose(f);
	return m;
}

/* Follows path's symbolic links (FILE_OWN), each only when the user running
 * flopscope or root owns it, at most 16; each link is opened without being
 * followed and read from that descriptor, so a link swapped meanwhile is
 * never the one followed. The final path in out, its lstat in st (*exists
 * false when nothing is there). */
static bool resolve(const char *path, FileKind kind, char *out, size_t olen, struct stat *st, bool *exists,
                    char *err, size_t errlen)
{
	char cur[4096];
	if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
		snprintf(err, errlen, "%.200s...: the path is too long", fileio_shown(path));
		return false;
	}
	for (int hop = 0;; hop++) {
		int fd = open(cur, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT) {
				snprintf(err, errlen, "cannot write %s: %s", fileio_shown(cur), strerror(errno));
				return false;
			}
			*exists = false;
			snprintf(out, olen, "%s", cur);
			return true;
		}
		if (fstat(fd, st) != 0) {
			snprintf(err, errlen, "cannot write %s: %s", fileio_shown(cur), strerror(errno));
			close(fd);
			return false;
		}
		if (!S_ISLNK(st->st_mode)) {
			close(fd);
			*exists = true;
			snprintf(out, olen, "%s", cur);
			return true;
		}
		if (kind == FILE_NEW) {
			close(fd);
			snprintf(err, errlen, "%s is a symbolic link: an output replaces only a regular file, never through a "
			         "link (give the path it points to)", fileio_shown(cur));
			return false;
		}
		if (kind == FILE_CACHE) {
			close(fd);
			snprintf(err, errlen, "%s is a symbolic link: a cache is never written through one", fileio_shown(cur));
			return false;
		}
		if (st->st_uid != geteuid() && st->st_uid != 0) {
			close(fd);
			snprintf(err, errlen, "%s is a symbolic link owned by another user (uid %u): refused as an output "
			         "(flopscope follows only its user's or root's links)", fileio_shown(cur), (unsigned)st->st_uid);
			return false;
		}
		char target[4096];
		ssize_t n = readlinkat(fd, "", target, sizeof target - 1);
		int e = errno;
		close(fd);
		if (n < 0 || hop == 16) {
			snprintf(err, errlen, "cannot write %s: %s", fileio_shown(path), n < 0 ? strerror(e) : strerror(ELOOP));
			return false;
		}
		target[n] = '\0';
		char next[4096];
		const char *slash = strrchr(cur, '/');
		int w = target[0] == '/' || !slash
		            ? snprintf(next, sizeof next, "%s", target)
		            : snprintf(next, sizeof next, "%.*s/%s", (int)(slash - cur), cur, target);
		if (w >= (int)sizeof next) {
			snprintf(err, errlen, "cannot write %s: the path its link leads to is too long", fileio_shown(path));
			return false;
		}
		memcpy(cur, next, (size_t)w + 1);
	}
}

/* The existing file at path locked as a writer locks it (flock, LOCK_EX,
 * without waiting): a session log another flopscope is writing holds that
 * lock for its whole run, and is never replaced by an output (-2, err says
 * why). The descriptor holding the lock, or -1 where the file cannot be
 * opened to lock (nothing to be written there by a flopscope that could
 * not be opened either). */
static int lock_existing(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		close(fd);
		if (e != EWOULDBLOCK)
			return -1;
		snprintf(err, errlen, "%s is being written by another process (a live session log: it holds the "
		         "file's lock): refused as an output, --force or not", fileio_shown(path));
		return -2;
	}
	return fd;
}

/* fileio_may_replace; try_lock: and whether another process holds the
 * file's lock (fileio_create takes the lock itself instead, once). */
static bool may_replace(const char *path, FileKind kind, bool force, char *resolved, size_t rlen, char *err,
                        size_t errlen, bool try_lock)
{
	char real[4096];
	struct stat st;
	bool exists;
	if (!resolve(path, kind, real, sizeof real, &st, &exists, err, errlen))
		return false;
	if (resolved)
		snprintf(resolved, rlen, "%s", real);
	if (!exists)
		return true;
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file (%s): refused as an output", fileio_shown(real),
		         S_ISDIR(st.st_mode)    ? "a folder"
		         : S_ISFIFO(st.st_mode) ? "a FIFO"
		         : S_ISSOCK(st.st_mode) ? "a socket"
		                                : "a device");
		return false;
	}
	bool input = false;
	const char *other = fileio_noted(&st, &input);
	if (other) {
		snprintf(err, errlen, "%s is %s %s itself: refused as an output", fileio_shown(real),
		         input ? "the input" : "the session log", other);
		return false;
	}
	if (kind == FILE_NEW && !force) {
		snprintf(err, errlen, "%s exists already: --force replaces it", fileio_shown(real));
		return false;
	}
	int lk = try_lock ? lock_existing(real, err, errlen) : -1;
	if (lk == -2)
		return false;
	if (lk >= 0)
		close(lk);
	return true;
}

bool fileio_may_replace(const char *path, FileKind kind, bool force, char *resolved, size_t rlen, char *err,
                        size_t errlen)
{
	return may_replace(path, kind, force, resolved, rlen, err, errlen, true);
}

static void unlock_dest(FileTmp *t)
{
	if (t->lock_fd >= 0)
		close(t->lock_fd);
	t->lock_fd = -1;
}

FILE *fileio_create(const char *path, FileKind kind, bool force, FileTmp *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->slot = -1;
	t->lock_fd = -1;
	if (!may_replace(path, kind, force, t->path, sizeof t->path, err, errlen, false))
		return NULL;
	/* the file replaced stays locked until it is replaced: no flopscope
	 * starts writing a log there meanwhile (a writer locks without waiting) */
	t->lock_fd = lock_existing(t->path, err, errlen);
	if (t->lock_fd == -2) {
		t->lock_fd = -1;
		return NULL;
	}
	struct stat st;
	t->existed = lstat(t->path, &st) == 0 && S_ISREG(st.st_mode);
	t->mode = t->existed ? (st.st_mode & 0777) : (0666 & ~current_umask());
	t->uid = t->existed ? st.st_uid : 0;
	t->gid = t->existed ? st.st_gid : 0;
	const char *slash = strrchr(t->path, '/');
	const char *base = slash ? slash + 1 : t->path;
	int dl = slash ? (int)(slash - t->path) : 0;
	int w = slash ? snprintf(t->tmp, sizeof t->tmp, "%.*s/.%s.XXXXXX", dl, t->path, base)
	              : snprintf(t->tmp, sizeof t->tmp, ".%s.XXXXXX", base);
	if (w >= (int)sizeof t->tmp || strlen(base) > 240) {
		snprintf(err, errlen, "cannot write %.300s: the name is too long for a temporary beside it", fileio_shown(t->path));
		unlock_dest(t);
		return NULL;
	}
	install_handler();
	/* the signal handler may not see a half-made name: blocked while the
	 * file is created and listed */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int fd = mkostemp(t->tmp, O_CLOEXEC);
	int e = errno;
	if (fd >= 0)
		t->slot = live_add(t->tmp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: cannot create a temporary beside it: %s", fileio_shown(t->path), strerror(e));
		unlock_dest(t);
		return NULL;
	}
	/* root keeps the owner of a file it replaces (node_exporter's group) */
	if (t->existed && geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0))
		(void)!fchown(fd, t->uid, t->gid);
	FILE *f = NULL;
	if (fchmod(fd, t->mode) != 0 || !(f = fdopen(fd, "wb"))) {
		e = errno;
		snprintf(err, errlen, "cannot write %s: %s", fileio_shown(t->tmp), strerror(e));
		close(fd);
		unlink(t->tmp);
		live_drop(t->slot);
		unlock_dest(t);
		return NULL;
	}
	return f;
}

/* The folder's entry made durable after a rename (best effort: some file
 * systems refuse fsync on a folder). */
static void sync_folder(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else
		snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

bool fileio_commit(FILE *f, FileTmp *t, bool ok, char *err, size_t errlen)
{
	int saved = 0;
	/* flushed even when the caller's writes failed: the reason (a full
	 * disk's ENOSPC, EFBIG) is said, not only "the output failed" */
	errno = 0;
	if (fflush(f) != 0 || ferror(f)) {
		ok = false;
		saved = errno ? errno : EIO;
	}
	if (ok && fsync(fileno(f)) != 0) {
		ok = false;
		saved = errno;
	}
	if (fclose(f) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (ok && rename(t->tmp, t->path) != 0) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		snprintf(err, errlen, "cannot write %s: %s", fileio_shown(t->path), saved ? strerror(saved) : "the output failed");
		unlink(t->tmp);
	} else {
		sync_folder(t->path);
	}
	live_drop(t->slot);
	t->slot = -1;
	unlock_dest(t);
	return ok;
}

bool fileio_probe(const char *path, FileKind kind, bool force, char *err, size_t errlen)
{
	FileTmp t;
	FILE *f = fileio_create(path, kind, force, &t, err, errlen);
	if (!f)
		return false;
	char none[8];
	fileio_commit(f, &t, false, none, sizeof none); /* removed: nothing written */
	return true;
}

bool fileio_write(const char *path, const void *data, size_t len)
{
	FileTmp t;
	char err[256];
	FILE *f = fileio_create(path, FILE_CACHE, false, &t, err, sizeof err);
	if (!f)
		return false;
	return fileio_commit(f, &t, fwrite(data, 1, len, f) == len, err, sizeof err);
}

bool fileio_mkdirs(char *path, const char *what, char *err, size_t errlen)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		int e = errno;
		*p = '/';
		if (rc && e != EEXIST) {
			*p = '\0';
			snprintf(err, errlen, "cannot create the %s %s: %s", what, fileio_shown(path), strerror(e));
			*p = '/';
			return false;
		}
	}
	return true;
}
