/* SPDX-License-Identifier: GPL-2.0-only */
/* hugezero's stand-in: newer trees keep the ANNOTATE_ markers here. */
#include <linux/objtool.h>
