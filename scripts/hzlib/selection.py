# SPDX-License-Identifier: GPL-2.0-only
"""compare's --a and --b: which configurations to set beside which.

Each side names one or more DIM=VALUE selectors (`order=converging-page`,
`folio=2M,order=contiguous-page`, `cpus=0-3`).  A configuration of A's log
that matches every one of --a's is paired with the configuration of B's
log (the same log, for a within-log comparison) that matches --b's and is
equal to it in every other dimension: the selectors' dimensions are the
ones that differ, every other must match.  What cannot be meant is
refused, with what would be valid: a dimension no configuration has, a
value none has, a configuration both sides match, two configurations of a
side that would pair alike, no pair at all.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, TypeVar

from . import dims

Key = tuple[tuple[str, str], ...]
T = TypeVar("T")

# Other names of dimensions: the primitive is `clear` in the records.
ALIASES = {"prim": "clear"}


class SelectError(ValueError):
    """A selector that names nothing, or pairs nothing unambiguously."""


@dataclass
class Selector:
    """One side's DIM=VALUE terms (@side: 'a' or 'b')."""
    side: str
    terms: dict[str, str]

    @property
    def text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.terms.items())

    def matches(self, d: Mapping[str, str]) -> bool:
        """Every term holds in @d: the value as the records write it or as
        labels show it (4M for 4194304, '-' for a missing one)."""
        return all(d.get(k) == dims.normal(k, v) or dims.value(d, k) == v
                   or (k not in d and dims.ABSENT_MEANS.get(k) == v)
                   for k, v in self.terms.items())


def parse(side: str, args: list[str]) -> Selector:
    """--@side's arguments, each DIM=VALUE[,DIM=VALUE...]; a comma-piece
    with no '=' continues the value before it (cpus=0,2)."""
    terms: dict[str, str] = {}
    for arg in args:
        last = None
        for piece in arg.split(","):
            if "=" not in piece and last is not None and piece:
                terms[last] += "," + piece
                continue
            k, eq, v = piece.partition("=")
            k = ALIASES.get(k.strip(), k.strip())
            if not eq or not k or not v:
                raise SelectError(f"--{side} {arg}: '{piece}' is not DIM=VALUE")
            if k in terms:
                raise SelectError(f"--{side} names {k} twice")
            terms[k], last = v, k
    if not terms:
        raise SelectError(f"--{side} selects nothing: give DIM=VALUE")
    return Selector(side, terms)


@dataclass
class Selectors:
    """--a's and --b's, and whether both select in one log."""
    a: Selector
    b: Selector
    same_log: bool

    @property
    def dims(self) -> list[str]:
        """The dimensions the sides differ in: every one either names, and
        with the order its parameters (dims.ORDER_PARAMS), which each
        order has its own of (order=linux's resolved chunk and radius,
        order=tree's none): two of one side that differ in them are
        refused, asking to name them."""
        named = [*self.a.terms, *self.b.terms]
        for k, params in dims.PARAMS_OF.items():
            if k in named and self.a.terms.get(k) != self.b.terms.get(k):
                named += params
        return list(dict.fromkeys(named))

    def apply(self, a: list[dict[Key, T]], b: list[dict[Key, T]]
              ) -> tuple[list[dict[Key, T]], list[dict[Key, T]]]:
        """A's tables (configurations, aggregates) and B's, each cut to
        what its side selects and keyed by every dimension but the
        selectors'; raises SelectError where that cannot pair."""
        known = dims.names(dict(k) for t in a + b for k in t)
        for sel, tables in ((self.a, a), (self.b, b)):
            check(sel, tables, known)
        chosen_a, chosen_b = pick(self.a, a), pick(self.b, b)
        if self.same_log:
            for ta, tb in zip(chosen_a, chosen_b):
                both = [k for k in ta if k in tb]
                if both:
                    raise SelectError(f"{describe(both[0], self.dims)} matches both "
                                      f"--a {self.a.text} and --b {self.b.text}")
        out_a = [self.reduce(self.a, t) for t in chosen_a]
        out_b = [self.reduce(self.b, t) for t in chosen_b]
        if not any(k in tb for ta, tb in zip(out_a, out_b) for k in ta):
            raise SelectError(self.unpaired(out_a, out_b))
        return out_a, out_b

    def reduce(self, sel: Selector, t: dict[Key, T]) -> dict[Key, T]:
        """@t keyed without the selectors' dimensions; two of its
        configurations that would then be one are refused."""
        out: dict[Key, T] = {}
        full: dict[Key, Key] = {}
        for k, v in t.items():
            r = tuple(kv for kv in k if kv[0] not in self.dims)
            if r in out:
                diff = dims.differing(dict(full[r]), dict(k))
                raise SelectError(
                    f"--{sel.side} {sel.text} matches two configurations that differ only "
                    f"in {', '.join(diff)} ({describe(full[r], diff)}; "
                    f"{describe(k, diff)}), so each would pair with the same one: "
                    f"name {', '.join(diff)} in both --a and --b")
            out[r], full[r] = v, k
        return out

    def unpaired(self, a: list[dict[Key, T]], b: list[dict[Key, T]]) -> str:
        """Why nothing paired: how many each side matched, and how the
        nearest two differ."""
        ka, kb = [k for t in a for k in t], [k for t in b for k in t]
        why = (f"no pairs: --a {self.a.text} matches {len(ka)} configuration(s), "
               f"--b {self.b.text} {len(kb)}")
        if ka and kb:
            x, y = min(((x, y) for x in ka for y in kb),
                       key=lambda p: len(dims.differing(dict(p[0]), dict(p[1]))))
            why += (", and none is equal in every other dimension (the nearest: "
                    f"B has {dims.contrast(dict(x), dict(y))})")
        return why


def check(sel: Selector, tables: list[dict[Key, T]], known: list[str]) -> None:
    """Every dimension @sel names is one the configurations have, and its
    value one that @sel's side has."""
    keys = [dict(k) for t in tables for k in t]
    for k, v in sel.terms.items():
        if k not in known:
            raise SelectError(f"--{sel.side} {k}={v}: no dimension '{k}'; the "
                              f"configurations have: {', '.join(known)}")
        if not any(Selector(sel.side, {k: v}).matches(d) for d in keys):
            have = sorted({dims.value(d, k) for d in keys})
            raise SelectError(f"--{sel.side} {k}={v}: no configuration of "
                              f"{sel.side.upper()} has it; {k} there: {', '.join(have)}")
    if not any(sel.matches(d) for d in keys):
        raise SelectError(f"--{sel.side} {sel.text}: no configuration of "
                          f"{sel.side.upper()} has all of it")


def pick(sel: Selector, tables: list[dict[Key, T]]) -> list[dict[Key, T]]:
    return [{k: v for k, v in t.items() if sel.matches(dict(k))} for t in tables]


def describe(k: Key, which: list[str]) -> str:
    """The configuration @k by the dimensions @which."""
    return dims.label(dict(k), which) or "the configuration"
