// SPDX-License-Identifier: GPL-2.0-only
/*
 * Schema-driven boot command-line parser.  See lib/cmdline.h and
 * docs/cmdline.md for the grammar.
 */
#include "lib/cmdline.h"
#include "lib/format.h"
#include "lib/string.h"

struct word {
	const char *key;
	size_t klen;
	const char *val;	/* NULL for a bare key */
	size_t vlen;
	const char *text;	/* the whole word, for messages */
	size_t tlen;
	bool unterminated;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void add_msg(char (*buf)[CMDLINE_ERR_LEN], u32 *count,
		    const char *fmt, ...) __printf(3, 4);

static void add_msg(char (*buf)[CMDLINE_ERR_LEN], u32 *count,
		    const char *fmt, ...)
{
	va_list ap;

	if (*count < CMDLINE_MAX_ERRORS) {
		va_start(ap, fmt);
		kvsnprintf(buf[*count], CMDLINE_ERR_LEN, fmt, ap);
		va_end(ap);
	}
	(*count)++;
}

#define ERR(res, ...) add_msg((res)->errors, &(res)->nerrors, __VA_ARGS__)
#define NOTE(res, ...) add_msg((res)->notes, &(res)->nnotes, __VA_ARGS__)

/* A P_ENUM value under an older name: the index of the choice it means. */
static int alias_index(const struct param *p, const struct word *w)
{
	for (const struct param_alias *a = p->aliases; a && a->name; a++)
		if (strlen(a->name) == w->vlen &&
		    memcmp(a->name, w->val, w->vlen) == 0)
			return choice_index(p->choices, a->means,
					    strlen(a->means));
	return -1;
}

/* Split the next word off @p; returns the position after it. */
static const char *next_word(const char *p, struct word *w)
{
	bool quoted = false;

	memset(w, 0, sizeof(*w));
	w->text = w->key = p;
	while (*p && *p != '=' && !is_space(*p))
		p++;
	w->klen = (size_t)(p - w->key);
	if (*p == '=') {
		p++;
		if (*p == '"') {
			quoted = true;
			p++;
		}
		w->val = p;
		while (*p && (quoted ? *p != '"' : !is_space(*p)))
			p++;
		w->vlen = (size_t)(p - w->val);
		if (quoted) {
			if (*p == '"')
				p++;
			else
				w->unterminated = true;
		}
	}
	w->tlen = (size_t)(p - w->text);
	return p;
}

int choice_index(const char *const *choices, const char *word, size_t len)
{
	int i;

	for (i = 0; choices[i]; i++)
		if (str_eq_n(word, len, choices[i]))
			return i;
	return -1;
}

/* "a|b|c" or, for a list, "a,b,c|all"; separator @sep between names. */
static size_t join_choices(const char *const *choices, const char *sep,
			   char *buf, size_t size)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (int i = 0; choices[i] && pos < size; i++)
		pos += (size_t)ksnprintf(buf + pos, size - pos, "%s%s",
					 i ? sep : "", choices[i]);
	return pos;
}

void cmdline_format_size(u64 bytes, char *buf, size_t size)
{
	static const char units[] = "KMGT";
	u32 u = 0;

	if (!bytes || bytes % KiB) {
		ksnprintf(buf, size, "%llu", (unsigned long long)bytes);
		return;
	}
	bytes /= KiB;
	while (u + 1 < sizeof(units) - 1 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	ksnprintf(buf, size, "%llu%c", (unsigned long long)bytes, units[u]);
}

void param_values(const struct param *p, char *buf, size_t size)
{
	char lo[24], hi[24];
	size_t pos;

	if (p->values) {
		ksnprintf(buf, size, "%s", p->values);
		return;
	}
	switch (p->type) {
	case P_BOOL:
		ksnprintf(buf, size, "on|off");
		return;
	case P_U64:
		ksnprintf(buf, size, "%llu..%llu", (unsigned long long)p->min,
			  (unsigned long long)p->max);
		return;
	case P_SIZE:
		cmdline_format_size(p->min, lo, sizeof(lo));
		cmdline_format_size(p->max, hi, sizeof(hi));
		ksnprintf(buf, size, "%s..%s", lo, hi);
		return;
	case P_ENUM_LIST:
		/* a list is comma-separated, or all */
		pos = join_choices(p->choices, ",", buf, size);
		if (pos < size)
			ksnprintf(buf + pos, size - pos, "|all");
		return;
	default:
		if (p->choices)
			join_choices(p->choices, "|", buf, size);
		else
			ksnprintf(buf, size, "VALUE");
	}
}

void param_help(const struct param *p, char *buf, size_t size)
{
	size_t pos = (size_t)ksnprintf(buf, size, "%s=", p->key);

	if (pos < size)
		param_values(p, buf + pos, size - pos);
}

/* What "all" means for @p: every choice, or max where set (a choice
 * may stand apart, as order=tree does). */
static u64 enum_all(const struct param *p)
{
	u64 mask = 0;

	for (int i = 0; p->choices[i]; i++)
		mask |= 1ULL << i;
	return p->max ? mask & p->max : mask;
}

/* The names of @mask's bits, "all" when it is what all gives. */
static void show_mask(const struct param *p, u64 mask, char *buf, size_t size)
{
	u64 all = enum_all(p);
	size_t pos = 0;

	buf[0] = '\0';
	if (mask && mask == all) {
		ksnprintf(buf, size, "all");
		return;
	}
	for (int i = 0; p->choices[i] && pos < size; i++)
		if (mask & (1ULL << i))
			pos += (size_t)ksnprintf(buf + pos, size - pos, "%s%s",
						 pos ? "," : "", p->choices[i]);
}

void param_show(const struct param *p, const void *cfg, char *buf, size_t size)
{
	const void *field = (const u8 *)cfg + p->offset;
	u64 v;
	u32 n = 0;

	buf[0] = '\0';
	switch (p->type) {
	case P_BOOL:
		ksnprintf(buf, size, "%s", *(const bool *)field ? "on" : "off");
		return;
	case P_U64:
	case P_SIZE:
		/* a value no word gives (CPU_AUTO, 0 below min): not given */
		v = *(const u64 *)field;
		if (v < p->min || v > p->max)
			return;
		if (p->type == P_SIZE)
			cmdline_format_size(v, buf, size);
		else
			ksnprintf(buf, size, "%llu", (unsigned long long)v);
		return;
	case P_ENUM:
		while (p->choices[n])
			n++;
		if (*(const u32 *)field < n)
			ksnprintf(buf, size, "%s", p->choices[*(const u32 *)field]);
		return;
	case P_ENUM_LIST:
		show_mask(p, *(const u64 *)field, buf, size);
		return;
	case P_STRING:
		ksnprintf(buf, size, "%s", (const char *)field);
		return;
	case P_CUSTOM:
		if (p->show)
			p->show(p, field, buf, size);
		return;
	}
}

static bool parse_bool(const char *v, size_t len, bool *out)
{
	static const char *const yes[] = { "1", "on", "yes", "true", NULL };
	static const char *const no[] = { "0", "off", "no", "false", NULL };

	if (!v || choice_index(yes, v, len) >= 0) {
		*out = true;
		return true;
	}
	if (choice_index(no, v, len) >= 0) {
		*out = false;
		return true;
	}
	return false;
}

static bool parse_number(const struct param *p, const struct word *w,
			 u64 *out, struct cmdline_result *res)
{
	bool ok = p->type == P_SIZE ? parse_size(w->val, w->vlen, out)
				    : parse_u64(w->val, w->vlen, out);

	if (!ok) {
		ERR(res, "key '%s': '%.*s' is not %s", p->key, (int)w->vlen,
		    w->val, p->type == P_SIZE ? "a size (like 512M or 2G)"
					      : "a number");
		return false;
	}
	if (*out < p->min || *out > p->max) {
		ERR(res, "key '%s': %llu is outside %llu..%llu", p->key,
		    (unsigned long long)*out, (unsigned long long)p->min,
		    (unsigned long long)p->max);
		return false;
	}
	return true;
}

/* A list of choices; "all" is one item of it, so that a choice standing
 * apart joins it (order=all,tree). */
static bool parse_enum_list(const struct param *p, const struct word *w,
			    u64 *out, struct cmdline_result *res)
{
	const char *s = w->val, *end = w->val + w->vlen;
	char names[CMDLINE_ERR_LEN];
	const char *it;
	size_t il;
	u64 mask = 0;

	while (list_next(&s, end, &it, &il)) {
		int idx = choice_index(p->choices, it, il);

		if (str_eq_n(it, il, "all")) {
			mask |= enum_all(p);
			continue;
		}
		if (idx < 0) {
			join_choices(p->choices, "|", names, sizeof(names));
			ERR(res, "key '%s': '%.*s' is not one of %s|all", p->key,
			    (int)il, it, names);
			return false;
		}
		mask |= 1ULL << idx;
	}
	*out = mask;
	return true;
}

static bool apply(const struct param *p, const struct word *w, void *cfg,
		  struct cmdline_result *res)
{
	void *field = (u8 *)cfg + p->offset;
	char names[CMDLINE_ERR_LEN];
	char err[CMDLINE_ERR_LEN];
	u64 v;
	int idx;

	if (p->type != P_BOOL && (!w->val || w->vlen == 0)) {
		param_help(p, names, sizeof(names));
		ERR(res, "key '%s' needs a value (%s)", p->key, names);
		return false;
	}
	switch (p->type) {
	case P_BOOL:
		if (!parse_bool(w->val, w->vlen, field)) {
			ERR(res, "key '%s': '%.*s' is not on or off", p->key,
			    (int)w->vlen, w->val);
			return false;
		}
		return true;
	case P_U64:
	case P_SIZE:
		if (!parse_number(p, w, &v, res))
			return false;
		*(u64 *)field = v;
		return true;
	case P_ENUM:
		idx = choice_index(p->choices, w->val, w->vlen);
		if (idx < 0 && (idx = alias_index(p, w)) >= 0)
			NOTE(res, "%s=%.*s is an old name for %s=%s", p->key,
			     (int)w->vlen, w->val, p->key, p->choices[idx]);
		if (idx < 0) {
			join_choices(p->choices, "|", names, sizeof(names));
			ERR(res, "key '%s': '%.*s' is not one of %s", p->key,
			    (int)w->vlen, w->val, names);
			return false;
		}
		*(u32 *)field = (u32)idx;
		return true;
	case P_ENUM_LIST:
		if (!parse_enum_list(p, w, &v, res))
			return false;
		*(u64 *)field = v;
		return true;
	case P_STRING:
		if (w->vlen + 1 > p->max) {
			ERR(res, "key '%s': value longer than %llu bytes",
			    p->key, (unsigned long long)(p->max - 1));
			return false;
		}
		memcpy(field, w->val, w->vlen);
		((char *)field)[w->vlen] = '\0';
		return true;
	case P_CUSTOM:
		err[0] = '\0';
		if (!p->parse(p, w->val, w->vlen, field, err, sizeof(err))) {
			ERR(res, "key '%s': %s", p->key,
			    err[0] ? err : "bad value");
			return false;
		}
		return true;
	}
	return false;
}

static int find_param(const struct param *params, size_t n,
		      const struct word *w)
{
	for (size_t i = 0; i < n; i++)
		if (str_eq_n(w->key, w->klen, params[i].key))
			return (int)i;
	return -1;
}

/* Each .def through its key's parser, as if the line said KEY=DEF.  The
 * result's messages are big for a stack: one for the callers, which run
 * it once (at boot, at the companion's start, in tests). */
bool cmdline_defaults(const struct param *params, size_t n, void *cfg,
		      char *err, size_t errlen)
{
	static struct cmdline_result res;

	for (size_t i = 0; i < n; i++) {
		const struct param *p = &params[i];
		struct word w = { .key = p->key, .val = p->def };

		if (!p->def) {
			if (p->type == P_U64 && p->none)
				*(u64 *)((u8 *)cfg + p->offset) = p->none;
			continue;
		}
		w.klen = strlen(p->key);
		w.vlen = strlen(p->def);
		w.text = p->def;
		w.tlen = w.vlen;
		res.nerrors = 0;
		if (!apply(p, &w, cfg, &res)) {
			ksnprintf(err, errlen, "key '%s': default '%s': %s", p->key,
				  p->def, res.errors[0]);
			return false;
		}
	}
	return true;
}

bool cmdline_parse(const char *line, const struct param *params, size_t n,
		   void *cfg, struct cmdline_result *res)
{
	const char *p = line;
	struct word w;

	memset(res, 0, sizeof(*res));
	if (n > CMDLINE_MAX_PARAMS) {
		ERR(res, "internal: %zu keys exceed the parser's %d", n,
		    CMDLINE_MAX_PARAMS);
		return false;
	}
	while (p && *p) {
		int i;

		while (is_space(*p))
			p++;
		if (!*p)
			break;
		p = next_word(p, &w);
		if (w.klen == 0) {
			ERR(res, "'%.*s' has no key before '='", (int)w.tlen,
			    w.text);
			continue;
		}
		if (w.unterminated) {
			ERR(res, "key '%.*s': missing closing quote",
			    (int)w.klen, w.key);
			continue;
		}
		i = find_param(params, n, &w);
		if (i < 0) {
			ERR(res, "unknown key '%.*s' (in '%.*s')", (int)w.klen,
			    w.key, (int)w.tlen, w.text);
			continue;
		}
		if (cmdline_given(res, (size_t)i))
			NOTE(res, "key '%s' given more than once; the last "
			     "value counts", params[i].key);
		if (apply(&params[i], &w, cfg, res))
			res->given[i / 64] |= 1ULL << (i % 64);
	}
	return res->nerrors == 0;
}

const char *cmdline_skip_image_path(const char *line)
{
	const char *p = line;

	while (is_space(*p))
		p++;
	if (*p != '/' && *p != '(')
		return line;
	while (*p && !is_space(*p))
		p++;
	return p;
}
