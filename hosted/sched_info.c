// SPDX-License-Identifier: GPL-2.0-only
/*
 * Linux's preemption model and init_on_alloc/init_on_free, each with
 * where it was read.  In order of trust: debugfs sched/preempt (the live
 * mode, root only and often not mounted), then the boot command line,
 * then the kernel config's build-time defaults.  sched_info_parse() works
 * on file texts only, so every case can be tested with a fake tree under
 * HUGEZERO_HOST_ROOT; sched_info_read() is the only part that reads files.
 */

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hosted/hostroot.h"
#include "hosted/sched_info.h"

#define VAL_LEN 32
/* A kernel config is a few hundred KiB; anything past this is not one. */
#define TEXT_MAX (16 * MiB)

const char *sched_info_model(const struct sched_info *s)
{
	return s->preempt_known ? preempt_model_names[s->preempt] : "unknown";
}

/* The model named @s (not "off": Linux has none such); false if none. */
static bool model_of(const char *s, size_t len, enum preempt_model *m)
{
	for (u32 i = PREEMPT_MODEL_OFF + 1; i < PREEMPT_MODEL_COUNT; i++)
		if (str_eq_n(s, len, preempt_model_names[i])) {
			*m = i;
			return true;
		}
	return false;
}

/* Add to a source text; one that does not fit ends in "...". */
static void vsource(char *src, const char *fmt, va_list ap)
{
	size_t len = strlen(src);
	int n = vsnprintf(src + len, SCHED_SOURCE_LEN - len, fmt, ap);

	if (n > 0 && (size_t)n >= SCHED_SOURCE_LEN - len)
		strcpy(src + SCHED_SOURCE_LEN - 4, "...");
}

static void source_add(char *src, const char *fmt, ...) __printf(2, 3);
static void source_set(char *src, const char *fmt, ...) __printf(2, 3);

static void source_add(char *src, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsource(src, fmt, ap);
	va_end(ap);
}

static void source_set(char *src, const char *fmt, ...)
{
	va_list ap;

	src[0] = '\0';
	va_start(ap, fmt);
	vsource(src, fmt, ap);
	va_end(ap);
}

/* kstrtobool(): the first character decides, the second for on/off. */
static int linux_bool(const char *s)
{
	switch (s[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1':
		return 1;
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0':
		return 0;
	case 'o':
	case 'O':
		if (s[1] == 'n' || s[1] == 'N')
			return 1;
		if (s[1] == 'f' || s[1] == 'F')
			return 0;
	}
	return -1;
}

/* The kernel's parameq(): '-' and '_' are one character in names. */
static bool param_eq(const char *s, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len && name[i]; i++)
		if (s[i] != name[i] &&
		    !(strchr("-_", s[i]) && strchr("-_", name[i])))
			return false;
	return i == len && !name[i];
}

/* One word of a command line, quotes grouping words as in next_arg(). */
static const char *word_end(const char *p, const char **eq)
{
	bool quoted = false;

	*eq = NULL;
	for (; *p && (quoted || !strchr(" \t\n", *p)); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '=' && !*eq)
			*eq = p;
	}
	return p;
}

/*
 * The value of the next @name= on a boot command line after *@pos, its
 * quotes dropped; false at the end or at "--", after which words are
 * init's and not the kernel's.
 */
static bool cmdline_next(const char **pos, const char *name, char *val)
{
	const char *p = *pos, *w, *eq, *v;
	size_t len;

	while (*(p += strspn(p, " \t\n"))) {
		w = p;
		p = word_end(p, &eq);
		if (p - w == 2 && !strncmp(w, "--", 2))
			break;
		w += *w == '"';
		if (!eq || !param_eq(w, (size_t)(eq - w), name))
			continue;
		v = eq + 1 + (eq[1] == '"');
		len = (size_t)(p - v);
		len -= len && v[len - 1] == '"';
		snprintf(val, VAL_LEN, "%.*s", (int)len, v);
		*pos = p;
		return true;
	}
	*pos = p;
	return false;
}

typedef bool (*accept_fn)(const char *val, const void *ctx);

/*
 * The last @name= on @cmdline that @accept takes into @val: the kernel
 * applies each in turn and a handler's rejection changes nothing.  The
 * last one rejected goes to @bad ("" for none).
 */
static bool cmdline_last(const char *cmdline, const char *name,
			 accept_fn accept, const void *ctx, char *val,
			 char *bad)
{
	const char *pos = cmdline ? cmdline : "";
	char v[VAL_LEN];
	bool found = false;

	bad[0] = '\0';
	while (cmdline_next(&pos, name, v)) {
		if (accept(v, ctx)) {
			strlcpy(val, v, VAL_LEN);
			found = true;
		} else {
			strlcpy(bad, v, VAL_LEN);
		}
	}
	return found;
}

static bool bool_accepts(const char *val, const void *ctx)
{
	(void)ctx;
	return linux_bool(val) >= 0;
}

static const char *next_line(const char *l)
{
	const char *nl = strchr(l, '\n');

	return nl ? nl + 1 : NULL;
}

/* CONFIG_@sym's value: 'y' or 'm', else 'n' ("is not set" or absent). */
static char kconfig(const char *text, const char *sym)
{
	size_t len = strlen(sym);

	for (const char *l = text; l && *l; l = next_line(l))
		if (!strncmp(l, "CONFIG_", 7) && !strncmp(l + 7, sym, len) &&
		    l[7 + len] == '=')
			return l[8 + len] == 'm' ? 'm' : 'y';
	return 'n';
}

/*
 * The first of these set is the build's choice: with PREEMPT_DYNAMIC the
 * boot-time default, in preempt_dynamic_init()'s order, else the model.
 */
static const struct {
	const char *sym;
	enum preempt_model model;
} preempt_syms[] = {
	/* 5.12 to 5.15 named the dynamic default CONFIG_*_BEHAVIOUR */
	{ "PREEMPT_NONE_BEHAVIOUR", PREEMPT_MODEL_NONE },
	{ "PREEMPT_VOLUNTARY_BEHAVIOUR", PREEMPT_MODEL_VOLUNTARY },
	{ "PREEMPT_BEHAVIOUR", PREEMPT_MODEL_FULL },
	{ "PREEMPT_NONE", PREEMPT_MODEL_NONE },
	{ "PREEMPT_VOLUNTARY", PREEMPT_MODEL_VOLUNTARY },
	{ "PREEMPT_LAZY", PREEMPT_MODEL_LAZY },
	{ "PREEMPT", PREEMPT_MODEL_FULL },
	/* Until 6.12 a choice of its own, instead of CONFIG_PREEMPT */
	{ "PREEMPT_RT", PREEMPT_MODEL_FULL },
};

struct kconfig_preempt {
	enum preempt_model model;
	const char *sym;		/* the choice it came from */
	bool dynamic, rt, arch_lazy;
};

static void kconfig_preempt(const char *text, struct kconfig_preempt *k)
{
	*k = (struct kconfig_preempt){
		.dynamic = kconfig(text, "PREEMPT_DYNAMIC") == 'y',
		.rt = kconfig(text, "PREEMPT_RT") == 'y',
		.arch_lazy = kconfig(text, "ARCH_HAS_PREEMPT_LAZY") == 'y',
	};
	for (u32 i = 0; i < ARRAY_SIZE(preempt_syms); i++)
		if (kconfig(text, preempt_syms[i].sym) == 'y') {
			k->model = preempt_syms[i].model;
			k->sym = preempt_syms[i].sym;
			return;
		}
}

/*
 * Linux 7.0 or later, by the release's leading "MAJOR.": from 7.0 an x86
 * kernel offers full and lazy only (lib/preempt.h).  The companion runs
 * on x86 alone, so this is x86's rule.
 */
static bool linux7(const char *release)
{
	return release[0] >= '0' && release[0] <= '9' && atoi(release) >= 7;
}

/* What preempt= is checked against: the build when at hand, and 7.0's. */
struct preempt_ctx {
	const struct kconfig_preempt *k;	/* NULL: no config read */
	bool linux7;
};

/* sched_dynamic_mode(): which preempt= values this build takes. */
static bool preempt_accepts(const char *val, const void *ctx)
{
	const struct preempt_ctx *p = ctx;
	const struct kconfig_preempt *k = p->k;
	enum preempt_model m;

	if (!model_of(val, strlen(val), &m))
		return false;
	/* 7dadeaa6e851: none and voluntary refused where lazy exists */
	if (p->linux7 && !preempt_x86_linux7_offers(m))
		return false;
	if (!k)
		return true;	/* no build to check it against */
	if (k->rt && (m == PREEMPT_MODEL_NONE || m == PREEMPT_MODEL_VOLUNTARY))
		return false;
	return m != PREEMPT_MODEL_LAZY || k->arch_lazy;
}

static size_t trimmed_len(const char *s)
{
	size_t len = strcspn(s, "\n");

	while (len && s[len - 1] == ' ')
		len--;
	return len;
}

/* sched_dynamic_show(): the modes on offer, the current one in (). */
static void preempt_from_debugfs(struct sched_info *s,
				 const struct sched_texts *t)
{
	const char *a = strchr(t->debugfs, '(');
	const char *b = a ? strchr(a, ')') : NULL;

	s->preempt_known = b && model_of(a + 1, (size_t)(b - a - 1),
					 &s->preempt);
	source_set(s->preempt_source, "%s: %.*s", t->debugfs_path,
		   (int)trimmed_len(t->debugfs), t->debugfs);
	if (!s->preempt_known)
		source_add(s->preempt_source,
			   " (no known mode in parentheses)");
}

static void preempt_from_kconfig(struct sched_info *s,
				 const struct sched_texts *t,
				 const struct kconfig_preempt *k)
{
	s->preempt = k->model;
	s->preempt_known = k->sym != NULL;
	source_set(s->preempt_source, "%s: CONFIG_PREEMPT_DYNAMIC%s",
		   t->config_path, k->dynamic ? "=y" : " is not set");
	if (!k->sym) {
		source_add(s->preempt_source, ", no CONFIG_PREEMPT_* model");
		return;
	}
	source_add(s->preempt_source, ", CONFIG_%s=y", k->sym);
	/* Real-time on top of the model, as preempt_model_str() says it. */
	if (k->rt && strcmp(k->sym, "PREEMPT_RT"))
		source_add(s->preempt_source, ", CONFIG_PREEMPT_RT=y");
}

static void preempt_decide(struct sched_info *s, const struct sched_texts *t)
{
	struct kconfig_preempt k;
	const struct kconfig_preempt *kp = NULL;
	struct preempt_ctx ctx = { NULL, linux7(t->release) };
	char val[VAL_LEN], bad[VAL_LEN];
	bool given;

	if (t->config) {
		kconfig_preempt(t->config, &k);
		kp = &k;
		ctx.k = kp;
	}
	given = cmdline_last(t->cmdline, "preempt", preempt_accepts, &ctx, val,
			     bad);
	/* Without PREEMPT_DYNAMIC there is no preempt= at all. */
	if (given && (!kp || k.dynamic)) {
		s->preempt_known = model_of(val, strlen(val), &s->preempt);
		source_set(s->preempt_source, "%s: preempt=%s",
			   t->cmdline_path, val);
	} else if (kp) {
		preempt_from_kconfig(s, t, kp);
	} else {
		s->preempt_known = false;
		source_set(s->preempt_source, "%s: %s; no preempt= on %s; %s",
			   t->debugfs_path, t->debugfs_why, t->cmdline_path,
			   t->config_why);
	}
	if (given && kp && !k.dynamic)
		strlcpy(bad, val, VAL_LEN);
	if (bad[0])
		source_add(s->preempt_source, "; preempt=%s on %s has no "
			   "effect", bad, t->cmdline_path);
}

/* mem_debugging_and_hardening_init(): page poisoning wins over both. */
static void poison_check(struct sched_setting *v, const struct sched_texts *t)
{
	char val[VAL_LEN], bad[VAL_LEN];

	if (v->on != 1 || !t->config ||
	    kconfig(t->config, "PAGE_POISONING") != 'y' ||
	    !cmdline_last(t->cmdline, "page_poison", bool_accepts, NULL, val,
			  bad) || linux_bool(val) != 1)
		return;
	v->on = 0;
	source_add(v->source, "; page_poison=%s on %s with "
		   "CONFIG_PAGE_POISONING=y turns it off", val,
		   t->cmdline_path);
}

/* init_on_alloc= and init_on_free= are early_param()s of mm/mm_init.c. */
static void init_decide(struct sched_setting *v, const char *name,
			const char *sym, const struct sched_texts *t)
{
	char val[VAL_LEN], bad[VAL_LEN];

	if (cmdline_last(t->cmdline, name, bool_accepts, NULL, val, bad)) {
		v->on = linux_bool(val);
		source_set(v->source, "%s: %s=%s", t->cmdline_path, name, val);
	} else if (t->config) {
		v->on = kconfig(t->config, sym) == 'y';
		source_set(v->source, "%s: CONFIG_%s%s", t->config_path, sym,
			   v->on ? "=y" : " is not set");
	} else {
		v->on = -1;
		source_set(v->source, "no %s= on %s, no kernel config readable",
			   name, t->cmdline_path);
	}
	if (bad[0])
		source_add(v->source, "; %s=%s on %s rejected", name, bad,
			   t->cmdline_path);
	poison_check(v, t);
}

/*
 * Linux 7.0 or later on x86 is full or lazy: a model no source gave is
 * taken as full, and one outside the two (a config no x86 7.0 can build)
 * is said to be so.
 */
static void preempt_linux7(struct sched_info *s, const struct sched_texts *t)
{
	if (!linux7(t->release))
		return;
	if (!s->preempt_known) {
		s->preempt_known = s->preempt_assumed = true;
		s->preempt = PREEMPT_MODEL_FULL;
		source_add(s->preempt_source, "; taken as full: Linux %s on x86 "
			   "offers only full and lazy", t->release);
	} else if (!preempt_x86_linux7_offers(s->preempt)) {
		source_add(s->preempt_source, "; not a model x86 Linux %s "
			   "offers", t->release);
	}
}

void sched_info_parse(struct sched_info *s, const struct sched_texts *t)
{
	s->preempt_assumed = false;
	if (t->debugfs)
		preempt_from_debugfs(s, t);
	else
		preempt_decide(s, t);
	preempt_linux7(s, t);
	init_decide(&s->init_on_alloc, "init_on_alloc",
		    "INIT_ON_ALLOC_DEFAULT_ON", t);
	init_decide(&s->init_on_free, "init_on_free",
		    "INIT_ON_FREE_DEFAULT_ON", t);
}

/* All of @fd as a string, NULL when empty, unreadable or too long. */
static char *read_all(int fd)
{
	size_t len = 0, cap = 64 * KiB;
	char *buf = malloc(cap), *bigger;
	ssize_t n = 0;

	while (buf && (n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (len + 1 < cap)
			continue;
		bigger = cap < TEXT_MAX ? realloc(buf, cap * 2) : NULL;
		if (!bigger)
			free(buf);
		buf = bigger;
		cap *= 2;
	}
	if (buf && (n < 0 || len == 0)) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	return buf;
}

static char *read_file(const char *path, char *why, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *text;

	if (fd < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return NULL;
	}
	text = read_all(fd);
	close(fd);
	if (!text)
		snprintf(why, n, "empty or unreadable");
	return text;
}

/* gzip -dc <@path on a pipe: no zlib, and no shell to quote @path for. */
static int spawn_gunzip(const char *path, pid_t *pid, char *why, size_t n)
{
	char *argv[] = { "gzip", "-dc", NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2], err;

	if (access(path, R_OK) != 0) {
		snprintf(why, n, "%s", strerror(errno));
		return -1;
	}
	if (pipe2(pfd, O_CLOEXEC) != 0) {
		snprintf(why, n, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, path, O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	err = posix_spawnp(pid, "gzip", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (err) {
		close(pfd[0]);
		snprintf(why, n, "%s", err == ENOENT ? "no gzip on PATH to "
			 "decompress it" : strerror(err));
		return -1;
	}
	return pfd[0];
}

static char *gunzip(const char *path, char *why, size_t n)
{
	int fd, status = 0;
	char *text;
	pid_t pid;

	fd = spawn_gunzip(path, &pid, why, n);
	if (fd < 0)
		return NULL;
	text = read_all(fd);
	close(fd);
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0 && text)
		return text;
	free(text);
	snprintf(why, n, "gzip -dc failed (wait status %#x)", status);
	return NULL;
}

static void host_path(char *buf, const char *path)
{
	snprintf(buf, SCHED_PATH_LEN, "%s%s", host_root(), path);
}

/* /proc/config.gz, else the distribution's /boot/config-$(uname -r). */
static void read_config(struct sched_texts *t)
{
	char gz[SCHED_PATH_LEN], boot[SCHED_PATH_LEN], why[2][64];
	struct utsname u;

	host_path(gz, "/proc/config.gz");
	t->config = gunzip(gz, why[0], sizeof(why[0]));
	if (t->config) {
		strlcpy(t->config_path, gz, SCHED_PATH_LEN);
		return;
	}
	snprintf(boot, sizeof(boot), "/boot/config-%s",
		 uname(&u) == 0 ? u.release : "?");
	host_path(t->config_path, boot);
	t->config = read_file(t->config_path, why[1], sizeof(why[1]));
	if (!t->config)
		source_set(t->config_why, "%s: %s; %s: %s", gz, why[0],
			   t->config_path, why[1]);
}

/* The running kernel's release: /proc's (under HUGEZERO_HOST_ROOT a
 * fake tree's), else uname()'s; "" when neither says. */
static void read_release(struct sched_texts *t)
{
	char path[SCHED_PATH_LEN], why[64], *text;
	struct utsname u;

	host_path(path, "/proc/sys/kernel/osrelease");
	text = read_file(path, why, sizeof(why));
	if (text)
		snprintf(t->release, sizeof(t->release), "%.*s",
			 (int)strcspn(text, "\n"), text);
	else if (uname(&u) == 0)
		snprintf(t->release, sizeof(t->release), "%s", u.release);
	free(text);
}

void sched_info_read(struct sched_info *s)
{
	struct sched_texts t = { 0 };
	char why[64];

	host_path(t.debugfs_path, "/sys/kernel/debug/sched/preempt");
	t.debugfs = read_file(t.debugfs_path, t.debugfs_why,
			      sizeof(t.debugfs_why));
	host_path(t.cmdline_path, "/proc/cmdline");
	t.cmdline = read_file(t.cmdline_path, why, sizeof(why));
	read_config(&t);
	read_release(&t);
	sched_info_parse(s, &t);
	if (s->preempt_assumed)
		fprintf(stderr, "hugezero-linux: preempt=full assumed, no "
			"source said the model: %s\n", s->preempt_source);
	free(t.debugfs);
	free(t.cmdline);
	free(t.config);
}

static void setting_record(struct rec *r, const char *key,
			   const struct sched_setting *v)
{
	char source_key[40];

	rec_str(r, key, v->on < 0 ? "unknown" : v->on ? "1" : "0");
	snprintf(source_key, sizeof(source_key), "%s_source", key);
	rec_str(r, source_key, v->source);
}

void sched_info_record(struct rec *r, const struct sched_info *s)
{
	rec_str(r, "preempt", sched_info_model(s));
	rec_str(r, "preempt_source", s->preempt_source);
	setting_record(r, "init_on_alloc", &s->init_on_alloc);
	setting_record(r, "init_on_free", &s->init_on_free);
}
