# SPDX-License-Identifier: GPL-2.0-only
"""The split: what the hardware costs and what Linux adds, per folio size.

From the companion's records (bench=split, or linux-fault and bare runs):
Linux's demand-fault rate and latency, the same clearing done bare with
Linux's own strategy — chosen from the host record: kernel version,
preemption model, init_on_alloc, the memory kind and the folio size — the
best primitive and order bare, and the difference per fault: Linux's
overhead, with its 95% interval (overhead()): paired by round where the
fault and the bare clearing ran interleaved in one round group, else from
the two independent series of passes.  Kernel (bench=fault) records of the same machine are shown
beside.  Rows are matched in every dimension (dims.py) where the records
allow, and where they do not, the line says in which they differ.
"""
from __future__ import annotations

import dataclasses

import math
import re
import statistics
from dataclasses import dataclass
from typing import IO, Mapping

from . import cpulist, dims, display, interval, results
from .cnames import FOLIO, ORDER, PRIM
from .records import Boot

# Linux's strategies, in hugezero's orders (lib/order.h, through cnames.py).
CONVERGING, DISCONTIGUOUS = ORDER["CONVERGING"], ORDER["DISCONTIGUOUS"]
CONTIGUOUS, NEIGHBOURHOOD = ORDER["CONTIGUOUS"], ORDER["NEIGHBOURHOOD"]

Row = dict[str, object]

# What a strategy fixes; every other dimension should equal the fault's.
STRATEGY_DIMS = ("bench", "clear", "order", "chunk", "radius",
                 # How a primitive returns (docs/hardware.md, "Return
                 # thunks"): part of the strategy, as the primitive is.
                 "rethunk", "rethunk_thunk",
                 # The probe is a task beside the fault, not how it clears.
                 "probe", "probe_us", "probe_class", "probe_policy")
# Linux 7.0's PROCESS_PAGES_NON_PREEMPT_BATCH and FOLIO_ZERO_LOCALITY_RADIUS
# as the companion records them (linux_batch, linux_radius in its host
# record, from lib/order.h); these are only what a log older than those
# fields is read with.
OLD_LOG_BATCH = 32 << 20
OLD_LOG_RADIUS = 2


@dataclass
class Strategy:
    """How Linux zeroes a faulted folio, in hugezero's terms."""
    order: str
    prim: str
    chunk: int | None       # bytes per call of neighbourhood-last; None: whole ranges
    why: str
    prim_why: str

    @property
    def name(self) -> str:
        unit = ("" if self.order != NEIGHBOURHOOD else
                " (whole ranges)" if self.chunk is None else f" {dims.size_name(self.chunk)}")
        return f"{self.prim} + {self.order}{unit}"


def version_of(host: Mapping[str, str]) -> tuple[int, int] | None:
    m = re.match(r"(\d+)\.(\d+)", host.get("kernel", ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def preempt_model(host: Mapping[str, str]) -> str:
    """none, voluntary, full, lazy, or unknown (also for older companions)."""
    m = host.get("preempt", "") or "unknown"
    return m


def flag(host: Mapping[str, str], key: str) -> str:
    """'0', '1' or 'unknown'."""
    v = host.get(key, "unknown")
    return v if v in ("0", "1") else "unknown"


def source(host: Mapping[str, str], key: str) -> str:
    if key not in host:
        return "not in the host record: an older companion"
    s = host.get(f"{key}_source", "")
    return f"from {s}" if s else "source not given"


def primitive(features: list[str], host: Mapping[str, str] | None = None) -> tuple[str, str]:
    """Linux's clear_page() on the host: as the companion recorded it
    (linux_clear, decided by arch/x86_64/clear.c's prim_linux()), or for
    an older log from the CPU's features, by the same rule."""
    if host and host.get("linux_clear"):
        return host["linux_clear"], host.get("linux_clear_why", "recorded by the companion")
    if "erms" in features:      # the CPUID feature's name, /proc/cpuinfo's
        return PRIM["ERMS"], "ERMS in CPUID: clear_page_erms"
    return PRIM["REP"], ("no ERMS in CPUID: clear_page_rep, if the kernel set REP_GOOD, "
                   "which it does from its own CPU tables, invisible from CPUID "
                   "(without it, clear_page_orig)")


def strategy(host: Mapping[str, str], features: list[str], folio: str,
             backing: str) -> Strategy:
    """Linux's own strategy for a demand fault of a @folio page of @backing
    memory on the host the record describes."""
    prim, prim_why = primitive(features, host)
    batch = int(host.get("linux_batch", OLD_LOG_BATCH))
    ver = version_of(host)
    model = preempt_model(host)
    if backing == "thp" and flag(host, "init_on_alloc") == "unknown":
        prim_why += "; init_on_alloc unknown: 0 assumed, folio_zero_user zeroes THP"
    if backing == "thp" and flag(host, "init_on_alloc") == "1" and \
            flag(host, "init_on_free") == "1":
        return Strategy(DISCONTIGUOUS, prim, None,
                        "THP with init_on_alloc=1 and init_on_free=1: post_alloc_hook "
                        "zeroes nothing (init = !want_init_on_free() && "
                        "want_init_on_alloc()), the pages were zeroed page by page when "
                        "freed, and folio_zero_user was skipped: no zeroing on the fault "
                        "path at all; discontiguous-page is what the free path paid",
                        prim_why)
    if backing == "thp" and flag(host, "init_on_alloc") == "1":
        return Strategy(DISCONTIGUOUS, prim, None,
                        "THP with init_on_alloc=1: the page allocator zeroed it page by "
                        "page (kernel_init_pages, ascending, no resched) and "
                        "folio_zero_user was skipped; discontiguous-page is the closest "
                        "order (its resched points are extra)", prim_why)
    if ver is None:
        return Strategy(CONVERGING, prim, None,
                        "Linux version unknown: the before-7.0 rule", prim_why)
    if ver < (7, 0):
        how = ("clear_gigantic_page, 4K pages ascending" if folio == FOLIO["FOLIO_1G"] else
               "process_huge_page, converging on the faulting 4K page")
        return Strategy(CONVERGING, prim, None,
                        f"before 7.0: {how}, cond_resched before every 4K page", prim_why)
    # x86 7.0 offers full and lazy only (lib/preempt.h): an older
    # companion's unknown model is full, as today's companion takes it.
    if model in ("full", "lazy", "unknown"):
        why = (f"7.0 and later, preempt={model}" if model != "unknown" else
               "7.0 and later, model unknown: full assumed, x86 7.0 offers only "
               "full and lazy")
        return Strategy(NEIGHBOURHOOD, prim, None,
                        f"{why}: each of the three ranges in one clear_pages call, "
                        "no cond_resched", prim_why)
    return Strategy(NEIGHBOURHOOD, prim, batch,
                    f"7.0 and later, preempt={model}, {results.NOT_OFFERED}: "
                    f"clear_pages in {dims.size_name(batch)} units "
                    "(PROCESS_PAGES_NON_PREEMPT_BATCH), "
                    "cond_resched between them", prim_why)


def features_of(boot: Boot) -> list[str]:
    m = boot.first("machine")
    return (m.f.get("features", "") if m else "").split(",")


def linux_strategy(boot: Boot, folio: str = FOLIO["FOLIO_2M"],
                   backing: str = "hugetlb") -> Strategy:
    h = boot.first("host")
    return strategy(h.f if h else {}, features_of(boot), folio, backing)


def linux_radius(host: Mapping[str, str]) -> int:
    return int(host.get("linux_radius", OLD_LOG_RADIUS))


def fits(r: Row, s: Strategy, radius: int = OLD_LOG_RADIUS) -> bool:
    """Whether the configuration of @r is @s (for its folio size)."""
    folio = display.folio_bytes(str(r["folio"]))
    d: dict[str, str] = r["dims"]  # type: ignore[assignment]
    if r["clear"] != s.prim:
        return False
    if folio == 4 << 10:
        return True             # one 4K page: every order clears it alike
    # order=linux is recorded with the chunk and radius it resolved to.
    order = NEIGHBOURHOOD if r["order"] == "linux" else r["order"]
    if order != s.order:
        return False
    if s.order != NEIGHBOURHOOD:
        return True
    chunk = int(d.get("chunk", "0"))
    if d.get("radius", str(radius)) != str(radius):
        return False
    # A unit at least as large as the folio clears each range in one call.
    return chunk >= folio if s.chunk is None else (
        chunk == s.chunk or min(chunk, s.chunk) >= folio)


# A Linux demand fault's folios come from Linux's allocator, whose cache
# state and contents are its own (cache=linux fill=none): the controlled
# state nearest them is a cold, pattern-filled folio.
LINUX_FOLIOS = {"cache": ("linux", "cold"), "fill": ("none", "movq")}


def as_controlled(d: dict[str, str]) -> dict[str, str]:
    out = dict(d)
    for k, (linux, nearest) in LINUX_FOLIOS.items():
        if out.get(k) == linux:
            out[k] = nearest
    return out


def how_many_cpus(d: dict[str, str]) -> dict[str, str]:
    """@d with cpus as a count: the kernel numbers its CPUs BSP first, Linux
    its own way, so across the two only how many ran at once compares.  A
    row without cpus is an older companion's: one process."""
    out = dict(d)
    n = cpulist.parse(out["cpus"]) if "cpus" in out else [0]
    if n is not None:
        out["cpus"] = f"{len(n)} CPU{'s' if len(n) > 1 else ''}"
    return out


def settings_diff(ref: Row, r: Row, skip: tuple[str, ...] = STRATEGY_DIMS) -> list[str]:
    return dims.differing(how_many_cpus(as_controlled(ref["dims"])),  # type: ignore[arg-type]
                          how_many_cpus(r["dims"]), skip)  # type: ignore[arg-type]


def closest(ref: Row, rows: list[Row], skip: tuple[str, ...] = STRATEGY_DIMS) -> Row | None:
    """The row of @rows whose settings (dimensions other than @skip) are
    nearest @ref's: all equal where one is."""
    return min(rows, key=lambda r: len(settings_diff(ref, r, skip)), default=None)


def matched(ref: Row, r: Row, skip: tuple[str, ...] = STRATEGY_DIMS) -> str:
    """Which settings of @r differ from @ref's, for the line that shows @r."""
    diff = dims.contrast(how_many_cpus(as_controlled(ref["dims"])),  # type: ignore[arg-type]
                         how_many_cpus(r["dims"]), skip)  # type: ignore[arg-type]
    return f"differs from the fault's settings: {diff}" if diff else "settings as the fault's"


def ok(r: Row) -> bool:
    return r["status"] == "ok" and isinstance(r["gbps_mean"], float) and not math.isnan(r["gbps_mean"])


def num(v: object) -> float:
    return v if isinstance(v, float) else math.nan


def label(text: str) -> str:
    return f"  {text:<50}"


def plus_minus(rows: list[Row]) -> str:
    """What every +- of a split line is: the GB/s the mean of the measured
    runs' GB/s, its sd and n (display.sd_legend)."""
    ns = [int(r["runs"]) for r in rows if ok(r)]  # type: ignore[call-overload]
    return ("GB/s: the mean of the measured runs' GB/s; "
            + display.sd_legend("per-run GB/s", "run", ns, "n=N"))


def figures(r: Row, us_key: str, per: str) -> str:
    """GB/s, its sd and n (display.mean_sd), roof, median µs: the columns
    of every split line."""
    gbs = display.mean_sd(num(r["gbps_mean"]), num(r["gbps_stddev_pct"]),
                          int(r["runs"]), n_shown=True, unit="GB/s")  # type: ignore[call-overload]
    sep = "" if gbs.endswith(" ") else " "      # n of 3 digits fills n=N's column
    return f"{gbs}{sep}roof {num(r['roof']):4.2f} {num(r[us_key]):9.1f} us/{per}"


def perfbench_line(r: Row) -> str:
    """Linux's fault as `perf bench mem mmap -f demand` prints it, from the
    passes' wall times (results.perfbench_figures); '' without them."""
    if "perfbench_gbps" not in r:
        return ""
    if math.isnan(num(r["perfbench_gbps"])):
        return ("    as perf prints it: not perf's loop (an access in each pass's "
                "window, or a damaged configuration)\n")
    return (f"    as perf bench mem mmap prints it: "
            f"{results.perf_bps(num(r['perfbench_gbps']) * results.GIB)} over "
            f"{r['perfbench_loops']} loops, the warm-ups in (perf's arithmetic on the "
            f"companion's passes: wall time of mmap + touch loop, all bytes over the "
            f"summed time); the first loop "
            f"{results.perf_bps(num(r['perfbench_first_gbps']) * results.GIB)}, the "
            f"measured ones {results.perf_bps(num(r['perfbench_measured_gbps']) * results.GIB)}\n")


@dataclass
class Overhead:
    """Linux's overhead per fault: the passes' median fault less their
    median clear, each the mean over the passes (@fault, @clear, µs), the
    difference with its interval (@iv: None with fewer than 2 passes a
    side or no scipy, @why says which), @paired when by round."""
    fault: float
    clear: float
    iv: interval.Interval | None
    paired: bool
    n: tuple[int, int]
    why: str = ""
    median: interval.Interval | None = None     # paired: of the differences

    @property
    def over(self) -> float:
        return self.fault - self.clear


def overhead(boot: Boot, fault_cfg: int, clear_cfg: int) -> Overhead:
    """The overhead of configuration @fault_cfg (a linux-fault) over
    @clear_cfg (bare) of @boot: each pass's median (results.run_median_us),
    paired by round when every pass of both has one in a round group they
    share (interval.diff_paired), else Welch's interval of the two means
    (interval.diff_unpaired)."""
    cfgs = {c.rec.int("cfg"): c for c in results.configs(boot)}
    fc, cc = cfgs[fault_cfg], cfgs[clear_cfg]
    f = results.run_median_us(boot, fc, "fault")
    c = results.run_median_us(boot, cc, "clear")
    kf = [results.round_key(boot, fc, r) for r, _ in f]
    kc = {results.round_key(boot, cc, r): v for r, v in c}
    paired = (bool(kf) and None not in kf and None not in kc and len(set(kf)) == len(kf)
              and set(kf) == set(kc) and len(kc) == len(c))
    fv, cv = [v for _, v in f], [v for _, v in c]
    if paired:
        cv = [kc[k] for k in kf]
    mf = statistics.fmean(fv) if fv else math.nan
    mc = statistics.fmean(cv) if cv else math.nan
    try:
        iv = interval.diff_paired(fv, cv) if paired else interval.diff_unpaired(fv, cv)
        why = "" if iv else "fewer than 2 passes a side: no interval"
    except interval.NoScipy:
        iv, why = None, interval.NO_SCIPY
    med = interval.median_paired(fv, cv) if paired else None
    return Overhead(mf, mc, iv, paired, (len(fv), len(cv)), why, med)


def overhead_lines(o: Overhead, backing: object,
                   what: str = "Linux's overhead per fault") -> str:
    """The overhead line and what its interval says."""
    head = (f"  {what} ({backing}): {o.fault:.1f} - {o.clear:.1f} = "
            f"{o.over:.1f} us, {100 * o.over / o.fault:.0f}% of the fault")
    if o.iv is None:
        return f"{head} ({o.why})\n"
    how = (f"paired over {o.iv.n} rounds: each round's median fault less its median "
           "clear, the two run back to back" if o.paired else
           f"unpaired: {o.n[0]} and {o.n[1]} passes run one configuration after the "
           "other, Welch's interval of the two means")
    text = f"{head}\n    {display.diff_interval(o.iv, 'us', how)}\n"
    if o.iv.contains(0.0):
        text += (f"    {display.unresolved(o.iv, o.over, 'us', o.paired, 'the overhead')}\n")
    if o.median:
        text += f"    {display.median_diff(o.median, 'us')}\n"
    return text


def folio_split(folio: str, rows: list[Row], kernel_rows: list[Row],
                host: Mapping[str, str], features: list[str], out: IO[str],
                boot: Boot) -> None:
    linux = [r for r in rows if r["bench"] == "linux-fault" and r["folio"] == folio and ok(r)]
    bare = [r for r in rows if r["bench"] == "bare" and r["folio"] == folio and ok(r)]
    best = max(bare, key=lambda r: num(r["gbps_mean"]), default=None)
    out.write(f"\nfolio {folio}\n")
    for r in linux:
        out.write(label(f"Linux demand fault, {r['backing']}") +
                  figures(r, "fault_us_median", "fault (median)") + "\n" +
                  perfbench_line(r))
        if r.get("probe_lost", "") != "":
            d: dict[str, str] = r["dims"]  # type: ignore[assignment]
            out.write(f"    probe ({d.get('probe_policy', '?')}, every "
                      f"{d.get('probe_us', '?')} us) under the host's "
                      f"preempt={preempt_model(host)}: wake-up late by median "
                      f"{num(r['probe_us_median']):.1f} us, p99 "
                      f"{num(r['probe_us_p99']):.1f} us, max "
                      f"{num(r['probe_us_max']):.1f} us; {r['probe_lost']} lost\n")
    if not linux:
        out.write("  Linux demand fault: no ok configuration in these records\n")
    for r in linux:
        s = strategy(host, features, folio, str(r["backing"]))
        out.write(f"  Linux's own for {r['backing']}: {s.name} ({s.why}; {s.prim_why})\n")
        own = closest(r, [b for b in bare if fits(b, s, linux_radius(host))])
        if own is None:
            out.write(f"  bare, Linux's own: {s.name}: not measured\n")
            continue
        out.write(bare_line("Linux's own", own, r))
        out.write(overhead_lines(overhead(boot, int(r["cfg"]), int(own["cfg"])),  # type: ignore[call-overload]
                                 r["backing"]))
        tree_twin(r, s, bare, host, out, boot)
    if best:
        out.write(bare_line("best", best))
    kernel_split(folio, linux, kernel_rows, host, features, out)


def bare_line(which: str, r: Row, ref: Row | None = None) -> str:
    """A bare row of the split: its primitive (with its tree), order and
    figures, and how its settings match @ref's (the fault's)."""
    chunk = f" {r['chunk']}" if r["chunk"] else ""
    return (label(f"bare, {which}: {display.clear_label(r)} + {display.order_label(r)}{chunk}") +
            figures(r, "clear_us_median", "folio") +
            (f"\n    ({matched(ref, r)})\n" if ref is not None else "\n"))


def tree_twin(fault: Row, s: Strategy, bare: list[Row], host: Mapping[str, str],
              out: IO[str], boot: Boot) -> None:
    """make LINUX= (docs/linux-tree.md): the tree's own routine for
    Linux's clear_page() (linux-erms for erms), run bare with Linux's
    strategy, beside the demand fault -- the patch's routine against the
    host's fault; nothing where the image had no such tree primitive."""
    twin = dataclasses.replace(s, prim=f"linux-{s.prim}")
    r = closest(fault, [b for b in bare if display.Tree.of_row(b) and
                        fits(b, twin, linux_radius(host))])
    if r is None:
        return
    out.write(bare_line("the tree's", r, fault))
    out.write(overhead_lines(overhead(boot, int(fault["cfg"]), int(r["cfg"])),  # type: ignore[call-overload]
                             fault["backing"], "the fault less the tree's clearing, the "
                             "host's fault running the host's own routine"))


def kernel_split(folio: str, linux: list[Row], kernel_rows: list[Row],
                 host: Mapping[str, str], features: list[str], out: IO[str]) -> None:
    """The kernel's rows beside: Linux's own strategy and the best, among
    the kernel's configurations whose settings are nearest the fault's."""
    mine = [r for r in kernel_rows if r["folio"] == folio and ok(r)]
    if not mine:
        return
    skip = STRATEGY_DIMS + ("backing",)     # the kernel's folios have no backing
    ref = dict(linux[0]) if linux else mine[0]
    model = preempt_model(host)
    if model != "unknown" and "preempt" not in ref["dims"]:  # type: ignore[operator]
        # The fault ran under the host's model: a kernel row of it is nearest.
        ref["dims"] = {**ref["dims"], "preempt": model}  # type: ignore[dict-item]
    if "prezero" not in ref["dims"]:  # type: ignore[operator]
        # Linux's strategy (below) is one the fault path pays, as a kernel
        # row of prezero=none does (and THP with init_on_free=1 is modelled
        # the same way: its free path's order, in the fault).
        ref["dims"] = {**ref["dims"], "prezero": "none"}  # type: ignore[dict-item]
    s = strategy(host, features, folio, str(ref.get("backing", "")))
    own = closest(ref, [r for r in mine if fits(r, s, linux_radius(host))], skip)
    fewest = min(len(settings_diff(ref, r, skip)) for r in mine)
    best = max((r for r in mine if len(settings_diff(ref, r, skip)) == fewest),
               key=lambda r: num(r["gbps_mean"]))
    for r in ([own] if own else []) + ([best] if best is not own else []):
        chunk = f" {r['chunk']}" if r["chunk"] else ""
        which = "Linux's own" if r is own else "best"
        out.write(f"  hugezero kernel, {which}: {r['clear']} + "
                  f"{display.order_label(r)}{chunk}  {num(r['gbps_mean']):7.2f} GB/s  roof "
                  f"{num(r['roof']):4.2f}  fault {num(r['fault_us_median']):.1f} us = "
                  f"clear {num(r['clear_us_median']):.1f} + overhead "
                  f"{num(r['overhead_us_median']):.2f} us\n"
                  f"    (boot {r['boot']} cfg {r['cfg']}, {matched(ref, r, skip)})\n")
    if not own:
        out.write(f"  hugezero kernel, Linux's own: {s.name}: not measured\n")


def host_lines(boot: Boot, out: IO[str]) -> None:
    """The host's preemption model and page init, each with its source."""
    h = boot.first("host")
    f = h.f if h else {}
    ver = version_of(f)
    model = preempt_model(f)
    out.write(f"  Linux {'%d.%d' % ver if ver else '(version unknown)'}: preempt={model} "
              f"({source(f, 'preempt')})"
              f"{'; model unknown: the kernel-version rule alone' if model == 'unknown' else ''}\n")
    for k in ("init_on_alloc", "init_on_free"):
        v = flag(f, k)
        out.write(f"  {k}={v} ({source(f, k)})"
                  f"{'; 0 assumed' if v == 'unknown' and k == 'init_on_alloc' else ''}\n")


def write(boots: list[Boot], out: IO[str]) -> int:
    companion = [b for b in boots if b.first("host")]
    kernels = [b for b in boots if not b.first("host")]
    if not companion:
        out.write("split: no companion records (build/hugezero-linux bench=split) given\n")
        return 1
    for b in companion:
        rows = results.boot_rows(b)
        same = [r for k in kernels
                if display.same_machine(display.machine_key(k), display.machine_key(b))
                for r in results.boot_rows(k)]
        h, t = b.first("host"), b.first("timebase")
        assert h is not None
        out.write(f"split of boot {b.index}: {display.machine_name(b)}, "
                  f"Linux {h.f.get('kernel')}, CPU {h.f.get('cpu')}, clocksource "
                  f"{h.f.get('clocksource')}, THP {h.f.get('thp_enabled')}/"
                  f"{h.f.get('thp_defrag')}, TSC {int(t.f['tsc_hz']) / 1e9 if t else 0:.4f} GHz"
                  f"{', a VIRTUAL MACHINE (see docs/companion.md)' if h.f.get('vm') == '1' else ''}\n")
        host_lines(b, out)
        out.write(f"  times and GB/s net of the timer ({results.timer_ticks(b)} ticks a "
                  f"sample); roof: GB/s over the boot's best clearing GB/s of {results.roof_of(b)}\n")
        out.write(f"  {plus_minus(rows)}\n")
        if kernels and not same:
            out.write("  (kernel records given are of another machine: not shown)\n")
        for folio in display.folios_of(r["folio"] for r in rows):
            folio_split(folio, rows, same, h.f, features_of(b), out, b)
        for r in rows:
            if r["status"] != "ok" or (r["reason"] and r["status"] == "ok"):
                out.write(f"  note: {r['bench']} {r['folio']} {r['clear']} {r['order']} "
                          f"{r['backing']}: {r['status']} {r['reason']}\n")
    return 0


PLAIN = re.compile(r"^plain .*$", re.M)
TOUCH = "touch_hugetlb_2m_gibps"


def harness_configs(boots: list[Boot], keys: list[str]) -> list[tuple[str, str, tuple[Boot, Row] | None]]:
    """(what, plain key, the companion's (boot, row) or None) for each
    plain loop of @keys (KEY_2m_gibps: clear=KEY over 2M ranges, bare
    contiguous-page; the touch loop: Linux's 2M hugetlb fault)."""
    rows = [(b, r) for b in boots if b.first("host") for r in results.boot_rows(b)]

    def find(bench: str, clear: str, order: str, backing: str) -> tuple[Boot, Row] | None:
        return next(((b, r) for b, r in rows
                     if (r["bench"], r["folio"], r["clear"], r["order"]) == (bench, FOLIO["FOLIO_2M"], clear, order)
                     and (not backing or r["backing"] == backing) and ok(r)), None)

    out = []
    for k in keys:
        if k == TOUCH:
            continue
        clear = k[:-len("_2m_gibps")].replace("_", "-")
        out.append((f"clear={clear} over 2M ranges", k, find("bare", clear, CONTIGUOUS, "")))
    out.append(("mmap + touch, hugetlb 2M", TOUCH, find("linux-fault", "linux", "linux", "hugetlb")))
    return out


def by_round(boot: Boot, row: Row) -> tuple[str, dict[int, float]]:
    """The round group of @row's configuration and its measured runs'
    GB/s by round ('' and {} where it did not run interleaved)."""
    c = next(c for c in results.configs(boot) if c.rec.int("cfg") == int(row["cfg"]))  # type: ignore[call-overload]
    g = c.rec.f.get("round_group", "")
    if c.rec.f.get("interleave", "on") == "off" or not g:
        return "", {}
    return g, {r.int("round"): v for r, v in results.run_gbps_of(boot, c) if "round" in r.f}


def verdict(iv: interval.Interval) -> str:
    """The harness's 10% held against the interval of the change."""
    lo, hi = 100 * (iv.lo - 1), 100 * (iv.hi - 1)
    if -10 <= lo and hi <= 10:
        return "within 10%"
    if lo > 10 or hi < -10:
        return "DIFFERS by more than 10%"
    return "the interval reaches past 10%: not resolved"


def plain_paired(runs: list[dict[str, str]], boots: list[Boot], out: IO[str]) -> None:
    """The plain loops ran after each measured round of the split's round
    group (the companion's --round-hook): each figure against the
    companion's of the same round, the change companion/plain - 1 with
    Fieller's paired interval (interval.ratio_paired)."""
    keys = list(dict.fromkeys(k for r in runs for k in r if k.endswith("_2m_gibps")))
    out.write(f"\nharness check (plain loops on the same CPU and {runs[0].get('backing')} "
              f"memory, one pass each after every measured round of round group "
              f"{runs[0].get('round_group')}; change: companion / plain - 1, its 95% "
              f"interval paired by round):\n")
    for name, key, found in harness_configs(boots, keys):
        if found is None:
            out.write(f"  {name:<26} companion: not measured  (not comparable)\n")
            continue
        g, comp = by_round(*found)
        plain = {int(r["round"]): float(r[key]) for r in runs
                 if r.get("round_group") == g and key in r and float(r[key]) > 0}
        both = sorted(set(comp) & set(plain))
        cv, pv = [comp[k] for k in both], [plain[k] for k in both]
        if len(both) < 2:
            out.write(f"  {name:<26} not paired: {len(both)} round(s) of round group "
                      f"{g or '-'} in both\n")
            continue
        try:
            iv = interval.ratio_paired(pv, cv)
        except interval.NoScipy:
            out.write(f"  {name:<26} ({interval.NO_SCIPY})\n")
            continue
        mc, mp = statistics.fmean(cv), statistics.fmean(pv)
        text = verdict(iv) if iv and iv.bounded else "unbounded: not resolved"
        out.write(f"  {name:<26} companion {mc:7.2f}  plain {mp:7.2f} GB/s  "
                  f"{100 * (mc / mp - 1):+6.1f}% {display.pct_interval(iv)}  {text} "
                  f"(paired over {len(both)} rounds)\n")


def plain_check(plain_text: str, boots: list[Boot], out: IO[str]) -> None:
    """The harness adds nothing: companion figures beside plain loops."""
    runs = [dict(kv.split("=", 1) for kv in m.group(0).split()[1:] if "=" in kv)
            for m in PLAIN.finditer(plain_text)]
    if not runs:
        out.write("\nharness check: no 'plain' line in the plain loops' output\n")
        return
    paired = [r for r in runs if "round" in r and "round_group" in r]
    if paired:
        plain_paired(paired, boots, out)
        return
    # Runs before and after the companion: their mean brackets drift.
    p: dict[str, str] = dict(runs[0])
    # Each primitive the plain loops ran, by the clear= word they print
    # (KEY_2m_gibps); the Linux fault's touch loop apart.
    keys = list(dict.fromkeys(k for r in runs for k in r if k.endswith("_2m_gibps")))
    for k in keys:
        vals = [float(r[k]) for r in runs if k in r and float(r[k]) > 0]
        if vals:
            p[k] = f"{sum(vals) / len(vals):.3f}"
            if len(vals) > 1:
                p[k + "_spread"] = f"{100 * (max(vals) - min(vals)) / min(vals):.1f}"
    out.write(f"\nharness check (plain loops on the same CPU and {p.get('backing')} memory, "
              f"mean of {len(runs)} runs around the companion):\n")
    for name, key, found in harness_configs(boots, keys):
        comp = num(found[1]["gbps_mean"]) if found else math.nan
        ref = p.get(key)
        spread = f" (plain runs {p[key + '_spread']}% apart)" if key + "_spread" in p else ""
        if ref is None or math.isnan(comp) or float(ref) <= 0:
            out.write(f"  {name:<26} companion {comp:7.2f}  plain {ref or '-':>7}  (not comparable)\n")
            continue
        d = 100 * (comp - float(ref)) / float(ref)
        out.write(f"  {name:<26} companion {comp:7.2f}  plain {float(ref):7.2f} GB/s  "
                  f"{d:+6.1f}%  {'within 10%' if abs(d) <= 10 else 'DIFFERS by more than 10%'}"
                  f"{spread}\n")
