/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_SCHED_INFO_H
#define HOSTED_SCHED_INFO_H

#include "lib/preempt.h"
#include "lib/record.h"

/*
 * Linux settings that change what a huge page fault costs besides the
 * clearing: the preemption model (whether a long clear can be preempted,
 * and whether cond_resched() does anything) and init_on_alloc/init_on_free
 * (whether the page allocator zeroes or wipes pages itself).  No file says
 * all of it, so each value carries where it was read and what was found.
 */

#define SCHED_SOURCE_LEN 320
#define SCHED_PATH_LEN 256

struct sched_setting {
	int on;				/* 0, 1, or -1 for unknown */
	char source[SCHED_SOURCE_LEN];
};

struct sched_info {
	bool preempt_known;		/* false: no source said */
	enum preempt_model preempt;	/* when known: never OFF */
	/* No source said, on Linux 7.0 or later: taken as full, one of the
	 * two models x86 has there (lib/preempt.h); for the clearing the two
	 * are one (preempt_model_preemptible()) */
	bool preempt_assumed;
	char preempt_source[SCHED_SOURCE_LEN];	/* where it was read */
	struct sched_setting init_on_alloc, init_on_free;
};

/* The texts the settings are parsed from; a NULL text was not readable. */
struct sched_texts {
	char *debugfs, *cmdline, *config;
	char debugfs_path[SCHED_PATH_LEN], cmdline_path[SCHED_PATH_LEN];
	char config_path[SCHED_PATH_LEN];
	char debugfs_why[64];			/* why debugfs is NULL */
	char config_why[SCHED_SOURCE_LEN];	/* why config is NULL */
	/* The running kernel's release ("7.0.0-rc6"; "" unknown), for the
	 * models it offers: x86 from 7.0 only full and lazy */
	char release[65];
};

/* "none" .. "lazy", or "unknown". */
const char *sched_info_model(const struct sched_info *s);
/* Decide every setting from @t alone: no file is read. */
void sched_info_parse(struct sched_info *s, const struct sched_texts *t);
/* Read the files under $HUGEZERO_HOST_ROOT (default: /), then parse. */
void sched_info_read(struct sched_info *s);
/* Append the settings and their sources to the open record @r. */
void sched_info_record(struct rec *r, const struct sched_info *s);

#endif
