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
/* A process held to be ended (procs.h's ProcClaim and ProcOps): claimed
 * where this user may signal it (procs_may_signal: root, or its own) and
 * its name is still the one shown; signalled through its pidfd (else
 * after its start time is read again); ended when its pidfd is ready (else
 * gone, a zombie or another's start time); released. Each 0 done, 1 it had
 * ended, -1 refused or failed, why said. */
int procfs_claim(unsigned pid, const char *name, ProcClaim *c, char *why, size_t len);
int procfs_claim_signal(const ProcClaim *c, int sig, char *why, size_t len);
bool procfs_claim_alive(const ProcClaim *c);
void procfs_release(ProcClaim *c);
extern const ProcOps procfs_ops;
/* The processes other than this one that hold a flock on the file open
 * as fd, from procfs' locks (as lslocks reads it): at most cap of them
 * into pids; how many were found. 0 where it cannot be read. */
size_t procfs_lock_holders(int fd, unsigned *pids, size_t cap);

#endif
