/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PRINTK_H
#define LIB_PRINTK_H

#include "lib/types.h"

/*
 * printk() formats into a line buffer and hands it to a sink that the
 * console registers, so code below the console (arch/, lib/) can report
 * without calling up into kernel/.  Without a sink the text is dropped.
 * Never call it inside a timed region.
 */
typedef void (*printk_sink)(const char *s, size_t n);

void printk_set_sink(printk_sink sink);
void printk(const char *fmt, ...) __printf(1, 2);

#endif
