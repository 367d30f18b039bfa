/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_UNALIGNED_H
#define LIB_UNALIGNED_H

#include "lib/types.h"

/*
 * Little-endian fields at any byte offset, as Linux's
 * get_unaligned_le32() and friends: firmware tables (ACPI's MADT, SRAT,
 * SLIT) pack them without alignment, and byte reads keep the host build
 * free of UBSan's misaligned-access reports.
 */
static inline u32 get_unaligned_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 get_unaligned_le64(const u8 *p)
{
	return get_unaligned_le32(p) | (u64)get_unaligned_le32(p + 4) << 32;
}

#endif
