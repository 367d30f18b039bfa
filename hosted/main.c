// SPDX-License-Identifier: GPL-2.0-only
/*
 * hugezero-linux: the Linux half of the split.  Same command-line keys as
 * the kernel (parsed by lib/), same records on standard output, so that
 * scripts/hugezero reads its output as it reads a serial log.  Messages go
 * to standard error.  Exit status: 0 all ok, 1 a configuration failed,
 * 2 bad arguments or a host that cannot run it.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/rethunk.h"
#include "arch/x86_64/tsc.h"
#include "hosted/boost.h"
#include "hosted/companion.h"
#include "hosted/group.h"
#include "hosted/interrupt.h"
#include "hosted/kline.h"
#include "hosted/msr.h"
#include "hosted/preset.h"
#include "hosted/restore.h"
#include "lib/preset.h"
#include "lib/benchrun.h"
#include "lib/format.h"
#include "lib/tree.h"

struct rec_writer records;

/* Line-buffered: each record reaches the file whole, as it is written. */
static void emit(void *ctx, const char *line)
{
	(void)ctx;
	fputs(line, stdout);
	interrupt_note(line);
}

static char *join(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(len, 1);
	for (int i = 1; s && i < argc; i++) {
		strcat(s, argv[i]);
		if (i + 1 < argc)
			strcat(s, " ");
	}
	return s;
}

static u64 microcode(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	unsigned long long v = ~0ULL;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "microcode : %llx", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static void context(const char *line, u32 boost)
{
	const struct cpu_info *c = &cpu_info;
	char feat[160], why[320];
	u32 fs = FAST_STRINGS_NA;
	struct machine_id m;

	bench_rec_boot(&records, "hugezero-linux", "linux", line);
	cpuid_features(feat, sizeof(feat));
	m = (struct machine_id){ c->vendor, c->brand, c->hypervisor, feat,
				 c->family, c->model, c->stepping, c->phys_bits,
				 c->cache_line, microcode(), c->l1d, c->l2,
				 c->l3, meminfo_bytes("MemTotal"),
				 rethunk_names[rethunk_choice.linux_kind],
				 rethunk_choice.why, NULL, NULL, NULL };
	prim_linux_read(why, sizeof(why), &fs);
	m.fast_strings = fast_strings_names[fs];
	bench_rec_machine(&records, &m);
	timebase_calibrate();
	host_record();
	boost_record(boost);
}

u32 companion_run_config(struct bench_job *j, const char *why)
{
	static struct bench_outcome o;
	char cpu[24] = "";
	bool ok;

	j->o = &o;
	j->clock = rdtsc;	/* the clock tsc_hz was calibrated on */
	group_config_begin(j->d);
	j->agree = group_agreement(j->d->c);
	if (j->d->smp)
		ksnprintf(cpu, sizeof(cpu), " (cpu %u)", j->d->smp->cpu);
	counters_open(j->d);
	ok = bench_run_config(j, why[0] ? why : NULL);
	counters_close();
	if (why[0])
		fprintf(stderr, "skip %s%s: %s\n", j->d->name, cpu, why);
	else
		fprintf(stderr, "%s %s%s\n", ok ? "ok  " : "FAIL", j->d->name,
			cpu);
	group_config_end(j->d, &o, why);
	return why[0] || ok ? 0 : 1;
}

static int usage_error(const struct cmdline_result *res)
{
	for (u32 i = 0; i < MIN(res->nerrors, (u32)CMDLINE_MAX_ERRORS); i++)
		fprintf(stderr, "hugezero-linux: error: %s\n", res->errors[i]);
	fprintf(stderr, "usage: hugezero-linux bench=bare|linux-fault|split "
		"[KEY=VALUE...]  (docs/companion.md; --help lists the keys)\n");
	return 2;
}

/* --help: the usage, then each key this side takes (lib/params.c). */
static int help(void)
{
	char line[1024];
	const char *sep = "";
	size_t col = 0;

	printf("usage: hugezero-linux [--round-hook CMD] KEY=VALUE...\n"
	       "       hugezero-linux --kernel-line KEY=VALUE...\n"
	       "       hugezero-linux --help | --keys\n\n"
	       "Runs bench=bare, linux-fault or split under Linux "
	       "(docs/companion.md).\n"
	       "  --round-hook CMD  run CMD after each measured round of a "
	       "round group\n"
	       "  --kernel-line     check the words as the kernel's boot line, "
	       "run nothing\n"
	       "  --keys            every key of both sides, tab-separated, "
	       "for the host tools\n"
	       "scripts/hugezero keys KEY says what a key means.\n\nkeys:\n");
	/* The tests' keys are a hidden group (scripts/hugezero keys
	 * --test-only), as fio's .hide options are. */
	for (size_t i = 0; i < hz_nparams; i++) {
		if (hz_params[i].scope == PARAM_KERNEL || hz_params[i].test_only)
			continue;
		param_help_line(&hz_params[i], line, sizeof(line));
		printf("%s\n", line);
	}
	printf("\nkernel-only keys, refused here:\n ");
	for (size_t i = 0; i < hz_nparams; i++) {
		if (hz_params[i].scope != PARAM_KERNEL || hz_params[i].test_only)
			continue;
		if (col + strlen(hz_params[i].key) > 74) {
			printf("%s\n ", sep);
			col = 0;
		} else {
			printf("%s", sep);
		}
		col += (size_t)printf(" %s", hz_params[i].key) + 1;
		sep = ",";
	}
	printf("\n\nkeys only the tests use: scripts/hugezero keys --test-only\n");
	return 0;
}

/* --keys: the whole table, both sides, for scripts/hugezero keys. */
static int keys(void)
{
	char line[2048];

	printf("%s\n", param_tsv_header);
	for (size_t i = 0; i < hz_nparams; i++) {
		param_tsv_line(&hz_params[i], line, sizeof(line));
		printf("%s\n", line);
	}
	return 0;
}

/*
 * Without cpus=, this process pinned as cpu= says; with it, the CPUs that
 * can run, each for a process of its own, and this one not pinned.
 */
static bool place(const struct hz_config *c, bool group, struct cpu_set *usable)
{
	char err[160];
	int len;

	if (!group) {
		if (host_pin(c->cpu, err, sizeof(err)) >= 0)
			return true;
		fprintf(stderr, "hugezero-linux: %s\n", err);
		return false;
	}
	if (!cpus_usable(&c->cpus, usable)) {
		cpulist_format(&c->cpus, err, sizeof(err));
		fprintf(stderr, "hugezero-linux: cpus=%s: none of these CPUs "
			"can run here\n", err);
		return false;
	}
	host.cpu = -1;
	/* cpus= fit (config_check()); the usable ones may list longer. */
	len = cpulist_format(usable, host.cpus, sizeof(host.cpus));
	if (len > CPULIST_TEXT_MAX) {
		fprintf(stderr, "hugezero-linux: cpus=: the CPUs that can run "
			"here list in %d characters, more than the %d records "
			"keep: give fewer CPUs, or runs of consecutive ones "
			"(N-M)\n", len, CPULIST_TEXT_MAX);
		return false;
	}
	return true;
}

static u32 run_all(const struct hz_config *c, bool group,
		   const struct cpu_set *usable)
{
	u32 failed = 0, id = 0;

	if (group)
		return run_scaled(c, usable, &id);
	/* Both: bench=split, which pairs them in this process. */
	if (bench_kinds[c->bench].linux_fault && bench_kinds[c->bench].bare)
		return run_split(c, &id);
	if (bench_kinds[c->bench].linux_fault)
		failed += run_linux_fault(c, &id, NULL);
	if (bench_kinds[c->bench].bare)
		failed += run_bare(c, &id, NULL);
	return failed;
}

/* order=tree's context is the calling thread's (lib/tree.h): a group's
 * CPUs are processes today, but nothing need know that. */
static struct tree_ctx **thread_tree_slot(void)
{
	static __thread struct tree_ctx *ctx;

	return &ctx;
}

int main(int argc, char **argv)
{
	static struct hz_config c;
	static struct cmdline_result res;
	static struct cpu_set usable;
	char *line, err[400];
	bool ok, group;
	u32 failed;

	/* --round-hook CMD: run after each measured round of the split's
	 * round groups (hosted/rounds.c, docs/companion.md) */
	if (argc > 2 && strcmp(argv[1], "--round-hook") == 0) {
		round_hook_set(argv[2]);
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0))
		return help();
	if (argc == 2 && strcmp(argv[1], "--keys") == 0)
		return keys();
	line = join(argc, argv);
	if (!line)
		return 2;
	if (argc > 1 && strcmp(argv[1], "--kernel-line") == 0)
		return kline_main(line + strlen("--kernel-line"));
	tree_slot_register(thread_tree_slot);
	config_defaults(&c);
	ok = config_parse_target(line, &c, &res, true);
	ok &= config_check_target(&c, &res, true);
	for (u32 i = 0; i < MIN(res.nnotes, (u32)CMDLINE_MAX_ERRORS); i++)
		fprintf(stderr, "hugezero-linux: note: %s\n", res.notes[i]);
	if (!ok)
		return usage_error(&res);
	setvbuf(stdout, NULL, _IOLBF, 0);
	interrupt_init();
	cpuid_init();
	rethunk_setup(&c);
	if (gs_setup())
		fprintf(stderr, "hugezero-linux: note: %s: rethunk=on and "
			"rethunk_count= may be skipped\n", gs_missing());
	/* clear_page()'s choice reads fast strings as early_init_intel() */
	prim_linux_reader(host_misc_enable_read);
	group = config_given(&res, "cpus") ||
		preset_sets(c.preset, true, "cpus");
	if (!place(&c, group, &usable))
		return 2;
	host_read();
	if (!boost_apply(c.boost, err, sizeof(err))) {
		fprintf(stderr, "hugezero-linux: boost=%s refused: %s\n",
			boost_names[c.boost], err);
		return 2;	/* what was written is put back at exit */
	}
	rec_writer_init(&records, emit, NULL);
	interrupt_writer(&records);
	context(line, c.boost);
	if (!companion_preset(&c, &res, group ? cpu_set_count(&usable,
							      CPUSET_MAX) : 1)) {
		bench_rec_end(&records);
		free(line);
		return 1;
	}
	failed = run_all(&c, group, &usable);
	round_hook_done();
	restore_all(NULL);
	bench_rec_end(&records);
	free(line);
	return failed ? 1 : 0;
}
