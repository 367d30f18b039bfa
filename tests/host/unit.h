/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A minimal unit-test harness for lib/ on the host.  TEST(name) defines a
 * test and registers it; EXPECT records a failure and carries on, so one
 * run reports every broken expectation.
 */
#ifndef TESTS_HOST_UNIT_H
#define TESTS_HOST_UNIT_H

#include <stdio.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
};

void unit_register(const char *name, void (*fn)(void));
/* @what: the failed expression; @fmt: optional detail (may be ""). */
void unit_fail(const char *file, int line, const char *what,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define TEST(name)							\
	static void test_##name(void);					\
	__attribute__((constructor)) static void reg_##name(void)	\
	{								\
		unit_register(#name, test_##name);			\
	}								\
	static void test_##name(void)

#define EXPECT(cond, ...)						\
	do {								\
		if (!(cond))						\
			unit_fail(__FILE__, __LINE__, #cond, "" __VA_ARGS__); \
	} while (0)

#define EXPECT_EQ(a, b)							\
	do {								\
		unsigned long long _a = (unsigned long long)(a);	\
		unsigned long long _b = (unsigned long long)(b);	\
		if (_a != _b)						\
			unit_fail(__FILE__, __LINE__, #a " == " #b,	\
				  "%s == %#llx, "			\
				  "expected %s == %#llx", #a, _a, #b, _b); \
	} while (0)

#define EXPECT_STR(a, b)						\
	do {								\
		const char *_a = (a), *_b = (b);			\
		if (strcmp(_a, _b) != 0)				\
			unit_fail(__FILE__, __LINE__, #a, "got \"%s\", " \
				  "expected \"%s\"", _a, _b);		\
	} while (0)

#endif
