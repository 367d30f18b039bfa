# SPDX-License-Identifier: GPL-2.0-only
"""Tests of what the host tools compute from records: configuration
dimensions (no pooling of different configurations), compare's statistics,
the roof column, figures net of the timer, and the split's choice of
Linux's own strategy."""
from __future__ import annotations

import csv
import importlib.util
import io
import math
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hzlib import compare, dims, plot, records, report, results, split  # noqa: E402

from synth import Log, kernel_config, prezero_log  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
RUNS = [{"fault": [2000, 2000], "clear": [1000, 1000]},
        {"fault": [2100, 1900], "clear": [1000, 1000]}]


def kernel_log(**over: str) -> str:
    return Log().config(kernel_config(**over), RUNS).text()


def compare_text(a: str, b: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        pa, pb = Path(d) / "a.log", Path(d) / "b.log"
        pa.write_text(a)
        pb.write_text(b)
        out = io.StringIO()
        compare.write(str(pa), str(pb), out)
        return out.getvalue()


def rows_of(text: str) -> list[dict[str, object]]:
    return results.rows(records.parse(text))


class DimensionTest(unittest.TestCase):
    def test_every_field_but_bookkeeping_is_a_dimension(self) -> None:
        d = dims.of({"cfg": "3", "name": "x", "folios": "2", "runs": "5", "folio": "2M",
                     "probe_class": "rt", "preempt": "full", "cache": "cold"})
        self.assertEqual(d["probe_class"], "rt")
        self.assertEqual(d["preempt"], "full")
        for k in ("cfg", "name", "folios", "runs"):
            self.assertNotIn(k, d)

    def test_defaults_and_old_names(self) -> None:
        old = dims.of({"folio": "2M", "cache": "asis", "inject": "none"})
        self.assertEqual((old["bench"], old["pte"], old["cache"], old["cpus"]),
                         ("fault", "clean", "warm", "0"))
        self.assertEqual(old["numa"], "none")
        # An older companion's CPUs are unrecorded: a value of its own.
        self.assertNotIn("cpus", dims.of({"bench": "bare"}))
        self.assertEqual(dims.of({"bench": "bare"})["numa"], "none")
        # One cpulist, however spelt; which CPU of a group is bookkeeping.
        self.assertEqual(dims.of({"cpus": "3,0,1-2"})["cpus"], "0-3")
        for k in ("cpu", "ncpus", "node", "mem_node", "group", "apic_id"):
            self.assertNotIn(k, dims.of({k: "1"}))
        self.assertEqual(dims.of({"cache": "clflush"})["cache"], "cold")
        self.assertEqual(dims.of({"bench": "linux-fault"})["pte"], "linux")
        # The kernel before the models ran none; the companion's is the host's.
        self.assertEqual(old["preempt"], "off")
        self.assertNotIn("preempt", dims.of({"bench": "bare"}))
        # Before prezero= every fault cleared its own folio; the
        # companion's Linux is Linux's own, unrecorded.
        self.assertEqual(old["prezero"], "none")
        self.assertNotIn("prezero", dims.of({"bench": "linux-fault"}))
        # prezero=none has no parameters: none of them pairs it apart.
        self.assertEqual(dims.of({"prezero": "none", "prezero_clear": "erms"}),
                         dims.of({}))
        self.assertEqual(dims.of({"prezero": "request", "prezero_n": "all"})["prezero_n"],
                         "all")
        # No known default: missing stays missing, a value of its own.
        self.assertNotIn("probe_class", old)
        self.assertNotIn("inject_lines", dims.of({"inject": "none", "inject_lines": "4"}))

    def test_csv_has_every_dimension(self) -> None:
        for k in dims.ORDER:
            self.assertIn(k, results.CSV_COLUMNS)
        text = kernel_log(probe_class="rt", pte="linux")
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "x.log"
            p.write_text(text)
            for extra in ([], ["--rows", "samples"]):
                out = subprocess.run([sys.executable, str(ROOT / "scripts/hugezero"), "parse",
                                      str(p), "--format", "csv", *extra],
                                     capture_output=True, text=True, check=True).stdout
                head, first = out.splitlines()[:2]
                cols = head.split(",")
                for k in ("radius", "pte", "seed", "cache", "preempt", "probe_class"):
                    self.assertIn(k, cols)
                row = dict(zip(cols, first.split(",")))
                self.assertEqual((row["probe_class"], row["pte"], row["cache"]),
                                 ("rt", "linux", "warm"))

    def test_compare_never_pairs_different_configurations(self) -> None:
        base = {"order": "neighbourhood-last", "chunk": "33554432", "radius": "2"}
        for k, a, b in (("radius", "2", "3"), ("pte", "linux", "clean"),
                        ("cache", "cold", "warm")):
            text = compare_text(kernel_log(**{**base, k: a}), kernel_log(**{**base, k: b}))
            self.assertIn("no configuration is in both", text, k)
            self.assertIn("only in A:", text)
            self.assertIn("only in B:", text)
            self.assertIn(f"(B has {k}={b} (not {a}))", text)

    def test_old_and_new_logs(self) -> None:
        # An older kernel log (pte unrecorded, cache=asis) pairs with a new
        # one saying what the old kernel did, and with nothing else.
        old = kernel_log()
        self.assertIn("~ (p=1.00)", compare_text(old, kernel_log(pte="clean", cache="warm")))
        self.assertIn("no configuration is in both",
                      compare_text(old, kernel_log(pte="clean", cache="warm", preempt="none")))

    def test_one_side_pools_only_equal_configurations(self) -> None:
        two = kernel_log(cache="cold") + kernel_log(cache="warm")
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "a.log"
            p.write_text(two)
            table = compare.table(compare.load(str(p)))
        self.assertEqual(sorted(len(v.runs) for v in table.values()), [2, 2])

    def test_report_and_plot_separate_dimensions(self) -> None:
        boots = records.parse(Log().config(kernel_config(cache="cold"), RUNS)
                              .config(kernel_config(cache="warm"), RUNS).text())
        out = io.StringIO()
        report.write(boots, out)
        text = out.getvalue()
        self.assertIn("cache=cold", text)
        self.assertIn("cache=warm", text)
        rows = results.rows(boots)
        label = plot.labeller(rows)
        self.assertNotEqual(label(rows[0]), label(rows[1]))
        self.assertIn("cache=cold", label(rows[0]))
        rows = rows_of(Log().config(kernel_config(order="neighbourhood-last", radius="2"), RUNS)
                       .config(kernel_config(order="neighbourhood-last", radius="3"), RUNS).text())
        label = plot.labeller(rows)
        self.assertNotEqual(label(rows[0]), label(rows[1]))


class NotOfferedTest(unittest.TestCase):
    """order=linux under a model x86 Linux 7.0 does not offer
    (linux_offered=no) is named so wherever a row is; linux_offered is no
    dimension, and a log without it reads as before."""
    LINUX = {"name": "none.1G.erms.linux", "folio": "1G", "order": "linux",
             "chunk": str(32 << 20), "radius": "2", "preempt": "none", "size": str(2 << 30),
             "folios": "2"}
    CALLS = ["prim_calls=66 prim_calls_max=33", "prim_calls=66 prim_calls_max=33"]

    def log(self, **over: str) -> str:
        return Log().config(kernel_config(**{**self.LINUX, **over}), RUNS,
                            run_extra=self.CALLS).text()

    def test_report_table_compare_and_csv(self) -> None:
        text = self.log(linux_offered="no")
        out = io.StringIO()
        report.write(records.parse(text), out)
        self.assertIn("      not offered by x86 Linux 7.0: order=linux under preempt=none "
                      "is 7.0's non-preemptible branch (32M units, 33 primitive calls per "
                      "fault)", out.getvalue())
        row = rows_of(text)[0]
        self.assertEqual((row["linux_offered"], row["prim_calls_per_fault"],
                          row["prim_calls_max"]), ("no", 33.0, 33))
        self.assertNotIn("linux_offered", row["dims"])  # type: ignore[operator]
        self.assertEqual(results.offered_note(row), " [not offered by x86 Linux 7.0]")
        cmp = compare_text(text, text)
        self.assertRegex(cmp, r"~ \(p=1.00\) \[not offered by x86 Linux 7.0\]\n")
        cols = results.csv_columns(rows_of(text))
        self.assertEqual(cols[-3:], results.NEWER_COLUMNS[:3])
        self.assertNotIn("linux_tree", cols, "a column only where a row ran a tree's routine")

    def test_offered_and_older_logs_say_nothing(self) -> None:
        for text in (self.log(linux_offered="yes", preempt="full", chunk=str(1 << 30)),
                     kernel_log(**self.LINUX)):
            out = io.StringIO()
            report.write(records.parse(text), out)
            self.assertNotIn("not offered", out.getvalue() + compare_text(text, text))
        old = rows_of(kernel_log(**self.LINUX))
        self.assertNotIn("prim_calls_per_fault", old[0])
        self.assertFalse(set(results.NEWER_COLUMNS) & set(results.csv_columns(old)))
        # Paired with a log that records it: the same measurement.
        self.assertIn("~ (p=1.00)", compare_text(kernel_log(**self.LINUX),
                                                 self.log(linux_offered="no")))


class WelchTest(unittest.TestCase):
    def test_against_scipy_values(self) -> None:
        if importlib.util.find_spec("scipy") is None:
            self.skipTest("python3-scipy is not installed")
        # scipy.stats.ttest_ind(a, b, equal_var=False).pvalue
        self.assertAlmostEqual(compare.welch([1, 2, 3, 4], [2, 3, 4, 5]), 0.3153336, places=6)
        self.assertAlmostEqual(compare.welch([10.1, 10.3, 9.8, 10.0],
                                             [10.6, 11.4, 10.2, 11.9, 11.0]), 0.0279227, places=6)
        self.assertAlmostEqual(compare.welch([16.4, 16.5, 16.6], [42.1, 43.9, 42.4]),
                               0.00039465, places=7)

    def test_without_scipy(self) -> None:
        with mock.patch.dict(sys.modules, {"scipy": None, "scipy.stats": None}):
            with self.assertRaises(compare.NoScipy):
                compare.welch([1, 2, 3], [2, 3, 5])
            log = str(DATA / "kernel-bench.log")
            out = io.StringIO()
            self.assertEqual(compare.write(log, log, out), 0)
        text = out.getvalue()
        self.assertIn("folio=2M clear=erms order=contiguous-page", text)
        self.assertIn("(p: no scipy)", text)
        self.assertIn(compare.NO_SCIPY, text)


class RoofTest(unittest.TestCase):
    def test_fraction_of_the_best_clearing_rate(self) -> None:
        common = "folio=2M chunk=0 size=4194304 folios=2 touch=seq offset=first access=none cache=cold"
        text = (Log(host="kernel=6.18.0")
                .config(f"bench=linux-fault clear=linux order=linux backing=thp {common}",
                        [{"fault": [4000, 4000]}])
                .config(f"bench=bare clear=erms order=converging-page backing=thp {common}",
                        [{"clear": [2000, 2000]}])
                .config(f"bench=bare clear=clzero order=contiguous-page backing=thp {common}",
                        [{"clear": [1000, 1000]}]).text())
        rows = rows_of(text)
        self.assertEqual([round(float(r["roof"]), 3) for r in rows], [0.25, 0.5, 1.0])
        out = io.StringIO()
        report.write(records.parse(text), out)
        self.assertIn(" roof ", out.getvalue())
        self.assertIn(" 0.25 ", out.getvalue())

    def test_like_with_like_cache_state(self) -> None:
        """A warm row that fits in the LLC (4x the cold rate here) sets the
        roof of warm rows only; the cold rows keep their own best."""
        common = "folio=2M chunk=0 size=4194304 folios=2 touch=seq offset=first access=none"
        text = (Log()
                .config(f"bench=fault clear=erms order=contiguous-page {common} cache=cold",
                        [{"fault": [4000, 4000], "clear": [2000, 2000]}])
                .config(f"bench=fault clear=avx2 order=contiguous-page {common} cache=cold",
                        [{"fault": [3000, 3000], "clear": [1000, 1000]}])
                .config(f"bench=fault clear=erms order=contiguous-page {common} cache=warm "
                        "llc=33554432 fits_llc=1",
                        [{"fault": [1000, 1000], "clear": [250, 250]}])
                .config(f"bench=fault clear=erms order=contiguous-page folio=1G chunk=0 "
                        "size=1073741824 folios=1 touch=seq offset=first access=none "
                        "cache=cold", [{"fault": [400000], "clear": [200000]}]).text())
        rows = rows_of(text)
        # cold 2M: best clear 1000 ticks a folio; warm 2M: 250; 1G: its own.
        self.assertEqual([round(float(r["roof"]), 3) for r in rows],
                         [0.25, round(1000 / 3000, 3), 0.25, 0.5])
        out = io.StringIO()
        report.write(records.parse(text), out)
        self.assertIn("best clearing GB/s of the folio size and cache state", out.getvalue())
        # One cache state: the words as before.
        one = Log().config(f"bench=fault clear=erms order=contiguous-page {common} cache=cold",
                           [{"fault": [4000, 4000], "clear": [2000, 2000]}]).text()
        out = io.StringIO()
        report.write(records.parse(one), out)
        self.assertIn("best clearing GB/s of the folio size\n", out.getvalue())

    def test_kernel_log(self) -> None:
        rows = rows_of((DATA / "kernel-bench.log").read_text())
        best = max(float(r["clear_gbps_mean"]) for r in rows)
        for r in rows:
            self.assertAlmostEqual(float(r["roof"]), float(r["gbps_mean"]) / best)


class NetTest(unittest.TestCase):
    TB = "tsc_hz=1000000000 source=hpet invariant=1 overhead_median=100"

    def test_samples_net_of_the_timer(self) -> None:
        text = Log(timebase=self.TB).config(
            kernel_config(), [{"fault": [1100, 900, 50], "clear": [600, 400, 20]}]).text()
        (r,) = rows_of(text)
        # Net fault 1000, 800, 0 (clamped); clear 500, 300, 0.
        self.assertAlmostEqual(r["fault_us_median"], 0.8)
        self.assertAlmostEqual(r["clear_us_median"], 0.3)
        self.assertAlmostEqual(r["fault_us_min"], 0.0)
        self.assertAlmostEqual(r["overhead_us_median"], 0.5)
        self.assertAlmostEqual(r["gbps_mean"], 4194304 / 1800e-9 / (1 << 30))
        self.assertAlmostEqual(r["clear_gbps_mean"], 4194304 / 800e-9 / (1 << 30))
        self.assertEqual(r["net_ticks"], 100)
        s = next(s for s in results.sample_rows(records.parse(text)) if s["kind"] == "fault")
        self.assertEqual((s["ticks"], s["us"], s["net_us"], s["timer_ticks"]),
                         (1100, 1.1, 1.0, 100))

    def test_without_samples_from_run_totals_and_summary(self) -> None:
        def one(summary: str) -> dict[str, object]:
            (r,) = rows_of(Log(timebase=self.TB).config(
                kernel_config(), [{"fault": [1100, 900], "clear": [600, 400]}],
                summary=summary, samples=False).text())
            return r
        old = one("fault_ns_median=1000 clear_ns_median=500")
        self.assertAlmostEqual(old["gbps_mean"], 4194304 / 1800e-9 / (1 << 30))
        self.assertAlmostEqual(old["fault_us_median"], 0.9)     # 1000 - 100 ns
        new = one("fault_ns_median=900 clear_ns_median=400 net_of_ticks=100")
        self.assertAlmostEqual(new["fault_us_median"], 0.9)     # already net
        self.assertAlmostEqual(new["clear_us_median"], 0.4)

    def test_a_prezeroed_fault_holds_one_timer_pair(self) -> None:
        # Its clear sample is 0: the handler timed no clear, so its fault
        # window holds the workload's pair (100) alone, not both (300).
        def one(samples: bool) -> dict[str, object]:
            (r,) = rows_of(Log(timebase=self.TB).config(
                kernel_config(prezero="request", prezero_n="1"),
                [{"fault": [1100, 500], "clear": [600, 0]}], summary="fault_net_of_ticks=300",
                samples=samples, run_extra="prezeroed_faults=1 prezero_by=request").text())
            return r
        r = one(True)
        self.assertAlmostEqual(r["fault_us_min"], 0.4)      # 500 - 100
        self.assertAlmostEqual(r["fault_us_max"], 0.8)      # 1100 - 300
        self.assertAlmostEqual(r["overhead_us_median"], 0.35)   # (300 + 400) / 2
        self.assertAlmostEqual(r["gbps_mean"], 4194304 / 1200e-9 / (1 << 30))
        self.assertAlmostEqual(r["clear_gbps_mean"], 4194304 / 500e-9 / (1 << 30))
        # From the run totals alone: the same timers off.
        r = one(False)
        self.assertAlmostEqual(r["gbps_mean"], 4194304 / 1200e-9 / (1 << 30))
        self.assertAlmostEqual(r["clear_gbps_mean"], 4194304 / 500e-9 / (1 << 30))
        s = [x for x in results.sample_rows(records.parse(Log(timebase=self.TB).config(
            kernel_config(), [{"fault": [1100, 500], "clear": [600, 0]}],
            summary="fault_net_of_ticks=300").text())) if x["kind"] == "fault"]
        self.assertEqual([(x["timer_ticks"], x["net_us"]) for x in s], [(300, 0.8), (100, 0.4)])

    def test_no_timebase_overhead_is_zero(self) -> None:
        (r,) = rows_of(Log(timebase="tsc_hz=1000000000 source=hpet").config(
            kernel_config(), [{"fault": [1100, 900], "clear": [600, 400]}]).text())
        self.assertAlmostEqual(r["fault_us_median"], 1.0)
        self.assertEqual(r["net_ticks"], 0)


class NewFormatTest(unittest.TestCase):
    def test_format_2_records(self) -> None:
        text = Log(boot='version=0.3 format=2 firmware=bios cmdline="bench=fault"').config(
            kernel_config(cache="cold", pte="linux", fill="movq", llc="33554432",
                          fits_llc="1", inject="skip-line", inject_lines="1",
                          sample_lines_per_page="8"),
            RUNS, summary="net_of_ticks=0", run_extra="injected=1 detected=1").text()
        boots = records.parse(text)
        self.assertEqual(boots[0].problems, [])
        (r,) = results.rows(boots)
        self.assertEqual((r["status"], r["injected"], r["detected"]), ("ok", 2, 2))
        self.assertNotIn("llc", r["dims"])
        self.assertEqual(r["dims"]["inject_lines"], "1")
        out = io.StringIO()
        report.write(boots, out)
        self.assertIn("record format 2", out.getvalue())
        self.assertIn("inject=skip-line: 2 lines injected, 2 detected", out.getvalue())


def host(kernel: str, preempt: str | None, ioa: str | None) -> dict[str, str]:
    h = {"kernel": kernel}
    if preempt is not None:
        h.update(preempt=preempt, preempt_source="/proc/config.gz: CONFIG_PREEMPT_NONE=y")
    if ioa is not None:
        h.update(init_on_alloc=ioa, init_on_alloc_source="/proc/cmdline")
    return h


class StrategyTest(unittest.TestCase):
    def test_every_combination(self) -> None:
        for kernel in ("6.1.0", "6.18.44-fc", "7.0.0", "7.2.1"):
            for model in ("none", "voluntary", "full", "lazy", "unknown", None):
                for ioa in ("0", "1", None):
                    for backing in ("hugetlb", "thp"):
                        for folio in ("2M", "1G"):
                            s = split.strategy(host(kernel, model, ioa), ["erms"], folio, backing)
                            what = (kernel, model, ioa, backing, folio, s.why)
                            self.assertEqual(s.prim, "erms")
                            if backing == "thp" and ioa == "1":
                                self.assertEqual(s.order, "discontiguous-page", what)
                                self.assertIn("kernel_init_pages", s.why)
                            elif kernel < "7":
                                self.assertEqual((s.order, s.chunk), ("converging-page", None), what)
                                self.assertIn("clear_gigantic_page" if folio == "1G"
                                              else "process_huge_page", s.why)
                            elif model in ("full", "lazy", "unknown", None):
                                # x86 7.0 is full or lazy: unknown is full.
                                self.assertEqual((s.order, s.chunk), ("neighbourhood-last", None), what)
                                if model in ("unknown", None):
                                    self.assertIn("model unknown: full assumed", s.why)
                            else:
                                self.assertEqual((s.order, s.chunk),
                                                 ("neighbourhood-last", 32 << 20), what)
                                self.assertIn("not offered by x86 Linux 7.0", s.why)

    def test_primitive_without_erms(self) -> None:
        s = split.strategy(host("6.18", "none", "0"), ["avx2"], "2M", "hugetlb")
        self.assertEqual(s.prim, "rep")
        self.assertIn("REP_GOOD", s.prim_why)
        self.assertIn("invisible from CPUID", s.prim_why)

    def test_recorded_answers_win(self) -> None:
        """The companion's host record says Linux's clear_page() and
        7.0's constants: split reads them rather than deciding again."""
        h = {**host("7.0", "none", "0"), "linux_clear": "orig",
             "linux_clear_why": "recorded", "linux_batch": str(8 << 20),
             "linux_radius": "3"}
        s = split.strategy(h, ["erms"], "1G", "hugetlb")
        self.assertEqual((s.prim, s.prim_why, s.chunk), ("orig", "recorded", 8 << 20))
        self.assertIn("8M units", s.why)
        self.assertEqual(split.linux_radius(h), 3)

    def test_whole_ranges_match_any_unit_of_a_folio_or_more(self) -> None:
        s = split.strategy(host("7.0", "full", "0"), ["erms"], "2M", "hugetlb")
        row = {"clear": "erms", "order": "neighbourhood-last", "folio": "2M",
               "dims": {"chunk": str(32 << 20), "radius": "2"}}
        self.assertTrue(split.fits(row, s))
        row["folio"] = "1G"
        self.assertFalse(split.fits(row, s))


def companion_log(host_fields: str, bare: list[tuple[str, str]]) -> Log:
    common = ("folio=2M chunk=0 size=4194304 folios=2 touch=seq offset=first access=none "
              "cpl=3 seed=1 warmups=1")
    log = Log(boot="version=0.2 loader=hugezero-linux firmware=linux", host=host_fields)
    # Linux's folios: their cache state and contents are Linux's.
    log.config(f"name=linux.2M.hugetlb bench=linux-fault clear=linux order=linux "
               f"backing=hugetlb cache=linux fill=none {common}",
               [{"fault": [100000, 100000]}])
    for order, extra in bare:
        log.config(f"bench=bare clear=erms order={order} backing=hugetlb cache=cold "
                   f"fill=movq {common} {extra}", [{"clear": [80000, 80000]}])
    return log


class SplitChoiceTest(unittest.TestCase):
    def split_text(self, *logs: str) -> str:
        boots = [b for t in logs for b in records.parse(t)]
        for i, b in enumerate(boots):
            b.index = i
        out = io.StringIO()
        split.write(boots, out)
        return out.getvalue()

    def test_host_lines_and_strategy(self) -> None:
        text = self.split_text(companion_log(
            'kernel=6.18.0 preempt=none preempt_source="/proc/config.gz: CONFIG_PREEMPT_NONE=y" '
            'init_on_alloc=0 init_on_alloc_source=/proc/cmdline init_on_free=0',
            [("converging-page", "cache=cold")]).text())
        self.assertIn("Linux 6.18: preempt=none (from /proc/config.gz: CONFIG_PREEMPT_NONE=y)", text)
        self.assertIn("init_on_alloc=0 (from /proc/cmdline)", text)
        self.assertIn("Linux's own for hugetlb: erms + converging-page (before 7.0: "
                      "process_huge_page", text)
        self.assertIn("(settings as the fault's)", text)

    def test_old_host_record_says_model_unknown(self) -> None:
        text = self.split_text(companion_log("kernel=7.0.1", [
            ("neighbourhood-last", f"chunk={2 << 20} radius=2 cache=cold")]).text())
        self.assertIn("preempt=unknown (not in the host record", text)
        self.assertIn("model unknown: full assumed", text)
        self.assertIn("Linux's own for hugetlb: erms + neighbourhood-last (whole ranges)", text)
        self.assertIn("bare, Linux's own: erms + neighbourhood-last 2M", text)

    def test_bare_row_of_the_fault_settings_is_chosen(self) -> None:
        h = "kernel=6.18.0 preempt=none init_on_alloc=0"
        text = self.split_text(companion_log(h, [("converging-page", "cache=warm"),
                                                 ("converging-page", "cache=cold")]).text())
        self.assertIn("(settings as the fault's)", text)
        text = self.split_text(companion_log(h, [("converging-page", "cache=warm")]).text())
        self.assertIn("differs from the fault's settings: cache=warm (not cold)", text)

    def test_kernel_row_of_the_fault_settings_is_chosen(self) -> None:
        comp = companion_log("kernel=6.18.0 preempt=none init_on_alloc=0",
                             [("converging-page", "cache=cold")]).text()
        kern = (Log().config(kernel_config(order="converging-page", cache="warm", pte="clean"), RUNS)
                .config(kernel_config(order="converging-page", cache="cold", pte="linux"), RUNS)
                .text())
        text = self.split_text(comp, kern)
        self.assertIn("hugezero kernel, Linux's own: erms + converging-page", text)
        # The fault ran under the host's model; this kernel under none of its own.
        self.assertIn("(boot 1 cfg 2, differs from the fault's settings: preempt=off (not none))",
                      text)
        # Only a kernel row of other settings: used, and the difference said.
        kern = Log().config(kernel_config(order="converging-page", cache="warm"), RUNS).text()
        self.assertIn("(boot 1 cfg 1, differs from the fault's settings: cache=warm (not cold), "
                      "pte=clean (not linux), preempt=off (not none))", self.split_text(comp, kern))
        # The kernel row under the host's preemption model is the nearest.
        kern = "".join(Log().config(kernel_config(order="converging-page", cache="cold",
                                                  pte="linux", preempt=m), RUNS).text()
                       for m in ("full", "none"))
        self.assertIn("(boot 2 cfg 1, settings as the fault's)", self.split_text(comp, kern))


class PrezeroTest(unittest.TestCase):
    """prezero=none,request,on-free (synth.prezero_log): where the zeroing went."""

    def rows(self) -> list[dict[str, object]]:
        return rows_of(prezero_log().text())

    def test_row_figures(self) -> None:
        want = {  # mode: pre-zeroed %, by, fault, inline, ahead, total (ms per pass)
            "none": (0.0, "none", 2.2, 1.9, 0.0, 1.9),
            "request": (50.0, "request", 1.075, 0.95, 0.95, 1.9),
            "on-free": (100.0, "free", 0.06, 0.0, 2.0, 2.0),
        }
        rows = self.rows()
        self.assertEqual([r["prezero"] for r in rows], list(want))
        for r in rows:
            pct, by, fault, inline, ahead, total = want[str(r["prezero"])]
            self.assertEqual(r["prezero_by"], by)
            for k, v in (("prezeroed_pct", pct), ("fault_ms_per_run", fault),
                         ("inline_clear_ms_per_run", inline), ("prezero_ms_per_run", ahead),
                         ("zeroing_ms_per_run", total)):
                self.assertAlmostEqual(r[k], v, places=9, msg=f"{r['prezero']} {k}")
        # A mode's parameters are its dimensions; none has none.
        self.assertEqual(rows[1]["dims"]["prezero_n"], "1")
        self.assertNotIn("prezero_clear", rows[0]["dims"])

    def test_older_log_and_companion(self) -> None:
        (old,) = rows_of(kernel_log())      # no prezero: every fault cleared its own
        self.assertEqual((old["prezero"], old["prezero_by"], old["prezeroed_pct"],
                          old["prezero_ms_per_run"]), ("none", "none", 0.0, 0.0))
        self.assertAlmostEqual(old["inline_clear_ms_per_run"], 0.002)
        self.assertAlmostEqual(old["zeroing_ms_per_run"], 0.002)
        self.assertAlmostEqual(old["fault_ms_per_run"], 0.004)
        (lin,) = rows_of(companion_log("kernel=6.18.0", []).text())
        self.assertEqual(lin["prezero_by"], "")
        for k in ("prezeroed_pct", "prezero_ms_per_run", "zeroing_ms_per_run",
                  "inline_clear_ms_per_run"):
            self.assertTrue(math.isnan(lin[k]), k)   # type: ignore[arg-type]
        self.assertAlmostEqual(lin["fault_ms_per_run"], 0.2)

    def test_report_table(self) -> None:
        out = io.StringIO()
        report.write(records.parse(prezero_log().text()), out)
        text = out.getvalue()
        table = text[text.index("where the zeroing went"):]
        self.assertIn("the total cost moved, not only the fault time saved", table)
        self.assertIn(
            "\nbench=fault size=4M (2 folios) touch=seq offset=first access=none cache=warm "
            "fill=movq pte=clean cpl=3 preempt=off cpus=0 numa=none seed=1 inject=none "
            "warmups=1\n"
            "mode      folio order               chunk rad clear      status pre-zeroed   "
            "fault ms  inline ms   ahead ms by           total ms ahead GB/s  ahead with\n"
            "none      2M    contiguous-page               erms       ok          0.0 %      "
            "2.200      1.900      0.000 none            1.900          -\n"
            # 2 MiB in 0.95 ms, 4 MiB in 2 ms: the rate of the zeroing ahead
            "request   2M    contiguous-page               erms       ok         50.0 %      "
            "1.075      0.950      0.950 request         1.900       2.06  erms contiguous-page n=1\n"
            "on-free   2M    contiguous-page               erms       ok        100.0 %      "
            "0.060      0.000      2.000 free            2.000       1.95  erms contiguous-page\n", table)
        # The per-configuration table heads each mode with its parameters.
        self.assertIn("prezero=request prezero_clear=erms prezero_order=contiguous-page "
                      "prezero_n=1 seed=1", text)
        # A boot without prezero= has no such table.
        out = io.StringIO()
        report.write(records.parse(kernel_log()), out)
        self.assertNotIn("where the zeroing went", out.getvalue())

    def test_waits_for_a_zeroers_folio(self) -> None:
        """The kernel's counts of faults that waited for a folio a zeroer
        held: per pass in the row, two more report columns and CSV ones
        only where the records have them."""
        log = Log(timebase="tsc_hz=1000000000 source=hpet invariant=1 overhead_median=10")
        log.config(kernel_config(name="dedicated.2M.erms.contiguous-page", prezero="dedicated",
                                 prezero_clear="erms", prezero_order="contiguous-page",
                                 prezero_cpu="1", prezero_low="33", prezero_high="50"),
                   [{"fault": [1000030, 400010], "clear": [900010, 0]},
                    {"fault": [1100030, 30010], "clear": [1000010, 0]}],
                   summary="fault_net_of_ticks=30",
                   run_extra=[f"prezeroed_faults=1 prezero_by=dedicated prezero_ticks=900010 "
                              f"prezero_folios=1 prezero_resched=0 prezero_waits={n} "
                              f"prezero_wait_ticks={t}" for n, t in ((1, 350000), (0, 0))])
        (r,) = rows_of(log.text())
        self.assertEqual(r["prezero_waits_per_run"], 0.5)
        self.assertAlmostEqual(r["prezero_wait_ms_per_run"], 0.175)
        self.assertEqual(r["prezero_resched_per_run"], 0.0)
        out = io.StringIO()
        report.write(records.parse(log.text()), out)
        text = out.getvalue()
        self.assertIn("waits = the faults per pass that waited for a folio a zeroer held", text)
        self.assertIn("ahead GB/s    waits    wait ms  ahead with\n", text)
        self.assertRegex(text, r"\ndedicated .* 1\.850 +2\.17 +0\.5 +0\.175  erms contiguous-page cpu=1")
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "w.log"
            p.write_text(log.text())
            csv_text = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"),
                                       "parse", str(p), "--format", "csv"],
                                      capture_output=True, text=True).stdout
        head = list(csv.DictReader(io.StringIO(csv_text)))[0]
        self.assertEqual(head["prezero_waits_per_run"], "0.5")
        self.assertEqual(head["prezero_wait_ms_per_run"], "0.175")
        # Without the fields (prezero_log): no such columns.
        out = io.StringIO()
        report.write(records.parse(prezero_log().text()), out)
        self.assertNotIn("wait ms", out.getvalue())
        self.assertNotIn("prezero_waits_per_run",
                         results.csv_columns(rows_of(prezero_log().text())))

    def test_skipped_configuration_has_no_figures(self) -> None:
        log = prezero_log()
        log.cfgs += 1
        log.add("config", f"cfg={log.cfgs} " + kernel_config(clear="avx512", prezero="none"))
        log.add("summary", f'cfg={log.cfgs} status=skip reason="no AVX-512" runs=0')
        out = io.StringIO()
        report.write(records.parse(log.text()), out)
        self.assertIn("\nnone      2M    contiguous-page               avx512     skip            "
                      "-          -          -          - -                   -          -\n",
                      out.getvalue())

    def test_figure(self) -> None:
        if importlib.util.find_spec("matplotlib") is None:
            self.skipTest("no matplotlib for this python")
        with tempfile.TemporaryDirectory() as d:
            paths = plot.write(records.parse(prezero_log().text()), Path(d), "prezero")
            self.assertEqual([p.name for p in paths], ["prezero.png", "prezero.svg"])
            self.assertTrue(all(p.stat().st_size > 0 for p in paths))
            # Every figure the records have: this one among them.
            every = plot.write(records.parse(prezero_log().text()), Path(d))
            self.assertIn("prezero.png", [p.name for p in every])
        # A log without prezero= has nothing to draw as prezero.
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(plot.PlotError, "prezero= mode other than none"):
                plot.write(records.parse(kernel_log()), Path(d), "prezero")
        self.assertEqual(plot.mode_names([
            {"prezero": "none", "cfg": 1, "dims": {"prezero": "none"}},
            {"prezero": "request", "cfg": 2, "dims": {"prezero": "request", "prezero_n": "1"}},
            {"prezero": "request", "cfg": 3, "dims": {"prezero": "request", "prezero_n": "all"}},
            {"prezero": "request", "cfg": 4, "dims": {"prezero": "request", "prezero_n": "all"}},
        ]), ["none", "request\nn=1", "request\nn=all\ncfg 3", "request\nn=all\ncfg 4"])

    def test_csv_columns(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "x.log"
            p.write_text(prezero_log().text())
            out = subprocess.run([sys.executable, str(ROOT / "scripts/hugezero"), "parse",
                                  str(p), "--format", "csv"],
                                 capture_output=True, text=True, check=True).stdout
        rows = list(csv.DictReader(io.StringIO(out)))
        cols = list(rows[0])
        new = ["prezero_clear", "prezero_order", "prezero_n", "prezero_cpu", "prezero_low",
               "prezero_high", "prezero_idle_ms", "prezeroed_pct", "prezero_by",
               "fault_ms_per_run", "inline_clear_ms_per_run", "prezero_ms_per_run",
               "zeroing_ms_per_run"]
        at = cols.index("apic_id") + 1
        self.assertEqual(cols[at:at + len(new)], new)
        self.assertEqual([(r["prezero"], r["prezero_n"], r["prezeroed_pct"], r["prezero_by"],
                           r["prezero_ms_per_run"], r["zeroing_ms_per_run"]) for r in rows],
                         [("none", "", "0.0", "none", "0.0", "1.9"),
                          ("request", "1", "50.0", "request", "0.95", "1.9"),
                          ("on-free", "", "100.0", "free", "2.0", "2.0")])


if __name__ == "__main__":
    unittest.main()


class CompareMachinesTest(unittest.TestCase):
    def test_a_side_of_two_machines_is_called_out(self) -> None:
        runs = [{"fault": [1000, 1000]}, {"fault": [1100, 1000]}]
        one = Log().config(kernel_config(), runs).text()
        other = Log(machine="vendor=GenuineIntel family=0x6 model=0x6a stepping=6 "
                            "brand=\"Xeon 8358\"").config(kernel_config(), runs).text()
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d, "a.log"), Path(d, "b.log")
            a.write_text(one + other)
            b.write_text(one)
            out = io.StringIO()
            compare.write(str(a), str(b), out)
            self.assertIn("WARNING: A pools runs of 2 different machines", out.getvalue())
            self.assertNotIn("WARNING: B", out.getvalue())


class FrontierTest(unittest.TestCase):
    def log(self) -> str:
        log = Log()
        for model, order, late in (("none", "contiguous-page", [5000, 9000]),
                                   ("full", "linux", [50, 80])):
            log.config(kernel_config(order=order, preempt=model, probe="latency",
                                     probe_us="1000"),
                       [{"fault": [2000, 2000], "clear": [1000, 1000]}],
                       run_extra="probe_wakeups=2 probe_expected=3")
            log.add("samples", f"cfg={log.cfgs} run=0 kind=probe first=0 "
                    f"v={late[0]},{late[1]} n=2")
        return log.text()

    def test_probe_columns(self) -> None:
        rows = results.rows(records.parse(self.log()))
        self.assertEqual([r["probe_lost"] for r in rows], [1, 1])
        self.assertEqual([round(r["probe_us_max"], 3) for r in rows], [9.0, 0.08])
        self.assertEqual(rows[0]["dims"]["preempt"], "none")

    def test_frontier_is_drawn(self) -> None:
        if importlib.util.find_spec("matplotlib") is None:
            self.skipTest("no matplotlib for this python")
        with tempfile.TemporaryDirectory() as d:
            paths = plot.write(records.parse(self.log()), Path(d))
            self.assertIn("frontier.png", [p.name for p in paths])
        # Without a probe there is no frontier to draw.
        with tempfile.TemporaryDirectory() as d:
            plain = Log().config(kernel_config(), RUNS).text()
            self.assertNotIn("frontier.png",
                             [p.name for p in plot.write(records.parse(plain), Path(d))])


class SharedSkipTest(unittest.TestCase):
    """A skip reason several rows under one heading share is said once,
    below them; a reason of one row stays under it."""

    def test_shared_reason_once(self) -> None:
        log = Log()
        log.config(kernel_config(name="2M.erms.contiguous-page"), [{"fault": [1000, 1000]}])
        lacks = "CPU lacks AVX-512F (CPUID 7.0:EBX[16])"
        for clear, order, why in (("avx512", "contiguous-page", lacks),
                                  ("avx512", "batched-pages", lacks),
                                  ("avx512-nt", "contiguous-page", lacks),
                                  ("clzero", "contiguous-page", "CPU lacks CLZERO")):
            log.cfgs += 1
            log.add("config", f"cfg={log.cfgs} " + kernel_config(
                name=f"2M.{clear}.{order}", clear=clear, order=order))
            log.add("summary", f'cfg={log.cfgs} status=skip runs=0 reason="{why}"')
        out = io.StringIO()
        report.write(records.parse(log.text()), out)
        text = out.getvalue()
        self.assertEqual(text.count(lacks), 1, text)
        self.assertIn(f"      skip, 3 rows above (avx512 x2, avx512-nt): {lacks}\n", text)
        self.assertIn("      skip: CPU lacks CLZERO\n", text)
        # Said after the rows it covers, before the next heading's.
        self.assertGreater(text.index(lacks), text.rindex("avx512-nt "))
