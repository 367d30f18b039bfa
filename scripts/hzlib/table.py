# SPDX-License-Identifier: GPL-2.0-only
"""`table LOG...`: the seed threads' tables (docs/reproducing.md), one per
preset found in the logs, in each thread's own shape, so that a result
pastes under the original:

    seed-001  pg-sz=1GB   16.51 +- 0.54%   42.80 +- 3.48%   +159.2%
    seed-000  neighbourhood-last   1725.18 ( +- 4.59% )   1123.78 ( +- 7.38% )
    seed-002  Total time: ... seconds / Avg time per 1GB page: ... seconds

A log's preset record says which experiment it holds and which side
(hugezero's kernel, or Linux through the companion); a companion log's
rows are printed beside the kernel's.  The before/after pairs of seed 001
are compare.py's within-log comparison, with its statistics.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import IO

from . import compare, cpulist, display, groups, lavalog, records, results, selection
from .cnames import ORDER, PRIM
from .records import Boot

# seed 001's two orders (lib/order.h, through cnames.py).
CONVERGING, CONTIGUOUS = ORDER["CONVERGING"], ORDER["CONTIGUOUS"]

SEEDS = ("seed-001", "seed-000", "seed-002")


@dataclass
class Table:
    """One block: a title, lines said before it, a header and rows, and
    a legend below them (what the figures are)."""
    title: str
    notes: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)


@dataclass
class Side:
    """The boots of one preset on one side (hugezero or linux), on one
    machine."""
    preset: str
    side: str
    boots: list[Boot]
    machine: tuple[str, ...] = ()


def sides(boots: list[Boot]) -> list[Side]:
    """Boots grouped by their preset record's name and side, and by
    machine: a lab's logs give a section per machine, never their runs
    pooled."""
    out: dict[tuple[object, ...], Side] = {}
    for b in boots:
        p = b.first("preset")
        if p is None:
            continue
        k = (p.f.get("name", "?"), p.f.get("side", "?"), display.machine_key(b))
        out.setdefault(k, Side(k[0], k[1], [], k[2])).boots.append(b)
    return list(out.values())


def machine_name(boots: list[Boot]) -> str:
    """A section's machine in a few words, headed by the LAVA device it ran
    on where `lava run` named it, and the LAVA jobs it came from."""
    name = display.machine_brand(boots[0])
    devices = list(dict.fromkeys(b.lava["hostname"] for b in boots
                                 if b.lava and b.lava.get("hostname")))
    if devices:
        name = f"device {', '.join(devices)}, {name}"
    jobs = list(dict.fromkeys(b.lava.get("job", "unknown") for b in boots if b.lava))
    return name + (f" (LAVA job{'s' if len(jobs) > 1 else ''} {', '.join(jobs)})"
                   if jobs else "")


def lava_notes(boots: list[Boot]) -> list[str]:
    """Each LAVA job of a section, once: which job, device and result."""
    return list(dict.fromkeys(lavalog.describe(b.lava) for b in boots if b.lava))


def machine_line(b: Boot) -> str:
    tb, host = b.first("timebase"), b.first("host")
    where = "Linux " + host.f.get("kernel", "?") if host else "hugezero (no kernel between)"
    name = display.machine_name(b)
    tsc = (f"TSC {int(tb.f.get('tsc_hz', '0')) / 1e9:.3f} GHz from {tb.f.get('source', '?')}"
           if tb else "TSC unknown")
    return f"{name}; {where}; {tsc}"


def preset_notes(b: Boot) -> list[str]:
    p = b.first("preset")
    assert p is not None
    out = [f"preset {p.f.get('name')} ({p.f.get('side')}): {p.f.get('seed')}",
           f"machine: {machine_line(b)}",
           f"keys: {p.f.get('keys')}; the line: {boot_cmdline(b)}",
           f"sized: {p.f.get('chose')} ({p.f.get('why')})",
           f"smaller than the seed: {p.f.get('scaled')}"]
    boost = boost_line(b)
    if boost:
        out.append(boost)
    if display.is_vm(b):
        out.append("a virtual machine: these figures say nothing about hardware")
    return out


def boost_line(b: Boot) -> str:
    """Turbo/boost as the boot ran, from its boost records: the
    companion's one (where it was read) or the kernel's one a CPU,
    grouped by what they say; "" where there are none (older logs)."""
    said: dict[str, list[int]] = {}
    for r in b.records:
        if r.type == "boost":
            said.setdefault(boost_phrase(r), []).append(r.int("cpu", -1))
    return "boost: " + "; ".join(
        p + (f" on CPU{'s' if len(cpus) > 1 else ''} {cpulist.format(cpus)}"
             if cpus and cpus[0] >= 0 else "")
        for p, cpus in said.items()) if said else ""


def boost_phrase(r: records.Record) -> str:
    """One boost record's state after boost=, how it came to be, and the
    record's source (companion) or why (kernel)."""
    asked = r.f.get("asked", "firmware")
    before, after = r.f.get("before", "unknown"), r.f.get("after", "unknown")
    how = ("as found" if asked == "firmware" else
           f"boost={asked} asked; not set" if after != asked else
           f"as found, as boost={asked} asks" if before == after else
           f"found {before}, set by boost={asked}")
    if r.f.get("check") == "over":
        how += "; the clock ran more than 2% over nominal"
    elif r.f.get("check") == "under":
        how += "; it did not take effect: the clock ran no more than 2% over nominal"
    elif r.f.get("check") == "unmeasured" and asked == "on":
        how += "; whether it took effect could not be checked"
    more = r.f.get("source") or r.f.get("why", "")
    return f"{after} ({how}){': ' + more if more else ''}"


def boot_cmdline(b: Boot) -> str:
    r = b.first("boot")
    return r.f.get("cmdline", "?") if r else "?"


def host_model(b: Boot) -> str:
    h = b.first("host")
    return h.f.get("preempt", "unknown") if h else "?"


def gb(mean: float, sd: float, n: int) -> str:
    """GB/s, its sd and n as the seed's table shows them (display.mean_sd)."""
    return display.mean_sd(mean, sd, n, width=6, missing="n/a")


def pg(folio: str) -> str:
    return "pg-sz=" + display.seed_folio(folio)


# --- seed 001: page at a time against one call over the folio -----------

def linux_clear(s: Side) -> str:
    p = s.boots[0].first("preset")
    return p.f.get("linux_clear", PRIM["ERMS"]) if p else PRIM["ERMS"]


def seed_001(s: Side) -> list[Table]:
    """Per model, per folio: converging-page -> contiguous-page with
    Linux's primitive, compare's within-log pairs with its statistics
    (Welch's test on the per-run GB/s, or the paired one where the two ran
    interleaved; ~ marks a change whose 95% interval holds 0);
    and the best contiguous-page primitive of the log."""
    if s.side == "linux":
        return seed_001_linux(s)
    pairs, why = order_pairs(s.boots)
    if why:
        return [Table("seed-001 hugezero", notes=[why])]
    prim = linux_clear(s)
    out = []
    trees = tree_notes(s)
    # The models in the order the records name them: lib/preempt.h's.
    seen = list(dict.fromkeys(r.f.get("preempt", "off") for b in s.boots
                              for r in b.records if r.type == "config"))
    for model in sorted({dim(p, "preempt") for p in pairs},
                        key=lambda m: seen.index(m) if m in seen else len(seen)):
        t = Table(f"seed-001 hugezero, preempt={model}",
                  header=["", f"{CONVERGING} ({prim})", f"{CONTIGUOUS} ({prim})",
                          "change", "noise", f"best {CONTIGUOUS}"])
        mine = [p for p in pairs if dim(p, "preempt") == model]
        t.rows, t.notes = pair_rows(mine, prim)
        t.notes += trees
        t.legend.append(plus_minus([len(s.runs) for p in mine for s in (p.a, p.b)]))
        t.legend.append(CHANGE)
        out.append(t)
    return out


def plus_minus(ns: list[int], what: str = "per-run GB/s", per: str = "run") -> str:
    """What every +- of a table is, and over how many runs (@ns: each
    figure's): display.sd_legend."""
    return display.sd_legend(what, per, ns)


def seed_001_linux(s: Side) -> list[Table]:
    """Linux's own demand fault per folio (the host's model, Linux's
    primitive), beside the bare strategies' converging -> contiguous with
    Linux's primitive and the best bare contiguous one."""
    prim = linux_clear(s)
    t = Table(f"seed-001 Linux (companion), the host's preempt={host_model(s.boots[0])}",
              header=["", f"bare {CONVERGING} ({prim})", f"bare {CONTIGUOUS} ({prim})",
                      "change", "noise", f"best bare {CONTIGUOUS}", "Linux's demand fault"])
    pairs, why = order_pairs(s.boots)
    if why:
        t.notes.append(why)
    bare, notes = pair_rows([p for p in pairs if dim(p, "bench") == "bare"], prim)
    t.notes += notes + tree_notes(s)
    rows = results.rows(s.boots)
    faults = [r for r in rows if r["bench"] == "linux-fault" and r["status"] == "ok"]
    perf = any("perfbench_gbps" in r for r in faults)
    if perf:
        t.header.append("as perf bench mem mmap prints it")
        t.legend += ["Linux's demand fault: the companion's own figure, each measured run's "
                     "bytes over its faults' TSC windows, the mean of the runs",
                     "as perf prints it: every pass a loop, the warm-ups in, its mmap and "
                     "touch loop on the wall clock; all bytes over the summed time, no standard "
                     "deviation (tools/perf/bench/mem-functions.c); perf's arithmetic on the "
                     "companion's passes, not a perf run: they map with MAP_NORESERVE (hugetlb "
                     "reserves at the fault, not in mmap) and read the TSC around each store "
                     "(docs/companion.md)"]
    by_folio = {r[0]: r for r in bare}
    for folio in sorted({pg(str(r["folio"])) for r in faults} | set(by_folio),
                        key=lambda f: display.folio_bytes(f[6:].removesuffix("B"))):
        row = by_folio.get(folio, [folio] + ["n/a"] * 3 + ["", "n/a"])
        mine = [r for r in faults if pg(str(r["folio"])) == folio]
        row.append(demand_fault(mine))
        if perf:
            row.append(as_perf(mine))
        t.rows.append(row)
    t.legend.append(plus_minus([len(x.runs) for p in pairs if dim(p, "bench") == "bare"
                               for x in (p.a, p.b)] + [int(r["runs"]) for r in faults]))  # type: ignore[call-overload]
    t.legend.append(CHANGE)
    for r in rows:
        if r["status"] != "ok":
            t.notes.append(f"{r['bench']} {r['folio']} {r.get('backing', '')}: {r['status']}"
                           f"{': ' + str(r['reason']) if r['reason'] else ''}")
    return [t]


def demand_fault(rs: list[dict[str, object]]) -> str:
    """Linux's fault of one folio size, per backing; the size too where
    one backing ran at more than one."""
    many = {str(r["backing"]) for r in rs if sum(x["backing"] == r["backing"] for x in rs) > 1}

    def one(r: dict[str, object]) -> str:
        g = gb(float(r["gbps_mean"]), float(r["gbps_stddev_pct"]), int(r["runs"]))  # type: ignore[arg-type, call-overload]
        return f"{r['backing']}{' size=' + str(r['size']) if r['backing'] in many else ''} {g}"
    return "; ".join(one(r) for r in rs) or "n/a"


def as_perf(rs: list[dict[str, object]]) -> str:
    """Linux's fault of one folio size as perf bench mem mmap prints it,
    per hugetlb row (perf maps no other memory: a thp or base row has
    no such figure), with its loops and the first loop's figure."""
    rs = [r for r in rs if results.perfbench_backing(str(r["backing"]))]

    def one(r: dict[str, object]) -> str:
        if "perfbench_gbps" not in r:
            return f"{r['backing']} n/a (no wall times: an older companion)"
        g = float(r["perfbench_gbps"])  # type: ignore[arg-type]
        if math.isnan(g):
            return f"{r['backing']} n/a (not perf's loop: access={dict(r['dims']).get('access')})"  # type: ignore[call-overload]
        first = float(r["perfbench_first_gbps"])  # type: ignore[arg-type]
        return (f"{r['backing']} {results.perf_bps(g * results.GIB)} ({r['perfbench_loops']} "
                f"loops; the first {results.perf_bps(first * results.GIB)})")
    return "; ".join(one(r) for r in rs) or "none: no hugetlb row, all perf maps"


def tree_notes(s: Side) -> list[str]:
    """What each tree primitive of the side ran (make LINUX=,
    docs/linux-tree.md): Linux's column is the tree's routine where the
    tree has the one Linux's clear_page() picks (prim_tree_twin())."""
    out: dict[tuple[str, display.Tree | None], str] = {}
    for b in s.boots:
        boot = b.first("boot")
        for r in b.records:
            if r.type == "config" and display.is_tree_primitive(r.f) and boot:
                t = display.Tree.of(boot.f)
                # Two trees' linux-erms (a patch and its base) are two.
                out.setdefault((r.f.get("clear", "?"), t), display.routine_note(t, r.f))
    return list(out.values())


def entry_notes(s: Side) -> list[str]:
    """What order=tree ran in the side's boots (make LINUX=,
    docs/linux-tree.md), with the hash of its text: a row names it
    without (display.order_name()); each text once, two trees' apart."""
    out: dict[str, None] = {}
    for b in s.boots:
        boot = b.first("boot")
        for r in b.records:
            e = display.Entry.of(boot.f if boot else {}, r.f) if r.type == "config" else None
            if e:
                out.setdefault(display.entry_note(e), None)
    return list(out)


def order_pairs(boots: list[Boot]) -> tuple[list[compare.Pair], str]:
    """converging-page beside contiguous-page, every other dimension
    equal: compare's within-log pairs; none, and why, where the log
    cannot pair them."""
    sel = selection.Selectors(selection.parse("a", [f"order={CONVERGING}"]),
                              selection.parse("b", [f"order={CONTIGUOUS}"]), True)
    try:
        return compare.compare(boots, boots, sel).configs.pairs, ""
    except selection.SelectError as e:
        return [], f"nothing to compare: {e}"


def dim(p: compare.Pair, k: str) -> str:
    return dict(p.key).get(k, "-")


def pair_rows(pairs: list[compare.Pair], prim: str) -> tuple[list[list[str]], list[str]]:
    """One row per folio: the pair with @prim, and the pair whose
    contiguous-page is fastest."""
    rows, notes = [], []
    for folio in sorted({dim(p, "folio") for p in pairs}, key=display.folio_bytes):
        mine = [p for p in pairs if dim(p, "folio") == folio]
        top = max(mine, key=lambda p: p.b.mean)
        best = f"{dim(top, 'clear')} {cell(top.b)}"
        linux = [p for p in mine if dim(p, "clear") == prim]
        if not linux:
            notes.append(f"{pg(folio)}: no pair with Linux's primitive {prim}")
            continue
        p = linux[0]
        rows.append([pg(folio), cell(p.a), cell(p.b),
                     compare.change(p).rstrip(), noise(p), best])
    return rows, notes


# What the change column's interval is (compare.change(), docs/statistics.md).
CHANGE = ("change: contiguous-page against converging-page, in %, with its 95% "
          "confidence interval (Fieller's, for the ratio of the two means; paired by "
          "round where the two ran interleaved); noise: '~' where the interval holds 0, "
          "the same as p >= 0.05")


def cell(side: compare.Side) -> str:
    """A side's GB/s, its sd and n (gb())."""
    return gb(side.mean, side.sd_pct, len(side.runs))


def noise(p: compare.Pair) -> str:
    """compare's mark: ~ within noise (p >= 0.05), else the p-value; why
    untested."""
    if p.within_noise is None:
        return p.untested
    return f"~ p={p.p:.2f}" if p.within_noise else f"p={p.p:.3f}"


# --- seed 000: every CPU at once, stime and utime per order --------------

def seed_000(s: Side) -> list[Table]:
    rs = [r for r in groups.rows(s.boots)]
    models = sorted({str(dict(r.get("dims", {})).get("preempt", "off"))  # type: ignore[call-overload]
                     for r in rs}) or ["off"]
    who = (f"hugezero, preempt={','.join(models)}" if s.side == "hugezero"
           else f"Linux (companion), the host's preempt={host_model(s.boots[0])}")
    t = Table(f"seed-000 {who}: every CPU writing its 2M folios, summed over the CPUs per pass",
              header=["", "stime (ms)", "utime (ms)", "GB/s aggregate", "CPUs"])
    for r in rs:
        name = (display.order_name(r) + results.offered_note(r) if s.side == "hugezero"
                else f"linux {r.get('backing', '')}")
        if r["status"] != "ok":
            t.notes.append(f"{name}: {r['status']}: {r.get('reason', '')}")
            continue
        n = int(r["runs"])  # type: ignore[call-overload]
        t.rows.append([name, paren(r["stime_s_mean"], r["stime_stddev_pct"], n),
                       paren(r["utime_s_mean"], r["utime_stddev_pct"], n),
                       paren(r["gbps_mean"], r["gbps_stddev_pct"], len(r["gbps_runs"]), 1.0),  # type: ignore[arg-type]
                       str(r["ncpus"])])
    t.notes += entry_notes(s)
    for src in sorted({str(r["times_from"]) for r in rs if r["status"] == "ok"}):
        t.notes.append(f"stime and utime: {SOURCES.get(src, src)}")
    if s.side == "hugezero" and "off" in models:
        t.notes.append("preempt=off: no model, no tick (the seed names none); add "
                       "preempt=none or full for Linux's")
    if not rs:
        t.notes.append("no group of CPUs in the log (cpus= ran one CPU?)")
    else:
        t.legend.append(plus_minus([int(r["runs"]) for r in rs if r["status"] == "ok"],  # type: ignore[call-overload]
                                  "per-pass figures (stime and utime summed over the "
                                  "CPUs, GB/s all their bytes over the pass's wall time)",
                                  "pass"))
    return [t]


def paren(mean: object, sd: object, n: int, scale: float = 1e3) -> str:
    """seed-000's mean ( +- sd% ) of @n passes (display.mean_sd_paren), the
    mean times @scale (seconds in ms)."""
    return display.mean_sd_paren(float(mean) * scale, float(sd), n, aligned=False,  # type: ignore[arg-type]
                                 missing="n/a")


# --- seed 002: K folios faulted back to back, per pre-zeroing mode --------

def seed_002(s: Side) -> list[Table]:
    rows = [r for r in results.rows(s.boots)]
    who = ("hugezero" if s.side == "hugezero"
           else f"Linux (companion), the host's preempt={host_model(s.boots[0])}")
    t = Table(f"seed-002 {who}: the region faulted back to back, per pre-zeroing mode",
              notes=entry_notes(s))
    for r in rows:
        mode = str(r.get("prezero", "none"))
        folio = display.seed_folio(str(r["folio"]))
        model = (f"the host's preempt={host_model(s.boots[0])}" if s.side == "linux" else
                 f"preempt={r['preempt']}" if r.get("preempt", "off") not in ("", "off")
                 else "no model")
        head = (f"prezero={mode} ({model}, {r['clear']}, {display.order_name(r)})"
                f"{results.offered_note(r)}:")
        if r["status"] != "ok":
            t.rows.append([head, f"{r['status']}: {r.get('reason', '')}"])
            continue
        total = float(r["fault_ms_per_run"]) / 1e3  # type: ignore[arg-type]
        n = int(r["folios"]) or 1  # type: ignore[call-overload]
        t.rows.append([head])
        t.rows.append([f"\tTotal time: {total:.6f} seconds"])
        t.rows.append([f"\tAvg time per {folio} page: {total / n:.6f} seconds"])
        ahead = float(r["prezero_ms_per_run"])  # type: ignore[arg-type]
        if not math.isnan(ahead) and ahead > 0:
            pct = float(r["prezeroed_pct"])  # type: ignore[arg-type]
            t.rows.append([f"\tZeroed ahead: {ahead / 1e3:.6f} seconds by {r['prezero_by']}"
                           f"{'' if math.isnan(pct) else f', {pct:.0f}% of the faults served pre-zeroed'}"])
    return [t]


SOURCES = {"ticks": "the faults' TSC ticks (the kernel's part) and the accesses' "
                    "(the user's), as vm-scalability's stime and utime",
           "rusage": "getrusage() ru_stime and ru_utime of each process"}

BUILDERS = {"seed-001": seed_001, "seed-000": seed_000, "seed-002": seed_002}


def render(t: Table, fmt: str, out: IO[str]) -> None:
    if fmt == "markdown":
        out.write(f"\n**{t.title}**\n\n")
        for n in t.notes:
            out.write(f"- {n}\n")
        if t.header:
            out.write(("\n" if t.notes else "") + "| " +
                      " | ".join(h or " " for h in t.header) + " |\n")
            out.write("|" + "---|" * len(t.header) + "\n")
            for r in t.rows:
                out.write("| " + " | ".join(" ".join(c.split()) for c in r) + " |\n")
        elif t.rows:
            out.write("\n```\n" + "".join(r[0] + "\n" + "".join(
                "\t" + c + "\n" for c in r[1:]) for r in t.rows) + "```\n")
        out.write("".join(f"\n{n}\n" for n in t.legend))
        return
    out.write(f"\n{t.title}\n")
    for n in t.notes:
        out.write(f"  {n}\n")
    if not t.header:
        for r in t.rows:
            out.write("  " + "  ".join(r) + "\n")
    else:
        w = [max(len(x) for x in col) for col in zip(t.header, *t.rows)]
        out.write("\n  " + "  ".join(h.center(w[i])
                                     for i, h in enumerate(t.header)).rstrip() + "\n")
        for r in t.rows:
            out.write("  " + "  ".join(c.ljust(w[i]) if i == 0 else c.rjust(w[i])
                                       for i, c in enumerate(r)).rstrip() + "\n")
    for n in t.legend:
        out.write(f"  {n}\n")


def write(boots: list[Boot], fmt: str, out: IO[str]) -> int:
    """Every preset's tables, hugezero's then Linux's; 1 when no log
    holds a preset record or a preset did not run."""
    boots, twice = distinct(boots)
    ss = sides(boots)
    if not ss:
        out.write("table: no preset record in these logs: boot with preset=seed-000, "
                  "seed-001 or seed-002 (docs/reproducing.md)\n")
        return 1
    if twice:
        out.write(f"table: {twice} boot(s) given more than once, counted once\n")
    rc = 0
    for name in SEEDS:
        mine = [s for s in ss if s.preset == name]
        for s in sorted(mine, key=lambda s: s.side != "hugezero"):
            # Machines one above the other, each named where there are several.
            on = (f", {machine_name(s.boots)}"
                  if sum(x.side == s.side for x in mine) > 1 else "")
            refused = [b.first("preset") for b in s.boots
                       if b.first("preset").f.get("status") == "not-run"]  # type: ignore[union-attr]
            if refused:
                render(Table(f"{name}, {s.side}{on}: the preset did not run",
                             notes=[f"not run: {p.f.get('why', '?')}" for p in refused]),  # type: ignore[union-attr]
                       fmt, out)
                rc = 1
                s.boots = [b for b in s.boots if b.first("preset") not in refused]
                if not s.boots:
                    continue
            head = Table(f"{name}, {s.side}{on}: {len(s.boots)} boot(s)",
                         notes=preset_notes(s.boots[0]) + lava_notes(s.boots))
            render(head, fmt, out)
            for t in BUILDERS[name](s):
                render(t, fmt, out)
    return rc


def distinct(boots: list[Boot]) -> tuple[list[Boot], int]:
    """@boots, each boot once (the same log given twice would pool its
    runs with themselves); how many were dropped."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for b in boots:
        k = tuple((r.type, tuple(sorted(r.f.items()))) for r in b.records)
        if k not in seen:
            seen.add(k)
            out.append(b)
    return out, len(boots) - len(out)
