/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_RETHUNK_H
#define ARCH_RETHUNK_H

#include "lib/params.h"
#include "lib/rethunk.h"

/* What rethunk_setup() chose: the machine record's rethunk_linux, _why. */
extern struct rethunk_choice rethunk_choice;

/*
 * After cpuid_init(): the return thunk Linux's default mitigation picks
 * for this CPU (or rethunk_assume='s), into rethunk_choice and @c's
 * rethunk_default and rethunk_on_kind, which the matrix reads.
 */
void rethunk_setup(struct hz_config *c);

#endif
