# SPDX-License-Identifier: GPL-2.0-only
"""rethunk= (docs/hardware.md, "Return thunks"): in QEMU and in the
companion's bare mode, each primitive call returns through the return
thunk asked for, counted by the thunks themselves (rethunk_count=1): a
per-page order's runs count one return per 4K page, a range order's one
per range, rethunk=off none.  QEMU's CPU is none of the mitigated ones, so
rethunk_assume= names the CPU whose thunk Linux would pick: a fake of the
CPUID the choice reads, not of the thunk, which runs for real.  The
tests check that the thunk path runs, never how fast."""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import image, paths, qemu  # noqa: E402

# Two 2M folios: a per-page order makes 1024 calls, a range order 2.
COMMON = ["folio=2M", "size=4M", "runs=1", "warmups=0", "rethunk_count=1"]
ORDERS = "order=discontiguous-page,contiguous-page"
THUNKS = {"bulldozer": "retbleed_return_thunk", "zen2": "srso_return_thunk",
          "zen4": "srso_alias_return_thunk", "icelake": "call_depth_return_thunk"}


def boot(line: list[str]) -> str:
    """A verified boot of the build's kernel with @line; its log."""
    iso = image.build_iso(line)
    with tempfile.TemporaryDirectory(prefix="hz-rethunk-") as d:
        res = qemu.boot(qemu.BootSpec(iso, timeout=240), log_file=Path(d) / "log")
    ok, why = qemu.verdict(res)
    assert ok, why
    return res.log


def bare(*line: str) -> str:
    """The companion's bare mode with @line; its records and stderr."""
    r = subprocess.run([str(paths.BUILD / "hugezero-linux"), "bench=bare", *line],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-800:]
    return r.stdout + r.stderr


def fields(line: str) -> dict[str, str]:
    return {k: v.strip('"') for k, v in re.findall(r'(?:^| )([a-z_0-9]+)=("[^"]*"|\S+)', line)}


def records(log: str, rtype: str) -> list[dict[str, str]]:
    return [fields(m) for m in re.findall(rf"@hz1 \d+ {rtype} ([^\n]*)", log)]


def configs(log: str) -> dict[str, dict[str, str]]:
    """Each config record by its cfg, with its measured runs' fields."""
    out = {c["cfg"]: {**c, "runs": []} for c in records(log, "config")}
    for r in records(log, "run"):
        if r.get("pass") == "measure":
            out[r["cfg"]]["runs"].append(r)   # type: ignore[attr-defined]
    return out


class Counted(unittest.TestCase):
    def check_counts(self, log: str, thunk: str, prefix: str = "") -> None:
        """Every configuration of @log ran, with rethunk=on's runs
        counting one return per primitive call through @thunk, per 4K
        page with discontiguous-page and per folio with contiguous-page,
        and rethunk=off's none."""
        cs = configs(log)
        seen = set()
        for c in cs.values():
            on = c["rethunk"] == "on"
            self.assertEqual(c["rethunk_thunk"], thunk if on else "none", c)
            self.assertTrue(c["name"].startswith(f"{prefix}rethunk-{c['rethunk']}."), c["name"])
            per_page = c["order"] == "discontiguous-page"
            runs = c["runs"]
            self.assertTrue(runs, f"{c['name']}: no measured run")
            for r in runs:   # type: ignore[attr-defined]
                self.assertEqual(r["prim_calls"], "1024" if per_page else "2", c["name"])
                self.assertEqual(r["rethunk_returns"], r["prim_calls"] if on else "0",
                                 c["name"])
            seen.add((c["rethunk"], c["order"]))
        self.assertEqual(len(seen), 4, seen)

    def test_kernel_off_and_on(self) -> None:
        """Both modes in one boot, Zen 4's thunk: on's per-page rows pay
        512 thunks a folio, its range rows one, off's none; the machine
        record says Linux's choice and that it was assumed."""
        log = boot(["bench=fault", "clear=rep", ORDERS, *COMMON, "rethunk=off,on",
                    "rethunk_assume=zen4", "selftest=off"])
        self.check_counts(log, "srso_alias_return_thunk")
        m = records(log, "machine")[0]
        self.assertEqual(m["rethunk_linux"], "srso_alias_return_thunk")
        self.assertIn("rethunk_assume=zen4", m["rethunk_why"])
        self.assertIn("format=5", log)

    def test_kernel_every_thunk(self) -> None:
        """Each thunk of retpoline.S, through the CPU that picks it, over
        a SIMD primitive too (its own RET and register restore)."""
        for cpu, thunk in THUNKS.items():
            with self.subTest(cpu=cpu):
                log = boot(["bench=fault", "clear=rep,avx2", "order=discontiguous-page",
                            *COMMON, "rethunk=on", f"rethunk_assume={cpu}", "selftest=off"])
                cs = configs(log).values()
                self.assertTrue(cs)
                for c in cs:
                    if c["clear"] == "avx2" and not c["runs"]:
                        continue   # the CPU model lacks AVX2: skipped, said so
                    self.assertEqual(c["rethunk_thunk"], thunk)
                    for r in c["runs"]:   # type: ignore[attr-defined]
                        self.assertEqual(r["rethunk_returns"], "1024")

    def test_kernel_default_is_linux_choice(self) -> None:
        """Without rethunk=: names as before, and on exactly where the
        CPU's (here assumed) Linux would use a thunk."""
        for cpu, mode, thunk in (("zen4", "on", "srso_alias_return_thunk"),
                                 ("zen4-srso-no", "off", "none")):
            with self.subTest(cpu=cpu):
                log = boot(["bench=fault", "clear=rep", "order=discontiguous-page",
                            *COMMON, f"rethunk_assume={cpu}", "selftest=off"])
                c = records(log, "config")[0]
                self.assertEqual(c["name"], "2M.rep.discontiguous-page")
                self.assertEqual((c["rethunk"], c["rethunk_thunk"]), (mode, thunk))
                r = [r for r in records(log, "run") if r.get("pass") == "measure"][0]
                self.assertEqual(r["rethunk_returns"], "1024" if mode == "on" else "0")

    def test_bare_off_and_on(self) -> None:
        """The companion's bare mode: the same counts, call-depth tracking
        (GS base set by arch_prctl) and Zen 4's safe RET."""
        for cpu in ("icelake", "zen4"):
            with self.subTest(cpu=cpu):
                out = bare("clear=rep", ORDERS, *COMMON, "rethunk=off,on",
                           f"rethunk_assume={cpu}")
                self.check_counts(out, THUNKS[cpu], "bare.")

    def test_report_labels_the_axis(self) -> None:
        """report heads rethunk=on's lines with it and its thunk; off's
        lines as any log before format 5."""
        out = bare("clear=rep", "order=contiguous-page", *COMMON, "rethunk=off,on",
                   "rethunk_assume=zen4")
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(out)
            f.flush()
            rep = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"),
                                  "report", f.name], capture_output=True, text=True,
                                 check=True).stdout
        self.assertIn("rethunk=on rethunk_thunk=srso_alias_return_thunk", rep)
        self.assertEqual(rep.count("rethunk=on"), 1, rep)


class TreeCopies(unittest.TestCase):
    """make LINUX=: a tree's clear_page_64.S assembled once more per
    thunk, its RET through it (docs/hardware.md, "Return thunks"), so a
    6.x tree's per-page routine pays one thunk per 4K page whatever the
    order, as clear_page() did, and a 7.0 tree's range routine one per
    call, as clear_pages() does; in the companion's bare mode and QEMU."""

    def built(self, tree: str) -> Path:
        sys.path.insert(0, str(ROOT / "tests"))
        from test_linux_tree import TREES, build   # noqa: E402
        # The build test_linux_tree makes of the same tree: every make
        # LINUX= build has the copies (RT_COPIES), one build serves both.
        r, out = build(TREES / tree, tree)
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        return out

    def counts(self, text: str) -> dict[str, tuple[str, str]]:
        """(prim_calls, rethunk_returns) of each configuration's measured run."""
        return {c["name"].split(".", 1)[1] if c["name"].startswith("bare.") else c["name"]:
                (c["runs"][0]["prim_calls"], c["runs"][0]["rethunk_returns"])  # type: ignore
                for c in configs(text).values() if c["runs"]}

    def test_per_page_tree(self) -> None:
        out = self.built("v6.x")
        line = ["clear=linux-erms", ORDERS, *COMMON, "rethunk=off,on", "rethunk_assume=zen2"]
        r = subprocess.run([str(out / "hugezero-linux"), "bench=bare", *line],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr[-800:])
        iso = image.build_iso(["bench=fault", *line, "selftest=off"],
                              elf=out / "hugezero.elf", cache=out / "images")
        with tempfile.TemporaryDirectory(prefix="hz-rethunk-") as d:
            res = qemu.boot(qemu.BootSpec(iso, timeout=240), log_file=Path(d) / "log")
        ok, why = qemu.verdict(res)
        self.assertTrue(ok, why)
        for text in (r.stdout, res.log):
            self.assertEqual(self.counts(text), {
                "rethunk-off.2M.linux-erms.discontiguous-page": ("1024", "0"),
                "rethunk-off.2M.linux-erms.contiguous-page": ("2", "0"),
                "rethunk-on.2M.linux-erms.discontiguous-page": ("1024", "1024"),
                "rethunk-on.2M.linux-erms.contiguous-page": ("2", "1024")})

    def test_range_tree(self) -> None:
        out = self.built("v7.0")
        text = subprocess.run(
            [str(out / "hugezero-linux"), "bench=bare", "clear=linux-unrolled", ORDERS,
             *COMMON, "rethunk=on", "rethunk_assume=icelake"],
            capture_output=True, text=True, timeout=300, check=True).stdout
        self.assertEqual(self.counts(text), {
            "rethunk-on.2M.linux-unrolled.discontiguous-page": ("1024", "1024"),
            "rethunk-on.2M.linux-unrolled.contiguous-page": ("2", "2")})


if __name__ == "__main__":
    unittest.main()
