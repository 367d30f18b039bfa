// SPDX-License-Identifier: GPL-2.0-only
#include "lib/string.h"
#include "lib/watchdog.h"

const char *const wd_phase_names[WD_NPHASES] = {
	[WD_BOOT] = "boot", [WD_BRINGUP] = "bringup",
	[WD_TSC_SYNC] = "tsc-sync", [WD_RUN] = "run",
};

u32 wd_stall_s(u32 answer_ms)
{
	return (answer_ms + 999) / 1000 + WD_STALL_MARGIN_S;
}

void wd_init(struct wd_state *s, u64 tsc_hz, u64 now, u32 stall_s)
{
	s->phase = WD_BOOT;
	s->touched = now;
	s->stall = tsc_hz * stall_s;
	s->stall_s = stall_s;
	s->deadline = 0;
	s->waiting_on = ~0u;
}

void wd_enter(struct wd_state *s, enum wd_phase phase, u64 now)
{
	s->phase = phase;
	s->waiting_on = ~0u;
	__atomic_store_n(&s->touched, now, __ATOMIC_RELEASE);
}

void wd_touch(struct wd_state *s, u32 waiting_on, u64 now)
{
	s->waiting_on = waiting_on;
	__atomic_store_n(&s->touched, now, __ATOMIC_RELEASE);
}

static bool bounded_by_progress(enum wd_phase p)
{
	return p == WD_BOOT || p == WD_BRINGUP || p == WD_TSC_SYNC;
}

enum wd_verdict wd_check(const struct wd_state *s, u64 now)
{
	u64 touched = __atomic_load_n(&s->touched, __ATOMIC_ACQUIRE);

	if (bounded_by_progress(s->phase) && s->stall && now > touched &&
	    now - touched > s->stall)
		return WD_STALLED;
	if (s->phase == WD_RUN && s->deadline && now > s->deadline)
		return WD_PAST_DEADLINE;
	return WD_FINE;
}

enum wd_hearing wd_hear(u64 ticks, u64 now, u64 start, u64 tsc_hz)
{
	u64 per_ms = tsc_hz / 1000 ? tsc_hz / 1000 : 1;
	u64 ms = now > start ? (now - start) / per_ms : 0;

	if (ticks >= WD_HEAR_TICKS)
		return WD_HEARD;
	if (ms < WD_HEAR_MS)
		return WD_HEARING;
	return ticks && ms < WD_HEAR_SLOW_MS ? WD_HEARING : WD_DEAF;
}

bool wd_hpet_armed(u32 cmp, u32 now, u32 period)
{
	u32 ahead = cmp - now;

	return ahead && ahead <= period;
}

void wd_rec_source(struct rec_writer *w, const struct wd_source *src)
{
	struct rec r;

	rec_begin(w, &r, "watchdog");
	rec_str(&r, "source", src->name);
	rec_str(&r, "why", src->why);
	if (src->pmu_why[0] && strcmp(src->pmu_why, src->why))
		rec_str(&r, "pmu_why", src->pmu_why);
	if (src->hpet_why[0] && strcmp(src->hpet_why, src->why))
		rec_str(&r, "hpet_why", src->hpet_why);
	if (src->period_us) {
		if (src->pin != WD_NO_PIN)
			rec_u64(&r, "gsi", src->pin);
		rec_u64(&r, "period_us", src->period_us);
	}
	rec_u64(&r, "stall_s", src->stall_s);
	rec_end(w, &r);
}

/* @s as a cpulist cut after its last whole entry that fits a record's
 * list ("none" when empty); @nkey says how many it has in all. */
static void rec_cpus(struct rec *r, const char *key, const char *nkey,
		     const struct cpu_set *s)
{
	char list[CPULIST_TEXT_MAX + 1];
	u32 n = cpu_set_count(s, CPUSET_MAX);

	if ((size_t)cpulist_format(s, list, sizeof(list)) >= sizeof(list)) {
		char *cut = list;

		for (char *c = list; (c = strchr(c, ',')); c++)
			cut = c;
		*cut = '\0';
	}
	rec_str(r, key, n ? list : "none");
	rec_u64(r, nkey, n);
}

void wd_rec_hang(struct rec_writer *w, const char *phase, const char *by,
		 u32 cpu, const struct cpu_set *busy, const char *unstopped,
		 const char *why)
{
	struct rec r;

	rec_begin(w, &r, "hang");
	rec_str(&r, "phase", phase);
	rec_str(&r, "by", by);
	if (cpu != ~0u)
		rec_u64(&r, "cpu", cpu);
	if (busy)
		rec_cpus(&r, "busy", "nbusy", busy);
	rec_str(&r, "unstopped", unstopped[0] ? unstopped : "none");
	rec_str(&r, "why", why);
	rec_end(w, &r);
}
