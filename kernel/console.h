/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "lib/params.h"
#include "lib/printk.h"
#include "lib/spcr.h"
#include "lib/types.h"

/*
 * The serial console.  Output before console_init() goes to COM1 if one
 * answers.  Never call printk inside a timed region.
 */
void console_early_init(void);
/*
 * Use the requested UART, or the first that answers; say which on it.
 * With console=auto: COM1, or the first that answers, until console_auto().
 */
void console_init(const struct console_spec *want);
/*
 * console=auto, once the ACPI tables are read: the UART of the SPCR table
 * @spcr (NULL: none, for the reason @absent) if it is a 16550 that
 * answers, at an I/O port or in MMIO, else the one in use; say which, and
 * why.
 */
void console_auto(const struct spcr *spcr, const char *absent);
void console_write(const char *s, size_t n);
void console_flush(void);
/*
 * The CPU ending a run writes alone from now on, without the lock
 * (another CPU, stopped, may hold it for good); other CPUs' writes are
 * dropped, counted, also one that missed the stop and is inside a write:
 * it stops at the next byte, and the takeover waits up to @wait_tsc for
 * it to leave (not for a CPU @stopped says is stopped, NULL: none).  A
 * line cut mid-way is ended with CONSOLE_CUT_MARK and a newline first.
 * console_owner(): that CPU, or ~0u.
 */
#define CONSOLE_CUT_MARK " ~cut"
void console_takeover(bool (*stopped)(u32 cpu), u64 wait_tsc);
u32 console_owner(void);
/* Writes of other CPUs dropped after the takeover; their bytes. */
u64 console_dropped(u64 *bytes);
/* Test-only (crash=deaf-writer): a write that spans the takeover. */
void console_write_across_takeover(const char *first, const char *rest,
				   u64 wait_tsc);
/* Test-only (crash=hold-console): take the lock for good, then set
 * *@holding. */
__noreturn void console_hold_forever(volatile u32 *holding);
/* From when a second CPU starts: each write whole, under a lock. */
void console_set_shared(void);
/* Which ttySn is in use, -1 if none answered, 4 (UART_PORTS) off the four. */
int console_port(void);

/* The UART in use and how it was chosen: the inventory's console record. */
struct console_info {
	char name[64];		/* "ttyS1 (0x2f8)", "the UART at MMIO ..." */
	u16 io;			/* I/O base; 0: in MMIO, or none */
	u64 mmio;		/* physical address in MMIO; 0: at an I/O port */
	u8 width;		/* bytes a register (MMIO: 1, 2 or 4) */
	bool as_is;		/* the firmware's divisor kept (SPCR baud 0) */
	u32 baud;		/* from divisor and clock */
	u32 divisor, clock;
	const char *source;	/* how it was chosen */
	char reason[192];	/* console=auto: why not the SPCR table's UART */
	char note[192];		/* what of the SPCR table was not followed */
};
const struct console_info *console_info(void);

#endif
