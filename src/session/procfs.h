/* procfs: what the kernel's process files say of other processes
 * (FLOPSCOPE_PROC_ROOT replaces /proc in tests): a process's name and
 * user, and who holds a lock. Every reader of /proc in flopscope goes
 * through these or engine/sysfs.c. */
#ifndef FLOPSCOPE_PROCFS_H
#define FLOPSCOPE_PROCFS_H

#include <stdbool.h>
#include <stddef.h>

#include "procs.h"

/* the root of procfs (FLOPSCOPE_PROC_ROOT in tests, else /proc) */
const char *procfs_root(void);
/* p->pid's name (comm), command line, real uid and its user name, where
 * readable; sanitized for every output */
void procfs_names(ProcInfo *p);
/* Sends sig to pid where this user may (procs_may_signal: root, or its
 * own): 0 sent; 1 the process had ended; -1 refused or failed, why said. */
int procfs_signal(unsigned pid, int sig, char *why, size_t len);
/* Whether pid still runs (another user's too; a zombie has ended). */
bool procfs_alive(unsigned pid);
/* The processes other than this one that hold a flock on the file open
 * as fd, from procfs' locks (as lslocks reads it): at most cap of them
 * into pids; how many were found. 0 where it cannot be read. */
size_t procfs_lock_holders(int fd, unsigned *pids, size_t cap);

#endif
