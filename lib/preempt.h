/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PREEMPT_H
#define LIB_PREEMPT_H

#include "lib/types.h"

/*
 * Linux's preemption models, as preempt= and Linux name them, and OFF:
 * no model (preempt= not given), the benchmark alone with interrupts
 * masked.  One type for the parser (a bitmask of preempt_bit()), the
 * matrix axis, the scheduler (kernel/sched) and the companion's reading
 * of the host's model (hosted/sched_info.c, which keeps "unknown" apart).
 */
#define PREEMPT_MODELS(X)						\
	X(NONE, "none")							\
	X(VOLUNTARY, "voluntary")					\
	X(FULL, "full")							\
	X(LAZY, "lazy")

#define PREEMPT_ENUM(id, name) PREEMPT_MODEL_##id,
enum preempt_model { PREEMPT_MODEL_OFF, PREEMPT_MODELS(PREEMPT_ENUM)
		     PREEMPT_MODEL_COUNT };
#undef PREEMPT_ENUM

/* By model, [PREEMPT_MODEL_OFF] "off"; NULL-terminated. */
extern const char *const preempt_model_names[PREEMPT_MODEL_COUNT + 1];
/* preempt='s choices: the models without "off", NULL-terminated. */
#define preempt_names (preempt_model_names + 1)

/* Its bit in preempt='s mask (none for OFF). */
static inline u64 preempt_bit(enum preempt_model m)
{
	return m == PREEMPT_MODEL_OFF ? 0 : 1ULL << (m - 1);
}

/* Linux's preempt_model_preemptible(): full or lazy. */
static inline bool preempt_model_preemptible(enum preempt_model m)
{
	return m == PREEMPT_MODEL_FULL || m == PREEMPT_MODEL_LAZY;
}

/*
 * What preempt_model_preemptible() answers the zeroing of order=linux and
 * order=tree under @m: the model's, and true with no model, which stands
 * for x86 7.0, always full or lazy (docs/sched.md, "order=linux in 7.0").
 * One rule, so a tree's own folio_zero_user() and hugezero's transcription
 * of it take the same branch of clear_contig_highpages().
 */
static inline bool preempt_linux_preemptible(enum preempt_model m)
{
	return m == PREEMPT_MODEL_OFF || preempt_model_preemptible(m);
}

/*
 * Does x86 Linux 7.0 offer model @m?  Commit 7dadeaa6e851 ("sched:
 * Further restrict the preemption modes") makes PREEMPT_NONE depend on
 * ARCH_NO_PREEMPT and PREEMPT_VOLUNTARY on !ARCH_HAS_PREEMPT_LAZY, and
 * sched_dynamic_mode() refuse "none" and "voluntary" where the
 * architecture has lazy, as x86 does: from 7.0 an x86 kernel is full or
 * lazy (docs/sched.md, "order=linux in 7.0").  OFF is no Linux model.
 */
static inline bool preempt_x86_linux7_offers(enum preempt_model m)
{
	return m == PREEMPT_MODEL_FULL || m == PREEMPT_MODEL_LAZY;
}

#endif
