// SPDX-License-Identifier: GPL-2.0-only
/*
 * The console: printk's sink, a 16550.  Lines end in CRLF on the wire, as terminals and
 * serial-over-LAN consoles expect; the host parser accepts both.
 *
 * Which 16550: until console_init(), COM1 if it answers.  console_init() takes
 * the one console= names (or, if it does not answer, the first that does);
 * with console=auto, the default, COM1 or else the first that answers, until
 * console_auto(), after the ACPI tables are read, picks the SPCR table's UART
 * if there is one it can drive.  The output up to then is kept, and replayed
 * on the UART switched to, so its log is whole.
 */
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/spinlock.h"
#include "arch/x86_64/uart.h"
#include "kernel/console.h"
#include "lib/format.h"
#include "lib/string.h"

static struct uart uart;
static int port = -1;
static bool autosel;
/*
 * Once a second CPU runs, each write (one printk, one record) goes out
 * whole under the lock, so lines from different CPUs never interleave.
 * A CPU that faults while writing comes back here from its fatal path:
 * it already holds the lock and writes on rather than wait for itself.
 */
static struct spinlock lock = SPINLOCK_INIT;
static bool shared;
static volatile u32 holder = ~0u;

/* The output until the choice is final, for the UART switched to. */
static char early[16384];
static size_t early_len, early_lost;
static bool keeping = true;
static const char *source = "COM1 or the first UART that answers, early";
static u32 baud_now = 115200;

static void put(const char *s, size_t n);

void console_set_shared(void)
{
	shared = true;
}

static int legacy_index(u16 base)
{
	for (int i = 0; i < UART_PORTS; i++)
		if (uart_io_base[i] == base)
			return i;
	return UART_PORTS;
}

/* Write on the UART at @base from now on, with what was written before. */
static void use(u16 base, u32 baud, char parity, u32 bits)
{
	bool fresh = !uart.present || uart.base != base;

	uart_init(&uart, base, baud, parity, bits);
	port = legacy_index(base);
	if (!fresh)
		return;
	put(early, early_len);
	if (early_lost)
		printk("hugezero: console: %zu bytes of the output before "
		       "this UART was chosen not kept\n", early_lost);
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

	autosel = want->autosel;
	if (uart_probe(uart_io_base[want->port]))
		chosen = (int)want->port;
	for (int i = 0; chosen < 0 && i < UART_PORTS; i++)
		if (uart_probe(uart_io_base[i]))
			chosen = i;
	if (chosen < 0) {
		/* Nothing to print on; carry on silently and still exit. */
		uart.present = false;
		port = -1;
		keeping = false;
		return;
	}
	use(uart_io_base[chosen], want->baud, want->parity, want->bits);
	baud_now = want->baud;
	if (autosel)
		return;		/* console_auto() says which, and why */
	keeping = false;
	source = chosen == (int)want->port ? "console= on the command line" :
		 "the first UART that answers (console='s was absent)";
	if (chosen != (int)want->port)
		printk("hugezero: console: ttyS%u (%#x) not present; using "
		       "ttyS%d (%#x) at %u\n", want->port,
		       uart_io_base[want->port], chosen, uart_io_base[chosen],
		       want->baud);
}

/* "ttyS1 (0x2f8)", or "the UART at 0x3000" off the legacy four. */
static void name_of(u16 base, char *buf, size_t size)
{
	int i = legacy_index(base);

	if (i < UART_PORTS)
		ksnprintf(buf, size, "ttyS%d (%#x)", i, base);
	else
		ksnprintf(buf, size, "the UART at %#x", base);
}

/*
 * The SPCR table's UART if it is an I/O-port 16550 that answers; why not
 * into @why otherwise.  Its baud rate into @baud, and anything in the table
 * not followed into @note.
 */
static bool spcr_uart(const struct spcr *s, u16 *base, u32 *baud, char *why,
		      size_t whylen, char *note, size_t notelen)
{
	char type[24];

	if (!s) {
		ksnprintf(why, whylen, "there is no ACPI SPCR table");
		return false;
	}
	if (!s->is_16550) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART is interface "
			  "%s, not a 16550, which is not supported",
			  spcr_interface_name(s, type, sizeof(type)));
		return false;
	}
	if (s->space == 0) {
		ksnprintf(why, whylen, "the ACPI SPCR table's 16550 is MMIO at "
			  "%#llx, not supported (I/O-port UARTs only)",
			  (unsigned long long)s->address);
		return false;
	}
	if (s->space != 1 || !s->address || s->address > 0xfff8) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART address "
			  "(space %u, %#llx) is no I/O port", s->space,
			  (unsigned long long)s->address);
		return false;
	}
	if (!uart_probe((u16)s->address)) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART at %#llx "
			  "does not answer", (unsigned long long)s->address);
		return false;
	}
	*base = (u16)s->address;
	*baud = s->baud ? s->baud : 115200;
	note[0] = '\0';
	if (!s->baud)
		ksnprintf(note, notelen, " (the table's baud code %u: %s)",
			  s->baud_code, s->baud_code ? "not known" : "as is");
	if (s->parity || s->stop_bits != 1) {
		size_t n = strlen(note);

		ksnprintf(note + n, notelen - n, " (the table's parity %u, "
			  "stop bits %u not followed: 8n1)", s->parity,
			  s->stop_bits);
	}
	return true;
}

void console_auto(const struct spcr *s)
{
	char why[128], note[96], name[32];
	u16 base, was = uart.base;
	u32 baud;

	if (!autosel)
		return;
	if (spcr_uart(s, &base, &baud, why, sizeof(why), note, sizeof(note))) {
		name_of(base, name, sizeof(name));
		if (uart.present && base != was)
			printk("hugezero: console: moving to %s, from the ACPI "
			       "SPCR table\n", name);
		use(base, baud, 'n', 8);
		keeping = false;
		printk("hugezero: console: %s from the ACPI SPCR table, %u "
		       "baud%s\n", name, baud, note);
		source = "the ACPI SPCR table";
		baud_now = baud;
		return;
	}
	keeping = false;
	if (port < 0)
		return;		/* nobody to tell */
	name_of(uart.base, name, sizeof(name));
	source = port == 0 ? "COM1 (console=auto, no usable SPCR)" :
		 "the first UART that answers (console=auto)";
	printk("hugezero: console: %s: %s, as %s%s; 115200 baud\n", name,
	       port == 0 ? "COM1" : "the first UART that answers", why,
	       port == 0 ? "" : " and COM1 does not answer");
}

const char *console_source(void)
{
	return source;
}

u16 console_base(void)
{
	return uart.present ? uart.base : 0;
}

u32 console_baud(void)
{
	return baud_now;
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

static void keep(const char *s, size_t n)
{
	size_t room = sizeof(early) - early_len;

	if (n > room) {
		early_lost += n - room;
		n = room;
	}
	memcpy(early + early_len, s, n);
	early_len += n;
}

void console_write(const char *s, size_t n)
{
	u32 me;
	u64 flags;

	if (keeping)
		keep(s, n);
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

