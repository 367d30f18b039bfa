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

void param_help_line(const struct param *p, char *buf, size_t size)
{
	char help[512], def[128];
	bool set = param_default(p, def, sizeof(def));

	param_help(p, help, sizeof(help));
	ksnprintf(buf, size, "  %-34s  default: %s%s", help,
		  set ? def : "not given", p->test_only ? " (test-only)" : "");
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
