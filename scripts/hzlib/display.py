# SPDX-License-Identifier: GPL-2.0-only
"""What a human reads, said one way (issue 30): report, compare, table,
split, plot and the report's parts take from here how they write a Linux
tree's provenance, a mean with its spread and n, an interval, a machine,
the folio sizes and orders, and the legend of every +- they print.

The numbers come from elsewhere (spread.py, interval.py, results.py) and
the records are only read here.  tests/test_display.py holds that no
other module of scripts/hzlib formats these."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

from .cnames import FOLIOS as _FOLIOS, ORDERS as _ORDERS
from .interval import Interval, rounds_needed, sign_rank

if TYPE_CHECKING:
    from .records import Boot

# --- names, in their canonical order ----------------------------------------

# Folio sizes, smallest first: lib/params.c's folio_names (cnames.py).
FOLIOS = _FOLIOS
# Clearing orders: lib/order.h's ORDERS (cnames.py).
ORDERS = _ORDERS
_UNIT_SHIFT = {"K": 10, "M": 20, "G": 30}


def folio_bytes(folio: str) -> int:
    """The bytes of a folio size of FOLIOS ('2M': 2 MiB); 0 for any other."""
    return int(folio[:-1]) << _UNIT_SHIFT[folio[-1]] if folio in FOLIOS else 0


def folios_of(present: Iterable[object]) -> list[str]:
    """The folio sizes among @present, smallest first."""
    have = {str(f) for f in present}
    return [f for f in FOLIOS if f in have]


def seed_folio(folio: str) -> str:
    """A folio size as the seed threads write it: '2MB'."""
    return folio + "B" if folio in FOLIOS else folio


# --- a mean, its spread and n ------------------------------------------------

# The plus-minus of every text: the seeds' (and a cover letter's) ASCII.
PM = "+-"
# The same in a figure, where the font has it.
PM_FIGURE = "\u00b1"
# ' +- 12.34%': the spread after a mean, and what stands in its place.
SD_WIDTH = 10
# ' n=12 ': n after it, where a line says its own n.
N_WIDTH = 6


def finite(v: object) -> bool:
    return isinstance(v, float) and not math.isnan(v) or isinstance(v, int)


def _sd(sd_pct: float, n: int, n_shown: bool) -> str:
    """The SD_WIDTH characters after a mean of @n runs: its spread; for one
    run (no spread) 'n=1' where the line does not say n itself."""
    if n >= 2:
        return f" {PM} {sd_pct:5.2f}%" if finite(sd_pct) else f" {PM} {'n/a':>5} "
    return " " * SD_WIDTH if n_shown else f"{'(n=1)':>{SD_WIDTH}}"


def mean_sd(mean: float, sd_pct: float, n: int, width: int = 7, n_shown: bool = False,
            missing: str = "-", unit: str = "") -> str:
    """'  31.15 +-  6.61%': @mean (in @width, its @unit after it) and the
    sample standard deviation of its @n runs in % of it, and with @n_shown
    ' n=2' after; one run has no standard deviation: '  31.15      (n=1)'
    (with @n_shown the spread blank and 'n=1' after).  @missing where
    there is no mean."""
    if n < 1 or not finite(mean):
        return missing
    text = f"{mean:{width}.2f}{' ' + unit if unit else ''}{_sd(sd_pct, n, n_shown)}"
    return text + f" n={n:<3}" if n_shown else text


def mean_sd_width(width: int = 7, n_shown: bool = False) -> int:
    """How wide mean_sd()'s text is."""
    return width + SD_WIDTH + (N_WIDTH if n_shown else 0)


def mean_sd_head(unit: str, width: int = 7, n_shown: bool = False) -> str:
    """The column head over mean_sd(): 'GB/s mean +- sd%  n'."""
    head = f"{unit} mean {PM} sd%"
    return f"{head:<{width + SD_WIDTH}}" + (f" {'n':<{N_WIDTH - 1}}" if n_shown else "")


def mean_sd_words(per: str) -> str:
    """What a table of mean_sd() figures shows, in a sentence: 'mean +- sd%
    over runs'."""
    return f"mean {PM} sd% over {per}"


def mean_sd_paren(mean: float, sd_pct: float, n: int, aligned: bool = True,
                  missing: str = "-") -> str:
    """perf stat's '1739.93 ( +-  6.15% )' (the seed-000 thread's): with
    @aligned the spread padded to a column (no spread of one pass: blank,
    its line says n), else as perf prints it ('( n=1 )' for one pass).
    @missing (padded, with @aligned) where there is no mean."""
    if n < 1 or not finite(mean):
        return f"{missing:>8}{'':14}" if aligned else missing
    if n < 2 or not finite(sd_pct):
        return f"{mean:8.2f}" + (f"{'':14}" if aligned else " ( n=1 )")
    return f"{mean:8.2f} ( {PM} {sd_pct:5.2f}% )" if aligned else \
        f"{mean:8.2f} ( {PM} {sd_pct:.2f}% )"


PAREN_WORDS = f"mean ( {PM} sample stddev% )"


def sd_abs(mean: float, sd_pct: float, n: int) -> float:
    """A figure's error bar: its standard deviation in its own unit; 0 (no
    bar) for one run."""
    return mean * sd_pct / 100 if n >= 2 and finite(sd_pct) and finite(mean) else 0.0


def figure_mean_sd(unit: str, per: str = "") -> str:
    """An axis of mean +- sd error bars: 'GB/s, mean ± sd of runs'."""
    return f"{unit}, mean {PM_FIGURE} sd" + (f" of {per}" if per else "")


def plural(word: str) -> str:
    return word + ("es" if word.endswith("s") else "s")


def sd_legend(what: str, per: str, ns: Iterable[int], per_line: str = "") -> str:
    """What every +- of a table is: the sample standard deviation of @what
    (the per-@per figures), and its n: @ns, each figure's, or with
    @per_line how each line says its own ('n=N')."""
    ns = sorted(ns)
    text = (f"{PM}: the sample standard deviation (n - 1) of the {what}, in % of the mean; "
            f"n {plural(per)}: ")
    if per_line:
        text += f"on each line, {per_line}"
    else:
        text += (f"{ns[0]}" if ns and ns[0] == ns[-1] else
                 f"{ns[0]} to {ns[-1]}, by figure" if ns else "none")
    if ns and ns[0] == 1:
        text += f"; one {per} has no standard deviation (n=1)"
    return text


def plus_minus(value: str, err: str) -> str:
    """A value and its error, both as the caller wrote them: '-77 +- 143'."""
    return f"{value} {PM} {err}"


def plus_minus_head(what: str, err: str) -> str:
    """The head of a plus_minus() column: 'tsc offset ticks (+- err)'."""
    return f"{what} ({PM} {err})"


# --- intervals ---------------------------------------------------------------

def pct_interval(iv: Interval | None) -> str:
    """A ratio's interval as a change in %: '[ +8.1,  +13.2]'; '' for
    none."""
    if iv is None:
        return ""
    if not iv.bounded:
        return "[ unbounded    ]"
    return f"[{100 * (iv.lo - 1):+6.1f}, {100 * (iv.hi - 1):+6.1f}]"


def change(pct: float, iv: Interval | None) -> str:
    """A change in % with its 95% interval (pct_interval), blanks where it
    has none: compare's and table's column."""
    return f"{pct:+7.1f}% {pct_interval(iv):<16}"


def half_width_pct(hw: float) -> str:
    """A 95% interval's half-width in % of the mean: '+-1.36%'."""
    return f"{PM}{hw:.2f}%"


def mean_interval(iv: Interval, hw_pct: float, how: str) -> str:
    """The 95% interval of a configuration's mean GB/s over its passes."""
    return (f"95% interval of the mean: {iv.lo:.2f} .. {iv.hi:.2f} GB/s "
            f"({half_width_pct(hw_pct)}, t over {iv.n} passes, {how})")


def diff_interval(iv: Interval, unit: str, how: str) -> str:
    """The 95% interval of a difference (split's overhead), in @unit."""
    return (f"95% interval {iv.lo:.1f} .. {iv.hi:.1f} {unit} "
            f"({PM}{iv.half_width:.1f} {unit}; {how})")


def median_diff(iv: Interval, unit: str) -> str:
    """The median of paired differences with its sign-test interval
    (interval.median_paired), in @unit."""
    k = sign_rank(iv.n)
    return (f"median of the {iv.n} rounds' differences {iv.estimate:.1f} {unit}, 95% interval "
            f"{iv.lo:.1f} .. {iv.hi:.1f} {unit} (the sign test's: the differences ranked {k} "
            f"and {iv.n + 1 - k}; docs/statistics.md)")


def unresolved(iv: Interval, estimate: float, unit: str, paired: bool, what: str) -> str:
    """A difference whose interval @iv holds 0: how many rounds (@paired)
    or passes of each side would resolve @what (@estimate, in @unit)
    were the spread as observed (interval.rounds_needed)."""
    more = rounds_needed(iv)
    need = ("no number of them would: the observed " + what.removeprefix("the ") + " is 0"
            if more is None else
            f"about {more - iv.n} more {'rounds' if paired else 'passes of each'} "
            f"would resolve it ({more} in all: the least n with t(n-1) * "
            f"{iv.sd:.1f} / sqrt(n) < {abs(estimate):.1f} {unit}, the "
            f"{'differences' if paired else 'two series'}' spread as observed)")
    return (f"within run-to-run noise: the interval is wider than {what}, its sign "
            f"unresolved; {need}")


# --- a Linux tree's provenance (make LINUX=, docs/linux-tree.md) -------------

# The characters of a file's sha256 a human is shown.
TREE_HASH = 12


@dataclass(frozen=True)
class Tree:
    """The Linux tree an image's linux-* primitives were built from: its
    version, `git describe` where it was a git tree, and the sha256 of its
    clear_page_64.S (the boot record's linux_tree, linux_tree_git,
    linux_tree_sha256)."""
    version: str
    git: str = ""
    sha256: str = "?"

    @classmethod
    def of(cls, boot: Mapping[str, str]) -> Tree | None:
        """The tree of a boot record's fields; None where it had none."""
        if "linux_tree" not in boot:
            return None
        return cls(boot["linux_tree"], boot.get("linux_tree_git", ""),
                   boot.get("linux_tree_sha256", "?"))

    @classmethod
    def of_row(cls, row: Mapping[str, object]) -> Tree | None:
        """The tree of a results row (or a CSV row): its linux_tree
        (version and git, as described) and linux_tree_sha256; None for a
        row of hugezero's own primitives (an order=tree row of one has a
        linux_tree, for its entry's version, and no linux_tree_sha256)."""
        text = str(row.get("linux_tree") or "")
        if not text or not row.get("linux_tree_sha256"):
            return None
        version, _, git = text.partition(" ")
        return cls(version, git, str(row.get("linux_tree_sha256") or ""))

    @property
    def described(self) -> str:
        """Its version and git description: the CSV's linux_tree."""
        return self.version + (f" {self.git}" if self.git else "")

    @property
    def hash(self) -> str:
        return self.sha256[:TREE_HASH]


def tree_label(t: Tree) -> str:
    """A tree in a few words: 'Linux 6.12.118 v6.12-5-gabc (sha
    0123456789ab)'."""
    return f"Linux {t.described}" + (f" (sha {t.hash})" if t.hash else "")


def tree_detail(t: Tree) -> str:
    """Where a tree's routines came from, in full: '(git v6.12-5-gabc,
    clear_page_64.S sha256 0123456789ab)'."""
    return f"({'git ' + t.git + ', ' if t.git else ''}clear_page_64.S sha256 {t.hash})"


def tree_note(t: Tree) -> str:
    """A boot's tree, for report's boot line."""
    return f"tree primitives from Linux {t.version} {tree_detail(t)}"


def tree_build_line(t: Tree, abi: str = "") -> str:
    """What `make LINUX=` says of the tree it built from (scripts/linux-tree's
    first TREE line): report's boot line, and the LINUX_ABI= given.  The
    hash is cut as everywhere a human reads it, so that the build's line
    and a report of its image show the same 12 characters; the boot record
    and tree_prims.h keep all 64."""
    return tree_note(t) + (f", LINUX_ABI={abi}" if abi else "")


def is_tree_primitive(config: Mapping[str, str]) -> bool:
    """Whether a config record ran a tree's routine (tree_routine)."""
    return "tree_routine" in config


def routine_label(t: Tree | None, config: Mapping[str, str]) -> str:
    """A tree primitive's routine and convention: "Linux 7.0.0's
    clear_pages_erms, range"; '' for any other configuration."""
    if not is_tree_primitive(config):
        return ""
    return (f"Linux {t.version if t else '?'}'s {config['tree_routine']}, "
            f"{config.get('tree_abi', '?')}")


def routine_note(t: Tree | None, config: Mapping[str, str]) -> str:
    """routine_label() under its clear= name, with where it came from:
    table's note."""
    return (f"{config.get('clear')}: {routine_label(t, config)} "
            f"{tree_detail(t or Tree('?'))}")


def clear_label(row: Mapping[str, object]) -> str:
    """A row's clear= as figures and split name it: a tree's routine with
    its tree, so that two trees of one version (a patch and its base) stay
    apart: 'linux-erms of Linux 6.12.118 (sha 1aee437018b8)'."""
    t = Tree.of_row(row)
    return f"{row['clear']} of {tree_label(t)}" if t else str(row["clear"])


# --- order=tree: a tree's own zeroing (make LINUX=, docs/linux-tree.md) ------

# The order= word that runs the tree's own folio_zero_user() (lib/order.h's
# ORDER_TREE, after `linux`: not one of ORDERS, which the planner runs).
TREE_ORDER = "tree"


@dataclass(frozen=True)
class Entry:
    """What order=tree ran: the tree's version (the boot record's
    linux_tree), the zeroing entry taken from its mm/memory.c
    (`folio_zero_user`, `clear_huge_page` in 6.1) and the sha256 of the
    text extracted (the boot's linux_tree_entry and
    linux_tree_entry_sha256; an order=tree config record's tree_entry and
    tree_entry_sha256)."""
    version: str
    entry: str
    sha256: str = "?"

    @classmethod
    def of(cls, boot: Mapping[str, str],
           config: Mapping[str, str] | None = None) -> Entry | None:
        """The entry of a boot record's fields, None where the image had
        none; with @config, the one an order=tree configuration ran (its
        own fields, the boot's where it lacks them), None for any other
        order."""
        if config is None:
            if "linux_tree_entry" not in boot:
                return None
            return cls(boot.get("linux_tree", "?"), boot["linux_tree_entry"],
                       boot.get("linux_tree_entry_sha256", "?"))
        if not is_tree_order(config):
            return None
        return cls(boot.get("linux_tree", "?"),
                   config.get("tree_entry") or boot.get("linux_tree_entry", "?"),
                   config.get("tree_entry_sha256") or
                   boot.get("linux_tree_entry_sha256", "?"))

    @classmethod
    def of_row(cls, row: Mapping[str, object]) -> Entry | None:
        """The entry of a results row (or a CSV row) that ran order=tree:
        its linux_tree (the version, before any git description),
        tree_entry and tree_entry_sha256; None for any other row."""
        entry = str(row.get("tree_entry") or "")
        if not entry:
            return None
        version = str(row.get("linux_tree") or "?").partition(" ")[0]
        return cls(version, entry, str(row.get("tree_entry_sha256") or "?"))

    @property
    def hash(self) -> str:
        return self.sha256[:TREE_HASH]


def is_tree_order(config: Mapping[str, object]) -> bool:
    """Whether a config record (or a row) ran order=tree."""
    return config.get("order") == TREE_ORDER


def entry_label(e: Entry) -> str:
    """order=tree in a few words: 'tree: 7.2.13 folio_zero_user'."""
    return f"tree: {e.version} {e.entry}"


def entry_head(e: Entry) -> str:
    """order=tree with the hash of its text, where provenance is shown
    (headers, a row's note, a figure): 'tree: 7.2.13 folio_zero_user (sha
    19cab87fac87)'.  Two texts of one version (a patch and its base)
    differ here."""
    return f"{entry_label(e)} (sha {e.hash})"


def entry_note(e: Entry) -> str:
    """A boot's order=tree, for report's boot line."""
    return f"order={TREE_ORDER} runs {entry_head(e)}"


def entry_sides(a: Iterable[str], b: Iterable[str]) -> str:
    """compare's header line: what A's and B's order=tree ran (@a, @b:
    each as entry_head() names it): 'A: order=tree runs tree: 7.2.13
    folio_zero_user (sha …), B: no order=tree'."""
    return ", ".join(f"{side}: " + (f"order={TREE_ORDER} runs {'; '.join(sorted(heads))}"
                                    if heads else f"no order={TREE_ORDER}")
                     for side, heads in (("A", set(a)), ("B", set(b))))


def order_label(row: Mapping[str, object]) -> str:
    """A row's order as figures name it: for order=tree its entry with
    the hash (entry_head()), so that a patch's bar and its base's are two;
    any other order as the records write it."""
    e = Entry.of_row(row)
    return entry_head(e) if e else str(row["order"])


def order_name(row: Mapping[str, object]) -> str:
    """A row's order in a table's row (entry_label(): the hash is said
    in the table's notes, entry_head())."""
    e = Entry.of_row(row)
    return entry_label(e) if e else str(row["order"])


# --- a machine -------------------------------------------------------------

# What tells machines apart in their machine record.
MACHINE_FIELDS = ("vendor", "family", "model", "stepping", "brand", "hypervisor")


def machine_key(b: Boot) -> tuple[str, ...]:
    """Which machine @b ran on: the CPU its machine record names, under
    which hypervisor, and for a LAVA job the device (two servers of one
    model are two machines); () where the boot has no machine record."""
    m = b.first("machine")
    if not m:
        return ()
    return tuple(m.f.get(k, "") for k in MACHINE_FIELDS) + (
        (b.lava.get("device", ""),) if b.lava else ("",))


def same_machine(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two machine_key()s are one machine: the same CPU, and the
    same device where both logs name one."""
    if not a or not b:
        return a == b
    return a[:-1] == b[:-1] and (a[-1] == b[-1] or "" in (a[-1], b[-1]))


def machine_name(b: Boot) -> str:
    """A machine in a line: 'AMD EPYC 9654 (AuthenticAMD family 0x19
    model 0x11, under KVMKVMKVM)'."""
    m = b.first("machine")
    if not m:
        return "machine unknown"
    f = m.f
    hv = f.get("hypervisor", "none")
    return (f"{f.get('brand', '?')} ({f.get('vendor', '?')} family {f.get('family', '?')} "
            f"model {f.get('model', '?')}{', under ' + hv if hv != 'none' else ''})")


def machine_brand(b: Boot) -> str:
    """A machine in a few words: its CPU's brand."""
    m = b.first("machine")
    return m.f.get("brand", "?") if m else "machine unknown"


def machine_names(boots: Iterable[Boot]) -> list[str]:
    """The machines of @boots, once each by machine_key(), each named with
    its LAVA device where it has one."""
    out: dict[tuple[str, ...], str] = {}
    for b in boots:
        k = machine_key(b)
        if k:
            out.setdefault(k, machine_name(b) + (f" on {k[-1]}" if k[-1] else ""))
    return list(out.values())


def is_vm(b: Boot) -> bool:
    """Whether the machine record names a hypervisor."""
    m = b.first("machine")
    return bool(m) and m.f.get("hypervisor", "none") != "none"  # type: ignore[union-attr]


def machine_long(b: Boot) -> str:
    """report's machine line: the CPU, its microcode and hypervisor, caches
    and memory; '' where the boot has no machine record."""
    m = b.first("machine")
    if not m:
        return ""
    f = m.f
    return (f"{f.get('brand')} ({f.get('vendor')} family {f.get('family')} model "
            f"{f.get('model')} stepping {f.get('stepping')}, microcode "
            f"{f.get('microcode', 'n/a')}, hypervisor {f.get('hypervisor')}), L1d "
            f"{int(f.get('l1d', 0)) >> 10}K L2 {int(f.get('l2', 0)) >> 10}K L3 "
            f"{int(f.get('l3', 0)) >> 20}M, RAM {int(f.get('mem', 0)) >> 20} MiB")


def group_stopped(stop: str, runs: object) -> str:
    """runs=auto over a group of CPUs: the rule that stopped them all
    after the same round (docs/statistics.md, "runs=auto in a group of
    CPUs")."""
    return f"runs=auto: every CPU stopped by {stop} after the same {runs} rounds"
