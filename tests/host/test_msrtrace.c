// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of the vendor paths' MSR lines (lib/msrtrace.c). */
#include <string.h>
#include "lib/msrtrace.h"
#include "tests/host/unit.h"

#define GP (13 + 1)	/* rdmsrq_safe()'s value for a #GP */

static const char *line(const struct msr_trace *t)
{
	static char buf[256];

	msr_trace_format(t, buf, sizeof(buf));
	return buf;
}

TEST(msrtrace_none_and_one)
{
	struct msr_trace t = { 0 };

	EXPECT_STR(line(&t), "none");
	msr_trace_add(&t, 0x8b, true, 0);
	msr_trace_add(&t, 0x8b, false, 0);
	EXPECT_STR(line(&t), "wr 0x8b ok, rd 0x8b ok");
	EXPECT_EQ(t.faults, 0);
	/* no trace: nothing recorded, nothing breaks */
	msr_trace_add(NULL, 0x8b, false, GP);
}

/* The AMD PMU probe as it runs: four selects read, a counter tested. */
TEST(msrtrace_ranges_merge_by_op_and_outcome)
{
	struct msr_trace t = { 0 };

	for (u32 i = 0; i < 4; i++)
		msr_trace_add(&t, 0xc0010000 + i, false, 0);
	msr_trace_add(&t, 0xc0010007, false, 0);
	msr_trace_add(&t, 0xc0010007, true, 0);
	msr_trace_add(&t, 0xc0010007, false, 0);
	msr_trace_add(&t, 0xc0010007, true, 0);
	EXPECT_STR(line(&t), "rd 0xc0010000-0xc0010003 ok, rd 0xc0010007 ok, "
		   "wr 0xc0010007 ok, rd 0xc0010007 ok, wr 0xc0010007 ok");
	/* a fault in the middle of a run of reads splits it */
	memset(&t, 0, sizeof(t));
	msr_trace_add(&t, 0xc0010200, false, 0);
	msr_trace_add(&t, 0xc0010201, false, GP);
	msr_trace_add(&t, 0xc0010202, false, 0);
	EXPECT_STR(line(&t), "rd 0xc0010200 ok, rd 0xc0010201 #GP, "
		   "rd 0xc0010202 ok");
	EXPECT_EQ(t.faults, 1);
}

TEST(msrtrace_other_vectors_and_overflow)
{
	struct msr_trace t = { 0 };
	char buf[24];

	EXPECT_STR(msr_err_name(GP, buf, sizeof(buf)), "#GP");
	EXPECT_STR(msr_err_name(7, buf, sizeof(buf)), "fault (vector 6)");
	for (u32 i = 0; i < MSR_TRACE_MAX + 3; i++)
		msr_trace_add(&t, 0x100 + 2 * i, false,
			      i >= MSR_TRACE_MAX ? GP : 0);
	EXPECT_EQ(t.n, MSR_TRACE_MAX);
	EXPECT_EQ(t.more, 3);
	EXPECT_EQ(t.faults, 3);
	EXPECT(strstr(line(&t), ", +3 more (3 faulted in all)") != NULL, "%s",
	       line(&t));
	/* a small buffer: cut, terminated, its length returned */
	EXPECT_EQ(msr_trace_format(&t, buf, sizeof(buf)), strlen(buf));
	EXPECT_EQ(strlen(buf), sizeof(buf) - 1);
}
