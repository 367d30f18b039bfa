# SPDX-License-Identifier: GPL-2.0-only
"""The report's pre-zeroing part (docs/prezero-report.md): for a boot with
prezero=, one line per configuration saying where its zeroing went — the
time to fault the region, the zeroing left in the faults, the zeroing done
ahead of them and by whom, and the two together — under a heading of every
other dimension, as the per-configuration table has them.
"""
from __future__ import annotations

import math
from typing import IO

from . import dims, smpreport
from .results import Config

Row = dict[str, object]

# The dimensions on a line: the mode, its parameters and what the fault
# would clear with; the others head a table.
LINE_DIMS = ("prezero", *dims.PREZERO_PARAMS, "folio", "clear", "order", "chunk", "radius")

TITLE = ("where the zeroing went, ms per measured pass (net of the timer): fault = the time "
         "to fault the region; inline = the zeroing left in the faults; ahead = the zeroing "
         "done before they wanted it, and by whom; total = inline + ahead, the total cost "
         "moved, not only the fault time saved")

WAIT_TITLE = ("; waits = the faults per pass that waited for a folio a zeroer held, "
              "and wait ms the time they waited (inside their fault times)")

COLS = ("mode      folio order               chunk rad clear      status pre-zeroed   "
        "fault ms  inline ms   ahead ms by           total ms ahead GB/s  ahead with")

# The parameters after the clear and order ahead, as a line shows them.
PARAMS = (("prezero_n", "n=", ""), ("prezero_cpu", "cpu=", ""), ("prezero_low", "low=", "%"),
          ("prezero_high", "high=", "%"), ("prezero_idle_ms", "refill ", " ms"))


def ms(v: object, spec: str = "10.3f") -> str:
    """@v in @spec, or a '-' as wide."""
    if isinstance(v, float) and not math.isnan(v):
        return format(v, spec)
    return f"{'-':>{int(spec.split('.')[0])}}"


def ahead_with(d: dict[str, str]) -> str:
    """How the zeroing ahead was done: 'erms contiguous-page n=all'."""
    if d.get("prezero", "none") == "none":
        return ""
    how = [d.get("prezero_clear", "-"), d.get("prezero_order", "-")]
    return " ".join(how + [f"{name}{d[k]}{unit}" for k, name, unit in PARAMS if k in d])


def heading(r: Row) -> str:
    d: dict[str, str] = r["dims"]  # type: ignore[assignment]
    text = dims.label(d, [k for k in dims.names([d]) if k not in LINE_DIMS])
    return text.replace(f"size={dims.value(d, 'size')}",
                        f"size={dims.value(d, 'size')} ({r['folios']} folios)", 1)


# With the kernel's counts of faults that waited for a zeroer's folio
# (newer logs), two more columns before 'ahead with'.
WAIT_COLS = "    waits    wait ms"


def has_waits(rows: list[Row]) -> bool:
    return any(r.get("prezero_waits_per_run", "") != "" for r in rows)


def waits(r: Row) -> str:
    """The faults that waited for a zeroer's folio per pass, and the time
    they waited, ms; '-' where the row has none."""
    return f"{ms(r.get('prezero_waits_per_run'), '9.1f')} {ms(r.get('prezero_wait_ms_per_run'))}"


def line(r: Row, with_waits: bool = False) -> str:
    d: dict[str, str] = r["dims"]  # type: ignore[assignment]
    rad = d.get("radius", "0")
    pct = r["prezeroed_pct"]
    pz = f"{pct:8.1f} %" if isinstance(pct, float) and not math.isnan(pct) else f"{'-':>10}"
    return (f"{d.get('prezero', '-'):<9} {r['folio']:<5} {r['order']:<19} {r['chunk']:>5} "
            f"{'' if rad == '0' else rad:>3} {r['clear']:<10} {r['status']:<6} {pz} "
            f"{ms(r['fault_ms_per_run'])} {ms(r['inline_clear_ms_per_run'])} "
            f"{ms(r['prezero_ms_per_run'])} {r['prezero_by'] or '-':<10} "
            f"{ms(r['zeroing_ms_per_run'])} {ms(r.get('prezero_gbps'), '10.2f')}"
            f"{' ' + waits(r) if with_waits else ''}  {ahead_with(d)}").rstrip()


def write(pairs: list[tuple[Config, Row]], out: IO[str]) -> None:
    """The table of a boot's configurations run with prezero= (none when
    the boot had none), a heading for each set of other dimensions."""
    rows = [r for c, r in pairs if "prezero" in c.rec.f]
    if not rows:
        return
    grouped = any(r["group"] != "" for r in rows)
    w = has_waits(rows)
    cols = COLS.replace("  ahead with", WAIT_COLS + "  ahead with") if w else COLS
    out.write(f"\n{TITLE}{WAIT_TITLE if w else ''}\n")
    last = None
    for r in rows:
        h = heading(r)
        if h != last:
            out.write(f"\n{h}\n{smpreport.CPU_PREFIX if grouped else ''}{cols}\n")
            last = h
        out.write((smpreport.cpu_prefix(r) if grouped else "") + line(r, w) + "\n")
