/* SPDX-License-Identifier: GPL-2.0-only */
/* Written for hugezero's tests in Linux's style: not Linux's code. */
#ifndef _ASM_X86_PAGE_DEFS_H
#define _ASM_X86_PAGE_DEFS_H

#define PAGE_SHIFT		CONFIG_PAGE_SHIFT
#define PAGE_SIZE		(_AC(1,UL) << PAGE_SHIFT)

#endif
