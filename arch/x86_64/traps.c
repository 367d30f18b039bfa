// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exception and interrupt dispatch.  In order: a handler registered for
 * the vector (the benchmark's user page faults, the timer interrupt; after
 * either, the irq-exit hook), then a trap_try() in progress, else
 * the exception was not expected: print everything a developer needs to
 * find it (registers, CR2, a backtrace to symbolize on the host with
 * `scripts/hugezero symbolize`), report failure and stop the machine.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "lib/printk.h"

static trap_handler_fn handlers[256];
static fatal_hook_fn fatal_begin, fatal_hook;
static irq_exit_fn irq_exit_hook;

u64 trap_try_asm(void (*fn)(void *), void *arg, struct trap_jmp *j);

static const char *const names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
	"#OF overflow", "#BR bound range", "#UD invalid opcode",
	"#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault",
	"#GP general protection", "#PF page fault", "reserved 15",
	"#MF x87 error", "#AC alignment check", "#MC machine check",
	"#XM SIMD error", "#VE virtualization", "#CP control protection",
	"reserved 22", "reserved 23", "reserved 24", "reserved 25",
	"reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

const char *trap_name(u64 vector)
{
	return vector < 32 ? names[vector] : "external interrupt";
}

void trap_set_handler(u32 vector, trap_handler_fn fn)
{
	if (vector < 256)
		handlers[vector] = fn;
}

void trap_set_fatal_hooks(fatal_hook_fn begin, fatal_hook_fn end)
{
	fatal_begin = begin;
	fatal_hook = end;
}

irq_exit_fn trap_set_irq_exit_hook(irq_exit_fn fn)
{
	irq_exit_fn old = irq_exit_hook;

	irq_exit_hook = fn;
	return old;
}

u64 trap_try(void (*fn)(void *), void *arg, struct trap_info *info)
{
	struct percpu *pc = this_cpu();
	struct trap_jmp j;
	u64 r;

	j.info.vector = j.info.error = j.info.cr2 = j.info.rip = 0;
	pc->trap_jmp = &j;
	r = trap_try_asm(fn, arg, &j);
	pc->trap_jmp = NULL;
	if (info)
		*info = j.info;
	return r;
}

/* On a stack of their own, which a task switch would leave behind. */
static bool ist_vector(u64 vector)
{
	return vector == X86_DF || vector == X86_NMI || vector == X86_MC;
}

static bool recoverable(u64 vector)
{
	return vector < 32 && !ist_vector(vector);
}

static bool try_recover(struct regs *r)
{
	struct percpu *pc = this_cpu();
	struct trap_jmp *j = pc->trap_jmp;

	if (!j || (r->cs & 3) || !recoverable(r->vector))
		return false;
	pc->trap_jmp = NULL;
	j->info.vector = r->vector;
	j->info.error = r->error;
	j->info.cr2 = r->vector == X86_PF ? read_cr2() : 0;
	j->info.rip = r->rip;
	r->rip = j->landing;
	r->rsp = j->rsp;
	r->rdx = (u64)j;
	r->rax = r->vector + 1;
	return true;
}

/* Is [p, p+16) inside one of this CPU's stacks? */
static bool on_stack(u64 p)
{
	struct cpu_stacks *s = this_cpu()->stacks;
	const struct { u8 *base; u64 size; } st[] = {
		{ s->kernel, sizeof(s->kernel) }, { s->df, sizeof(s->df) },
		{ s->nmi, sizeof(s->nmi) }, { s->mc, sizeof(s->mc) },
	};

	for (u32 i = 0; i < ARRAY_SIZE(st); i++)
		if (p >= (u64)st[i].base && p + 16 <= (u64)st[i].base + st[i].size)
			return true;
	return false;
}

void print_backtrace(u64 rip, u64 rbp)
{
	printk("backtrace (symbolize: scripts/hugezero symbolize LOG):\n");
	printk("  bt #0 %#018llx\n", (unsigned long long)rip);
	for (u32 i = 1; i < 32 && rbp && !(rbp & 7) && on_stack(rbp); i++) {
		u64 *frame = (u64 *)rbp;

		if (!frame[1])
			break;
		printk("  bt #%u %#018llx\n", i, (unsigned long long)frame[1]);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

static void dump(const struct regs *r)
{
	printk("hugezero: unexpected exception %llu (%s) on cpu %u\n",
	       (unsigned long long)r->vector, trap_name(r->vector),
	       this_cpu()->cpu);
	printk("  error %#llx cr2 %#llx cr3 %#llx\n",
	       (unsigned long long)r->error, (unsigned long long)read_cr2(),
	       (unsigned long long)read_cr3());
	printk("  rip %#018llx cs %#llx rflags %#llx rsp %#018llx ss %#llx\n",
	       (unsigned long long)r->rip, (unsigned long long)r->cs,
	       (unsigned long long)r->rflags, (unsigned long long)r->rsp,
	       (unsigned long long)r->ss);
	printk("  rax %016llx rbx %016llx rcx %016llx rdx %016llx\n",
	       (unsigned long long)r->rax, (unsigned long long)r->rbx,
	       (unsigned long long)r->rcx, (unsigned long long)r->rdx);
	printk("  rsi %016llx rdi %016llx rbp %016llx r8  %016llx\n",
	       (unsigned long long)r->rsi, (unsigned long long)r->rdi,
	       (unsigned long long)r->rbp, (unsigned long long)r->r8);
	printk("  r9  %016llx r10 %016llx r11 %016llx r12 %016llx\n",
	       (unsigned long long)r->r9, (unsigned long long)r->r10,
	       (unsigned long long)r->r11, (unsigned long long)r->r12);
	printk("  r13 %016llx r14 %016llx r15 %016llx\n",
	       (unsigned long long)r->r13, (unsigned long long)r->r14,
	       (unsigned long long)r->r15);
	if (r->vector == X86_PF)
		printk("  page fault: %s %s %s%s\n",
		       r->error & PF_ERR_P ? "protection" : "not-present",
		       r->error & PF_ERR_W ? "write" : "read",
		       r->error & PF_ERR_U ? "user" : "kernel",
		       r->error & PF_ERR_I ? " instruction-fetch" : "");
	if (!(r->cs & 3))
		print_backtrace(r->rip, r->rbp);
}

static __noreturn void fatal(const struct regs *r)
{
	struct percpu *pc = this_cpu();

	irq_disable();
	/* A fault inside the fatal path itself: stop without recursing. */
	if (pc->in_fatal++) {
		printk("hugezero: exception %llu inside the fatal path; halting\n",
		       (unsigned long long)r->vector);
		for (;;)
			halt();
	}
	if (fatal_begin)
		fatal_begin();
	dump(r);
	if (fatal_hook)
		fatal_hook();
	for (;;)
		halt();
}

void trap_dispatch(struct regs *r)
{
	trap_handler_fn h = handlers[r->vector & 0xff];

	if (h && h(r)) {
		if (irq_exit_hook && !ist_vector(r->vector))
			irq_exit_hook(r);
		return;
	}
	if (try_recover(r))
		return;
	fatal(r);
}
