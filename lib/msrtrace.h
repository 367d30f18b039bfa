/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_MSRTRACE_H
#define LIB_MSRTRACE_H

#include "lib/types.h"

/*
 * What one vendor path did with MSRs (the LFENCE setup, the microcode
 * read, MISC_ENABLE, the PMU probe), for its "msr:" console line
 * (docs/hardware.md, "MSR accesses"): each access in order, its MSR and
 * whether it faulted.  Filled by arch/x86_64/msr.c's traced accessors;
 * no hardware here, so the host tests it.
 */
#define MSR_TRACE_MAX 16
/* msr_gp=: the most MSRs a boot makes fault on purpose (test-only) */
#define MSR_GP_MAX 16

struct msr_access {
	u32 msr;
	bool write;
	u8 err;			/* 0: done; else the trap's vector + 1 */
};

struct msr_trace {
	u32 n;			/* accesses kept in a[] */
	u32 more;		/* accesses after a[] filled up */
	u32 faults;		/* of all of them, how many faulted */
	struct msr_access a[MSR_TRACE_MAX];
};

/* One access and its outcome (@err as rdmsrq_safe() returns it). */
void msr_trace_add(struct msr_trace *t, u32 msr, bool write, u64 err);
/*
 * "rd 0xc0010000-0xc0010003 ok, wr 0xc0010007 #GP" (a run of reads or
 * writes of consecutive MSRs with one outcome is one range), "none"
 * without any access, and ", +N more (F faulted)" past MSR_TRACE_MAX.
 * Returns the length written (cut to fit @n).
 */
size_t msr_trace_format(const struct msr_trace *t, char *buf, size_t n);
/* "#GP" for a general-protection fault, else "fault (vector N)". */
const char *msr_err_name(u8 err, char *buf, size_t n);

#endif
