# SPDX-License-Identifier: GPL-2.0-only
"""perf bench mem mmap's figure beside the companion's own: the host
tools' arithmetic (results.perfbench_figures, perf_bps) on synthetic pass
timings, against perf's arithmetic written again here from
tools/perf/bench/mem-functions.c; `split`, `table` and `parse` showing it
only where the records carry wall_ns; and what every +- is in `split`,
`compare` and `table`."""
from __future__ import annotations

import io
import math
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import compare, records, results, selection, split, table  # noqa: E402
from synth import Log  # noqa: E402

COMPANION = "version=0.3 loader=hugezero-linux firmware=linux"
HOST = "kernel=6.18.0 cpu=1 vm=0 clocksource=tsc preempt=full"
SIZE = 64 << 20             # 32 folios of 2M
NS = 10 ** 9


def perf_bytes_per_sec(size: int, loops: list[tuple[int, int]]) -> float:
    """perf's own, for one thread (do_mmap_thread, clock_diff, clock_accum,
    timeval2double, __bench_mem_function): each loop's start and end as
    gettimeofday() reads them, whole microseconds; timersub() into the
    loop's time, timeradd() into the sum; size * nr_loops over the sum in
    seconds, divided by nr_threads (1)."""
    def tv(ns: int) -> tuple[int, int]:
        return ns // NS, ns % NS // 1000

    acc_s, acc_us = 0, 0
    for start, end in loops:
        (s_s, s_us), (e_s, e_us) = tv(start), tv(end)
        d_s, d_us = e_s - s_s, e_us - s_us
        if d_us < 0:
            d_s, d_us = d_s - 1, d_us + 1000000
        acc_s, acc_us = acc_s + d_s, acc_us + d_us
        if acc_us >= 1000000:
            acc_s, acc_us = acc_s + 1, acc_us - 1000000
    return size * len(loops) / ((acc_s + acc_us / 1e6) / 1)


def perf_prints(x: float) -> str:
    """print_bps(): ' %14lf GB/sec' and its smaller units (K = 1024)."""
    k = 1024
    text = (" %14f bytes/sec" % x if x < k else " %14fd KB/sec" % (x / k) if x < k * k
            else " %14f MB/sec" % (x / k / k) if x < k * k * k
            else " %14f GB/sec" % (x / k / k / k))
    return text.strip()


# The loops: a slow first one (the hypervisor's first touch of guest
# memory), then three; the clock at each start and end, whole microseconds.
LOOPS = [(5 * NS, 5 * NS + 205_000_000), (6 * NS, 6 * NS + 6_400_000),
         (7 * NS, 7 * NS + 6_700_000), (8 * NS, 8 * NS + 6_550_000)]


def fault_log(access: str = "none", walls: bool = True, preset: bool = False,
              measured_runs: int = 3, backing: str = "hugetlb") -> Log:
    """A companion's linux-fault 2M hugetlb configuration (warmups=1) with
    its passes' wall times, and a bare erms pair for the split and the
    seed-001 table; the faults' TSC windows (1 GHz) a little inside each
    pass's wall time."""
    log = Log(boot=COMPANION, host=HOST,
              timebase="tsc_hz=1000000000 source=clock_monotonic_raw overhead_median=0")
    if preset:
        log.add("preset", 'name=seed-001 seed="001: a thread" side=linux keys="bench=split" '
                'chose="size=64M" why="half the free memory" scaled="64 MiB" linux_clear=erms')
    common = f"folio=2M chunk=0 size={SIZE} folios=32 touch=seq offset=first cache=linux"
    log.cfgs += 1
    log.add("config", f"cfg=1 name=linux.2M.{backing} bench=linux-fault clear=linux "
            f"order=linux backing={backing} access={access} warmups=1 runs={measured_runs} "
            f"{common}")
    for i, (start, end) in enumerate(LOOPS[:1 + measured_runs]):
        per = (end - start) * 9 // 10 // 32
        wall = f" wall_ns={end - start}" if walls else ""
        log.add("run", f"cfg=1 run={i} pass={'warmup' if i == 0 else 'measure'} "
                f"access={access} faults=32 resched=0 fault_ticks={per * 32}{wall}")
        if i:
            log.add("samples", f"cfg=1 run={i} kind=fault first=0 v={','.join([str(per)] * 32)} "
                    "n=32")
    log.add("summary", f"cfg=1 status=ok runs={measured_runs}")
    for order, t in (("converging-page", 200000), ("contiguous-page", 100000)):
        log.config(f"name=bare.2M.erms.{order} bench=bare clear=erms order={order} "
                   f"backing=hugetlb access=none {common.replace('cache=linux', 'cache=cold')}",
                   [{"clear": [t] * 32}, {"clear": [t + 10000] * 32}])
    return log


def boots(*logs: Log) -> list[records.Boot]:
    return [b for log in logs for b in records.parse(log.text())]


def fault_row(log: Log) -> dict[str, object]:
    return next(r for r in results.rows(boots(log)) if r["bench"] == "linux-fault")


class PerfFigure(unittest.TestCase):
    def test_as_perf_computes_it(self) -> None:
        r = fault_row(fault_log())
        perf = perf_bytes_per_sec(SIZE, LOOPS) / (1 << 30)
        self.assertAlmostEqual(float(r["perfbench_gbps"]), perf, places=9)  # type: ignore[arg-type]
        self.assertEqual(r["perfbench_loops"], 4)
        self.assertAlmostEqual(float(r["perfbench_first_gbps"]),  # type: ignore[arg-type]
                               perf_bytes_per_sec(SIZE, LOOPS[:1]) / (1 << 30), places=9)
        self.assertAlmostEqual(float(r["perfbench_measured_gbps"]),  # type: ignore[arg-type]
                               perf_bytes_per_sec(SIZE, LOOPS[1:]) / (1 << 30), places=9)
        # Not the companion's own: that leaves the warm-up out and
        # averages the runs' rates over their faults' windows.
        self.assertGreater(float(r["gbps_mean"]), 3 * float(r["perfbench_gbps"]))  # type: ignore[arg-type]

    def test_printed_as_perf_prints(self) -> None:
        for x in (9.27 * (1 << 30), 1.24 * (1 << 30), 0.31 * (1 << 30), 12345.0, 17.0):
            self.assertEqual(results.perf_bps(x), perf_prints(x))
        self.assertEqual(results.perf_bps(1 << 30), "1.000000 GB/sec")
        self.assertEqual(results.perf_bps(math.nan), "n/a")

    def test_an_access_in_the_window_is_not_perfs_loop(self) -> None:
        r = fault_row(fault_log(access="write"))
        self.assertTrue(math.isnan(float(r["perfbench_gbps"])))  # type: ignore[arg-type]
        out = io.StringIO()
        split.write(boots(fault_log(access="write")), out)
        self.assertIn("as perf prints it: not perf's loop", out.getvalue())

    def test_older_logs_say_nothing_new(self) -> None:
        log = fault_log(walls=False, preset=True)
        r = fault_row(log)
        self.assertFalse(any(k.startswith("perfbench") for k in r))
        self.assertFalse([c for c in results.csv_columns(results.rows(boots(log)))
                          if c.startswith("perfbench")])
        out = io.StringIO()
        split.write(boots(log), out)
        self.assertNotIn("as perf", out.getvalue())
        out = io.StringIO()
        table.write(boots(log), "text", out)
        self.assertNotIn("as perf", out.getvalue())

    def test_only_hugetlb_rows_have_perfs_figure(self) -> None:
        """perf bench mem mmap maps hugetlb pages only (-p 2MB|1GB:
        MAP_HUGETLB): a thp or base row has wall times but no perf figure,
        absent everywhere, neither 0 nor a dash."""
        for backing in ("thp", "base"):
            log = fault_log(backing=backing, preset=True)
            r = fault_row(log)
            self.assertEqual(r["backing"], backing)
            self.assertFalse([k for k in r if k.startswith("perfbench")], backing)
            self.assertFalse([c for c in results.csv_columns(results.rows(boots(log)))
                              if c.startswith("perfbench")], backing)
            out = io.StringIO()
            split.write(boots(log), out)
            self.assertNotIn("as perf", out.getvalue(), backing)
            self.assertNotIn("GB/sec", out.getvalue(), backing)
            out = io.StringIO()
            table.write(boots(log), "text", out)
            self.assertIn("Linux", out.getvalue(), backing)
            self.assertNotIn("as perf", out.getvalue(), backing)
        # a thp row beside a hugetlb one: the column, the hugetlb figure alone
        both = fault_log(preset=True)
        both.cfgs += 1
        both.add("config", "cfg=9 name=linux.2M.thp bench=linux-fault clear=linux order=linux "
                 "backing=thp access=none warmups=0 runs=1 folio=2M chunk=0 "
                 f"size={SIZE} folios=32 touch=seq offset=first cache=linux")
        both.add("run", "cfg=9 run=0 pass=measure access=none faults=32 resched=0 "
                 "fault_ticks=3200000 wall_ns=4000000")
        both.add("samples", f"cfg=9 run=0 kind=fault first=0 v={','.join(['100000'] * 32)} n=32")
        both.add("summary", "cfg=9 status=ok runs=1")
        out = io.StringIO()
        table.write(boots(both), "text", out)
        text = out.getvalue()
        self.assertIn("as perf bench mem mmap prints it", text)
        self.assertIn("hugetlb 1.", text)
        self.assertNotIn("thp n/a", text)
        rows = {r["backing"]: r for r in results.rows(boots(both))
                if r["bench"] == "linux-fault"}
        self.assertIn("perfbench_gbps", rows["hugetlb"])
        self.assertNotIn("perfbench_gbps", rows["thp"])

    def test_csv_has_the_columns_when_there(self) -> None:
        cols = results.csv_columns(results.rows(boots(fault_log())))
        self.assertEqual(cols[-4:], results.PERFBENCH_COLUMNS)


class Shown(unittest.TestCase):
    def test_split_line(self) -> None:
        out = io.StringIO()
        self.assertEqual(split.write(boots(fault_log()), out), 0)
        text = out.getvalue()
        want = perf_prints(perf_bytes_per_sec(SIZE, LOOPS))
        first = perf_prints(perf_bytes_per_sec(SIZE, LOOPS[:1]))
        self.assertIn(f"    as perf bench mem mmap prints it: {want} over 4 loops", text)
        self.assertIn(f"the first loop {first}", text)
        self.assertIn("GB/s: the mean of the measured runs' GB/s; +-: the sample standard "
                      "deviation (n - 1) of the per-run GB/s, in % of the mean; n runs: on "
                      "each line, n=N", text)
        self.assertRegex(text, r"Linux demand fault, hugetlb +\d+\.\d\d GB/s \+- +\d+\.\d\d% n=3 ")

    def test_table_column(self) -> None:
        out = io.StringIO()
        self.assertEqual(table.write(boots(fault_log(preset=True)), "text", out), 0)
        text = out.getvalue()
        want = perf_prints(perf_bytes_per_sec(SIZE, LOOPS))
        self.assertIn("as perf bench mem mmap prints it", text)
        self.assertIn(f"hugetlb {want} (4 loops; the first "
                      f"{perf_prints(perf_bytes_per_sec(SIZE, LOOPS[:1]))})", text)
        self.assertIn("+-: the sample standard deviation (n - 1) of the per-run GB/s, in % "
                      "of the mean; n runs: 2 to 3, by figure", text)
        md = io.StringIO()
        table.write(boots(fault_log(preset=True)), "markdown", md)
        self.assertIn(f"| hugetlb {want} (4 loops;", md.getvalue())

    def test_compare_names_its_plus_minus(self) -> None:
        log = fault_log()
        sel = selection.Selectors(selection.parse("a", ["order=converging-page"]),
                                  selection.parse("b", ["order=contiguous-page"]), True)
        out = io.StringIO()
        compare.show(compare.compare(boots(log), boots(log), sel), "", out)
        self.assertIn("+-: the sample standard deviation (n - 1) of the per-run GB/s, in % "
                      "of the mean; n runs: 2\n", out.getvalue())
        # Unequal counts: each row says its own.
        other = fault_log()
        other.config("name=bare.2M.erms.converging-page bench=bare clear=erms "
                      "order=converging-page backing=hugetlb access=none folio=2M chunk=0 "
                      f"size={SIZE} folios=32 touch=seq offset=first cache=cold",
                      [{"clear": [200000] * 32}])
        out = io.StringIO()
        compare.show(compare.compare(boots(other), boots(other), sel), "", out)
        self.assertIn("n runs: on each line, n=A/B", out.getvalue())
        self.assertRegex(out.getvalue(), r"clear=erms .*%.*  n=3/2\n")


if __name__ == "__main__":
    unittest.main()
