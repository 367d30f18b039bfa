// SPDX-License-Identifier: GPL-2.0-only
/*
 * GS base for the companion: the per-CPU words clear.asm's return thunks
 * use (arch/x86_64/clear.h: the call depth at +8, rethunk_count='s returns
 * at +16), laid out as the kernel's struct percpu begins.  x86-64 glibc
 * uses FS for its thread pointer and leaves GS alone; set once in the
 * process before any primitive runs, and inherited across fork(), each
 * child keeping its own copy as it keeps the rest of its memory.
 */
#include <asm/prctl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "arch/x86_64/clear.h"
#include "hosted/companion.h"

struct gs_area {
	struct gs_area *self;		/* +0, as the kernel's */
	u64 call_depth;			/* +GS_CALL_DEPTH */
	u64 rethunk_returns;		/* +GS_RETHUNK_RETURNS */
};

_Static_assert(__builtin_offsetof(struct gs_area, call_depth) == GS_CALL_DEPTH,
	       "clear.asm RT_DEPTH_OFF");
_Static_assert(__builtin_offsetof(struct gs_area, rethunk_returns) ==
	       GS_RETHUNK_RETURNS, "clear.asm RT_COUNT_OFF");

static struct gs_area area;
static char gs_why[96] = "GS base not set up";

const char *gs_setup(void)
{
	area = (struct gs_area){ &area, CALL_DEPTH_RESET, 0 };
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, (unsigned long)&area)) {
		snprintf(gs_why, sizeof(gs_why), "arch_prctl(ARCH_SET_GS): %s",
			 strerror(errno));
		return gs_why;
	}
	gs_why[0] = '\0';
	return NULL;
}

const char *gs_missing(void)
{
	return gs_why[0] ? gs_why : NULL;
}
