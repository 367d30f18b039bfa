/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Force-included in host builds (unit tests and the Linux companion): lib/string.c defines the mem and str
 * functions under their standard names for the kernel; on the host they
 * would clash with the C library's, so both lib/ and the tests see ours
 * as lib_*.  (glibc's headers are included first, then renamed calls.)
 */
#ifndef HOSTED_RENAME_H
#define HOSTED_RENAME_H
#include <string.h>
#define memset lib_memset
#define memcpy lib_memcpy
#define memmove lib_memmove
#define memcmp lib_memcmp
#define strlen lib_strlen
#define strnlen lib_strnlen
#define strcmp lib_strcmp
#define strncmp lib_strncmp
#define strchr lib_strchr
#define strlcpy lib_strlcpy
/* Declare the renamed functions for every file, hosted/ included. */
#include "lib/string.h"
#endif
