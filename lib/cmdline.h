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
/*
 * Writes @field as a value the parser takes back to the same field, or ""
 * when it holds what no value gives (the key not given).
 */
typedef void param_show_t(const struct param *p, const void *field,
			  char *buf, size_t size);

/* An accepted older spelling of a P_ENUM choice; parsing it adds a note. */
struct param_alias {
	const char *name, *means;
};

/* The longest .meaning: with its pointer, a table cell stays under 400. */
#define PARAM_MEANING_MAX 350

struct param {
	const char *key;
	enum param_type type;
	size_t offset;			/* of the field in the config struct */
	const char *const *choices;	/* P_ENUM, P_ENUM_LIST: NULL-terminated;
					 * P_CUSTOM: the names its value uses */
	u64 min, max;			/* P_U64, P_SIZE; P_STRING: max = buffer size;
					 * P_ENUM_LIST: max = the mask "all" gives
					 * (0: every choice) */
	param_parse_fn parse;		/* P_CUSTOM */
	param_show_t *show;		/* P_CUSTOM */
	const struct param_alias *aliases;	/* P_ENUM: NULL-terminated */
	enum param_scope scope;		/* which side takes the key */
	bool bench;			/* a benchmark's key: needs bench= */
	bool test_only;			/* for the tests, not for measuring */

	/*
	 * What the documentation says of the key (docs/cmdline.md, the
	 * companion's --help and --keys, scripts/hugezero keys are made from
	 * these; the default is shown from the parser's own field).
	 */
	const char *values;		/* what it takes, one line; NULL: made
					 * from the type (choices, min..max) */
	const char *def;		/* the default, as a value; NULL: not
					 * given means no value (.unset says) */
	u64 none;			/* P_U64 without .def: the field when
					 * not given (a sentinel, CPU_AUTO) */
	const char *meaning;		/* one or two sentences */
	const char *unset;		/* what "not given" means, when the
					 * default is no value (param_show "") */
	const char *more;		/* where to read more: "docs/X.md" or
					 * docs/X.md, "Section" */
};

struct cmdline_result {
	u32 nerrors;			/* may exceed CMDLINE_MAX_ERRORS */
	u32 nnotes;
	char errors[CMDLINE_MAX_ERRORS][CMDLINE_ERR_LEN];
	char notes[CMDLINE_MAX_ERRORS][CMDLINE_ERR_LEN];
	u64 given[CMDLINE_GIVEN_WORDS];	/* bit i: params[i] appeared */
};

/*
 * Sets each of @params' .def into @cfg as its parser reads a value;
 * false (what is wrong in @err) where one does not parse: a table's bug,
 * which tests/host/test_cmdline.c holds every table to.
 */
bool cmdline_defaults(const struct param *params, size_t n, void *cfg,
		      char *err, size_t errlen);

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

/*
 * What @p takes: its .values, or made from its type ("a|b|c",
 * "a,b,c|all", "on|off", "1..1000", "4K..64T").
 */
void param_values(const struct param *p, char *buf, size_t size);

/* @p's one-line help, "key=" and its values. */
void param_help(const struct param *p, char *buf, size_t size);

/*
 * The value of @p's field in the config struct at @cfg, as the command
 * line would give it ("2M,1G", "all", "on", "64M", "auto"); "" when the
 * field holds what no value gives.
 */
void param_show(const struct param *p, const void *cfg, char *buf,
		size_t size);

/* @bytes in the largest unit that divides it: "64M", "4K", "1000". */
void cmdline_format_size(u64 bytes, char *buf, size_t size);

#endif
