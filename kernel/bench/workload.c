// SPDX-License-Identifier: GPL-2.0-only
/*
 * Building the workload's address space and running it.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/user.h"
#include "kernel/mm/memory.h"
#include "kernel/bench/workload.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"
#include "lib/benchsize.h"
#include "lib/string.h"

extern char __utext_start[], __utext_end[];

/*
 * @bytes of zeroed memory, kept in @w's list to be given back: a 2M
 * frame, or a run of 4K frames for less, from @node where it has one.
 */
static void *frame(struct workload *w, u64 bytes, u32 node, u64 *pa)
{
	u64 got = 0;

	*pa = FRAME_NONE;
	if (w->nframes == ARRAY_SIZE(w->frames))
		return NULL;
	if (bytes == SZ_2M)
		*pa = node == FRAME_ANY_NODE ? frame_alloc(SZ_2M) :
		      frame_alloc_node(SZ_2M, node);
	else
		*pa = frame_alloc_run(SZ_4K, bytes / SZ_4K, 0, node, &got);
	if (*pa != FRAME_NONE && bytes != SZ_2M && got != bytes / SZ_4K) {
		frame_free_range(*pa, *pa + got * SZ_4K);
		*pa = FRAME_NONE;
	}
	if (*pa == FRAME_NONE && node != FRAME_ANY_NODE)
		return frame(w, bytes, FRAME_ANY_NODE, pa);
	if (*pa == FRAME_NONE)
		return NULL;
	w->frames[w->nframes] = *pa;
	w->frame_bytes[w->nframes++] = bytes;
	memset(phys_to_virt(*pa), 0, bytes);
	return phys_to_virt(*pa);
}

static bool map_user(struct workload *w, u64 va, u64 pa, enum leaf_size l,
		     u64 flags)
{
	return pt_map(w->pml4, va, pa, l, PTE_U | flags) == PT_OK;
}

/* A sample array of @bytes at @va for the workload to write: one 2M
 * leaf as ever for a full one, 4K leaves for less. */
static u64 *user_array(struct workload *w, u64 va, u64 bytes, u32 node)
{
	u64 pa;
	u64 *v = frame(w, bytes, node, &pa);

	if (!v)
		return NULL;
	if (bytes == SZ_2M)
		return map_user(w, va, pa, LEAF_2M, PTE_W | PTE_NX) ? v : NULL;
	for (u64 off = 0; off < bytes; off += SZ_4K)
		if (!map_user(w, va + off, pa + off, LEAF_4K, PTE_W | PTE_NX))
			return NULL;
	return v;
}

/*
 * A sample array of more than this takes a whole 2M frame and leaf, as
 * every array did before they were sized: its memory is then small
 * beside the pool's (32768 folios or more), and the workload's loop walks
 * at most 64 4K entries of each array (docs/smp.md, "Memory").
 */
#define WL_ARRAY_4K_MAX (256 * KiB)

bool workload_create(struct workload *w, u32 nfaults, u32 node)
{
	u64 pa, bytes = bench_array_bytes(MIN(nfaults, (u32)WL_MAX_FAULTS),
					  sizeof(u64));

	if (bytes > WL_ARRAY_4K_MAX)
		bytes = SZ_2M;

	memset(w, 0, sizeof(*w));
	w->pml4 = frame(w, SZ_4K, node, &pa);
	if (!w->pml4)
		return false;
	/* The kernel half: the same tables as the kernel's own. */
	for (u32 i = 256; i < 512; i++)
		w->pml4[i] = kernel_pml4[i];
	for (char *p = __utext_start; p < __utext_end; p += SZ_4K)
		if (!map_user(w, USER_CODE_VA + (u64)(p - __utext_start),
			      virt_to_phys(p), LEAF_4K, 0))
			return false;
	if (!frame(w, SZ_4K, node, &pa) ||
	    !map_user(w, USER_STACK_VA, pa, LEAF_4K, PTE_W | PTE_NX))
		return false;
	w->args = frame(w, SZ_4K, node, &pa);
	if (!w->args || !map_user(w, USER_ARGS_VA, pa, LEAF_4K, PTE_W | PTE_NX))
		return false;
	w->addrs = user_array(w, USER_DATA_VA, bytes, node);
	w->fault_ticks = user_array(w, USER_DATA_VA + SZ_2M, bytes, node);
	w->access_ticks = user_array(w, USER_DATA_VA + 2 * SZ_2M, bytes, node);
	w->clear_ticks = frame(w, bytes, node, &pa);
	w->fault_page = frame(w, bytes, node, &pa);
	return w->addrs && w->fault_ticks && w->access_ticks &&
	       w->clear_ticks && w->fault_page;
}

void workload_destroy(struct workload *w)
{
	/* Its intermediate page tables stay allocated: a few pages per boot. */
	for (u32 i = 0; i < w->nframes; i++)
		frame_free_range(w->frames[i], w->frames[i] + w->frame_bytes[i]);
	w->nframes = 0;
}

void workload_enter_space(struct workload *w)
{
	write_cr3(virt_to_phys(w->pml4));
	sched_set_space(w->pml4);
}

void workload_leave_space(void)
{
	write_cr3(virt_to_phys(kernel_pml4));
	sched_set_space(NULL);
}

void workload_run(struct workload *w, bool ring3, bool irqs_on)
{
	struct wl_args *a = w->args;
	u64 rflags = USER_RFLAGS | (irqs_on ? RFLAGS_IF : 0);

	a->addrs = USER_DATA_VA;
	a->fault_ticks = USER_DATA_VA + SZ_2M;
	a->access_ticks = USER_DATA_VA + 2 * SZ_2M;
	a->user = ring3;
	/* The way to user code, as every return to it: a user's registers
	 * saved since they last ran there come back first. */
	switch_fpu_return();
	if (ring3) {
		user_run_flags(USER_CODE_VA +
			       (u64)((char *)workload_main - __utext_start),
			       USER_STACK_VA + SZ_4K, USER_ARGS_VA, rflags);
		return;
	}
	if (irqs_on)
		irq_enable();
	workload_main((struct wl_args *)USER_ARGS_VA);
	irq_disable();
}
