// SPDX-License-Identifier: GPL-2.0-only
/* The MSR accesses of one vendor path, as a line (lib/msrtrace.h). */
#include "lib/format.h"
#include "lib/msrtrace.h"
#include "lib/string.h"

#define VEC_GP	13

void msr_trace_add(struct msr_trace *t, u32 msr, bool write, u64 err)
{
	if (!t)
		return;
	if (err)
		t->faults++;
	if (t->n == MSR_TRACE_MAX) {
		t->more++;
		return;
	}
	t->a[t->n].msr = msr;
	t->a[t->n].write = write;
	t->a[t->n].err = (u8)(err > 0xff ? 0xff : err);
	t->n++;
}

const char *msr_err_name(u8 err, char *buf, size_t n)
{
	if (!err)
		return "ok";
	if (err == VEC_GP + 1)
		return "#GP";
	ksnprintf(buf, n, "fault (vector %u)", err - 1u);
	return buf;
}

/* Whether access @j continues the range that @i starts, @len long. */
static bool continues(const struct msr_trace *t, u32 i, u32 j, u32 len)
{
	const struct msr_access *a = &t->a[i], *b = &t->a[j];

	return b->write == a->write && b->err == a->err &&
	       b->msr == a->msr + len;
}

size_t msr_trace_format(const struct msr_trace *t, char *buf, size_t n)
{
	size_t pos = 0;
	char err[24];

	if (!n)
		return 0;
	buf[0] = '\0';
	if (!t->n)
		return (size_t)ksnprintf(buf, n, "none");
	for (u32 i = 0, len; i < t->n && pos < n; i += len) {
		const struct msr_access *a = &t->a[i];

		len = 1;
		while (i + len < t->n && continues(t, i, i + len, len))
			len++;
		pos += (size_t)ksnprintf(buf + pos, n - pos, "%s%s %#x",
					 i ? ", " : "", a->write ? "wr" : "rd",
					 a->msr);
		if (len > 1 && pos < n)
			pos += (size_t)ksnprintf(buf + pos, n - pos, "-%#x",
						 a->msr + len - 1);
		if (pos < n)
			pos += (size_t)ksnprintf(buf + pos, n - pos, " %s",
						 msr_err_name(a->err, err,
							      sizeof(err)));
	}
	if (t->more && pos < n)
		pos += (size_t)ksnprintf(buf + pos, n - pos,
					 ", +%u more (%u faulted in all)",
					 t->more, t->faults);
	return pos < n ? pos : strlen(buf);
}
