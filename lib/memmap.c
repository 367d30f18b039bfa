// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory map normalization by a sweep over range boundaries: between two
 * consecutive boundaries every input range either covers the whole
 * interval or none of it, so the interval's type is the strongest type
 * among the ranges that cover it.  The next boundary is found by a scan,
 * not a sorted copy: no scratch, so no limit on the input's length.
 * Quadratic: a map of 4096 entries is some 10^8 steps at most, once.
 */
#include "lib/memmap.h"
#include "lib/unaligned.h"

u32 mem_type_from_e820(u32 t)
{
	switch (t) {
	case 1: return MEM_USABLE;
	case 3: return MEM_ACPI;
	case 4: return MEM_NVS;
	case 5: return MEM_BAD;
	}
	return MEM_RESERVED;
}

u32 mem_type_from_efi(u32 t)
{
	switch (t) {
	case 1: /* EfiLoaderCode */
	case 2: /* EfiLoaderData */
	case 3: /* EfiBootServicesCode */
	case 4: /* EfiBootServicesData */
	case 7: /* EfiConventionalMemory */
		return MEM_USABLE;
	case 8: return MEM_BAD;		/* EfiUnusableMemory */
	case 9: return MEM_ACPI;	/* EfiACPIReclaimMemory */
	case 10: return MEM_NVS;	/* EfiACPIMemoryNVS */
	}
	return MEM_RESERVED;
}

const char *mem_type_name(u32 t)
{
	switch (t) {
	case MEM_USABLE: return "usable";
	case MEM_ACPI: return "acpi";
	case MEM_NVS: return "nvs";
	case MEM_RESERVED: return "reserved";
	case MEM_BAD: return "bad";
	}
	return "unknown";
}

bool mem_type_is_ram(u32 t)
{
	return t == MEM_USABLE || t == MEM_ACPI || t == MEM_NVS;
}

u32 memmap_from_efi(const u8 *p, u32 len, u32 dsize, struct mem_range *out,
		    u32 cap)
{
	u32 n = 0;

	for (u32 off = 0; dsize >= 40 && len >= dsize && off <= len - dsize;
	     off += dsize, n++) {
		u64 start = get_unaligned_le64(p + off + 8);
		u64 pages = get_unaligned_le64(p + off + 24);

		if (n >= cap)
			continue;
		out[n].start = start;
		out[n].end = start + pages * SZ_4K;
		out[n].type = mem_type_from_efi(get_unaligned_le32(p + off));
	}
	return n;
}

u32 memmap_from_e820(const u8 *p, u32 len, u32 esize, struct mem_range *out,
		     u32 cap)
{
	u32 n = 0;

	for (u32 off = 0; esize >= 20 && len >= esize && off <= len - esize;
	     off += esize, n++) {
		u64 base = get_unaligned_le64(p + off);

		if (n >= cap)
			continue;
		out[n].start = base;
		out[n].end = base + get_unaligned_le64(p + off + 8);
		out[n].type = mem_type_from_e820(get_unaligned_le32(p + off + 16));
	}
	return n;
}

/* Larger enum values are more restrictive; that is the order above. */
static u32 strongest(u32 a, u32 b)
{
	return a > b ? a : b;
}

static u32 type_at(const struct mem_range *in, u32 n, u64 lo, u64 hi)
{
	u32 t = 0;

	for (u32 i = 0; i < n; i++)
		if (in[i].start <= lo && in[i].end >= hi && in[i].start < in[i].end)
			t = strongest(t, in[i].type);
	return t;
}

static u32 emit(struct mem_range *out, u32 cap, u32 count, u64 lo, u64 hi,
		u32 t)
{
	if (count > 0 && count <= cap && out[count - 1].end == lo &&
	    out[count - 1].type == t) {
		out[count - 1].end = hi;
		return count;
	}
	if (count < cap) {
		out[count].start = lo;
		out[count].end = hi;
		out[count].type = t;
	}
	return count + 1;
}

/* The smallest boundary (a start or an end) above @after, or false. */
static bool next_boundary(const struct mem_range *in, u32 n, u64 after,
			  u64 *out)
{
	bool found = false;
	u64 best = 0;

	for (u32 i = 0; i < n; i++) {
		const u64 b[2] = { in[i].start, in[i].end };

		if (in[i].start >= in[i].end)
			continue;
		for (u32 k = 0; k < 2; k++)
			if (b[k] > after && (!found || b[k] < best)) {
				best = b[k];
				found = true;
			}
	}
	*out = best;
	return found;
}

u32 memmap_normalize(const struct mem_range *in, u32 n, struct mem_range *out,
		     u32 cap)
{
	u64 lo = ~0ULL, hi;
	u32 count = 0;

	for (u32 i = 0; i < n; i++)
		if (in[i].start < in[i].end)
			lo = MIN(lo, in[i].start);
	while (lo != ~0ULL && next_boundary(in, n, lo, &hi)) {
		u32 t = type_at(in, n, lo, hi);

		if (t)
			count = emit(out, cap, count, lo, hi, t);
		lo = hi;
	}
	return count;
}
