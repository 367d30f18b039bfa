// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records that describe the machine and the boot, written once per
 * boot before any result, and the closing count.
 */
#include "arch/x86_64/cache.h"
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/rethunk.h"
#include "arch/x86_64/spinlock.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/mm/memory.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
#include "kernel/watch.h"
#include "lib/benchrec.h"
#include "lib/format.h"
#include "lib/string.h"

struct rec_writer records;

static void emit(void *ctx, const char *line)
{
	(void)ctx;
	console_write(line, strlen(line));
}

/*
 * A CPU that faults while it holds the lock comes back through its fatal
 * path (report_end()): it goes on rather than wait for itself, as the
 * console does.  Once a CPU has taken the console over to end the run,
 * the lock is not taken at all (console_takeover()).
 */
static struct watched_lock rl __cacheline_aligned = WATCHED_LOCK_INIT;

static bool records_lock_take(void *ctx)
{
	u64 flags = read_rflags();
	u32 me = this_cpu()->cpu, owner = console_owner();

	(void)ctx;
	irq_disable();
	if (rl.holder == me) {
		rl.depth++;
		return true;
	}
	/* After a takeover the lock may be a stopped CPU's for good: the
	 * owner writes without it; another CPU's record (one that missed
	 * the stop) is dropped before it takes a number. */
	if (owner != ~0u) {
		if (owner == me)
			return true;
		if (flags & RFLAGS_IF)
			irq_enable();
		return false;
	}
	spin_lock_watched(&rl.lock, &rl.holder,
			  "for the records lock");
	rl.holder = me;
	rl.depth = 1;
	rl.flags = flags;
	return true;
}

static void records_lock_drop(void *ctx)
{
	(void)ctx;
	if (rl.holder != this_cpu()->cpu)
		return;		/* taken over: there was no lock to drop */
	if (--rl.depth)
		return;
	rl.holder = ~0u;
	spin_unlock_irqrestore(&rl.lock, rl.flags);
}

void report_init(void)
{
	rec_writer_init(&records, emit, NULL);
	records.lock = records_lock_take;
	records.unlock = records_lock_drop;
}

/* "name:value,..." of the usable estimates, by @what (0 Hz, 1 retries),
 * or the outliers' names (2). */
static void estimates(const struct timebase *t, int what, char *buf, size_t n)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (u32 i = 0; i < t->nest && pos < n; i++) {
		const struct tb_estimate *e = &t->est[i];

		if (!e->usable || (what == 2 && !e->outlier))
			continue;
		if (what == 2)
			pos += (size_t)ksnprintf(buf + pos, n - pos, "%s%s",
						 pos ? "," : "", e->name);
		else
			pos += (size_t)ksnprintf(buf + pos, n - pos, "%s%s:%llu",
						 pos ? "," : "", e->name,
						 (unsigned long long)(what ? e->retries
									   : e->tsc_hz));
	}
}

void report_context(void)
{
	const struct cpu_info *c = &cpu_info;
	const struct timebase *t = &timebase;
	char feat[160], refs[200], retries[120], outliers[80], why[320];
	u32 fs = FAST_STRINGS_NA;
	enum prim_id lp = prim_linux_read(why, sizeof(why), &fs);
	struct machine_id m = {
		c->vendor, c->brand, c->hypervisor, feat, c->family, c->model,
		c->stepping, c->phys_bits, c->cache_line, c->microcode, c->l1d,
		c->l2, c->l3, memory.ram_bytes,
		rethunk_names[rethunk_choice.linux_kind], rethunk_choice.why,
		fast_strings_names[fs], prim_names[lp], why,
	};
	struct timebase_id tb = {
		t->tsc_hz, t->source, refs, t->invariant,
		t->max_disagreement_ppm, t->overhead_min, t->overhead_median,
		retries, outliers, t->consensus_ppm,
	};

	bench_rec_boot(&records, boot_info.loader,
		       boot_info.efi64 ? "uefi" : "bios", boot_info.cmdline);
	cpuid_features(feat, sizeof(feat));
	bench_rec_machine(&records, &m);
	estimates(t, 0, refs, sizeof(refs));
	estimates(t, 1, retries, sizeof(retries));
	estimates(t, 2, outliers, sizeof(outliers));
	bench_rec_timebase(&records, &tb);
}

void report_end(void)
{
	/* A boot ended before report_init() (a firmware table past a
	 * limit, no memory for one) has no writer yet, and no records. */
	if (records.emit)
		bench_rec_end(&records);
}
