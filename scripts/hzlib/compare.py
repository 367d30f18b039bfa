# SPDX-License-Identifier: GPL-2.0-only
"""A/B comparison of two sets of results, as the seeds' tables read
(display.mean_sd, display.change):

    folio=1G clear=erms order=contiguous-page   16.51 +- 0.54%   42.80 +- 3.48%   +159.2%

A configuration is every dimension of its config record (dims.py): two
rows are paired only when all are equal, and runs are pooled only within
one side and one configuration.  order=tree's text (make LINUX=) is not a
dimension: a patch's folio_zero_user() pairs with its base's, the header
naming each side's, and a side that would pool two texts under one
configuration is refused (one_entry()).  The CPUs of a group (docs/smp.md) are
equal in every dimension: each CPU's row is keyed by its `cpu` as well, so
rows pair only CPU by CPU (the same number in the same `cpus`: the same
position in the group) and different CPUs' runs never pool.  The groups
themselves are compared in a table of their own: the aggregate GB/s of
each measured pass (total bytes over wall time), keyed by the group's
dimensions.  Between-run variance decides (docs/statistics.md): each
pair's change, B's mean over A's, comes with its 95% confidence interval
by Fieller's theorem (interval.py), and a p-value from the t-test that
interval inverts: Welch's (scipy.stats.ttest_ind, equal_var=False) on the
per-run GB/s of two independent sides, the paired t-test where both sides
ran interleaved in one round group of one boot (their runs paired by
round).  A change whose interval holds 0 -- exactly a p-value of 0.05 or
more -- is marked '~' as within noise.  Configurations
found on one side only are listed, not dropped, with the nearest one of the
other side and how it differs; what neither side can compare (a skipped,
failed or unended configuration, a damaged log) is listed as left out,
and anything but a skip makes the exit status 1.  Each side knows the
record formats of its boots (records.md): a pair whose figures mean
something else in one format than in the other (CHANGED) is marked '!',
says why below the table, and makes the exit status 1 too.  With pmu=,
each pair's counters too:
per event the mean per fault and per 4 KiB page on either side
(counters.py) and the change.  With --a and --b (selection.py) the sides
are what each selects, in two logs or in one, paired on every dimension but
the selectors': the same statistics, the same table.

compare() returns the pairs with their statistics (a Comparison); show()
prints one.
"""
from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable

from . import (control, counterreport, counters, dims, display, groups, interval, ktap,
               lavalog, records, results, selection, spread)
from .records import Boot, Record

ALPHA = interval.ALPHA
NO_SCIPY = interval.NO_SCIPY

Key = tuple[tuple[str, str], ...]

# The dimensions every label shows; the others only where they vary.
SHOWN = ("bench", "folio", "clear", "order", "chunk", "radius", "backing")


def load(path: str) -> list[Boot]:
    """Boots from a serial log, companion output, a LAVA job log, or
    `parse --format json`."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("{") and lavalog.form_of(text) is None:
        data = json.loads(text)
        boots = []
        for b in data.get("boots", []):
            boot = Boot(b.get("index", len(boots)), problems=list(b.get("problems", [])))
            for r in b.get("records", []):
                f = {k: str(v) for k, v in r.items() if k not in ("seq", "type")}
                boot.records.append(Record(int(r["seq"]), r["type"], f, 0))
            boot.end_count = len(boot.records) if b.get("complete") else None
            boot.lava = b.get("lava")
            boots.append(boot)
        return boots
    return lavalog.load(text, path, lambda m: sys.stderr.write(m + "\n"))


def row_key(row: dict[str, object]) -> Key:
    """A configuration's dimensions, and the CPU it ran on where that is
    known: CPUs of one group are equal in every dimension."""
    d: dict[str, str] = dict(row["dims"])  # type: ignore[call-overload]
    if row.get("cpu", "") != "":
        d["cpu"] = str(row["cpu"])
    return dims.key(d)


@dataclass
class Side:
    """One side's measurement of one configuration (@key, every dimension),
    runs of configurations equal in every dimension pooled: the GB/s of
    each run, and the counters of their faults (pmu=; None without)."""
    key: Key
    runs: list[float] = field(default_factory=list)
    # Each run's round (results.round_key), None for a run of no round
    # group: the side's runs pair with another side's only when all have one.
    rounds: list[tuple[int, str, int] | None] = field(default_factory=list)
    counts: counters.Counts | None = None
    note: str = ""          # results.offered_note() of its rows
    formats: set[int] = field(default_factory=set)  # of the boots it pools
    fpu: bool = False       # a SIMD clear under a model (kernel_fpu_* fields)
    # a SIMD clear that paid kernel_fpu_begin/end (run records'
    # kernel_fpu_pairs > 0: format 5 on, model or none)
    pairs: bool = False
    # order=tree: the texts it ran, as display.entry_head() names each
    # (one, or the side is refused: one_entry()).
    entries: set[str] = field(default_factory=set)

    @property
    def mean(self) -> float:
        return spread.mean_sd_pct(self.runs)[0]

    @property
    def sd_pct(self) -> float:
        """The between-run sample standard deviation, % of the mean (NaN
        with one run: spread.py)."""
        return spread.mean_sd_pct(self.runs)[1]


Table = dict[Key, Side]


def table(boots: list[Boot]) -> Table:
    """Per-run GB/s (net of the timer) and the counters of every ok
    configuration; runs of configurations equal in every dimension, on the
    same CPU, pooled."""
    out: Table = {}
    counts: dict[Key, list[counters.Counts | None]] = {}
    for b in boots:
        for c, row in results.pairs(b):
            if row["status"] == "ok":
                k = row_key(row)
                keyed = results.run_gbps_of(b, c)
                out.setdefault(k, Side(k)).runs.extend(g for _, g in keyed)
                out[k].rounds.extend(results.round_key(b, c, r) for r, _ in keyed)
                out[k].note = out[k].note or results.offered_note(row)
                mark_side(out[k], b, [c.rec], c.runs)
                counts.setdefault(k, []).append(counters.of(c))
    for k, side in out.items():
        side.counts = counters.pool(counts[k])
    return out


def agg_table(boots: list[Boot]) -> Table:
    """Per-pass aggregate GB/s of every ok group (refused passes have none);
    passes of groups equal in every dimension pooled."""
    out: Table = {}
    for b in boots:
        for g, row in groups.boot_groups(b):
            if row["status"] == "ok" and row["gbps_runs"]:
                k = dims.key(row["dims"])  # type: ignore[arg-type]
                out.setdefault(k, Side(k)).runs.extend(row["gbps_runs"])  # type: ignore[arg-type]
                out[k].rounds.extend([None] * len(row["gbps_runs"]))  # type: ignore[arg-type]
                mark_side(out[k], b, [c.rec for c in g.members])
    return out


def record_format(boot: Boot) -> int:
    """The format of @boot's records: its boot record's `format`, 1
    where it has none (records.md)."""
    r = boot.first("boot")
    try:
        return int(r.f["format"]) if r and "format" in r.f else 1
    except ValueError:
        return 1


def tree_of(boot: Boot) -> str | None:
    """The Linux tree @boot's linux-* primitives were built from
    (linux-tree.md, "Provenance") as display.tree_label() names it, or
    None."""
    r = boot.first("boot")
    t = display.Tree.of(r.f) if r else None
    return display.tree_label(t) if t else None


def trees_run(boots: list[Boot]) -> set[str]:
    """The trees whose routines @boots ran (a config record with
    tree_routine), each as tree_of() names it."""
    return {t for b in boots if (t := tree_of(b))
            and any(r.type == "config" and display.is_tree_primitive(r.f) for r in b.records)}


def trees_named(boots: list[Boot], tbl: Table,
                sel: selection.Selector | None = None) -> set[str]:
    """The trees of @boots, where the side (@tbl, as @sel selected it)
    has a linux-* configuration: a side of hugezero's own primitives
    (--a clear=erms) names none, whatever the image carried."""
    clear = sel.terms.get("clear") if sel else None
    named = (clear.startswith("linux-") if clear is not None else
             any(dict(k).get("clear", "").startswith("linux-") for k in tbl))
    return {t for bt in boots if (t := tree_of(bt))} if named else set()


def mark_side(side: Side, boot: Boot, recs: list[Record], runs: list[Record] = ()) -> None:
    """What @side learns from a boot's configuration records @recs (and
    their @runs): the boot's record format, and whether the kernel ran a
    SIMD primitive under a model (it records the kernel_fpu_* costs then,
    and only then) or paid kernel_fpu_begin/end around one (its run
    records' kernel_fpu_pairs, format 5): no list of primitives lives here."""
    side.formats.add(record_format(boot))
    side.fpu = side.fpu or any(k.startswith("kernel_fpu_") for r in recs for k in r.f)
    side.pairs = side.pairs or any(r.int("kernel_fpu_pairs", 0) > 0 for r in runs)
    b = boot.first("boot")
    side.entries |= {display.entry_head(e) for r in recs
                     if (e := display.Entry.of(b.f if b else {}, r.f))}


def one_entry(side: str, tables: list[Table]) -> None:
    """Refuses a side (@tables, as selected) that pools order=tree runs of
    two extracted texts under one configuration: a patch's folio_zero_user
    and its base's averaged as one.  Across the sides they pair (the
    change is the patch's), the header saying which each ran."""
    for t in tables:
        for k, s in t.items():
            d = dict(k)
            if len(s.entries) > 1:
                # Named as its row would be (show()): bench only where not fault.
                name = dims.label(d, [n for n in SHOWN if n in d
                                      and not (n == "bench" and d[n] == "fault")])
                raise selection.SelectError(
                    f"{side} pools order=tree of {len(s.entries)} extracted texts under {name} "
                    f"({'; '.join(sorted(s.entries))}): order=tree is one algorithm only "
                    "within one text of mm/memory.c (docs/linux-tree.md); give each side "
                    "the logs of one tree")


def entries_of(tables: list[Table]) -> set[str]:
    """The order=tree texts a side's @tables ran."""
    return {e for t in tables for s in t.values() for e in s.entries}


# What changed meaning between record formats (records.md): (the format
# that changed it, whether a configuration is affected, why it is not the
# same measurement).  order=linux with no model is not here: the chunk it
# resolved to is a dimension, and fits_llc is not one.  compare's own GB/s
# net a pre-zeroed fault by one pair in every format; a pre-zeroed pair is
# marked all the same: the zeroers themselves changed, and the kernel's
# figures for it.
CHANGED: list[tuple[int, Callable[[dict[str, str], "Side", "Side"], bool], str]] = [
    (3, lambda d, a, b: d.get("bench") == "fault" and (a.fpu or b.fpu),
     "format 2 saved FPU registers per call, format 3 per fault (docs/records.md)"),
    (3, lambda d, a, b: d.get("bench") == "fault" and d.get("prezero", "none") != "none",
     "format 2's summary netted a pre-zeroed fault by two timer pairs, format 3's by "
     "one, and format 3's zeroers take resched points under a model (docs/records.md)"),
    (5, lambda d, a, b: d.get("bench") == "fault" and d.get("preempt", "off") == "off"
     and (a.pairs or b.pairs),
     "format 4 ran a SIMD clear with no model outside kernel_fpu_begin/end, format 5 "
     "pays the pair around every call (docs/records.md)"),
]


def unlike(key: Key, a: Side, b: Side) -> list[str]:
    """Why the figures of @a and @b are not the same measurement: each
    change of CHANGED that lies between the formats they pool and touches
    configuration @key (none for a pair within one format)."""
    fmts, d = a.formats | b.formats, dict(key)
    return [why for f, hit, why in CHANGED
            if fmts and min(fmts) < f <= max(fmts) and hit(d, a, b)]


NoScipy = interval.NoScipy


def welch(a: list[float], b: list[float]) -> float | None:
    """Two-sided p-value of Welch's t-test; None with fewer than 2 runs a
    side.  Raises NoScipy when scipy cannot be imported."""
    return interval.p_unpaired(a, b)


def paired_runs(a: Side, b: Side) -> tuple[list[float], list[float]] | None:
    """@a's and @b's runs in pairs of the same round (results.round_key),
    when every run of each has a round and each round is on both sides
    once; None otherwise (unpaired)."""
    ka, kb = a.rounds, b.rounds
    if (not ka or None in ka or None in kb or len(set(ka)) != len(ka)
            or set(ka) != set(kb) or len(kb) != len(ka)):
        return None
    by_b = dict(zip(kb, b.runs))
    return list(a.runs), [by_b[k] for k in ka]  # type: ignore[index]


@dataclass
class Pair:
    """One configuration on both sides: @key the dimensions they share,
    @a and @b their measurements; @p the two-sided p-value on the per-run
    GB/s (Welch's, or the paired t-test's when @paired), None when not
    tested (@untested says why); @ratio B's mean over A's with its 95%
    interval (None when not tested)."""
    key: Key
    a: Side
    b: Side
    p: float | None
    untested: str = ""
    unlike: list[str] = field(default_factory=list)  # unlike()
    paired: bool = False
    ratio: interval.Interval | None = None
    # Two boots of one hugezero build against two trees (control.py): the
    # same code's span, and a changed row against its twin; None elsewhere.
    band: control.Band | None = None
    twin: control.Twin | None = None

    @property
    def same_code(self) -> bool:
        """A row of the same code on both sides: boot-to-boot noise alone."""
        return self.band is not None and control.same_code(self.band, dict(self.key))

    @property
    def change_pct(self) -> float:
        """B against A, in % of A."""
        return 100.0 * (self.b.mean - self.a.mean) / self.a.mean

    @property
    def within_noise(self) -> bool | None:
        """p >= ALPHA, which is the interval holding a change of 0: the
        change is within noise; between two boots of one build, a row of
        the same code always is, and a row of changed code is when its
        change against its twin's holds 0 (control.py); None when not
        tested."""
        if self.twin is not None:
            return self.twin.within_noise
        if self.same_code:
            return True
        return None if self.p is None else self.p >= ALPHA

    @property
    def counters(self) -> list[counters.Change]:
        """Each counted event's mean per fault and per 4 KiB page on either
        side, and the change (pmu=; none without)."""
        return counters.changes(self.a.counts, self.b.counts)

    @property
    def llc_miss_pct(self) -> tuple[float, float]:
        """A's and B's LLC miss rate, % (NaN where not both LLC events were
        counted)."""
        return tuple(s.counts.llc_miss_pct() if s.counts else math.nan  # type: ignore[return-value]
                     for s in (self.a, self.b))


def pair(k: Key, a: Side, b: Side) -> Pair:
    both = paired_runs(a, b)
    try:
        if both:
            p = interval.p_paired(*both)
            ratio = interval.ratio_paired(*both)
        else:
            p = welch(a.runs, b.runs)
            ratio = interval.ratio_unpaired(a.runs, b.runs)
        return Pair(k, a, b, p, "fewer than 2 runs" if p is None else "", unlike(k, a, b),
                    both is not None, ratio)
    except NoScipy:
        return Pair(k, a, b, None, "no scipy", unlike(k, a, b), both is not None)


@dataclass
class Only:
    """A configuration of one side only (@key: as its pairs would be
    keyed), with the nearest of the other side (None when none differs in
    NEAR dimensions or fewer)."""
    key: Key
    side: Side
    nearest: Key | None


@dataclass
class Section:
    """The pairs of two tables, then the configurations of A only and of
    B only."""
    pairs: list[Pair]
    only_a: list[Only]
    only_b: list[Only]

    @property
    def keys(self) -> list[Key]:
        return [p.key for p in self.pairs] + [o.key for o in self.only_a + self.only_b]


# A one-side-only configuration names its nearest on the other side when
# they differ in at most this many dimensions.
NEAR = 3


def nearest(k: Key, others: list[Key]) -> Key | None:
    """The configuration of @others that differs from @k in fewest
    dimensions, if in no more than NEAR."""
    d = dict(k)
    near = min(others, key=lambda o: len(dims.differing(d, dict(o))), default=None)
    return near if near and len(dims.differing(d, dict(near))) <= NEAR else None


def section(a: Table, b: Table) -> Section:
    def only(mine: Table, other: Table) -> list[Only]:
        rest = [k for k in other if k not in mine]
        return [Only(k, s, nearest(k, rest)) for k, s in mine.items() if k not in other]
    return Section([pair(k, a[k], b[k]) for k in a if k in b], only(a, b), only(b, a))


@dataclass
class Comparison:
    """Configurations paired (@configs) and groups of CPUs paired
    (@aggregates), with the machines each side ran on and what selected
    the sides (None: every configuration, paired on every dimension)."""
    configs: Section
    aggregates: Section
    machines_a: set[str]
    machines_b: set[str]
    selectors: selection.Selectors | None = None
    left_out_a: list[str] = field(default_factory=list)
    left_out_b: list[str] = field(default_factory=list)
    same_log: bool = False
    formats_a: set[int] = field(default_factory=set)
    formats_b: set[int] = field(default_factory=set)
    trees_a: set[str] = field(default_factory=set)
    trees_b: set[str] = field(default_factory=set)
    entries_a: set[str] = field(default_factory=set)    # order=tree's (Side.entries)
    entries_b: set[str] = field(default_factory=set)
    # Two boots of two trees' builds: why boot-to-boot noise is not
    # judged ('' where it is, or where it does not apply: control.py).
    not_judged: str = ""

    @property
    def pairs(self) -> list[Pair]:
        return self.configs.pairs + self.aggregates.pairs

    @property
    def damaged(self) -> bool:
        """Either side lost a measurement it should hold: a damaged or cut
        off log, or a configuration or group that failed or never ended (a
        skip or a refusal is a defined outcome, not damage)."""
        return any(not n.startswith(DEFINED) for n in self.left_out_a + self.left_out_b)

    @property
    def unlike(self) -> list[str]:
        """Every reason a pair is not like with like, once each, in order."""
        return list(dict.fromkeys(w for p in self.pairs for w in p.unlike))


# What a left-out note starts with for an outcome the kernel defined.
DEFINED = ("skip ", "refused ")
# Notes shown per side; the rest are counted.
LEFT_OUT_SHOWN = 8

# A left-out note, with the dimensions of what it is about (None: the
# whole boot, whatever the selectors).
Lost = tuple["dict[str, str] | None", str]


def lost_row(b: Boot, row: dict[str, object], what: str) -> Lost:
    d: dict[str, str] = row["dims"]  # type: ignore[assignment]
    name = dims.label(d, [k for k in SHOWN if k in d])
    why = f": {row['reason']}" if row.get("reason") else ""
    return d, f"{row['status']} boot {b.index} {what} {name}{why}"


def left_out(boots: list[Boot]) -> list[Lost]:
    """What @boots hold that is not in the comparison, and why: a boot with
    no records at all, each problem of a damaged log, every configuration
    and group that did not end ok (table() and agg_table() pool only ok
    ones)."""
    out: list[Lost] = [] if boots else [(None, "no boot found in the log: nothing to compare")]
    for b in boots:
        out += [(None, f"boot {b.index} damaged: {why}") for why in b.problems]
        if b.interrupted:
            out.append((None, f"boot {b.index} {b.cut}"))
        for _, row in results.pairs(b):
            if row["status"] != "ok":
                cpu = f" cpu={row['cpu']}" if row.get("group", "") != "" else ""
                out.append(lost_row(b, row, f"cfg={row['cfg']}{cpu}"))
        for _, row in groups.boot_groups(b):
            if row["status"] != "ok":
                out.append(lost_row(b, row, f"group={row['group']} cpus={row['cpus']}"))
    return out


def selected(lost: list[Lost], sel: selection.Selector | None,
             whole_boot: bool = True) -> list[str]:
    """The notes of @lost that @sel selects (every one without it), and
    with @whole_boot those about a whole boot."""
    return [n for d, n in lost if (whole_boot if d is None else sel is None or sel.matches(d))]


def machines(boots: list[Boot]) -> set[str]:
    """The machines a side's boots ran on (display.machine_names)."""
    return set(display.machine_names(boots))


def builds(boots: list[Boot]) -> set[str]:
    """The hugezero builds (boot records' hugezero_git) of a side's boots;
    '' for a boot that does not say."""
    return {r.f.get("hugezero_git", "") for b in boots for r in b.records if r.type == "boot"}


def boot_to_boot(configs: Section, a: Table, b: Table, boots_a: list[Boot],
                 boots_b: list[Boot], prims: bool, texts: bool) -> str:
    """Two boots of two trees' builds: the band of the same code and each
    changed row's twin (control.py), where both sides are one hugezero
    build on one machine; else why not."""
    ba, bb = builds(boots_a), builds(boots_b)
    if len(ba | bb) != 1 or "" in ba or "unknown" in ba:
        return ("the two sides are not one known hugezero build (hugezero_git "
                f"{', '.join(sorted(ba)) or '?'} against {', '.join(sorted(bb)) or '?'})")
    if machines(boots_a) != machines(boots_b):
        return "the two sides ran on different machines"
    span = control.band([(dict(p.key), p.change_pct) for p in configs.pairs
                         if p.p is not None], prims, texts)
    both = [dict(k) for k in a if k in b]
    for p in configs.pairs:
        p.band = span
        tk = control.twin_of(dict(p.key), both) if span and not p.same_code else None
        if tk is None:
            continue
        ka = dims.key(dict(tk))
        try:
            p.twin = control.twin(control.twin_name(dict(p.key), tk),
                                  (p.a.runs, a[ka].runs, p.a.rounds, a[ka].rounds),
                                  (p.b.runs, b[ka].runs, p.b.rounds, b[ka].rounds))
        except NoScipy:
            p.twin = None
    return ""


def compare(boots_a: list[Boot], boots_b: list[Boot],
            sel: selection.Selectors | None = None) -> Comparison:
    """Every configuration and group of @boots_a set beside the same of
    @boots_b; with @sel, those --a selects beside those --b selects, equal
    in every other dimension (@boots_b may be @boots_a: one log).  Raises
    selection.SelectError where @sel cannot pair."""
    for side, boots in (("A", boots_a), ("B", boots_b)):
        pooled = trees_run(boots)
        if len(pooled) > 1:
            raise selection.SelectError(
                f"{side} pools linux-* primitives of {len(pooled)} trees "
                f"({'; '.join(sorted(pooled))}): a linux-* name is one routine only "
                "within one tree (docs/linux-tree.md); give each side the logs of one "
                "tree")
    a = [table(boots_a), agg_table(boots_a)]
    b = a if boots_b is boots_a else [table(boots_b), agg_table(boots_b)]
    lo_a = left_out(boots_a)
    lo_b = lo_a if boots_b is boots_a else left_out(boots_b)
    if sel is not None:
        try:
            a, b = sel.apply(a, b)
        except selection.SelectError as e:
            # What a selector names may be there but not ok: say so.
            lost = (selected(lo_a, sel.a, whole_boot=False)
                    + selected(lo_b, sel.b, whole_boot=False))
            if not lost:
                raise
            raise selection.SelectError(f"{e}; of what it selects, left out as not ok: "
                                        + "; ".join(dict.fromkeys(lost))) from e
    one_entry("A", a)
    one_entry("B", b)
    notes_a = selected(lo_a, sel and sel.a)
    notes_b = selected(lo_b, sel and sel.b)
    configs = section(a[0], b[0])
    prims = trees_run(boots_a) != trees_run(boots_b)
    texts = entries_of(a) != entries_of(b)
    judged = ""
    if sel is None and boots_b is not boots_a and (prims or texts):
        judged = boot_to_boot(configs, a[0], b[0], boots_a, boots_b, prims, texts)
    return Comparison(configs, section(a[1], b[1]),
                      machines(boots_a), machines(boots_b), sel, notes_a, notes_b,
                      boots_b is boots_a, {record_format(bt) for bt in boots_a},
                      {record_format(bt) for bt in boots_b},
                      trees_named(boots_a, a[0], sel and sel.a),
                      trees_named(boots_b, b[0], sel and sel.b),
                      entries_of(a), entries_of(b), judged)


def write(a_path: str, b_path: str | None, out: IO[str], sel_a: list[str] | None = None,
          sel_b: list[str] | None = None) -> int:
    """Compare two logs, or with @sel_a and @sel_b (--a's and --b's
    DIM=VALUE arguments) what they select in them, or in @a_path alone
    when @b_path is None."""
    if (sel_a is None) != (sel_b is None):
        raise selection.SelectError("--a and --b go together: each names what its "
                                    "side is (DIM=VALUE)")
    if b_path is None and sel_a is None:
        raise selection.SelectError("one log compares two of its configurations: "
                                    "give --a DIM=VALUE and --b DIM=VALUE")
    same = b_path is None or Path(b_path).resolve() == Path(a_path).resolve()
    boots_a = load(a_path)
    boots_b = boots_a if same else load(b_path)  # type: ignore[arg-type]
    sel = (selection.Selectors(selection.parse("a", sel_a), selection.parse("b", sel_b),
                               same) if sel_a is not None and sel_b is not None else None)
    names = [f"{side}: {path}{f' ({s.text})' if s else ''}\n" for side, path, s in (
        ("A", a_path, sel and sel.a), ("B", b_path or a_path, sel and sel.b))]
    cmp = compare(boots_a, boots_b, sel)
    show(cmp, "".join(names), out)
    return 1 if cmp.damaged or cmp.unlike else 0


def cell(s: Side) -> str:
    return display.mean_sd(s.mean, s.sd_pct, len(s.runs))


def mark(p: Pair) -> str:
    how = ", paired" if p.paired else ""
    if p.untested == "no scipy":
        return "   (p: no scipy)"
    if p.p is None:
        return "   (fewer than 2 runs: not tested)"
    if p.twin is not None:
        return f"{' ~' if p.within_noise else '  '} (p={p.p:.3f}{how}; vs twin below)"
    if p.same_code:
        return f" ~ (p={p.p:.3f}{how}, same code)"
    return f" ~ (p={p.p:.2f}{how})" if p.within_noise else f"   (p={p.p:.3f}{how})"




def change(p: Pair) -> str:
    """The change in % with its 95% interval (display.change)."""
    return display.change(p.change_pct, p.ratio)


def legend(pairs: list[Pair]) -> str:
    """What the change column and '~' are."""
    paired = any(p.paired for p in pairs)
    return ("change = B vs A, in % of A, with its 95% confidence interval [low, high]: "
            "Fieller's interval for the\nratio of the two means (docs/statistics.md). "
            "'~' marks a change within noise: its interval holds 0,\nwhich is the "
            f"t-test's two-sided p >= {ALPHA:.2f}: Welch's on the per-run GB/s"
            + ("; 'paired': both sides ran\ninterleaved in one boot, their runs paired "
               "by round: the paired t-test, and Fieller's with the pairs' covariance"
               if paired else "") + ".\n")


Label = Callable[[Key], str]


def show(cmp: Comparison, sides: str, out: IO[str]) -> None:
    """@cmp as a table, under @sides (what A and B are)."""
    everything = [dict(k) for k in cmp.configs.keys + cmp.aggregates.keys]
    vary = dims.varying(everything, SHOWN)
    shown = [k for k in dims.names(everything) if k in SHOWN or k in vary]
    common = [k for k in dims.names(everything) if k not in shown]

    def label(k: Key) -> str:
        d = dict(k)
        # backing only where there is one, cpu only on a CPU's row.
        return dims.label(d, [n for n in shown if not (n == "bench" and d.get(n) == "fault")
                              and not (n in ("backing", "cpu") and n not in d)])

    out.write(sides)
    if len(cmp.formats_a | cmp.formats_b) > 1:
        out.write(", ".join(f"{side}: record format{'s' if len(f) > 1 else ''} "
                            + ", ".join(map(str, sorted(f)))
                            for side, f in (("A", cmp.formats_a), ("B", cmp.formats_b)))
                  + "\n")
    if cmp.trees_a or cmp.trees_b:
        # linux-* rows pair by name: which tree each side's came from.
        out.write(", ".join(f"{side}: " + (f"linux-* primitives from {'; '.join(sorted(t))}"
                                           if t else "no linux-* primitives")
                            for side, t in (("A", cmp.trees_a), ("B", cmp.trees_b)))
                  + "\n")
    if cmp.entries_a or cmp.entries_b:
        # order=tree rows pair by name too: which text each side's ran.
        out.write(display.entry_sides(cmp.entries_a, cmp.entries_b) + "\n")
    out.write("GB/s (2^30 B/s, net of the timer) per configuration, "
              f"{display.mean_sd_words('runs')}.\n" + legend(cmp.pairs))
    span = next((p.band for p in cmp.configs.pairs if p.band), None)
    if span:
        out.write(control.line(span))
    elif cmp.not_judged:
        out.write(control.not_judged(cmp.not_judged))
    out.write(plus_minus(cmp.configs, "run") + "\n")
    out.write("A configuration is every dimension of its config record: rows that "
              "differ in any one are not paired; a CPU of a group pairs only with the "
              "same CPU.\n")
    if cmp.selectors:
        # The order's parameters are named only where a pair has them unlike.
        differ = [d for d in cmp.selectors.dims if d not in dims.ORDER_PARAMS or any(
            dict(p.a.key).get(d) != dict(p.b.key).get(d) for p in cmp.pairs)]
        out.write(f"A and B differ in {', '.join(differ)}; each pair is equal "
                  "in every other dimension.\n")
    if common:
        out.write("the same in every row: " + dims.label(everything[0], common) + "\n")
    for side, ms in (("A", cmp.machines_a), ("B", cmp.machines_b)):
        if len(ms) > 1:
            out.write(f"WARNING: {side} pools runs of {len(ms)} different machines: "
                      + "; ".join(sorted(ms)) + "\n")
    width = max([len(label(dims.key(d))) for d in everything] + [10])
    rows(cmp.configs, label, width, out, cmp.unlike)
    if cmp.aggregates.keys:
        out.write("\naggregates, every CPU of a group at once: GB/s = total bytes / wall "
                  f"time per pass (not net of the timer), {display.mean_sd_words('passes')}\n")
        out.write(plus_minus(cmp.aggregates, "pass") + "\n")
        rows(cmp.aggregates, label, width, out, cmp.unlike)
    counterreport.changes(cmp.configs.pairs, label, width, out)
    # One log: what both sides lost is said once.
    both = [n for n in cmp.left_out_a if n in cmp.left_out_b] if cmp.same_log else []
    for side, notes in (("A and B", both),
                        ("A", [n for n in cmp.left_out_a if n not in both]),
                        ("B", [n for n in cmp.left_out_b if n not in both])):
        if notes:
            out.write(f"\nleft out of {side}, not compared:\n")
            for n in notes[:LEFT_OUT_SHOWN]:
                out.write(f"  {n}\n")
            if len(notes) > LEFT_OUT_SHOWN:
                out.write(f"  and {len(notes) - LEFT_OUT_SHOWN} more\n")
    if cmp.unlike:
        out.write("\nnot like with like: '!N' marks a pair of records of different "
                  "formats whose meaning changed between them:\n")
        for i, why in enumerate(cmp.unlike, 1):
            out.write(f"  !{i} {why}\n")
    if cmp.damaged:
        out.write("\nWARNING: a measurement is missing (damaged, failed or cut off): "
                  "exit 1\n")
    if cmp.unlike:
        out.write("\nWARNING: a pair is not like with like (record formats differ): "
                  "exit 1\n")
    if any(p.untested == "no scipy" for p in cmp.pairs):
        out.write(f"\n{NO_SCIPY}\n")


def counts(sec: Section) -> set[int]:
    """How many runs (passes) each figure of @sec is over."""
    return ({len(s.runs) for p in sec.pairs for s in (p.a, p.b)} |
            {len(o.side.runs) for o in sec.only_a + sec.only_b})


def plus_minus(sec: Section, per: str) -> str:
    """What every +- of @sec is (display.sd_legend); its n once when every
    figure has the same, else each row's after it."""
    n = counts(sec)
    return display.sd_legend(f"per-{per} GB/s", per, n, "" if len(n) == 1 else "n=A/B")


def unlike_mark(p: Pair, reasons: list[str]) -> str:
    """'  !1' (or '  !1,2'): the numbers under the table of the reasons
    @p is not like with like; '' for a pair that is."""
    return ("  !" + ",".join(str(reasons.index(w) + 1) for w in p.unlike)
            if p.unlike else "")


def rows(sec: Section, label: Label, width: int, out: IO[str],
         reasons: list[str] | None = None) -> None:
    """The rows of both sides, then those of one side only; each with its
    n where they are not all the same."""
    each = len(counts(sec)) > 1
    if sec.pairs:
        out.write("\n")
    for p in sec.pairs:
        out.write(f"{label(p.key):<{width}}  {cell(p.a)}  {cell(p.b)}  "
                  f"{change(p)}{mark(p)}"
                  f"{f'  n={len(p.a.runs)}/{len(p.b.runs)}' if each else ''}"
                  f"{p.a.note or p.b.note}{unlike_mark(p, reasons or [])}\n")
        if p.twin is not None:
            t = p.twin
            out.write(f"{'  vs ' + t.name + ' in each boot':<{width}}  {'':{len(cell(p.a))}}  "
                      f"{'':{len(cell(p.b))}}  {display.change(t.change, t.iv)}"
                      f"{' ~' if t.within_noise else '  '} (twin t, df {t.iv.n})\n")
    for side, only, oname in (("A", sec.only_a, "B"), ("B", sec.only_b, "A")):
        if only:
            out.write(f"\nonly in {side}:\n")
            for o in only:
                why = (f"  ({oname} has {dims.contrast(dict(o.key), dict(o.nearest))})"
                       if o.nearest else "")
                n = f"  n={len(o.side.runs)}" if each else ""
                out.write(f"{label(o.key):<{width}}  {cell(o.side)}{n}{why}{o.side.note}\n")
    if not sec.pairs:
        out.write("\nno configuration is in both\n")
