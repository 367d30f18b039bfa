/* SPDX-License-Identifier: GPL-2.0-only */
/* Written for hugezero's tests in Linux's style: not Linux's code. */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/mmzone.h>

#ifndef PROCESS_PAGES_NON_PREEMPT_BATCH
#ifdef clear_pages
/* An architecture with a range clear: batches of 32 MiB. */
#define PROCESS_PAGES_NON_PREEMPT_BATCH		(SZ_32M >> PAGE_SHIFT)
#else
/* Page at a time otherwise. */
#define PROCESS_PAGES_NON_PREEMPT_BATCH		1
#endif
#endif

#endif /* _LINUX_MM_H */
