// SPDX-License-Identifier: GPL-2.0-only
/*
 * The values of hz_params[]'s P_CUSTOM keys shown back (param_show_t):
 * each writes its field as a word its parser in lib/params_parse.c takes
 * back to the same field, so that a default is shown as its row's .def
 * parsed (config_defaults()) and never written down twice (tests/host
 * checks the round trip for every key).
 */
#include <stddef.h>
#include "lib/format.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/params_parse.h"
#include "lib/prims.h"
#include "lib/string.h"

/* The config that holds @field, its @member. */
#define CONFIG_OF(field, member) ((const struct hz_config *)		\
	((const u8 *)(field) - offsetof(struct hz_config, member)))

/* Appends @item to @buf at *@pos, after a comma unless it is the first. */
static void add_item(char *buf, size_t size, size_t *pos, const char *item)
{
	if (*pos < size)
		*pos += (size_t)ksnprintf(buf + *pos, size - *pos, "%s%s",
					  *pos ? "," : "", item);
}

void show_console(const struct param *p, const void *field, char *buf,
		  size_t size)
{
	const struct console_spec *c = field;

	(void)p;
	if (c->autosel)
		ksnprintf(buf, size, "auto");
	else
		ksnprintf(buf, size, "ttyS%u,%u%c%u", c->port, c->baud,
			  c->parity, c->bits);
}

void show_chunks(const struct param *p, const void *field, char *buf,
		 size_t size)
{
	const struct hz_config *c = CONFIG_OF(field, chunks);
	char item[24];
	size_t pos = 0;

	(void)p;
	buf[0] = '\0';
	for (u32 i = 0; i < c->nchunks; i++) {
		cmdline_format_size(c->chunks[i], item, sizeof(item));
		add_item(buf, size, &pos, item);
	}
}

void show_cpus(const struct param *p, const void *field, char *buf,
	       size_t size)
{
	(void)p;
	cpulist_format(field, buf, size);
}

/* "" with no step: one step, every CPU of cpus= */
void show_scale(const struct param *p, const void *field, char *buf,
		size_t size)
{
	const struct hz_config *c = CONFIG_OF(field, scale);
	char item[24];
	size_t pos = 0;

	(void)p;
	buf[0] = '\0';
	for (u32 i = 0; i < c->nscale; i++) {
		if (c->scale[i] == SCALE_ALL)
			ksnprintf(item, sizeof(item), "all");
		else
			ksnprintf(item, sizeof(item), "%llu",
				  (unsigned long long)c->scale[i]);
		add_item(buf, size, &pos, item);
	}
}

void show_msr_gp(const struct param *p, const void *field, char *buf,
		 size_t size)
{
	const struct hz_config *c = CONFIG_OF(field, msr_gp);
	char item[24];
	size_t pos = 0;

	(void)p;
	buf[0] = '\0';
	for (u32 i = 0; i < c->nmsr_gp; i++) {
		ksnprintf(item, sizeof(item), "%#llx",
			  (unsigned long long)c->msr_gp[i]);
		add_item(buf, size, &pos, item);
	}
}

void show_u64_choice(const struct param *p, const void *field, char *buf,
		     size_t size)
{
	(void)p;
	ksnprintf(buf, size, "%llu", (unsigned long long)*(const u64 *)field);
}

void show_runs(const struct param *p, const void *field, char *buf,
	       size_t size)
{
	const struct hz_config *c = CONFIG_OF(field, runs);

	(void)p;
	if (c->runs_auto)
		ksnprintf(buf, size, "auto");
	else
		ksnprintf(buf, size, "%llu", (unsigned long long)c->runs);
}

/* x 100, as parse_precision keeps it: 500 "5", 250 "2.5", 1 "0.01" */
void precision_format(u64 v, char *buf, size_t size)
{
	if (v % 100 == 0)
		ksnprintf(buf, size, "%llu", (unsigned long long)(v / 100));
	else if (v % 10 == 0)
		ksnprintf(buf, size, "%llu.%llu", (unsigned long long)(v / 100),
			  (unsigned long long)(v % 100 / 10));
	else
		ksnprintf(buf, size, "%llu.%02llu", (unsigned long long)(v / 100),
			  (unsigned long long)(v % 100));
}

void show_precision(const struct param *p, const void *field, char *buf,
		    size_t size)
{
	(void)p;
	precision_format(*(const u64 *)field, buf, size);
}

void show_prezero_n(const struct param *p, const void *field, char *buf,
		    size_t size)
{
	u64 v = *(const u64 *)field;

	(void)p;
	if (v == PREZERO_ALL)
		ksnprintf(buf, size, "all");
	else
		ksnprintf(buf, size, "%llu", (unsigned long long)v);
}

/* same, or one of @names (which has @n) */
static void show_same_or(const char *const *names, u32 n, u32 v, char *buf,
			 size_t size)
{
	buf[0] = '\0';
	if (v == PREZERO_SAME)
		ksnprintf(buf, size, "same");
	else if (v < n)
		ksnprintf(buf, size, "%s", names[v]);
}

void show_prezero_clear(const struct param *p, const void *field, char *buf,
			size_t size)
{
	(void)p;
	show_same_or(prim_names, PRIM_COUNT, *(const u32 *)field, buf, size);
}

void show_prezero_order(const struct param *p, const void *field, char *buf,
			size_t size)
{
	(void)p;
	show_same_or(order_choice_names, ORDER_COUNT, *(const u32 *)field, buf,
		     size);
}

void show_pmu(const struct param *p, const void *field, char *buf, size_t size)
{
	const struct hz_config *c = CONFIG_OF(field, npmu);
	size_t pos = 0;

	(void)p;
	buf[0] = '\0';
	if (!c->npmu)
		ksnprintf(buf, size, "none");
	for (u32 i = 0; i < c->npmu; i++)
		add_item(buf, size, &pos, pmu_events[c->pmu[i]].name);
}
