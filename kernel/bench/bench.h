/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_BENCH_H
#define KERNEL_BENCH_BENCH_H

#include "lib/ktap.h"
#include "lib/params.h"

/* How many configurations (KTAP cases) bench=fault will run. */
u32 bench_count(const struct hz_config *c);
/*
 * Run them all as the KTAP subtest "fault", writing records: on every
 * CPU of cpus= at once, for each scale= step (docs/smp.md).
 */
void bench_run(struct ktap *k, const struct hz_config *c);

#endif
