// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 16550 driver's MMIO register access on a fake memory window: QEMU's
 * x86 machines have no MMIO 16550 (their UARTs are at I/O ports), so the
 * register placement, access width and stride an SPCR's "mmio", "mmio16"
 * and "mmio32" UART gets, the divisor programmed or left as is, and the
 * bounded waits are tested here, on memory that keeps what is written.
 * Plain memory cannot play a UART that does not answer: QEMU does that
 * (an SPCR naming MMIO where nothing is, tests/qemu_lab_cases.py).
 */
#include "arch/x86_64/uart.h"
#include "lib/string.h"
#include "tests/host/unit.h"

enum { THR = 0, DLL = 0, IER = 1, DLM = 1, FCR = 2, LCR = 3, MCR = 4, LSR = 5,
       MSR = 6, SCR = 7 };
#define GUARD 4			/* registers' worth each side, untouched */

static u32 win32[8 + 2 * GUARD];
static u16 win16[8 + 2 * GUARD];
static u8 win8[8 + 2 * GUARD];

static struct uart_regs regs_of(void *win, u8 width)
{
	return (struct uart_regs){ .mem = (u8 *)win + GUARD * width,
				   .width = width };
}

static void fill(u32 v)
{
	for (size_t i = 0; i < ARRAY_SIZE(win32); i++) {
		win32[i] = v;
		win16[i] = (u16)v;
		win8[i] = (u8)v;
	}
}

/* Register @reg of the window of @width, as one access of it holds it. */
static u32 reg_of(u8 width, int reg)
{
	return width == 4 ? win32[GUARD + reg] :
	       width == 2 ? win16[GUARD + reg] : win8[GUARD + reg];
}

static u32 reg32(int reg)
{
	return reg_of(4, reg);
}

static u32 reg8(int reg)
{
	return reg_of(1, reg);
}

static bool guards_kept(u32 v)
{
	for (int i = 0; i < GUARD; i++)
		if (win32[i] != v || win32[GUARD + 8 + i] != v ||
		    win16[i] != (u16)v || win16[GUARD + 8 + i] != (u16)v ||
		    win8[i] != (u8)v || win8[GUARD + 8 + i] != (u8)v)
			return false;
	return true;
}

/*
 * Divisor 13 (115200 baud from a 24 MHz clock), 8n1, at each width: each
 * register where its stride puts it, written whole (no byte of the fill
 * left above), the ones not written kept.
 */
TEST(uart_mmio_init_widths)
{
	static const struct { int reg; u32 want; } after[] = {
		{ DLL, 13 }, { DLM, 0 }, { LCR, 0x03 }, { MCR, 0x0b },
		{ LSR, 0x5a5a5a5a }, { MSR, 0x5a5a5a5a }, { SCR, 0x5a5a5a5a },
	};
	static void *const wins[] = { win8, win16, NULL, win32 };
	const struct uart_line line = { 13, 0x03 };

	fill(0x5a5a5a5a);
	for (u8 width = 1; width <= 4; width *= 2) {
		struct uart_regs r = regs_of(wins[width - 1], width);
		u32 mask = width == 4 ? ~0u : (1u << (8 * width)) - 1;
		bool fifo = width != 1;
		struct uart u;

		uart_init(&u, &r, &line, fifo);
		EXPECT(u.present);
		for (size_t i = 0; i < ARRAY_SIZE(after); i++)
			EXPECT(reg_of(width, after[i].reg) == (after[i].want & mask),
			       "width %u, register %d: %#x", width, after[i].reg,
			       reg_of(width, after[i].reg));
		/* FIFOs on, or none asked for. */
		EXPECT_EQ(reg_of(width, FCR), fifo ? 0xc7 : 0);
	}
	EXPECT(guards_kept(0x5a5a5a5a));
}

/* "As is": the divisor and line format left; interrupts masked. */
TEST(uart_mmio_as_is)
{
	struct uart_regs r = regs_of(win32, 4);
	struct uart_line line;
	struct uart u;

	fill(0);
	win32[GUARD + DLL] = 12;
	win32[GUARD + IER] = 0x0f;
	win32[GUARD + FCR] = 0x11;
	win32[GUARD + LCR] = 0x83;	/* left with the divisor latch selected */
	win32[GUARD + MCR] = 0x22;
	uart_init(&u, &r, NULL, true);
	EXPECT_EQ(reg32(DLL), 12);
	EXPECT_EQ(reg32(IER), 0);
	EXPECT_EQ(reg32(FCR), 0x11);
	EXPECT_EQ(reg32(LCR), 0x03);	/* only DLAB cleared */
	EXPECT_EQ(reg32(MCR), 0x22);
	/* And what the firmware set can be read back, LCR restored. */
	win32[GUARD + DLM] = 0;
	uart_read_line(&r, &line);
	EXPECT_EQ(line.divisor, 12);
	EXPECT_EQ(line.lcr, 0x03);
	EXPECT_EQ(reg32(LCR), 0x03);
	EXPECT(guards_kept(0));
}

TEST(uart_mmio_putc_and_bounded_waits)
{
	struct uart_regs r = regs_of(win32, 4);
	struct uart_line line = { 1, 0x03 };
	struct uart u;

	fill(0);
	uart_init(&u, &r, &line, true);
	win32[GUARD + LSR] = 0x60;	/* THRE and TEMT: room, and idle */
	uart_putc(&u, 'H');
	EXPECT_EQ(reg32(THR), 'H');
	EXPECT_EQ(u.timeouts, 0);
	uart_drain(&u);
	/* A transmitter that never empties: each wait ends, then it stops. */
	win32[GUARD + LSR] = 0;
	for (int i = 0; i < 10; i++)
		uart_putc(&u, 'x');
	EXPECT_EQ(u.timeouts, 4);
	EXPECT_EQ(reg32(THR), 'H');
	uart_drain(&u);
	EXPECT(guards_kept(0));
}

/* With "data ready" stuck on, the probe's read-off before its loopback
 * test still ends; memory that keeps what is written passes it. */
TEST(uart_mmio_probe_bounded)
{
	struct uart_regs r = regs_of(win8, 1);

	fill(0);
	win8[GUARD + LSR] = 0x61;
	win8[GUARD + MCR] = 0x03;
	EXPECT(uart_probe(&r));
	EXPECT_EQ(reg8(MCR), 0x03);	/* restored after the loopback */
	EXPECT_EQ(reg8(SCR), 0xa5);
	EXPECT(guards_kept(0));
}
