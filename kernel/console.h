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
 * @spcr (NULL: none) if it is an I/O-port 16550 that answers, else the one
 * in use; say which, and why.
 */
void console_auto(const struct spcr *spcr);
void console_write(const char *s, size_t n);
void console_flush(void);
/* From when a second CPU starts: each write whole, under a lock. */
void console_set_shared(void);
/* Which ttySn is in use, -1 if none answered, 4 (UART_PORTS) off the four. */
int console_port(void);
/* How it was chosen, its I/O base (0: none) and baud rate: the inventory's. */
const char *console_source(void);
u16 console_base(void);
u32 console_baud(void);

#endif
