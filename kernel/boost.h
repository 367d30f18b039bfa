/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BOOST_H
#define KERNEL_BOOST_H

#include "lib/boost.h"
#include "lib/params.h"

/*
 * boost= for the boot (docs/hardware.md, "Boost"): set as asked on every
 * CPU that is up (firmware: only read), the effect measured on each CPU
 * of cpus=, one console line per distinct outcome and a boost record
 * per CPU.  Once, after the self-tests and before what measures; nothing
 * is put back, since one boot is one run.
 */
void boost_apply(const struct hz_config *c);
/* CPU @cpu's outcome; NULL before boost_apply() or for a CPU not up. */
const struct boost_cpu *boost_of(u32 cpu);

#endif
