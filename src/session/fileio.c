#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *fileio_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 1 >= cap) {
			size_t nc = cap ? cap * 2 : 65536;
			if (cap > max + 1) {
				snprintf(err, errlen, "%s is larger than %zu bytes", path, max);
				goto fail;
			}
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

bool fileio_write(const char *path, const void *data, size_t len)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	if (ok)
		ok = rename(tmp, path) == 0;
	if (!ok)
		unlink(tmp);
	return ok;
}
