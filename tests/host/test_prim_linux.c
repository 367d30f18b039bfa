// SPDX-License-Identifier: GPL-2.0-only
/*
 * prim_linux() as Linux picks clear_page(), through a fake of the layer
 * below it: cpu_info set to a CPU this host is not, and a registered
 * IA32_MISC_ENABLE reader that answers what a test says (the kernel's
 * guarded RDMSR and the companion's /dev/cpu/0/msr are the real ones).
 * early_init_intel() (arch/x86/kernel/cpu/intel.c) clears REP_GOOD and
 * ERMS when fast strings (bit 0) are off; init_intel() sets REP_GOOD on
 * family 6, init_amd() from family 10h.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static u64 fake_value;
static bool fake_readable;
static u32 fake_reads;

static bool fake_reader(u64 *val, char *err, size_t n)
{
	fake_reads++;
	if (!fake_readable) {
		strlcpy(err, "fake: RDMSR refused", n);
		return false;
	}
	*val = fake_value;
	return true;
}

static struct cpu_info saved;

static void as_cpu(const char *vendor, u32 family, u32 model, bool erms)
{
	saved = cpu_info;
	strlcpy(cpu_info.vendor, vendor, sizeof(cpu_info.vendor));
	cpu_info.family = family;
	cpu_info.model = model;
	cpu_info.signature = family >= 0xf ? 0xf00 | ((family - 0xf) << 20) :
			     family << 8;
	cpu_info.has_erms = erms;
	fake_reads = 0;
	prim_linux_reader(fake_reader);
}

static void restore(void)
{
	cpu_info = saved;
	prim_linux_reader(NULL);
}

static enum prim_id pick(u32 *fs, char *why, size_t n)
{
	return prim_linux_read(why, n, fs);
}

TEST(prim_linux_fast_strings_off_drops_erms_and_rep_good)
{
	char why[320];
	u32 fs;

	/* Icelake-SP: family 6 model 0x6a, ERMS in CPUID */
	as_cpu("GenuineIntel", 6, 0x6a, true);
	fake_readable = true;
	fake_value = 0x850089;		/* bit 0 set */
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ERMS);
	EXPECT_EQ(fs, FAST_STRINGS_ON);
	EXPECT(strstr(why, "IA32_MISC_ENABLE=0x850089") != NULL, "%s", why);
	fake_value = 0x850088;		/* bit 0 clear: the firmware's choice */
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ORIG);
	EXPECT_EQ(fs, FAST_STRINGS_OFF);
	EXPECT(strstr(why, "fast strings (bit 0) off") != NULL, "%s", why);
	EXPECT(strstr(why, "clear_page_orig") != NULL, "%s", why);
	EXPECT_EQ(fake_reads, 2);
	restore();
}

TEST(prim_linux_intel_rep_good_is_family_6)
{
	char why[320];
	u32 fs;

	as_cpu("GenuineIntel", 6, 0x55, false);
	fake_readable = true;
	fake_value = 1;
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_REP);
	EXPECT(strstr(why, "init_intel()") != NULL, "%s", why);
	/* Pentium 4 (family 0xf): MISC_ENABLE read, no REP_GOOD set */
	as_cpu("GenuineIntel", 0xf, 4, false);
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ORIG);
	EXPECT_EQ(fs, FAST_STRINGS_ON);
	/* Before Dothan (family 6 model 0xd): not read */
	as_cpu("GenuineIntel", 6, 0x9, true);
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ERMS);
	EXPECT_EQ(fs, FAST_STRINGS_NA);
	EXPECT_EQ(fake_reads, 0);
	restore();
}

TEST(prim_linux_unreadable_msr_is_said_and_taken_as_on)
{
	char why[320];
	u32 fs;

	as_cpu("GenuineIntel", 6, 0x8f, true);
	fake_readable = false;
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ERMS);
	EXPECT_EQ(fs, FAST_STRINGS_UNKNOWN);
	EXPECT(strstr(why, "could not be read (fake: RDMSR refused)") != NULL,
	       "%s", why);
	/* no reader at all: said so, never a crash */
	prim_linux_reader(NULL);
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ERMS);
	EXPECT(strstr(why, "no reader registered") != NULL, "%s", why);
	restore();
}

TEST(prim_linux_amd_never_reads_misc_enable)
{
	char why[320];
	u32 fs;

	as_cpu("AuthenticAMD", 0x19, 0x11, true);	/* Genoa */
	fake_readable = true;
	fake_value = 0;
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_ERMS);
	EXPECT_EQ(fs, FAST_STRINGS_NA);
	EXPECT_EQ(fake_reads, 0);
	as_cpu("AuthenticAMD", 0x17, 0x31, false);	/* Rome: no ERMS */
	EXPECT_EQ(pick(&fs, why, sizeof(why)), PRIM_REP);
	EXPECT(strstr(why, "init_amd()") != NULL, "%s", why);
	restore();
}
