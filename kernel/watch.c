// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/watch.h"

static watch_fn watch;
static u64 due[2] = { ~0ull, ~0ull };

void watch_set(watch_fn fn)
{
	__atomic_store_n(&watch, fn, __ATOMIC_RELEASE);
}

void watch_call(u32 culprit, const char *waiting, enum watch_kind kind)
{
	watch_fn fn = __atomic_load_n(&watch, __ATOMIC_ACQUIRE);

	if (fn)
		fn(culprit, waiting, kind);
}

void watch_set_due(u64 precise, u64 loose)
{
	__atomic_store_n(&due[WATCH_PRECISE], precise, __ATOMIC_RELAXED);
	__atomic_store_n(&due[WATCH_LOOSE], loose, __ATOMIC_RELAXED);
}

u64 watch_due(enum watch_kind kind)
{
	return __atomic_load_n(&due[kind], __ATOMIC_RELAXED);
}
