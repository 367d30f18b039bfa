/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_UART_H
#define ARCH_UART_H

#include "lib/types.h"

/* The four legacy PC serial ports, ttyS0..ttyS3 as Linux numbers them. */
#define UART_PORTS 4
extern const u16 uart_io_base[UART_PORTS];

struct uart {
	u16 base;
	bool present;
	u32 timeouts;		/* transmit waits that gave up */
};

/* Is a 16550-compatible UART answering at @base?  (scratch + loopback) */
bool uart_probe(u16 base);
/* Program baud rate and line format; data bits 5..8, parity 'n','o','e'. */
void uart_init(struct uart *u, u16 base, u32 baud, char parity, u32 bits);
void uart_putc(struct uart *u, char c);
/* Wait (bounded) until everything queued has left the shift register. */
void uart_drain(struct uart *u);

#endif
