// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line schema.  Adding a key: a field in struct hz_config, a
 * default in config_defaults(), a row in hz_params[], a section in
 * docs/cmdline.md, and a host test.
 */
#include <stddef.h>
#include "lib/format.h"
#include "lib/params.h"
#include "lib/string.h"

const char *const exit_names[] = { "auto", "qemu", "halt", "reboot", NULL };
const char *const crash_names[] = { "none", "pf", "ud", "gp", "de", "stack",
				    "hang", NULL };

static const u32 bauds[] = { 1200, 2400, 4800, 9600, 19200, 38400, 57600,
			     115200 };

bool console_spec_parse(const char *s, size_t len, struct console_spec *out,
			char *err, size_t errlen)
{
	struct console_spec c = { 0, 115200, 'n', 8 };
	size_t i = 4, j;
	u64 baud = 0;
	bool baud_ok = false;

	if (len < 5 || memcmp(s, "ttyS", 4) != 0 || s[4] < '0' || s[4] > '3' ||
	    (len > 5 && s[5] != ',')) {
		ksnprintf(err, errlen, "'%.*s' is not a serial console "
			  "(ttyS0..ttyS3[,baud[parity bits]])", (int)len, s);
		return false;
	}
	c.port = (u32)(s[4] - '0');
	if (len > 5) {
		i = 6;
		for (j = i; j < len && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j == i || !parse_u64(s + i, j - i, &baud)) {
			ksnprintf(err, errlen, "'%.*s': no baud rate after ','",
				  (int)len, s);
			return false;
		}
		for (u32 k = 0; k < ARRAY_SIZE(bauds); k++)
			baud_ok |= bauds[k] == baud;
		if (!baud_ok) {
			ksnprintf(err, errlen, "baud rate %llu is not one a "
				  "16550 divides 115200 into exactly",
				  (unsigned long long)baud);
			return false;
		}
		c.baud = (u32)baud;
		if (j < len) {
			if (s[j] != 'n' && s[j] != 'o' && s[j] != 'e') {
				ksnprintf(err, errlen, "'%.*s': parity must be "
					  "n, o or e", (int)len, s);
				return false;
			}
			c.parity = s[j++];
		}
		if (j < len) {
			if (j + 1 != len || s[j] < '5' || s[j] > '8') {
				ksnprintf(err, errlen, "'%.*s': data bits "
					  "must be 5..8", (int)len, s);
				return false;
			}
			c.bits = (u32)(s[j] - '0');
		}
	}
	*out = c;
	return true;
}

static bool parse_console(const struct param *p, const char *val, size_t len,
			  void *field, char *err, size_t errlen)
{
	(void)p;
	return console_spec_parse(val, len, field, err, errlen);
}

#define F(x) offsetof(struct hz_config, x)

const struct param hz_params[] = {
	{ "console", P_CUSTOM, F(console), NULL, 0, 0, parse_console,
	  "console=ttyS0..3[,baud[n|o|e][5-8]]" },
	{ "exit", P_ENUM, F(exit), exit_names, 0, 0, NULL,
	  "exit=auto|qemu|halt|reboot" },
	{ "selftest", P_BOOL, F(selftest), NULL, 0, 0, NULL,
	  "selftest=on|off" },
	{ "crash", P_ENUM, F(crash), crash_names, 0, 0, NULL,
	  "crash=none|pf|ud|gp|de|stack|hang" },
	{ "calib_ms", P_U64, F(calib_ms), NULL, 1, 1000, NULL,
	  "calib_ms=1..1000" },
	{ "tsc_tolerance_ppm", P_U64, F(tsc_tolerance_ppm), NULL, 1, 1000000,
	  NULL, "tsc_tolerance_ppm=1..1000000" },
};

const size_t hz_nparams = ARRAY_SIZE(hz_params);

void config_defaults(struct hz_config *c)
{
	memset(c, 0, sizeof(*c));
	c->console.port = 0;
	c->console.baud = 115200;
	c->console.parity = 'n';
	c->console.bits = 8;
	c->exit = EXIT_AUTO;
	c->selftest = true;
	c->crash = CRASH_NONE;
	c->calib_ms = 50;
	c->tsc_tolerance_ppm = 2000;
}

bool config_parse(const char *line, struct hz_config *c,
		  struct cmdline_result *res)
{
	return cmdline_parse(cmdline_skip_image_path(line), hz_params,
			     hz_nparams, c, res);
}
