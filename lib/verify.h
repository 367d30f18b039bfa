/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_VERIFY_H
#define LIB_VERIFY_H

#include "lib/params.h"

/*
 * What the verifier reads, and where inject=skip-line plants the dirty
 * lines that prove it reads them.  Pure arithmetic: the kernel and the
 * companion scan memory with it, host tests check it.
 */
#define LINE 64

/* What every folio and guard holds before a pass, so zeroing shows. */
#define FILL_PATTERN 0xdeadbeefcafef00dULL

/* verify=sample reads this many lines of each 4K page (plus the folio's
 * first and last line). */
#define SAMPLE_LINES_PER_PAGE 1

/* verify=sample: the offset of the line it reads in 4K page @page. */
u64 sample_line(u64 page);
/* Does verify= read the line at byte offset @off of a folio of @bytes? */
bool verify_covers(u32 verify, u64 bytes, u64 off);

/*
 * Count the lines of [p, p+bytes) that verify= reads and finds not zero;
 * @first gets the offset of the first such line (~0 if none).  @nonzero
 * is the caller's scanner (a REPE SCASQ in arch/): the byte offset of the
 * first nonzero qword of a range, or ~0.
 */
typedef u64 (*scan_fn)(const void *p, u64 bytes);
u64 verify_count_dirty(u32 verify, const u8 *p, u64 bytes, scan_fn nonzero,
		       u64 *first);

struct dirty_line {
	u32 fault;		/* which fault's folio, in fault order */
	u32 line;		/* line index in the folio */
};

/*
 * inject=skip-line: up to @n distinct (fault, line) positions over @nfaults
 * folios of @bytes, seeded by @seed, sorted by fault then line.  Returns
 * how many (fewer only when the folios have fewer lines than asked).
 */
u32 inject_plan(u64 seed, u32 nfaults, u64 bytes, struct dirty_line *out,
		u32 n);

#endif
