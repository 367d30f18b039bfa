// SPDX-License-Identifier: GPL-2.0-only
/*
 * 16550 UART driver, polled.  Every wait is bounded: a port without a
 * UART reads 0xff, and a UART whose transmitter never drains (no cable,
 * flow control stuck, a BMC that went away) must cost a bounded delay per
 * character and then be given up on, never a hang.
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
#define WAIT_LOOPS 200000	/* port reads; ~0.2 s on real hardware */
#define GIVE_UP_AFTER 4		/* consecutive timeouts */

bool uart_probe(u16 base)
{
	u8 saved_mcr = inb(base + MCR);
	bool ok = true;

	outb(base + SCR, 0x5a);
	if (inb(base + SCR) != 0x5a)
		return false;
	outb(base + SCR, 0xa5);
	if (inb(base + SCR) != 0xa5)
		return false;
	/* Loopback: a byte sent must come back. */
	outb(base + IER, 0);
	outb(base + MCR, MCR_LOOP | 0x0f);
	while (inb(base + LSR) & LSR_DR)
		(void)inb(base + RBR);
	outb(base + THR, 0xae);
	for (u32 i = 0; i < WAIT_LOOPS; i++)
		if (inb(base + LSR) & LSR_DR)
			break;
	if (inb(base + RBR) != 0xae)
		ok = false;
	outb(base + MCR, saved_mcr);
	return ok;
}

void uart_init(struct uart *u, u16 base, u32 baud, char parity, u32 bits)
{
	u32 div = baud ? 115200 / baud : 1;
	u8 lcr = (u8)((bits - 5) & 3);

	if (parity == 'o')
		lcr |= 0x08;
	else if (parity == 'e')
		lcr |= 0x18;
	u->base = base;
	u->present = true;
	u->timeouts = 0;
	outb(base + IER, 0);
	outb(base + LCR, LCR_DLAB);
	outb(base + DLL, div & 0xff);
	outb(base + DLM, (div >> 8) & 0xff);
	outb(base + LCR, lcr);
	outb(base + FCR, 0xc7);		/* enable and clear FIFOs */
	outb(base + MCR, 0x0b);		/* DTR, RTS, OUT2 */
}

static bool wait_lsr(struct uart *u, u8 bit)
{
	for (u32 i = 0; i < WAIT_LOOPS; i++)
		if (inb(u->base + LSR) & bit)
			return true;
	return false;
}

void uart_putc(struct uart *u, char c)
{
	if (!u->present || u->timeouts >= GIVE_UP_AFTER)
		return;
	if (!wait_lsr(u, LSR_THRE)) {
		u->timeouts++;
		return;
	}
	u->timeouts = 0;
	outb(u->base + THR, (u8)c);
}

void uart_drain(struct uart *u)
{
	if (u->present && u->timeouts < GIVE_UP_AFTER)
		(void)wait_lsr(u, LSR_TEMT);
}
