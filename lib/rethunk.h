/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_RETHUNK_H
#define LIB_RETHUNK_H

#include "lib/types.h"

/*
 * rethunk= (docs/hardware.md, "Return thunks"): which of Linux's return
 * thunks (arch/x86/lib/retpoline.S) a primitive's RET goes through, and
 * which one Linux's default mitigation would pick for a CPU
 * (arch/x86/kernel/cpu/bugs.c: retbleed_select_mitigation(),
 * srso_select_mitigation()).  The choice only: arch/x86_64/rethunk.inc
 * holds the thunks, arch/x86_64/clear.c the primitives that use them.
 */
enum rethunk_kind {
	RETHUNK_NONE,		/* a plain RET: what alternatives patch in */
	RETHUNK_RETBLEED,	/* retbleed_return_thunk (AMD untrained RET) */
	RETHUNK_SRSO,		/* srso_return_thunk -> srso_safe_ret */
	RETHUNK_SRSO_ALIAS,	/* srso_alias_return_thunk -> srso_alias_safe_ret */
	RETHUNK_CALL_DEPTH,	/* call_depth_return_thunk (Intel, retbleed=stuff) */
	RETHUNK_KIND_COUNT,
};

/* "none", "retbleed_return_thunk", ...: Linux's names, for records. */
extern const char *const rethunk_names[];

/* rethunk=: a mask of these (struct hz_config's rethunks) */
enum rethunk_mode { RETHUNK_OFF, RETHUNK_ON, RETHUNK_MODE_COUNT };
extern const char *const rethunk_mode_names[];

enum rethunk_vendor { RT_VENDOR_OTHER, RT_VENDOR_INTEL, RT_VENDOR_AMD,
		      RT_VENDOR_HYGON };

/* What the choice reads of a CPU. */
struct rethunk_cpu {
	enum rethunk_vendor vendor;
	u32 family, model;
	bool srso_no;			/* CPUID 80000021h:EAX[29] */
	bool srso_user_kernel_no;	/* CPUID 80000021h:EAX[30] */
};

struct rethunk_choice {
	enum rethunk_kind linux_kind;	/* Linux's default for the CPU */
	enum rethunk_kind on_kind;	/* what rethunk=on runs */
	const char *why;		/* why linux_kind, in a sentence */
};

/* The vendor of CPUID 0's string ("AuthenticAMD", ...). */
enum rethunk_vendor rethunk_vendor_of(const char *vendor);
void rethunk_choose(const struct rethunk_cpu *c, struct rethunk_choice *out);

/*
 * rethunk_assume= (test-only): named CPUs to take the choice for instead
 * of this one, so a QEMU boot reaches every branch.  Index 0, "none", is
 * the CPU itself; rethunk_assumed() fills @out for the others.
 */
extern const char *const rethunk_assume_names[];
bool rethunk_assumed(u32 idx, struct rethunk_cpu *out);

#endif
