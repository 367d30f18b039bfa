// SPDX-License-Identifier: GPL-2.0-only
/*
 * Crashes made on purpose (crash=, test-only): each is what a real fault
 * or hang looks like to the code that must survive it.
 *
 * crash=stack: overflow the kernel stack into its guard page, to show
 * that the #DF on its own IST stack reports it instead of triple-faulting.
 * The depth limit is far beyond any stack, so the recursion is unbounded
 * in practice without the compiler seeing an infinite one.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/tsc.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/report.h"
#include "kernel/smp/smp.h"
#include "kernel/timebase.h"
#include "lib/string.h"
#include "lib/watchdog.h"

u64 recurse_forever(u64 depth)
{
	volatile u8 pad[256];

	pad[0] = (u8)depth;
	if (depth > (1ULL << 40))
		return pad[0];
	return recurse_forever(depth + 1) + pad[0];
}

static void (*emit_saved)(void *ctx, const char *line);

/* Half the line on the wire, then a fault, the records lock held. */
static void emit_cut(void *ctx, const char *line)
{
	(void)ctx;
	records.emit = emit_saved;	/* the end's records go out whole */
	console_write(line, strlen(line) / 2);
	__asm__ volatile("ud2");
}

void crash_cut_record(void)
{
	emit_saved = records.emit;
	records.emit = emit_cut;
	wd_rec_hang(&records, "run", "crash", this_cpu()->cpu, NULL, "",
		    "crash=cut-record: a fault in the middle of this record");
}

/* The line the deaf CPU writes across the takeover: its second half
 * must never reach the wire. */
static const char deaf_first[] =
	"hugezero: crash=deaf-writer: this CPU missed the stop; from here";
static const char deaf_rest[] =
	" DROPPED: written after the takeover\n";

static void deaf_writer(void *arg)
{
	u64 second = timebase.tsc_hz;

	smp_stop_deafen();
	__atomic_store_n((volatile u32 *)arg, 1, __ATOMIC_RELEASE);
	/* Bounded: the ender's NMI comes when the run ends (soon after). */
	while (!smp_stop_missed())
		cpu_relax();
	console_write_across_takeover(deaf_first, deaf_rest, 2 * second);
	for (;;) {
		u64 end = rdtsc() + second / 1000;

		printk("hugezero: crash=deaf-writer: cpu %u still writes "
		       "(to be dropped)\n", this_cpu()->cpu);
		while (rdtsc() < end)
			cpu_relax();
	}
}

/*
 * crash=@name's set-up: @fn on the first AP that takes it, which says so
 * in *@ready within the answer bound (bounded: with deadline_s=0 nothing
 * else would end the wait).  That CPU, or ~0u, said, when no AP is up or
 * it does not answer (it did not @what).
 */
u32 crash_on_ap(const char *name, void (*fn)(void *), void *arg,
		const volatile u32 *ready, const char *what)
{
	for (u32 cpu = 1; cpu < smp.ncpus; cpu++) {
		if (!on_cpu(cpu, fn, arg))
			continue;
		if (smp_answered(cpu, ready, what))
			return cpu;
		printk("hugezero: crash=%s not set up: cpu %u did not answer\n",
		       name, cpu);
		return ~0u;
	}
	printk("hugezero: crash=%s needs a second CPU up\n", name);
	return ~0u;
}

/* False when it could not be set up (crash_on_ap()). */
bool crash_deaf_writer(void)
{
	static volatile u32 ready;
	u32 cpu = crash_on_ap("deaf-writer", deaf_writer, (void *)&ready,
			      &ready, "deafen itself to the stop");

	if (cpu == ~0u)
		return false;
	printk("hugezero: crash=deaf-writer: cpu %u will miss the stop's NMI "
	       "and write across the takeover\n", cpu);
	return true;
}

/*
 * crash=stream-writer: the first AP writes 4 KiB lines back to back while
 * this CPU ends the run as usual: the stop's NMI finds it in the middle
 * of one, and the ending CPU's records must start on a line of their own.
 */
static char stream_line[4096];

static void stream_writer(void *arg)
{
	__atomic_store_n((volatile u32 *)arg, 1, __ATOMIC_RELEASE);
	for (;;)
		console_write(stream_line, sizeof(stream_line));
}

/* False as crash_deaf_writer(). */
bool crash_stream_writer(void)
{
	static volatile u32 ready;
	static const char head[] = "hugezero: crash=stream-writer: ";

	memset(stream_line, 'x', sizeof(stream_line));
	memcpy(stream_line, head, sizeof(head) - 1);
	stream_line[sizeof(stream_line) - 1] = '\n';
	return crash_on_ap("stream-writer", stream_writer, (void *)&ready,
			   &ready, "start writing") != ~0u;
}
