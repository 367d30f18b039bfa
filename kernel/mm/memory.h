/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_MEMORY_H
#define KERNEL_MEMORY_H

#include "lib/extent.h"
#include "lib/memmap.h"
#include "lib/numa.h"

/* Ranges kept after normalization: a longer map ends the boot. */
#define MEMMAP_MAX MEMMAP_MAX_INPUT
#define RESERVED_MAX 16
#define FRAME_NONE EXTENT_NONE
#define LOW_RESERVED (1 * MiB)	/* BIOS data, EBDA, later the AP trampoline */

/* The machine's memory after normalization, and what we keep for ourselves. */
struct memory {
	const char *source;		/* "efi" or "e820" */
	u32 nmap, nmap_needed;	/* kept; the loader's map needs (main.c) */
	struct mem_range map[MEMMAP_MAX];
	u32 nreserved;
	struct mem_range reserved[RESERVED_MAX];	/* type: unused */
	const char *reserved_what[RESERVED_MAX];
	u64 ram_bytes, usable_bytes, max_ram_end;
	u64 kernel_start, kernel_end;	/* physical */
};

extern struct memory memory;
extern u64 load_delta;

/* Normalize the loader's map, reserve ours, seed the frame allocator. */
void memory_init(void);

/* Frames: naturally aligned blocks of 4K, 2M or 1G. */
u64 frame_alloc(u64 size);
u64 frame_alloc_below(u64 size, u64 limit);
/* A 4K frame for a page table below @limit: paging's pt_alloc_fn. */
u64 frame_alloc_table(u64 limit);
/* Every free that fails is reported (the range and why) and counted. */
int frame_free(u64 pa, u64 size);
/* Give back any 4K-aligned range: a run, pads and all. */
int frame_free_range(u64 start, u64 end);
u64 frame_free_bytes(void);
/*
 * Frames held on purpose for the rest of the boot: page tables (paging
 * never frees one) and the allocator's own extent array once it has
 * grown.  Free plus kept is what a run that gives back all it took
 * leaves unchanged.
 */
u64 frame_kept_bytes(void);
/* Failed frees so far (each said on the console when it failed). */
u64 frame_errors(void);
u64 frame_count_free_blocks(u64 size);
bool frame_is_free(u64 pa, u64 size);
bool frame_overlaps_free(u64 start, u64 end);
/* Does [start, end) overlap RAM in the map (not a device, then)? */
bool memory_overlaps_ram(u64 start, u64 end);
/* Take the specific frame [pa, pa+size) if it is free (guard pages). */
bool frame_claim(u64 pa, u64 size);
/* A usable 4K page below 1 MiB, reserved as @what (the AP trampoline). */
u64 memory_claim_low_page(const char *what);

/*
 * NUMA nodes, as the caller found them (the SRAT): @n ranges, each of
 * one node, copied.  Without them, node 0 is all memory.
 */
void memory_set_nodes(const struct mem_node_range *r, u32 n);
/* A frame lying entirely within one of @node's ranges, or FRAME_NONE. */
u64 frame_alloc_node(u64 size, u32 node);
/* How many such frames could be allocated now. */
u64 frame_count_free_blocks_node(u64 size, u32 node);

#define FRAME_ANY_NODE (~0u)
/*
 * A run of up to @max naturally aligned frames of @size from @node
 * (FRAME_ANY_NODE: anywhere), taken with @pad bytes beside it on each
 * side (guard frames), in one operation under the lock: best fit for the
 * whole run, else the longest there is.  Returns its first frame and in
 * *@got how many; FRAME_NONE when not one fits.  Given back with
 * frame_free_range(pa - pad, pa + got * size + pad).
 */
u64 frame_alloc_run(u64 size, u64 max, u64 pad, u32 node, u64 *got);

#endif
