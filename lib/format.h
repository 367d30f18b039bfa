/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_FORMAT_H
#define LIB_FORMAT_H

#include <stdarg.h>
#include "lib/types.h"

/*
 * A printf subset: %d %i %u %x %X %o %c %s %p %%, flags '-' '0' '+' ' ' '#',
 * width and precision (also '*'), length modifiers hh h l ll z t j.
 * No floating point: the kernel is built without FPU code generation,
 * and records carry integers.  Always NUL-terminates when size > 0 and
 * returns the length the full output would have had, like C99 snprintf.
 */
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Parse an unsigned number: decimal, 0x hex; returns false on junk/overflow. */
bool parse_u64(const char *s, size_t len, u64 *out);
/* As parse_u64, with an optional K, M, G or T suffix (powers of 1024). */
bool parse_size(const char *s, size_t len, u64 *out);

#endif
