/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_WATCHDOG_H
#define LIB_WATCHDOG_H

#include "lib/cpulist.h"
#include "lib/record.h"
#include "lib/types.h"

/*
 * The watchdog's rule, apart from the NMI that asks it (kernel/time/
 * watchdog.c): which phase the boot is in, when it last moved on, and
 * whether a check at TSC time @now finds it hung.  Bring-up and TSC
 * sync are bounded by progress -- each CPU started or synced touches
 * the watchdog, as Linux's touch_nmi_watchdog() -- whatever deadline_s=
 * says, so deadline_s=0 still has a bound there; the run is bounded by
 * the deadline alone (none with deadline_s=0).
 */
enum wd_phase { WD_BOOT, WD_BRINGUP, WD_TSC_SYNC, WD_RUN, WD_NPHASES };

extern const char *const wd_phase_names[WD_NPHASES];

/*
 * Seconds without progress that end bring-up or TSC sync: the longest
 * wait that does not touch the watchdog, rounded up, plus
 * WD_STALL_MARGIN_S, so that a CPU is left out by its own wait before the
 * watchdog ends the boot: wd_stall_s() of the longer of one CPU's answer
 * to one step (smp_answer_ms: 8 s, lower under the test-only answer_ms=)
 * and one AP's start timeout (2 s), 10 s at the real bounds.
 */
#define WD_STALL_MARGIN_S 2

struct wd_state {
	enum wd_phase phase;
	u64 touched;		/* TSC of the last progress */
	u64 stall;		/* ticks without progress that end a bounded phase */
	u32 stall_s;		/* the same in seconds */
	u64 deadline;		/* TSC past which the run is hung; 0: none */
	u32 waiting_on;		/* the CPU the phase waits on; ~0u: none */
};

enum wd_verdict { WD_FINE, WD_STALLED, WD_PAST_DEADLINE };

u32 wd_stall_s(u32 answer_ms);
void wd_init(struct wd_state *s, u64 tsc_hz, u64 now, u32 stall_s);
void wd_enter(struct wd_state *s, enum wd_phase phase, u64 now);
void wd_touch(struct wd_state *s, u32 waiting_on, u64 now);
enum wd_verdict wd_check(const struct wd_state *s, u64 now);

/*
 * Hearing a source before it is taken: started at a millisecond, it is
 * heard once WD_HEAR_TICKS of its NMIs came.  One NMI alone is no
 * source heard: for the HPET and the PIT any NMI counts (an NMI button,
 * a hypervisor's, a source tried before and still firing).  None within
 * WD_HEAR_MS: deaf.  Some but fewer: listened to until WD_HEAR_SLOW_MS,
 * since a host that holds a vCPU off loses a timer's periods (QEMU's
 * PIT and HPET do not catch up; 3 in 50 ms seen on a loaded host).
 * WD_HEAR_MS is long enough that a vCPU held off for tens of
 * milliseconds does not make a live source deaf; only a machine with a
 * deaf source pays it, once.
 * @now and @start are TSC ticks at @tsc_hz.  WD_HEARING while it lasts,
 * then WD_HEARD or WD_DEAF.
 */
#define WD_HEAR_MS	200
#define WD_HEAR_SLOW_MS	500
#define WD_HEAR_TICKS	5

enum wd_hearing { WD_HEARING, WD_HEARD, WD_DEAF };

enum wd_hearing wd_hear(u64 ticks, u64 now, u64 start, u64 tsc_hz);

/*
 * An HPET comparator armed as programmed: its next match @cmp lies
 * within one @period ahead of the main counter @now, modulo 2^32 (the
 * comparator runs in 32-bit mode), as Linux's hpet_clkevt_set_next_event()
 * checks (cmp - counter) after each write.  Behind the counter, or
 * further than a period, it would not fire for a wrap of the counter
 * (minutes at the HPET's rates), or ever.
 */
bool wd_hpet_armed(u32 cmp, u32 now, u32 period);

/* How it is armed: the `watchdog` record (docs/records.md). */
#define WD_NO_PIN	0xffffffffu	/* a source with no I/O APIC input */

struct wd_source {
	const char *name;	/* "pmu", "hpet", "pit", "none" */
	char why[120];		/* how it was routed, or why none */
	char pmu_why[120];	/* why not the PMU, where it was tried */
	char hpet_why[120];	/* why not the HPET, where it was tried */
	u32 pin;		/* the I/O APIC input (GSI), or WD_NO_PIN */
	u64 period_us;
	u32 stall_s;		/* its progress bound (struct wd_state) */
};

void wd_rec_source(struct rec_writer *w, const struct wd_source *src);
/*
 * The `hang` record: a run ended by the deadline or the watchdog.  @busy
 * (NULL: not known), the CPUs still in a pass: `busy`, a list of whole
 * entries that fits a record's cpulist, and `nbusy`, how many they are.
 */
void wd_rec_hang(struct rec_writer *w, const char *phase, const char *by,
		 u32 cpu, const struct cpu_set *busy, const char *unstopped,
		 const char *why);

#endif
