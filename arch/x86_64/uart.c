// SPDX-License-Identifier: GPL-2.0-only
/*
 * 16550 UART driver, polled, at I/O ports or in MMIO.  Every wait is
 * bounded: a port without a UART reads 0xff, and a UART whose transmitter
 * never drains (no cable, flow control stuck, a BMC that went away) must
 * cost a bounded delay per character and then be given up on, never a
 * hang.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/uart.h"

const u16 uart_io_base[UART_PORTS] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };

enum {
	THR = 0, RBR = 0, DLL = 0, IER = 1, DLM = 1, FCR = 2, LCR = 3,
	MCR = 4, LSR = 5, SCR = 7,
};
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define LSR_TEMT 0x40
#define LCR_DLAB 0x80
#define MCR_LOOP 0x10
#define IER_UUE 0x40		/* XScale's UART unit enable: kept, as Linux */
#define WAIT_LOOPS 200000	/* register reads; ~0.2 s on real hardware */
#define GIVE_UP_AFTER 4		/* consecutive timeouts */
#define RX_DRAIN_MAX 64		/* bytes read off before a loopback test */

/* As the 8250 earlycon's serial8250_early_in(): one access of the width. */
static u8 in(const struct uart_regs *r, u32 reg)
{
	volatile u8 *p;

	if (!r->mem)
		return inb((u16)(r->port + reg));
	p = r->mem + reg * r->width;
	if (r->width == 4)
		return (u8)*(volatile u32 *)p;
	if (r->width == 2)
		return (u8)*(volatile u16 *)p;
	return *p;
}

static void out(const struct uart_regs *r, u32 reg, u8 v)
{
	volatile u8 *p;

	if (!r->mem) {
		outb((u16)(r->port + reg), v);
		return;
	}
	p = r->mem + reg * r->width;
	if (r->width == 4)
		*(volatile u32 *)p = v;
	else if (r->width == 2)
		*(volatile u16 *)p = v;
	else
		*p = v;
}

static bool wait_for(const struct uart_regs *r, u8 bit)
{
	for (u32 i = 0; i < WAIT_LOOPS; i++)
		if (in(r, LSR) & bit)
			return true;
	return false;
}

bool uart_probe(const struct uart_regs *r)
{
	u8 saved_mcr = in(r, MCR);
	bool ok = true;

	out(r, SCR, 0x5a);
	if (in(r, SCR) != 0x5a)
		return false;
	out(r, SCR, 0xa5);
	if (in(r, SCR) != 0xa5)
		return false;
	/* Loopback: a byte sent must come back. */
	out(r, IER, 0);
	out(r, MCR, MCR_LOOP | 0x0f);
	/* What was received before; bounded, as DR may be stuck on. */
	for (u32 i = 0; i < RX_DRAIN_MAX && (in(r, LSR) & LSR_DR); i++)
		(void)in(r, RBR);
	out(r, THR, 0xae);
	(void)wait_for(r, LSR_DR);
	if (in(r, RBR) != 0xae)
		ok = false;
	out(r, MCR, saved_mcr);
	return ok;
}

void uart_read_line(const struct uart_regs *r, struct uart_line *line)
{
	u8 lcr = in(r, LCR);

	out(r, LCR, lcr | LCR_DLAB);
	line->divisor = (u16)(in(r, DLL) | in(r, DLM) << 8);
	out(r, LCR, lcr & ~LCR_DLAB);
	line->lcr = lcr & ~LCR_DLAB;
}

u8 uart_lcr(char parity, u32 bits)
{
	u8 lcr = (u8)((bits - 5) & 3);

	if (parity == 'o')
		lcr |= 0x08;
	else if (parity == 'e')
		lcr |= 0x18;
	return lcr;
}

void uart_init(struct uart *u, const struct uart_regs *r,
	       const struct uart_line *line, bool fifo)
{
	u8 lcr = in(r, LCR);

	u->regs = *r;
	u->present = true;
	u->timeouts = 0;
	/* The divisor latch deselected first, so IER is IER, not DLM. */
	if (lcr & LCR_DLAB)
		out(r, LCR, lcr & ~LCR_DLAB);
	out(r, IER, in(r, IER) & IER_UUE);
	if (!line)
		return;		/* as is */
	out(r, LCR, LCR_DLAB);
	out(r, DLL, line->divisor & 0xff);
	out(r, DLM, (line->divisor >> 8) & 0xff);
	out(r, LCR, line->lcr & ~LCR_DLAB);
	out(r, FCR, fifo ? 0xc7 : 0);	/* enable and clear FIFOs, or none */
	out(r, MCR, 0x0b);		/* DTR, RTS, OUT2 */
}

void uart_putc(struct uart *u, char c)
{
	if (!u->present || u->timeouts >= GIVE_UP_AFTER)
		return;
	if (!wait_for(&u->regs, LSR_THRE)) {
		u->timeouts++;
		return;
	}
	u->timeouts = 0;
	out(&u->regs, THR, (u8)c);
}

void uart_drain(struct uart *u)
{
	if (u->present && u->timeouts < GIVE_UP_AFTER)
		(void)wait_for(&u->regs, LSR_TEMT);
}
