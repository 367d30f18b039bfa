/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BUG_H
#define KERNEL_BUG_H

#include "lib/types.h"

/*
 * BUG(): a state the kernel cannot go on from.  Prints "AREA: BUG on cpu
 * N: WHY", then takes the fatal path as Linux's BUG() does, through UD2:
 * the exception's dump and backtrace, and the run ends (rc 3).
 */
__noreturn void bug(const char *area, const char *fmt, ...) __printf(2, 3);

#endif
