/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

/*
 * Linux's cond_resched(): a reschedule point.  There is no scheduler yet,
 * so it is what it is in Linux under full and lazy preemption, or under
 * none with nothing to switch to: a real call that finds nothing to do.
 */
void cond_resched(void);

#endif
