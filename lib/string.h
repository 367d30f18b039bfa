/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "lib/types.h"

/*
 * The kernel has no libc, and GCC may emit calls to the mem* functions
 * itself, so lib/ provides them under their standard names.  Host tests
 * rename them (tests/host/rename.h) to test these and not glibc's.
 */
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strlcpy(char *dst, const char *src, size_t size);

/* Lengths-aware comparison for the parser's (pointer, length) tokens. */
bool str_eq_n(const char *tok, size_t len, const char *word);

/*
 * The comma-separated items of [*s, end), one per call: the next in
 * @item and @n, *s moved past it and its comma; false when none is left.
 * "" is one empty item, "a," two (the second empty): callers refuse them.
 */
bool list_next(const char **s, const char *end, const char **item, size_t *n);

#endif
