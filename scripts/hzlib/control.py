# SPDX-License-Identifier: GPL-2.0-only
"""Boot to boot: what identical code does between two boots.

README's patch flow compares two boots, each of a build against its own
tree (make run BUILD=out/base LINUX=A, then out/patch with B).  A pair's
interval is made of its passes within each boot (Welch's over the per-run
GB/s), and says nothing of what differs between the two boots: under
QEMU's TCG, a whole order moved by 5-8% between two boots of the same
code, outside its interval.  hugezero's own rows (its primitives and
orders, and a tree's linux-* routines or order=tree where both sides' texts
are the same) run the same code on both sides, so their changes are a
sample of that boot-to-boot noise.
A change of a tree's row that lies within their span [min, max] is
within noise as surely as its own interval saying so: a row of the same
code would fall outside the span of N others with chance 2 / (N + 1) at
most (exchangeable rows), under 1 in 18 from N = 35 (the quick matrix's).
The control rows themselves are marked within noise, as the same code.

It applies to a comparison of two logs (no --a/--b selection) whose sides
name different trees' texts, and only with at least MIN_CONTROLS rows of
the same code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from .display import TREE_ORDER

# Fewer, and the span is too likely to miss a null row: 2 / (N + 1) > 0.2.
MIN_CONTROLS = 9
TREE_PRIMITIVE = "linux-"


@dataclass
class Band:
    """The span of the control rows' changes, in % of A, over @n rows;
    @prims and @texts: whether the sides' linux-* routines, and their
    order=tree texts, differ."""
    lo: float
    hi: float
    n: int
    prims: bool
    texts: bool

    def holds(self, change_pct: float) -> bool:
        return self.lo <= change_pct <= self.hi

    @property
    def chance(self) -> str:
        """How often a row of the same code falls outside, at most."""
        return f"2/{self.n + 1}"


def changed(key: Mapping[str, str], prims: bool, texts: bool) -> bool:
    """Whether a configuration runs code that differs between the sides:
    a linux-* routine where the sides' routines differ (@prims), order=tree
    where their texts do (@texts)."""
    return ((texts and key.get("order") == TREE_ORDER) or
            (prims and key.get("clear", "").startswith(TREE_PRIMITIVE)))


def band(changes: Iterable[tuple[Mapping[str, str], float]], prims: bool,
         texts: bool) -> Band | None:
    """The span of the changes (% of A) of the rows that run the same code
    on both sides, from (key, change) of every pair; None with fewer than
    MIN_CONTROLS."""
    same = [c for k, c in changes if not changed(k, prims, texts)]
    if len(same) < MIN_CONTROLS:
        return None
    return Band(min(same), max(same), len(same), prims, texts)


def same_code(b: Band, key: Mapping[str, str]) -> bool:
    return not changed(key, b.prims, b.texts)


def line(b: Band) -> str:
    """The line compare prints above its table."""
    return (f"boot to boot: {b.n} rows run the same code on both sides and changed by "
            f"{b.lo:+.1f}% .. {b.hi:+.1f}%: a change within that span is marked '~' too\n"
            f"('same code' on those rows, 'boot to boot' on a row of changed code, which a "
            f"row of the same code\nwould leave with chance {b.chance} at most).\n")
