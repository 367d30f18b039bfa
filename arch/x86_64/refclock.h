/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_REFCLOCK_H
#define ARCH_REFCLOCK_H

#include "lib/types.h"

/*
 * A hardware counter of known frequency against which the TSC is
 * calibrated.  read() returns an up-counting value of @mask's width.
 */
struct refclock {
	const char *name;
	u64 hz;
	u64 mask;
	u64 (*read)(void);
	bool usable;
	char why[96];		/* why not usable */
};

/* Each fills @c; c->usable says whether it can be used, c->why if not. */
void hpet_probe(struct refclock *c, u64 base_pa);
void pmtimer_probe(struct refclock *c, u16 port, bool is_32bit);
void pit_probe(struct refclock *c);

/* Does the counter move within a bounded number of reads? */
bool refclock_advances(const struct refclock *c);

#endif
