// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of lib/string.c and lib/format.c. */
#include "lib/format.h"
#include "lib/string.h"
#include "tests/host/unit.h"

TEST(memmove_overlap)
{
	char b[16] = "abcdefghij";

	memmove(b + 2, b, 5);
	EXPECT_STR(b, "ababcdehij");
	memmove(b, b + 3, 4);
	EXPECT(memcmp(b, "bcde", 4) == 0);
}

TEST(mem_and_str_basics)
{
	char b[8];

	memset(b, 'x', sizeof(b));
	EXPECT(b[7] == 'x');
	EXPECT_EQ(strlen("hugezero"), 8);
	EXPECT_EQ(strnlen("hugezero", 4), 4);
	EXPECT(strcmp("a", "b") < 0 && strcmp("b", "a") > 0);
	EXPECT(strcmp("abc", "abc") == 0);
	EXPECT(strncmp("abcd", "abcz", 3) == 0);
	EXPECT(strchr("a=b", '=') != NULL && *strchr("a=b", '=') == '=');
	EXPECT(strchr("abc", 'z') == NULL);
	EXPECT_EQ(strlcpy(b, "truncated!", sizeof(b)), 10);
	EXPECT_STR(b, "truncat");
	EXPECT(str_eq_n("folio=2M", 5, "folio"));
	EXPECT(!str_eq_n("folio=2M", 4, "folio"));
}

static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

static const char *fmt(const char *f, ...)
{
	static char buf[128];
	va_list ap;

	va_start(ap, f);
	kvsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	return buf;
}

TEST(format_integers)
{
	EXPECT_STR(fmt("%d %i %u", -42, 7, 3000000000u), "-42 7 3000000000");
	EXPECT_STR(fmt("%x %X %o", 0xbeef, 0xbeef, 8), "beef BEEF 10");
	EXPECT_STR(fmt("%llu", 18446744073709551615ULL), "18446744073709551615");
	EXPECT_STR(fmt("%lld", (long long)-9223372036854775807LL - 1),
		   "-9223372036854775808");
	EXPECT_STR(fmt("%5d|%-5d|%05d", 42, 42, 42), "   42|42   |00042");
	EXPECT_STR(fmt("%+d % d", 5, 5), "+5  5");
	EXPECT_STR(fmt("%#x %#x %#018llx", 255, 0, 0xffffffff8100eb04ULL),
		   "0xff 0 0xffffffff8100eb04");
	EXPECT_STR(fmt("%.3d", 5), "005");
	EXPECT_STR(fmt("%zu %hhu %hd", (size_t)12, 300, 70000), "12 44 4464");
}

TEST(format_strings_and_pointers)
{
	EXPECT_STR(fmt("%s|%5s|%-5s|%.2s", "ab", "ab", "ab", "abcdef"),
		   "ab|   ab|ab   |ab");
	EXPECT_STR(fmt("%.*s", 3, "abcdef"), "abc");
	EXPECT_STR(fmt("%*d", 4, 1), "   1");
	const char *volatile nul = NULL;	/* hide it from -Wformat */
	const char *unknown = "%q";

	EXPECT_STR(fmt("%s", nul), "(null)");
	EXPECT_STR(fmt("%c%c", 'h', 'z'), "hz");
	EXPECT_STR(fmt("%p", (void *)0x1000), "0x1000");
	EXPECT_STR(fmt("100%%"), "100%");
	EXPECT_STR(fmt(unknown), "%q");
}

TEST(format_truncation)
{
	char b[8];
	int n = ksnprintf(b, sizeof(b), "%s", "0123456789");

	EXPECT_EQ(n, 10);
	EXPECT_STR(b, "0123456");
	n = ksnprintf(b, 1, "abc");
	EXPECT_EQ(n, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(ksnprintf(NULL, 0, "%d", 12345), 5);
}

TEST(parse_numbers_and_sizes)
{
	u64 v = 0;

	EXPECT(parse_u64("0", 1, &v) && v == 0);
	EXPECT(parse_u64("18446744073709551615", 20, &v) && v == ~0ULL);
	EXPECT(!parse_u64("18446744073709551616", 20, &v));
	EXPECT(parse_u64("0x1F", 4, &v) && v == 31);
	EXPECT(!parse_u64("0x", 2, &v));
	EXPECT(!parse_u64("", 0, &v));
	EXPECT(!parse_u64("12a", 3, &v));
	EXPECT(!parse_u64("-1", 2, &v));
	EXPECT(parse_size("2M", 2, &v) && v == 2ULL << 20);
	EXPECT(parse_size("1G", 2, &v) && v == 1ULL << 30);
	EXPECT(parse_size("4k", 2, &v) && v == 4096);
	EXPECT(parse_size("3T", 2, &v) && v == 3ULL << 40);
	EXPECT(parse_size("512", 3, &v) && v == 512);
	EXPECT(!parse_size("M", 1, &v));
	EXPECT(!parse_size("2X", 2, &v));
	EXPECT(!parse_size("99999999999T", 12, &v));
}
