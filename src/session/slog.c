#include "slog.h"
#include "fileio.h"
#include "paths.h"
#include "retain.h"
#include "version.h"
#include "fmt.h"
#include "burn.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <pwd.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* The user's home from the password database; NULL when none. */
static const char *passwd_home(void)
{
	static char home[2048];
	struct passwd pw, *res = NULL;
	char buf[4096];
	if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &res) != 0 || !res || !res->pw_dir ||
	    res->pw_dir[0] != '/')
		return NULL;
	snprintf(home, sizeof home, "%s", res->pw_dir);
	return home;
}

/* The last resort without any home (a uid with no passwd entry, as a
 * container started with --user): a folder of this uid's in $TMPDIR (an
 * absolute one) or /tmp. */
static void tmp_dir(char *dir, size_t len)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, len, "%s/flopscope-%lu", t && t[0] == '/' ? t : "/tmp", (unsigned long)getuid());
}

bool slog_default_dir(char *dir, size_t len)
{
	const char *home;
	/* without an absolute XDG_STATE_HOME or HOME, the password database's home */
	if (paths_xdg_dir("XDG_STATE_HOME", ".local/state", dir, len))
		return false;
	if ((home = passwd_home())) {
		snprintf(dir, len, "%s/.local/state/flopscope", home);
		return false;
	}
	tmp_dir(dir, len);
	return true;
}

bool slog_private_dir(const char *dir, bool create, char *err, size_t errlen)
{
	/* made private (0700, whatever the umask) if it is not there; a
	 * folder another user made first, or one others may write to, could be
	 * read, replaced or filled by them (CWE-379): refused, never used */
	if (create && mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create the log folder %s: %s", fileio_shown(dir), strerror(errno));
		return false;
	}
	struct stat st;
	if (lstat(dir, &st) != 0) {
		if (errno == ENOENT && !create)
			return true; /* nothing there to trust or distrust */
		snprintf(err, errlen, "cannot use the log folder %s: %s", fileio_shown(dir), strerror(errno));
		return false;
	}
	const char *why = S_ISLNK(st.st_mode)             ? "is a symbolic link"
	                  : !S_ISDIR(st.st_mode)          ? "is not a folder"
	                  : st.st_uid != getuid()         ? "belongs to another user"
	                  : (st.st_mode & 077) != 0       ? "may be read or written by other users"
	                                                  : NULL;
	if (why) {
		snprintf(err, errlen, "the log folder %s %s (uid %lu, mode %04o): refused, as another user could read, "
		         "replace or block the logs; --log PATH or XDG_STATE_HOME chooses another place, --no-log "
		         "records nothing", fileio_shown(dir), why, (unsigned long)st.st_uid,
		         (unsigned)(st.st_mode & 07777));
		return false;
	}
	return true;
}

/* Whether path's folder is the shared temporary folder's fallback, and if
 * so whether it is this user's alone (err says why not). */
static bool log_folder_ok(const char *path, bool create, char *err, size_t errlen)
{
	char dir[4096];
	tmp_dir(dir, sizeof dir);
	size_t n = strlen(dir);
	if (strncmp(path, dir, n) || (path[n] != '/' && path[n] != '\0'))
		return true;
	return slog_private_dir(dir, create, err, errlen);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t slog_list_logs(const char *dir, char ***out)
{
	*out = NULL;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0, cap_n = 0;
	char **names = NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!retain_is_log_name(e->d_name))
			continue;
		if (n == cap_n) {
			size_t c = cap_n ? 2 * cap_n : 64;
			char **nn = realloc(names, c * sizeof *nn);
			if (!nn)
				break;
			names = nn;
			cap_n = c;
		}
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (!n) {
		free(names);
		return 0;
	}
	/* the names begin with the start time: their order is the logs' age */
	qsort(names, n, sizeof *names, cmp_str);
	*out = names;
	return n;
}

void slog_free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Whether st is one of the files named (the command's inputs) or one this
 * process reads or writes. */
static bool retain_named(const struct stat *st, const char *const *spare, size_t nspare)
{
	for (size_t k = 0; k < nspare; k++) {
		struct stat s;
		if (spare[k] && stat(spare[k], &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return true;
	}
	return fileio_noted(st, NULL) != NULL;
}

/* The log at path opened and locked (retention's own lock: a writer takes
 * its lock with LOCK_NB and refuses while this is held); -1 when another
 * process holds one (a live log) or it cannot be opened. */
static int retain_lock(const char *path)
{
	int f = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (f >= 0 && flock(f, LOCK_EX | LOCK_NB) != 0) {
		close(f);
		f = -1;
	}
	return f;
}

size_t slog_retain(size_t keep, uint64_t cap, const char *const *spare, size_t nspare, size_t *spared, char *err,
                   size_t errlen)
{
	char dir[4096];
	slog_default_dir(dir, sizeof dir);
	err[0] = '\0';
	*spared = 0;
	char why[4600];
	if (!log_folder_ok(dir, false, why, sizeof why))
		return 0; /* never touched: opening the log there says why */
	char **names;
	size_t n = slog_list_logs(dir, &names), removed = 0;
	uint64_t *sizes = NULL;
	bool *rm = NULL, *keep_it = NULL;
	if (!n)
		return 0; /* no folder, or no log yet: nothing to keep */
	sizes = calloc(n, sizeof *sizes);
	rm = calloc(n, sizeof *rm);
	keep_it = calloc(n, sizeof *keep_it);
	if (!sizes || !rm || !keep_it) {
		snprintf(err, errlen, "out of memory listing %s", fileio_shown(dir));
		goto out;
	}
	size_t m = 0; /* the logs alone, in their order */
	for (size_t i = 0; i < n; i++) {
		char path[4400];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		/* a regular file of ours only: a link or anything else is no log
		 * of ours, never removed and not counted */
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(names[i]);
			continue;
		}
		names[m] = names[i];
		sizes[m] = (uint64_t)st.st_size;
		keep_it[m++] = retain_named(&st, spare, nspare);
	}
	n = m;
	/* the oldest go; one that turns out to be live (its writer's lock) is
	 * kept and the pick made again, so the next oldest goes instead: one
	 * descriptor at a time, whatever the folder holds */
	for (size_t i = 0; i < n;) {
		retain_pick(sizes, keep_it, n, keep, cap, 0, rm);
		while (i < n && !rm[i])
			i++;
		if (i == n)
			break;
		char path[4400];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		int f = retain_lock(path);
		if (f < 0) {
			keep_it[i] = true;
			continue;
		}
		/* removed while locked: no writer can start on it meanwhile */
		if (unlink(path) == 0)
			removed++;
		else if (!err[0])
			snprintf(err, errlen, "cannot remove the old log %s: %s", fileio_shown(path), strerror(errno));
		close(f);
		i++;
	}
	/* spared: those that would have gone but for being live or named */
	retain_pick(sizes, NULL, n, keep, cap, 0, rm);
	for (size_t i = 0; i < n; i++)
		*spared += rm[i] && keep_it[i] && sizes[i];
out:
	slog_free_list(names, n);
	free(sizes);
	free(rm);
	free(keep_it);
	return removed;
}

void slog_default_path(const char *stamp, const char *device, const char *workload, char *out, size_t len)
{
	char dir[4096];
	slog_default_dir(dir, sizeof dir);
	char slug[48];
	size_t n = 0;
	for (const char *p = device; *p && n + 1 < sizeof slug; p++) {
		if (isalnum((unsigned char)*p))
			slug[n++] = (char)tolower((unsigned char)*p);
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
		if (*p == '(') /* "llvmpipe (LLVM 15...)": the name is enough */
			break;
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	snprintf(out, len, "%s/%s-%s-%s.jsonl", dir, stamp, n ? slug : "device", workload);
}

void slog_stamp_now(char *out, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(out, len, "%Y%m%dT%H%M%SZ", &tm))
		snprintf(out, len, "unknown");
}

const char *slog_choose_path(bool no_log, const char *given, const char *device, const char *workload,
                             const char *stamp, unsigned nth, char *buf, size_t len)
{
	if (no_log)
		return NULL;
	char base[4096];
	if (given) {
		snprintf(base, sizeof base, "%s", given);
	} else {
		char now[32];
		if (!stamp)
			slog_stamp_now(now, sizeof now);
		slog_default_path(stamp ? stamp : now, device, workload, base, sizeof base);
	}
	size_t n = strlen(base);
	const char *ext = n > 6 && !strcmp(base + n - 6, ".jsonl") ? ".jsonl" : "";
	if (nth > 1)
		snprintf(buf, len, "%.*s-%u%s", (int)(n - strlen(ext)), base, nth, ext);
	else
		snprintf(buf, len, "%s", base);
	/* two runs started within one second get the same name: slog_open
	 * (SLOG_UNIQUE) takes the next free one, atomically */
	return buf;
}

/* Opens path for the log as `how` says; -1 with errno when not: EEXIST for
 * an existing regular file that may not be replaced, EISDIR for a folder,
 * ELOOP for a symbolic link that is not followed. A log never goes through
 * a link to a regular file, --force or not; a link of the user's or root's
 * (/dev/stdout) is followed to a device or FIFO only, checked on the file
 * opened, not on a name that could be swapped meanwhile. */
static int open_log_fd(const char *path, SlogMode how, bool *created)
{
	if (how == SLOG_APPEND)
		return open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	/* O_EXCL: a new file, never through a link */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		*created = true;
	if (fd >= 0 || errno != EEXIST)
		return fd;
	struct stat st;
	if (lstat(path, &st) != 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid() && st.st_uid != 0) {
			errno = ELOOP;
			return -1;
		}
		/* no O_TRUNC: a regular file reached this way is closed untouched */
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			return fd;
		struct stat t;
		if (fstat(fd, &t) != 0 || S_ISREG(t.st_mode) || S_ISDIR(t.st_mode)) {
			close(fd);
			errno = ELOOP;
			return -1;
		}
		return fd;
	}
	/* a device or FIFO that is there already (/dev/null, /dev/full, a pipe to
	 * a collector) is written to, never replaced; a FIFO without a reader is
	 * refused (ENXIO) rather than waited for */
	if (!S_ISREG(st.st_mode)) {
		return open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	}
	if (how == SLOG_REPLACE) /* emptied once locked, by slog_open */
		return open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	errno = EEXIST;
	return -1;
}

/* Why the log could not be opened (errno), in words that say what to do. */
static void open_error(const SessionLog *l, char *err, size_t errlen)
{
	const char *shown = fileio_shown(l->path);
	if (errno == EEXIST)
		snprintf(err, errlen, "the session log %s exists already: --force replaces it, --log PATH "
		         "chooses another file, --no-log records nothing", shown);
	else if (errno == ELOOP)
		snprintf(err, errlen, "the session log %s is a symbolic link: a log is never written through one to a "
		         "file, --force or not (--log takes the path it points to; a link of yours or root's to a "
		         "device or FIFO is followed)", shown);
	else if (errno == ENXIO)
		snprintf(err, errlen, "the session log %s is a FIFO with no reader: start the reader first, or --log "
		         "another file", shown);
	else if (errno == EISDIR)
		snprintf(err, errlen, "the session log %s is a folder: --log takes a file name (--log %s/run.jsonl)",
		         shown, shown);
	else
		snprintf(err, errlen, "cannot write the session log %s: %s (--log PATH chooses "
		         "another file, --no-log records nothing)", shown, strerror(errno));
}

/* A regular file's claim: one writer per log (a second flopscope on the
 * same path refuses; SLOG_APPEND: the file's creator holds the lock for the
 * whole run, the suite's), never an input of this run, emptied to be
 * replaced. 1: claimed; 0 (may_retry): removed by another run's retention
 * between its creation and the lock (it locks what it removes), to be made
 * again; -1:
 * refused (fd closed, err said why). */
static int claim(SessionLog *l, int fd, SlogMode how, bool may_retry, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || how == SLOG_APPEND)
		return 1; /* flock means nothing on a device */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "the session log %s is being written by another process (%s): "
		         "--log PATH chooses another file", fileio_shown(l->path), e == EWOULDBLOCK ? "locked" : strerror(e));
		return -1;
	}
	if (fstat(fd, &st) == 0 && st.st_nlink == 0 && how == SLOG_UNIQUE && may_retry)
		return 0;
	bool input = false;
	const char *other = fileio_noted(&st, &input);
	if (other && input) {
		close(fd);
		snprintf(err, errlen, "the session log %s is the input %s itself: never replaced, --force or not",
		         fileio_shown(l->path), other);
		return -1;
	}
	if (how == SLOG_REPLACE && ftruncate(fd, 0) != 0) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "cannot empty the session log %s: %s", fileio_shown(l->path), strerror(e));
		return -1;
	}
	return 1;
}

/* The log's descriptor: path, or (SLOG_UNIQUE) the next free name after a
 * default one taken by a run started in the same second. */
static int open_path(SessionLog *l, const char *path, SlogMode how)
{
	snprintf(l->path, sizeof l->path, "%s", path);
	int fd = open_log_fd(l->path, how, &l->created);
	size_t n = strlen(path);
	for (unsigned k = 2; fd < 0 && errno == EEXIST && how == SLOG_UNIQUE && k < 1000 && n > 6; k++) {
		snprintf(l->path, sizeof l->path, "%.*s-%u.jsonl", (int)(n - 6), path, k);
		fd = open_log_fd(l->path, how, &l->created);
	}
	return fd;
}

bool slog_open(SessionLog *l, const char *path, SlogMode how, char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	snprintf(l->path, sizeof l->path, "%s", path);
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	if (!log_folder_ok(path, true, err, errlen) || !fileio_mkdirs(tmp, "log folder", err, errlen))
		return false;
	int fd = -1;
	for (unsigned tries = 0; fd < 0; tries++) {
		fd = open_path(l, path, how);
		if (fd < 0) {
			open_error(l, err, errlen);
			return false;
		}
		/* opened without waiting for a FIFO's reader; written with waiting */
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
			int e = errno;
			close(fd);
			snprintf(err, errlen, "cannot write the session log %s: %s", fileio_shown(l->path), strerror(e));
			return false;
		}
		int c = claim(l, fd, how, tries < 3, err, errlen);
		if (c < 0)
			return false;
		if (c == 0) { /* removed under us: a new one */
			close(fd);
			fd = -1;
		}
	}
	fileio_note_output(fd, l->path); /* no output replaces it, no retention removes it */
	l->f = fdopen(fd, how == SLOG_APPEND ? "a" : "w");
	if (!l->f) {
		int e = errno;
		close(fd);
		snprintf(err, errlen, "cannot write the session log %s: %s", fileio_shown(l->path), strerror(e));
		return false;
	}
	return true;
}

/* Appends one line and flushes it; on failure the log stops. */
static bool write_line(SessionLog *l, const char *text)
{
	if (l->failed || !l->f)
		return false;
	errno = 0;
	bool ok = fputs(text, l->f) >= 0 && fputc('\n', l->f) != EOF && fflush(l->f) == 0;
	l->bytes += strlen(text) + 1;
	if (!ok) {
		l->failed = true;
		l->err_no = errno ? errno : EIO;
		snprintf(l->error, sizeof l->error, "cannot write the session log %s: %s; "
		         "measuring goes on unrecorded", fileio_shown(l->path), strerror(errno ? errno : EIO));
	}
	return ok;
}

static bool write_obj(SessionLog *l, cJSON *o)
{
	if (!o || l->failed || !l->f) {
		cJSON_Delete(o);
		return false;
	}
	char *text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!text) {
		l->failed = true;
		snprintf(l->error, sizeof l->error, "out of memory writing %s", fileio_shown(l->path));
		return false;
	}
	bool ok = write_line(l, text);
	cJSON_free(text);
	return ok;
}

#define STR(o, k, v) cJSON_AddStringToObject(o, k, v)
#define NUM(o, k, v) cJSON_AddNumberToObject(o, k, (double)(v))


/* A row's number in m (0 for a string). */
static double meta_num(const SessionMeta *m, const MetaCol *c)
{
	const char *p = (const char *)m + c->off;
	switch (c->kind) {
	case META_U32: return (double)*(const uint32_t *)(const void *)p;
	case META_U64: return (double)*(const uint64_t *)(const void *)p;
	case META_DBL: return *(const double *)(const void *)p;
	default: return 0;
	}
}

static cJSON *session_json(const SessionMeta *m, unsigned dev)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	if (dev)
		cJSON_AddNumberToObject(o, "dev", dev);
	cJSON_AddStringToObject(o, "type", "session");
	cJSON_AddStringToObject(o, "format", SLOG_FORMAT);
	cJSON_AddNumberToObject(o, "version", SLOG_VERSION);
	cJSON_AddNumberToObject(o, "schema", FLOPSCOPE_SCHEMA_VERSION); /* as every record carries it */
	for (size_t i = 0; i < session_col_count; i++) {
		const MetaCol *c = &session_cols[i];
		if (c->when == META_NODE && !m->node[0])
			continue;
		if (c->kind == META_STR) {
			const char *v = (const char *)m + c->off;
			if (c->when == META_SET && !v[0])
				continue;
			cJSON_AddStringToObject(o, c->key, v[0] || !c->dstr ? v : c->dstr);
		} else {
			double v = meta_num(m, c);
			if (c->when == META_SET && !(v > 0))
				continue;
			cJSON_AddNumberToObject(o, c->key, v == 0 && c->dnum ? c->dnum : v);
		}
	}
	return o;
}

bool slog_write_session(SessionLog *l, const SessionMeta *m)
{
	cJSON *o = session_json(m, 0);
	return o && write_obj(l, o);
}

bool slog_print_session(FILE *f, const SessionMeta *m, unsigned dev)
{
	return json_line(f, session_json(m, dev));
}

bool slog_write_sample(SessionLog *l, const Sample *s, const ProcTable *procs)
{
	return !l->failed && write_obj(l, record_sample_procs(s, 0, procs)); /* exact numbers, as built */
}

bool slog_write_restart(SessionLog *l, double t_ms)
{
	cJSON *o = cJSON_CreateObject();
	if (o) {
		STR(o, "type", "restart");
		NUM(o, "t_ms", t_ms);
	}
	return write_obj(l, o);
}

bool slog_write_control(SessionLog *l, const char *action, double t_ms, double target_ms, const char *note)
{
	cJSON *o = cJSON_CreateObject();
	if (o) {
		STR(o, "type", "control");
		STR(o, "action", action);
		NUM(o, "t_ms", t_ms);
		if (target_ms > 0)
			NUM(o, "target_ms", target_ms);
		if (note)
			STR(o, "note", note);
	}
	return write_obj(l, o);
}

bool slog_write_gap(SessionLog *l, double t_ms, double gap_ms)
{
	cJSON *o = cJSON_CreateObject();
	if (o) {
		STR(o, "type", "gap");
		NUM(o, "t_ms", t_ms);
		NUM(o, "gap_ms", gap_ms);
	}
	return write_obj(l, o);
}

bool slog_write_change(SessionLog *l, const Change *c, size_t index, const char *unit)
{
	return write_obj(l, record_change_json(c, index, unit));
}

bool slog_write_excursion(SessionLog *l, const Excursion *e, const char *unit)
{
	return write_obj(l, record_excursion_json(e, unit));
}

bool slog_write_error(SessionLog *l, const char *message)
{
	cJSON *o = cJSON_CreateObject();
	if (o) {
		STR(o, "type", "error");
		STR(o, "message", message);
	}
	return write_obj(l, o);
}

bool slog_write_window(SessionLog *l, const BurnWindow *w)
{
	cJSON *o = cJSON_CreateObject();
	bool ok = o && STR(o, "type", "window");
	for (size_t i = 0; ok && i < window_col_count; i++) {
		const WinCol *c = &window_cols[i];
		const char *p = (const char *)w + c->off;
		double v;
		switch (c->kind) {
		case WIN_INDEX: v = *(const unsigned *)(const void *)p + 1.0; break;
		case WIN_SIZE: v = (double)*(const size_t *)(const void *)p; break;
		case WIN_DBL: v = *(const double *)(const void *)p; break;
		case WIN_FLAG: v = *(const bool *)p ? 1 : 0; break;
		default: ok = cJSON_AddBoolToObject(o, c->key, *(const bool *)p) != NULL; continue;
		}
		if (isfinite(v))
			ok = NUM(o, c->key, v) != NULL;
	}
	if (!ok) {
		cJSON_Delete(o);
		o = NULL;
	}
	return write_obj(l, o);
}

bool slog_write_summary(SessionLog *l, const SummaryResult *r, size_t dropped, uint64_t checks)
{
	if (l->failed || !l->f)
		return false;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return false;
	bool ok = record_summary_json(mem, r, dropped, checks);
	fclose(mem);
	if (ok) {
		text[strcspn(text, "\n")] = '\0';
		ok = write_obj(l, cJSON_Parse(text));
	}
	free(text);
	return ok;
}

void slog_abandon(SessionLog *l)
{
	struct stat st;
	bool empty = l->created && l->f && fstat(fileno(l->f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
	if (l->f)
		fclose(l->f); /* still locked until here: nobody else's */
	l->f = NULL;
	if (empty)
		unlink(l->path);
}

void slog_close(SessionLog *l)
{
	if (l->f && fclose(l->f) != 0 && !l->failed) {
		l->failed = true;
		snprintf(l->error, sizeof l->error, "closing the session log %s: %s", fileio_shown(l->path), strerror(errno));
	}
	l->f = NULL;
}

void slog_node_id(const char *stamp, char *out, size_t len)
{
	snprintf(out, len, "%s-%ld", stamp, (long)getpid());
}

void slog_run_ids(SlogRunIds *ids)
{
	slog_stamp_now(ids->stamp, sizeof ids->stamp);
	slog_node_id(ids->stamp, ids->node, sizeof ids->node);
}

void slog_host_name(char *out, size_t len)
{
	if (gethostname(out, len) != 0)
		snprintf(out, len, "unknown");
	out[len - 1] = '\0';
	fmt_printable(out); /* a name with bytes that are not UTF-8 breaks every record that carries it */
}

void slog_host_facts(SessionMeta *m)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(m->start_utc, sizeof m->start_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
	slog_host_name(m->host, sizeof m->host);
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof m->kernel, "%s %s %s", u.sysname, u.release, u.machine);
	snprintf(m->cpu, sizeof m->cpu, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[512];
		while (fgets(line, sizeof line, f)) {
			if (!strncmp(line, "model name", 10)) {
				char *c = strchr(line, ':');
				if (c) {
					c++;
					while (*c == ' ' || *c == '\t')
						c++;
					c[strcspn(c, "\n")] = '\0';
					snprintf(m->cpu, sizeof m->cpu, "%s", c);
				}
				break;
			}
		}
		fclose(f);
	}
}
