/* fileio: whole files in and out, for every reader and cache in flopscope. */
#ifndef FLOPSCOPE_FILEIO_H
#define FLOPSCOPE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Creates the folders above path (each level, 0755) as needed; false with
 * "cannot create the WHAT folder DIR: reason" in err. path is restored. */
bool fileio_mkdirs(char *path, const char *what, char *err, size_t errlen);

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

/* A file read line by line in bounded memory (a log of any length, a FIFO,
 * /dev/zero): a fixed chunk and one line of at most max bytes. */
typedef struct LineReader {
	FILE *f;
	const char *path;
	char *chunk;
	size_t clen, cpos;
	char *line;          /* the current line, NUL-terminated */
	size_t cap, max;
} LineReader;
/* False with "cannot open PATH: reason" in err. */
bool fileio_lines_open(LineReader *r, const char *path, size_t max_line, char *err, size_t errlen);
/* The next line's length (the line in r->line), -1 at the end, -2 on a read
 * error or when memory ran out (err says which). *newline: it ended in
 * '\n'; *too_long: it was longer than max and was dropped (length 0). */
long fileio_lines_next(LineReader *r, bool *newline, bool *too_long, char *err, size_t errlen);
void fileio_lines_close(LineReader *r);

/* Writing a file whole, the one way flopscope replaces a file: into a
 * temporary beside it, renamed over path only when everything was written,
 * so a reader never sees half a file. */
typedef struct FileTmp {
	char path[4096];
	char tmp[4200];
} FileTmp;
/* Opens the temporary; NULL with "cannot write TMP: reason" in err. */
FILE *fileio_create(const char *path, FileTmp *t, char *err, size_t errlen);
/* Closes it and, when ok and nothing failed, renames it over path; else
 * removes it and says why in err. */
bool fileio_commit(FILE *f, FileTmp *t, bool ok, char *err, size_t errlen);
/* Whether path may be replaced by an output: yes when it does not exist;
 * never a device, a FIFO, a folder, a symbolic link or the input file
 * itself (same inode); an existing regular file only with force. False
 * with the reason in err. */
bool fileio_may_replace(const char *path, const char *input, bool force, char *err, size_t errlen);
/* Writes data to path whole (fileio_create, fileio_commit). */
bool fileio_write(const char *path, const void *data, size_t len);

#endif
