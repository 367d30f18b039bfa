// SPDX-License-Identifier: GPL-2.0-only
/*
 * Linux's cpulist syntax, both ways.  The grammar is lib/bitmap-str.c's
 * bitmap_parselist(): comma-separated regions, each "N", "N-M" or
 * "N-M:used/group"; "N" may be "N" only, no spaces.
 */
#include "lib/cpulist.h"
#include "lib/format.h"
#include "lib/string.h"

static bool number(const char **p, const char *end, u32 *v)
{
	const char *s = *p;
	u64 n = 0;

	if (s == end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		n = n * 10 + (u64)(*s++ - '0');
		if (n >= CPUSET_MAX)
			return false;
	}
	*p = s;
	*v = (u32)n;
	return true;
}

/* One region: [start, end] taking @used of each @group from @start. */
static bool region(const char *s, const char *end, struct cpu_set *out,
		   char *err, size_t errlen)
{
	const char *p = s;
	u32 a, b, used = 1, group = 1;

	if (!number(&p, end, &a))
		goto bad;
	b = a;
	if (p < end && *p == '-' && (++p, !number(&p, end, &b)))
		goto bad;
	if (p < end && *p == ':') {
		p++;
		if (!number(&p, end, &used) || p == end || *p++ != '/' ||
		    !number(&p, end, &group) || !used || !group || used > group)
			goto bad;
	}
	if (p != end || b < a)
		goto bad;
	for (u32 c = a; c <= b; c++)
		if ((c - a) % group < used)
			cpu_set_add(out, c);
	return true;
bad:
	ksnprintf(err, errlen, "'%.*s' is not a CPU, a range N-M (N <= M) or "
		  "N-M:used/group, with CPUs below %d", (int)(end - s), s,
		  CPUSET_MAX);
	return false;
}

bool cpulist_parse(const char *s, size_t len, struct cpu_set *out, char *err,
		   size_t errlen)
{
	const char *it;
	size_t il;
	const char *end = s + len;
	struct cpu_set set;

	memset(&set, 0, sizeof(set));
	if (len == 3 && memcmp(s, "all", 3) == 0) {
		set.all = true;
		*out = set;
		return true;
	}
	if (!len) {
		ksnprintf(err, errlen, "an empty CPU list");
		return false;
	}
	while (list_next(&s, end, &it, &il))
		if (!region(it, it + il, &set, err, errlen))
			return false;
	*out = set;
	return true;
}

u32 cpu_set_count(const struct cpu_set *s, u32 limit)
{
	u32 n = 0;

	for (u32 c = 0; c < MIN(limit, (u32)CPUSET_MAX); c++)
		n += cpu_set_has(s, c);
	return n;
}

u32 cpu_set_nth(const struct cpu_set *s, u32 k, u32 limit)
{
	for (u32 c = 0; c < MIN(limit, (u32)CPUSET_MAX); c++)
		if (cpu_set_has(s, c) && k-- == 0)
			return c;
	return ~0u;
}

void cpu_set_first(const struct cpu_set *s, u32 k, u32 limit,
		   struct cpu_set *out)
{
	memset(out, 0, sizeof(*out));
	for (u32 c = 0; c < MIN(limit, (u32)CPUSET_MAX) && k; c++)
		if (cpu_set_has(s, c)) {
			cpu_set_add(out, c);
			k--;
		}
}

int cpulist_format(const struct cpu_set *s, char *buf, size_t n)
{
	size_t len = 0;

	if (n)
		buf[0] = '\0';
	if (s->all)
		return ksnprintf(buf, n, "all");
	for (u32 c = 0; c < CPUSET_MAX; c++) {
		u32 e = c;

		if (!cpu_set_has(s, c))
			continue;
		while (e + 1 < CPUSET_MAX && cpu_set_has(s, e + 1))
			e++;
		if (e > c)
			len += (size_t)ksnprintf(buf + MIN(len, n),
						 n - MIN(len, n), "%s%u-%u",
						 len ? "," : "", c, e);
		else
			len += (size_t)ksnprintf(buf + MIN(len, n),
						 n - MIN(len, n), "%s%u",
						 len ? "," : "", c);
		c = e;
	}
	return (int)len;
}
