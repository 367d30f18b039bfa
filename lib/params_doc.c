// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each key's documentation, rendered from its row in hz_params[]: the
 * values it takes, its default shown through the parser's own types from
 * config_defaults(), who takes it, its meaning.  The companion prints
 * these (--help, --keys); scripts/hugezero keys and docs/cmdline.md are
 * made from --keys.
 */
#include "lib/format.h"
#include "lib/params.h"
#include "lib/string.h"

const char param_tsv_header[] =
	"key\tscope\tbench\ttest_only\tvalues\tdefault\tunset\tmeaning\tmore";

const char *param_scope_name(enum param_scope scope)
{
	static const char *const names[] = { "both", "kernel", "companion" };

	return scope < ARRAY_SIZE(names) ? names[scope] : "?";
}

bool param_default(const struct param *p, char *buf, size_t size)
{
	struct hz_config c;

	config_defaults(&c);
	param_show(p, &c, buf, size);
	return buf[0] != '\0';
}

void param_doc_values(const struct param *p, char *buf, size_t size)
{
	size_t pos;

	param_values(p, buf, size);
	pos = strlen(buf);
	/* values said in words ("same|PRIMITIVE"): the words it stands for */
	for (int i = 0; p->values && p->choices && p->choices[i] && pos < size;
	     i++)
		pos += (size_t)ksnprintf(buf + pos, size - pos, "%s%s",
					 i ? ", " : "; names: ", p->choices[i]);
	for (const struct param_alias *a = p->aliases; a && a->name && pos < size;
	     a++)
		pos += (size_t)ksnprintf(buf + pos, size - pos, "%s%s for %s%s",
					 a == p->aliases ? " (old names: " : ", ",
					 a->name, a->means, a[1].name ? "" : ")");
}

/* --help's layout: no line past HELP_WIDTH columns; each key's default
 * in the column after its values, or on a line of its own below them. */
#define HELP_WIDTH	79
#define HELP_VALUES	34	/* the values' column, as wide */
#define HELP_DEFAULT	(2 + HELP_VALUES + 2)
#define HELP_MORE	6	/* where values that wrap go on */

struct help_text {
	char *buf;
	size_t size, pos, col;
};

static void help_put(struct help_text *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && t->pos + 1 < t->size; i++) {
		t->buf[t->pos++] = s[i];
		t->col = s[i] == '\n' ? 0 : t->col + 1;
	}
	t->buf[t->pos] = '\0';
}

/* Spaces up to column @col, on a new line where this one is past it. */
static void help_to(struct help_text *t, size_t col)
{
	if (t->col > col)
		help_put(t, "\n", 1);
	while (t->col < col && t->pos + 1 < t->size)
		help_put(t, " ", 1);
}

/*
 * @s from the current column, broken after a space, ',' or '|' so that
 * no line passes HELP_WIDTH (a word longer than a line is left whole);
 * each line it goes on to starts at @indent.
 */
static void help_wrap(struct help_text *t, const char *s, size_t indent)
{
	while (*s) {
		size_t room = t->col < HELP_WIDTH ? HELP_WIDTH - t->col : 0;
		size_t len = strlen(s), cut = 0;

		if (len <= room) {
			help_put(t, s, len);
			return;
		}
		for (size_t i = 0; i < len && (i < room || !cut); i++)
			if (s[i] == ' ' || s[i] == ',' || s[i] == '|')
				cut = i + 1;
		if (!cut)
			cut = len;
		if (cut > room && t->col > indent) {
			help_to(t, indent);	/* a new line gives it more room */
			continue;
		}
		help_put(t, s, s[cut - 1] == ' ' ? cut - 1 : cut);
		for (s += cut; *s == ' '; s++)
			;
		if (*s) {
			help_put(t, "\n", 1);
			help_to(t, indent);
		}
	}
}

void param_help_line(const struct param *p, char *buf, size_t size)
{
	char help[512], def[128], said[512];
	bool set = param_default(p, def, sizeof(def));
	struct help_text t = { buf, size, 0, 0 };

	buf[0] = '\0';
	param_help(p, help, sizeof(help));
	/* no default value: what not giving the key does, as the docs say */
	ksnprintf(said, sizeof(said), "default: %s%s%s%s", set ? def : "not given",
		  !set && p->unset ? ": " : "", !set && p->unset ? p->unset : "",
		  p->test_only ? " (test-only)" : "");
	help_put(&t, "  ", 2);
	help_wrap(&t, help, HELP_MORE);
	if (t.col + 2 <= HELP_DEFAULT) {
		help_to(&t, HELP_DEFAULT);
	} else if (t.col + 2 + strlen(said) <= HELP_WIDTH) {
		help_put(&t, "  ", 2);
	} else {
		help_put(&t, "\n", 1);
		help_to(&t, HELP_DEFAULT);
	}
	help_wrap(&t, said, HELP_DEFAULT);
}

void param_tsv_line(const struct param *p, char *buf, size_t size)
{
	char values[512], def[128];

	param_doc_values(p, values, sizeof(values));
	param_default(p, def, sizeof(def));
	ksnprintf(buf, size, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s", p->key,
		  param_scope_name(p->scope), p->bench, p->test_only, values,
		  def, p->unset ? p->unset : "", p->meaning ? p->meaning : "",
		  p->more ? p->more : "");
}
