// SPDX-License-Identifier: GPL-2.0-only
/*
 * boost= in the companion (hosted/boost.h).  What each file means is
 * Linux's (docs/companion.md, "Boost"):
 *
 * - intel_pstate's no_turbo: show_no_turbo() prints global.no_turbo;
 *   store_no_turbo() takes 0 or 1 and refuses 0 with EPERM when the
 *   firmware disabled turbo (MSR_IA32_MISC_ENABLE bit 38), as
 *   turbo_is_disabled() reads it (drivers/cpufreq/intel_pstate.c).
 * - the cpufreq core's global boost, made by create_boost_sysfs_file()
 *   for a driver with a set_boost() (acpi-cpufreq; amd-pstate, passive
 *   and guided, and active where amd_pstate_epp_driver has one too):
 *   show_boost() prints cpufreq_driver->boost_enabled, store_boost()
 *   sets every policy through cpufreq_boost_trigger_state() and answers
 *   EINVAL when a driver refuses (drivers/cpufreq/cpufreq.c).
 * - a policy's boost (show_local_boost(), store_local_boost(), made by
 *   cpufreq_add_dev_interface() beside the global one): the policy's
 *   own boost_enabled, which is what its CPUs run with; it can be set
 *   only while the global one is on, else EINVAL.  amd-pstate's
 *   amd_pstate_set_boost() refuses with EOPNOTSUPP where the firmware
 *   disabled CPB (HWCR bit 25) (drivers/cpufreq/amd-pstate.c).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hosted/hostroot.h"
#include "hosted/boost.h"
#include "hosted/companion.h"
#include "hosted/restore.h"
#include "lib/format.h"
#include "lib/params.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define POLICY_MAX CPUSET_MAX

enum boost_kind { KIND_NONE, KIND_NO_TURBO, KIND_CPUFREQ };

struct boost_files {
	enum boost_kind kind;
	char no_turbo[256], global[256];
	int global_on;			/* -1: no global file */
	u32 npolicy;
	u32 *policy;			/* policyN's N, ascending */
	int *policy_on;			/* -1: no file */
	const char *state;		/* on, off, mixed, unknown */
	char source[700];
};

static struct boost_files b;
static const char *found = "unknown";

/* 0 or 1 from @path's first line; -1 when absent or anything else. */
static int read_bit(const char *path)
{
	char buf[32];

	if (!host_read_line(path, buf, sizeof(buf)))
		return -1;
	return strcmp(buf, "0") == 0 ? 0 : strcmp(buf, "1") == 0 ? 1 : -1;
}

static void policy_path(char *buf, size_t n, u32 pol, const char *file)
{
	snprintf(buf, n, "%s" CPU_DIR "/cpufreq/policy%u/%s", host_root(), pol, file);
}

static int cmp_u32(const void *x, const void *y)
{
	u32 a = *(const u32 *)x, c = *(const u32 *)y;

	return a < c ? -1 : a > c;
}

/* Every cpufreq/policyN directory, ascending. */
static void find_policies(void)
{
	char dir[256];
	struct dirent *e;
	unsigned int n;
	DIR *d;

	b.npolicy = 0;
	snprintf(dir, sizeof(dir), "%s" CPU_DIR "/cpufreq", host_root());
	d = opendir(dir);
	if (!b.policy)
		b.policy = calloc(POLICY_MAX, sizeof(*b.policy));
	if (!b.policy_on)
		b.policy_on = calloc(POLICY_MAX, sizeof(*b.policy_on));
	while (d && b.policy && b.policy_on && (e = readdir(d)) &&
	       b.npolicy < POLICY_MAX)
		if (sscanf(e->d_name, "policy%u", &n) == 1)
			b.policy[b.npolicy++] = n;
	if (d)
		closedir(d);
	if (b.npolicy)
		qsort(b.policy, b.npolicy, sizeof(*b.policy), cmp_u32);
}

/* "scaling_driver amd-pstate; amd_pstate/status passive" */
static void driver_note(char *buf, size_t n)
{
	static const char *const status_of[] = { "amd_pstate", "intel_pstate" };
	char path[256], drv[64] = "", status[32];
	int len;

	if (b.npolicy) {
		policy_path(path, sizeof(path), b.policy[0], "scaling_driver");
		if (!host_read_line(path, drv, sizeof(drv)))
			strlcpy(drv, "unreadable", sizeof(drv));
	}
	len = snprintf(buf, n, drv[0] ? "scaling_driver %s" : "no cpufreq policy",
		       drv);
	for (u32 i = 0; len >= 0 && (size_t)len < n && i < ARRAY_SIZE(status_of);
	     i++) {
		snprintf(path, sizeof(path), "%s" CPU_DIR "/%s/status", host_root(),
			 status_of[i]);
		if (host_read_line(path, status, sizeof(status))) {
			snprintf(buf + len, n - (size_t)len, "; %s/status %s",
				 status_of[i], status);
			return;
		}
	}
}

static void read_cpufreq(const char *drv)
{
	char path[256];
	u32 on = 0, off = 0;

	for (u32 i = 0; i < b.npolicy; i++) {
		policy_path(path, sizeof(path), b.policy[i], "boost");
		b.policy_on[i] = read_bit(path);
		on += b.policy_on[i] == 1;
		off += b.policy_on[i] == 0;
	}
	b.kind = b.global_on >= 0 || on + off ? KIND_CPUFREQ : KIND_NONE;
	if (b.kind == KIND_NONE)
		return;
	/* A policy's own file is what its CPUs run with. */
	b.state = on + off == 0 ? (b.global_on ? "on" : "off") :
		  !off ? "on" : !on ? "off" : "mixed";
	ksnprintf(b.source, sizeof(b.source), "%s: %s; policy*/boost: %s "
		  "(%u on, %u off of %u policies) (%s)", b.global,
		  b.global_on < 0 ? "absent" : b.global_on ? "1" : "0",
		  on + off ? b.state : "absent", on, off, b.npolicy, drv);
}

/* The files there are and what they say now. */
static void boost_read_sysfs(void)
{
	char drv[160];
	int nt;

	snprintf(b.no_turbo, sizeof(b.no_turbo), "%s" CPU_DIR
		 "/intel_pstate/no_turbo", host_root());
	snprintf(b.global, sizeof(b.global), "%s" CPU_DIR "/cpufreq/boost",
		 host_root());
	find_policies();
	driver_note(drv, sizeof(drv));
	b.state = "unknown";
	/* No driver behind it (intel_pstate off) reads as EAGAIN. */
	nt = read_bit(b.no_turbo);
	if (nt >= 0) {
		b.kind = KIND_NO_TURBO;
		b.state = nt ? "off" : "on";
		ksnprintf(b.source, sizeof(b.source), "%s: %d (turbo %s) (%s)",
			  b.no_turbo, nt, b.state, drv);
		return;
	}
	b.global_on = read_bit(b.global);
	read_cpufreq(drv);
	if (b.kind == KIND_NONE)
		ksnprintf(b.source, sizeof(b.source), "no %s, %s or policy*/boost "
			  "that reads 0 or 1: this host's cpufreq driver offers "
			  "no boost control (%s)", b.no_turbo, b.global, drv);
}

/* Note @path's value now, to be put back; false with why. */
static bool note(const char *path, char *why, size_t n)
{
	char now[32];

	if (host_read_line(path, now, sizeof(now)) && restore_note(path, now))
		return true;
	snprintf(why, n, "cannot read %s to note it before writing", path);
	return false;
}

/* Write @v to @path, noted first; false with why. */
static bool put(const char *path, int v, char *why, size_t n)
{
	char text[4] = { (char)('0' + v), '\n', 0 };
	int fd, err = 0;

	if (!note(path, why, n))
		return false;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, 2) != 2)
		err = errno;
	if (fd >= 0 && close(fd) != 0 && !err)
		err = errno;
	if (!err)
		return true;
	/* As root, the driver's own refusal: EPERM, EINVAL, EOPNOTSUPP. */
	snprintf(why, n, "writing %d to %s: %s (%s, or boost=firmware to run "
		 "as found)", v, path, strerror(err),
		 (err == EACCES || err == EPERM) && geteuid() != 0 ?
		 "not root: run as root" : "the driver refused it");
	return false;
}

/*
 * The global file first (it sets every policy), then each policy still
 * otherwise.  Every policy file is noted, written or not: the global
 * write changes them all, and with the global one put back first each
 * policy is then put back after it.
 */
static bool set_cpufreq(int v, char *why, size_t n)
{
	char path[256];

	if (b.global_on >= 0 && !note(b.global, why, n))
		return false;
	for (u32 i = 0; i < b.npolicy; i++) {
		policy_path(path, sizeof(path), b.policy[i], "boost");
		if (b.policy_on[i] >= 0 && !note(path, why, n))
			return false;
	}
	if (b.global_on >= 0 && b.global_on != v && !put(b.global, v, why, n))
		return false;
	for (u32 i = 0; i < b.npolicy; i++) {
		policy_path(path, sizeof(path), b.policy[i], "boost");
		if (b.policy_on[i] >= 0 && read_bit(path) != v &&
		    !put(path, v, why, n))
			return false;
	}
	return true;
}

bool boost_apply(u32 mode, char *why, size_t n)
{
	const char *want = mode == BOOST_OFF ? "off" : "on";
	bool ok;

	boost_read_sysfs();
	found = b.state;
	if (mode == BOOST_FIRMWARE || strcmp(b.state, want) == 0)
		return true;
	if (b.kind == KIND_NONE) {
		fprintf(stderr, "hugezero-linux: boost=%s: nothing to set: %s; "
			"the run goes on as found\n", want, b.source);
		return true;
	}
	ok = b.kind == KIND_NO_TURBO ? put(b.no_turbo, mode == BOOST_OFF, why, n) :
				       set_cpufreq(mode == BOOST_ON, why, n);
	if (ok) {
		boost_read_sysfs();
		if (strcmp(b.state, want) != 0) {
			snprintf(why, n, "written, but reads %s: %s", b.state,
				 b.source);
			ok = false;
		}
	}
	if (ok)
		fprintf(stderr, "hugezero-linux: boost=%s: was %s, %s for the "
			"run and put back at its end: %s\n", want, found, want,
			b.source);
	return ok;
}

void boost_record(u32 mode)
{
	struct rec r;

	/* The kernel's boost record's names (lib/boost.c), for the host. */
	rec_begin(&records, &r, "boost");
	rec_str(&r, "asked", boost_names[mode]);
	rec_str(&r, "before", found);
	rec_str(&r, "after", b.state ? b.state : "unknown");
	rec_str(&r, "source", b.source[0] ? b.source : "not read");
	boost_effect(&r, mode, tsc_hz);
	rec_end(&records, &r);
}
