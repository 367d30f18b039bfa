/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_UART_H
#define ARCH_UART_H

#include "lib/types.h"

/* The four legacy PC serial ports, ttyS0..ttyS3 as Linux numbers them. */
#define UART_PORTS 4
extern const u16 uart_io_base[UART_PORTS];

/*
 * Where a 16550's registers are, as the 8250 earlycon's iotypes: "io"
 * (port I/O, one port a register), or "mmio", "mmio16", "mmio32" (a
 * memory window the caller mapped uncached, register i at mem + i * width,
 * each read and written as one access of that width).
 */
struct uart_regs {
	u16 port;		/* I/O base when mem is NULL */
	volatile u8 *mem;	/* MMIO: the mapped window */
	u8 width;		/* MMIO: 1, 2 or 4 bytes a register */
};

static inline struct uart_regs uart_port_regs(u16 base)
{
	return (struct uart_regs){ .port = base, .width = 1 };
}

/* What a 16550 keeps of its line: the divisor latch and line control. */
struct uart_line {
	u16 divisor;
	u8 lcr;
};

struct uart {
	struct uart_regs regs;
	bool present;
	u32 timeouts;		/* transmit waits that gave up */
};

/* Is a 16550-compatible UART answering at @r?  (scratch + loopback) */
bool uart_probe(const struct uart_regs *r);
/* The divisor and line control the UART has now (firmware's, say). */
void uart_read_line(const struct uart_regs *r, struct uart_line *line);
/* Line control for data bits 5..8 and parity 'n', 'o', 'e'. */
u8 uart_lcr(char parity, u32 bits);
/*
 * Take the UART at @r, interrupts masked.  With @line: its divisor and
 * line control set, the FIFOs on if @fifo, DTR and RTS raised.  NULL
 * leaves it as the firmware set it, as the 8250 earlycon without a baud
 * rate: only the interrupts are masked.
 */
void uart_init(struct uart *u, const struct uart_regs *r,
	       const struct uart_line *line, bool fifo);
void uart_putc(struct uart *u, char c);
/* Wait (bounded) until everything queued has left the shift register. */
void uart_drain(struct uart *u);

#endif
