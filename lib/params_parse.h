/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PARAMS_PARSE_H
#define LIB_PARAMS_PARSE_H

#include "lib/cmdline.h"

/*
 * The parsers of hz_params[]'s P_CUSTOM keys (lib/params_parse.c), for
 * the table in lib/params.c.  Each reads one value into its field.
 */
param_parse_t parse_console, parse_chunks, parse_cpus, parse_scale,
	parse_msr_gp, parse_u64_choice, parse_runs, parse_precision,
	parse_prezero_n, parse_prezero_clear, parse_prezero_order, parse_pmu;

#endif
