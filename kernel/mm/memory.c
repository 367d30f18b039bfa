// SPDX-License-Identifier: GPL-2.0-only
/*
 * Physical memory: the loader's map made trustworthy, and the frame
 * allocator over what is free in it.
 */
#include "arch/x86_64/spinlock.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/mm/memory.h"
#include "lib/string.h"

extern char __image_start[], __image_end[];

struct memory memory;
u64 load_delta;

/* Enough for a few hundred free runs; each entry is 16 bytes. */
static struct extent extent_buf[4096];
static struct extent_set frames;
/* CPUs allocate at once (each its pools, tables, stacks). */
static struct spinlock frames_lock = SPINLOCK_INIT;

#define LOCKED(type, expr) ({						\
	u64 _f = spin_lock_irqsave(&frames_lock);			\
	type _v = (expr);						\
	spin_unlock_irqrestore(&frames_lock, _f);			\
	_v;								\
})

static void reserve(u64 start, u64 end, const char *what)
{
	struct memory *m = &memory;

	start = ALIGN_DOWN(start, SZ_4K);
	end = ALIGN_UP(end, SZ_4K);
	if (m->nreserved < RESERVED_MAX) {
		m->reserved[m->nreserved].start = start;
		m->reserved[m->nreserved].end = end;
		m->reserved_what[m->nreserved] = what;
		m->nreserved++;
	}
	if (extent_remove(&frames, start, end) != EXTENT_OK)
		printk("hugezero: memory: cannot reserve %s [%#llx, %#llx): "
		       "allocator table full\n", what,
		       (unsigned long long)start, (unsigned long long)end);
}

static bool low_page_taken(u64 pa)
{
	const struct memory *m = &memory;

	/* Entry 0 is low memory itself: the page is in it by choice. */
	for (u32 i = 1; i < m->nreserved; i++)
		if (pa < m->reserved[i].end && pa + SZ_4K > m->reserved[i].start)
			return true;
	return false;
}

static void choose_map(void)
{
	struct boot_info *b = &boot_info;
	struct memory *m = &memory;
	const struct mem_range *src = b->nefi ? b->efi : b->bios;
	u32 n = b->nefi ? b->nefi : b->nbios, need;

	/* EFI's map is the firmware's own; GRUB derives the E820 one from it. */
	m->source = b->nefi ? "efi" : "e820";
	need = memmap_normalize(src, n, m->map, MEMMAP_MAX);
	if (need > MEMMAP_MAX)
		printk("hugezero: memory: map has %u ranges, using the first %u\n",
		       need, MEMMAP_MAX);
	m->nmap = MIN(need, (u32)MEMMAP_MAX);
}

static void add_usable(void)
{
	struct memory *m = &memory;

	for (u32 i = 0; i < m->nmap; i++) {
		const struct mem_range *r = &m->map[i];
		u64 s = ALIGN_UP(MAX(r->start, LOW_RESERVED), SZ_4K);
		u64 e = ALIGN_DOWN(r->end, SZ_4K);

		if (mem_type_is_ram(r->type)) {
			m->ram_bytes += r->end - r->start;
			m->max_ram_end = MAX(m->max_ram_end, r->end);
		}
		if (r->type != MEM_USABLE || s >= e)
			continue;
		if (extent_add(&frames, s, e) != EXTENT_OK)
			printk("hugezero: memory: dropped [%#llx, %#llx): "
			       "allocator table full\n",
			       (unsigned long long)s, (unsigned long long)e);
	}
}

void memory_init(void)
{
	struct boot_info *b = &boot_info;
	struct memory *m = &memory;

	extent_init(&frames, extent_buf, ARRAY_SIZE(extent_buf));
	choose_map();
	add_usable();
	m->kernel_start = (u64)__image_start + load_delta;
	m->kernel_end = (u64)__image_end + load_delta;
	reserve(0, LOW_RESERVED, "low memory");
	reserve(m->kernel_start, m->kernel_end, "kernel image");
	reserve(b->mbi_pa, b->mbi_pa + b->mbi_size, "boot information");
	for (u32 i = 0; i < b->nmodules; i++)
		reserve(b->modules[i].start, b->modules[i].end, "module");
	m->usable_bytes = frames.free_bytes;
}

u64 frame_alloc_below(u64 size, u64 limit)
{
	if (size != SZ_4K && size != SZ_2M && size != SZ_1G)
		return FRAME_NONE;
	return LOCKED(u64, extent_alloc(&frames, size, size, limit));
}

u64 frame_alloc(u64 size)
{
	return frame_alloc_below(size, ~0ULL);
}

u64 frame_alloc_table(u64 limit)
{
	return frame_alloc_below(SZ_4K, limit);
}

int frame_free(u64 pa, u64 size)
{
	/* Callers report errors: a double free is EXTENT_EOVERLAP. */
	if (!IS_ALIGNED(pa, size) || (size != SZ_4K && size != SZ_2M &&
				      size != SZ_1G))
		return EXTENT_EINVAL;
	return LOCKED(int, extent_add(&frames, pa, pa + size));
}

u64 frame_free_bytes(void)
{
	return frames.free_bytes;
}

u64 frame_count_free_blocks(u64 size)
{
	return LOCKED(u64, extent_count_blocks(&frames, size));
}

bool frame_is_free(u64 pa, u64 size)
{
	return LOCKED(bool, extent_is_free(&frames, pa, pa + size));
}

bool frame_overlaps_free(u64 start, u64 end)
{
	return LOCKED(bool, extent_overlaps_free(&frames, start, end));
}

bool memory_overlaps_ram(u64 start, u64 end)
{
	for (u32 i = 0; i < memory.nmap; i++)
		if (mem_type_is_ram(memory.map[i].type) &&
		    memory.map[i].start < end && start < memory.map[i].end)
			return true;
	return false;
}

bool frame_claim(u64 pa, u64 size)
{
	return LOCKED(bool, extent_is_free(&frames, pa, pa + size) &&
		      extent_remove(&frames, pa, pa + size) == EXTENT_OK);
}

/*
 * A 4K page below 1 MiB for the AP trampoline (a STARTUP IPI's vector is
 * a page number there): the highest usable one the loader's map has, not
 * page 0 (the real-mode IVT) and not anything already reserved; recorded
 * as reserved.  0 when there is none.
 */
u64 memory_claim_low_page(const char *what)
{
	const struct memory *m = &memory;

	for (u32 i = m->nmap; i-- > 0;) {
		const struct mem_range *r = &m->map[i];
		u64 pa;

		if (r->type != MEM_USABLE || r->start >= LOW_RESERVED)
			continue;
		for (pa = ALIGN_DOWN(MIN(r->end, (u64)LOW_RESERVED), SZ_4K);
		     pa >= MAX(ALIGN_UP(r->start, SZ_4K), (u64)SZ_4K) + SZ_4K;) {
			pa -= SZ_4K;
			if (!low_page_taken(pa)) {
				reserve(pa, pa + SZ_4K, what);
				return pa;
			}
		}
	}
	return 0;
}

/* The SRAT's ranges, copied: kernel/mm does not read ACPI. */
static struct mem_node_range node_range[NUMA_MAX_RANGES];
static u32 nnode_ranges;

void memory_set_nodes(const struct mem_node_range *r, u32 n)
{
	nnode_ranges = MIN(n, (u32)NUMA_MAX_RANGES);
	memcpy(node_range, r, nnode_ranges * sizeof(*r));
}

static bool frame_size_ok(u64 size)
{
	return size == SZ_4K || size == SZ_2M || size == SZ_1G;
}

/* These read and change @frames as frame_alloc() does: the same lock. */
u64 frame_alloc_node(u64 size, u32 node)
{
	if (!frame_size_ok(size))
		return FRAME_NONE;
	if (!nnode_ranges)
		return node == 0 ? frame_alloc(size) : FRAME_NONE;
	for (u32 i = 0; i < nnode_ranges; i++) {
		const struct mem_node_range *r = &node_range[i];
		u64 pa;

		if (r->node != node)
			continue;
		pa = LOCKED(u64, extent_alloc_range(&frames, size, size,
						    r->start, r->end));
		if (pa != FRAME_NONE)
			return pa;
	}
	return FRAME_NONE;
}

u64 frame_count_free_blocks_node(u64 size, u32 node)
{
	u64 count = 0;

	if (!frame_size_ok(size))
		return 0;
	if (!nnode_ranges)
		return node == 0 ? frame_count_free_blocks(size) : 0;
	for (u32 i = 0; i < nnode_ranges; i++)
		if (node_range[i].node == node)
			count += LOCKED(u64, extent_count_blocks_range(&frames,
					size, node_range[i].start, node_range[i].end));
	return count;
}
