# SPDX-License-Identifier: GPL-2.0-only
"""Configuration dimensions: which fields of a `config` record say what was
measured (docs/records.md, "Dimensions").

Every field of a `config` record is a dimension — two configurations that
differ in one are different measurements, never averaged together, never
paired as "the same" — except the bookkeeping fields below.  A field the
kernel adds later is therefore a dimension from the start, without a change
here.  A field an older log lacks counts as the value in DEFAULTS when the
older program is known to have behaved that way; any other missing field is
a value of its own ("unrecorded"), equal only to another missing one.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from . import cpulist

# Not dimensions, and why: each either names a configuration, follows from
# dimensions or from the machine, or changes only what happens outside the
# timed region.
BOOKKEEPING: dict[str, str] = {
    "cfg": "the configuration's number within its boot",
    "name": "FOLIO.CLEAR.ORDER[.CHUNK], made of dimensions",
    "size_requested": "size= as asked; size, the bytes used, is the dimension",
    "folios": "size / folio",
    "clamped": "why size is less than size= asked; size, the bytes used, is the dimension",
    "pa_min": "where the firmware's memory map put the folios, not what was measured",
    "pa_max": "where the firmware's memory map put the folios, not what was measured",
    "runs": "how many measured passes of the same measurement",
    "verify": "the zero check, after the timed pass",
    "samples": "whether raw samples are written, after the timed pass",
    "sample_lines_per_page": "how much the zero check reads, after the timed pass",
    "llc": "the machine's last-level cache (its machine record says it too)",
    "fits_llc": "size against llc: follows from size and the machine",
    "llc_regions": "the group's regions on this CPU's LLC: follows from cpus and the machine",
    "kernel_fpu_ticks": "a measurement of the machine (older logs: the SIMD begin/end pair)",
    "kernel_fpu_save_ticks": "a measurement of the machine (the user's FPU registers saved and loaded)",
    "kernel_fpu_call_ticks": "a measurement of the machine (a kernel_fpu_begin/end pair that saves nothing)",
    "linux_offered": "whether x86 Linux 7.0 offers order=linux's model: follows from order and preempt",
    "pmu_counted": "which pmu= events this machine's counters could count",
    "freq": "how this machine's effective frequency is read, or why not",
    "smi": "how this machine's SMIs are counted, or why not",
    "pmu_skip": "why the others could not: the machine's, not the configuration's",
    "pmu_bracket": "what the companion's read(2) pair alone counts: a measurement of the machine",
    "pmu_firmware": "counters the firmware left enabled: the machine's state",
    "pmu_firmware_msr": "the first of them: the machine's state",
    "pmu_firmware_val": "the first of them: the machine's state",
    # boost= (docs/hardware.md, "Boost"): boost, what was asked, is the
    # dimension; what the CPU's MSRs held after, and the effect measured,
    # are the machine's.
    "boost_state": "what this CPU's boost MSRs held after boost= set them: the machine's state",
    "boost_check": "boost=off: whether the CPU stayed within 2% of nominal, measured",
    "boost_eff_khz": "the CPU's effective frequency in the boost check: a measurement",
    "boost_ref": "what the boost check held boost_eff_khz against: the machine's",
    # All CPUs at once (docs/smp.md): the CPUs of one group ran one
    # configuration together, each its own row; cpus and numa say what ran.
    "ncpus": "how many CPUs cpus lists: follows from cpus",
    "cpu": "which member of the group these records are from, not what was measured",
    "apic_id": "the machine's name for cpu",
    "node": "cpu's NUMA node: follows from cpu and the machine",
    "mem_node": "where cpu's folios came from: follows from cpu, numa and the machine",
    "group": "the number of the concurrent configuration within its boot",
    # make LINUX=DIR (docs/linux-tree.md): which tree it was is the boot
    # record's linux_tree; these say what clear= named within it.
    "tree_routine": "a tree primitive's routine: follows from clear and the boot's tree",
    "tree_abi": "a tree primitive's convention: follows from clear and the boot's tree",
    # Interleaved passes and runs=auto (docs/statistics.md, issue 24): the
    # order the passes ran in and how many, not what one pass measured.
    "interleave": "whether the passes ran round by round with others: their order, not what one measured",
    "round_group": "which configurations' passes were interleaved together: their order",
    "precision": "runs=auto: when to stop adding passes of the same measurement",
    "max_runs": "runs=auto: the most passes of the same measurement",
    "budget_s": "runs=auto: the time allowed for passes of the same measurement",
}

# Defaults for fields older logs lack, where what the older program did is
# known and has a name today.  Keyed by field, then by bench ("*": any).
DEFAULTS: dict[str, dict[str, str]] = {
    "bench": {"*": "fault"},
    # The kernel installed its entries with Accessed and Dirty clear; the
    # companion's pages are Linux's, with Linux's page-table entries.
    "pte": {"fault": "clean", "*": "linux"},
    "inject": {"*": "none"},
    # The kernel ran on its boot CPU, number 0; older companion logs leave
    # theirs unrecorded (pinned by cpu=, or wherever Linux ran it).
    "cpus": {"fault": "0"},
    # Before numa= the folios came from anywhere, unrecorded: no policy.
    "numa": {"*": "none"},
    # Before the scheduling models the kernel ran none: interrupts masked.
    "preempt": {"fault": "off"},
    # Before prezero= every fault cleared its own folio (and a kernel
    # without prezero= given still does).  Linux's own, in the companion's
    # linux-fault, is Linux's: unrecorded.
    "prezero": {"fault": "none"},
}

# A pre-zeroing mode's parameters (docs/records.md, "Dimensions"): written only
# for the modes they apply to, and none of them for prezero=none.
PREZERO_PARAMS = ("prezero_clear", "prezero_order", "prezero_n", "prezero_cpu",
                  "prezero_low", "prezero_high", "prezero_idle_ms")

# Values that have more than one spelling, in the one the records write.
CANONICAL = {"cpus": cpulist.canonical}

# Old names of values, as later logs spell them.
RENAMED: dict[str, dict[str, str]] = {
    "cache": {"asis": "warm", "clflush": "cold"},
}

# Fields whose value is a byte count, shown as 2M, 32M, 1G.
BYTES = ("size", "chunk", "llc")

# The order parameters: 0 for orders that take none, shown only when set.
ORDER_PARAMS = ("chunk", "radius")

# The order in which labels list dimensions; others follow sorted.
ORDER = ("bench", "backing", "folio", "clear", "order", "chunk", "radius",
         "size", "touch", "offset", "access", "cache", "fill", "pte", "cpl",
         "preempt", "cpus", "numa", "prezero", *PREZERO_PARAMS, "seed", "inject",
         "inject_lines")


def of(fields: Mapping[str, str]) -> dict[str, str]:
    """The dimensions of a config record's fields, defaults applied and old
    value names replaced; empty values are left out (not applicable)."""
    bench = fields.get("bench") or DEFAULTS["bench"]["*"]
    out: dict[str, str] = {}
    for k, v in fields.items():
        if k not in BOOKKEEPING and v != "":
            out[k] = normal(k, v)
    for k, by_bench in DEFAULTS.items():
        v = by_bench.get(bench, by_bench.get("*"))
        if k not in out and v is not None:
            out[k] = v
    if out.get("inject") == "none":
        out.pop("inject_lines", None)   # a count of nothing
    if out.get("prezero") == "none":
        for k in PREZERO_PARAMS:        # how nothing was zeroed ahead
            out.pop(k, None)
    return out


def normal(k: str, v: str) -> str:
    """@v of field @k as the records write it today: an old name replaced,
    a cpulist in canonical form."""
    v = RENAMED.get(k, {}).get(v, v)
    return CANONICAL[k](v) if k in CANONICAL else v


def key(d: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """A hashable key: equal exactly when every dimension is equal."""
    return tuple(sorted(d.items()))


def names(ds: Iterable[Mapping[str, str]]) -> list[str]:
    """Every dimension named in @ds, in label order."""
    seen = {k for d in ds for k in d}
    return [k for k in ORDER if k in seen] + sorted(seen - set(ORDER))


def varying(ds: list[Mapping[str, str]], skip: Iterable[str] = ()) -> list[str]:
    """Dimensions that do not have one value in all of @ds (a missing one
    counts as a value of its own)."""
    return [k for k in names(ds) if k not in skip and len({d.get(k) for d in ds}) > 1]


def differing(a: Mapping[str, str], b: Mapping[str, str],
              skip: Iterable[str] = ()) -> list[str]:
    """Dimensions in which @a and @b differ."""
    return [k for k in names([a, b]) if k not in skip and a.get(k) != b.get(k)]


def size_name(b: int) -> str:
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if b and b % (1 << shift) == 0:
            return f"{b >> shift}{unit}"
    return str(b)


def value(d: Mapping[str, str], k: str) -> str:
    """@k's value in @d as a label shows it: sizes in K/M/G, a missing one
    (not applicable, or not recorded by an older program) as '-'."""
    v = d.get(k)
    if v is None:
        return "-"
    if k in BYTES and v.isdigit():
        return size_name(int(v))
    return v


def label(d: Mapping[str, str], which: Iterable[str]) -> str:
    """'k=v' for each of @which, order parameters only when not 0."""
    return " ".join(f"{k}={value(d, k)}" for k in which
                    if not (k in ORDER_PARAMS and d.get(k, "0") == "0"))


def contrast(a: Mapping[str, str], b: Mapping[str, str], skip: Iterable[str] = ()) -> str:
    """How @b differs from @a: 'cache=warm (not cold), pte=clean (not linux)'."""
    return ", ".join(f"{k}={value(b, k)} (not {value(a, k)})"
                     for k in differing(a, b, skip))
