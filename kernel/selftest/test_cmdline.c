// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests of the command line: the one we booted with must be valid
 * (an unknown key or bad value fails here, by design), and the parser
 * must behave freestanding as it does in the host tests.
 */
#include "kernel/main.h"
#include "kernel/selftest/selftest.h"
#include "lib/string.h"

static void boot_args_valid(struct tctx *t)
{
	const struct cmdline_result *r = &cmdline_result;

	for (u32 i = 0; i < MIN(r->nerrors, (u32)CMDLINE_MAX_ERRORS); i++)
		check(t, false, "%s", r->errors[i]);
	check(t, cmdline_ok, "%u command-line errors", r->nerrors);
}

static void parser_accepts(struct tctx *t)
{
	struct hz_config c;
	struct cmdline_result r;

	config_defaults(&c);
	check(t, config_parse("exit=halt selftest=off calib_ms=20 "
			      "console=ttyS1,9600e7 crash=none", &c, &r),
	      "valid line refused: %s", r.errors[0]);
	check(t, c.exit == EXIT_HALT, "exit=%u", c.exit);
	check(t, !c.selftest, "selftest not off");
	check(t, c.calib_ms == 20, "calib_ms=%llu",
	      (unsigned long long)c.calib_ms);
	check(t, c.console.port == 1 && c.console.baud == 9600 &&
	      c.console.parity == 'e' && c.console.bits == 7,
	      "console parsed as ttyS%u,%u%c%u", c.console.port,
	      c.console.baud, c.console.parity, c.console.bits);
}

static void parser_rejects(struct tctx *t)
{
	static const char *const bad[] = {
		"bogus=1", "calib_ms=0", "calib_ms=12x", "exit=sometimes",
		"console=tty0", "console=ttyS0,12345", "=5", "exit",
		"selftest=maybe", "console=\"ttyS0",
	};
	struct hz_config c;
	struct cmdline_result r;

	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		config_defaults(&c);
		check(t, !config_parse(bad[i], &c, &r) && r.nerrors == 1 &&
		      r.errors[0][0], "'%s' accepted", bad[i]);
	}
	config_defaults(&c);
	config_parse("bogus=1", &c, &r);
	check(t, strncmp(r.errors[0], "unknown key 'bogus'", 19) == 0,
	      "message '%s' does not name the key", r.errors[0]);
}

SUITE(suite_cmdline, "cmdline",
	{ "boot_args_valid", boot_args_valid },
	{ "parser_accepts", parser_accepts },
	{ "parser_rejects", parser_rejects },
);
