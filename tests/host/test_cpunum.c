// SPDX-License-Identifier: GPL-2.0-only
/*
 * Logical CPU numbers from the MADT (lib/cpunum): the boot CPU first,
 * listed or not; storage of exactly the room cpunum_walk() promises
 * (m->ncpus + 1, from malloc: ASan catches a write past it), at 1024
 * processors with the boot CPU absent, present, and beyond max_cpus.
 */
#include <stdlib.h>
#include "lib/cpunum.h"
#include "lib/string.h"
#include "tests/host/unit.h"

struct table {
	struct cpunum *e;
	u32 n, room;
};

static void store(void *ctx, const struct cpunum *n)
{
	struct table *t = ctx;

	if (t->n < t->room)
		t->e[t->n] = *n;
	t->n++;
}

/* @n processors, APIC IDs 2i + 2 (so 0 is nobody's), every 5th disabled. */
static void make(struct madt *m, u32 n)
{
	memset(m, 0, sizeof(*m));
	m->cpu = calloc(n, sizeof(*m->cpu));
	m->cap = m->ncpus = n;
	for (u32 i = 0; i < n; i++) {
		m->cpu[i].apic_id = 2 * i + 2;
		m->cpu[i].uid = i;
		m->cpu[i].enabled = i % 5 != 4;
		m->cpu[i].online_capable = i == 9;
		m->nenabled += m->cpu[i].enabled;
	}
}

static u32 walk(const struct madt *m, u32 bsp, u32 max, struct table *t,
		u32 *ncpus)
{
	u32 got;

	t->room = (m ? m->ncpus : 0) + 1;
	t->e = malloc(t->room * sizeof(*t->e));
	t->n = 0;
	got = cpunum_walk(m, bsp, max, store, t, ncpus);
	EXPECT(t->n <= t->room, "%u entries for room %u", t->n, t->room);
	EXPECT_EQ(got, t->n);
	return got;
}

TEST(cpunum_boot_cpu_absent_from_1024)
{
	struct madt m;
	struct table t;
	u32 ncpus;

	make(&m, 1024);
	EXPECT_EQ(walk(&m, 0, 2048, &t, &ncpus), 1025);
	EXPECT(t.e[0].kind == CPUNUM_BOOT && t.e[0].cpu == 0 &&
	       t.e[0].apic_id == 0 && !t.e[0].listed);
	EXPECT_EQ(ncpus, 1 + 1024 - 1024 / 5);
	EXPECT(t.e[1].kind == CPUNUM_CPU && t.e[1].cpu == 1 &&
	       t.e[1].apic_id == 2);
	EXPECT(t.e[5].kind == CPUNUM_DISABLED && t.e[5].cpu == ~0u);
	EXPECT(t.e[10].kind == CPUNUM_DISABLED && t.e[10].online_capable);
	EXPECT_EQ(t.e[1024].apic_id, 2048);
	free(t.e);
	free(m.cpu);
}

TEST(cpunum_boot_cpu_listed_and_max)
{
	struct madt m;
	struct table t;
	u32 ncpus, enabled = 0;

	make(&m, 1024);
	/* The boot CPU is the MADT's 101st: numbered 0, listed once. */
	EXPECT_EQ(walk(&m, 202, 512, &t, &ncpus), 1024);
	EXPECT(t.e[0].kind == CPUNUM_BOOT && t.e[0].listed && t.e[0].uid == 100);
	for (u32 i = 1; i < t.n; i++) {
		EXPECT(t.e[i].apic_id != 202);
		enabled += t.e[i].kind == CPUNUM_CPU;
		if (t.e[i].kind == CPUNUM_OVER_MAX)
			EXPECT(t.e[i].cpu == ~0u);
	}
	EXPECT_EQ(ncpus, 512);
	EXPECT_EQ(enabled, 511);
	free(t.e);
	free(m.cpu);
}

TEST(cpunum_without_madt)
{
	struct table t;
	u32 ncpus;

	EXPECT_EQ(walk(NULL, 7, 512, &t, &ncpus), 1);
	EXPECT(t.e[0].kind == CPUNUM_BOOT && t.e[0].apic_id == 7);
	EXPECT_EQ(ncpus, 1);
	free(t.e);
}
