// SPDX-License-Identifier: GPL-2.0-only
/*
 * The console: printk's sink, a 16550.  Lines end in CRLF on the wire, as terminals and
 * serial-over-LAN consoles expect; the host parser accepts both.
 *
 * Which 16550: until console_init(), COM1 if it answers.  console_init() takes
 * the one console= names (or, if it does not answer, the first that does);
 * with console=auto, the default, COM1 or else the first that answers, until
 * console_auto(), after the ACPI tables are read, picks the SPCR table's UART
 * if there is one it can drive: a 16550 at an I/O port or in MMIO (mapped
 * uncached here, its registers' width from the table, lib/spcr.c), at the
 * table's baud rate or as the firmware left it.  The output up to then is
 * kept, and replayed on the UART switched to, so its log is whole.
 */
#include "arch/x86_64/cache.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/spinlock.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/uart.h"
#include "kernel/console.h"
#include "kernel/mm/memory.h"
#include "kernel/watch.h"
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
static bool shared;
/* Off the lines of what every write reads (shared, taken_by, keeping)
 * or writes (early_len): kernel/watch.h. */
static struct watched_lock cons __cacheline_aligned = WATCHED_LOCK_INIT;
/*
 * console_takeover(): from then on only this CPU writes, and without the
 * lock, which a stopped CPU may hold (or wait for) for good -- as Linux's
 * panic CPU takes an nbcon console over (nbcon_context_try_acquire() at
 * NBCON_PRIO_PANIC) and other CPUs' printk no longer reaches a console
 * (other_cpu_in_panic()).
 */
static volatile u32 taken_by = ~0u;
/*
 * Who is inside a write now (from the lock to its release), ~0u nobody:
 * the ender waits (bounded) for a writer that did not stop to leave it,
 * and put() checks taken_by before each byte, after the writer said so.
 * Each stores then loads, fenced, so one of the two sees the other
 * (Dekker's): after the wait no CPU but the owner writes another byte.
 * Linux's nbcon console has the same ownership handover
 * (nbcon_context_try_acquire(), and a writer's
 * nbcon_context_can_proceed() between bytes of a record).  Every write
 * writes it, so it has a line of its own, off taken_by's, which every
 * byte reads.
 */
static struct {
	volatile u32 who;	/* ~0u: nobody */
	volatile bool line_open; /* the wire's last byte not a newline */
} writer __cacheline_aligned = { .who = ~0u };
static volatile u64 dropped, dropped_bytes;	/* other CPUs', after it */

/* The output until the choice is final, for the UART switched to. */
static char early[16384];
static size_t early_len, early_lost;
static bool keeping = true;
static struct console_info info = {
	.source = "COM1 or the first UART that answers, early",
	.clock = UART_CLOCK_HZ,
};
/*
 * Each legacy port's divisor and line format as the firmware (or GRUB)
 * left them, read before hugezero first programs the port: what an SPCR
 * baud rate of "as is" keeps.
 */
static struct uart_line fw_line[UART_PORTS];
static bool fw_saved[UART_PORTS];

static void put(const char *s, size_t n);

void console_set_shared(void)
{
	shared = true;
}

static int legacy_index(const struct uart_regs *r)
{
	for (int i = 0; !r->mem && i < UART_PORTS; i++)
		if (uart_io_base[i] == r->port)
			return i;
	return UART_PORTS;
}

static bool same_regs(const struct uart_regs *a, const struct uart_regs *b)
{
	return a->mem == b->mem && a->port == b->port && a->width == b->width;
}

/* Where @r is: "0x2f8", or "MMIO 0xfedc9000 (32-bit registers)". */
static void where(const struct uart_regs *r, u64 mmio, char *buf, size_t size)
{
	if (r->mem)
		ksnprintf(buf, size, "MMIO %#llx (%u-bit registers)",
			  (unsigned long long)mmio, 8 * r->width);
	else
		ksnprintf(buf, size, "%#x", r->port);
}

/* "ttyS1 (0x2f8)", or "the UART at 0x3000" (or at MMIO ...) off the four. */
static void name_of(const struct uart_regs *r, u64 mmio, char *buf,
		    size_t size)
{
	int i = legacy_index(r);
	char at[48];

	where(r, mmio, at, sizeof(at));
	if (i < UART_PORTS)
		ksnprintf(buf, size, "ttyS%d (%s)", i, at);
	else
		ksnprintf(buf, size, "the UART at %s", at);
}

static void set_speed(u32 divisor, u32 clock, bool as_is)
{
	info.divisor = divisor;
	info.clock = clock;
	info.baud = divisor ? clock / 16 / divisor : 0;
	info.as_is = as_is;
}

/* The line for @baud at the PC's clock. */
static struct uart_line line_for(u32 baud, char parity, u32 bits)
{
	return (struct uart_line){
		.divisor = (u16)uart_divisor_for(UART_CLOCK_HZ, baud),
		.lcr = uart_lcr(parity, bits),
	};
}

/*
 * Write on the UART at @r (MMIO at physical @mmio) from now on, with what
 * was written before; @line as uart_init()'s (NULL: as is).
 */
static void use(const struct uart_regs *r, u64 mmio,
		const struct uart_line *line, bool fifo)
{
	bool fresh = !uart.present || !same_regs(&uart.regs, r);
	int i = legacy_index(r);

	if (i < UART_PORTS && !fw_saved[i]) {
		uart_read_line(r, &fw_line[i]);
		fw_saved[i] = true;
	}
	uart_init(&uart, r, line, fifo);
	port = i;
	info.io = r->mem ? 0 : r->port;
	info.mmio = r->mem ? mmio : 0;
	info.width = r->width;
	name_of(r, mmio, info.name, sizeof(info.name));
	if (!fresh)
		return;
	put(early, early_len);
	if (early_lost)
		printk("hugezero: console: %zu bytes of the output before "
		       "this UART was chosen not kept\n", early_lost);
}

void console_early_init(void)
{
	struct uart_regs com1 = uart_port_regs(uart_io_base[0]);
	struct uart_line line = line_for(115200, 'n', 8);

	printk_set_sink(console_write);
	if (uart_probe(&com1)) {
		use(&com1, 0, &line, true);
		set_speed(line.divisor, UART_CLOCK_HZ, false);
	}
}

void console_init(const struct console_spec *want)
{
	struct uart_line line = line_for(want->baud, want->parity, want->bits);
	struct uart_regs r;
	int chosen = -1;

	autosel = want->autosel;
	r = uart_port_regs(uart_io_base[want->port]);
	if (uart_probe(&r))
		chosen = (int)want->port;
	for (int i = 0; chosen < 0 && i < UART_PORTS; i++) {
		r = uart_port_regs(uart_io_base[i]);
		if (uart_probe(&r))
			chosen = i;
	}
	if (chosen < 0) {
		/* Nothing to print on; carry on silently and still exit. */
		uart.present = false;
		port = -1;
		keeping = false;
		return;
	}
	use(&r, 0, &line, true);
	set_speed(line.divisor, UART_CLOCK_HZ, false);
	if (autosel)
		return;		/* console_auto() says which, and why */
	keeping = false;
	info.source = chosen == (int)want->port ? "console= on the command line" :
		 "the first UART that answers (console='s was absent)";
	if (chosen != (int)want->port)
		printk("hugezero: console: ttyS%u (%#x) not present; using "
		       "ttyS%d (%#x) at %u\n", want->port,
		       uart_io_base[want->port], chosen, uart_io_base[chosen],
		       want->baud);
}

/*
 * The registers of the SPCR's UART @su into @r: its I/O port, or its MMIO
 * window mapped uncached; false, with why, when that cannot be.
 */
static bool spcr_regs(const struct spcr_uart *su, struct uart_regs *r,
		      char *why, size_t whylen)
{
	u64 len = 8ull * su->width;	/* eight registers, width apart */

	if (!su->mmio) {
		*r = uart_port_regs((u16)su->address);
		return true;
	}
	*r = (struct uart_regs){ .width = su->width };
	/* A broken table must not have us write into memory in use. */
	if (memory_overlaps_ram(su->address, su->address + len)) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART at MMIO "
			  "%#llx is RAM in the memory map, not a device",
			  (unsigned long long)su->address);
		return false;
	}
	r->mem = ioremap(su->address, len, true);
	if (!r->mem) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART at MMIO "
			  "%#llx could not be mapped",
			  (unsigned long long)su->address);
		return false;
	}
	return true;
}

/*
 * "As is": the line the firmware left on the UART at @r, into @fw.  For a
 * legacy port hugezero programmed already, what it read before; NULL when
 * it is untouched and uart_init() is to leave it so.
 */
static const struct uart_line *as_is(const struct uart_regs *r,
				     struct uart_line *fw)
{
	int i = legacy_index(r);

	if (i < UART_PORTS && fw_saved[i]) {
		*fw = fw_line[i];
		return fw;
	}
	uart_read_line(r, fw);
	return NULL;
}

/*
 * The SPCR table's UART @su if it answers: used, said on it and true;
 * false, with why, otherwise.
 */
static bool take_spcr(const struct spcr_uart *su, char *why, size_t whylen)
{
	struct uart_line line = { (u16)su->divisor, uart_lcr('n', 8) }, fw;
	const struct uart_line *how = &line;
	struct uart_regs r;
	char name[64], at[48], speed[112];

	if (!spcr_regs(su, &r, why, whylen))
		return false;
	where(&r, su->address, at, sizeof(at));
	if (!uart_probe(&r)) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART at %s does "
			  "not answer", at);
		return false;
	}
	name_of(&r, su->address, name, sizeof(name));
	if (su->divisor) {
		ksnprintf(speed, sizeof(speed), "%u baud (divisor %u from a %u "
			  "Hz clock)", su->baud, line.divisor, su->clock);
	} else {
		how = as_is(&r, &fw);
		line.divisor = fw.divisor;
		ksnprintf(speed, sizeof(speed), "baud as is (divisor %u: %u "
			  "baud from a %u Hz clock)", fw.divisor,
			  fw.divisor ? su->clock / 16 / fw.divisor : 0,
			  su->clock);
	}
	/* Divisor 0 stops a 16550: nobody set it, so "as is" cannot be. */
	if (!line.divisor) {
		line.divisor = (u16)uart_divisor_for(su->clock, 115200) ?: 1;
		how = &line;
		ksnprintf(speed, sizeof(speed), "%u baud (divisor %u from a %u "
			  "Hz clock), as the divisor the firmware left is 0",
			  su->clock / 16 / line.divisor, line.divisor, su->clock);
	}
	if (uart.present && !same_regs(&uart.regs, &r))
		printk("hugezero: console: moving to %s, from the ACPI SPCR "
		       "table\n", name);
	use(&r, su->address, how, su->fifo);
	set_speed(line.divisor, su->clock, !su->divisor && how != &line);
	keeping = false;
	printk("hugezero: console: %s from the ACPI SPCR table, %s%s%s%s\n",
	       name, speed, su->note[0] ? " (" : "", su->note,
	       su->note[0] ? ")" : "");
	info.source = "the ACPI SPCR table";
	strlcpy(info.note, su->note, sizeof(info.note));
	return true;
}

void console_auto(const struct spcr *s, const char *absent)
{
	struct spcr_uart su;
	char why[192];

	if (!autosel)
		return;
	if (!s)
		strlcpy(why, absent, sizeof(why));
	else if (spcr_uart(s, &su, why, sizeof(why)) &&
		 take_spcr(&su, why, sizeof(why)))
		return;
	keeping = false;
	strlcpy(info.reason, why, sizeof(info.reason));
	if (port < 0)
		return;		/* nobody to tell */
	info.source = port == 0 ? "COM1 (console=auto, no usable SPCR)" :
		 "the first UART that answers (console=auto)";
	printk("hugezero: console: %s: %s, as %s%s; %u baud\n", info.name,
	       port == 0 ? "COM1" : "the first UART that answers", why,
	       port == 0 ? "" : " and COM1 does not answer", info.baud);
}

const struct console_info *console_info(void)
{
	return &info;
}

int console_port(void)
{
	return port;
}

static void drop(size_t n)
{
	__atomic_add_fetch(&dropped, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&dropped_bytes, n, __ATOMIC_RELAXED);
}

/* A CPU not the owner stops at the byte the takeover finds it at. */
static bool mine(u32 me)
{
	u32 owner = __atomic_load_n(&taken_by, __ATOMIC_ACQUIRE);

	return owner == ~0u || owner == me;
}

/*
 * line_open follows every byte, set before a byte that opens or extends
 * a line and cleared after a newline: a writer stopped by an NMI in the
 * middle leaves it saying whether the wire's line is open (at worst a
 * line already ended is marked cut too, never an open one missed).
 */
static void put(const char *s, size_t n)
{
	u32 me = shared ? this_cpu()->cpu : ~0u;
	size_t i;

	for (i = 0; i < n && (!shared || mine(me)); i++) {
		if (s[i] == '\n') {
			uart_putc(&uart, '\r');
			uart_putc(&uart, '\n');
			writer.line_open = false;
			continue;
		}
		writer.line_open = true;
		uart_putc(&uart, s[i]);
	}
	if (i < n)
		drop(n - i);
}

/* Under the console lock: this CPU writes, until write_end(). */
static void write_begin(u32 me)
{
	cons.holder = me;
	__atomic_store_n(&writer.who, me, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void write_end(void)
{
	__atomic_store_n(&writer.who, ~0u, __ATOMIC_RELEASE);
	cons.holder = ~0u;
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
	u32 me, owner;
	u64 flags;

	if (keeping)
		keep(s, n);
	if (!shared) {
		put(s, n);
		return;
	}
	me = this_cpu()->cpu;
	owner = __atomic_load_n(&taken_by, __ATOMIC_ACQUIRE);
	if (owner != ~0u) {
		if (owner == me)
			put(s, n);
		else	/* another CPU ends the run: it alone writes */
			drop(n);
		return;
	}
	if (cons.holder == me) {
		put(s, n);
		return;
	}
	flags = spin_lock_irqsave_watched(&cons.lock, &cons.holder,
					  "for the console lock");
	write_begin(me);
	put(s, n);
	write_end();
	spin_unlock_irqrestore(&cons.lock, flags);
}

/* A CPU still inside put() (it missed the stop): until it sees the
 * owner and leaves, for at most @wait_tsc; not for a stopped one. */
static void writer_gone(u32 me, bool (*stopped)(u32 cpu), u64 wait_tsc)
{
	u64 end = rdtsc() + wait_tsc;
	u32 w;

	while ((w = __atomic_load_n(&writer.who, __ATOMIC_ACQUIRE)) != ~0u &&
	       w != me && !(stopped && stopped(w)) && rdtsc() < end)
		cpu_relax();
}

void console_takeover(bool (*stopped)(u32 cpu), u64 wait_tsc)
{
	u32 me = this_cpu()->cpu;

	__atomic_store_n(&taken_by, me, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (shared)
		writer_gone(me, stopped, wait_tsc);
	/* A line cut mid-way -- a stopped writer's, or ours by a fault in
	 * the middle of a record -- is ended and marked, so that what we
	 * write starts whole and no parser glues the two. */
	if (writer.line_open)
		put(CONSOLE_CUT_MARK "\n", sizeof(CONSOLE_CUT_MARK));
}

u64 console_dropped(u64 *bytes)
{
	*bytes = __atomic_load_n(&dropped_bytes, __ATOMIC_RELAXED);
	return __atomic_load_n(&dropped, __ATOMIC_RELAXED);
}

/*
 * crash=deaf-writer: @first goes out under the lock, then this CPU,
 * which missed the stop, waits (at most @wait_tsc) for the takeover and
 * writes @rest as a CPU still inside a write would: it must be dropped.
 */
void console_write_across_takeover(const char *first, const char *rest,
				   u64 wait_tsc)
{
	u64 flags = spin_lock_irqsave_watched(&cons.lock, &cons.holder,
					      "for the console lock");
	u64 end = rdtsc() + wait_tsc;

	write_begin(this_cpu()->cpu);
	put(first, strlen(first));
	while (__atomic_load_n(&taken_by, __ATOMIC_ACQUIRE) == ~0u &&
	       rdtsc() < end)
		cpu_relax();
	put(rest, strlen(rest));
	write_end();
	spin_unlock_irqrestore(&cons.lock, flags);
}

/* crash=hold-console: this CPU takes the lock and never gives it back,
 * as a CPU hung in the middle of a write would. */
void console_hold_forever(volatile u32 *holding)
{
	spin_lock_irqsave_watched(&cons.lock, &cons.holder,
				  "for the console lock");
	cons.holder = this_cpu()->cpu;
	*holding = 1;
	for (;;)
		cpu_relax();
}

u32 console_owner(void)
{
	return __atomic_load_n(&taken_by, __ATOMIC_ACQUIRE);
}

void console_flush(void)
{
	uart_drain(&uart);
}

