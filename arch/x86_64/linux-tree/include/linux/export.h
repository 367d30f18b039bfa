/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugezero's stand-in: nothing is exported from a freestanding kernel,
 * so the export macros emit nothing.
 */
#ifndef HZ_TREE_EXPORT_H
#define HZ_TREE_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

#endif
