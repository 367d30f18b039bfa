# SPDX-License-Identifier: GPL-2.0-only
"""The report's SMP parts (docs/smp.md, "Report"): the CPUs of a boot and
the aggregate of each group, in the shape of the seeds' tables:

    order                 stime (s)             utime (s)             GB/s
    discontiguous-page    1739.93 ( +-  6.15% )  1016.61 ( +-  4.75% )  ...
"""
from __future__ import annotations

import math
from typing import IO

from . import dims, display, groups, results
from .records import Boot

CPU_COLS = (" cpu apic_id node state      x2apic  "
            f"{display.plus_minus_head('tsc offset ticks', 'err'):<25}  warps  reason")


def cpus(boot: Boot, out: IO[str]) -> None:
    """The smp line and one line per processor the MADT lists."""
    s = boot.first("smp")
    if s:
        f = s.f
        slit = "SLIT" if f.get("slit") == "1" else "no SLIT"
        out.write(f"smp: {f.get('up', '?')} of {f.get('present', '?')} processors up, "
                  f"{f.get('nodes', '?')} NUMA node(s) ({slit}), TSC skew "
                  f"{f.get('tsc_skew_ticks', '?')} ticks (bound "
                  f"{f.get('tsc_skew_bound_ticks', '?')}): sync {f.get('tsc_sync', '?')}\n")
    recs = [r for r in boot.records if r.type == "cpu"]
    if not recs:
        return
    out.write(CPU_COLS + "\n")
    for r in recs:
        f = r.f
        off = display.plus_minus(f"{f.get('tsc_offset_ticks', '-'):>10}",
                                 f"{f.get('tsc_offset_err_ticks', '-'):<6}")
        out.write(f"{f.get('cpu', '-'):>4} {f.get('apic_id', '-'):>7} {f.get('node', '-'):>4} "
                  f"{f.get('state', '?'):<10} {f.get('x2apic', '-'):>6}  {off:<25} "
                  f"{f.get('tsc_warps', '-'):>5}  {f.get('reason', '')}\n".rstrip() + "\n")


# Prefixed to a configuration's line in a boot with groups: which CPU.
CPU_PREFIX = "grp cpu node mem_node   "


def cpu_prefix(r: dict[str, object]) -> str:
    return f"{r['group']:>3} {r['cpu']:>3} {r['node']:>4} {r['mem_node']:<10} "


# After it: the CPU's (the process's) own stime and utime, mean per pass.
CPU_SUFFIX = " |  stime ms  utime ms"


def cpu_suffix(r: dict[str, object]) -> str:
    def ms(v: object) -> str:
        return (f"{v * 1e3:9.2f}" if isinstance(v, float) and not math.isnan(v)
                else f"{'-':>9}")
    return f" | {ms(r.get('stime_s_mean'))} {ms(r.get('utime_s_mean'))}"


# Units for stime and utime: the largest in which the table's smallest
# figure is still 1 or more (the seeds print seconds, with 2 decimals).
UNITS = (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9))

# The dimensions on an aggregate line; the others head a table.
AGG_LINE_DIMS = ("order", "chunk", "radius")


def unit(rs: list[dict[str, object]]) -> tuple[str, float]:
    vals = [float(v) for r in rs for v in (r["stime_s_mean"], r["utime_s_mean"])  # type: ignore[arg-type]
            if isinstance(v, float) and not math.isnan(v) and v > 0]
    low = min(vals, default=1.0)
    return next(((n, s) for n, s in UNITS if low >= s), UNITS[-1])


def cell(m: object, sd: object, n: object, scale: float = 1.0) -> str:
    """The seed's mean ( +- sd% ) of @n passes (display.mean_sd_paren)."""
    return display.mean_sd_paren(m / scale if isinstance(m, float) else math.nan,
                                 sd, int(n))  # type: ignore[arg-type, call-overload]


def heading(r: dict[str, object]) -> str:
    d: dict[str, str] = r["dims"]  # type: ignore[assignment]
    text = dims.label(d, [k for k in dims.names([d]) if k not in AGG_LINE_DIMS])
    text = text.replace(f"size={dims.value(d, 'size')}", f"size={dims.value(d, 'size')} per CPU", 1)
    return text.replace(f"cpus={dims.value(d, 'cpus')}",
                        f"cpus={dims.value(d, 'cpus')} ({r['ncpus']} CPUs)", 1)


def order_name(r: dict[str, object]) -> str:
    d: dict[str, str] = r["dims"]  # type: ignore[assignment]
    rad = d.get("radius", "0")
    return (f"{r['order']}{' ' + str(r['chunk']) if r['chunk'] else ''}"
            f"{' radius ' + rad if rad != '0' else ''}{results.offered_note(r)}")


def skew(r: dict[str, object]) -> str:
    """The start skew cell, in µs: the largest of the passes in CPU 0's
    time and its error where the records have it, else as read; '-'."""
    def num(key: str) -> float:
        v = r.get(key)
        return v if isinstance(v, float) else math.nan
    corr, err, raw = (num("start_skew_corr_us_max"), num("start_skew_err_us_max"),
                      num("start_skew_us_max"))
    if not math.isnan(corr):
        return display.plus_minus(f"{corr:8.2f}", f"{err:.2f}")
    return f"{raw:8.2f}" if not math.isnan(raw) else f"{'-':>8}"


SOURCES = {"ticks": "the CPUs' fault and access TSC ticks",
           "rusage": "getrusage() ru_stime and ru_utime of the processes"}


def aggregates(boot: Boot, gs: list[groups.Group], out: IO[str]) -> None:
    """One table per heading (every dimension but the order's), one line
    per order: stime, utime, GB/s as mean and sample stddev% (cell())."""
    if not gs:
        return
    rs = [groups.row(boot, g) for g in gs]
    src = " or ".join(SOURCES[s] for s in sorted({str(r["times_from"]) for r in rs}))
    # The start skew where the kernel put it in CPU 0's time: a log
    # without it (older, or the companion's) reads as it always did.
    skews = any(isinstance(r.get("start_skew_corr_us_max"), float) and
                not math.isnan(r["start_skew_corr_us_max"]) for r in rs)  # type: ignore[arg-type]
    skew_words = display.plus_minus("in CPU 0's time", "the TSC offsets' error")
    out.write(f"\naggregate of each group, every CPU at once: per measured pass stime and "
              f"utime summed over the CPUs ({src}), GB/s = total bytes / wall time "
              "(first CPU's start to last CPU's finish; not net of the timer); "
              f"{display.PAREN_WORDS} over the passes" +
              ("; start skew: the last CPU's start less the first's, the largest of "
               f"the passes, {skew_words}\n" if skews else "\n"))
    blocks: list[tuple[str, list[dict[str, object]]]] = []
    for r in rs:
        h = heading(r)
        if not blocks or blocks[-1][0] != h:
            blocks.append((h, []))
        blocks[-1][1].append(r)
    for h, mine in blocks:
        name, scale = unit(mine)
        width = max([len(order_name(r)) for r in mine] + [20])
        out.write(f"\n{h}\n{'order':<{width}}  {'stime (' + name + ')':^22}  "
                  f"{'utime (' + name + ')':^22}  {'GB/s':^22}  " +
                  (f"{'passes':<15}  start skew (us)\n" if skews else "passes\n"))
        for r in mine:
            gb = ("refused" if r["runs"] and r["refused_runs"] == r["runs"]
                  else cell(r["gbps_mean"], r["gbps_stddev_pct"], len(r["gbps_runs"])))  # type: ignore[arg-type]
            n = f"{r['runs']}" + (f" ({r['refused_runs']} refused)" if r["refused_runs"] else "")
            out.write(f"{order_name(r):<{width}}  "
                      f"{cell(r['stime_s_mean'], r['stime_stddev_pct'], r['runs'], scale)}  "
                      f"{cell(r['utime_s_mean'], r['utime_stddev_pct'], r['runs'], scale)}  "
                      f"{gb:>22}  " + (f"{n:<15}  {skew(r)}\n" if skews else f"{n}\n"))
            notes(r, out)


def notes(r: dict[str, object], out: IO[str]) -> None:
    if r["status"] != "ok":
        out.write(f"      {r['status']}: group {r['group']}"
                  f"{': ' + str(r['reason']) if r['reason'] else ''}\n")
    if r.get("stopped_by"):
        out.write(f"      {display.group_stopped(str(r['stopped_by']), r['runs'])}\n")
    for p in r["passes"]:  # type: ignore[attr-defined]
        if p["refused"]:
            out.write(f"      pass {p['run']} refused: {p['refused']} (stime and utime kept, "
                      "no GB/s)\n")
    for n in r["notes"]:  # type: ignore[attr-defined]
        out.write(f"      note: {n}\n")
