/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PARAMS_PARSE_H
#define LIB_PARAMS_PARSE_H

#include "lib/cmdline.h"

/*
 * hz_params[]'s P_CUSTOM keys, for the table in lib/params.c: each one's
 * parser (lib/params_parse.c) reads a value into its field, its shower
 * (lib/params_show.c) writes the field back as such a value.
 */
param_parse_t parse_console, parse_chunks, parse_cpus, parse_scale,
	parse_msr_gp, parse_u64_choice, parse_runs, parse_precision,
	parse_prezero_n, parse_prezero_clear, parse_prezero_order, parse_pmu;
param_show_t show_console, show_chunks, show_cpus, show_scale, show_msr_gp,
	show_u64_choice, show_runs, show_precision, show_prezero_n,
	show_prezero_clear, show_prezero_order, show_pmu;

#endif
