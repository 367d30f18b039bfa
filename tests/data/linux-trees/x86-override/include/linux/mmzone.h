/* SPDX-License-Identifier: GPL-2.0-only */
/* Written for hugezero's tests in Linux's style: not Linux's code. */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H

#ifndef CONFIG_ARCH_FORCE_MAX_ORDER
#define MAX_PAGE_ORDER 10
#else
#define MAX_PAGE_ORDER CONFIG_ARCH_FORCE_MAX_ORDER
#endif
#define MAX_ORDER_NR_PAGES (1 << MAX_PAGE_ORDER)

#endif /* _LINUX_MMZONE_H */
