# SPDX-License-Identifier: GPL-2.0-only
"""compare across record formats (docs/records.md): a pair whose meaning
changed between its sides' formats (a SIMD clear under a model, a
pre-zeroed fault: format 3) is marked, says why and makes the exit
status 1; every other pair, and any comparison within one format, reads
as before."""
from __future__ import annotations

import io
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import compare  # noqa: E402
from synth import Log, kernel_config  # noqa: E402
from test_compare_select import Files  # noqa: E402

FPU = "format 2 saved FPU registers per call, format 3 per fault (docs/records.md)"
# The kernel_fpu_* field each format records with a SIMD clear under a model.
FPU_FIELD = {1: {}, 2: {"kernel_fpu_ticks": "900"},
             3: {"kernel_fpu_save_ticks": "700", "kernel_fpu_call_ticks": "40"}}


def runs(ticks: int) -> list[dict[str, list[int]]]:
    return [{"fault": [ticks, ticks], "clear": [ticks // 2] * 2},
            {"fault": [ticks * 11 // 10] * 2, "clear": [ticks // 2] * 2}]


def log(fmt: int | None, ticks: int, simd: bool = True, prezero: bool = False) -> Log:
    """One boot of record format @fmt (None: no format field, format 1):
    avx2 under preempt=full (with its kernel_fpu_* field when @simd), erms
    under preempt=full, and with @prezero erms pre-zeroed on request."""
    fmt_field = f" format={fmt}" if fmt is not None else ""
    lg = Log(boot=f'version=0.2{fmt_field} firmware=bios cmdline="bench=fault"')
    if simd:
        lg.config(kernel_config(name="2M.avx2.contiguous-page", clear="avx2",
                                preempt="full", **FPU_FIELD[fmt or 1]), runs(ticks))
    lg.config(kernel_config(preempt="full"), runs(ticks * 2))
    if prezero:
        lg.config(kernel_config(prezero="request"), runs(ticks * 3))
    return lg


def cmp(f: Files, a: Log, b: Log) -> tuple[int, str]:
    """compare's exit status and output, @a against @b."""
    out = io.StringIO()
    rc = compare.write(f.log("a.log", a), f.log("b.log", b), out)
    return rc, out.getvalue()


def row(text: str, clear: str, extra: str = "") -> str:
    """The pair line of @clear (and @extra in its label)."""
    hits = [ln for ln in text.splitlines()
            if ln.count(" +- ") == 2 and f"clear={clear}" in ln and extra in ln]
    assert len(hits) == 1, (clear, text)
    return hits[0]


class FormatTest(unittest.TestCase):
    def test_same_format_reads_as_before(self) -> None:
        # Both sides format 3, or both format 1 (no field): the same
        # output, byte for byte, with no mark, header or note.
        with Files() as f:
            rc3, t3 = cmp(f, log(3, 1000, prezero=True), log(3, 1100, prezero=True))
            # Format 1 had no SIMD under a model: the text of the rest.
            rc1, t1 = cmp(f, log(None, 1000, simd=False, prezero=True),
                            log(None, 1100, simd=False, prezero=True))
            rc3n, t3n = cmp(f, log(3, 1000, simd=False, prezero=True),
                              log(3, 1100, simd=False, prezero=True))
        self.assertEqual((rc3, rc1, rc3n), (0, 0, 0))
        self.assertEqual(t1, t3n)
        for t in (t3, t1):
            self.assertNotIn("record format", t)
            self.assertNotIn("!", t)
            self.assertNotIn("like with like", t)

    def test_simd_under_a_model_across_formats_is_marked(self) -> None:
        with Files() as f:
            rc, t = cmp(f, log(2, 1000), log(3, 500))
        self.assertEqual(rc, 1)
        self.assertIn("A: record format 2, B: record format 3\n", t)
        self.assertTrue(row(t, "avx2").endswith("  !1"), t)
        self.assertIn(f"  !1 {FPU}\n", t)
        self.assertIn("not like with like (record formats differ): exit 1", t)

    def test_either_side_knows_it_is_simd(self) -> None:
        # A format-1 style side without the field still pairs across the
        # format-3 change when the other side says it ran SIMD.
        with Files() as f:
            rc, t = cmp(f, log(None, 1000, simd=False).config(
                kernel_config(name="2M.avx2.contiguous-page", clear="avx2",
                              preempt="full"), runs(1000)), log(3, 500))
        self.assertEqual(rc, 1)
        self.assertIn("A: record format 1, B: record format 3\n", t)
        self.assertTrue(row(t, "avx2").endswith("  !1"), t)

    def test_non_simd_pair_across_formats_is_not_marked(self) -> None:
        with Files() as f:
            rc, t = cmp(f, log(2, 1000, simd=False), log(3, 500, simd=False))
        self.assertEqual(rc, 0)
        self.assertIn("A: record format 2, B: record format 3\n", t)
        self.assertFalse(row(t, "erms").endswith("!1"), t)
        self.assertNotIn(FPU, t)
        self.assertNotIn("like with like", t)

    def test_only_the_simd_pair_is_marked(self) -> None:
        with Files() as f:
            _, t = cmp(f, log(2, 1000), log(3, 500))
        self.assertTrue(row(t, "avx2").endswith("!1"))
        self.assertNotIn("!", row(t, "erms"))

    def test_formats_1_and_2_mean_the_same(self) -> None:
        # Format 2 only added fields: a SIMD pair of formats 1 and 2 is
        # like with like; the header still says the formats.
        with Files() as f:
            rc, t = cmp(f, log(None, 1000).config(kernel_config(
                name="x", clear="avx2", preempt="full", kernel_fpu_ticks="9"),
                runs(1000)), log(2, 500))
        self.assertEqual(rc, 0)
        self.assertIn("A: record format 1, B: record format 2\n", t)
        self.assertNotIn("like with like", t)

    def test_prezeroed_pair_across_formats_is_marked(self) -> None:
        with Files() as f:
            rc, t = cmp(f, log(2, 1000, simd=False, prezero=True),
                          log(3, 500, simd=False, prezero=True))
        self.assertEqual(rc, 1)
        pz = row(t, "erms", "prezero=request")
        self.assertTrue(pz.endswith("  !1"), t)
        self.assertIn("  !1 format 2's summary netted a pre-zeroed fault", t)
        self.assertNotIn("!", row(t, "erms", "prezero=none"))

    def test_simd_with_no_model_across_format_5_is_marked(self) -> None:
        # Format 5 pays kernel_fpu_begin/end around every SIMD call with no
        # model too; its run records count them (kernel_fpu_pairs).
        def nomodel(fmt: int) -> Log:
            lg = Log(boot=f'version=0.3 format={fmt} firmware=bios cmdline="bench=fault"')
            pairs = " kernel_fpu_pairs=1024" if fmt >= 5 else ""
            lg.config(kernel_config(name="2M.avx2.converging-page", clear="avx2",
                                    order="converging-page"), runs(1000),
                      run_extra=f"prim_calls=1024 prim_calls_max=512{pairs}")
            lg.config(kernel_config(), runs(2000),
                      run_extra="prim_calls=2 prim_calls_max=1" +
                      (" kernel_fpu_pairs=0" if fmt >= 5 else ""))
            return lg
        with Files() as f:
            rc, t = cmp(f, nomodel(4), nomodel(5))
            rc5, t5 = cmp(f, nomodel(5), nomodel(5))
        self.assertEqual(rc, 1, t)
        self.assertIn("A: record format 4, B: record format 5\n", t)
        self.assertTrue(row(t, "avx2").endswith("  !1"), t)
        self.assertIn("  !1 format 4 ran a SIMD clear with no model outside "
                      "kernel_fpu_begin/end", t)
        self.assertNotIn("!", row(t, "erms"))
        self.assertEqual(rc5, 0, t5)
        self.assertNotIn("like with like", t5)

    def test_two_reasons_numbered_once_each(self) -> None:
        with Files() as f:
            _, t = cmp(f, log(2, 1000, prezero=True), log(3, 500, prezero=True))
        self.assertTrue(row(t, "avx2").endswith("  !1"))
        self.assertTrue(row(t, "erms", "prezero=request").endswith("  !2"))
        self.assertEqual(t.count(FPU), 1)


if __name__ == "__main__":
    unittest.main()


def tree_log(tree: str | None, ticks: int) -> Log:
    """A format-3 boot whose image carried @tree's routines (None: none),
    with one linux-erms configuration."""
    extra = (f' linux_tree={tree} linux_tree_sha256={"ab" * 32}' if tree else "")
    lg = Log(boot=f'version=0.3 format=3 firmware=bios cmdline="bench=fault"{extra}')
    lg.config(kernel_config(name="2M.linux-erms.contiguous-page", clear="linux-erms"),
              runs(ticks))
    return lg


class TreeTest(unittest.TestCase):
    """linux-* rows pair by name across trees (a patch against the tree
    before it): the header says which tree each side's came from."""

    def test_each_sides_tree_named(self) -> None:
        with Files() as f:
            rc, t = cmp(f, tree_log("6.12.118", 1000), tree_log("7.0.0", 900))
        self.assertEqual(rc, 0)
        self.assertIn("A: linux-* primitives from Linux 6.12.118 (sha abababababab), "
                      "B: linux-* primitives from Linux 7.0.0 (sha abababababab)", t)
        row(t, "linux-erms")

    def test_no_tree_no_line(self) -> None:
        with Files() as f:
            _, t = cmp(f, log(3, 1000), log(3, 1100))
        self.assertNotIn("linux-* primitives", t)
