# SPDX-License-Identifier: GPL-2.0-only
"""The companion stopped by SIGINT or SIGTERM: the host as it found it
(boost through a fake sysfs tree, as in test_companion_boost.py;
nr_hugepages on this host's own hugetlb pool, as root), standard error
naming the configuration cut, the log ending with an `interrupted` record
and its `end`, and `report` naming the cut.  A group's process that dies
is no interruption: the parent goes on, and puts the host back once, at
its end."""
from __future__ import annotations

import fcntl
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import paths, records  # noqa: E402
from qemu_cases import report_log  # noqa: E402
from test_companion_boost import CPU, Tree  # noqa: E402

EXE = paths.COMPANION
HUGE = Path("/sys/kernel/mm/hugepages/hugepages-2048kB")
# A run far longer than any test waits: it ends by the signal.
LONG = ["bench=bare", "folio=2M", "size=64M", "runs=1000", "warmups=0",
        "samples=none", "order=contiguous-page"]


class Running:
    """The companion running, its standard output read line by line."""

    def __init__(self, args: list[str], root: str | None = None) -> None:
        env = dict(os.environ)
        if root:
            env["HUGEZERO_HOST_ROOT"] = root
        self.p = subprocess.Popen([str(EXE), *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)
        self.lines: list[str] = []
        self.q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.q.put(line)
        self.q.put(None)

    def until(self, rtype: str, count: int = 1, timeout: float = 60) -> None:
        """Read until @count records of @rtype have come."""
        end = time.monotonic() + timeout
        while len(self.of(rtype)) < count:
            try:
                line = self.q.get(timeout=max(0.1, end - time.monotonic()))
            except queue.Empty:
                line = ""
            if line is None or time.monotonic() > end:
                self.p.kill()
                raise AssertionError(f"no {count} {rtype} record(s): "
                                     f"{''.join(self.lines[-3:])}")
            self.lines.append(line)

    def of(self, rtype: str) -> list[str]:
        """The lines read so far that are records of @rtype."""
        return [x for x in self.lines if re.match(rf"@hz1 \d+ {rtype} ", x)]

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        """Exit status, the whole standard output, standard error."""
        rc = self.p.wait(timeout=timeout)
        while (line := self.q.get(timeout=timeout)) is not None:
            self.lines.append(line)
        assert self.p.stdout is not None and self.p.stderr is not None
        err = self.p.stderr.read()
        self.p.stdout.close()
        self.p.stderr.close()
        return rc, "".join(self.lines), err

    def children(self) -> list[int]:
        out = []
        for d in Path("/proc").iterdir():
            try:
                stat = (d / "stat").read_text()
            except (OSError, ValueError):
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.p.pid:
                out.append(int(d.name))
        return out


def gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


class InterruptTest(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")
        self.tmp = tempfile.TemporaryDirectory()
        self.t = Tree(self.tmp.name)
        self.t.cpufreq("acpi-cpufreq", 1, [1, 1])

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def assert_cut(self, log: str, sig: str, cfg: str, name: str, restored: int,
                   row: str = " contiguous-page ") -> None:
        """The log is whole and ends saying where @sig cut it; report says
        so, with the cut configurations' rows `interrupted`."""
        (b,) = records.parse(log)
        self.assertEqual(b.problems, [])
        self.assertTrue(b.complete)
        last = b.records[-2]
        self.assertEqual((last.type, b.records[-1].type), ("interrupted", "end"))
        self.assertEqual(last.f, {"signal": sig, "cfg": cfg, "name": name,
                                  "restored": str(restored), "not_restored": "0"})
        r = report_log(log)
        cut = f"interrupted by {sig} in configuration{'s' if '-' in cfg else ''} {cfg} ({name})"
        self.assertEqual(r.returncode, 1, "an interrupted run is not a whole one")
        self.assertIn("== boot 0 (INTERRUPTED)\n", r.stdout)
        self.assertIn(f"{cut}: the run stopped there", r.stdout)
        self.assertIn(f"boot 0: {cut}", r.stderr)
        self.assertNotIn("incomplete", r.stdout)
        rows = [x for x in r.stdout.splitlines() if row in x]
        self.assertTrue(rows and all(" interrupted " in x for x in rows), r.stdout)

    def test_signal_puts_boost_back_and_names_the_cut(self) -> None:
        before = self.t.snapshot()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(sig=sig.name):
                run = Running([*LONG, "clear=rep", "boost=off"], self.tmp.name)
                run.until("config")
                self.assertEqual(set(self.t.snapshot().values()), {"0\n"}, "not set")
                run.p.send_signal(sig)
                rc, log, err = run.finish()
                self.assertEqual(rc, -sig, err)
                self.assertEqual(self.t.snapshot(), before, "boost not put back")
                self.assertIn(f"hugezero-linux: interrupted by {sig.name} in configuration "
                              "1 (bare.2M.rep.contiguous-page); 3 host settings put back\n",
                              err)
                self.assert_cut(log, sig.name, "1", "bare.2M.rep.contiguous-page", 3)

    def usable_cpus(self) -> list[int]:
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            self.skipTest(f"one CPU here ({cpus}): a group needs two")
        return cpus[:2]

    def test_group_parent_interrupted(self) -> None:
        # SIGTERM to the parent alone: it puts the host back once, its
        # processes die with it (PR_SET_PDEATHSIG), the log names both.
        before = self.t.snapshot()
        a, b = self.usable_cpus()
        run = Running([*LONG, "size=32M", "clear=rep", f"cpus={a},{b}", "boost=off"],
                      self.tmp.name)
        run.until("config", 2)
        kids = run.children()
        self.assertEqual(len(kids), 2, kids)
        run.p.send_signal(signal.SIGTERM)
        rc, log, err = run.finish()
        self.assertEqual(rc, -signal.SIGTERM, err)
        self.assertEqual(self.t.snapshot(), before)
        self.assertIn("interrupted by SIGTERM in configurations 1-2 "
                      "(bare.2M.rep.contiguous-page)", err)
        self.assertEqual(err.count("host settings put back"), 1, err)
        self.assert_cut(log, "SIGTERM", "1-2", "bare.2M.rep.contiguous-page", 3)
        end = time.monotonic() + 10
        while not all(gone(k) for k in kids) and time.monotonic() < end:
            time.sleep(0.05)
        self.assertTrue(all(gone(k) for k in kids), "a process outlived its parent")

    def test_child_death_restores_once_at_the_end(self) -> None:
        # A process of the group killed: its group fails, the next (the
        # other folio size's) runs with boost still off, and the parent
        # puts it back at its end.
        before = self.t.snapshot()
        a, b = self.usable_cpus()
        # runs=400: each group lasts seconds, not the tenth of one that a
        # loaded host's test process can miss (then the kill lands in
        # the 2M group, or after the run).
        run = Running(["bench=bare", "folio=4K,2M", "size=32M", "runs=400", "warmups=0",
                       "samples=none", "order=contiguous-page", "clear=rep",
                       f"cpus={a},{b}", "boost=off"], self.tmp.name)
        run.until("config", 2)
        kids = run.children()
        self.assertEqual(len(kids), 2, "the 4K group's two processes")
        os.kill(kids[0], signal.SIGKILL)
        run.until("agg_summary")
        self.assertIn("status=fail", run.of("agg_summary")[0])
        run.until("config", 4)
        self.assertIsNone(run.p.poll(), "the parent ended with its group")
        self.assertEqual(set(self.t.snapshot().values()), {"0\n"},
                         "put back before the run's end")
        rc, log, err = run.finish()
        self.assertEqual(rc, 1, err)
        self.assertEqual(self.t.snapshot(), before)
        self.assertNotIn("interrupted", err + log)
        (boot,) = records.parse(log)
        self.assertEqual((boot.problems, boot.complete), ([], True))

    def test_nr_hugepages_put_back(self) -> None:
        # This host's own pool: raised for the run as root, put back when
        # SIGTERM cuts it.
        if os.geteuid() != 0:
            self.skipTest("not root: the companion raises nr_hugepages only as root")
        if not (HUGE / "nr_hugepages").exists():
            self.skipTest(f"no 2M hugetlb pages on this kernel ({HUGE})")
        nr = int((HUGE / "nr_hugepages").read_text())
        free = int((HUGE / "free_hugepages").read_text())
        size = (free + 4) * 2
        run = Running(["bench=linux-fault", "folio=2M", "backing=hugetlb", f"size={size}M",
                       "runs=1000", "warmups=0", "samples=none"])
        run.until("config")
        raised = int((HUGE / "nr_hugepages").read_text())
        if any("status=skip" in x for x in run.of("summary")):
            run.p.kill()
            self.skipTest(f"the kernel gave no {free + 4} free 2M pages")
        self.assertGreater(raised, nr, "nr_hugepages not raised")
        run.p.send_signal(signal.SIGTERM)
        rc, log, err = run.finish()
        self.assertEqual(rc, -signal.SIGTERM, err)
        self.assertEqual(int((HUGE / "nr_hugepages").read_text()), nr,
                         "nr_hugepages not put back")
        self.assertIn("1 host setting put back", err)
        self.assert_cut(log, "SIGTERM", "1", "linux.2M.hugetlb", 1, row="2M    linux ")


# hosted/hugetlb_pool.c's lock, the first of its two places that opens.
POOL_LOCK = Path("/run/lock/hugezero-hugetlb") if Path("/run/lock").is_dir() \
    else Path("/tmp/hugezero-hugetlb.lock")


class HugetlbPoolTest(unittest.TestCase):
    """The host's hugetlb pool held by one hugezero-linux at a time (flock
    on POOL_LOCK, hosted/hugetlb_pool.c): the test holds the lock as
    another run would."""

    def setUp(self) -> None:
        if os.geteuid() != 0:
            self.skipTest("not root: the companion grows the hugetlb pool only as root")
        if not (HUGE / "nr_hugepages").exists():
            self.skipTest(f"no 2M hugetlb pages on this kernel ({HUGE})")
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")
        self.lock = open(POOL_LOCK, "a+")
        self.addCleanup(self.lock.close)
        until = time.monotonic() + 60
        while True:
            try:
                fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > until:
                    self.skipTest(f"another run held {POOL_LOCK} for 60 s")
                time.sleep(0.1)
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def start(self, *args: str) -> tuple[subprocess.Popen, Path]:
        err = Path(self.tmp.name) / "err"
        with open(err, "w") as e:
            p = subprocess.Popen([str(EXE), *args], stdout=subprocess.PIPE, stderr=e,
                                 text=True)

        def end() -> None:
            # SIGTERM: a run that grew the pool puts it back.
            if p.poll() is None:
                p.terminate()
            p.communicate(timeout=60)
        self.addCleanup(end)
        return p, err

    def test_a_run_that_needs_it_waits(self) -> None:
        free = int((HUGE / "free_hugepages").read_text())
        p, err = self.start("bench=linux-fault", "folio=2M", "backing=hugetlb",
                            f"size={(free + 2) * 2}M", "runs=1", "warmups=0", "samples=none")
        until = time.monotonic() + 60
        while "waiting for another hugezero-linux's hugetlb pages" not in err.read_text():
            self.assertIsNone(p.poll(), "ended without waiting: " + err.read_text())
            self.assertLess(time.monotonic(), until, "no word of the wait after 60 s")
            time.sleep(0.05)
        time.sleep(0.3)
        self.assertIsNone(p.poll(), "it waits while the pool is held")
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        self.assertEqual(p.wait(timeout=120), 0, err.read_text())

    def test_free_pages_of_a_held_pool_are_not_taken(self) -> None:
        """Pages free in a pool another run holds are that run's: a bare
        run takes other memory at once, and says why."""
        nr = (HUGE / "nr_hugepages").read_text()
        free = int((HUGE / "free_hugepages").read_text())
        try:
            (HUGE / "nr_hugepages").write_text(str(int(nr) + 2))
        except OSError as e:        # a container's read-only /sys
            self.skipTest(f"cannot grow the pool here: {e}")

        def put_back() -> None:
            try:
                (HUGE / "nr_hugepages").write_text(nr)
            except OSError:
                pass
        self.addCleanup(put_back)
        if int((HUGE / "free_hugepages").read_text()) < 2:
            self.skipTest(f"the kernel gave no 2 free 2M pages ({free} free before)")
        p, err = self.start("bench=bare", "folio=2M", "size=4M", "runs=1", "warmups=0",
                            "samples=none", "clear=rep", "order=contiguous-page")
        out, _ = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 0, err.read_text())
        self.assertNotIn("waiting", err.read_text())
        self.assertIn("bare: not the hugetlb pool: another hugezero-linux holds the hugetlb "
                      f"pool ({POOL_LOCK})", err.read_text())
        self.assertRegex(out, r"@hz1 \d+ config .*name=bare\.2M\.rep\.contiguous-page .*"
                         r"backing=(?!hugetlb)")


if __name__ == "__main__":
    unittest.main()
