# SPDX-License-Identifier: GPL-2.0-only
"""The split: what the hardware costs and what Linux adds, per folio size.

From the companion's records (bench=split, or linux-fault and bare runs):
Linux's demand-fault rate and latency, the same clearing done bare with
Linux's own order and primitive for the kernel version it runs, the best
primitive and order bare, and the difference per fault: Linux's overhead.
Kernel (bench=fault) records of the same machine are shown beside.
"""
from __future__ import annotations

import math
import re
from typing import IO

from . import results
from .records import Boot

Row = dict[str, object]


def linux_version(boot: Boot) -> tuple[int, int] | None:
    h = boot.first("host")
    m = re.match(r"(\d+)\.(\d+)", h.f.get("kernel", "")) if h else None
    return (int(m.group(1)), int(m.group(2))) if m else None


def linux_strategy(boot: Boot) -> tuple[str, str, str]:
    """(order, primitive, why) Linux uses to zero a faulted huge page."""
    m = boot.first("machine")
    feats = (m.f.get("features", "") if m else "").split(",")
    prim = "erms" if "erms" in feats else "rep"
    ver = linux_version(boot)
    if ver and ver >= (7, 0):
        return "neighbourhood-last", prim, f"as Linux {ver[0]}.{ver[1]}"
    return "converging-page", prim, (f"as Linux {ver[0]}.{ver[1]}" if ver
                                     else "Linux version unknown: pre-7.0 assumed")


def machine_key(boot: Boot) -> tuple[str, ...]:
    m = boot.first("machine")
    return tuple(m.f.get(k, "") for k in ("vendor", "family", "model", "stepping", "brand")) if m else ()


def ok(r: Row) -> bool:
    return r["status"] == "ok" and isinstance(r["gbps_mean"], float) and not math.isnan(r["gbps_mean"])


def num(v: object) -> float:
    return v if isinstance(v, float) else math.nan


def folio_split(folio: str, rows: list[Row], kernel_rows: list[Row],
                strategy: tuple[str, str, str], out: IO[str]) -> None:
    linux = [r for r in rows if r["bench"] == "linux-fault" and r["folio"] == folio and ok(r)]
    bare = [r for r in rows if r["bench"] == "bare" and r["folio"] == folio and ok(r)]
    order, prim, why = strategy
    own = [r for r in bare if r["order"] == order and r["clear"] == prim and
           (order != "neighbourhood-last" or r["chunk"] == "32M")]
    best = max(bare, key=lambda r: num(r["gbps_mean"]), default=None)
    out.write(f"\nfolio {folio}\n")
    for r in linux:
        out.write(f"  {'Linux demand fault, ' + str(r['backing']):<47}"
                  f"{num(r['gbps_mean']):7.2f} GB/s +- {num(r['gbps_stddev_pct']):5.2f}%"
                  f"   {num(r['fault_us_median']):9.1f} us/fault (median)\n")
    if not linux:
        out.write("  Linux demand fault: no ok configuration in these records\n")
    def label(text: str) -> str:
        return f"  {text:<47}"

    if own:
        r = own[0]
        out.write(label(f"bare, Linux's own: {prim} + {order}") +
                  f"{num(r['gbps_mean']):7.2f} GB/s +- {num(r['gbps_stddev_pct']):5.2f}%"
                  f"   {num(r['clear_us_median']):9.1f} us/folio ({why})\n")
    else:
        out.write(f"  bare, Linux's own: {prim} + {order} ({why}): not measured\n")
    if best:
        chunk = f" {best['chunk']}" if best["chunk"] else ""
        out.write(label(f"bare, best: {best['clear']} + {best['order']}{chunk}") +
                  f"{num(best['gbps_mean']):7.2f} GB/s +- {num(best['gbps_stddev_pct']):5.2f}%"
                  f"   {num(best['clear_us_median']):9.1f} us/folio\n")
    for r in linux:
        if not own:
            break
        fault, clear = num(r["fault_us_median"]), num(own[0]["clear_us_median"])
        over = fault - clear
        # Run-to-run noise of both figures, as their between-run stddevs.
        noise = (fault * num(r["gbps_stddev_pct"]) + clear * num(own[0]["gbps_stddev_pct"])) / 100
        out.write(f"  Linux's overhead per fault ({r['backing']}): {fault:.1f} - {clear:.1f} = "
                  f"{over:.1f} us, {100 * over / fault:.0f}% of the fault"
                  f"{' (within run-to-run noise of +-%.1f us)' % noise if abs(over) <= noise else ''}\n")
    for r in kernel_rows:
        if r["folio"] != folio or not ok(r):
            continue
        if r["clear"] == prim and r["order"] == order or r is max(
                (k for k in kernel_rows if k["folio"] == folio and ok(k)),
                key=lambda k: num(k["gbps_mean"])):
            out.write(f"  hugezero kernel: {r['clear']} + {r['order']:<19} "
                      f"{num(r['gbps_mean']):7.2f} GB/s   fault {num(r['fault_us_median']):.1f} us = "
                      f"clear {num(r['clear_us_median']):.1f} + overhead "
                      f"{num(r['overhead_us_median']):.2f} us\n")


def write(boots: list[Boot], out: IO[str]) -> int:
    companion = [b for b in boots if b.first("host")]
    kernels = [b for b in boots if not b.first("host")]
    if not companion:
        out.write("split: no companion records (build/hugezero-linux bench=split) given\n")
        return 1
    for b in companion:
        rows = [results.row(b, c) for c in results.configs(b)]
        same = [results.row(k, c) for k in kernels if machine_key(k) == machine_key(b)
                for c in results.configs(k)]
        m, h, t = b.first("machine"), b.first("host"), b.first("timebase")
        assert h is not None
        out.write(f"split of boot {b.index}: {m.f.get('brand') if m else '?'} "
                  f"(family {m.f.get('family') if m else '?'} model {m.f.get('model') if m else '?'}), "
                  f"Linux {h.f.get('kernel')}, CPU {h.f.get('cpu')}, clocksource "
                  f"{h.f.get('clocksource')}, THP {h.f.get('thp_enabled')}/"
                  f"{h.f.get('thp_defrag')}, TSC {int(t.f['tsc_hz']) / 1e9 if t else 0:.4f} GHz"
                  f"{', a VIRTUAL MACHINE (see docs/companion.md)' if h.f.get('vm') == '1' else ''}\n")
        if kernels and not same:
            out.write("  (kernel records given are of another machine: not shown)\n")
        for folio in ("4K", "2M", "1G"):
            if any(r["folio"] == folio for r in rows):
                folio_split(folio, rows, same, linux_strategy(b), out)
        for r in rows:
            if r["status"] != "ok" or (r["reason"] and r["status"] == "ok"):
                out.write(f"  note: {r['bench']} {r['folio']} {r['clear']} {r['order']} "
                          f"{r['backing']}: {r['status']} {r['reason']}\n")
    return 0


PLAIN = re.compile(r"^plain .*$", re.M)


def plain_check(plain_text: str, boots: list[Boot], out: IO[str]) -> None:
    """The harness adds nothing: companion figures beside plain loops."""
    runs = [dict(kv.split("=", 1) for kv in m.group(0).split()[1:] if "=" in kv)
            for m in PLAIN.finditer(plain_text)]
    if not runs:
        out.write("\nharness check: no 'plain' line in the plain loops' output\n")
        return
    # Runs before and after the companion: their mean brackets drift.
    p: dict[str, str] = dict(runs[0])
    for k in ("erms_2m_gibps", "clzero_2m_gibps", "touch_hugetlb_2m_gibps"):
        vals = [float(r[k]) for r in runs if k in r and float(r[k]) > 0]
        if vals:
            p[k] = f"{sum(vals) / len(vals):.3f}"
            if len(vals) > 1:
                p[k + "_spread"] = f"{100 * (max(vals) - min(vals)) / min(vals):.1f}"
    rows = [results.row(b, c) for b in boots if b.first("host") for c in results.configs(b)]

    def find(bench: str, clear: str, order: str, backing: str) -> float:
        for r in rows:
            if (r["bench"], r["folio"], r["clear"], r["order"]) == (bench, "2M", clear, order) \
                    and (not backing or r["backing"] == backing) and ok(r):
                return num(r["gbps_mean"])
        return math.nan

    out.write(f"\nharness check (plain loops on the same CPU and {p.get('backing')} memory, "
              f"mean of {len(runs)} runs around the companion):\n")
    pairs = [("REP STOSB over 2M ranges", find("bare", "erms", "contiguous-page", ""), "erms_2m_gibps"),
             ("CLZERO over 2M ranges", find("bare", "clzero", "contiguous-page", ""), "clzero_2m_gibps"),
             ("mmap + touch, hugetlb 2M", find("linux-fault", "linux", "linux", "hugetlb"),
              "touch_hugetlb_2m_gibps")]
    for name, comp, key in pairs:
        ref = p.get(key)
        spread = f" (plain runs {p[key + '_spread']}% apart)" if key + "_spread" in p else ""
        if ref is None or math.isnan(comp) or float(ref) <= 0:
            out.write(f"  {name:<26} companion {comp:7.2f}  plain {ref or '-':>7}  (not comparable)\n")
            continue
        d = 100 * (comp - float(ref)) / float(ref)
        out.write(f"  {name:<26} companion {comp:7.2f}  plain {float(ref):7.2f} GB/s  "
                  f"{d:+6.1f}%  {'within 10%' if abs(d) <= 10 else 'DIFFERS by more than 10%'}"
                  f"{spread}\n")
