// SPDX-License-Identifier: GPL-2.0-only
/*
 * Physical memory: the loader's map made trustworthy, and the frame
 * allocator over what is free in it.
 */
#include "arch/x86_64/paging.h"
#include "arch/x86_64/spinlock.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/mm/memory.h"
#include "kernel/watch.h"
#include "lib/string.h"

extern char __image_start[], __image_end[];

struct memory memory;
u64 load_delta;

/*
 * The first array of free extents; when free slots run low the set moves
 * itself to a larger one taken from the free frames (changed()), so no
 * pattern of frees can fill it.
 */
static struct extent extent_buf[4096];
static struct extent_set frames;
/* CPUs allocate at once (each its pools, tables, stacks). */
static struct spinlock frames_lock = SPINLOCK_INIT;
/* Free slots kept after every change: one operation needs at most one,
 * moving the array two more. */
#define FRAMES_HEADROOM 8
/* Page-table frames handed out: paging never frees a table. */
static u64 table_bytes;
/* Frees that failed, each reported when it happened. */
static u64 errors;

/* CPUs allocate at once; a stuck holder must not outlive the deadline. */
static inline u64 frames_lock_take(void)
{
	return spin_lock_irqsave_watched(&frames_lock, NULL,
					 "for the frame allocator");
}

#define LOCKED(type, expr) ({						\
	u64 _f = frames_lock_take();					\
	type _v = (expr);						\
	spin_unlock_irqrestore(&frames_lock, _f);			\
	_v;								\
})

/* The same, for what changes @frames: room kept for the next change. */
#define CHANGE(type, expr) ({						\
	u64 _f = frames_lock_take();					\
	type _v = (expr);						\
	bool _said = changed();						\
	spin_unlock_irqrestore(&frames_lock, _f);			\
	if (_said)							\
		say_no_room();						\
	_v;								\
})

static void *frames_virt(u64 pa)
{
	return phys_to_virt(pa);
}

/*
 * Under frames_lock, after any change to @frames: true when the array
 * could not grow and had not failed to before (said once per streak,
 * after the lock is dropped).
 */
static bool changed(void)
{
	static bool failing;
	/* Before paging_init() only the boot identity map reaches it. */
	bool fails = extent_keep_room(&frames, FRAMES_HEADROOM,
				      direct_map_base ? ~0ULL : 4 * GiB,
				      frames_virt) != EXTENT_OK;
	bool news = fails && !failing;

	failing = fails;
	return news;
}

static void say_no_room(void)
{
	printk("hugezero: memory: no free memory for a larger extent table "
	       "(%u of %u slots used): frees may fail\n",
	       __atomic_load_n(&frames.n, __ATOMIC_RELAXED), frames.cap);
}

/* Every failed free is said, with what and why, and counted. */
static int failed(const char *what, u64 start, u64 end, int err)
{
	if (err == EXTENT_OK)
		return err;
	__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
	printk("hugezero: memory: %s of [%#llx, %#llx) (%llu KiB) failed: %s\n",
	       what, (unsigned long long)start, (unsigned long long)end,
	       (unsigned long long)((end - start) / KiB), extent_strerror(err));
	return err;
}

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
	if (CHANGE(int, extent_remove(&frames, start, end)) != EXTENT_OK)
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
	/* Past MEMMAP_MAX the boot ends before the map is used (main.c). */
	need = memmap_normalize(src, n, m->map, MEMMAP_MAX);
	m->nmap_needed = need;
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
		if (CHANGE(int, extent_add(&frames, s, e)) != EXTENT_OK)
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
	return CHANGE(u64, extent_alloc(&frames, size, size, limit));
}

u64 frame_alloc(u64 size)
{
	return frame_alloc_below(size, ~0ULL);
}

u64 frame_alloc_table(u64 limit)
{
	u64 pa = frame_alloc_below(SZ_4K, limit);

	if (pa != FRAME_NONE)
		__atomic_add_fetch(&table_bytes, SZ_4K, __ATOMIC_RELAXED);
	return pa;
}

int frame_free(u64 pa, u64 size)
{
	/* A double free is EXTENT_EOVERLAP: said here, and returned. */
	if (!IS_ALIGNED(pa, size) || (size != SZ_4K && size != SZ_2M &&
				      size != SZ_1G))
		return failed("free", pa, pa + size, EXTENT_EINVAL);
	return failed("free", pa, pa + size,
		      CHANGE(int, extent_add(&frames, pa, pa + size)));
}

int frame_free_range(u64 start, u64 end)
{
	if (!IS_ALIGNED(start, SZ_4K) || !IS_ALIGNED(end, SZ_4K))
		return failed("free", start, end, EXTENT_EINVAL);
	return failed("free", start, end,
		      CHANGE(int, extent_add(&frames, start, end)));
}

u64 frame_free_bytes(void)
{
	return LOCKED(u64, frames.free_bytes);
}

u64 frame_kept_bytes(void)
{
	return __atomic_load_n(&table_bytes, __ATOMIC_RELAXED) +
	       LOCKED(u64, frames.buf_pa != EXTENT_NONE ? frames.buf_bytes : 0);
}

u64 frame_errors(void)
{
	return __atomic_load_n(&errors, __ATOMIC_RELAXED);
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
	return CHANGE(bool, extent_is_free(&frames, pa, pa + size) &&
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
		pa = CHANGE(u64, extent_alloc_range(&frames, size, size,
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

/*
 * Under frames_lock: the best place for the run among @node's ranges
 * (all memory for FRAME_ANY_NODE, or without an SRAT for node 0).
 */
static bool find_run(u64 size, u64 max, u64 pad, u32 node,
		     struct extent_run *best)
{
	struct extent_run r;
	bool found = false;

	if (node == FRAME_ANY_NODE || !nnode_ranges)
		return (node == FRAME_ANY_NODE || node == 0) &&
		       extent_find_run(&frames, size, max, pad, 0, ~0ULL, best);
	for (u32 i = 0; i < nnode_ranges; i++)
		if (node_range[i].node == node &&
		    extent_find_run(&frames, size, max, pad, node_range[i].start,
				    node_range[i].end, &r) &&
		    (!found || extent_run_better(&r, best, max))) {
			*best = r;
			found = true;
		}
	return found;
}

static u64 take_run(u64 size, u64 max, u64 pad, u32 node, u64 *got)
{
	struct extent_run r;

	if (!find_run(size, max, pad, node, &r) ||
	    extent_take_run(&frames, &r, size, pad) != EXTENT_OK)
		return FRAME_NONE;
	*got = r.n;
	return r.pa;
}

u64 frame_alloc_run(u64 size, u64 max, u64 pad, u32 node, u64 *got)
{
	*got = 0;
	if (!frame_size_ok(size) || !IS_ALIGNED(pad, SZ_4K))
		return FRAME_NONE;
	return CHANGE(u64, take_run(size, max, pad, node, got));
}
