/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_CPUNUM_H
#define LIB_CPUNUM_H

#include "lib/madt.h"
#include "lib/types.h"

/*
 * Logical CPU numbers from the MADT, as Linux gives them at enumeration
 * (acpi_parse_lapic()/acpi_parse_x2apic() -> topology_register_apic(),
 * the boot CPU 0): the boot CPU first, whether or not the MADT lists it;
 * then the MADT's processors in table order, an enabled one numbered up
 * to @max_cpus, a disabled one or one past @max_cpus listed unnumbered.
 */
enum cpunum_kind { CPUNUM_BOOT, CPUNUM_CPU, CPUNUM_DISABLED, CPUNUM_OVER_MAX };

struct cpunum {
	u32 cpu;		/* logical number, ~0u for none */
	u32 apic_id, uid;
	enum cpunum_kind kind;
	bool online_capable;	/* a disabled one that may be hot-added */
	bool listed;		/* the boot CPU: the MADT has it */
};

/*
 * Call @emit once per entry (the boot CPU, APIC ID @bsp, first; @m NULL:
 * it alone).  Returns how many: at most @m->ncpus + 1, the room a caller
 * storing them needs.  *@ncpus: the logical numbers given.
 */
u32 cpunum_walk(const struct madt *m, u32 bsp, u32 max_cpus,
		void (*emit)(void *ctx, const struct cpunum *n), void *ctx,
		u32 *ncpus);

#endif
