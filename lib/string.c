// SPDX-License-Identifier: GPL-2.0-only
/*
 * Byte-wise string and memory routines.  Deliberately simple: none of these
 * are on a measured path (the clearing primitives live in arch/), so
 * clarity beats speed here.
 */
#include "lib/string.h"

void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;

	while (n--)
		*d++ = (u8)c;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (u8)*a - (u8)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

bool str_eq_n(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(tok, word, len) == 0;
}

bool list_next(const char **s, const char *end, const char **item, size_t *n)
{
	const char *e = *s;

	if (*s > end)
		return false;
	while (e < end && *e != ',')
		e++;
	*item = *s;
	*n = (size_t)(e - *s);
	*s = e + 1;
	return true;
}
