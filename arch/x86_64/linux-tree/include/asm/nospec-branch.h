/* SPDX-License-Identifier: GPL-2.0-only */
/* hugezero's stand-in: the markers only; RET is in linux/linkage.h. */
#include <linux/objtool.h>
#include <linux/linkage.h>
