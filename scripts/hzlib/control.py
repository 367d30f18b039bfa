# SPDX-License-Identifier: GPL-2.0-only
"""Two boots of two trees' builds: what a second boot alone does, and a
tree's row judged against hugezero's own twin of it.

README's patch flow compares two boots, each of a build against its own
tree (make run BUILD=out/base LINUX=A, then out/patch with B).  A pair's
interval is made of its passes within each boot (Welch's over the per-run
GB/s) and says nothing of what differs between the two boots: under
QEMU's TCG a whole order moved by 5-8% between two boots of the same
code, outside its interval.  Where both sides are the same hugezero build
(the boot records' hugezero_git) on the same machine, two things follow:

- the rows whose code is the same on both sides (hugezero's own
  primitives and orders; a tree's linux-* routines, or order=tree, where
  both trees' texts are one) changed by boot-to-boot noise alone: compare
  says their span and marks them 'same code', within noise by what they
  are, not by a test;
- a row of changed code is judged against its twin, hugezero's own code
  of the same kind in the same boot: order=tree against order=linux
  (hugezero's transcription of merged 7.0, the same clear= and folio), a
  tree's linux-NAME against hugezero's NAME (the same order).  Within each
  boot, the row's log GB/s less its twin's (paired by round where both ran
  in one round group, else the difference of the two means) takes out
  what that boot did to both; the change of that difference from A to B
  has a t interval with Welch's degrees of freedom, and a change is within
  noise when its interval holds 0 (twin()).  A row with no twin in both
  boots keeps its own interval.

Neither applies where the two sides' hugezero builds or machines differ
(then hugezero's own rows measure that difference too), within one log,
or with --a/--b.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Mapping, Sequence

from . import interval
from .display import TREE_ORDER

TREE_PRIMITIVE = "linux-"
# What order=tree is set against: hugezero's own merged-7.0 order.
TWIN_ORDER = "linux"


@dataclass
class Band:
    """The same code's changes between the boots, in % of A: their span and
    median over @n rows; @prims and @texts: whether the sides' linux-*
    routines, and their order=tree texts, differ."""
    lo: float
    hi: float
    median: float
    n: int
    prims: bool
    texts: bool


def changed(key: Mapping[str, str], prims: bool, texts: bool) -> bool:
    """Whether a configuration runs code that differs between the sides:
    a linux-* routine where the sides' routines differ (@prims), order=tree
    where their texts do (@texts)."""
    return ((texts and key.get("order") == TREE_ORDER) or
            (prims and key.get("clear", "").startswith(TREE_PRIMITIVE)))


def same_code(b: Band, key: Mapping[str, str]) -> bool:
    return not changed(key, b.prims, b.texts)


def band(changes: Sequence[tuple[Mapping[str, str], float]], prims: bool,
         texts: bool) -> Band | None:
    """The span of the changes (% of A) of the rows that run the same code
    on both sides, from (key, change) of every pair; None without any."""
    same = [c for k, c in changes if not changed(k, prims, texts)]
    if not same:
        return None
    return Band(min(same), max(same), statistics.median(same), len(same), prims, texts)


# order=linux's resolved parameters: a row's twin is found without them.
RESOLVED = ("chunk", "radius")


def twin_of(key: Mapping[str, str], keys: Sequence[Mapping[str, str]]
            ) -> Mapping[str, str] | None:
    """Of @keys, the configuration of hugezero's own code a changed row
    @key is set against (module docstring); None where there is none."""
    d = dict(key)
    if d.get("order") == TREE_ORDER:
        want = {k: v for k, v in d.items() if k not in RESOLVED}
        want["order"] = TWIN_ORDER
        return next((k for k in keys if {n: v for n, v in k.items()
                                         if n not in RESOLVED} == want), None)
    clear = d.get("clear", "")
    if clear.startswith(TREE_PRIMITIVE):
        d["clear"] = clear[len(TREE_PRIMITIVE):]
        return next((k for k in keys if dict(k) == d), None)
    return None


def twin_name(key: Mapping[str, str], twin: Mapping[str, str]) -> str:
    """What a row's twin differs in: 'order=linux', 'clear=erms'."""
    return " ".join(f"{k}={twin[k]}" for k in ("clear", "order") if twin.get(k) != key.get(k))


def _logs(xs: Sequence[float]) -> list[float]:
    return [math.log(x) for x in xs if x > 0]


def _within(row: Sequence[float], twin: Sequence[float],
            row_rounds: Sequence[object], twin_rounds: Sequence[object]
            ) -> tuple[float, float, float] | None:
    """One boot: the row's mean log GB/s less its twin's, the variance of
    that difference and its degrees of freedom; paired by round where
    every run of both has a round and they share them all."""
    keys = list(row_rounds)
    if (keys and None not in keys and len(set(keys)) == len(keys) and
            set(keys) == set(twin_rounds) and len(row) == len(keys) == len(twin)):
        by = dict(zip(twin_rounds, twin))
        d = [math.log(r) - math.log(by[k]) for r, k in zip(row, keys) if r > 0 and by[k] > 0]
        if len(d) < 2:
            return None
        return statistics.fmean(d), statistics.variance(d) / len(d), float(len(d) - 1)
    a, b = _logs(row), _logs(twin)
    if len(a) < 2 or len(b) < 2:
        return None
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    return (statistics.fmean(a) - statistics.fmean(b), va + vb,
            interval.welch_df(va, len(a), vb, len(b)))


@dataclass
class Twin:
    """A changed row against its twin: @change the change of (row / twin)
    from A to B in %, @iv its 95% interval as a ratio (B over A, as a
    pair's); @name the twin."""
    name: str
    change: float
    iv: interval.Interval

    @property
    def within_noise(self) -> bool:
        return self.iv.contains(1.0)


def twin(name: str, a: tuple[Sequence[float], Sequence[float], Sequence[object],
                             Sequence[object]],
         b: tuple[Sequence[float], Sequence[float], Sequence[object], Sequence[object]]
         ) -> Twin | None:
    """The change from A to B of a row relative to its twin (@a and @b:
    each side's row runs, twin runs, row rounds, twin rounds); None where
    a side has too few runs.  Raises interval.NoScipy without scipy."""
    wa, wb = _within(*a), _within(*b)
    if wa is None or wb is None:
        return None
    d = wb[0] - wa[0]
    var = wa[1] + wb[1]
    # Welch-Satterthwaite over the two boots' parts.
    den = (wa[1] ** 2 / wa[2] if wa[2] else 0.0) + (wb[1] ** 2 / wb[2] if wb[2] else 0.0)
    df = var ** 2 / den if den else wa[2] + wb[2]
    h = interval.t_quantile(df) * math.sqrt(var)
    return Twin(name, 100.0 * (math.exp(d) - 1.0),
                interval.Interval(math.exp(d), math.exp(d - h), math.exp(d + h), "twin t",
                                  int(df), math.sqrt(var)))


def line(b: Band) -> str:
    """The line compare prints above its table."""
    return (f"boot to boot: {b.n} rows run the same hugezero build's same code on both sides "
            f"and changed by {b.lo:+.1f}% .. {b.hi:+.1f}% (median {b.median:+.1f}%): what a "
            "second boot\nalone does, so marked '~' ('same code'); a row of changed code is "
            "set against its twin of hugezero's own in each boot\n('vs TWIN' under it: the "
            "change of their ratio, which that boot's own shift leaves out).\n")


def not_judged(why: str) -> str:
    return f"boot to boot: not judged: {why}; each row has its own interval only.\n"
