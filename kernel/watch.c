// SPDX-License-Identifier: GPL-2.0-only
#include "kernel/watch.h"

static watch_fn watch;

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
