# SPDX-License-Identifier: GPL-2.0-only
"""The human-readable report: per configuration, GB/s as the mean and
sample standard deviation of its runs, with their n (display.mean_sd), and
the per-fault latency split."""
from __future__ import annotations

import math
from typing import IO

from . import (counterreport, dims, display, groups, inventory, lavalog, prezeroreport,
               results, smpreport, statsreport)
from .records import Boot


def fmt(v: object, spec: str = "9.1f") -> str:
    """A number in @spec, or a right-aligned '-' of the same width."""
    if isinstance(v, float) and not math.isnan(v):
        return format(v, spec)
    width = int(spec.split(".")[0] or 0)
    return f"{'-' if isinstance(v, float) or v is None else v:>{width}}"


def header(boot: Boot, out: IO[str]) -> None:
    m, t, b = boot.first("machine"), boot.first("timebase"), boot.first("boot")
    if m:
        out.write(f"machine: {display.machine_long(boot)}\n")
    if t:
        out.write(f"timebase: TSC {int(t.f['tsc_hz']) / 1e9:.6f} GHz from "
                  f"{t.f.get('source')}, references within "
                  f"{t.f.get('disagreement_ppm')} ppm, invariant "
                  f"{'yes' if t.f.get('invariant') == '1' else 'no'}\n")
    if b:
        out.write(f"boot: hugezero {b.f.get('version')}, {b.f.get('firmware')}, "
                  f"record format {b.f.get('format', '1')}, cmdline '{b.f.get('cmdline')}'"
                  f"{tree_of(b.f)}\n")
    if boot.lava:
        out.write(lavalog.describe(boot.lava) + "\n")
    if t:
        out.write(f"figures are net of the timer: {results.timer_ticks(boot)} ticks "
                  "(timebase overhead_median) off every timed sample; roof = GB/s "
                  f"over the boot's best clearing GB/s of {results.roof_of(boot)}\n")


def tree_of(boot: dict[str, str]) -> str:
    """make LINUX=DIR's tree, for the boot line: its primitives, and the
    zeroing order=tree runs where the tree had an mm/memory.c; '' when the
    image had none."""
    t, e = display.Tree.of(boot), display.Entry.of(boot)
    return (f", {display.tree_note(t)}" if t else "") + (f", {display.entry_note(e)}"
                                                         if e else "")


# The GB/s column: mean, +- sd% and n.
GBS = display.mean_sd_width(7, n_shown=True)
COLS = ("folio order               chunk rad clear      status  "
        f"{display.mean_sd_head('GB/s', 7, n_shown=True):<{GBS}}roof "
        "fault us: min   median      p99      max | clear us overhead us access us")

# Dimensions each line shows; the others head a group of lines.
LINE_DIMS = ("folio", "clear", "order", "chunk", "radius")


def line(r: dict[str, object]) -> str:
    n = int(r["runs"])  # type: ignore[call-overload]
    gbs = display.mean_sd(r["gbps_mean"], r["gbps_stddev_pct"], n,  # type: ignore[arg-type]
                          n_shown=True, missing=f"{'-':>7}")
    rad = r.get("radius") or ""
    return (f"{r['folio']:<5} {r['order']:<19} {r['chunk']:>5} "
            f"{'' if rad == '0' else rad:>3} {r['clear']:<10} "
            f"{r['status']:<6} {gbs:<{GBS}}{fmt(r['roof'], '4.2f')} {fmt(r['fault_us_min'])} "
            f"{fmt(r['fault_us_median'])} {fmt(r['fault_us_p99'])} "
            f"{fmt(r['fault_us_max'])} | {fmt(r['clear_us_median'])} "
            f"{fmt(r['overhead_us_median'], '11.2f')} "
            f"{fmt(r['access_us_median'])}")


def not_offered(r: dict[str, object]) -> str:
    """What a row of linux_offered=no is: 7.0's non-preemptible branch
    under a model x86 Linux 7.0 does not offer, with the calls per fault
    where the runs counted them."""
    calls = r.get("prim_calls_per_fault")
    per = (f", {calls:.4g} primitive calls per fault" if isinstance(calls, float)
           and not math.isnan(calls) else "")
    return (f"{results.NOT_OFFERED}: order=linux under preempt="
            f"{dict(r['dims']).get('preempt', '?')} is 7.0's non-preemptible branch "  # type: ignore[call-overload]
            f"({dims.value(dict(r['dims']), 'chunk')} units{per}); x86 7.0 is full or "  # type: ignore[call-overload]
            "lazy, whole ranges")


def settings(r: dict[str, object]) -> str:
    """Every dimension not on the line: rows under one heading differ only
    in the line's."""
    d: dict[str, str] = r["dims"]  # type: ignore[assignment]
    which = [k for k in dims.names([d]) if k not in LINE_DIMS]
    text = dims.label(d, which)
    return text.replace(f"size={dims.value(d, 'size')}",
                        f"size={dims.value(d, 'size')} ({r['folios']} folios)", 1)


def shared_skips(rows: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    """The skip reasons more than one row under a heading gives: said once
    below them (make run's 15 rows of avx512, avx512-nt and clzero across
    five orders share two reasons), by reason, in their rows' order."""
    by: dict[str, list[dict[str, object]]] = {}
    for r in rows:
        if r["status"] == "skip" and r["reason"]:
            by.setdefault(str(r["reason"]), []).append(r)
    return {k: v for k, v in by.items() if len(v) > 1}


def say_shared(shared: dict[str, list[dict[str, object]]], out: IO[str]) -> None:
    for reason, rs in shared.items():
        counts: dict[str, int] = {}
        for r in rs:
            counts[str(r["clear"])] = counts.get(str(r["clear"]), 0) + 1
        which = ", ".join(f"{c} x{n}" if n > 1 else c for c, n in counts.items())
        out.write(f"      skip, {len(rs)} rows above ({which}): {reason}\n")


def write(boots: list[Boot], out: IO[str]) -> None:
    for b in boots:
        pairs = results.pairs(b)
        rows = [r for _, r in pairs]
        # All CPUs at once: each CPU's configuration a line, its CPU first.
        grouped = any(r["group"] != "" for r in rows)
        out.write(f"== boot {b.index}{'' if b.complete else ' (INCOMPLETE)'}"
                  f"{' (INTERRUPTED)' if b.interrupted else ''}\n")
        if b.interrupted:
            out.write(f"{b.cut}: the run stopped there; what ran before is below\n")
        header(b, out)
        ns = [int(r["runs"]) for r in rows if r["status"] == "ok"]  # type: ignore[call-overload]
        if ns:
            out.write(display.sd_legend("per-run GB/s", "run", ns, "n=N") + "\n")
        smpreport.cpus(b, out)
        inventory.write(b, out)
        last = None
        shared: dict[str, list[dict[str, object]]] = {}
        boot_f = b.first("boot").f if b.first("boot") else {}
        for c, r in pairs:
            s = settings(r)
            if s != last:
                say_shared(shared, out)
                shared = shared_skips([x for x in rows if settings(x) == s])
                out.write(f"\n{s}\n{smpreport.CPU_PREFIX if grouped else ''}{COLS}"
                          f"{smpreport.CPU_SUFFIX if grouped else ''}\n")
                last = s
            out.write((smpreport.cpu_prefix(r) if grouped else "") + line(r) +
                      (smpreport.cpu_suffix(r) if grouped else "") + "\n")
            if display.is_tree_primitive(c.rec.f):
                out.write(f"      {r['clear']}: "
                          f"{display.routine_label(display.Tree.of(boot_f), c.rec.f)}\n")
            entry = display.Entry.of(boot_f, c.rec.f)
            if entry:
                out.write(f"      {display.entry_head(entry)}\n")
            if r.get("linux_offered") == "no":
                out.write(f"      {not_offered(r)}\n")
            if r["status"] in ("skip", "fail", "damaged", "incomplete", "interrupted") \
                    and r["reason"] \
                    and not (r["status"] == "skip" and str(r["reason"]) in shared):
                out.write(f"      {r['status']}: {r['reason']}\n")
            if r.get("probe_lost", "") != "":
                out.write(f"      probe: wake-up late by median {fmt(r['probe_us_median']).strip()}"
                          f", p99 {fmt(r['probe_us_p99']).strip()}, max "
                          f"{fmt(r['probe_us_max']).strip()} us; {r['probe_lost']} lost\n")
            if r.get("flagged"):
                out.write(f"      flagged: {r['flagged']}\n")
            if r.get("kernel_flagged", "") and r["kernel_flagged"] != r.get("flagged"):
                out.write(f"      the kernel's summary flagged otherwise: "
                          f"{r['kernel_flagged']}\n")
            elif r.get("flagged") and "kernel_flagged" in r and not r["kernel_flagged"]:
                out.write("      (the kernel's summary flagged none)\n")
            for note in statsreport.notes(b, c):
                out.write(f"      {note}\n")
            if r.get("inject", "none") != "none":
                out.write(f"      inject={r['inject']}: {r['injected'] or 0} lines "
                          f"injected, {r['detected'] or 0} detected\n")
        say_shared(shared, out)
        prezeroreport.write(pairs, out)
        counterreport.write(pairs, out)
        smpreport.aggregates(b, groups.of(b, [c for c, _ in pairs]), out)
        out.write("\n")
