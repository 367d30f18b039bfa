/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PRESET_H
#define LIB_PRESET_H

#include "lib/params.h"

/*
 * preset=: a name for the matrix of one seed thread's experiment
 * (docs/reproducing.md).  A preset is ordinary keys, parsed before the
 * line's own (so any key given beside it wins), and a sizing rule that
 * fits what the line left open to the machine once its memory and CPUs
 * are known.  The kernel and the companion share both; each has its own
 * keys, because each runs its own side of the experiment.
 */

enum preset_id { PRESET_NONE, PRESET_SEED_000, PRESET_SEED_001,
		 PRESET_SEED_002, PRESET_COUNT };

struct preset {
	const char *name;	/* as preset= and records spell it */
	const char *seed;	/* the thread, for the record and docs */
	const char *kernel;	/* keys for bench=fault */
	const char *companion;	/* keys for build/hugezero-linux */
};

extern const struct preset presets[PRESET_COUNT];
extern const char *const preset_names[];	/* NULL-terminated, by id */

/* What sizing needs to know of the machine the preset runs on. */
struct preset_machine {
	u64 mem;		/* bytes the folios may take (free memory) */
	u64 free_1g;		/* 1G folios to be had (kernel: 1G-aligned
				 * free blocks; companion: free 1G hugetlb pages) */
	u32 ncpus;		/* CPUs cpus= gives the workload */
	bool has_1g;		/* 1G pages: CPUID pdpe1gb; companion: a 1G pool */
	u32 linux_prim;		/* what Linux's clear_page() is here */
	bool companion;
};

#define PRESET_TEXT 240

/* What sizing chose, and why, for the preset record and the console. */
struct preset_sizing {
	char chose[PRESET_TEXT];	/* the keys it set, as key=value */
	char why[PRESET_TEXT];		/* from what it chose them */
	char scaled[PRESET_TEXT];	/* what is smaller than in the seed */
};

/* The keys of @id for the kernel or the companion. */
const char *preset_keys(u32 id, bool companion);

/* Whether preset @id's keys for that side set @key (cpus=, say). */
bool preset_sets(u32 id, bool companion, const char *key);

/*
 * Fill what @user (the line's own keys) left open of preset @id's matrix
 * to @m: size, folio and clear=, in @c.  Says what and why in @out.
 * Returns false, with why, when the machine cannot run the preset at
 * all (no memory for one folio).
 */
bool preset_size(u32 id, const struct preset_machine *m,
		 const struct cmdline_result *user, struct hz_config *c,
		 struct preset_sizing *out);

#endif
