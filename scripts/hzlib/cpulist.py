# SPDX-License-Identifier: GPL-2.0-only
"""Linux's cpulist syntax (lib/cpulist.c, bitmap_parselist()): "0-3,8",
"0-15:2/4" (of each group of 4 in 0..15, the first 2).  The records write
the canonical form ("0-3,8": ranges merged); the host reads any."""
from __future__ import annotations

import re

REGION = re.compile(r"^(\d+)(?:-(\d+))?(?::(\d+)/(\d+))?$")


def parse(text: str) -> list[int] | None:
    """The CPUs of @text, ascending; None when it is not a cpulist (or is
    'all', which names no CPU by itself)."""
    cpus: set[int] = set()
    for part in text.split(","):
        m = REGION.match(part)
        if not m:
            return None
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) else a
        used, group = (int(m.group(3)), int(m.group(4))) if m.group(3) else (1, 1)
        if b < a or not used or used > group:
            return None
        cpus.update(c for c in range(a, b + 1) if (c - a) % group < used)
    return sorted(cpus)


def format(cpus: list[int]) -> str:  # noqa: A001 - the C side's name
    """Canonical text of @cpus, as cpulist_format(): ascending, runs of
    two or more as ranges."""
    runs: list[list[int]] = []
    for c in sorted(set(cpus)):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


def canonical(text: str) -> str:
    """@text in canonical form; anything that is not a cpulist as it is."""
    cpus = parse(text)
    return format(cpus) if cpus else text
