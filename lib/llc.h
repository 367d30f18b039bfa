/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_LLC_H
#define LIB_LLC_H

#include "lib/types.h"

/*
 * Which CPUs share a last-level cache, from their APIC IDs and what CPUID
 * says of the cache: leaf 4 (Intel) or 8000001Dh (AMD), EAX[25:14] + 1,
 * the logical processors that share it.  Those sharing one cache have
 * the same APIC ID above its count order, as Linux takes it
 * (arch/x86/kernel/cpu/cacheinfo.c: cacheinfo_amd_init_llc_id() and
 * __cache_cpumap_setup(): apicid >> get_count_order(num_sharing)).
 */

/* The smallest k with 2^k >= @n (0 for 0 and 1): get_count_order(). */
u32 llc_count_order(u32 n);

/*
 * How many of the @n CPUs whose APIC IDs are @apic_ids share @self's
 * last-level cache, shared by @sharing logical processors (0: the CPU
 * does not say; then every one of them is counted, as if one cache: a
 * region that may share is never taken to fit alone).  @self among
 * @apic_ids counts once; at least 1.
 */
u32 llc_sharers(const u32 *apic_ids, u32 n, u32 self, u32 sharing);

#endif
