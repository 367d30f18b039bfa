// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's hugetlb pool is one for every hugezero-linux on it.  One run
 * grows it for itself (hugetlb_ensure()) and puts the count back at its
 * end; another takes the pages it finds free (bare's pool_holds()); both
 * map with MAP_NORESERVE.  Two at once put back each other's counts, or
 * fault on pages the other gave back (SIGBUS).  So each claims the pool
 * for the rest of its run with flock(2) on one file: shared to take what
 * is free, exclusive to grow it.  A claim that must wait says so once and
 * waits at most HUGETLB_WAIT_S; the lock goes with the last process that
 * holds its file (the group's processes share it).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "hosted/companion.h"

#define HUGETLB_WAIT_S 600

static const char *const lock_paths[] = {
	"/run/lock/hugezero-hugetlb", "/tmp/hugezero-hugetlb.lock",
};
static int lock_fd = -1;
static const char *lock_path;
static int held;			/* 0, LOCK_SH or LOCK_EX */

static bool lock_open(void)
{
	for (size_t i = 0; lock_fd < 0 && i < sizeof(lock_paths) /
	     sizeof(lock_paths[0]); i++) {
		/* Read-only where another user made it: flock needs no more. */
		lock_fd = open(lock_paths[i], O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (lock_fd < 0)
			lock_fd = open(lock_paths[i], O_RDONLY | O_CLOEXEC);
		lock_path = lock_paths[i];
	}
	return lock_fd >= 0;
}

static void nap_100ms(void)
{
	struct timespec t = { 0, 100000000 };

	nanosleep(&t, NULL);
}

bool hugetlb_claim(bool grow, char *why, size_t n)
{
	int want = grow ? LOCK_EX : LOCK_SH;

	if (held == LOCK_EX || held == want)
		return true;
	if (!lock_open()) {
		/* Nowhere to lock: as before the lock was, said once. */
		if (!held)
			fprintf(stderr, "hugezero-linux: no lock file for the "
				"hugetlb pool (%s): a hugezero-linux run "
				"beside this one may share its pages\n",
				lock_paths[0]);
		held = LOCK_EX;
		return true;
	}
	for (int i = 0; i < HUGETLB_WAIT_S * 10; i++) {
		/* A shared lock made exclusive is let go first (flock(2)):
		 * what was read under it is read again by the caller. */
		if (!flock(lock_fd, want | LOCK_NB)) {
			held = want;
			return true;
		}
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		if (!i)
			fprintf(stderr, "hugezero-linux: waiting for another "
				"hugezero-linux's hugetlb pages (%s), at most "
				"%d s\n", lock_path, HUGETLB_WAIT_S);
		nap_100ms();
	}
	held = 0;
	if (errno == EWOULDBLOCK)
		snprintf(why, n, "another hugezero-linux held the hugetlb "
			 "pool (%s) for %d s", lock_path, HUGETLB_WAIT_S);
	else
		snprintf(why, n, "cannot lock the hugetlb pool (%s): %s",
			 lock_path, strerror(errno));
	return false;
}
