/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixed-width types shared by the kernel and the host builds of lib/.
 * Only the compiler's freestanding headers are used, so this file means
 * the same thing in both worlds.
 */
#ifndef LIB_TYPES_H
#define LIB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

#define SZ_4K (4ULL * KiB)
#define SZ_2M (2ULL * MiB)
#define SZ_1G (1ULL * GiB)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((u64)(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((u64)(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((u64)(a) - 1)) == 0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __unused __attribute__((unused))

#endif
