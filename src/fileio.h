/* fileio: whole files in and out, for every reader and cache in flopscope. */
#ifndef FLOPSCOPE_FILEIO_H
#define FLOPSCOPE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* The file's bytes, NUL-terminated (not counted in *len), malloc'd; NULL
 * with "cannot open PATH: reason" (or read error, or over max bytes) in err. */
char *fileio_read(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Writes a file whole: a temporary beside it, then rename(). */
bool fileio_write(const char *path, const void *data, size_t len);

#endif
