// SPDX-License-Identifier: GPL-2.0-only
/*
 * KTAP line writer.  It formats whole lines and hands them to an emitter,
 * so the kernel (serial console) and host tests (a buffer) share it.
 */
#include <stdarg.h>
#include "lib/format.h"
#include "lib/ktap.h"
#include "lib/string.h"

static void emitf(struct ktap *k, const char *fmt, ...) __printf(2, 3);

/* Indent by depth, format, strip characters that would break the grammar. */
static void emitf(struct ktap *k, const char *fmt, ...)
{
	char line[KTAP_LINE];
	size_t ind = 4 * k->depth, n;
	va_list ap;

	if (ind > sizeof(line) / 2)
		ind = sizeof(line) / 2;
	memset(line, ' ', ind);
	va_start(ap, fmt);
	kvsnprintf(line + ind, sizeof(line) - ind - 1, fmt, ap);
	va_end(ap);
	n = strlen(line);
	for (size_t i = ind; i < n; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[n] = '\n';
	line[n + 1] = '\0';
	k->emit(k->ctx, line);
}

/* A test name may not contain '#' (it starts a directive). */
static void clean_name(char *dst, size_t size, const char *name)
{
	strlcpy(dst, name, size);
	for (; *dst; dst++)
		if (*dst == '#')
			*dst = '_';
}

void ktap_init(struct ktap *k, void (*emit)(void *, const char *), void *ctx)
{
	memset(k, 0, sizeof(*k));
	k->emit = emit;
	k->ctx = ctx;
	k->next[0] = 1;
}

void ktap_start(struct ktap *k, u32 plan)
{
	emitf(k, "KTAP version 1");
	emitf(k, "1..%u", plan);
}

void ktap_subtest_start(struct ktap *k, const char *name, u32 plan)
{
	char nm[96];

	if (k->depth + 1 >= KTAP_MAX_DEPTH)
		return;
	clean_name(nm, sizeof(nm), name);
	k->depth++;
	k->next[k->depth] = 1;
	strlcpy(k->names[k->depth], nm, sizeof(k->names[k->depth]));
	emitf(k, "KTAP version 1");
	emitf(k, "# Subtest: %s", nm);
	emitf(k, "1..%u", plan);
}

static void result_line(struct ktap *k, enum ktap_status st, const char *name,
			const char *reason)
{
	char nm[96];
	u32 n = k->next[k->depth]++;

	clean_name(nm, sizeof(nm), name);
	if (st == KTAP_SKIP)
		emitf(k, "ok %u %s # SKIP %s", n, nm, reason ? reason : "");
	else
		emitf(k, "%s %u %s", st == KTAP_OK ? "ok" : "not ok", n, nm);
}

void ktap_subtest_end(struct ktap *k, const char *name, enum ktap_status st)
{
	if (k->depth == 0)
		return;
	k->depth--;
	result_line(k, st, name, "all cases skipped");
}

void ktap_result(struct ktap *k, enum ktap_status st, const char *name,
		 const char *reason)
{
	result_line(k, st, name, reason);
	if (st == KTAP_OK)
		k->pass++;
	else if (st == KTAP_FAIL)
		k->fail++;
	else
		k->skip++;
}

void ktap_diag(struct ktap *k, const char *fmt, ...)
{
	char msg[KTAP_LINE - 8];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	emitf(k, "# %s", msg);
}

void ktap_abort(struct ktap *k, const char *name)
{
	while (k->depth > 0) {
		char nm[sizeof(k->names[0])];

		strlcpy(nm, k->names[k->depth], sizeof(nm));
		emitf(k, "# aborted: %s", name);
		k->depth--;
		result_line(k, KTAP_FAIL, nm, NULL);
	}
	result_line(k, KTAP_FAIL, name, NULL);
	k->fail++;
}
