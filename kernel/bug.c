// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "kernel/bug.h"
#include "lib/format.h"
#include "lib/printk.h"

__noreturn void bug(const char *area, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	irq_disable();
	va_start(ap, fmt);
	kvsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printk("%s: BUG on cpu %u: %s\n", area, this_cpu()->cpu, why);
	__builtin_trap();
}
