/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_PRESET_H
#define HOSTED_PRESET_H

#include "lib/params.h"

/*
 * preset=: size the preset to this host (@ncpus: the processes cpus=
 * runs, or 1), say so on standard error and in a preset record.
 * Returns false when the host cannot run it.
 */
bool companion_preset(struct hz_config *c, const struct cmdline_result *res,
		      u32 ncpus);

#endif
