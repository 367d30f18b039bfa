// SPDX-License-Identifier: GPL-2.0-only
/*
 * Putting the host back as the run found it (hosted/restore.h).  The
 * noted files are a list the signal handler walks: an entry is complete
 * before it is linked, and nothing is ever unlinked or freed.  Putting
 * back holds every signal, in the main flow as in the handler.
 */

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "hosted/restore.h"
#include "lib/string.h"

struct noted {
	struct noted *next;
	bool done;
	char path[256];
	char was[32];
	char fail[360];		/* said when it cannot be put back */
};

static struct noted *head, **tail = &head;
static pid_t owner;

static void restore_at_exit(void)
{
	restore_all(NULL);
}

/* The first word of @s into @w (async-signal-safe). */
static void first_word(char *w, size_t n, const char *s)
{
	size_t i = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	while (i + 1 < n && s[i] && s[i] != ' ' && s[i] != '\t' && s[i] != '\n') {
		w[i] = s[i];
		i++;
	}
	w[i] = '\0';
}

bool restore_note(const char *path, const char *was)
{
	struct noted *e;

	for (e = head; e; e = e->next)
		if (strcmp(e->path, path) == 0)
			return true;
	e = calloc(1, sizeof(*e));
	if (!e)
		return false;
	snprintf(e->path, sizeof(e->path), "%s", path);
	first_word(e->was, sizeof(e->was), was);
	snprintf(e->fail, sizeof(e->fail), "hugezero-linux: could not put %s "
		 "back to %s: do it by hand\n", e->path, e->was);
	if (!owner) {
		owner = getpid();
		atexit(restore_at_exit);
	}
	/* Linked only once whole: a signal may walk the list any time. */
	__atomic_store_n(tail, e, __ATOMIC_RELEASE);
	tail = &e->next;
	return true;
}

/* Whether @path's first word is @was now. */
static bool reads(const char *path, const char *was)
{
	char buf[64], w[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	first_word(w, sizeof(w), buf);
	return strcmp(w, was) == 0;
}

static bool put_back(const struct noted *e)
{
	char line[34];
	size_t n = strlen(e->was);
	int fd = open(e->path, O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	memcpy(line, e->was, n);
	line[n++] = '\n';
	ok = write(fd, line, n) == (ssize_t)n;
	return close(fd) == 0 && ok;
}

u32 restore_all(u32 *failed)
{
	struct noted *e = __atomic_load_n(&head, __ATOMIC_ACQUIRE);
	u32 back = 0, bad = 0;
	sigset_t all, old;

	if (failed)
		*failed = 0;
	if (!e || getpid() != owner)
		return 0;
	/* A signal between marking a file done and writing it would leave
	 * it as the run set it: nothing comes between. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	for (; e; e = __atomic_load_n(&e->next, __ATOMIC_ACQUIRE)) {
		if (e->done)
			continue;
		e->done = true;
		if (reads(e->path, e->was))
			continue;
		/* Not read again: hugetlb pages still mapped keep
		 * nr_hugepages up until they are freed. */
		if (put_back(e)) {
			back++;
			continue;
		}
		bad++;
		if (write(2, e->fail, strlen(e->fail)) < 0)
			continue;	/* nowhere left to say it */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (failed)
		*failed = bad;
	return back;
}
