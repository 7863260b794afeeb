/* procs: the other processes on a GPU, as NVML lists them, in words. Pure. */
#ifndef FLOPSCOPE_PROCS_H
#define FLOPSCOPE_PROCS_H

#include <stdbool.h>
#include <stddef.h>

/* The process ids of pids[0..n) without self and without repeats (a
 * process with a compute and a graphics context is listed twice): the
 * smallest cap of them, sorted,
 * into out (at most cap); how many there are (may exceed cap). */
size_t procs_others(const unsigned *pids, size_t n, unsigned self, unsigned *out, size_t cap);

/* "4711 flopscope, 4712 python3" for pids[0..n) and their names (NULL or
 * "": the pid alone), as many as fit in len with " and N more" for the
 * rest; total: how many there are in all (>= n). */
void procs_describe(const unsigned *pids, const char *const *names, size_t n, size_t total, char *out,
                    size_t len);

#endif
