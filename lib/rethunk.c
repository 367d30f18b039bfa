// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which return thunk Linux's default mitigations put under every kernel
 * RET on a CPU, as arch/x86/kernel/cpu/bugs.c decides it with no
 * retbleed=, spec_rstack_overflow= or mitigations= on the command line
 * and every CONFIG_MITIGATION_* of a distribution kernel set.
 */
#include "lib/rethunk.h"
#include "lib/string.h"
#include <stddef.h>

const char *const rethunk_names[] = {
	[RETHUNK_NONE] = "none",
	[RETHUNK_RETBLEED] = "retbleed_return_thunk",
	[RETHUNK_SRSO] = "srso_return_thunk",
	[RETHUNK_SRSO_ALIAS] = "srso_alias_return_thunk",
	[RETHUNK_CALL_DEPTH] = "call_depth_return_thunk",
	NULL,
};

const char *const rethunk_mode_names[] = { "off", "on", NULL };

enum rethunk_vendor rethunk_vendor_of(const char *vendor)
{
	if (!strcmp(vendor, "GenuineIntel"))
		return RT_VENDOR_INTEL;
	if (!strcmp(vendor, "AuthenticAMD"))
		return RT_VENDOR_AMD;
	if (!strcmp(vendor, "HygonGenuine"))
		return RT_VENDOR_HYGON;
	return RT_VENDOR_OTHER;
}

/*
 * AMD and Hygon: retbleed (families 15h-17h, Hygon 18h) gets the untrained
 * return thunk (RETBLEED_MITIGATION_UNRET); SRSO (17h, 18h, 19h) gets the
 * safe-RET thunk over it, srso_alias_return_thunk on 19h and
 * srso_return_thunk below (srso_select_mitigation(), SRSO_CMD_SAFE_RET),
 * unless the CPU says SRSO_NO, or SRSO_USER_KERNEL_NO (IBPB on VM exit,
 * no thunk).
 */
static void choose_amd(const struct rethunk_cpu *c, struct rethunk_choice *o)
{
	bool retbleed = (c->family >= 0x15 && c->family <= 0x17) ||
			(c->vendor == RT_VENDOR_HYGON && c->family == 0x18);
	/* cpu_vuln_blacklist[]: SRSO on 17h, 18h (Hygon), 19h and 1Ah */
	bool srso = c->family >= 0x17 && c->family <= 0x1a && !c->srso_no;

	if (srso && c->srso_user_kernel_no)
		srso = false;
	if (srso && c->family == 0x19) {
		o->linux_kind = RETHUNK_SRSO_ALIAS;
		o->why = "family 19h (Zen 3/4) has SRSO: spec_rstack_overflow="
			 "safe-ret by default, srso_alias_return_thunk";
	} else if (srso) {
		o->linux_kind = RETHUNK_SRSO;
		o->why = c->family == 0x1a ?
			 "family 1Ah (Zen 5) without SRSO_USER_KERNEL_NO has "
			 "SRSO: safe-ret by default, srso_return_thunk" :
			 "family 17h/18h (Zen 1/2) has SRSO: safe-ret by "
			 "default, srso_return_thunk over retbleed's untraining";
	} else if (retbleed) {
		o->linux_kind = RETHUNK_RETBLEED;
		o->why = "retbleed without SRSO: retbleed=auto picks unret, "
			 "retbleed_return_thunk";
	} else {
		o->why = c->srso_user_kernel_no ?
			 "SRSO_USER_KERNEL_NO: IBPB on VM exit, no return thunk" :
			 c->srso_no ? "SRSO_NO and no retbleed: no return thunk" :
			 "no retbleed or SRSO in this family: no return thunk";
	}
	/* rethunk=on where Linux needs none: what retbleed=force picks */
	o->on_kind = o->linux_kind ? o->linux_kind : RETHUNK_RETBLEED;
}

/*
 * Intel models cpu_vuln_blacklist[] marks ITS (indirect target selection)
 * whatever their stepping: Ice Lake (server, client, D), Tiger Lake,
 * Rocket Lake.  Linux from 6.15, and stable kernels that took the
 * backport, return through its_return_thunk there, which hugezero does
 * not model; the choice says so rather than claim none.
 */
static bool intel_its(const struct rethunk_cpu *c)
{
	static const u32 models[] = { 0x6a, 0x6c, 0x7d, 0x7e, 0x8c, 0x8d,
				      0xa7 };

	if (c->vendor != RT_VENDOR_INTEL || c->family != 6)
		return false;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (c->model == models[i])
			return true;
	return false;
}

void rethunk_choose(const struct rethunk_cpu *c, struct rethunk_choice *out)
{
	*out = (struct rethunk_choice){ RETHUNK_NONE, RETHUNK_NONE, "" };
	if (c->vendor == RT_VENDOR_AMD || c->vendor == RT_VENDOR_HYGON) {
		choose_amd(c, out);
		return;
	}
	/*
	 * Intel: retbleed is mitigated by IBRS or eIBRS, with no thunk;
	 * call-depth tracking is retbleed=stuff's, never the default.
	 * rethunk=on runs it, the one Intel return thunk of this list.
	 */
	out->on_kind = RETHUNK_CALL_DEPTH;
	if (intel_its(c)) {
		out->why = "Intel with ITS: IBRS/eIBRS, but Linux from 6.15 "
			   "(and ITS backports) returns through its_return_thunk, "
			   "not modelled here: none understates such a kernel";
		return;
	}
	out->why = c->vendor == RT_VENDOR_INTEL ?
		   "Intel: IBRS/eIBRS by default, no return thunk "
		   "(call-depth tracking only with retbleed=stuff)" :
		   "not AMD, Hygon or Intel: no return thunk";
}

/* rethunk_assume=: each CPU's vendor, family, model and CPUID bits, in
 * the order of rethunk_assume_names[]. */
struct assumed {
	enum rethunk_vendor vendor;
	u32 family, model;
	bool srso_no, srso_user_kernel_no;
};

static const struct assumed assumed[] = {
	{ RT_VENDOR_OTHER, 0, 0, false, false },
	{ RT_VENDOR_AMD, 0x15, 0x01, false, false },
	{ RT_VENDOR_AMD, 0x17, 0x31, false, false },
	{ RT_VENDOR_AMD, 0x17, 0x31, true, false },
	{ RT_VENDOR_HYGON, 0x18, 0x00, false, false },
	{ RT_VENDOR_AMD, 0x19, 0x11, false, false },
	{ RT_VENDOR_AMD, 0x19, 0x11, true, false },
	{ RT_VENDOR_AMD, 0x1a, 0x02, false, true },
	{ RT_VENDOR_INTEL, 0x06, 0x6a, false, false },
	{ RT_VENDOR_OTHER, 0x06, 0x0f, false, false },
};

#define NASSUMED (sizeof(assumed) / sizeof(assumed[0]))

const char *const rethunk_assume_names[NASSUMED + 1] = {
	"none", "bulldozer", "zen2", "zen2-srso-no", "hygon", "zen4",
	"zen4-srso-no", "zen5", "icelake", "other", NULL,
};

bool rethunk_assumed(u32 idx, struct rethunk_cpu *out)
{
	const struct assumed *a;

	if (idx == 0 || idx >= NASSUMED)
		return false;
	a = &assumed[idx];
	*out = (struct rethunk_cpu){ a->vendor, a->family, a->model,
				     a->srso_no, a->srso_user_kernel_no };
	return true;
}
