# SPDX-License-Identifier: GPL-2.0-only
"""QEMU runs of the seeds' presets (docs/reproducing.md), scaled small by
keys beside the preset: the preset record says what it expanded to and
how it was sized, every configuration the preset names ran with every
folio verified, and `scripts/hugezero table` prints the seed's table
from the log."""
from __future__ import annotations

import subprocess
import sys
import tempfile

from hzlib import paths, qemu, records

from qemu_cases import Case, Check, all_of, passes, scalable


def boot_records(res: qemu.BootResult) -> tuple[list[records.Record], str | None]:
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return [], f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    return boots[0].records, None


def preset_ran(name: str, configs: set[str], ncpus: int = 1) -> Check:
    """The preset record names @name and the kernel side; the configs are
    exactly @configs (per CPU when @ncpus > 1); each ran and verified."""
    def run(res: qemu.BootResult) -> str | None:
        recs, why = boot_records(res)
        if why:
            return why
        pre = [r for r in recs if r.type == "preset"]
        if len(pre) != 1 or pre[0].f.get("name") != name or \
                pre[0].f.get("side") != "hugezero":
            return f"preset records: {[p.f for p in pre]}"
        if pre[0].f.get("linux_clear") not in ("erms", "rep"):
            return f"linux_clear={pre[0].f.get('linux_clear')}"
        if not pre[0].f.get("chose") or not pre[0].f.get("scaled"):
            return f"preset record lacks its sizing: {pre[0].f}"
        names = [r.f["name"] for r in recs if r.type == "config"]
        if set(names) != configs or len(names) != len(configs) * ncpus:
            return f"configurations {sorted(set(names))} x{len(names)}, expected {sorted(configs)} x{ncpus}"
        # access= passes are verified by a pass of their own before them.
        runs = [r for r in recs if r.type == "run"]
        bad = [r.f for r in runs if r.f.get("verify") not in ("ok", "n/a")]
        ok = {r.f["cfg"] for r in runs if r.f.get("verify") == "ok"}
        cfgs = {r.f["cfg"] for r in recs if r.type == "config"}
        if bad or ok != cfgs:
            return f"not every configuration verified: {bad[:2]}, {sorted(cfgs - ok)}"
        return None
    return run


def table_prints(*patterns: str, companion: list[str] | None = None) -> Check:
    """scripts/hugezero table on the boot's log (and, with @companion, on
    the log of the companion run with those arguments on this host)
    prints each pattern."""
    import re

    def run(res: qemu.BootResult) -> str | None:
        logs = []
        if companion is not None:
            linux = paths.BUILD / "test-logs" / f"preset-{companion[0][7:]}-linux.log"
            c = subprocess.run([str(paths.BUILD / "hugezero-linux"), *companion],
                               capture_output=True, text=True, timeout=600)
            linux.write_text(c.stdout)
            if c.returncode != 0:
                return f"companion {' '.join(companion)} exited {c.returncode}: {c.stderr[-400:]}"
            logs.append(str(linux))
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(res.log)
            f.flush()
            r = subprocess.run([sys.executable, str(paths.ROOT / "scripts" / "hugezero"),
                                "table", f.name, *logs], capture_output=True, text=True)
        if r.returncode != 0:
            return f"table exited {r.returncode}: {r.stderr.strip()[:300]}"
        for p in patterns:
            if not re.search(p, r.stdout, re.M):
                return f"table lacks {p!r}:\n{r.stdout[:3000]}"
        return None
    return run


def names(prefixes: list[str], folio: str, prims: list[str], orders: list[str]) -> set[str]:
    return {f"{p}{folio}.{c}.{o}" for p in prefixes for c in prims for o in orders}


ORDERS = ["converging-page", "contiguous-page"]
S001 = names(["none.", "full."], "2M", ["erms", "rep"], ORDERS)
S002 = {f"full.{m}.2M.erms.linux" for m in ("none", "request", "idle")}

CASES = [
    # The 1G row takes 16 s a folio under TCG: 2M here; 1G in docs/reproducing.md.
    Case("preset-seed-001", args=["preset=seed-001", "folio=2M", "size=8M",
                                  "clear=erms,rep", "runs=2", "warmups=0",
                                  "selftest=off"],
         check=all_of(passes, preset_ran("seed-001", S001),
                      table_prints(r"^seed-001 hugezero, preempt=none$",
                                   r"^seed-001 hugezero, preempt=full$",
                                   r"^  pg-sz=2MB +[\d.]+ \+- +[\d.]+% +[\d.]+ \+- +[\d.]+% +[+-][\d.]+%",
                                   r"^seed-001 Linux \(companion\)",
                                   # Linux's row, its fault as perf prints it
                                   # too (warmups=0: the 2 runs are perf's
                                   # -l 2), or why this host gave no hugetlb
                                   # pages (a container's read-only
                                   # nr_hugepages).
                                   r"^  pg-sz=2MB +[\d.]+ \+- +[\d.]+% +[\d.]+ \+- +[\d.]+% "
                                   r"+[+-][\d.]+% .* hugetlb +[\d.]+ \+- +[\d.]+% +hugetlb "
                                   r"[\d.]+ [GM]B/sec \(2 loops; the first [\d.]+ [GM]B/sec\)$"
                                   r"|^  linux-fault 2M hugetlb: skip: ",
                                   r"^  \+-: the sample standard deviation \(n - 1\) of the "
                                   r"per-run GB/s, in % of the mean; n runs: 2$",
                                   # The preset's boost=off, as the
                                   # companion found, set or could not.
                                   r"^  boost: (on|off|mixed|unknown) \((found|as found|"
                                   r"boost=off asked)",
                                   companion=["preset=seed-001", "folio=2M", "size=64M",
                                              "clear=erms,rep", "runs=2", "warmups=0"]))),
    # The 1G row once: folio= left to the sizing, one fault a configuration.
    Case("preset-seed-001-1g", timeout=400,
         args=["preset=seed-001", "size=1G", "preempt=none", "clear=erms", "runs=1",
               "warmups=0", "selftest=off"],
         check=all_of(passes, preset_ran("seed-001", names(["none."], "2M", ["erms"], ORDERS) |
                                         names(["none."], "1G", ["erms"], ORDERS)),
                      table_prints(r"^seed-001 hugezero, preempt=none$",
                                   r"^  pg-sz=1GB +[\d.]+ +\(n=1\) +[\d.]+ +\(n=1\) "
                                   r"+[+-][\d.]+% +fewer than 2 runs"))),
    Case("preset-seed-002", args=["preset=seed-002", "folio=2M", "size=16M",
                                  "prezero=none,request,idle", "clear=erms",
                                  "runs=2", "warmups=0", "selftest=off"],
         check=all_of(passes, preset_ran("seed-002", S002),
                      table_prints(r"^seed-002", r"Total time: [\d.]+ seconds",
                                   r"Avg time per 2MB page: [\d.]+ seconds"))),
]

# seed-000 runs cpus=all: each configuration once per CPU, at any count.
SMP_CASES = [
    scalable(2, lambda n: Case(
        "preset-seed-000", smp=n, timeout=400,
        args=["preset=seed-000", "size=8M", "runs=3", "warmups=0", "clear=erms",
              "selftest=off"],
        check=all_of(passes, preset_ran("seed-000", {
            f"2M.erms.{o}" for o in ("discontiguous-page", "contiguous-page",
                                      "batched-pages.32M", "neighbourhood-last.32M")},
            ncpus=n),
            table_prints(r"^seed-000", r"neighbourhood-last +[\d.]+ \( \+- [\d.]+% \) +[\d.]+ \( \+- [\d.]+% \)")))),
]
