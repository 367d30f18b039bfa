/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_PIC_H
#define ARCH_PIC_H

#include "lib/types.h"

/*
 * The two 8259s, remapped to vectors 0x20-0x2f (as Linux's
 * ISA_IRQ_VECTOR(0)) and every line masked: nothing of theirs is used,
 * but a spurious IRQ7 or IRQ15, which a masked 8259 can still raise, must
 * not land on an exception vector.
 */
#define VEC_PIC_BASE	0x20
#define PIC_VECTORS	16

void pic_init(void);
/*
 * A vector of the 8259s arrived: end it if a line really is in service
 * (none should be, every line is masked), else leave it alone, as a
 * spurious IRQ7 or IRQ15 must not be ended (but IRQ15's cascade on the
 * master must).
 */
void pic_ack(u32 vector);

#endif
