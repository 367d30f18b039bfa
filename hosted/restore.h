/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_RESTORE_H
#define HOSTED_RESTORE_H

#include "lib/types.h"

/*
 * The host settings a run changes (hugetlb's nr_hugepages, boost), each
 * noted with its value before the first write and put back when the run
 * ends: at exit, and from the signal handler on SIGINT, SIGTERM and
 * SIGHUP (hosted/interrupt.c).  Only the process that noted a file puts
 * it back: a group's processes (hosted/group_proc.c) never do.
 */

/*
 * Note @path as holding @was (its first word is kept), before the run
 * writes it; a path noted already keeps its first value.  False when
 * there is no memory for it: the caller must not write the file then.
 */
bool restore_note(const char *path, const char *was);

/*
 * Put every noted file back to its value where it now reads otherwise,
 * in the order noted, each once, every signal held meanwhile.  Only
 * async-signal-safe calls (open, read, write, close, getpid,
 * sigprocmask): the signal handler calls it too.  A file that cannot be
 * put back is said on standard error.  Returns the files written back;
 * *@failed (may be NULL) the ones that could not be.
 */
u32 restore_all(u32 *failed);

#endif
