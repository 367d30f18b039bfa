/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_REPORT_H
#define KERNEL_REPORT_H

#include "lib/record.h"

/* Records on the console (docs/records.md). */
extern struct rec_writer records;

void report_init(void);
/* boot, machine and timebase records: the context of every number. */
void report_context(void);
/* The last record of a boot: how many there were, itself included. */
void report_end(void);

#endif
