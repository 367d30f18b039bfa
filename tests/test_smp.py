# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the host tools on all CPUs at once (docs/smp.md): groups and
their aggregates from synthetic two- and four-CPU logs of the kernel and
the companion, damaged groups, refused passes, the seed-shaped table, the
CPU table, CSV columns, compare and the scaling figure."""
from __future__ import annotations

import csv
import importlib.util
import io
import json
import math
import statistics
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hzlib import compare, cpulist, groups, plot, records, report, results, selection, split  # noqa: E402

from synth import Log, kernel_config  # noqa: E402

GIB = 1 << 30
SIZE = 4194304                              # kernel_config's, per CPU
MS = 1_000_000                              # ticks of the synthetic 1 GHz TSC

# Per CPU, two measured passes: faults and accesses in ticks.
CPU_RUNS = [{"fault": [2 * MS, 2 * MS], "clear": [MS, MS], "access": [MS // 2, MS // 2]},
            {"fault": [3 * MS, 3 * MS], "clear": [MS, MS], "access": [MS, MS]}]
WALLS = [4 * MS, 8 * MS]

COMPANION = 'version=0.3 format=2 loader=hugezero-linux firmware=linux cmdline="bench=linux-fault"'
HOST = "kernel=6.18.0 clocksource=tsc preempt=none init_on_alloc=0"


def kernel_smp(ncpus: int = 2, **kw: object) -> Log:
    """A kernel boot of @ncpus CPUs running one configuration together."""
    return Log().smp(ncpus).group(kernel_config(access="write"),
                                  {c: CPU_RUNS for c in range(ncpus)}, WALLS, **kw)  # type: ignore[arg-type]


def companion_smp(ncpus: int = 2) -> Log:
    """The companion: one process per CPU, rusage in µs per pass."""
    body = ("name=linux.2M.hugetlb bench=linux-fault folio=2M clear=linux order=linux "
            f"chunk=0 radius=0 backing=hugetlb size={SIZE} folios=2 touch=seq offset=first "
            "access=write cache=linux fill=none pte=linux cpl=3 warmups=1 runs=2 seed=1 "
            "inject=none preempt=none")
    runs = [{"fault": [2 * MS, 2 * MS], "access": [MS, MS]}] * 2
    return Log(boot=COMPANION, host=HOST).group(
        body, {c: runs for c in range(ncpus)}, WALLS,
        rusage=[(3000 * ncpus, 1500 * ncpus), (5000 * ncpus, 2500 * ncpus)])


def report_text(text: str) -> str:
    out = io.StringIO()
    report.write(records.parse(text), out)
    return out.getvalue()


def group_rows(text: str) -> list[dict[str, object]]:
    return groups.rows(records.parse(text))


def without(text: str, needle: str) -> str:
    """@text less its first line holding @needle: a record lost on the wire."""
    lines = text.splitlines(keepends=True)
    i = next(i for i, ln in enumerate(lines) if needle in ln)
    return "".join(lines[:i] + lines[i + 1:])


class AggregateTest(unittest.TestCase):
    def test_two_cpu_kernel_numbers(self) -> None:
        (g,) = group_rows(kernel_smp(2).text())
        self.assertEqual((g["status"], g["cpus"], g["ncpus"], g["runs"]), ("ok", "0-1", 2, 2))
        self.assertEqual(g["bytes"], 2 * SIZE)
        # 8 MiB over 4 ms and 8 ms: 1.953125 and 0.9765625 GiB/s.
        per = [2 * SIZE / (w / 1e9) / GIB for w in WALLS]
        self.assertEqual(per, [1.953125, 0.9765625])
        self.assertEqual(g["gbps_runs"], per)
        self.assertAlmostEqual(g["gbps_mean"], 1.46484375)
        self.assertAlmostEqual(g["gbps_stddev_pct"],
                               100 * statistics.stdev(per) / statistics.fmean(per))
        # stime: both CPUs' faults, 8 ms then 12 ms; utime: accesses, 2 ms then 4 ms.
        self.assertAlmostEqual(g["stime_s_mean"], 0.010)
        self.assertAlmostEqual(g["stime_stddev_pct"], 100 * statistics.stdev([8, 12]) / 10)
        self.assertAlmostEqual(g["utime_s_mean"], 0.003)
        self.assertEqual(g["times_from"], "ticks")
        self.assertEqual(g["notes"], [])

    def test_four_cpus_of_two_nodes(self) -> None:
        log = Log().smp(4, nodes=2).group(kernel_config(), {c: CPU_RUNS for c in range(4)},
                                          WALLS, nodes=2, numa="remote")
        text = log.text()
        (g,) = group_rows(text)
        self.assertEqual((g["ncpus"], g["bytes"], g["numa"]), (4, 4 * SIZE, "remote"))
        self.assertAlmostEqual(g["gbps_runs"][0], 4 * SIZE / 4e-3 / GIB)
        self.assertAlmostEqual(g["stime_s_mean"], 0.020)
        rows = results.rows(records.parse(text))
        self.assertEqual([(r["cpu"], r["node"], r["mem_node"]) for r in rows],
                         [("0", "0", "1"), ("1", "1", "0"), ("2", "0", "1"), ("3", "1", "0")])

    def test_companion_rusage(self) -> None:
        (g,) = group_rows(companion_smp(2).text())
        self.assertEqual(g["times_from"], "rusage")
        # stime_us 6000 and 10000: 8 ms; utime 3000 and 5000 µs: 4 ms.
        self.assertAlmostEqual(g["stime_s_mean"], 0.008)
        self.assertAlmostEqual(g["utime_s_mean"], 0.004)
        self.assertAlmostEqual(g["gbps_mean"], statistics.fmean([1.953125, 0.9765625]))

    def test_refused_pass_keeps_times_not_gbps(self) -> None:
        (g,) = group_rows(kernel_smp(2, refused={1: "TSC skew 3000 ticks above the bound"}).text())
        self.assertEqual((g["status"], g["runs"], g["refused_runs"]), ("ok", 2, 1))
        self.assertEqual(g["gbps_runs"], [1.953125])
        self.assertAlmostEqual(g["gbps_mean"], 1.953125)
        self.assertNotEqual(g["gbps_stddev_pct"], g["gbps_stddev_pct"])   # one pass: none
        self.assertAlmostEqual(g["stime_s_mean"], 0.010)                 # both passes
        self.assertEqual(g["refused"], "TSC skew 3000 ticks above the bound")
        text = report_text(kernel_smp(2, refused={0: "a CPU did not finish",
                                                  1: "a CPU did not finish"},
                                      status="refused").text())
        self.assertRegex(text, r"contiguous-page +10\.00 \( \+- 28\.28% \) +3\.00 "
                         r"\( \+- 47\.14% \) +refused  2 \(2 refused\)")
        self.assertIn("pass 1 refused: a CPU did not finish (stime and utime kept, no GB/s)", text)
        self.assertIn("refused: group 1", text)

    def test_start_skew_in_cpu0_time(self) -> None:
        """The kernel's skew less the TSC offsets, to +- their error."""
        (g,) = group_rows(kernel_smp(2, skew=1200, corr=(1500, 20)).text())
        self.assertAlmostEqual(g["start_skew_us_max"], 1.2)
        self.assertAlmostEqual(g["start_skew_corr_us_max"], 1.5)
        self.assertAlmostEqual(g["start_skew_err_us_max"], 0.02)
        self.assertEqual([(p["start_skew_us"], p["start_skew_corr_us"], p["start_skew_err_us"])
                          for p in g["passes"]], [(1.2, 1.5, 0.02)] * 2)

    def test_older_log_has_the_skew_as_read(self) -> None:
        """No start_skew_corr_ticks (an older kernel, the companion): the
        skew as read in the rows, nothing corrected, nothing damaged; the
        report's table as it always was, without the column."""
        (g,) = group_rows(kernel_smp(2, skew=1200).text())
        self.assertEqual(g["status"], "ok")
        self.assertAlmostEqual(g["start_skew_us_max"], 1.2)
        self.assertTrue(math.isnan(g["start_skew_corr_us_max"]))
        self.assertTrue(math.isnan(g["start_skew_err_us_max"]))
        line = next(ln for ln in report_text(kernel_smp(2, skew=1200).text()).splitlines()
                    if ln.startswith("contiguous-page"))
        self.assertTrue(line.endswith("1.46 ( +- 47.14% )  2"), line)

    def test_cross_check_of_the_writer(self) -> None:
        text = kernel_smp(2).text().replace("stime_ticks=8000000 ", "stime_ticks=7999999 ")
        text = "".join(ln if " agg " not in ln else _resign(ln) for ln in
                       text.splitlines(keepends=True))
        (g,) = group_rows(text)
        self.assertEqual(g["status"], "ok")
        self.assertEqual(g["notes"], ["pass 0: stime_ticks=7999999, the CPUs' fault_ticks "
                                      "sum to 8000000"])


def _resign(line: str) -> str:
    """@line with its checksum made right again (a writer's own mistake)."""
    import zlib
    head = line[: line.rindex("#")]
    return f"{head}#{zlib.crc32(head.encode()):08x}\n"


class DamageTest(unittest.TestCase):
    def assert_damaged(self, text: str, why: str) -> None:
        boots = records.parse(text)
        self.assertTrue(boots[0].problems)
        (g,) = groups.rows(boots)
        self.assertEqual(g["status"], "damaged")
        self.assertIn(why, g["reason"])
        # Never numbers from lost records.
        self.assertEqual((g["runs"], g["gbps_runs"]), (0, []))
        self.assertNotEqual(g["gbps_mean"], g["gbps_mean"])
        out = io.StringIO()
        report.write(boots, out)
        self.assertIn(f"damaged: group 1: ", out.getvalue())
        self.assertNotIn("1.46", out.getvalue().split("aggregate of each group")[1])

    def test_a_cpu_config_lost(self) -> None:
        self.assert_damaged(without(kernel_smp(2).text(), "config cfg=2 "),
                            "CPU 1's records are missing")

    def test_a_cpu_sample_lost(self) -> None:
        self.assert_damaged(without(kernel_smp(2).text(), "samples cfg=2 run=1 kind=access"),
                            "CPU 1's records are damaged")

    def test_an_agg_record_lost(self) -> None:
        self.assert_damaged(without(kernel_smp(4).text(), " agg group=1 run=1 "),
                            "no agg record of pass 1")

    def test_agg_summary_lost_is_incomplete(self) -> None:
        text = kernel_smp(2).text()
        cut = text[: text.index(" agg_summary ")]
        cut = cut[: cut.rindex("\n") + 1]
        (g,) = group_rows(cut)
        self.assertEqual(g["status"], "incomplete")
        self.assertIn("no agg_summary record", g["reason"])


class ReportTest(unittest.TestCase):
    def test_seed_shaped_table_kernel(self) -> None:
        log = Log().smp(2, offsets=[0, -40])
        for order in ("discontiguous-page", "contiguous-page"):
            log.group(kernel_config(order=order, access="write"), {0: CPU_RUNS, 1: CPU_RUNS},
                      WALLS, skew=1460, corr=(1500, 10))
        text = report_text(log.text())
        self.assertIn("smp: 2 of 2 processors up, 1 NUMA node(s) (no SLIT), TSC skew 50 ticks "
                      "(bound 1000): sync ok", text)
        self.assertIn("   1       2    0 up              0         -40 +- 10              0\n",
                      text)
        agg = text.split("aggregate of each group")[1]
        self.assertIn("the CPUs' fault and access TSC ticks", agg)
        self.assertIn("bench=fault folio=2M clear=erms size=4M per CPU", agg)
        self.assertIn("cpus=0-1 (2 CPUs) numa=local", agg)
        lines = agg.splitlines()
        head = next(ln for ln in lines if ln.startswith("order"))
        self.assertEqual(head.split(), ["order", "stime", "(ms)", "utime", "(ms)", "GB/s",
                                        "passes", "start", "skew", "(us)"])
        self.assertIn("discontiguous-page       10.00 ( +- 28.28% )      3.00 ( +- 47.14% )"
                      "      1.46 ( +- 47.14% )  2                    1.50 +- 0.01", lines)
        self.assertIn("contiguous-page          10.00 ( +- 28.28% )      3.00 ( +- 47.14% )"
                      "      1.46 ( +- 47.14% )  2                    1.50 +- 0.01", lines)
        self.assertIn("in CPU 0's time +- the TSC offsets' error", agg)

    def test_per_cpu_lines(self) -> None:
        text = report_text(Log().smp(2, nodes=2).group(
            kernel_config(), {0: CPU_RUNS, 1: CPU_RUNS}, WALLS, nodes=2).text())
        self.assertIn("grp cpu node mem_node   folio order", text)
        per_cpu = [ln for ln in text.splitlines() if ln.startswith("  1   ")]
        self.assertEqual([ln.split()[:4] for ln in per_cpu],
                         [["1", "0", "0", "0"], ["1", "1", "1", "1"]])
        # Each CPU's own figures: 4 MiB over its 4 ms and 6 ms of faults.
        self.assertTrue(all(" 0.81 +- 28.28% " in ln for ln in per_cpu), per_cpu)
        # ... and its own stime and utime, mean per pass: faults 4 and 6 ms,
        # accesses 1 and 2 ms.
        self.assertIn("|  stime ms  utime ms", text)
        self.assertTrue(all(ln.endswith("|      5.00      1.50") for ln in per_cpu), per_cpu)

    def test_seed_shaped_table_companion(self) -> None:
        text = report_text(companion_smp(2).text())
        agg = text.split("aggregate of each group")[1]
        self.assertIn("getrusage() ru_stime and ru_utime of the processes", agg)
        # No skew column: Linux publishes no TSC offsets to correct it by,
        # and a raw skew across CPUs' TSCs is not a figure to show.
        self.assertIn("linux                     8.00 ( +- 35.36% )      4.00 ( +- 35.36% )"
                      "      1.46 ( +- 47.14% )  2", agg.splitlines())
        self.assertNotIn("smp:", text)      # the companion writes no cpu/smp records

    def test_units_follow_the_figures(self) -> None:
        big = [{"fault": [2 * 10**9, 2 * 10**9], "access": [10**9, 10**9]}] * 2
        text = report_text(Log().group(kernel_config(access="write"), {0: big, 1: big},
                                       [5 * 10**9, 5 * 10**9]).text())
        self.assertIn("stime (s)", text)
        self.assertRegex(text, r"contiguous-page +8\.00 \( \+-  0\.00% \) +4\.00 ")

    def test_older_log_has_no_smp_parts(self) -> None:
        text = report_text(Log().config(kernel_config(), CPU_RUNS).text())
        self.assertNotIn("aggregate of each group", text)
        self.assertNotIn("grp cpu", text)


class PairingTest(unittest.TestCase):
    def test_cpus_of_a_group_are_never_pooled(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            p = Path(d, "a.log")
            p.write_text(kernel_smp(4).text())
            boots = compare.load(str(p))
            table = compare.table(boots)
            agg = compare.agg_table(boots)
        self.assertEqual(sorted(dict(k)["cpu"] for k in table), ["0", "1", "2", "3"])
        self.assertEqual([len(v.runs) for v in table.values()], [2, 2, 2, 2])
        self.assertEqual([len(v.runs) for v in agg.values()], [2])

    def compare_rc(self, a: str, b: str, sel_a: list[str] | None = None,
                   sel_b: list[str] | None = None) -> tuple[int, str]:
        with tempfile.TemporaryDirectory() as d:
            pa, pb = Path(d, "a.log"), Path(d, "b.log")
            pa.write_text(a)
            pb.write_text(b)
            out = io.StringIO()
            rc = compare.write(str(pa), str(pb), out, sel_a, sel_b)
            return rc, out.getvalue()

    def compare_text(self, a: str, b: str) -> str:
        return self.compare_rc(a, b)[1]

    def test_compare_lists_a_failed_group(self) -> None:
        """A group that failed is left out of the aggregates, said so with
        its group and CPUs, and the exit status is 1; a refused one is a
        defined outcome: listed, exit 0."""
        rc, text = self.compare_rc(kernel_smp(2).text(), kernel_smp(2, status="fail").text())
        self.assertEqual(rc, 1, text)
        self.assertRegex(text, r"left out of B, not compared:\n  fail boot 0 group=1 cpus=0-1 ")
        rc, text = self.compare_rc(kernel_smp(2).text(),
                                   kernel_smp(2, status="refused").text())
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r"\n  refused boot 0 group=1 cpus=0-1 ")

    def test_compare_leaves_unselected_failures_alone(self) -> None:
        """--a/--b: a failure in a configuration neither side selects is
        not the comparison's loss."""
        log = Log()
        for clear in ("rep", "erms"):
            log.config(kernel_config(clear=clear, name=f"2M.{clear}.contiguous-page"), CPU_RUNS)
        log.cfgs += 1
        log.add("config", f"cfg={log.cfgs} "
                + kernel_config(clear="movnti", name="2M.movnti.contiguous-page"))
        log.add("summary", f'cfg={log.cfgs} status=fail runs=0 reason="verify failed"')
        text = log.text()
        rc, out = self.compare_rc(text, text, ["clear=rep"], ["clear=erms"])
        self.assertEqual(rc, 0, out)
        self.assertNotIn("left out", out)
        # Selecting only what failed: refused (exit 2), saying it failed.
        with self.assertRaisesRegex(selection.SelectError,
                                    r"--b clear=movnti: no configuration of B has it; .*"
                                    r"left out as not ok: fail boot 0 cfg=3 .*verify failed"):
            self.compare_rc(text, text, ["clear=rep"], ["clear=movnti"])

    def test_compare_pairs_cpu_by_cpu_and_aggregates(self) -> None:
        faster = Log().smp(2).group(kernel_config(access="write"), {0: CPU_RUNS, 1: CPU_RUNS},
                                    [2 * MS, 4 * MS]).text()
        text = self.compare_text(kernel_smp(2).text(), faster)
        per_cpu, agg = text.split("aggregates, every CPU of a group at once")
        self.assertIn("cpu=0 ", per_cpu)
        self.assertIn("cpu=1 ", per_cpu)
        self.assertIn("+0.0%", per_cpu)
        self.assertIn("    1.46 +- 47.14%     2.93 +- 47.14%   +100.0%", agg)
        self.assertNotIn("cpu=", agg)
        # Two CPUs against four: different configurations (cpus differs).
        text = self.compare_text(kernel_smp(2).text(), kernel_smp(4).text())
        self.assertIn("(B has cpus=0-3 (not 0-1))", text)
        self.assertEqual(text.count("no configuration is in both"), 2)

    def test_older_log_pairs_with_a_one_cpu_group(self) -> None:
        old = Log().config(kernel_config(), CPU_RUNS).text()
        new = Log().smp(1).group(kernel_config(), {0: CPU_RUNS}, WALLS, numa="none").text()
        self.assertIn("~ (p=1.00)", self.compare_text(old, new))

    def test_split_counts_cpus(self) -> None:
        comp = Log(boot=COMPANION, host=HOST).config(
            "name=linux.2M.hugetlb bench=linux-fault folio=2M clear=linux order=linux "
            f"backing=hugetlb chunk=0 size={SIZE} folios=2 touch=seq offset=first "
            "access=none cache=linux fill=none pte=linux cpl=3 seed=1 warmups=1 inject=none",
            [{"fault": [100000, 100000]}])
        kern = Log().smp(2).group(kernel_config(order="converging-page", cache="cold",
                                                pte="linux", preempt="none"),
                                  {0: CPU_RUNS, 1: CPU_RUNS}, WALLS, numa="none")
        boots = records.parse(comp.text()) + records.parse(kern.text())
        for i, b in enumerate(boots):
            b.index = i
        out = io.StringIO()
        split.write(boots, out)
        self.assertIn("differs from the fault's settings: cpus=2 CPUs (not 1 CPU)",
                      out.getvalue())


class ExportTest(unittest.TestCase):
    def parse(self, text: str, *args: str) -> str:
        with tempfile.TemporaryDirectory() as d:
            p = Path(d, "x.log")
            p.write_text(text)
            return subprocess.run([sys.executable, str(ROOT / "scripts/hugezero"), "parse",
                                   str(p), *args], capture_output=True, text=True,
                                  check=True).stdout

    def test_csv_cpu_columns(self) -> None:
        rows = list(csv.DictReader(io.StringIO(self.parse(kernel_smp(2).text(),
                                                          "--format", "csv"))))
        self.assertEqual([(r["cpu"], r["ncpus"], r["node"], r["mem_node"], r["group"],
                           r["cpus"], r["numa"]) for r in rows],
                         [("0", "2", "0", "0", "1", "0-1", "local"),
                          ("1", "2", "0", "0", "1", "0-1", "local")])
        samples = list(csv.DictReader(io.StringIO(self.parse(
            kernel_smp(2).text(), "--format", "csv", "--rows", "samples"))))
        self.assertEqual({(r["cpu"], r["group"]) for r in samples}, {("0", "1"), ("1", "1")})

    def test_agg_rows(self) -> None:
        text = kernel_smp(2, refused={1: "a CPU did not finish"}).text()
        (r,) = list(csv.DictReader(io.StringIO(self.parse(text, "--format", "csv",
                                                          "--rows", "agg"))))
        self.assertEqual(list(r)[:len(groups.AGG_COLUMNS)], groups.AGG_COLUMNS)
        self.assertEqual((r["group"], r["cpus"], r["ncpus"], r["status"], r["runs"],
                          r["refused_runs"], r["gbps_mean"], r["stime_s_mean"],
                          r["times_from"], r["bytes"]),
                         ("1", "0-1", "2", "ok", "2", "1", "1.9531", "0.01", "ticks",
                          str(2 * SIZE)))
        self.assertEqual(r["numa"], "local")
        data = json.loads(self.parse(text, "--rows", "agg"))
        self.assertEqual(data["format"], "hugezero-agg-1")
        (a,) = data["aggregates"]
        self.assertEqual([p["refused"] for p in a["passes"]], ["", "a CPU did not finish"])
        self.assertEqual(a["passes"][1]["gbps"], "")
        full = json.loads(self.parse(text))
        self.assertEqual(len(full["aggregates"]), 1)
        # An older log has no corrected skew: empty, not 0.
        self.assertEqual((r["start_skew_us_max"], r["start_skew_corr_us_max"],
                          r["start_skew_err_us_max"]), ("0.005", "", ""))

    def test_agg_rows_start_skew(self) -> None:
        text = kernel_smp(2, skew=1200, corr=(1500, 20)).text()
        (r,) = list(csv.DictReader(io.StringIO(self.parse(text, "--format", "csv",
                                                          "--rows", "agg"))))
        self.assertEqual((r["start_skew_us_max"], r["start_skew_corr_us_max"],
                          r["start_skew_err_us_max"]), ("1.2", "1.5", "0.02"))
        (a,) = json.loads(self.parse(text, "--rows", "agg"))["aggregates"]
        self.assertEqual([(p["start_skew_us"], p["start_skew_corr_us"], p["start_skew_err_us"])
                          for p in a["passes"]], [(1.2, 1.5, 0.02)] * 2)


class ScalingTest(unittest.TestCase):
    def log(self) -> str:
        log = Log().smp(4)
        for clear, slow in (("erms", 2), ("clzero", 1)):
            for n in (1, 2, 4):
                log.group(kernel_config(clear=clear), {c: CPU_RUNS for c in range(n)},
                          [w * n * slow // 4 + MS for w in WALLS])
        return log.text()

    def test_scaling_figure_is_written(self) -> None:
        try:
            plot.pyplot()
        except plot.PlotError as e:
            self.skipTest(str(e))
        boots = records.parse(self.log())
        with tempfile.TemporaryDirectory() as d:
            paths = plot.write(boots, Path(d), "scaling")
            self.assertEqual(sorted(p.name for p in paths), ["scaling.png", "scaling.svg"])
            self.assertTrue(all(p.stat().st_size > 1000 for p in paths))
            names = [p.name for p in plot.write(boots, Path(d))]
            self.assertIn("scaling.png", names)
            self.assertIn("gbps.png", names)
        # One CPU count only: nothing to scale, and said so.
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(plot.PlotError, "at least two CPU counts"):
                plot.write(records.parse(kernel_smp(2).text()), Path(d), "scaling")

    def test_steps(self) -> None:
        rs = group_rows(self.log())
        self.assertEqual([(r["clear"], r["ncpus"]) for r in rs],
                         [("erms", 1), ("erms", 2), ("erms", 4),
                          ("clzero", 1), ("clzero", 2), ("clzero", 4)])


class CpulistTest(unittest.TestCase):
    def test_as_lib_cpulist(self) -> None:
        self.assertEqual(cpulist.parse("0-15:2/4"), [0, 1, 4, 5, 8, 9, 12, 13])
        self.assertEqual(cpulist.canonical("3,0,1,2,8"), "0-3,8")
        self.assertEqual(cpulist.format([0, 1]), "0-1")
        for bad in ("all", "", "5-3", "0-3:3/2", "x"):
            self.assertIsNone(cpulist.parse(bad), bad)


if __name__ == "__main__":
    unittest.main()
