// SPDX-License-Identifier: GPL-2.0-only
/* Runs every registered host test; the last line is "N passed, N failed". */
#include <stdarg.h>
#include <stdlib.h>
#include "tests/host/unit.h"

#define MAX_TESTS 512

static struct unit_test tests[MAX_TESTS];
static int ntests, failures_in_current;
static const char *current;

void unit_register(const char *name, void (*fn)(void))
{
	if (ntests == MAX_TESTS) {
		fprintf(stderr, "too many tests; raise MAX_TESTS\n");
		exit(2);
	}
	tests[ntests].name = name;
	tests[ntests].fn = fn;
	ntests++;
}

void unit_fail(const char *file, int line, const char *what,
	       const char *fmt, ...)
{
	va_list ap;

	printf("# %s: %s:%d: failed: %s: ", current, file, line, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures_in_current++;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	for (int i = 0; i < ntests; i++) {
		if (argc > 1 && strstr(tests[i].name, argv[1]) == NULL)
			continue;
		current = tests[i].name;
		failures_in_current = 0;
		tests[i].fn();
		printf("%s %d %s\n", failures_in_current ? "not ok" : "ok",
		       i + 1, tests[i].name);
		if (failures_in_current)
			failed++;
		else
			passed++;
	}
	printf("host: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
