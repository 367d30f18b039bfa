/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_PRESET_H
#define KERNEL_BENCH_PRESET_H

#include "lib/params.h"

/*
 * preset=: size the preset to this machine once memory and the CPUs are
 * up, say what was chosen on the console and in a preset record.
 * Returns false when the machine cannot run it (said why).
 */
bool preset_apply(struct hz_config *c, const struct cmdline_result *user);

#endif
