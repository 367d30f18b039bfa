/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_CPULIST_H
#define LIB_CPULIST_H

#include "lib/types.h"

/*
 * A set of logical CPU numbers, as Linux's cpulist (bitmap_parselist(),
 * Documentation/admin-guide/kernel-parameters.rst "cpu lists"):
 * "0-3,8", "0-15:2/4" (of each group of 4 in 0..15, the first 2), or
 * "all".  The kernel numbers its CPUs BSP first, then the MADT's enabled
 * processors in table order; the companion uses Linux's numbers.
 */
#define CPUSET_MAX 1024
/*
 * The longest cpulist text records keep (a record is one line of at most
 * RECORD_MAX bytes, with the configuration beside it): a cpus= whose
 * canonical list is longer is refused on the command line, in the kernel
 * and the companion alike (config_check()), and a group whose members'
 * list outgrows it fails with a message, never cut.  Parsing itself has
 * no limit on the text's length.
 */
#define CPULIST_TEXT_MAX 127

struct cpu_set {
	u64 bits[CPUSET_MAX / 64];
	bool all;		/* "all": every CPU the machine has */
};

static inline bool cpu_set_has(const struct cpu_set *s, u32 cpu)
{
	return cpu < CPUSET_MAX && (s->all || (s->bits[cpu / 64] >> (cpu % 64) & 1));
}

static inline void cpu_set_add(struct cpu_set *s, u32 cpu)
{
	if (cpu < CPUSET_MAX)
		s->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

/* Parse @len bytes at @s; false with a message naming the bad part. */
bool cpulist_parse(const char *s, size_t len, struct cpu_set *out, char *err,
		   size_t errlen);
/* How many CPUs of @s are below @limit (all: @limit). */
u32 cpu_set_count(const struct cpu_set *s, u32 limit);
/* The @k-th (from 0) CPU of @s below @limit, or ~0u. */
u32 cpu_set_nth(const struct cpu_set *s, u32 k, u32 limit);
/* The first @k CPUs of @s below @limit, as a set of their own. */
void cpu_set_first(const struct cpu_set *s, u32 k, u32 limit,
		   struct cpu_set *out);
/* Canonical cpulist text ("0-3,8"; "all" stays "all"): ranges merged.
 * Returns its whole length, as snprintf(): @n or more means it was cut. */
int cpulist_format(const struct cpu_set *s, char *buf, size_t n);

#endif
