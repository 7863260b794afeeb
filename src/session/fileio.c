#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Opens a file to read: never blocks on a FIFO that has no writer (it reads
 * as empty), refuses a folder with a clear reason. */
static FILE *open_input(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s is a folder, not a file", path);
		close(fd);
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

char *fileio_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	FILE *f = open_input(path, err, errlen);
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 1 >= cap) {
			/* never more than max + 2 bytes: one past max tells the file is
			 * too large (/dev/zero took 4.2 GB when the buffer doubled first) */
			if (cap >= max + 2) {
				snprintf(err, errlen, "%s is larger than %zu bytes", path, max);
				goto fail;
			}
			size_t nc = cap ? cap * 2 : 65536;
			if (nc > max + 2)
				nc = max + 2;
			char *g = realloc(buf, nc);
			if (!g) {
				snprintf(err, errlen, "out of memory reading %s", path);
				goto fail;
			}
			buf = g;
			cap = nc;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
				goto fail;
			}
			break;
		}
	}
	if (n > max) {
		snprintf(err, errlen, "%s is larger than %zu bytes", path, max);
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
	r->f = open_input(path, err, errlen);
	if (!r->f)
		return false;
	r->chunk = malloc(LINE_CHUNK);
	r->cap = 4096 < max_line + 1 ? 4096 : max_line + 1;
	r->line = malloc(r->cap);
	if (!r->chunk || !r->line) {
		snprintf(err, errlen, "out of memory reading %s", path);
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
					snprintf(err, errlen, "cannot read %s: %s", r->path, strerror(errno));
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
			snprintf(err, errlen, "%s has a line of more than %zu bytes: not a text log", r->path,
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
					snprintf(err, errlen, "out of memory reading %s", r->path);
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

FILE *fileio_create(const char *path, FileTmp *t, char *err, size_t errlen)
{
	snprintf(t->path, sizeof t->path, "%s", path);
	snprintf(t->tmp, sizeof t->tmp, "%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(t->tmp, "wb");
	if (!f)
		snprintf(err, errlen, "cannot write %s: %s", t->tmp, strerror(errno));
	return f;
}

bool fileio_commit(FILE *f, FileTmp *t, bool ok, char *err, size_t errlen)
{
	int saved = 0;
	if (ferror(f) && ok) {
		ok = false;
		saved = EIO;
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
		snprintf(err, errlen, "cannot write %s: %s", t->path, saved ? strerror(saved) : "the output failed");
		unlink(t->tmp);
	}
	return ok;
}

bool fileio_may_replace(const char *path, const char *input, bool force, char *err, size_t errlen)
{
	struct stat out, in;
	if (lstat(path, &out) != 0) {
		if (errno == ENOENT)
			return true;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	if (S_ISLNK(out.st_mode)) {
		snprintf(err, errlen, "%s is a symbolic link: an output replaces only a regular file "
		         "(give the path it points to)", path);
		return false;
	}
	if (!S_ISREG(out.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file (a device, FIFO or folder): refused as an output",
		         path);
		return false;
	}
	if (input && stat(input, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
		snprintf(err, errlen, "%s is the input %s itself: refused as an output", path, input);
		return false;
	}
	if (!force) {
		snprintf(err, errlen, "%s exists already: --force replaces it", path);
		return false;
	}
	return true;
}

bool fileio_write(const char *path, const void *data, size_t len)
{
	FileTmp t;
	char err[256];
	FILE *f = fileio_create(path, &t, err, sizeof err);
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
			snprintf(err, errlen, "cannot create the %s %s: %s", what, path, strerror(e));
			*p = '/';
			return false;
		}
	}
	return true;
}
