/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_INVENTORY_H
#define KERNEL_INVENTORY_H

#include "lib/record.h"

/* bench=info's records: memory ranges, counters, console (docs/hardware.md). */
void inventory_report(struct rec_writer *w);

#endif
