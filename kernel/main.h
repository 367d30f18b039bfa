/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_MAIN_H
#define KERNEL_MAIN_H

#include "lib/params.h"


/* Run results, also the QEMU exit code: QEMU exits with (rc << 1) | 1. */
enum { RC_PASS = 0, RC_FAIL = 1, RC_FATAL = 3, RC_DEADLINE = 4 };

extern struct hz_config config;
extern struct cmdline_result cmdline_result;
extern bool cmdline_ok;

__noreturn void finish(int rc);
/* Deliberate stack overflow for crash=stack (kernel/crash.c). */
u64 recurse_forever(u64 depth);
/* crash=cut-record: a record written half, then #UD, its lock held. */
void crash_cut_record(void);
/* crash=deaf-writer: the first AP misses the stop and writes across the
 * takeover; false without a second CPU. */
u32 crash_on_ap(const char *name, void (*fn)(void *), void *arg,
		const volatile u32 *ready, const char *what);
bool crash_deaf_writer(void);
bool crash_stream_writer(void);

#endif
