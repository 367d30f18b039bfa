// SPDX-License-Identifier: GPL-2.0-only
/*
 * The companion cut short by a signal (hosted/interrupt.h).  What the
 * handler needs is kept ready by the main flow: which configurations are
 * open (config record written, summary not yet) and their name, updated
 * with the signals held, and the record writer's sequence number.
 */

#include <unistd.h>
#include "hosted/companion.h"
#include "hosted/interrupt.h"
#include "hosted/restore.h"
#include "lib/benchrec.h"
#include "lib/format.h"
#include "lib/string.h"

/* A group's processes each have a configuration open: one a CPU. */
#define OPEN_MAX CPUSET_MAX

/* Asked to stop: held while the main flow updates what the handler
 * reads (interrupt_hold()). */
static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
static const char *const signal_names[] = { "SIGINT", "SIGTERM", "SIGHUP" };
/* A fault in the code running, never held (a held one kills at once):
 * most likely a linux-* routine called with the wrong LINUX_ABI=
 * (docs/linux-tree.md) clearing past its folio.  The handler runs on a
 * stack of its own, since what the routine overran may be this one. */
static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
static const char *const fault_names[] = { "SIGSEGV", "SIGBUS", "SIGILL",
					   "SIGFPE" };
static char fault_stack[64 * 1024] __attribute__((aligned(16)));

static pid_t owner;
static bool ended;		/* the end record is out: nothing to add */
static bool begun;		/* a configuration has been opened */
static u32 open_cfg[OPEN_MAX], nopen;
static char open_name[128];

static void signal_set(sigset_t *s)
{
	sigemptyset(s);
	for (u32 i = 0; i < ARRAY_SIZE(signals); i++)
		sigaddset(s, signals[i]);
}

void interrupt_hold(sigset_t *old)
{
	sigset_t s;

	signal_set(&s);
	sigprocmask(SIG_BLOCK, &s, old);
}

void interrupt_release(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* The value of @key in the record @line ("" when absent), bare values
 * only, which cfg and name are. */
static void field(const char *line, const char *key, char *v, size_t n)
{
	size_t k = strlen(key), i = 0;
	const char *p = line;

	v[0] = '\0';
	for (; (p = strchr(p, ' ')) != NULL; p++)
		if (strncmp(p + 1, key, k) == 0 && p[k + 1] == '=')
			break;
	if (!p)
		return;
	for (p += k + 2; i + 1 < n && *p && *p != ' ' && *p != '"'; p++)
		v[i++] = *p;
	v[i] = '\0';
}

static void open_config(u32 cfg, const char *name)
{
	begun = true;
	if (nopen < OPEN_MAX)
		open_cfg[nopen++] = cfg;
	strlcpy(open_name, name, sizeof(open_name));
}

static void close_config(u32 cfg)
{
	for (u32 i = 0; i < nopen; i++)
		if (open_cfg[i] == cfg) {
			open_cfg[i] = open_cfg[--nopen];
			return;
		}
}

void interrupt_note(const char *line)
{
	char type[16] = "", num[24], name[128];
	const char *t = strchr(line, ' ');
	u64 cfg;
	size_t i = 0;

	t = t ? strchr(t + 1, ' ') : NULL;
	for (t = t ? t + 1 : ""; i + 1 < sizeof(type) && *t && *t != ' '; t++)
		type[i++] = *t;
	type[i] = '\0';
	if (strcmp(type, "end") == 0) {
		ended = true;
		return;
	}
	field(line, "cfg", num, sizeof(num));
	if (!parse_u64(num, strlen(num), &cfg))
		return;
	if (strcmp(type, "config") == 0) {
		field(line, "name", name, sizeof(name));
		open_config((u32)cfg, name);
	} else if (strcmp(type, "summary") == 0) {
		close_config((u32)cfg);
	}
}

/* Not nested: one record at a time. */
static sigset_t held_from;

static bool hold(void *ctx)
{
	(void)ctx;
	interrupt_hold(&held_from);
	return true;
}

static void release(void *ctx)
{
	(void)ctx;
	interrupt_release(&held_from);
}

void interrupt_writer(struct rec_writer *w)
{
	w->lock = hold;
	w->unlock = release;
}

/* --- in the handler: async-signal-safe from here on ------------------ */

static void say(int fd, const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void out_stdout(void *ctx, const char *line)
{
	(void)ctx;
	say(1, line);
}

/* The open configurations as ranges, "5-8" or "3,7"; "none". */
static void open_list(char *buf, size_t n)
{
	u32 lo = 0, prev = 0, done = 0, len = 0;
	bool any = false;

	buf[0] = '\0';
	/* Smallest first, without sorting in place: the handler may run
	 * again over the same array. */
	while (done < nopen) {
		u32 next = ~0u;

		for (u32 i = 0; i < nopen; i++)
			if ((!any || open_cfg[i] > prev) && open_cfg[i] < next)
				next = open_cfg[i];
		if (next == ~0u || len + 24 >= n)
			break;		/* only repeats left, or no room */
		done++;
		if (any && next == prev + 1) {
			prev = next;
			continue;
		}
		if (any)
			len += (u32)ksnprintf(buf + len, n - len, lo == prev ?
					      "%u," : "%u-%u,", lo, prev);
		lo = prev = next;
		any = true;
	}
	if (!any) {
		strlcpy(buf, "none", n);
		return;
	}
	ksnprintf(buf + len, n - len, lo == prev ? "%u" : "%u-%u", lo, prev);
}

static void write_records(const char *sig, const char *cfgs, u32 back,
			  u32 bad)
{
	struct rec_writer w = records;
	struct rec r;

	/* records' own number, continued: its lock holds the signals
	 * from taking a number to writing the line, so its count is of
	 * whole lines written. */
	w.emit = out_stdout;
	w.lock = NULL;
	w.unlock = NULL;
	rec_begin(&w, &r, "interrupted");
	rec_str(&r, "signal", sig);
	rec_str(&r, "cfg", cfgs);
	rec_str(&r, "name", nopen ? open_name : "none");
	rec_u64(&r, "restored", back);
	rec_u64(&r, "not_restored", bad);
	rec_end(&w, &r);
	bench_rec_end(&w);
}

static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	const char *name = "a signal";
	char cfgs[256], msg[512];
	u32 back, bad;

	bool fault = false;

	for (u32 i = 0; i < ARRAY_SIZE(signals); i++)
		if (signals[i] == sig)
			name = signal_names[i];
	for (u32 i = 0; i < ARRAY_SIZE(faults); i++)
		if (faults[i] == sig) {
			name = fault_names[i];
			fault = true;
		}
	if (getpid() == owner) {
		back = restore_all(&bad);
		open_list(cfgs, sizeof(cfgs));
		ksnprintf(msg, sizeof(msg), "hugezero-linux: interrupted by %s "
			  "%s%s%s%s%s; %u host setting%s put back%s\n", name,
			  nopen ? (nopen > 1 ? "in configurations " :
				   "in configuration ") : begun ?
			  "between configurations" : "before any configuration",
			  nopen ? cfgs : "", nopen ? " (" : "",
			  nopen ? open_name : "", nopen ? ")" : "", back,
			  back == 1 ? "" : "s",
			  bad ? ", some not (above)" : "");
		say(2, msg);
		if (fault)
			say(2, "hugezero-linux: a fault in the code under test; "
			    "a linux-* primitive built with LINUX_ABI= may have "
			    "the wrong convention (docs/linux-tree.md)\n");
		if (records.seq && !ended)
			write_records(name, cfgs, back, bad);
		ended = true;
	}
	/* Die of it as before, so the shell sees the signal. */
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

void interrupt_init(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	stack_t st = { .ss_sp = fault_stack, .ss_size = sizeof(fault_stack) };

	owner = getpid();
	signal_set(&sa.sa_mask);
	for (u32 i = 0; i < ARRAY_SIZE(signals); i++)
		sigaction(signals[i], &sa, NULL);
	if (sigaltstack(&st, NULL) == 0)
		sa.sa_flags = SA_ONSTACK;
	for (u32 i = 0; i < ARRAY_SIZE(faults); i++)
		sigaction(faults[i], &sa, NULL);
}
