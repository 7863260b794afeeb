/* fileio: whole files in and out, for every reader and cache in flopscope. */
#ifndef FLOPSCOPE_FILEIO_H
#define FLOPSCOPE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/* path as a message shows it: whole up to 280 bytes, else its start and
 * its end around "...", so that the reason after it is never cut off (a
 * 4000-byte path filled the message). In a buffer of the thread's own, one
 * of 4 used in turn: valid for a few calls. */
const char *fileio_shown(const char *path);

/* Creates the folders above path (each level, 0755) as needed; false with
 * "cannot create the WHAT folder DIR: reason" in err. path is restored. */
bool fileio_mkdirs(char *path, const char *what, char *err, size_t errlen);

/* The file's bytes, NUL-terminated (not counted in *len), malloc'd; NULL
 * with "cannot open PATH: reason" (or read error, or over max bytes) in err.
 * Only a regular file is read (a FIFO, a device or a socket is refused: a
 * theme, a config or a cache that is a FIFO with an idle writer hung the
 * start, deaf to signals). */
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
 * temporary beside it (mkstemp: a new name, created O_EXCL, never through a
 * link), written, fsync'd and renamed over the file only when everything
 * was written, so a reader never sees half a file. The temporary is removed
 * on every failure, and by a handler on SIGINT, SIGTERM and SIGHUP where
 * those still have their default action (a mode with the signal thread
 * ends its run and commits or removes it itself).
 *
 * Which files an output may replace (fileio_may_replace says why not):
 *  - never a folder, a device, a FIFO or a socket: only a regular file;
 *  - never a file this process reads or writes as another role (the inputs
 *    and the live log, fileio_note_input/fileio_note_output);
 *  - FILE_NEW (--svg, --csv OUT): a new file, or an existing one with
 *    force; a symbolic link is refused (--force never writes through one);
 *  - FILE_OWN (--metrics-file, the config, the caches: rewritten whole
 *    each time): an existing file is replaced; a symbolic link owned by the
 *    user running flopscope (or by root) is followed and its target
 *    replaced, the link kept; a link owned by anyone else is refused, so a
 *    user who can write in the folder cannot steer root's output;
 *  - FILE_CACHE (the SPIR-V and pipeline caches): an existing file is
 *    replaced; a symbolic link is never followed, whoever owns it (the
 *    entry is left alone and the cache not written). */
typedef enum FileKind { FILE_NEW, FILE_OWN, FILE_CACHE } FileKind;

typedef struct FileTmp {
	char path[4096];  /* the file replaced: the destination, or its link's target */
	char tmp[4200];
	int slot;         /* in the list a signal removes; -1: none */
	mode_t mode;      /* the file's mode (an existing file keeps its own) */
	uid_t uid;        /* an existing file's owner and group, kept when root writes it */
	gid_t gid;
	bool existed;
	int lock_fd;      /* the file replaced, locked until it is (-1: none) */
} FileTmp;
/* Opens the temporary for path; NULL with the reason in err. */
FILE *fileio_create(const char *path, FileKind kind, bool force, FileTmp *t, char *err, size_t errlen);
/* Closes it and, when ok and nothing failed, makes it path (fsync, rename,
 * the folder fsync'd); else removes it and says why in err. */
bool fileio_commit(FILE *f, FileTmp *t, bool ok, char *err, size_t errlen);
/* Whether path may be replaced by such an output: the rules above. The
 * file that would be replaced (path, or its link's target) in resolved
 * (may be NULL). False with the reason in err. */
bool fileio_may_replace(const char *path, FileKind kind, bool force, char *resolved, size_t rlen, char *err,
                        size_t errlen);
/* Whether path can be written as such an output now: its temporary made
 * beside it and removed (a folder that is missing or not writable is found
 * before a run measures, not after). False with why in err. */
bool fileio_probe(const char *path, FileKind kind, bool force, char *err, size_t errlen);
/* Writes data to path whole (a FILE_CACHE output). */
bool fileio_write(const char *path, const void *data, size_t len);

/* The files this process reads (inputs) and writes in place (the live
 * log), by device and inode: an output never replaces one, and retention
 * never removes one. fileio_lines_open notes its inputs itself. */
void fileio_note_input(int fd, const char *path);
void fileio_note_output(int fd, const char *path);
/* Forgets them: a new command in the same process (the unit tests, which
 * write and read one path many times). */
void fileio_forget_noted(void);
/* The role and path noted for the file of st; NULL when none. */
const char *fileio_noted(const struct stat *st, bool *is_input);
/* Removes the temporaries still open: the signal handler's work, also
 * callable before an exit that skips the commit. Async-signal-safe. */
void fileio_remove_temporaries(void);

#endif
