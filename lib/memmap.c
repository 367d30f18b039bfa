// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory map normalization by a sweep over range boundaries: between two
 * consecutive boundaries every input range either covers the whole
 * interval or none of it, so the interval's type is the strongest type
 * among the ranges that cover it.  Quadratic, but firmware maps hold a
 * few hundred entries at most.
 */
#include "lib/memmap.h"
#include "lib/stats.h"

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

u32 memmap_normalize(const struct mem_range *in, u32 n, struct mem_range *out,
		     u32 cap)
{
	u64 b[2 * MEMMAP_MAX_INPUT];
	u32 nb = 0, count = 0;

	if (n > MEMMAP_MAX_INPUT)
		n = MEMMAP_MAX_INPUT;
	for (u32 i = 0; i < n; i++) {
		if (in[i].start >= in[i].end)
			continue;
		b[nb++] = in[i].start;
		b[nb++] = in[i].end;
	}
	sort_u64(b, nb);
	for (u32 i = 0; i + 1 < nb; i++) {
		u32 t;

		if (b[i] == b[i + 1])
			continue;
		t = type_at(in, n, b[i], b[i + 1]);
		if (t)
			count = emit(out, cap, count, b[i], b[i + 1], t);
	}
	return count;
}
