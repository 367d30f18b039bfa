// SPDX-License-Identifier: GPL-2.0-only
/*
 * The console: printk's sink, a 16550.  Lines end in CRLF on the wire, as terminals and
 * serial-over-LAN consoles expect; the host parser accepts both.
 */
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/spinlock.h"
#include "arch/x86_64/uart.h"
#include "kernel/console.h"

static struct uart uart;
static int port = -1;
/*
 * Once a second CPU runs, each write (one printk, one record) goes out
 * whole under the lock, so lines from different CPUs never interleave.
 * A CPU that faults while writing comes back here from its fatal path:
 * it already holds the lock and writes on rather than wait for itself.
 */
static struct spinlock lock = SPINLOCK_INIT;
static bool shared;
static volatile u32 holder = ~0u;

void console_set_shared(void)
{
	shared = true;
}

void console_early_init(void)
{
	printk_set_sink(console_write);
	if (uart_probe(uart_io_base[0])) {
		uart_init(&uart, uart_io_base[0], 115200, 'n', 8);
		port = 0;
	}
}

void console_init(const struct console_spec *want)
{
	int chosen = -1;

	if (uart_probe(uart_io_base[want->port]))
		chosen = (int)want->port;
	for (int i = 0; chosen < 0 && i < UART_PORTS; i++)
		if (uart_probe(uart_io_base[i]))
			chosen = i;
	if (chosen < 0) {
		/* Nothing to print on; carry on silently and still exit. */
		uart.present = false;
		port = -1;
		return;
	}
	uart_init(&uart, uart_io_base[chosen], want->baud, want->parity,
		  want->bits);
	port = chosen;
	if (chosen != (int)want->port)
		printk("hugezero: console: ttyS%u (%#x) not present; using "
		       "ttyS%d (%#x) at %u\n", want->port,
		       uart_io_base[want->port], chosen, uart_io_base[chosen],
		       want->baud);
}

int console_port(void)
{
	return port;
}

static void put(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc(&uart, '\r');
		uart_putc(&uart, s[i]);
	}
}

void console_write(const char *s, size_t n)
{
	u32 me;
	u64 flags;

	if (!shared) {
		put(s, n);
		return;
	}
	me = this_cpu()->cpu;
	if (holder == me) {
		put(s, n);
		return;
	}
	flags = spin_lock_irqsave(&lock);
	holder = me;
	put(s, n);
	holder = ~0u;
	spin_unlock_irqrestore(&lock, flags);
}

void console_flush(void)
{
	uart_drain(&uart);
}

