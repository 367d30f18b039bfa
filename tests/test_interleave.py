# SPDX-License-Identifier: GPL-2.0-only
"""Interleaved passes read by the host tools (docs/statistics.md, issue
24), on synthetic logs with a drift planted over time: the same
configurations run round by round in a seeded order (run records with
round= and slot=, config records with interleave=on round_group=), or
config after config as before.  Pairing by round recovers the planted
difference within its interval where blocked order does not; logs without
rounds read as they did, plus the intervals (tests/data/before-intervals:
what the tools printed before them)."""
from __future__ import annotations

import importlib.util
import io
import random
import re
import sys
import unittest
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import compare, records, report, split, table  # noqa: E402
from synth import Log, kernel_config, round_orders  # noqa: E402
from test_compare_select import Files  # noqa: E402

SCIPY = importlib.util.find_spec("scipy") is not None
BEFORE = ROOT / "tests" / "data" / "before-intervals"
HZ = 1_000_000_000              # synth's TSC: 1 GHz, no timer overhead
FOLIO = 2 << 20                 # kernel_config: 2 folios of 2M
ROUNDS = 10


def ticks(gbps: float) -> int:
    """A 2M folio's fault ticks at @gbps (2^30 B/s)."""
    return round(HZ * FOLIO / (gbps * (1 << 30)))


def slow_down(tau: float) -> float:
    """The planted drift: the machine 40% slower at the end than at the
    start, linearly in time (tau from 0 to 1)."""
    return 1 - 0.4 * tau


def kernel_passes(means: list[float], when: Callable[[int, int], float],
                  seed: int = 1) -> list[list[dict[str, list[int]]]]:
    """Per configuration k and round i a pass at means[k] GB/s slowed by
    the drift at time when(k, i), with 1% noise."""
    rng = random.Random(seed)
    out = []
    for k, m in enumerate(means):
        out.append([{"fault": [ticks(m * slow_down(when(k, i)) * (1 + rng.gauss(0, 0.01)))] * 2}
                    for i in range(ROUNDS)])
    return out


CLEARS = ("erms", "avx2", "rep")
MEANS = [10.0, 11.0, 9.0]       # avx2 is erms + 10%


def kernel_bodies() -> list[str]:
    return [kernel_config(name=f"2M.{c}.contiguous-page", clear=c, runs=str(ROUNDS),
                          warmups="0") for c in CLEARS]


def interleaved_kernel_log() -> Log:
    k = len(CLEARS)
    orders = round_orders(k, ROUNDS, seed=24)
    # Configuration c's pass of round i ran at slot orders[i].index(c).
    when = lambda c, i: (i * k + orders[i].index(c)) / (k * ROUNDS)  # noqa: E731
    return Log().interleaved(kernel_bodies(), kernel_passes(MEANS, when), orders)


def blocked_kernel_log() -> Log:
    when = lambda c, i: (c * ROUNDS + i) / (len(CLEARS) * ROUNDS)  # noqa: E731
    log = Log()
    for body, passes in zip(kernel_bodies(), kernel_passes(MEANS, when)):
        log.config(body, passes)
    return log


def pair_of(log: Log) -> compare.Pair:
    boots = records.parse(log.text())
    sel = compare.selection.Selectors(compare.selection.parse("a", ["clear=erms"]),
                                      compare.selection.parse("b", ["clear=avx2"]), True)
    (p,) = compare.compare(boots, boots, sel).configs.pairs
    return p


@unittest.skipUnless(SCIPY, "python3-scipy is not installed: the intervals need it")
class CompareDriftTest(unittest.TestCase):
    def test_interleaved_pairs_recover_the_change(self) -> None:
        p = pair_of(interleaved_kernel_log())
        self.assertTrue(p.paired)
        assert p.ratio is not None
        self.assertTrue(p.ratio.contains(1.10), p.ratio)
        self.assertLess(p.ratio.half_width, 0.03)
        self.assertLess(p.p, 0.05)
        # The same runs unpaired: the drift is in the spread, wider.
        loose = compare.interval.ratio_unpaired(p.a.runs, p.b.runs)
        assert loose is not None
        self.assertGreater(loose.half_width, 3 * p.ratio.half_width)

    def test_blocked_order_misses_it(self) -> None:
        p = pair_of(blocked_kernel_log())
        self.assertFalse(p.paired)
        assert p.ratio is not None
        # avx2 ran after erms, on a slower machine: its +10% reads as a loss.
        self.assertFalse(p.ratio.contains(1.10), p.ratio)
        self.assertLess(p.change_pct, 0)

    def test_output_says_paired(self) -> None:
        with Files() as f:
            out = io.StringIO()
            compare.write(f.log("i.log", interleaved_kernel_log()), None, out,
                          ["clear=erms"], ["clear=avx2"])
        text = out.getvalue()
        self.assertRegex(text, r"clear=erms|order=contiguous-page")
        self.assertRegex(text, r"\+ *\d+\.\d% \[ *\+\d+\.\d, +\+\d+\.\d\] +"
                               r"\(p=0\.000, paired\)\n")
        self.assertIn("'paired': both sides ran\ninterleaved in one boot", text)

    def test_two_logs_never_pair(self) -> None:
        # Rounds of different boots ran at different times: unpaired.
        with Files() as f:
            a = f.log("a.log", interleaved_kernel_log())
            b = f.log("b.log", interleaved_kernel_log())
            cmp = compare.compare(compare.load(a), compare.load(b))
        self.assertTrue(cmp.pairs)
        self.assertFalse(any(p.paired for p in cmp.pairs))

    def test_interleave_off_is_unpaired(self) -> None:
        text = interleaved_kernel_log().text()
        lines = [ln for ln in text.splitlines()]
        log = Log()
        for ln in lines[3:-1]:
            rtype, body = ln.split(" ", 3)[2], ln.split(" ", 3)[3].rsplit(" #", 1)[0]
            log.add(rtype, body.replace("interleave=on", "interleave=off"))
        self.assertFalse(pair_of(log).paired)


LINUX = ("name=linux.2M.hugetlb bench=linux-fault clear=linux order=linux backing=hugetlb "
         "cache=linux fill=none")
BARE = "name=bare.2M.erms.converging-page bench=bare clear=erms order=converging-page " \
       "backing=hugetlb cache=cold fill=movq"
COMMON = (f"folio=2M chunk=0 radius=0 size=4194304 folios=2 touch=seq offset=first "
          f"access=none cpl=3 seed=1 warmups=0 runs={ROUNDS}")
HOST = "kernel=6.18.0 preempt=none init_on_alloc=0"


def split_passes(clear_us: float, over_us: float, noise_us: float, drift_us: float,
                 when: Callable[[int, int], float], seed: int = 3
                 ) -> list[list[dict[str, list[int]]]]:
    """linux-fault (k=0) and bare (k=1) passes: a folio's clear takes
    @clear_us, Linux's fault @over_us more; a drift adds up to @drift_us to
    both, linearly in time (another tenant's memory traffic), and each
    sample @noise_us of noise."""
    rng = random.Random(seed)
    out = []
    for k, kind in enumerate(("fault", "clear")):
        base = clear_us + (over_us if k == 0 else 0)
        out.append([{kind: [round(1000 * (base + drift_us * when(k, i) + rng.gauss(0, noise_us)))
                            for _ in range(2)]} for i in range(ROUNDS)])
    return out


def split_log(interleaved: bool, over_us: float = 30, noise_us: float = 1.0) -> Log:
    bodies = [f"{LINUX} {COMMON}", f"{BARE} {COMMON}"]
    log = Log(boot="version=0.3 loader=hugezero-linux firmware=linux", host=HOST)
    if interleaved:
        orders = round_orders(2, ROUNDS, seed=5)
        when = lambda k, i: (2 * i + orders[i].index(k)) / (2 * ROUNDS)  # noqa: E731
        return log.interleaved(bodies, split_passes(100, over_us, noise_us, 150, when), orders)
    when = lambda k, i: (k * ROUNDS + i) / (2 * ROUNDS)  # noqa: E731
    for body, passes in zip(bodies, split_passes(100, over_us, noise_us, 150, when)):
        log.config(body, passes)
    return log


def split_text(log: Log) -> str:
    out = io.StringIO()
    split.write(records.parse(log.text()), out)
    return out.getvalue()


@unittest.skipUnless(SCIPY, "python3-scipy is not installed: the intervals need it")
class SplitDriftTest(unittest.TestCase):
    def overhead(self, log: Log) -> split.Overhead:
        (boot,) = records.parse(log.text())
        return split.overhead(boot, 1, 2)

    def test_paired_by_round_recovers_the_overhead(self) -> None:
        o = self.overhead(split_log(True))
        self.assertTrue(o.paired)
        assert o.iv is not None
        self.assertTrue(o.iv.contains(30.0), o.iv)
        self.assertFalse(o.iv.contains(0.0))
        text = split_text(split_log(True))
        self.assertRegex(text, r"Linux's overhead per fault \(hugetlb\): [\d.]+ - [\d.]+ = "
                               r"[\d.]+ us, \d+% of the fault\n    95% interval [\d.]+ \.\. "
                               r"[\d.]+ us \(\+-[\d.]+ us; paired over 10 rounds")
        self.assertNotIn("within run-to-run noise", text)

    def test_blocked_gets_the_sign_wrong(self) -> None:
        o = self.overhead(split_log(False))
        self.assertFalse(o.paired)
        assert o.iv is not None
        self.assertFalse(o.iv.contains(30.0), o.iv)
        self.assertLess(o.over, 0)
        self.assertIn("unpaired: 10 and 10 passes run one configuration after the other",
                      split_text(split_log(False)))

    def test_unresolved_sign_says_how_many_rounds(self) -> None:
        text = split_text(split_log(True, over_us=2, noise_us=15))
        m = re.search(r"within run-to-run noise: the interval is wider than the overhead, "
                      r"its sign unresolved; about (\d+) more rounds would resolve it "
                      r"\((\d+) in all: the least n with t\(n-1\) \* [\d.]+ / sqrt\(n\) < "
                      r"[\d.]+ us, the differences' spread as observed\)", text)
        self.assertIsNotNone(m, text)
        assert m is not None
        self.assertEqual(int(m.group(2)) - int(m.group(1)), ROUNDS)


@unittest.skipUnless(SCIPY, "python3-scipy is not installed: the intervals need it")
class ReportTest(unittest.TestCase):
    def report(self, log: Log) -> str:
        out = io.StringIO()
        report.write(records.parse(log.text()), out)
        return out.getvalue()

    def test_interleaved_rows_have_an_interval_and_a_drift_flag(self) -> None:
        text = self.report(interleaved_kernel_log())
        self.assertRegex(text, r"\n      95% interval of the mean: [\d.]+ \.\. [\d.]+ GB/s "
                               r"\(\+-[\d.]+%, t over 10 passes, interleaved in round group 1\)\n")
        # 40% slower over the boot: every configuration drifts.
        self.assertEqual(text.count("series: drift: falling over the passes "
                                    "(Mann-Kendall S=-"), 3)

    def test_runs_auto_line(self) -> None:
        log = Log()
        gb = [10.0, 10.1, 9.9, 10.05]
        log.config(kernel_config(runs="auto", precision="5", max_runs="20"),
                   [{"fault": [ticks(g)] * 2} for g in gb],
                   summary="stopped_by=precision ci_pct_x100=253")
        text = self.report(log)
        self.assertIn("runs=auto precision=5%: stopped by precision after 4 rounds, "
                      "95% interval +-1.36% of the mean (the record says +-2.53%)", text)
        self.assertIn("(+-1.36%, t over 4 passes, blocked)", text)
        # A claim the passes do not bear out is said.
        log = Log()
        log.config(kernel_config(runs="auto", precision="1%", max_runs="20"),
                   [{"fault": [ticks(g)] * 2} for g in gb],
                   summary="stopped_by=precision ci_pct_x100=90")
        self.assertIn("precision=1%: stopped by precision after 4 rounds, 95% interval "
                      "+-1.36% of the mean (the record says +-0.90%); NOT within "
                      "precision=1%", self.report(log))

    def test_rows_without_rounds_as_before(self) -> None:
        self.assertNotIn("95% interval", self.report(blocked_kernel_log()))


@unittest.skipUnless(SCIPY, "python3-scipy is not installed: the intervals need it")
class OldLogsTest(unittest.TestCase):
    """What compare and table printed before the intervals, from
    tests/data/before-intervals: the same, less the interval beside each
    change and the lines that say what it is."""
    OLD_LEGEND = ("over runs; change = B vs A.\n'~' marks a change within noise: Welch's "
                  "t-test on the per-run GB/s, two-sided p >= 0.05.\n")

    def strip(self, text: str) -> str:
        i = text.index("over runs.\nchange = B vs A, in % of A")
        j = text.index("Welch's on the per-run GB/s.\n", i) + len("Welch's on the per-run GB/s.\n")
        text = text[:i] + self.OLD_LEGEND + text[j:]
        return re.sub(r"% \[[^\]]*\]", "%", text)

    def test_compare_as_before_plus_intervals(self) -> None:
        data = ROOT / "tests" / "data"
        old = data / "before-one-declaration"
        for name, args in (
                ("kernel-bench-self", ([data / "kernel-bench.log"] * 2, None)),
                ("kernel-bench-clear", ([old / "kernel-bench.log", None],
                                        (["clear=rep"], ["clear=erms"]))),
                ("kernel-smp-self", ([old / "kernel-smp.log"] * 2, None)),
                ("companion-bare-self", ([old / "companion-bare.log"] * 2, None))):
            with self.subTest(name):
                out = io.StringIO()
                (a, b), sel = args
                compare.write(str(a), str(b) if b else None, out,
                              *(sel if sel else (None, None)))
                want = (BEFORE / f"{name}.compare").read_text()
                # The header names the logs by the paths they were given.
                got = self.strip(out.getvalue())
                self.assertEqual(got.split("\n", 2)[2], want.split("\n", 2)[2])
                self.assertRegex(out.getvalue(), r"% \[ *[-+]\d+\.\d, +[-+]\d+\.\d\]|unbounded")

    def test_table_as_before_plus_intervals(self) -> None:
        out = io.StringIO()
        table.write(records.parse((BEFORE / "seed-001.log").read_text()), "text", out)
        got = [" ".join(re.sub(r"% \[[^\]]*\]", "%", ln).split())
               for ln in out.getvalue().splitlines() if not ln.startswith("  change: ")]
        want = [" ".join(ln.split()) for ln in (BEFORE / "seed-001.table").read_text().splitlines()]
        self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
