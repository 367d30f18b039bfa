# SPDX-License-Identifier: GPL-2.0-only
"""The companion's boost=: turbo and boost read, recorded, set for the run
and put back, through fake sysfs trees under HUGEZERO_HOST_ROOT laid out
as each cpufreq driver lays out the real one (this machine, a virtual
one, has no cpufreq driver at all).  A refused write is a write by a user
the fake files do not let write: nobody, when the tests run as root."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths, records  # noqa: E402

EXE = paths.COMPANION
# The cheapest run that writes the records: one 4K clear.
ARGS = ["bench=bare", "folio=4K", "size=4K", "runs=1", "warmups=0", "clear=rep",
        "order=contiguous-page"]
CPU = "sys/devices/system/cpu"
NOBODY = 65534


class Tree:
    """A fake /sys of one cpufreq driver's files."""

    def __init__(self, root: str) -> None:
        self.root = root

    def put(self, rel: str, text: str) -> Path:
        p = Path(self.root, rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text + "\n")
        return p

    def read(self, rel: str) -> str:
        return Path(self.root, rel).read_text().strip()

    def intel_pstate(self, no_turbo: int, policies: int = 2) -> None:
        """intel_pstate: no_turbo, and no cpufreq boost file (its driver
        has no set_boost)."""
        self.put(f"{CPU}/intel_pstate/no_turbo", str(no_turbo))
        self.put(f"{CPU}/intel_pstate/status", "active")
        for i in range(policies):
            self.put(f"{CPU}/cpufreq/policy{i}/scaling_driver", "intel_pstate")

    def cpufreq(self, driver: str, boost: int, policy: list[int],
                amd_status: str = "") -> None:
        """A driver with set_boost(): the core's global boost and one
        boost file a policy."""
        self.put(f"{CPU}/cpufreq/boost", str(boost))
        for i, v in enumerate(policy):
            self.put(f"{CPU}/cpufreq/policy{i}/boost", str(v))
            self.put(f"{CPU}/cpufreq/policy{i}/scaling_driver", driver)
        if amd_status:
            self.put(f"{CPU}/amd_pstate/status", amd_status)

    def snapshot(self) -> dict[str, str]:
        """Every boost file and what it holds."""
        return {str(p.relative_to(self.root)): p.read_text()
                for p in sorted(Path(self.root).rglob("*"))
                if p.is_file() and p.name in ("boost", "no_turbo")}


def run(root: str, *args: str, user: int | None = None) -> subprocess.CompletedProcess[str]:
    """The companion on the fake host tree @root, as @user.  Another user
    may not reach build/ (a clone under a 0700 directory, as mktemp -d
    makes): it runs a copy in @root, which every user reads, from there."""
    env = dict(os.environ, HUGEZERO_HOST_ROOT=root)
    exe, cwd = str(EXE), None
    if user is not None:
        exe, cwd = shutil.copy2(EXE, Path(root) / EXE.name), root
    return subprocess.run([exe, *ARGS, *args], capture_output=True, text=True,
                          timeout=60, env=env, user=user, cwd=cwd)


def boost_record(r: subprocess.CompletedProcess[str]) -> dict[str, str]:
    if r.returncode != 0:
        raise AssertionError(f"companion exited {r.returncode}: {r.stderr[-400:]}")
    (boot,) = records.parse(r.stdout)
    if boot.problems or not boot.complete:
        raise AssertionError(f"bad records: {boot.problems}")
    rec = boot.first("boost")
    if rec is None:
        raise AssertionError("no boost record")
    # Right after the host record, before any configuration.
    types = [x.type for x in boot.records]
    if types.index("boost") != types.index("host") + 1:
        raise AssertionError(f"boost record not after host: {types[:8]}")
    return rec.f


class BoostTest(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")
        self.tmp = tempfile.TemporaryDirectory()
        os.chmod(self.tmp.name, 0o755)	# nobody reads it too
        self.t = Tree(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def path(self, rel: str) -> str:
        return str(Path(self.tmp.name, rel))


class FirmwareTest(BoostTest):
    """boost=firmware (the default) reads each driver's files, records
    the state with where it was read, and writes nothing."""

    def assert_found(self, state: str, *source: str) -> None:
        before = self.t.snapshot()
        f = boost_record(run(self.tmp.name))
        self.assertEqual((f["asked"], f["before"], f["after"]), ("firmware", state, state), f)
        for s in source:
            self.assertIn(s, f["source"])
        self.assertEqual(self.t.snapshot(), before, "boost=firmware wrote something")

    def test_intel_pstate_no_turbo(self) -> None:
        self.t.intel_pstate(no_turbo=1)
        self.assert_found("off", f"{self.path(CPU + '/intel_pstate/no_turbo')}: 1 (turbo off)",
                          "scaling_driver intel_pstate; intel_pstate/status active")

    def test_acpi_cpufreq(self) -> None:
        self.t.cpufreq("acpi-cpufreq", 1, [1, 1])
        self.assert_found("on", f"{self.path(CPU + '/cpufreq/boost')}: 1",
                          "policy*/boost: on (2 on, 0 off of 2 policies)",
                          "scaling_driver acpi-cpufreq")

    def test_amd_pstate_passive(self) -> None:
        self.t.cpufreq("amd-pstate", 0, [0, 0, 0], amd_status="passive")
        self.assert_found("off", "policy*/boost: off (0 on, 3 off of 3 policies)",
                          "scaling_driver amd-pstate; amd_pstate/status passive")

    def test_policies_that_differ_are_mixed(self) -> None:
        # The global file says on; a policy's own says what its CPUs run.
        self.t.cpufreq("amd-pstate-epp", 1, [1, 0], amd_status="active")
        self.assert_found("mixed", "(1 on, 1 off of 2 policies)",
                          "scaling_driver amd-pstate-epp; amd_pstate/status active")

    def test_global_file_alone(self) -> None:
        self.t.put(f"{CPU}/cpufreq/boost", "0")
        self.assert_found("off", "policy*/boost: absent")

    def test_no_control(self) -> None:
        # A virtual machine's: no driver, nothing to read.
        self.assert_found("unknown", "offers no boost control",
                          "(no cpufreq policy)")

    def test_intel_pstate_off_falls_to_acpi_cpufreq(self) -> None:
        # intel_pstate not driving (its no_turbo answers EAGAIN: here a
        # file that reads neither 0 nor 1); acpi-cpufreq then is.
        self.t.put(f"{CPU}/intel_pstate/no_turbo", "")
        self.t.cpufreq("acpi-cpufreq", 1, [1])
        self.assert_found("on", "scaling_driver acpi-cpufreq")


class SetTest(BoostTest):
    """boost=off|on sets it for the run, records what it found and what
    the run had, and puts every file back at exit."""

    def assert_set(self, mode: str, found: str, *source: str) -> None:
        before = self.t.snapshot()
        r = run(self.tmp.name, f"boost={mode}")
        f = boost_record(r)
        self.assertEqual((f["asked"], f["before"], f["after"]), (mode, found, mode), f)
        for s in source:
            self.assertIn(s, f["source"])
        self.assertIn(f"boost={mode}: was {found}, {mode} for the run", r.stderr)
        self.assertEqual(self.t.snapshot(), before, "not put back at exit")

    def test_intel_off(self) -> None:
        self.t.intel_pstate(no_turbo=0)
        self.assert_set("off", "on", "no_turbo: 1 (turbo off)")

    def test_intel_on(self) -> None:
        self.t.intel_pstate(no_turbo=1)
        self.assert_set("on", "off", "no_turbo: 0 (turbo on)")

    def test_acpi_cpufreq_off(self) -> None:
        self.t.cpufreq("acpi-cpufreq", 1, [1, 1])
        self.assert_set("off", "on", "cpufreq/boost: 0", "(0 on, 2 off of 2 policies)")

    def test_amd_pstate_on(self) -> None:
        self.t.cpufreq("amd-pstate", 0, [0, 0], amd_status="guided")
        self.assert_set("on", "off", "cpufreq/boost: 1", "(2 on, 0 off of 2 policies)")

    def test_mixed_off_and_back(self) -> None:
        # Each policy is put back to its own value, the global one first.
        self.t.cpufreq("amd-pstate-epp", 1, [1, 0, 1], amd_status="active")
        self.assert_set("off", "mixed", "(0 on, 3 off of 3 policies)")

    def test_matching_state_writes_nothing(self) -> None:
        # Already as asked: nothing written, so no root needed.
        self.t.intel_pstate(no_turbo=1)
        os.chmod(self.path(CPU + "/intel_pstate/no_turbo"), 0o444)
        f = boost_record(run(self.tmp.name, "boost=off",
                             user=NOBODY if os.geteuid() == 0 else None))
        self.assertEqual((f["before"], f["after"]), ("off", "off"))

    def test_nothing_to_set_goes_on(self) -> None:
        r = run(self.tmp.name, "boost=off")
        f = boost_record(r)
        self.assertEqual((f["asked"], f["before"], f["after"]), ("off", "unknown", "unknown"))
        self.assertIn("boost=off: nothing to set", r.stderr)
        self.assertIn("the run goes on as found", r.stderr)


class CheckTest(BoostTest):
    """boost=off|on is checked as the kernel's is (hosted/boost_effect.c,
    lib/boost.c boost_check()): APERF/MPERF from /dev/cpu/N/msr over a busy
    loop.  The fake tree has no /dev/cpu, and most VMs lack APERF/MPERF:
    either way it cannot check, and says why in the record and on standard
    error; the decision on readings is tested on the host with faked
    ones (tests/host/test_boost.c).  boost=firmware checks nothing."""

    def test_on_says_it_cannot_check(self) -> None:
        self.t.intel_pstate(no_turbo=1)
        r = run(self.tmp.name, "boost=on")
        f = boost_record(r)
        self.assertEqual(f.get("check"), "unmeasured", f)
        why = f.get("eff_why", "")
        self.assertTrue(why.startswith("cannot check: "), why)
        self.assertTrue("no APERF/MPERF" in why or "/dev/cpu/" in why, why)
        self.assertRegex(r.stderr, r"hugezero-linux: boost: cpu \d+: boost=on cannot check: "
                         + re.escape(why.removeprefix("cannot check: ")) +
                         ": whether it took effect is not known")

    def test_off_is_checked_too(self) -> None:
        f = boost_record(run(self.tmp.name, "boost=off"))
        self.assertEqual(f.get("check"), "unmeasured", f)

    def test_firmware_checks_nothing(self) -> None:
        f = boost_record(run(self.tmp.name))
        self.assertNotIn("check", f)
        self.assertNotIn("eff_why", f)


class RefusedTest(BoostTest):
    """A write refused (not root here) ends the run before any record,
    with the reason and exit status 2; what was written is put back."""

    def refuse(self, *writable: str) -> subprocess.CompletedProcess[str]:
        """Run boost=off as a user who may write only @writable: nobody
        when root (root writes any file), else this user with the other
        files read-only."""
        for p in Path(self.tmp.name).rglob("*"):
            if p.is_file() and p.name in ("boost", "no_turbo"):
                mine = str(p.relative_to(self.tmp.name)) in writable
                if os.geteuid() == 0:
                    os.chown(p, NOBODY if mine else 0, -1)
                os.chmod(p, 0o644 if mine else 0o444)
        return run(self.tmp.name, "boost=off", user=NOBODY if os.geteuid() == 0 else None)

    def assert_refused(self, r: subprocess.CompletedProcess[str], path: str) -> None:
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stdout, "", "records written before the refusal")
        self.assertIn(f"boost=off refused: writing 0 to {self.path(path)}"
                      if "boost" in path else
                      f"boost=off refused: writing 1 to {self.path(path)}", r.stderr)
        self.assertIn("Permission denied (not root: run as root, or boost=firmware "
                      "to run as found)", r.stderr)

    def test_intel_refused(self) -> None:
        self.t.intel_pstate(no_turbo=0)
        before = self.t.snapshot()
        self.assert_refused(self.refuse(), CPU + "/intel_pstate/no_turbo")
        self.assertEqual(self.t.snapshot(), before)

    def test_policy_refused_after_the_global_one_is_put_back(self) -> None:
        # The global file takes the write, a policy's refuses it: the
        # global one is put back on the way out.
        self.t.cpufreq("acpi-cpufreq", 1, [1, 1])
        before = self.t.snapshot()
        r = self.refuse(f"{CPU}/cpufreq/boost")
        self.assert_refused(r, CPU + "/cpufreq/policy0/boost")
        self.assertEqual(self.t.snapshot(), before)


if __name__ == "__main__":
    unittest.main()
