// SPDX-License-Identifier: GPL-2.0-only
/*
 * hugezero's C entry: bring the machine up layer by layer, run what the
 * command line asks for, report, and end the run the way it asks.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpu_setup.h"
#include "arch/x86_64/pmu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/reset.h"
#include "arch/x86_64/rethunk.h"
#include "arch/x86_64/simd.h"
#include "kernel/acpi.h"
#include "kernel/boost.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/cpulog.h"
#include "arch/x86_64/tsc.h"
#include "kernel/inventory.h"
#include "kernel/main.h"
#include "lib/version.h"
#include "kernel/mm/memory.h"
#include "kernel/bench/bench.h"
#include "kernel/bench/preset.h"
#include "kernel/report.h"
#include "kernel/selftest/selftest.h"
#include "kernel/sched/sched.h"
#include "kernel/smp/smp.h"
#include "kernel/time/timer.h"
#include "kernel/time/deadline.h"
#include "kernel/time/watchdog.h"
#include "kernel/timebase.h"
#include "lib/format.h"

/* Linux waits 10 s for an AP's callin; one that takes 2 s is broken. */
#define AP_TIMEOUT_MS 2000

struct hz_config config;
struct cmdline_result cmdline_result;
bool cmdline_ok;

/*
 * The one CPU that ends the run: any other that gets here (a fatal error
 * on an AP while the deadline ends the run) stops where it is, and the
 * ender stops it anyway.  The others are halted by NMI and the console
 * is taken over before anything is written, so nothing on the way out
 * waits on a lock that a stopped CPU, or this CPU's interrupted self,
 * holds -- Linux's panic(): smp_send_stop() / crash_smp_send_stop(),
 * then the consoles flushed by the panic CPU alone.
 */
static char unstopped[128];	/* the CPUs that did not stop, a cpulist */

static void take_over(void)
{
	static volatile u32 ending;
	char *who = unstopped;
	u32 asked, missing;

	irq_disable();		/* as panic(): nothing nests in the ending */
	/* First: a watchdog NMI on this CPU from here on finds the run
	 * ending (deadline_hung()) and leaves it to us. */
	smp_ending = true;
	if (__atomic_exchange_n(&ending, 1, __ATOMIC_ACQ_REL)) {
		smp_aborted = true;
		machine_halt();
	}
	smp_stop_claim();	/* its own NMIs swallowed by the stop's handler */
	smp_aborted = true;
	missing = smp_stop_others(timebase.tsc_hz ? timebase.tsc_hz : 1ULL << 32,
				  &asked, who, sizeof(unstopped));
	/* A writer that missed the stop leaves at its next byte; 100 ms
	 * leaves room for a slow UART (a byte at 1200 baud is 8 ms) and a
	 * descheduled vCPU. */
	console_takeover(smp_cpu_stopped, timebase.tsc_hz ?
			 timebase.tsc_hz / 10 : 1ULL << 28);
	if (this_cpu()->cpu)
		printk("hugezero: cpu %u ends the run\n", this_cpu()->cpu);
	if (missing)
		printk("hugezero: %u of %u other CPUs did not stop within a "
		       "second of their NMI (cpus %s); their output is dropped\n",
		       missing, asked, who);
}

static __noreturn void finish_taken(int rc)
{
	u64 bytes, n = console_dropped(&bytes);

	if (n)
		printk("hugezero: console: %llu writes (%llu bytes) of other "
		       "CPUs dropped after the takeover\n",
		       (unsigned long long)n,
		       (unsigned long long)bytes);
	report_end();
	printk("hugezero: done rc=%d\n", rc);
	console_flush();
	switch (config.exit) {
	case EXIT_AUTO:
		if (running_under_qemu())
			qemu_debug_exit((u8)rc);
		break;
	case EXIT_QEMU:
		qemu_debug_exit((u8)rc);
		break;
	case EXIT_REBOOT:
		machine_reboot(acpi.has_reset ? &acpi.reset_reg : NULL,
			       acpi.reset_value);
	}
	/* No debug-exit device answered, or halt was asked for. */
	machine_halt();
}

/* A CPU that did not stop may still write or touch memory: a run that
 * would pass does not (rc 1, RC_FAIL). */
__noreturn void finish(int rc)
{
	take_over();
	if (unstopped[0] && rc == RC_PASS) {
		printk("hugezero: verdict: cpus %s did not stop at the end of "
		       "the run: it fails\n", unstopped);
		rc = RC_FAIL;
	}
	finish_taken(rc);
}

/* A processor the SRAT does not list is node 0, as Linux's default. */
static u32 node_of_apic(u32 apic_id)
{
	u32 n = srat_node_of_apic(&acpi.srat, apic_id);

	return n == NUMA_NO_NODE ? 0 : n;
}

static struct ktap *run_ktap;

/* deadline_s= passed: say what was running, end as exit= says. */
static void deadline_expired(void)
{
	char why[280];
	const char *by;
	u32 culprit;
	struct cpu_set busy;

	take_over();
	deadline_why(why, sizeof(why));
	selftest_abort_current();
	if (run_ktap) {
		ktap_diag(run_ktap, "%s", why);
		ktap_abort(run_ktap, "deadline");
	}
	printk("hugezero: %s; stopping the run\n", why);
	deadline_ended_by(&by, &culprit, &busy);
	wd_rec_hang(&records, watchdog_phase_name(), by, culprit, &busy,
		    unstopped, why);
	finish_taken(RC_DEADLINE);
}

static void fatal_hook(void)
{
	selftest_abort_current();
	printk("hugezero: fatal: unexpected exception; stopping the run\n");
	finish_taken(RC_FATAL);
}

static void print_cmdline(void)
{
	const struct cmdline_result *r = &cmdline_result;

	printk("hugezero: cmdline '%s'%s\n", boot_info.cmdline,
	       boot_info.cmdline_truncated ? " (truncated!)" : "");
	for (u32 i = 0; i < MIN(r->nerrors, (u32)CMDLINE_MAX_ERRORS); i++)
		printk("hugezero: cmdline error: %s\n", r->errors[i]);
	if (r->nerrors > CMDLINE_MAX_ERRORS)
		printk("hugezero: cmdline: %u more errors\n",
		       r->nerrors - CMDLINE_MAX_ERRORS);
	for (u32 i = 0; i < MIN(r->nnotes, (u32)CMDLINE_MAX_ERRORS); i++)
		printk("hugezero: cmdline note: %s\n", r->notes[i]);
	for (u32 i = 0; i < MIN(boot_info.nerrors, (u32)BOOT_ERRORS_MAX); i++)
		printk("hugezero: %s\n", boot_info.errors[i]);
}

static void print_machine(void)
{
	const struct cpu_info *c = &cpu_info;

	char ucode[24] = "n/a";

	if (c->microcode != ~0ULL)
		ksnprintf(ucode, sizeof(ucode), "%#llx",
			  (unsigned long long)c->microcode);
	printk("machine: cpu '%s' vendor %s family %#x model %#x stepping %u "
	       "microcode %s\n", c->brand, c->vendor, c->family, c->model,
	       c->stepping, ucode);
	printk("machine: hypervisor '%s' phys_bits %u pdpe1gb %d erms %d fsrm "
	       "%d avx2 %d avx512f %d clzero %d invariant_tsc %d\n",
	       c->hypervisor[0] ? c->hypervisor : "none", c->phys_bits,
	       c->has_pdpe1gb, c->has_erms, c->has_fsrm, c->has_avx2,
	       c->has_avx512f, c->has_clzero, c->has_invariant_tsc);
}

/*
 * A memory map longer than hugezero keeps ends the boot before any of it
 * is used: read in part, the frames and the run would be silently fewer
 * (memmap_keep= lowers the limit, for the tests).
 */
static void memory_whole(void)
{
	const struct boot_info *b = &boot_info;
	u32 keep = config.memmap_keep ? (u32)config.memmap_keep :
		   MEMMAP_MAX_INPUT;
	u32 given = b->efi_given ? b->efi_given : b->bios_given;

	if (given > keep)
		printk("hugezero: FATAL: memory: the %s memory map has %u "
		       "entries, more than the %u hugezero keeps "
		       "(MEMMAP_MAX_INPUT, docs/hardware.md): the boot ends\n",
		       memory.source, given, keep);
	else if (memory.nmap_needed > keep)
		printk("hugezero: FATAL: memory: the %s memory map has %u "
		       "ranges once overlaps are resolved, more than the %u "
		       "hugezero keeps (MEMMAP_MAX, docs/hardware.md): the "
		       "boot ends\n", memory.source, memory.nmap_needed, keep);
	else
		return;
	finish(RC_FATAL);
}

static void print_memory(void)
{
	const struct memory *m = &memory;

	for (u32 i = 0; i < m->nmap; i++)
		printk("mem: [0x%012llx, 0x%012llx) %s\n",
		       (unsigned long long)m->map[i].start,
		       (unsigned long long)m->map[i].end,
		       mem_type_name(m->map[i].type));
	printk("mem: source %s, RAM %llu MiB, free %llu MiB, kernel at "
	       "%#llx-%#llx (load displacement %#llx)\n", m->source,
	       (unsigned long long)(m->ram_bytes >> 20),
	       (unsigned long long)(m->usable_bytes >> 20),
	       (unsigned long long)m->kernel_start,
	       (unsigned long long)m->kernel_end,
	       (unsigned long long)load_delta);
}

/* Brought up masked and disarmed: nothing interrupts a run that does
 * not ask for a tick or a timer. */
static void init_timer(u32 cpu)
{
	const struct lapic_info *a;
	char why[96];

	if (!timer_init_cpu(cpu, why, sizeof(why))) {
		printk("apic: unusable: %s; no timer interrupts\n", why);
		return;
	}
	a = timer_apic(cpu);
	printk("apic: %s id %u, timer %s (%llu Hz)\n",
	       a->x2apic ? "x2apic" : "xapic", a->id,
	       a->tsc_deadline ? "tsc-deadline" : "one-shot",
	       (unsigned long long)a->timer_hz);
}

static volatile u32 console_held;

static void hold_console(void *arg)
{
	(void)arg;
	console_hold_forever(&console_held);
}

/*
 * crash=hold-console: the first AP takes the console lock for good and
 * this CPU then writes, queued behind it: only the deadline ends that.
 * False when there is no AP to do it, or it does not take the lock
 * within SMP_ANSWER_MS (bounded: deadline_s=0 would never end it).
 */
static bool hold_console_elsewhere(void)
{
	u32 cpu = crash_on_ap("hold-console", hold_console, NULL,
			      &console_held, "take the console lock");

	if (cpu == ~0u)
		return false;
	/* Never printed: only the deadline's takeover ends the wait. */
	printk("hugezero: cpu %u holds the console lock; this line waits for "
	       "the console\n", cpu);
	return true;
}

/* False when the crash asked for cannot be made here. */
static bool crash_on_purpose(u32 how)
{
	volatile u64 zero = 0;

	printk("hugezero: crash=%s requested: raising it now\n",
	       crash_names[how]);
	switch (how) {
	case CRASH_PF:
		(void)*(volatile u64 *)0xdead0000ULL;
		break;
	case CRASH_UD:
		__asm__ volatile("ud2");
		break;
	case CRASH_GP:
		(void)*(volatile u64 *)0x8000000000000000ULL;
		break;
	case CRASH_DE:
		printk("%llu\n", (unsigned long long)(1 / zero));
		break;
	case CRASH_STACK:
		recurse_forever(0);
		break;
	case CRASH_HANG:
		/* For testing the harness's timeout: never say done. */
		machine_halt();
	case CRASH_HANG_IRQ:
		/* Stuck with interrupts on: what deadline_s= catches. */
		irq_enable();
		for (;;)
			cpu_relax();
	case CRASH_HOLD_CONSOLE:
		return hold_console_elsewhere();
	case CRASH_CUT_RECORD:
		crash_cut_record();
		break;
	case CRASH_DEAF_WRITER:
		return crash_deaf_writer();
	case CRASH_STREAM_WRITER:
		return crash_stream_writer();
	}
	return true;
}

/* hang_cpu= with hang_at=bench: every CPU named must run the workload,
 * or nothing the test expects would hang. */
static bool hang_cpus_ok(struct ktap *k)
{
	const struct cpu_set *h = &config.hang_cpu;
	char list[64];

	if (config.hang_at != HANG_AT_BENCH || !cpu_set_count(h, CPUSET_MAX))
		return true;
	for (u32 cpu = 0; cpu < CPUSET_MAX && !h->all; cpu++) {
		if (!cpu_set_has(h, cpu) ||
		    (smp_is_up(cpu) && cpu_set_has(&config.cpus, cpu)))
			continue;
		cpulist_format(h, list, sizeof(list));
		ktap_subtest_start(k, "fault", 0);
		ktap_diag(k, "benchmark not run: hang_cpu=%s names cpu %u, not "
			  "a CPU of cpus= that is up, so nothing would hang",
			  list, cpu);
		ktap_subtest_end(k, "fault", KTAP_FAIL);
		k->fail++;
		return false;
	}
	return true;
}

static void run_bench(struct ktap *k)
{
	if (!cmdline_ok) {
		/* Half-applied keys would give numbers nobody asked for. */
		ktap_subtest_start(k, "fault", 0);
		ktap_diag(k, "benchmark not run: the command line has errors");
		ktap_subtest_end(k, "fault", KTAP_FAIL);
		k->fail++;
		return;
	}
	if (!hang_cpus_ok(k))
		return;
	if (!preset_apply(&config, &cmdline_result)) {
		ktap_subtest_start(k, "fault", 0);
		ktap_diag(k, "benchmark not run: the preset does not fit here");
		ktap_subtest_end(k, "fault", KTAP_FAIL);
		k->fail++;
		return;
	}
	/* After the preset, which may ask for it (seed-001: boost=off). */
	boost_apply(&config);
	bench_run(k, &config);
}

/* What the counters are on the boot CPU (pmu=, docs/hardware.md), and
 * the MSR accesses that found it out (the vendor's detection path). */
static void pmu_report(void)
{
	static const char *const vendor[] = {
		[PMU_VENDOR_NONE] = "none", [PMU_VENDOR_INTEL] = "intel",
		[PMU_VENDOR_AMD] = "amd",
	};
	struct msr_trace t = { 0 };
	struct pmu_caps c;
	char what[192];

	pmu_caps_read_traced(&c, &t);
	if (c.none)
		printk("pmu: none (%s)\n", c.none);
	else
		printk("pmu: %s version %u, %u general counters of %u bits, "
		       "fixed %#x of %u bits\n",
		       c.vendor == PMU_VENDOR_INTEL ? "intel" : "amd",
		       c.version, c.ngeneral, c.general_width, c.fixed_mask,
		       c.fixed_width);
	if (c.fw.mask)
		printk("pmu: WARNING: the firmware left counters %#llx enabled "
		       "(MSR %#x was %#llx); counted over, as Linux does after "
		       "\"Broken BIOS detected\"\n",
		       (unsigned long long)c.fw.mask, c.fw.msr,
		       (unsigned long long)c.fw.val);
	if (c.none)
		ksnprintf(what, sizeof(what), "%s: none (%s)",
			  vendor[c.vendor], c.none);
	else
		ksnprintf(what, sizeof(what), "%s: version %u, %u general "
			  "counters", vendor[c.vendor], c.version, c.ngeneral);
	cpulog_msr("pmu", &t, what);
}

void kmain(u32 magic, u64 mbi, u64 delta)
{
	struct cpu_setup setup;
	struct msr_trace ucode_msrs = { 0 };
	char ucode[64];
	struct ktap *k;
	int rc;

	load_delta = delta;
	console_early_init();
	percpu_init_bsp();
	trap_set_fatal_hooks(take_over, fatal_hook);
	bootinfo_parse(magic, mbi);
	config_defaults(&config);
	cmdline_ok = config_parse(boot_info.cmdline, &config, &cmdline_result);
	cmdline_ok &= config_check_target(&config, &cmdline_result, false);
	console_init(&config.console);
	msr_gp_inject(config.msr_gp, config.nmsr_gp);
	printk("\nhugezero %s: loader '%s', %s boot\n", HUGEZERO_VERSION,
	       boot_info.loader, boot_info.efi64 ? "UEFI" : "BIOS");
	print_cmdline();
	cpuid_init();
	rethunk_setup(&config);
	/* clear_page()'s choice reads fast strings as early_init_intel() */
	prim_linux_reader(cpu_misc_enable_read);
	cpuid_read_microcode(&ucode_msrs, ucode, sizeof(ucode));
	print_machine();
	cpulog_cpuid();
	memory_init();
	memory_whole();
	print_memory();
	paging_init(memory.map, memory.nmap, delta, frame_alloc_table);
	simd_init();
	fpu_init();
	sched_tree_slots();
	printk("fpu: %s, %u-byte area\n", fpu_insn_names[fpu_current()],
	       fpu_area_size());
	cpu_setup(&setup);
	printk("cpu: lfence %s; PAT %s\n", setup.lfence, setup.pat);
	if (config.nmsr_gp)
		printk("hugezero: msr_gp: %u MSRs made to fault on purpose "
		       "(test-only)\n", config.nmsr_gp);
	cpulog_msr("lfence", &setup.lfence_msrs, setup.lfence);
	cpulog_msr("microcode", &ucode_msrs, ucode);
	cpulog_msr("misc_enable", &setup.misc_enable_msrs, setup.misc_enable);
	if (!setup.pat_ok)
		printk("hugezero: WARNING: firmware's PAT does not map index 0 "
		       "write-back: every folio mapping is then not write-back "
		       "and its numbers are not comparable\n");
	pmu_report();
	acpi_init();
	console_auto(acpi.has_spcr ? &acpi.spcr : NULL, acpi.spcr_absent);
	if (acpi.has_srat)
		memory_set_nodes(acpi.srat.mem, acpi.srat.nmem);
	timebase_init(config.calib_ms, config.tsc_tolerance_ppm);
	init_timer(this_cpu()->cpu);
	/* The records a hang's own would follow, written before anything
	 * can hang. */
	report_init();
	report_context();
	deadline_init(deadline_expired);
	/* The watchdog's progress bound outlasts the waits it does not see. */
	if (config.answer_ms)
		smp_answer_ms = (u32)config.answer_ms;
	watchdog_start(config.watchdog, timebase.tsc_hz, this_cpu()->apic_id,
		       acpi.hpet_base,
		       wd_stall_s(MAX(smp_answer_ms, AP_TIMEOUT_MS)));
	watchdog_record(&records);
	smp_set_hang(config.hang_at, &config.hang_cpu);
	smp_set_work_fail((u32)config.work_fail);
	watchdog_phase(WD_BRINGUP);
	smp_init(acpi.has_madt ? &acpi.madt : NULL,
		 acpi.has_srat ? node_of_apic : NULL, AP_TIMEOUT_MS,
		 (u32)config.ap_fail);
	watchdog_touch(~0u);			/* every AP started */
	smp_hang_point(HANG_AT_BRINGUP);	/* the boot CPU's */
	watchdog_phase(WD_TSC_SYNC);
	smp_tsc_sync(timebase.tsc_hz, config.tsc_skew_ns);
	/* Still bound by progress until the deadline is set: the cpu
	 * records (each a touch) and deadline_start()'s own waits. */
	smp_report(&records, acpi.has_srat ? acpi.srat.nnodes : 1,
		   acpi.has_srat && acpi.srat.has_slit);
	k = ktap_console_start((config.selftest ? selftest_suites() : 0) +
			       bench_kinds[config.bench].ktap_case);
	run_ktap = k;
	deadline_start(config.deadline_s, timebase.tsc_hz);
	watchdog_phase(WD_RUN);
	if (config.selftest)
		selftest_run(k);
	else
		ktap_diag(k, "self-tests off (selftest=off)");
	if (config.bench == BENCH_FAULT)
		run_bench(k);
	else if (cmdline_ok && (config.bench == BENCH_INFO ||
				config.boost != BOOST_FIRMWARE))
		boost_apply(&config);	/* recorded in the inventory too */
	if (config.bench == BENCH_INFO) {
		/* The inventory: records, one KTAP case that they were written. */
		inventory_report(&records);
		ktap_result(k, KTAP_OK, "info", NULL);
	}
	rc = (k->fail || !cmdline_ok) ? RC_FAIL : RC_PASS;
	if (config.crash != CRASH_NONE && !crash_on_purpose(config.crash))
		rc = RC_FAIL;
	printk("hugezero: %u passed, %u failed, %u skipped\n", k->pass, k->fail,
	       k->skip);
	finish(rc);
}
