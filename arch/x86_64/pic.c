// SPDX-License-Identifier: GPL-2.0-only
/*
 * The legacy 8259 pair: moved off the exception vectors and silenced.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/pic.h"

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1
#define ICW1_INIT_ICW4	0x11	/* edge, cascaded, ICW4 follows */
#define ICW4_8086	0x01
#define OCW2_EOI	0x20
#define OCW3_READ_ISR	0x0b
#define PIC_CASCADE	2	/* the slave hangs off the master's IRQ2 */

/* The 8259 wants a little time between initialisation words. */
static void pic_out(u16 port, u8 v)
{
	outb(port, v);
	outb(0x80, 0);
}

void pic_init(void)
{
	pic_out(PIC1_DATA, 0xff);
	pic_out(PIC2_DATA, 0xff);
	pic_out(PIC1_CMD, ICW1_INIT_ICW4);
	pic_out(PIC2_CMD, ICW1_INIT_ICW4);
	pic_out(PIC1_DATA, VEC_PIC_BASE);
	pic_out(PIC2_DATA, VEC_PIC_BASE + 8);
	pic_out(PIC1_DATA, 1u << PIC_CASCADE);
	pic_out(PIC2_DATA, PIC_CASCADE);
	pic_out(PIC1_DATA, ICW4_8086);
	pic_out(PIC2_DATA, ICW4_8086);
	/* ICW1 cleared the mask registers. */
	pic_out(PIC1_DATA, 0xff);
	pic_out(PIC2_DATA, 0xff);
}

static u8 pic_isr(u16 cmd)
{
	outb(cmd, OCW3_READ_ISR);
	return inb(cmd);
}

void pic_ack(u32 vector)
{
	u32 irq = vector - VEC_PIC_BASE;

	if (irq >= 8) {
		if (pic_isr(PIC2_CMD) & (1u << (irq - 8)))
			outb(PIC2_CMD, OCW2_EOI);
		/* The master took it through its cascade line either way. */
		outb(PIC1_CMD, OCW2_EOI);
		return;
	}
	if (pic_isr(PIC1_CMD) & (1u << irq))
		outb(PIC1_CMD, OCW2_EOI);
}
