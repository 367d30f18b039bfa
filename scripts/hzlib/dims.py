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
What is said of each field (bookkeeping, defaults, old value names, units)
is fields.py's declaration.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from . import cpulist, fields

# Not dimensions, and why (declared with every field in fields.py): each
# either names a configuration, follows from dimensions or from the
# machine, or changes only what happens outside the timed region.
BOOKKEEPING: dict[str, str] = fields.bookkeeping()

# Defaults for fields older logs lack, where what the older program did is
# known and has a name today.  Keyed by field, then by bench ("*": any).
DEFAULTS: dict[str, dict[str, str]] = {m.name: dict(m.by_bench) for m in fields.MISSING}

# A pre-zeroing mode's parameters (docs/records.md, "Dimensions"): written only
# for the modes they apply to, and none of them for prezero=none.
PREZERO_PARAMS = ("prezero_clear", "prezero_order", "prezero_n", "prezero_cpu",
                  "prezero_low", "prezero_high", "prezero_idle_ms")

# Values that have more than one spelling, in the one the records write.
CANONICAL = {f.name: cpulist.canonical for f in fields.fields_of("config")
             if f.unit == fields.CPULIST}

# Old names of values, as later logs spell them.
RENAMED: dict[str, dict[str, str]] = {f.name: dict(f.renamed) for f in fields.fields_of("config")
                                      if f.renamed}

# Fields whose value is a byte count, shown as 2M, 32M, 1G.
BYTES = tuple(f.name for f in fields.fields_of("config") if f.unit == fields.BYTES)

# The order parameters: 0 for orders that take none, shown only when set.
ORDER_PARAMS = ("chunk", "radius")

# A dimension's own parameters: two sides that differ in it differ in
# these with it (order=linux's resolved chunk and radius, rethunk=on's
# thunk).
PARAMS_OF: dict[str, tuple[str, ...]] = {"order": ORDER_PARAMS,
                                         "rethunk": ("rethunk_thunk",)}

# What a dimension left out of a configuration means, where a selector
# may name it: rethunk=off is dropped (below) so that old logs pair.
ABSENT_MEANS = {"rethunk": "off"}

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
    if out.get("rethunk") == "off":     # a plain RET, as in every format before 5
        out.pop("rethunk")
        out.pop("rethunk_thunk", None)
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
