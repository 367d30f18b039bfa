// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's hugetlb pool is one for every hugezero-linux on it, and its
 * pages are mapped with MAP_NORESERVE: nothing is reserved at mmap(), a
 * page leaves the pool only when faulted in.  So two runs at once can
 * both find the same pages free and one of them fault on none (SIGBUS),
 * or put back each other's nr_hugepages.  A run that maps hugetlb pages
 * therefore holds the pool alone for the rest of its life: flock(2),
 * exclusive, on one file.  One that needs them (linux-fault, split)
 * waits at most HUGETLB_WAIT_S, saying so once; one that would only
 * take them if free (bare) tries once and takes other memory when the
 * pool is held.  The lock goes with the last process holding its file
 * (a group's processes share it; O_CLOEXEC keeps it from exec'd helpers).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "hosted/companion.h"

#define HUGETLB_WAIT_S 600

static const char *const lock_paths[] = {
	"/run/lock/hugezero-hugetlb", "/tmp/hugezero-hugetlb.lock",
};
static int lock_fd = -1;
static const char *lock_path;
static bool held;
static char gave_up[160];		/* why, once a wait ran out */

static bool lock_open(void)
{
	for (size_t i = 0; lock_fd < 0 && i < sizeof(lock_paths) /
	     sizeof(lock_paths[0]); i++) {
		lock_fd = open(lock_paths[i], O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (lock_fd >= 0) {
			/* Readable by every user whatever root's umask: one
			 * lock for all, flock needs no more than read. */
			fchmod(lock_fd, 0644);
		} else {
			lock_fd = open(lock_paths[i], O_RDONLY | O_CLOEXEC);
		}
		lock_path = lock_paths[i];
	}
	return lock_fd >= 0;
}

static void nap_100ms(void)
{
	struct timespec t = { 0, 100000000 };

	nanosleep(&t, NULL);
}

/* One try; false with errno when it is held elsewhere or cannot be had. */
static bool try_once(void)
{
	if (!flock(lock_fd, LOCK_EX | LOCK_NB))
		return held = true;
	return false;
}

bool hugetlb_claim(bool wait, char *why, size_t n)
{
	int err;

	if (held)
		return true;
	if (gave_up[0]) {
		snprintf(why, n, "%s", gave_up);
		return false;
	}
	if (!lock_open()) {
		/* Nowhere to lock: as before there was a lock, said once. */
		fprintf(stderr, "hugezero-linux: no lock file for the hugetlb "
			"pool (%s): a hugezero-linux run beside this one may "
			"share its pages\n", lock_paths[0]);
		return held = true;
	}
	if (try_once())
		return true;
	err = errno;
	if (err == EWOULDBLOCK && wait) {
		fprintf(stderr, "hugezero-linux: waiting for another "
			"hugezero-linux's hugetlb pages (%s), at most %d s\n",
			lock_path, HUGETLB_WAIT_S);
		for (int i = 0; i < HUGETLB_WAIT_S * 10; i++) {
			nap_100ms();
			if (try_once())
				return true;
			err = errno;
			if (err != EWOULDBLOCK && err != EINTR)
				break;
		}
	}
	if (err == EWOULDBLOCK)
		snprintf(why, n, "another hugezero-linux holds the hugetlb pool "
			 "(%s)%s", lock_path, wait ? ", for 600 s and more" : "");
	else
		snprintf(why, n, "cannot lock the hugetlb pool (%s): %s",
			 lock_path, strerror(err));
	/* A wait that ran out is not waited again at every configuration. */
	if (wait)
		snprintf(gave_up, sizeof(gave_up), "%s", why);
	return false;
}
