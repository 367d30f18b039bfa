/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PARAMS_H
#define LIB_PARAMS_H

#include "lib/cmdline.h"

/*
 * hugezero's configuration: every boot command-line key, with its
 * default.  The kernel and the Linux companion both parse with this
 * schema; docs/cmdline.md documents each key and must follow it.
 */

enum exit_mode { EXIT_AUTO, EXIT_QEMU, EXIT_HALT, EXIT_REBOOT };
enum crash_mode { CRASH_NONE, CRASH_PF, CRASH_UD, CRASH_GP, CRASH_DE,
		  CRASH_STACK, CRASH_HANG };

struct console_spec {
	u32 port;		/* ttyS<port>, 0..3 */
	u32 baud;
	char parity;		/* 'n', 'o', 'e' */
	u32 bits;		/* 5..8 */
};

struct hz_config {
	struct console_spec console;
	u32 exit;		/* enum exit_mode */
	bool selftest;
	u32 crash;		/* enum crash_mode */
	u64 calib_ms;		/* TSC calibration window per reference */
	u64 tsc_tolerance_ppm;	/* allowed disagreement between references */
};

extern const struct param hz_params[];
extern const size_t hz_nparams;
extern const char *const exit_names[];
extern const char *const crash_names[];

void config_defaults(struct hz_config *c);
bool config_parse(const char *line, struct hz_config *c,
		  struct cmdline_result *res);
/* "ttyS1", "ttyS1,115200", "ttyS1,115200n8" */
bool console_spec_parse(const char *s, size_t len, struct console_spec *out,
			char *err, size_t errlen);

#endif
