/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_INTERRUPT_H
#define HOSTED_INTERRUPT_H

#include <signal.h>
#include "lib/record.h"

/*
 * SIGINT, SIGTERM and SIGHUP stop the companion as they always did, but
 * not silently: the host's settings are put back (hosted/restore.h),
 * standard error says which configuration was cut, and the log ends with
 * an `interrupted` record and its `end` (docs/records.md), so that
 * `report` names the cut.  The handler makes only async-signal-safe
 * calls, besides this program's own reentrant record writer (lib/record.c,
 * lib/format.c); only the process that installed it acts on it.
 */
void interrupt_init(void);

/*
 * @w's lock and unlock hold the three signals from taking a record's
 * number to emitting it (lib/record.h), so that the handler never finds
 * a number taken for a line not yet written, a line half written or a
 * configuration half noted.  @w's emit calls interrupt_note() on each
 * line it has written.
 */
void interrupt_writer(struct rec_writer *w);

/* What @line opens or closes: a config record opens its configuration,
 * its summary closes it, end ends the log. */
void interrupt_note(const char *line);

/* Hold the three signals (a thread created meanwhile never takes them),
 * and let them go again. */
void interrupt_hold(sigset_t *old);
void interrupt_release(const sigset_t *old);

#endif
