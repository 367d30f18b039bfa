# SPDX-License-Identifier: GPL-2.0-only
"""From records to results: one row per configuration, computed from the
raw samples (the kernel's own summary is only a cross-check).

Every per-fault figure here is net of the timer: each timed sample less
the boot's `timebase overhead_median` (the cost of an empty timed pair),
clamped at 0.  Raw samples stay raw in the records and in `--rows samples`'
`ticks` column."""
from __future__ import annotations

import math
import statistics
from typing import Callable, TypeVar
from dataclasses import dataclass, field

from . import counters, cpulist, dims, display, fields, spread
from .records import Boot, Record

T = TypeVar("T")

GIB = float(1 << 30)    # perf bench prints GB/sec as 2^30 bytes per second

# The CSV's columns, declared with their units and meanings in fields.py
# (docs/records.md, "CSV columns").
CSV_COLUMNS = fields.csv_names("row")

# Columns only where a row has them, so an older log's CSV is as it was.
NEWER_COLUMNS = fields.csv_names("newer")
# perf bench mem mmap's figure beside the companion's own (docs/companion.md),
# from its linux-fault run records' wall_ns: columns only where a run has one.
PERFBENCH_COLUMNS = fields.csv_names("perfbench")

# A run's effective frequency this many percent off the median of the
# configuration's measured runs is flagged, as the kernel's summary does
# (lib/outcome.h FREQ_TOLERANCE_PCT).
FREQ_TOLERANCE_PCT = 2

# Which CPU of its group a configuration's records are from (docs/smp.md):
# bookkeeping, not dimensions, but a row's identity within its boot.
CPU_FIELDS = ("cpu", "ncpus", "node", "mem_node", "group", "apic_id")

# A configuration whose config record says linux_offered=no: order=linux
# under a model x86 Linux 7.0 does not offer (none, voluntary), kept to
# measure 7.0's non-preemptible branch (docs/sched.md).  Every report and
# table that names one says so with this.
NOT_OFFERED = "not offered by x86 Linux 7.0"


def offered_note(r: dict[str, object]) -> str:
    """' [not offered by x86 Linux 7.0]' for such a row, else '' (also for
    every row of a log older than the field)."""
    return f" [{NOT_OFFERED}]" if r.get("linux_offered") == "no" else ""


# Kinds of samples that are timings (page is a page index).
TIMED = ("fault", "clear", "access")
# Not timed regions: a page index, the probe's lateness (a delay, not net
# of anything) and the fault a wake-up fell in.
UNTIMED = ("page", "probe", "probe_fault")


def is_time(kind: str) -> bool:
    """Whether a samples kind is a timed region's TSC ticks: not a
    counter's delta (pmu.EVENT), nor an UNTIMED kind."""
    return kind not in UNTIMED and not kind.startswith("pmu.")


@dataclass
class Config:
    rec: Record
    runs: list[Record] = field(default_factory=list)
    samples: dict[tuple[int, str], list[int]] = field(default_factory=dict)
    summary: Record | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.rec.f.get("name", "?")

    @property
    def dims(self) -> dict[str, str]:
        return dims.of(self.rec.f)

    @property
    def measured(self) -> list[Record]:
        return [r for r in self.runs if r.f.get("pass") == "measure"]


def cpu_of(f: dict[str, str], d: dict[str, str]) -> str:
    """The CPU a configuration ran on: its `cpu`, else the one CPU its
    cpus lists (an older kernel log: 0); '' when unknown (an older
    companion's)."""
    if f.get("cpu", "") != "":
        return f["cpu"]
    one = cpulist.parse(d.get("cpus", ""))
    return str(one[0]) if one and len(one) == 1 else ""


def chunk_name(b: int) -> str:
    return dims.size_name(b) if b else ""


def configs(boot: Boot) -> list[Config]:
    by_id: dict[int, Config] = {}
    order: list[Config] = []
    for r in boot.records:
        if r.type == "config":
            c = Config(r)
            by_id[r.int("cfg")] = c
            order.append(c)
            continue
        if r.type not in ("run", "samples", "summary"):
            continue
        c = by_id.get(r.int("cfg", -1))
        if c is None:
            why = f"line {r.line_no}: {r.type} record for an unknown configuration"
            if why not in boot.problems:    # read again by every tool
                boot.problems.append(why)
            continue
        if r.type == "run":
            c.runs.append(r)
        elif r.type == "summary":
            c.summary = r
        else:
            add_samples(c, r)
    for c in order:
        check_complete(boot, c)
    return order


def check_complete(boot: Boot, c: Config) -> None:
    """A configuration any of whose records went missing is damaged: a lost
    line may have held samples, and numbers without them would be wrong."""
    c.problems.extend(f"records {lo}..{hi} of this configuration are missing"
                      for lo, hi in gaps_within(boot, c.rec.seq, c.summary))
    for r in c.runs:
        n = r.int("faults", 0)
        for kind in ("fault", "clear", "access", "page"):
            got = c.samples.get((r.int("run"), kind))
            if got is not None and len(got) != n:
                c.problems.append(f"run {r.int('run')}: {len(got)} of {n} "
                                  f"{kind} samples")


def gaps_within(boot: Boot, first: int, closing: Record | None) -> list[tuple[int, int]]:
    """The records lost from @first to @closing (its summary; without one,
    to the end of the boot): any may have been part of what began at @first."""
    last = closing.seq if closing else (boot.records[-1].seq if boot.records else first)
    return [(lo, hi) for lo, hi in boot.gaps if lo <= last and hi >= first]


def add_samples(c: Config, r: Record) -> None:
    key = (r.int("run"), r.f.get("kind", "?"))
    vals = [int(x) for x in r.f.get("v", "").split(",") if x]
    have = c.samples.setdefault(key, [])
    if r.int("first") != len(have) or r.int("n") != len(vals):
        c.problems.append(f"samples of run {key[0]} {key[1]} out of sequence "
                          f"at {r.int('first')}")
    have.extend(vals)


def pct(sorted_v: list[int], p: float) -> int:
    """Nearest-rank percentile, as the kernel computes it."""
    if not sorted_v:
        return 0
    rank = math.ceil(p / 100.0 * len(sorted_v))
    return sorted_v[max(rank, 1) - 1]


def tsc_hz(boot: Boot) -> int:
    tb = boot.first("timebase")
    return tb.int("tsc_hz", 0) if tb else 0


def timer_ticks(boot: Boot) -> int:
    """Ticks of an empty timed pair (timebase overhead_median; 0 if absent):
    what every timed sample is net of."""
    tb = boot.first("timebase")
    return tb.int("overhead_median", 0) if tb else 0


def kind_timer(boot: Boot, c: "Config", kind: str) -> int:
    """What a @kind sample is net of.  A kernel fault window holds two
    timer pairs (the workload's and the handler's around the clear): the
    summary's fault_net_of_ticks says their cost; every other sample holds
    one pair, the timebase's overhead_median."""
    s = c.summary
    if kind == "fault" and s is not None and "fault_net_of_ticks" in s.f:
        return s.int("fault_net_of_ticks")
    return timer_ticks(boot)


def sample_timers(boot: Boot, c: Config, run: int, kind: str) -> list[int]:
    """What each of pass @run's @kind samples is net of: kind_timer(),
    except a kernel fault served by a folio zeroed in advance (prezero=:
    its clear sample is 0, the handler timed no clear), whose window holds
    the workload's timer pair alone."""
    vals = c.samples.get((run, kind), [])
    o, one = kind_timer(boot, c, kind), timer_ticks(boot)
    clear = c.samples.get((run, "clear"))
    if kind != "fault" or o == one or clear is None or len(clear) != len(vals):
        return [o] * len(vals)
    return [one if cl == 0 else o for cl in clear]


def run_net(boot: Boot, c: Config, run: int, kind: str) -> list[int]:
    """Pass @run's @kind samples, each net of its timer (sample_timers),
    clamped at 0; untimed kinds as they are."""
    vals = c.samples.get((run, kind), [])
    if not is_time(kind):
        return list(vals)
    return [max(0, v - o) for v, o in zip(vals, sample_timers(boot, c, run, kind))]


def run_ticks(boot: Boot, c: Config, r: Record, kind: str) -> int:
    """A run's total @kind ticks, net of the timer: from its samples when
    there are any, else from the run record's raw total less the timer of
    each timed sample (a pre-zeroed fault's clear is not timed, and its
    fault holds one pair)."""
    if (r.int("run"), kind) in c.samples:
        return sum(run_net(boot, c, r.int("run"), kind))
    o, one = kind_timer(boot, c, kind), timer_ticks(boot)
    n, pz = r.int("faults", 0), min(r.int("prezeroed_faults", 0), r.int("faults", 0))
    timers = {"fault": (n - pz) * o + pz * one, "clear": (n - pz) * o}.get(kind, n * o)
    return max(0, r.int(f"{kind}_ticks", 0) - timers)


def rate_kind(c: Config) -> str:
    """Faults when there were any (kernel, linux-fault), else the clearing (bare)."""
    return "fault" if any("fault_ticks" in r.f for r in c.measured) else "clear"


def run_gbps(boot: Boot, c: Config, kind: str | None = None) -> list[float]:
    """GB/s of each measured run, over its faults (or its clearing, for
    @kind 'clear' or a bare configuration), net of the timer."""
    return [g for _, g in run_gbps_of(boot, c, kind)]


def run_gbps_of(boot: Boot, c: Config, kind: str | None = None) -> list[tuple[Record, float]]:
    """run_gbps(), each with its run record."""
    hz, size = tsc_hz(boot), c.rec.int("size", 0)
    kind = kind or rate_kind(c)
    out = []
    for r in c.measured:
        if f"{kind}_ticks" not in r.f:
            continue
        t = run_ticks(boot, c, r, kind)
        if hz and t:
            out.append((r, size / (t / hz) / GIB))
    return out


def run_gibps_micro_of(boot: Boot, c: Config) -> list[tuple[Record, int]]:
    """Each measured run's GiB/s x 10^6 as the writer computes it for its
    series flags (lib/outcome.c bench_run_gibps_micro, rounded down twice
    over the same net ticks), so the host checks the very integers the
    record's `series`, `drift_s` and `bimodal_sep_x100` came from."""
    hz, size = tsc_hz(boot), c.rec.int("size", 0)
    kind = rate_kind(c)
    out = []
    for r in c.measured:
        if f"{kind}_ticks" not in r.f:
            continue
        t = run_ticks(boot, c, r, kind)
        out.append((r, size * hz // t * 10**6 // GIB if t else 0))
    return out


# Interleaved passes (docs/statistics.md, issue 24): a measured run's
# round and its place in the round's order; the configuration's
# interleave and round_group.  A log without them is unpaired.

def round_key(boot: Boot, c: Config, r: Record) -> tuple[int, str, int] | None:
    """What pairs run @r with the runs of other configurations: (the boot
    -- this very Boot: boots of two logs ran at different times even where
    both are a log's first --, round_group, round) where its configuration
    was interleaved with others in a round group, else None."""
    g = c.rec.f.get("round_group", "")
    if "round" not in r.f or g == "" or c.rec.f.get("interleave", "on") == "off":
        return None
    return (id(boot), g, r.int("round"))


def in_time_order(runs: list[tuple[Record, T]]) -> list[T]:
    """Per-run figures in the order the passes ran: by round where the
    runs carry one, else by run number."""
    return [v for _, v in sorted(runs, key=lambda rv: (rv[0].int("round", -1),
                                                        rv[0].int("run", 0)))]


def run_median_us(boot: Boot, c: Config, kind: str) -> list[tuple[Record, float]]:
    """Each measured run's median @kind time in µs, net of the timer, from
    its samples; a run without samples by its mean (run_ticks over its
    faults)."""
    hz = tsc_hz(boot)
    out = []
    for r in c.measured:
        if f"{kind}_ticks" not in r.f or not hz:
            continue
        vals = run_net(boot, c, r.int("run"), kind)
        n = r.int("faults", 0) or c.rec.int("folios", 0)
        t = statistics.median(vals) if vals else (run_ticks(boot, c, r, kind) / n if n else math.nan)
        out.append((r, t * 1e6 / hz))
    return out


def measured_samples(boot: Boot, c: Config, kind: str) -> list[int]:
    """Every @kind sample of the measured runs, each net of its timer
    (sample_timers), sorted."""
    return sorted(v for run in sorted({r.int("run") for r in c.measured})
                  for v in run_net(boot, c, run, kind))


def summary_us(boot: Boot, c: "Config", key: str) -> float:
    """A summary's median in µs, brought to the same net as the host's own
    figures: the summary is net of its net_of_ticks (fault figures of its
    fault_net_of_ticks; 0 in older logs)."""
    s = c.summary
    if s is None or key not in s.f:
        return math.nan
    hz = tsc_hz(boot)
    ns = s.int(key)
    if key != "overhead_ns_median" and hz:
        kind = key.split("_", 1)[0]
        applied = s.int("net_of_ticks", 0)
        if kind == "fault":
            applied = s.int("fault_net_of_ticks", applied)
        ns -= (kind_timer(boot, c, kind) - applied) * 1e9 / hz
    return max(0.0, ns) / 1e3


def row(boot: Boot, c: Config) -> dict[str, object]:
    machine = boot.first("machine")
    tb = boot.first("timebase")
    hz, o = tsc_hz(boot), timer_ticks(boot)
    f = c.rec.f
    size = c.rec.int("size", 0)
    measured, s = c.measured, c.summary
    # A configuration the signal cut is named so, not left unended.
    status = (c.summary.f.get("status", "?") if c.summary else
              "interrupted" if boot.interrupted else "incomplete")
    if c.problems and status == "ok":
        status = "damaged"

    def us(t: float) -> float:
        return t * 1e6 / hz if hz else math.nan

    def median_us(vals: list[int], key: str) -> float:
        return us(statistics.median(vals)) if vals else summary_us(boot, c, key)

    gbps = run_gbps(boot, c)
    cgbps = run_gbps(boot, c, "clear")
    fault, clear, access = (measured_samples(boot, c, k) for k in TIMED)
    fo = kind_timer(boot, c, "fault")
    runs = sorted({r.int("run") for r in measured})
    over = sorted(max(0, a - b) for run in runs for a, b in zip(
        run_net(boot, c, run, "fault"), run_net(boot, c, run, "clear")))
    # One run has no sd (spread.py): NaN, an empty cell in the CSV, n=1
    # in the text (display.mean_sd), as in --rows agg.
    g_mean, g_sd = spread.mean_sd_pct(gbps)
    d = c.dims
    c_mean = spread.mean_sd_pct(cgbps)[0]
    if math.isnan(c_mean) and s and "clear_gibps_milli_mean" in s.f:
        c_mean = s.int("clear_gibps_milli_mean") / 1e3
    out: dict[str, object] = {k: v for k, v in d.items()}
    out.update({
        "folio": f.get("folio"), "clear": f.get("clear"), "order": f.get("order"),
        "chunk": chunk_name(c.rec.int("chunk", 0)), "status": status,
        "runs": len(measured), "gbps_mean": g_mean, "gbps_stddev_pct": g_sd,
        "gbps_runs": gbps, "clear_gbps_mean": c_mean,
        "fault_us_median": median_us(fault, "fault_ns_median"),
        "clear_us_median": median_us(clear, "clear_ns_median"),
        "access_us_median": median_us(access, "access_ns_median"),
        "overhead_us_median": median_us(over, "overhead_ns_median"),
        "fault_us_min": us(fault[0]) if fault else math.nan,
        "fault_us_p99": us(pct(fault, 99)) if fault else math.nan,
        "fault_us_max": us(fault[-1]) if fault else math.nan,
        "resched_per_run": measured[0].int("resched", 0) if measured else "",
        "linux_offered": f.get("linux_offered", ""),
        **tree_fields(boot, f),
        **prim_calls(measured),
        "size": size, "folios": c.rec.int("folios", 0),
        "cpu_brand": machine.f.get("brand") if machine else "?",
        "tsc_hz": hz, "tsc_source": tb.f.get("source") if tb else "?",
        "boot": boot.index, "cfg": c.rec.int("cfg"),
        "backing": f.get("backing", ""), "roof": math.nan, "net_ticks": o,
        "fault_net_ticks": fo,
        # Only passes whose zero check ran carry them (not those after
        # access=write).
        "injected": sum(r.int("injected", 0) for r in c.runs) if any(
            "injected" in r.f for r in c.runs) else "",
        "detected": sum(r.int("detected", 0) for r in c.runs) if any(
            "detected" in r.f for r in c.runs) else "",
        **probe_figures(boot, c, us),
        **zeroing_figures(boot, c),
        **cpu_times(measured, hz),
        **counter_figures(c),
        **perfbench_figures(c),
        **{k: f.get(k, "") for k in CPU_FIELDS},
        "cpu": cpu_of(f, d),
        # Runs not to average in silently: an SMI in them, or an
        # effective frequency off the others' (docs/hardware.md),
        # computed here from the run records; the kernel's summary's own
        # `flagged` beside it, to show where they disagree.
        "flagged": flag_runs(measured),
        "kernel_flagged": s.f.get("flagged", "") if s else "",
        "dims": d,
        "reason": (s.f.get("reason", "") if s else boot.cut or "no summary record") +
        ("; " + "; ".join(c.problems) if c.problems else ""),
    })
    return out


def tree_fields(boot: Boot, f: dict[str, str]) -> dict[str, str]:
    """The CSV's linux_tree (the tree's version and, for a git tree, git
    describe) and linux_tree_sha256 of a tree primitive's configuration,
    and an order=tree configuration's linux_tree, tree_entry and
    tree_entry_sha256 (make LINUX=, docs/linux-tree.md); each '' where it
    does not apply (hugezero's own primitives and orders)."""
    b = boot.first("boot")
    bf = b.f if b else {}
    out = {"linux_tree": "", "linux_tree_sha256": "", "tree_entry": "",
           "tree_entry_sha256": ""}
    t = display.Tree.of(bf) or display.Tree("?")
    if display.is_tree_primitive(f) and b is not None:
        out.update(linux_tree=t.described, linux_tree_sha256=t.sha256)
    e = display.Entry.of(bf, f)
    if e:
        out.update(linux_tree=t.described, tree_entry=e.entry, tree_entry_sha256=e.sha256)
    return out


def entry_fields(boot: Boot, f: dict[str, str]) -> dict[str, str]:
    """--rows agg's and --rows samples' tree_entry and tree_entry_sha256
    of an order=tree configuration; {} for any other (no column then)."""
    b = boot.first("boot")
    e = display.Entry.of(b.f if b else {}, f)
    return {"tree_entry": e.entry, "tree_entry_sha256": e.sha256} if e else {}


def prim_calls(measured: list[Record]) -> dict[str, object]:
    """Primitive calls per fault that cleared (run records' prim_calls
    over faults less prezeroed_faults), and the most one fault made; {}
    for runs that do not count them (an older log)."""
    counted = [r for r in measured if "prim_calls" in r.f]
    if not counted:
        return {}
    cleared = sum(r.int("faults", 0) - r.int("prezeroed_faults", 0) for r in counted)
    return {"prim_calls_per_fault": (sum(r.int("prim_calls") for r in counted) / cleared
                                     if cleared else math.nan),
            "prim_calls_max": max(r.int("prim_calls_max", 0) for r in counted)}


def _median_int(v: list[int]) -> int:
    """The median as lib/stats.c median_u64 takes it: of an even count,
    the lower middle plus half the gap, rounded down."""
    v = sorted(v)
    n = len(v)
    if not n:
        return 0
    return v[n // 2] if n % 2 else v[n // 2 - 1] + (v[n // 2] - v[n // 2 - 1]) // 2


def flag_runs(measured: list[Record]) -> str:
    """The runs with an SMI (`smis` > 0) or an effective frequency
    (`eff_khz`) more than FREQ_TOLERANCE_PCT off the median of the
    measured runs', in the kernel summary's words (lib/outcome.c
    flag_runs); runs numbered by their order among the measured ones,
    as the kernel numbers them."""
    khz = [r.int("eff_khz") for r in measured if "eff_khz" in r.f]
    med = _median_int(khz)
    out = []
    for i, r in enumerate(measured):
        smis = r.int("smis", 0)
        if smis:
            out.append(f"run {i}: {smis} SMI{'s' if smis > 1 else ''}")
        if med and "eff_khz" in r.f:
            f = r.int("eff_khz")
            off = abs(f - med)
            if off * 100 > med * FREQ_TOLERANCE_PCT:
                out.append(f"run {i}: {f} kHz, {off * 100 // med}."
                           f"{off * 1000 // med % 10}% off the median")
    return "; ".join(out)


def perfbench_figures(c: Config) -> dict[str, object]:
    """What `perf bench mem mmap -f demand -l N` would print for the
    companion's passes (tools/perf/bench/mem-functions.c): every pass that
    carries `wall_ns` (the mmap and touch loop on the wall clock), warm-ups
    included, is a loop; the figure is their bytes over the sum of their
    times, in 2^30 B/s; the first loop alone, and the measured passes
    alone, beside.  Nothing for a log without wall_ns, and nothing for a
    backing perf's loop cannot map: it maps hugetlb pages only (`-p 2MB`,
    `1GB`: MAP_HUGETLB), never THP's or madvised base pages, so a thp or
    base row has no such figure (absent, not 0).  NaN where the window
    held an access (access=write|read: not perf's loop) or the
    configuration is damaged (a lost run record would be a lost loop)."""
    loops = sorted((r for r in c.runs if "wall_ns" in r.f), key=lambda r: r.int("run"))
    if not loops or not perfbench_backing(c.rec.f.get("backing", "")):
        return {}
    size = c.rec.int("size", 0)
    usable = c.dims.get("access", "none") == "none" and not c.problems

    def rate(rs: list[Record]) -> float:
        ns = sum(r.int("wall_ns") for r in rs)
        return size * len(rs) / (ns / 1e9) / GIB if usable and rs and ns else math.nan

    return {"perfbench_gbps": rate(loops), "perfbench_loops": len(loops),
            "perfbench_first_gbps": rate(loops[:1]),
            "perfbench_measured_gbps": rate([r for r in loops if r.f.get("pass") == "measure"])}


def perfbench_backing(backing: str) -> bool:
    """Memory perf bench mem mmap maps: hugetlb alone (lib/perfbench.c
    perfbench_backing())."""
    return backing == "hugetlb"


def perf_bps(x: float) -> str:
    """@x bytes a second as perf bench's print_bps() prints it (K = 1024,
    '%lf'), without its padding; its 'd' after KB is perf's own."""
    k = 1024.0
    if math.isnan(x):
        return "n/a"
    if x < k:
        return f"{x:f} bytes/sec"
    if x < k * k:
        return f"{x / k:f}d KB/sec"
    if x < k * k * k:
        return f"{x / k / k:f} MB/sec"
    return f"{x / k / k / k:f} GB/sec"


def counter_figures(c: Config) -> dict[str, float]:
    """pmu=: each sampled event's mean per fault and per 4 KiB page
    (counters.py); none for a damaged configuration."""
    n = counters.of(c)
    return n.figures() if n is not None and not c.problems else {}


def cpu_times(measured: list[Record], hz: int) -> dict[str, float]:
    """This CPU's (this process's) system and user time per measured pass,
    mean in seconds: getrusage()'s in the companion's run records, else its
    faults' and accesses' TSC ticks (the kernel's part and the user's)."""
    def per_run(us_key: str, ticks_key: str) -> float:
        v = [r.int(us_key) / 1e6 if us_key in r.f else
             r.int(ticks_key, 0) / hz if hz else math.nan for r in measured]
        return statistics.mean(v) if v else math.nan
    return {"stime_s_mean": per_run("stime_us", "fault_ticks"),
            "utime_s_mean": per_run("utime_us", "access_ticks")}


def zeroing_figures(boot: Boot, c: Config) -> dict[str, object]:
    """Where the zeroing went (docs/prezero-report.md), each a mean per
    measured pass in ms, net of the timer: the time to fault the region
    (the faults' total), the zeroing left in the faults (their clears'
    total: 0 for a fault served by a folio zeroed in advance), the zeroing
    done ahead (prezero_ticks, each folio's timed pair off) and by whom,
    and the two together; the faults served pre-zeroed, in %.  Nothing
    ahead under prezero=none; unknown (empty) where prezero is unrecorded
    (the companion's), and every figure empty for a damaged configuration."""
    hz, o, mode = tsc_hz(boot), timer_ticks(boot), c.dims.get("prezero")
    ms = c.measured if not c.problems else []

    def per_run(key: str, ticks: Callable[[Record], int]) -> float:
        v = [ticks(r) for r in ms]
        return (statistics.fmean(v) * 1e3 / hz if v and hz and all(key in r.f for r in ms)
                else math.nan)

    faults = sum(r.int("faults", 0) for r in ms)
    fault = per_run("fault_ticks", lambda r: run_ticks(boot, c, r, "fault"))
    inline = per_run("clear_ticks", lambda r: run_ticks(boot, c, r, "clear"))
    ahead, pct, by, rate = math.nan, math.nan, "", math.nan
    if mode == "none" and ms and not any("prezero_by" in r.f for r in ms):
        ahead, pct, by = 0.0, 0.0 if faults else math.nan, "none"
    elif mode is not None and ms and all("prezero_by" in r.f for r in ms):
        ahead = per_run("prezero_ticks", lambda r: max(
            0, r.int("prezero_ticks", 0) - r.int("prezero_folios", 0) * o))
        # Linux does not say which faults found a zeroed page: unknown.
        pct = 100.0 * sum(r.int("prezeroed_faults", 0) for r in ms) / faults \
            if faults and all("prezeroed_faults" in r.f for r in ms) else math.nan
        by = ",".join(dict.fromkeys(r.f["prezero_by"] for r in ms))
        rate = ahead_gbps(c, ms, hz, o)
    return {"prezeroed_pct": pct, "prezero_by": by, "fault_ms_per_run": fault,
            "inline_clear_ms_per_run": inline, "prezero_ms_per_run": ahead,
            "zeroing_ms_per_run": inline + ahead,
            "prezero_gbps": rate if mode not in (None, "none") else math.nan,
            **zeroer_figures(ms, hz)}


# The kernel's counts of the zeroing ahead (docs/prezero.md, "Records"):
# columns only where a row has them, so older logs export as before.
ZEROER_COLUMNS = tuple(fields.csv_names("zeroer"))


def zeroer_figures(ms: list[Record], hz: int) -> dict[str, object]:
    """Per measured pass, mean: the faults that waited for a folio a zeroer
    held, the time they waited (ms, raw ticks: a wait is not a timed pair),
    and the resched points the zeroing ahead took.  Empty where a pass lacks
    them (prezero=none, the companion's, older logs)."""
    if not ms or not all("prezero_waits" in r.f for r in ms):
        return {k: "" for k in ZEROER_COLUMNS}
    wait = statistics.fmean(r.int("prezero_wait_ticks") for r in ms)
    return {"prezero_waits_per_run": statistics.fmean(r.int("prezero_waits") for r in ms),
            "prezero_wait_ms_per_run": wait * 1e3 / hz if hz else math.nan,
            "prezero_resched_per_run": statistics.fmean(r.int("prezero_resched", 0)
                                                        for r in ms)}


def ahead_gbps(c: Config, ms: list[Record], hz: int, o: int) -> float:
    """The rate of the zeroing done ahead (the request's, the refill's):
    the folios it zeroed over its ticks, each folio's timed pair off."""
    folios = sum(r.int("prezero_folios", 0) for r in ms)
    ticks = sum(max(0, r.int("prezero_ticks", 0) - r.int("prezero_folios", 0) * o)
                for r in ms)
    size, n = c.rec.int("size", 0), c.rec.int("folios", 0)
    if not folios or not ticks or not hz or not n:
        return math.nan
    return folios * (size / n) / (ticks / hz) / GIB


def probe_figures(boot: Boot, c: Config, us: Callable[[float], float]) -> dict[str, object]:
    """probe=latency: its wake-up lateness over the measured runs, and the
    wake-ups expected but not had.  Empty where there was no probe."""
    late = measured_samples(boot, c, "probe")
    keys = ("probe_us_median", "probe_us_p99", "probe_us_p999", "probe_us_max")
    if not late and not any("probe_wakeups" in r.f for r in c.measured):
        return {k: "" for k in keys + ("probe_lost",)}
    lost = sum(max(0, r.int("probe_expected", 0) - r.int("probe_wakeups", 0))
               for r in c.measured)
    vals = (statistics.median(late), pct(late, 99), pct(late, 99.9), late[-1]) \
        if late else (math.nan,) * 4
    return {**{k: us(v) for k, v in zip(keys, vals)}, "probe_lost": lost}


def roof_key(r: dict[str, object]) -> tuple[object, ...]:
    """What a row's roof is taken over: its boot, folio size and cache
    state (a warm row that fits in the LLC clears a cache, not memory, so
    it sets no roof for cold rows).  A row without a cache state (an older
    companion's) shares its roof with the others that have none.  Linux's
    demand fault (cache=linux: Linux picks the folios, fresh pages whose
    lines are not cached) is held against the cold roof."""
    d = r.get("dims") or {}
    cache = d.get("cache", "") if isinstance(d, dict) else ""
    return (r["boot"], r["folio"], "cold" if cache == "linux" else cache)


def roof_of(boot: Boot) -> str:
    """What @boot's roofs are over, in words: 'the folio size', and its
    cache state too where the boot has more than one (with one, the two
    say the same, and older reports said the first)."""
    states = {dims.of(r.f).get("cache", "") for r in boot.records if r.type == "config"}
    return "the folio size and cache state" if len(states) > 1 else "the folio size"


def add_roof(rows: list[dict[str, object]]) -> None:
    """Each row's rate as a fraction of the best clearing rate of its boot,
    folio size and cache state (the row's 'roof'): how far from the
    hardware, like with like."""
    best: dict[tuple[object, ...], float] = {}
    for r in rows:
        v = r["clear_gbps_mean"]
        if r["status"] == "ok" and isinstance(v, float) and not math.isnan(v):
            k = roof_key(r)
            best[k] = max(best.get(k, 0.0), v)
    for r in rows:
        top, g = best.get(roof_key(r)), r["gbps_mean"]
        if top and isinstance(g, float) and not math.isnan(g):
            r["roof"] = g / top


def pairs(boot: Boot) -> list[tuple[Config, dict[str, object]]]:
    """Every configuration of @boot with its row, roofs filled in."""
    out = [(c, row(boot, c)) for c in configs(boot)]
    add_roof([r for _, r in out])
    return out


def boot_rows(boot: Boot) -> list[dict[str, object]]:
    return [r for _, r in pairs(boot)]


def rows(boots: list[Boot]) -> list[dict[str, object]]:
    return [r for b in boots for r in boot_rows(b)]


def extra_dims(rs: list[dict[str, object]], have: list[str]) -> list[str]:
    """Dimensions of @rs that are not among @have: a field a newer log has."""
    return [k for k in dims.names([r["dims"] for r in rs])  # type: ignore[misc]
            if k not in have]


def csv_columns(rs: list[dict[str, object]]) -> list[str]:
    """CSV_COLUMNS, any dimension newer than them, the zeroers' counts
    where a row has them, the counters', perf bench's, then fields only
    newer logs have, where a row has them."""
    zeroer = [k for k in ZEROER_COLUMNS if any(r.get(k, "") != "" for r in rs)]
    perf = [k for k in PERFBENCH_COLUMNS if any(k in r for r in rs)]
    newer = [k for k in NEWER_COLUMNS if any(r.get(k, "") != "" for r in rs)]
    return (CSV_COLUMNS + extra_dims(rs, CSV_COLUMNS) + zeroer
            + counters.columns(rs) + perf + newer)


# `--rows samples`' columns before the dimensions and after them,
# declared in fields.py.
SAMPLE_COLUMNS = fields.csv_names("row", "csv-samples")
SAMPLE_AFTER = fields.csv_names("after", "csv-samples")
# Last, where a row has them (order=tree's entry).
SAMPLE_NEWER = fields.csv_names("newer", "csv-samples")


def sample_rows(boots: list[Boot]) -> list[dict[str, object]]:
    """One row per raw sample of every measured run of an intact configuration,
    with every dimension of its configuration."""
    out: list[dict[str, object]] = []
    for b in boots:
        hz, o = tsc_hz(b), timer_ticks(b)
        for c in configs(b):
            if c.problems:
                continue
            measured = {r.int("run") for r in c.measured}
            f = c.rec.f
            common = {**c.dims, "boot": b.index, "cfg": c.rec.int("cfg"),
                      "cpu": cpu_of(f, c.dims), "group": f.get("group", ""),
                      "name": f.get("name"), "chunk": chunk_name(c.rec.int("chunk", 0)),
                      "backing": f.get("backing", ""), "timer_ticks": o,
                      **entry_fields(b, f)}
            for (run, kind), vals in sorted(c.samples.items()):
                if run not in measured:
                    continue
                timed = hz and is_time(kind)
                for i, (v, o) in enumerate(zip(vals, sample_timers(b, c, run, kind))):
                    out.append({
                        **common, "run": run, "kind": kind, "index": i, "ticks": v,
                        "us": round(v * 1e6 / hz, 4) if timed else "",
                        "net_us": round(max(0, v - o) * 1e6 / hz, 4) if timed else "",
                        "timer_ticks": o if timed else "",
                    })
    return out


def sample_columns(srows: list[dict[str, object]]) -> list[str]:
    """SAMPLE_COLUMNS, every known dimension, SAMPLE_AFTER, any other the
    rows have, then SAMPLE_NEWER where a row has them."""
    known = SAMPLE_COLUMNS + [k for k in dims.ORDER if k not in SAMPLE_COLUMNS] + SAMPLE_AFTER
    newer = [k for k in SAMPLE_NEWER if any(k in r for r in srows)]
    return known + sorted({k for r in srows for k in r} - set(known) - set(newer)) + newer
