/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_USER_H
#define ARCH_USER_H

#include "lib/types.h"

/* Run ring-3 code at @rip with stack @rsp and first argument @arg until
 * it executes int 0x81.  CR3 must already hold an address space that
 * maps both user-accessible. */
void user_run(u64 rip, u64 rsp, u64 arg);
void user_init(void);

#endif
