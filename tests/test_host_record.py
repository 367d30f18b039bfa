# SPDX-License-Identifier: GPL-2.0-only
"""The companion's host record: the preemption model and init_on_alloc/free,
with where each was read.  Fake /proc, /sys and /boot trees under
HUGEZERO_HOST_ROOT stand for the kernels this machine is not."""
from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths, records  # noqa: E402

EXE = paths.COMPANION
# The cheapest run that writes a host record: one 4K clear.
ARGS = ["bench=bare", "folio=4K", "size=4K", "runs=1", "warmups=0", "clear=rep",
        "order=contiguous-page"]
DEBUGFS = "/sys/kernel/debug/sched/preempt"
RELEASE = os.uname().release

# This machine's kind of config: a dynamic kernel that boots into none.
DYNAMIC_NONE = {"PREEMPT_DYNAMIC": "y", "PREEMPT_NONE": "y", "PREEMPT": "n",
                "PREEMPT_VOLUNTARY": "n", "PREEMPT_LAZY": "n",
                "ARCH_HAS_PREEMPT_LAZY": "y"}


def kconfig(syms: dict[str, str]) -> str:
    return "".join(f"CONFIG_{k}={v}\n" if v != "n" else f"# CONFIG_{k} is not set\n"
                   for k, v in syms.items())


def host_record(root: str | None = None, env: dict[str, str] | None = None) -> dict[str, str]:
    """The host record of one companion run, checked as every record is."""
    return host_run(root, env)[0]


def host_run(root: str | None = None,
             env: dict[str, str] | None = None) -> tuple[dict[str, str], str]:
    """The host record of one companion run and its standard error."""
    full = dict(os.environ, **(env or {}))
    if root is not None:
        full["HUGEZERO_HOST_ROOT"] = root
    r = subprocess.run([str(EXE), *ARGS], capture_output=True, text=True,
                       timeout=60, env=full)
    if r.returncode != 0:
        raise AssertionError(f"companion exited {r.returncode}: {r.stderr[-300:]}")
    (boot,) = records.parse(r.stdout)
    if boot.problems or not boot.complete:
        raise AssertionError(f"bad records: {boot.problems}")
    rec = boot.first("host")
    if rec is None:
        raise AssertionError("no host record")
    if "truncated" in rec.f:
        raise AssertionError("host record truncated")
    return rec.f, r.stderr


class FakeHostTest(unittest.TestCase):
    """One fake tree per test: write files into it, then read the record."""

    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux "
                        "(make test builds it first)")
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.put("proc/cmdline", "console=ttyS0 quiet\n")

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def put(self, rel: str, text: str | bytes) -> str:
        path = Path(self.root, rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode() if isinstance(text, str) else text
        path.write_bytes(gzip.compress(data) if rel.endswith(".gz") else data)
        return str(path)

    def config_gz(self, syms: dict[str, str]) -> str:
        return self.put("proc/config.gz", kconfig(syms))

    def run_host(self, env: dict[str, str] | None = None) -> dict[str, str]:
        return host_record(self.root, env)

    def assert_preempt(self, f: dict[str, str], model: str, source: str) -> None:
        self.assertEqual((f["preempt"], f["preempt_source"]), (model, source))

    def assert_from_config(self, syms: dict[str, str], model: str, says: str,
                           cmdline: str = "", no_effect: str = "") -> None:
        """preempt=@model from a config.gz of @syms, its source saying @says,
        and naming the preempt=@no_effect on @cmdline that does nothing."""
        gz = self.config_gz(syms)
        path = self.put("proc/cmdline", cmdline + "\n")
        tail = f"; preempt={no_effect} on {path} has no effect" if no_effect else ""
        self.assert_preempt(self.run_host(), model, f"{gz}: {says}{tail}")


class PreemptTest(FakeHostTest):
    def setUp(self) -> None:
        super().setUp()
        # Kernels before 7.0, all four models offered.
        self.put("proc/sys/kernel/osrelease", "6.18.0\n")

    def test_config_gz_dynamic_none(self) -> None:
        self.assert_from_config(DYNAMIC_NONE, "none",
                                "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT_NONE=y")

    def test_debugfs_wins(self) -> None:
        self.config_gz(DYNAMIC_NONE)
        self.put("proc/cmdline", "preempt=voluntary\n")
        path = self.put(DEBUGFS[1:], "none voluntary (full) lazy \n")
        self.assert_preempt(self.run_host(), "full",
                            f"{path}: none voluntary (full) lazy")

    def test_debugfs_unknown_mode(self) -> None:
        path = self.put(DEBUGFS[1:], "none (laziest) full\n")
        self.assert_preempt(self.run_host(), "unknown",
                            f"{path}: none (laziest) full (no known mode in parentheses)")

    def test_cmdline_over_config(self) -> None:
        self.config_gz(DYNAMIC_NONE)
        cmdline = self.put("proc/cmdline", 'quiet preempt=voluntary "preempt=full" ro\n')
        self.assert_preempt(self.run_host(), "full", f"{cmdline}: preempt=full")

    def test_cmdline_without_config(self) -> None:
        cmdline = self.put("proc/cmdline", "preempt=lazy\n")
        self.assert_preempt(self.run_host(), "lazy", f"{cmdline}: preempt=lazy")

    def test_cmdline_after_dashes_is_inits(self) -> None:
        self.assert_from_config(DYNAMIC_NONE, "none",
                                "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT_NONE=y",
                                cmdline="quiet -- preempt=full")

    def test_cmdline_value_rejected(self) -> None:
        self.assert_from_config(dict(DYNAMIC_NONE, ARCH_HAS_PREEMPT_LAZY="n"), "none",
                                "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT_NONE=y",
                                cmdline="preempt=lazy preempt=Full", no_effect="Full")

    def test_lazy_default(self) -> None:
        self.assert_from_config(dict(DYNAMIC_NONE, PREEMPT_NONE="n", PREEMPT_LAZY="y"),
                                "lazy", "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT_LAZY=y")

    def test_static_preempt_ignores_cmdline(self) -> None:
        self.assert_from_config({"PREEMPT_DYNAMIC": "n", "PREEMPT_NONE": "n", "PREEMPT": "y"},
                                "full", "CONFIG_PREEMPT_DYNAMIC is not set, CONFIG_PREEMPT=y",
                                cmdline="preempt=none", no_effect="none")

    def test_rt_as_its_own_choice(self) -> None:
        self.assert_from_config({"PREEMPT_RT": "y", "PREEMPT": "n"}, "full",
                                "CONFIG_PREEMPT_DYNAMIC is not set, CONFIG_PREEMPT_RT=y")

    def test_rt_dynamic_takes_no_none(self) -> None:
        self.assert_from_config({"PREEMPT_DYNAMIC": "y", "PREEMPT": "y", "PREEMPT_RT": "y"},
                                "full", "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT=y, "
                                "CONFIG_PREEMPT_RT=y", cmdline="preempt=none",
                                no_effect="none")

    def test_behaviour_configs_of_5_15(self) -> None:
        self.assert_from_config({"PREEMPT_DYNAMIC": "y", "PREEMPT": "y",
                                 "PREEMPT_VOLUNTARY_BEHAVIOUR": "y"}, "voluntary",
                                "CONFIG_PREEMPT_DYNAMIC=y, "
                                "CONFIG_PREEMPT_VOLUNTARY_BEHAVIOUR=y")

    def test_boot_config(self) -> None:
        boot = self.put(f"boot/config-{RELEASE}",
                        kconfig({"PREEMPT_DYNAMIC": "n", "PREEMPT_VOLUNTARY": "y"}))
        self.assert_preempt(self.run_host(), "voluntary",
                            f"{boot}: CONFIG_PREEMPT_DYNAMIC is not set, "
                            "CONFIG_PREEMPT_VOLUNTARY=y")

    def test_no_config_anywhere(self) -> None:
        f = self.run_host()
        r = self.root
        self.assert_preempt(f, "unknown",
                            f"{r}{DEBUGFS}: No such file or directory; no preempt= on "
                            f"{r}/proc/cmdline; {r}/proc/config.gz: No such file or "
                            f"directory; {r}/boot/config-{RELEASE}: No such file or directory")
        self.assertEqual(f["init_on_alloc"], "unknown")
        self.assertEqual(f["init_on_free_source"],
                         f"no init_on_free= on {r}/proc/cmdline, no kernel config readable")

    def test_no_gzip(self) -> None:
        gz = self.config_gz(DYNAMIC_NONE)
        with tempfile.TemporaryDirectory() as empty:
            f = self.run_host({"PATH": empty})
        self.assertEqual(f["preempt"], "unknown")
        self.assertIn(f"{gz}: no gzip on PATH to decompress it;", f["preempt_source"])


class Linux7Test(FakeHostTest):
    """From Linux 7.0 x86 offers full and lazy only (commit 7dadeaa6e851,
    lib/preempt.h): preempt=none and voluntary do nothing there, and a
    model no source gives is taken as full, saying so.  The release is the
    fake tree's proc/sys/kernel/osrelease."""
    TAKEN = "; taken as full: Linux 7.0.0 on x86 offers only full and lazy"

    def test_unreadable_is_full_and_said(self) -> None:
        self.put("proc/sys/kernel/osrelease", "7.0.0\n")
        f, err = host_run(self.root)
        r = self.root
        self.assert_preempt(f, "full",
                            f"{r}{DEBUGFS}: No such file or directory; no preempt= on "
                            f"{r}/proc/cmdline; {r}/proc/config.gz: No such file or "
                            f"directory; {r}/boot/config-{RELEASE}: No such file or "
                            f"directory{self.TAKEN}")
        self.assertIn(f"hugezero-linux: preempt=full assumed, no source said the model: "
                      f"{f['preempt_source']}\n", err)

    def test_unknown_debugfs_mode_too(self) -> None:
        self.put("proc/sys/kernel/osrelease", "7.0.0\n")
        path = self.put(DEBUGFS[1:], "(laziest) full\n")
        self.assert_preempt(self.run_host(), "full", f"{path}: (laziest) full (no known "
                            f"mode in parentheses){self.TAKEN}")

    def test_none_on_cmdline_does_nothing(self) -> None:
        self.put("proc/sys/kernel/osrelease", "7.0.0-rc6\n")
        self.assert_from_config(
            dict(DYNAMIC_NONE, PREEMPT_NONE="n", PREEMPT_LAZY="y"), "lazy",
            "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT_LAZY=y",
            cmdline="preempt=voluntary", no_effect="voluntary")

    def test_read_model_is_not_assumed(self) -> None:
        self.put("proc/sys/kernel/osrelease", "7.1.2\n")
        path = self.put(DEBUGFS[1:], "full (lazy) \n")
        f, err = host_run(self.root)
        self.assert_preempt(f, "lazy", f"{path}: full (lazy)")
        self.assertNotIn("assumed", err)

    def test_a_none_config_is_said_not_offered(self) -> None:
        # No x86 7.0 can build it (PREEMPT_NONE needs ARCH_NO_PREEMPT).
        self.put("proc/sys/kernel/osrelease", "7.0.0\n")
        self.assert_from_config(DYNAMIC_NONE, "none",
                                "CONFIG_PREEMPT_DYNAMIC=y, CONFIG_PREEMPT_NONE=y; "
                                "not a model x86 Linux 7.0.0 offers")

    def test_before_7_unknown_stays_unknown(self) -> None:
        self.put("proc/sys/kernel/osrelease", "6.19.3\n")
        f, err = host_run(self.root)
        self.assertEqual(f["preempt"], "unknown")
        self.assertNotIn("assumed", err)


class InitOnTest(FakeHostTest):
    def assert_settings(self, **want: tuple[str, str]) -> None:
        """Each named setting's value and source, as @want has them."""
        f = self.run_host()
        for key, value_source in want.items():
            self.assertEqual((f[key], f[f"{key}_source"]), value_source)

    def test_config_defaults(self) -> None:
        gz = self.config_gz(dict(DYNAMIC_NONE, INIT_ON_ALLOC_DEFAULT_ON="y",
                                 INIT_ON_FREE_DEFAULT_ON="n"))
        self.assert_settings(
            init_on_alloc=("1", f"{gz}: CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y"),
            init_on_free=("0", f"{gz}: CONFIG_INIT_ON_FREE_DEFAULT_ON is not set"))

    def test_cmdline_overrides(self) -> None:
        self.config_gz(dict(DYNAMIC_NONE, INIT_ON_ALLOC_DEFAULT_ON="y"))
        cmdline = self.put("proc/cmdline",
                           "init_on_alloc=1 init_on_alloc=off init-on-free=Y\n")
        self.assert_settings(init_on_alloc=("0", f"{cmdline}: init_on_alloc=off"),
                             init_on_free=("1", f"{cmdline}: init_on_free=Y"))

    def test_cmdline_without_config(self) -> None:
        cmdline = self.put("proc/cmdline", "init_on_alloc=true\n")
        self.assert_settings(
            init_on_alloc=("1", f"{cmdline}: init_on_alloc=true"),
            init_on_free=("unknown", f"no init_on_free= on {cmdline}, "
                          "no kernel config readable"))

    def test_rejected_value_keeps_default(self) -> None:
        gz = self.config_gz(dict(DYNAMIC_NONE, INIT_ON_ALLOC_DEFAULT_ON="y"))
        cmdline = self.put("proc/cmdline", "init_on_alloc=2 init_on_alloc\n")
        self.assert_settings(init_on_alloc=(
            "1", f"{gz}: CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y; init_on_alloc=2 on "
            f"{cmdline} rejected"))

    def test_page_poisoning_wins(self) -> None:
        gz = self.config_gz(dict(DYNAMIC_NONE, INIT_ON_ALLOC_DEFAULT_ON="y",
                                 PAGE_POISONING="y"))
        cmdline = self.put("proc/cmdline", "page_poison=1\n")
        self.assert_settings(init_on_alloc=(
            "0", f"{gz}: CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y; page_poison=1 on "
            f"{cmdline} with CONFIG_PAGE_POISONING=y turns it off"))


def kernel_cmdline() -> str:
    """/proc/cmdline up to "--": what follows is init's."""
    words = Path("/proc/cmdline").read_text().split()
    return " ".join(words[:words.index("--")] if "--" in words else words)


class RealHostTest(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux "
                        "(make test builds it first)")

    def test_this_machine(self) -> None:
        f = host_record()
        self.assertIn(f["preempt"], ("none", "voluntary", "full", "lazy", "unknown"))
        self.assertTrue(f["preempt_source"])
        for key in ("init_on_alloc", "init_on_free"):
            self.assertIn(f[key], ("0", "1", "unknown"))
            self.assertTrue(f[f"{key}_source"])

    def test_config_gz_none_machine(self) -> None:
        """A machine like the one this was written on says none from config.gz."""
        try:
            config = gzip.decompress(Path("/proc/config.gz").read_bytes()).decode()
        except OSError:
            self.skipTest("no readable /proc/config.gz")
        if ("CONFIG_PREEMPT_NONE=y\n" not in config or os.access(DEBUGFS, os.R_OK)
                or "preempt=" in kernel_cmdline()):
            self.skipTest("not a machine whose preemption model only config.gz gives")
        f = host_record()
        self.assertEqual(f["preempt"], "none")
        self.assertTrue(f["preempt_source"].startswith("/proc/config.gz: "), f)
        self.assertIn("CONFIG_PREEMPT_NONE=y", f["preempt_source"])


if __name__ == "__main__":
    unittest.main()
