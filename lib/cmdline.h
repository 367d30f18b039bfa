/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_CMDLINE_H
#define LIB_CMDLINE_H

#include "lib/types.h"

/*
 * The boot command line: whitespace-separated "key=value" or bare "key"
 * words, values optionally in double quotes.  Keys are described by a
 * schema (struct param) so that the kernel and the Linux companion parse
 * the same keys the same way; docs/cmdline.md is the user's view of it.
 *
 * Every word is accounted for: an unknown key or a bad value becomes an
 * error message naming it, never a silent default.
 */

enum param_type {
	P_BOOL,		/* key, key=1/0/on/off/yes/no/true/false -> bool */
	P_U64,		/* decimal or 0x hex, within [min, max]     -> u64 */
	P_SIZE,		/* as P_U64 with K/M/G/T suffix              -> u64 */
	P_ENUM,		/* one of choices                            -> u32 index */
	P_ENUM_LIST,	/* comma list of choices, or "all"           -> u64 bitmask */
	P_STRING,	/* any text up to max-1 bytes                -> char[max] */
	P_CUSTOM,	/* parsed by param->parse                   -> anything */
};

#define CMDLINE_ERR_LEN 256
#define CMDLINE_MAX_ERRORS 8
/* Keys a schema may have: raise it when a schema outgrows it (hz_params[]
 * asserts that it fits); the given bitmap is sized from it. */
#define CMDLINE_MAX_PARAMS 128
#define CMDLINE_GIVEN_WORDS ((CMDLINE_MAX_PARAMS + 63) / 64)

/* Who takes a key: both sides (the default), or one of them. */
enum param_scope { PARAM_BOTH, PARAM_KERNEL, PARAM_COMPANION };

struct param;
/* Reads @val (@len bytes) into @field; says what is wrong in @err. */
typedef bool param_parse_t(const struct param *p, const char *val, size_t len,
			   void *field, char *err, size_t errlen);
typedef param_parse_t *param_parse_fn;

/* An accepted older spelling of a P_ENUM choice; parsing it adds a note. */
struct param_alias {
	const char *name, *means;
};

struct param {
	const char *key;
	enum param_type type;
	size_t offset;			/* of the field in the config struct */
	const char *const *choices;	/* P_ENUM, P_ENUM_LIST: NULL-terminated */
	u64 min, max;			/* P_U64, P_SIZE; P_STRING: max = buffer size;
					 * P_ENUM_LIST: max = the mask "all" gives
					 * (0: every choice) */
	param_parse_fn parse;		/* P_CUSTOM */
	const char *help;		/* one line, for messages and docs;
					 * NULL: made from the choices */
	const struct param_alias *aliases;	/* P_ENUM: NULL-terminated */
	enum param_scope scope;		/* which side takes the key */
	bool bench;			/* a benchmark's key: needs bench= */
};

struct cmdline_result {
	u32 nerrors;			/* may exceed CMDLINE_MAX_ERRORS */
	u32 nnotes;
	char errors[CMDLINE_MAX_ERRORS][CMDLINE_ERR_LEN];
	char notes[CMDLINE_MAX_ERRORS][CMDLINE_ERR_LEN];
	u64 given[CMDLINE_GIVEN_WORDS];	/* bit i: params[i] appeared */
};

/* Whether params[@i] appeared on the line that filled @res. */
static inline bool cmdline_given(const struct cmdline_result *res, size_t i)
{
	return res->given[i / 64] >> (i % 64) & 1;
}

/*
 * Parse @line against @params (n entries, n <= CMDLINE_MAX_PARAMS) into
 * the struct at @cfg, which the caller has filled with defaults.
 * Returns true when there were no errors.
 */
bool cmdline_parse(const char *line, const struct param *params, size_t n,
		   void *cfg, struct cmdline_result *res);

/* Index of @word in a NULL-terminated choices list, or -1. */
int choice_index(const char *const *choices, const char *word, size_t len);

/*
 * Some boot loaders pass the kernel's path as the first word; return a
 * pointer past it when the first word looks like a path, else @line.
 */
const char *cmdline_skip_image_path(const char *line);

/* @p's one-line help: its own, or "key=a,b,c|all" from its choices. */
void param_help(const struct param *p, char *buf, size_t size);

#endif
