/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_SMPBOOT_H
#define ARCH_SMPBOOT_H

#include "arch/x86_64/percpu.h"
#include "lib/types.h"

/*
 * Starting application processors: the real-mode trampoline
 * (boot/trampoline.asm) in a page below 1 MiB, INIT-SIPI-SIPI as Linux's
 * wakeup_secondary_cpu_via_init() (arch/x86/kernel/smpboot.c), and the
 * AP's way into the kernel with its own struct percpu.
 */

/* Filled in by the BSP at TD in the trampoline's page (trampoline.asm). */
struct trampoline_data {
	u32 ptr32_off;		/* far pointer to the 32-bit part */
	u16 ptr32_sel;
	u16 gdt_limit;		/* the GDT descriptor */
	u32 gdt_base;
	u32 cr3;		/* tables that map this page and the kernel */
	u64 entry;		/* ap_entry(): kernel virtual */
	u64 stack;		/* the AP's kernel stack */
	u64 arg;		/* its struct percpu */
	u64 kcr3;		/* the kernel's own tables */
	u32 alive;		/* set by the AP in real mode */
	u32 pad;
	u64 gdt[4];		/* null, code32, data, code64 */
} __packed;

#define TRAMPOLINE_DATA 8

/* What the AP runs once in the kernel: never returns. */
typedef void (*ap_main_fn)(struct percpu *pc);

/*
 * Prepare the trampoline at @page_pa (4K-aligned, below 1 MiB, RAM the
 * allocator never hands out) and its page tables from @alloc (frames
 * below its limit).  @tsc_hz times the waits; @legacy_init_delay: the
 * 10 ms between INIT assert and deassert of the MP specification, which
 * Linux skips on modern CPUs (smp_quirk_init_udelay()).  False with @why.
 */
bool smpboot_init(u64 page_pa, u64 (*alloc)(u64 limit), u64 tsc_hz,
		  bool legacy_init_delay, ap_main_fn main, char *why, size_t n);

/*
 * Start the CPU with APIC ID @apic_id on @pc (its cpu, apic_id and
 * stacks set) and wait up to @timeout_ms for it to set *@callin (to any
 * non-zero value: the caller's meaning).  On any failure the CPU is sent
 * INIT again, so that it cannot run later on a
 * trampoline another CPU is using; false with @why ("no answer to the
 * STARTUP IPIs", "reached real mode but not the kernel", ...).
 */
bool smpboot_start(struct percpu *pc, volatile u32 *callin, u32 timeout_ms,
		   char *why, size_t n);

#endif
