// SPDX-License-Identifier: GPL-2.0-only
/*
 * Regions of memory backed the way a configuration asks: hugetlb pages of
 * a size, transparent huge pages (MADV_HUGEPAGE on a 2M-aligned mapping),
 * or base pages (MADV_NOHUGEPAGE).  And the per-pass sample arrays.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

bool region_map(struct region *r, u64 bytes, enum backing b, u64 page,
		char *why, size_t n)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	u64 align = b == BACKING_BASE ? SZ_4K : MAX(page, SZ_2M);
	u8 *p;

	memset(r, 0, sizeof(*r));
	r->bytes = bytes;
	r->backing = backing_names[b];
	if (b == BACKING_HUGETLB) {
		flags |= MAP_HUGETLB | ((page == SZ_1G ? 30 : 21) << MAP_HUGE_SHIFT);
		r->map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (r->map == MAP_FAILED) {
			snprintf(why, n, "mmap of %llu bytes of hugetlb %s pages: %s",
				 (unsigned long long)bytes,
				 page == SZ_1G ? "1G" : "2M", strerror(errno));
			return false;
		}
		r->map_bytes = bytes;
		r->base = r->map;
		return true;
	}
	/* Over-map to align the region to its huge page size. */
	r->map_bytes = bytes + align;
	r->map = mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (r->map == MAP_FAILED) {
		snprintf(why, n, "mmap of %llu bytes: %s",
			 (unsigned long long)r->map_bytes, strerror(errno));
		return false;
	}
	p = (u8 *)ALIGN_UP((u64)r->map, align);
	r->base = p;
	if (madvise(p, bytes, b == BACKING_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)) {
		snprintf(why, n, "madvise(%s): %s", b == BACKING_THP ?
			 "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", strerror(errno));
		region_unmap(r);
		return false;
	}
	return true;
}

void region_unmap(struct region *r)
{
	if (r->map && r->map != MAP_FAILED)
		munmap(r->map, r->map_bytes);
	r->map = NULL;
}

u32 region_huge_pct(const struct region *r)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	unsigned long long lo, hi, kb, huge = 0;
	bool in = false;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && strchr(line, ' ')) {
			in = lo <= (u64)r->base && hi > (u64)r->base;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
			huge += kb;
	}
	fclose(f);
	return r->bytes ? (u32)MIN(100ULL, huge * 1024 * 100 / r->bytes) : 0;
}

bool samples_alloc(struct samples *s, u32 n)
{
	memset(s, 0, sizeof(*s));
	s->cap = n;
	s->fault = calloc(n, sizeof(u64));
	s->clear = calloc(n, sizeof(u64));
	s->access = calloc(n, sizeof(u64));
	s->page = calloc(n, sizeof(u64));
	s->scratch = calloc(n, sizeof(u64));
	return s->fault && s->clear && s->access && s->page && s->scratch;
}

void samples_free(struct samples *s)
{
	free(s->fault);
	free(s->clear);
	free(s->access);
	free(s->page);
	free(s->scratch);
	memset(s, 0, sizeof(*s));
}

/* The post-fault access of the folio containing @p (as the kernel's
 * workload: p[i] = i over the folio, or a read of it). */
static void access_folio(u8 *p, u64 bytes, u32 mode)
{
	volatile u64 *q = (volatile u64 *)ALIGN_DOWN((u64)p, bytes);
	u64 sum = 0;

	for (u64 i = 0; i < bytes / 8; i++) {
		if (mode == ACCESS_WRITE)
			q[i] = i;
		else
			sum += q[i];
	}
	(void)sum;
}

/* TSC ticks of that access, timed on its own; 0 for access=none. */
u64 timed_access(u8 *p, u64 bytes, u32 mode)
{
	u64 t0;

	if (mode == ACCESS_NONE)
		return 0;
	t0 = tsc_begin();
	access_folio(p, bytes, mode);
	return tsc_end() - t0;
}
