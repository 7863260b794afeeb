/* fileio: whole files in and out, for every reader and cache in flopscope. */
#ifndef FLOPSCOPE_FILEIO_H
#define FLOPSCOPE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* The file's bytes, NUL-terminated (not counted in *len), malloc'd; NULL
 * with "cannot open PATH: reason" (or read error, or over max bytes) in err. */
char *fileio_read(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Lines of text[0..len), one at a time: copies the line at *pos into a
 * NUL-terminated buffer (*buf, grown as needed, freed by the caller),
 * advances *pos past its newline. Returns the line's length, or -1 at the end
 * (or, with *oom set, when memory ran out). *newline tells whether the line
 * ended in '\n' (a last line without one may be cut short). */
long fileio_next_line(const char *text, size_t len, size_t *pos, char **buf, size_t *cap, bool *newline,
                      bool *oom);

/* Writes a file whole: a temporary beside it, then rename(). */
bool fileio_write(const char *path, const void *data, size_t len);

#endif
