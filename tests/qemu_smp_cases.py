# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of all CPUs at once (docs/smp.md): every processor up (SeaBIOS
and OVMF, APIC-ID gaps, x2APIC, two NUMA nodes), and bench=fault on each
CPU of cpus= at once with every folio on every CPU verified; the groups'
aggregates intact.  Correctness only: no bound on a time."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable

from hzlib import cpulist, qemu, records

from qemu_cases import (NO_CPU, run_report, Case, Check, all_of, expect_log,
                        expect_rc, has, passes, scalable)

SMALL = ["bench=fault", "runs=1", "warmups=0", "selftest=off"]


def _records(res: qemu.BootResult) -> list[records.Record] | str:
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    return boots[0].records


def cpus_up(n: int, apic_ids: list[int] | None = None,
            x2apic: int | None = None) -> Check:
    """n processors in the MADT, all up, with these APIC IDs and mode
    (x2apic None: the mode CPUID offers, on every CPU)."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        cpus = [r for r in recs if r.type == "cpu"]
        smp = next((r for r in recs if r.type == "smp"), None)
        if smp is None or smp.int("up") != n or smp.int("present") != n:
            return f"smp record {smp.f if smp else None}: expected {n} up"
        down = [r.f for r in cpus if r.f["state"] != "up"]
        if len(cpus) != n or down:
            return f"{len(cpus)} cpu records, not up: {down[:2]}"
        if sorted(r.int("cpu") for r in cpus) != list(range(n)):
            return "logical numbers are not 0..n-1"
        ids = sorted(r.int("apic_id") for r in cpus)
        if apic_ids is not None and ids != apic_ids:
            return f"APIC IDs {ids}, expected {apic_ids}"
        mode = x2apic
        if mode is None:
            # As CPUID offers it: QEMU's TCG has x2APIC from 9.0 on.
            m = next((r for r in recs if r.type == "machine"), None)
            mode = int(m is not None and "x2apic" in m.f.get("features", "").split(","))
        if any(r.int("x2apic") != mode for r in cpus):
            return (f"x2apic mode not {mode} on every CPU: "
                    f"{[r.int('x2apic') for r in cpus]}")
        if smp.f["tsc_sync"] not in ("ok", "bad"):
            return f"tsc_sync {smp.f['tsc_sync']!r}"
        return None
    return run


def groups_ok(ncpus: int, ngroups: int, cpus: str | None = None,
              numa: str | None = None) -> Check:
    """ngroups configurations, each run by ncpus CPUs at once (cpus, if
    given, their list): every member's summary ok (or a skip for what
    QEMU's CPU lacks), its zero check passed, and the group's aggregate
    present for every pass with the members' sums."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        cfg = {r.int("cfg"): r for r in recs if r.type == "config"}
        summ = {r.int("cfg"): r for r in recs if r.type == "summary"}
        members: dict[int, list[records.Record]] = defaultdict(list)
        for r in cfg.values():
            members[r.int("group")].append(r)
        aggs: dict[int, list[records.Record]] = defaultdict(list)
        for r in recs:
            if r.type == "agg":
                aggs[r.int("group")].append(r)
        asum = {r.int("group"): r for r in recs if r.type == "agg_summary"}
        if len(members) != ngroups:
            return f"{len(members)} groups, expected {ngroups}"
        for g, ms in members.items():
            why = _group(g, ms, summ, aggs.get(g, []), asum.get(g), recs,
                         ncpus, cpus, numa)
            if why:
                return why
        return None
    return run


def _group(g: int, ms: list[records.Record], summ: dict, aggs: list,
           asum: records.Record | None, recs: list, ncpus: int,
           cpus: str | None, numa: str | None) -> str | None:
    name = ms[0].f["name"]
    if len(ms) != ncpus or len({m.int("cpu") for m in ms}) != ncpus:
        return f"group {g} ({name}): {len(ms)} members, expected {ncpus}"
    if cpus is not None and any(m.f["cpus"] != cpus for m in ms):
        return f"group {g}: cpus={ms[0].f['cpus']}, expected {cpus}"
    if numa is not None and any(m.f["numa"] != numa for m in ms):
        return f"group {g}: numa={ms[0].f['numa']}, expected {numa}"
    if asum is None:
        return f"group {g} ({name}): no agg_summary"
    statuses = {summ[m.int("cfg")].f["status"] for m in ms if m.int("cfg") in summ}
    if statuses == {"skip"}:
        why = summ[ms[0].int("cfg")].f.get("reason", "")
        ok = asum.f["status"] == "skip" and any(n in why for n in NO_CPU)
        return None if ok else f"group {g} ({name}) skipped: {why}"
    if statuses != {"ok"} or asum.f["status"] not in ("ok", "refused"):
        return (f"group {g} ({name}): member statuses {statuses}, "
                f"aggregate {asum.f['status']} {asum.f.get('reason', '')}")
    for m in ms:
        runs = [r for r in recs if r.type == "run" and r.int("cfg") == m.int("cfg")]
        if not runs or any(r.f["verify"] not in ("ok", "n/a") for r in runs):
            return f"group {g}: cpu {m.f['cpu']}'s zero check: {[r.f['verify'] for r in runs]}"
        if not any(r.f["verify"] == "ok" for r in runs):
            return f"group {g}: cpu {m.f['cpu']} has no verified pass"
    if len(aggs) != len(runs):
        return f"group {g}: {len(aggs)} agg records for {len(runs)} passes"
    return _sums(g, ms, recs, aggs)


def _sums(g: int, ms: list, recs: list, aggs: list) -> str | None:
    """Each agg's stime is the sum of its members' fault ticks."""
    cfgs = {m.int("cfg") for m in ms}
    for a in aggs:
        st = sum(r.int("fault_ticks") for r in recs if r.type == "run"
                 and r.int("cfg") in cfgs and r.int("run") == a.int("run"))
        if a.int("stime_ticks") != st:
            return f"group {g} run {a.f['run']}: stime_ticks {a.f['stime_ticks']} != sum {st}"
        if "refused" not in a.f and not a.int("wall_ticks") >= a.int("slowest_ticks"):
            return f"group {g} run {a.f['run']}: wall shorter than the slowest CPU"
        why = _skew(g, ms, recs, a)
        if why:
            return why
    return None


def _skew(g: int, ms: list, recs: list, a: records.Record) -> str | None:
    """The start skew in CPU 0's time, known to +- the two largest of the
    members' TSC offset errors (docs/smp.md)."""
    if "refused" in a.f:
        return None
    if "start_skew_corr_ticks" not in a.f or "start_skew_err_ticks" not in a.f:
        return f"group {g} run {a.f['run']}: no start_skew_corr_ticks/start_skew_err_ticks"
    mine = {m.f["cpu"] for m in ms}
    errs = sorted((r.int("tsc_offset_err_ticks") for r in recs
                   if r.type == "cpu" and r.f.get("cpu") in mine), reverse=True)
    want = sum(errs[:2]) if len(errs) > 1 else 0
    if a.int("start_skew_err_ticks") != want:
        return (f"group {g} run {a.f['run']}: start_skew_err_ticks "
                f"{a.f['start_skew_err_ticks']}, the members' errors {errs} make {want}")
    return None


def groups_ok_some(ncpus: list[int], cpus: list[str]) -> Check:
    """Groups in order, each of ncpus[i] CPUs listed as cpus[i], all ok."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        seen: dict[int, list[records.Record]] = defaultdict(list)
        for r in recs:
            if r.type == "config":
                seen[r.int("group")].append(r)
        got = [(len(v), v[0].f["cpus"]) for _, v in sorted(seen.items())]
        if got != list(zip(ncpus, cpus)):
            return f"groups (ncpus, cpus) {got}, expected {list(zip(ncpus, cpus))}"
        bad = [r.f for r in recs if r.type == "agg_summary" and r.f["status"] != "ok"]
        return f"aggregates not ok: {bad[:2]}" if bad else None
    return run


def placed(numa: str, n: int) -> Check:
    """Of n CPUs, the first half on node 0 and the rest on node 1 (0-1 and
    2-3 of four; cpu records and configs), each CPU's folios from its own
    node (local) or the other (remote)."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        smp = next((r for r in recs if r.type == "smp"), None)
        if smp is None or smp.int("nodes") != 2 or smp.int("slit") != 1:
            return f"smp record {smp.f if smp else None}: expected 2 nodes and a SLIT"
        nodes = {r.int("cpu"): r.int("node") for r in recs if r.type == "cpu"}
        if nodes != {c: int(c >= n // 2) for c in range(n)}:
            return f"CPU nodes {nodes}"
        for r in recs:
            if r.type != "config":
                continue
            node, mem = r.int("node"), r.f["mem_node"]
            want = str(node if numa == "local" else 1 - node)
            if r.f["numa"] != numa or node != nodes[r.int("cpu")] or mem != want:
                return (f"cpu {r.f['cpu']}: numa={r.f['numa']} node={node} "
                        f"mem_node={mem}, expected numa={numa} mem_node={want}")
        return None
    return run


def preempts_everywhere(res: qemu.BootResult) -> str | None:
    """The models ran on every CPU at once: under full each CPU's
    interruptible clear (erms) was preempted by its probe's wake-ups,
    under none and voluntary no CPU's ever was.  (Under lazy a normal
    probe waits for a tick that may fall between the clears: not asked.)"""
    recs = _records(res)
    if isinstance(recs, str):
        return recs
    cfg = {r.int("cfg"): r for r in recs if r.type == "config"}
    for r in recs:
        if r.type != "run" or r.f["pass"] != "measure":
            continue
        c = cfg[r.int("cfg")]
        model, n = c.f["preempt"], r.int("preemptions")
        if model in ("none", "voluntary") and n:
            return f"{c.f['name']} on cpu {c.f['cpu']}: {n} preemptions under {model}"
        if model == "full" and c.f["clear"] == "erms" and not n:
            return f"{c.f['name']} on cpu {c.f['cpu']}: never preempted under {model}"
    return None


def apic_id_300(res: qemu.BootResult) -> str | None:
    """A CPU hot-plugged at socket 300: APIC ID 300 (above 255, so only
    x2APIC reaches it) up in x2APIC mode; the empty sockets listed."""
    recs = _records(res)
    if isinstance(recs, str):
        return recs
    up = [r for r in recs if r.type == "cpu" and r.f["state"] == "up"]
    if sorted(r.int("apic_id") for r in up) != [0, 300]:
        return f"CPUs up: {[r.f for r in up]}"
    if any(r.int("x2apic") != 1 for r in up):
        return "not every CPU up in x2APIC mode"
    smp = next((r for r in recs if r.type == "smp"), None)
    if smp is None or smp.int("up") != 2 or smp.int("present") < 300:
        return f"smp record {smp.f if smp else None}"
    return None


def refused(res: qemu.BootResult) -> str | None:
    """tsc_skew_ns=0: every cross-CPU time refused, with the reason."""
    recs = _records(res)
    if isinstance(recs, str):
        return recs
    smp = next((r for r in recs if r.type == "smp"), None)
    if smp is None or smp.f["tsc_sync"] != "bad":
        return f"smp record {smp.f if smp else None}: expected tsc_sync=bad"
    aggs = [r for r in recs if r.type == "agg"]
    if not aggs or any("wall_ticks" in a.f or "TSC skew" not in a.f.get("refused", "")
                       for a in aggs):
        return f"agg records not refused: {[a.f for a in aggs][:1]}"
    sums = [r for r in recs if r.type == "agg_summary"]
    if not sums or any(r.f["status"] != "refused" or "gibps_milli_mean" in r.f
                       or "stime_ns_mean" not in r.f for r in sums):
        return f"agg_summary not refused with stime kept: {[r.f for r in sums][:1]}"
    return None


def no_answer(n: int) -> Check:
    """ap_fail=1 on n CPUs: CPU 1 reported and left out, the others run."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        c1 = next((r for r in recs if r.type == "cpu" and r.f.get("cpu") == "1"), None)
        if c1 is None or c1.f["state"] != "no-answer" or \
                "STARTUP" not in c1.f.get("reason", ""):
            return f"cpu 1's record {c1.f if c1 else None}: expected no-answer"
        smp = next((r for r in recs if r.type == "smp"), None)
        if smp is None or smp.int("up") != n - 1 or smp.int("present") != n:
            return f"smp record {smp.f if smp else None}: expected {n - 1} of {n} up"
        return None
    return run


def reports(nup: int, spread: bool = False) -> Check:
    """scripts/hugezero report on the log: the CPUs, each CPU's line and
    the seed-000-shaped aggregate table (with spread: its ( +- x% ), for
    two or more measured passes)."""
    def run(res: qemu.BootResult) -> str | None:
        r = run_report(res)
        out = r.stdout
        want = [f"smp: {nup} of {nup} processors up", "grp cpu node mem_node",
                "aggregate of each group",
                r"\norder +stime \(\w+\) +utime \(\w+\) +GB/s"]
        if spread:
            want.append(r"\ncontiguous-page +[\d.]+ \( \+- +[\d.]+% \) +"
                        r"[\d.]+ \( \+- +[\d.]+% \)")
        import re
        missing = [w for w in want if not re.search(w, out)]
        if r.returncode != 0 or missing:
            return f"report (rc {r.returncode}) lacks {missing}: {r.stderr[-300:]}"
        return None
    return run


def sized(clamped: bool = False) -> Check:
    """Every configuration's size: size= itself on every CPU, nothing
    clamped; or (clamped) less than size=, equal on the CPUs of each
    group and said in every record."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        cfgs = [r for r in recs if r.type == "config"]
        if not cfgs:
            return "no config records"
        by_group: dict[int, set[int]] = defaultdict(set)
        for r in cfgs:
            size, asked = r.int("size"), r.int("size_requested")
            by_group[r.int("group")].add(size)
            if not clamped and (size != asked or "clamped" in r.f):
                return (f"{r.f['name']} on cpu {r.f.get('cpu')}: size {size} of "
                        f"{asked} asked, clamped={r.f.get('clamped')}")
            if clamped and not (0 < size < asked and r.f.get("clamped") ==
                                "the most that fit in free memory"):
                return (f"{r.f['name']} on cpu {r.f.get('cpu')}: size {size} of "
                        f"{asked} asked, clamped={r.f.get('clamped')}")
        uneven = {g: v for g, v in by_group.items() if len(v) != 1}
        return f"CPUs of a group at different sizes: {uneven}" if uneven else None
    return run


def frames_equal(cpus: str, *folios: str) -> Check:
    """The leader's accounting check held for each folio size's pools
    (cpus: a pattern, so that the case holds at another CPU count)."""
    def run(res: qemu.BootResult) -> str | None:
        for f in folios:
            if not has(res, rf"hugezero: bench: cpus {cpus}, {f} folios: frames "
                            r"free before and after equal"):
                return f"no accounting line for cpus {cpus}, {f} folios"
        if has(res, r"frames free before and after differ|memory: free of"):
            return "a frame was lost or a free failed"
        return None
    return run


def guard_named(cpu: int) -> Check:
    """inject=overrun on this CPU: its guard past its folio named, with
    both the guard's CPU and the folio's, on the group's failed line."""
    return expect_log(rf"# cpu {cpu}: 2M\.erms\.contiguous-page: cpu {cpu}'s guard "
                      rf"frame 0x[0-9a-f]+, just past cpu {cpu}'s folio 1 \(pa "
                      r"0x[0-9a-f]+\), was written at offset 0x0",
                      f"cpu {cpu}'s guard named")


MATRIX = [*SMALL, "folio=4K,2M", "size=4M", "clear=erms,orig,avx2",
          "order=contiguous-page,neighbourhood-last", "access=write", "cpus=all"]


def numa2(n: int) -> tuple[str, ...]:
    """Two nodes of 2G, half the CPUs each (0-1 and 2-3 of four): QEMU
    writes an SRAT (and a SLIT with dist=)."""
    if n < 2 or n % 2:
        raise ValueError("two NUMA nodes of as many CPUs each need an even count")
    half = n // 2
    return ("-object", "memory-backend-ram,id=m0,size=2G",
            "-object", "memory-backend-ram,id=m1,size=2G",
            "-numa", f"node,nodeid=0,cpus={cpulist.format(list(range(half)))},memdev=m0",
            "-numa", f"node,nodeid=1,cpus={cpulist.format(list(range(half, n)))},memdev=m1",
            "-numa", "dist,src=0,dst=1,val=21")


def memoryless(n: int) -> tuple[str, ...]:
    """Node 0 holds all 512M and the first half of the CPUs; node 1 the
    rest of them and no memory (QEMU: a -numa node without memdev=)."""
    if n < 2 or n % 2:
        raise ValueError("two NUMA nodes of as many CPUs each need an even count")
    half = n // 2
    return ("-object", "memory-backend-ram,id=m0,size=512M",
            "-numa", f"node,nodeid=0,cpus={cpulist.format(list(range(half)))},memdev=m0",
            "-numa", f"node,nodeid=1,cpus={cpulist.format(list(range(half, n)))}",
            "-numa", "dist,src=0,dst=1,val=21")


def memoryless_placed(n: int) -> Check:
    """numa=local with node 1 memoryless: every CPU keeps its own node in
    its records, and every CPU's folios came from node 0, the nearest
    with memory (local_memory_node())."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        cfgs = [r for r in recs if r.type == "config"]
        for r in cfgs:
            want = int(r.int("cpu") >= n // 2)
            if r.f["numa"] != "local" or r.int("node") != want or r.f["mem_node"] != "0":
                return (f"cpu {r.f['cpu']}: numa={r.f['numa']} node={r.f['node']} "
                        f"mem_node={r.f['mem_node']}, expected local, {want}, 0")
        return None if len(cfgs) == n else f"{len(cfgs)} config records, expected {n}"
    return run


def numa_memoryless(n: int) -> Case:
    return Case("numa-memoryless-local", smp=n, mem="512M", extra=memoryless(n),
                args=[*SMALL, "folio=2M", "size=4M", "clear=erms",
                      "order=contiguous-page", "cpus=all", "numa=local"],
                check=all_of(passes, cpus_up(n), groups_ok(n, 1, numa="local"),
                             sized(), memoryless_placed(n),
                             expect_log(r"numa=local: node 1 has no memory; its CPUs' "
                                        r"folios come from node 0, the nearest with memory",
                                        "the fallback said once")))


def small_memory(n: int) -> Case:
    """Each CPU's state sized by what it uses (kernel/bench/state.c): in
    96M, where state sized for the largest run (22 MiB a CPU) left CPUs
    out, every CPU runs and every folio is verified."""
    return Case("smp-small-memory", smp=n, mem="96M",
                args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
                      "order=contiguous-page", "cpus=all"],
                check=all_of(passes, cpus_up(n), groups_ok(n, 1, cpus=all_cpus(n)),
                             sized(), frames_equal(r"0-\d+", "2M"), no_cpu_left_out))


def no_cpu_left_out(res: qemu.BootResult) -> str | None:
    return "a CPU was left out" if has(res, r"left out: no memory") else None


def no_memory_left_out(n: int, first: int) -> Check:
    """scale=@first,all on @n CPUs whose state outgrows memory: the step of
    @first CPUs runs, every folio verified; in the step of all, a CPU whose
    state did not fit is left out for no memory, named, and the others are
    the group (their states took the memory a folio would have: skipped,
    saying so); the verdict names the CPUs left out."""
    def run(res: qemu.BootResult) -> str | None:
        recs = _records(res)
        if isinstance(recs, str):
            return recs
        out = sorted(int(c) for c in re.findall(
            r"bench: cpu (\d+) left out: no memory for its benchmark state", res.log))
        if not out or min(out) < first:
            return f"CPUs left out for no memory: {out}, expected some past {first - 1}"
        ran = cpulist.format([c for c in range(n) if c not in out])
        verdict = (rf"# {len(out)} CPUs? of cpus= that this machine has left out "
                   rf"\(cpus {cpulist.format(out)}\): the run has fewer CPUs than asked")
        if not has(res, verdict):
            return f"no verdict naming cpus {cpulist.format(out)} ({verdict!r})"
        ms: dict[int, list[records.Record]] = defaultdict(list)
        for r in recs:
            if r.type == "config":
                ms[r.int("group")].append(r)
        summ = {r.int("cfg"): r for r in recs if r.type == "summary"}
        aggs = [r for r in recs if r.type == "agg" and r.int("group") == 1]
        asum = {r.int("group"): r for r in recs if r.type == "agg_summary"}
        if sorted(ms) != [1, 2] or sorted(asum) != [1, 2]:
            return f"groups {sorted(ms)}, aggregates {sorted(asum)}: expected 1 and 2"
        why = _group(1, ms[1], summ, aggs, asum[1], recs, first,
                     cpulist.format(list(range(first))), None)
        if why:
            return why
        got = sorted(m.int("cpu") for m in ms[2])
        if cpulist.format(got) != ran or asum[2].f.get("cpus") != ran:
            return (f"the step of all: cpus {got}, aggregate {asum[2].f.get('cpus')}; "
                    f"expected {ran}")
        if asum[2].f["status"] != "skip" or "not one folio" not in asum[2].f.get("reason", ""):
            return f"the step of all: {asum[2].f['status']} {asum[2].f.get('reason')}"
        return None
    return run


def no_memory(cpus: str) -> Case:
    """Twelve CPUs' state (each 1 MiB of probe samples beside the rest)
    outgrows 19M, under cpus=all or a list of every CPU alike: a CPU that
    does not fit fails the run (fewer CPUs than asked), as one that does
    not answer does."""
    # One host thread for the twelve vCPUs (tests/README.md, scale-64):
    # they boot in half the time on two shared cores.
    return Case(f"smp-no-memory-{'all' if cpus == 'all' else 'list'}", smp=12, mem="19M",
                fixed_cpus="twelve CPUs' state is what outgrows 19M", accel="tcg-single",
                args=[*SMALL, "folio=4K", "size=4K", "clear=erms",
                      "order=contiguous-page", "preempt=full", "probe=latency",
                      f"cpus={cpus}", "scale=2,all"],
                check=all_of(expect_rc(1), no_memory_left_out(12, 2)))


def all_cpus(n: int) -> str:
    return cpulist.format(list(range(n)))


def subset_scale(n: int) -> Case:
    """cpus=1,3 and a CPU the machine lacks (three past the last: cpu 7 of
    four), swept by scale=1,2,all,4."""
    if n < 4:
        raise ValueError("cpus=1,3 needs CPU 3")
    gone = n + 3
    return Case("smp-subset-scale", smp=n,
                args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
                      "order=contiguous-page", f"cpus=1,3,{gone}", "scale=1,2,all,4"],
                check=all_of(
                    expect_log(rf"cpus=: cpu {gone} left out: this machine has no such CPU",
                               f"cpu {gone} left out"),
                    expect_log(r"ok \d+ x4\.2M\.erms\.contiguous-page # SKIP scale= "
                               r"step of 4 CPUs: cpus= has 2 up", "the 4-CPU step skipped"),
                    groups_ok_some([1, 2, 2], ["1", "1,3", "1,3"]),
                    expect_log(r"ok \d+ cpus1\.2M\.erms", "the 1-CPU step"),
                    expect_log(r"ok \d+ cpus1,3\.2M\.erms", "the 2-CPU steps")))


def ap_no_answer(n: int) -> Case:
    """CPU 1 fails on purpose (ap_fail=1); the others, CPU 0 and 2 on, run,
    and the run fails: cpus=all asked for CPU 1 (fewer CPUs than asked
    never end rc 0)."""
    if n < 3:
        raise ValueError("CPU 1 failing leaves one CPU: no group of several")
    return Case("smp-ap-no-answer", smp=n,
                args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
                      "order=contiguous-page", "cpus=all", "ap_fail=1"],
                check=all_of(expect_rc(1), no_answer(n),
                             expect_log(r"# 1 CPU of cpus= that this machine has left out "
                                        r"\(cpus 1\): the run has fewer CPUs than asked",
                                        "the verdict"),
                             groups_ok(n - 1, 1, cpus=cpulist.format([0, *range(2, n)])),
                             expect_log(r"smp: cpu 1 \(APIC ID 1\) left out: no answer "
                                        r"to the STARTUP IPIs within 2000 ms", "the report"),
                             expect_log(r"cpus=: cpu 1 left out: no answer",
                                        "cpus= leaving it out")))


def work_fail(n: int) -> Case:
    """A CPU that will not take its work calls the step off before any CPU
    runs it: the boost set-up's IPI to the last CPU is taken as stuck
    (test-only work_fail=) after its work was posted and the CPUs before
    it took their part; none runs it, the CPU is left out (its INIT stuck
    too) and the set-up made again on the others (one boost line for
    them, as in any run).  The stuck IPI comes late, as the set-up starts
    again: the CPU left out must run nothing of the work refused it
    (before, it ran the boost set-up there, its outcome in the lines of
    the others).  The benchmark after it runs its group of the others
    through every barrier, each folio verified, and fails the run for the
    CPU left out."""
    if n < 3:
        raise ValueError("a CPU that took its part before the one that fails, and a group "
                         "of two")
    last = n - 1
    why = "it would not take its work: the IPI stayed pending in the ICR for 100 ms"
    return Case("smp-abort-then-run", smp=n,
                args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
                      "order=contiguous-page", "cpus=all", f"work_fail={last}"],
                check=all_of(expect_rc(1),
                             expect_log(rf"smp: cpu {last} \(APIC ID \d+\) left out: {why}",
                                        "the CPU left out"),
                             expect_log(rf"smp: cpu {last}: its INIT stayed pending in the ICR "
                                        r"for 100 ms: it takes no more work", "the INIT stuck"),
                             expect_log(rf"smp: the run is called off before any CPU ran it: "
                                        rf"cpus {last} did not take their work",
                                        "the run called off, nothing run"),
                             expect_log(rf"smp: work_fail={last}: its IPI stuck in the ICR "
                                        r"comes now, late", "the stuck IPI delivered late"),
                             lambda res: "a run called off more than once" if
                             res.log.count("smp: the run is called off") != 1 else None,
                             expect_log(rf"boost: cpus={all_cpus(n - 1)} vendor=",
                                        "the boost set-up made again without it"),
                             expect_log(rf"boost: asked=firmware cpus={n - 1} as_asked={n - 1} ",
                                        "one boost record for each CPU that ran it"),
                             expect_log(rf"cpus=: cpu {last} left out: {why}",
                                        "cpus= leaving it out"),
                             expect_log(rf"# 1 CPU of cpus= that this machine has left out "
                                        rf"\(cpus {last}\): the run has fewer CPUs than asked",
                                        "the verdict"),
                             groups_ok(n - 1, 1, cpus=all_cpus(n - 1))))


def crash_no_answer(crash: str) -> Callable[[int], Case]:
    """crash=CRASH's AP (CPU 1) hung in its idle loop (hang_at=idle),
    deadline_s=0: the wait for its answer is bounded (SMP_ANSWER_MS), it
    is left out, and the crash is said not set up, rc 1; before, the boot
    CPU waited for it for ever."""
    def make(n: int) -> Case:
        return Case(f"crash-no-answer-{crash}", smp=n, timeout=120,
                    args=[f"crash={crash}", "hang_at=idle", "hang_cpu=1",
                          "selftest=off", "deadline_s=0", "answer_ms=2000"],
                    check=all_of(
                        expect_rc(1),
                        expect_log(r"smp: cpu 1 \(APIC ID \d+\) left out: it did not take "
                                   r"its work within 2000 ms of the IPI", "the CPU left out"),
                        expect_log(rf"hugezero: crash={crash} not set up: cpu 1 did not "
                                   r"answer", "the crash not set up"),
                        expect_log(r"hugezero: done rc=1", "the run's end")))
    return make


def numa2_case(numa: str, n: int) -> Case:
    check = [passes, groups_ok(n, 1, numa=numa), placed(numa, n)]
    if numa == "local":
        check += [cpus_up(n), reports(n),
                  expect_log(r"acpi: SRAT: 2 nodes", "the SRAT's two nodes"),
                  expect_log(r"acpi: SLIT: 2 localities, distances 10 21 / 21 10",
                             "the SLIT")]
    return Case(f"numa2-{numa}", smp=n, extra=numa2(n),
                args=[*SMALL, "folio=2M", "size=4M", "clear=erms",
                      "order=contiguous-page", "cpus=all", f"numa={numa}"],
                check=all_of(*check))


def llc_per_socket(per_llc: int, fits: int) -> Check:
    """fits_llc counts every region of the group on a CPU's LLC: QEMU's
    L3 is a socket's, so each CPU's config records name @per_llc regions
    (its socket's members), and fits_llc weighs them all."""
    def run(res: qemu.BootResult) -> str | None:
        boots = records.parse(res.log)
        if len(boots) != 1 or boots[0].problems:
            return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
        cfgs = [r for r in boots[0].records if r.type == "config"]
        for r in cfgs:
            regions, llc, size = r.int("llc_regions", 1), r.int("llc"), r.int("size")
            if regions != per_llc:
                return f"cpu {r.f.get('cpu')}: llc_regions={regions}, expected {per_llc}"
            if r.int("fits_llc") != fits or fits != int(0 < llc and size * regions < 4 * llc):
                return (f"cpu {r.f.get('cpu')}: fits_llc={r.f['fits_llc']} for {regions} x "
                        f"{size} bytes on {llc}, expected {fits}")
        return None if cfgs else "no config record"
    return run


# Each case of a CPU count boots at any other (tests/README.md, make
# test-smp8) unless its count is what it tests; its checks take the count.
CASES = [
    scalable(4, lambda n: Case(
        "smp4-matrix", smp=n, args=MATRIX, timeout=400,
        check=all_of(passes, cpus_up(n, list(range(n))),
                     groups_ok(n, 12, cpus=all_cpus(n)), reports(n)))),
    scalable(2, lambda n: Case(
        "smp2-uefi", "uefi", smp=n,
        args=[*SMALL, "folio=2M", "size=4M", "clear=erms", "order=contiguous-page",
              "cpus=all"],
        check=all_of(passes, cpus_up(n), groups_ok(n, 1, cpus=all_cpus(n))))),
    scalable(4, lambda n: Case(
        "smp4-uefi", "uefi", smp=n,
        args=[*SMALL, "folio=2M", "size=4M", "clear=rep", "order=batched-pages",
              "cpus=all"],
        check=all_of(passes, cpus_up(n), groups_ok(n, 1)))),
    # Two sockets of three cores: APIC IDs 0-2 and 4-6 (a gap at 3).
    Case("smp-apic-gap", smp="6,sockets=2,cores=3",
         fixed_cpus="the APIC-ID gap comes from three cores a socket",
         args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
               "order=contiguous-page", "cpus=all", "runs=2", "access=write"],
         check=all_of(passes, cpus_up(6, [0, 1, 2, 4, 5, 6]),
                      groups_ok(6, 1, cpus="0-5"), reports(6, spread=True))),
    # QEMU's L3 is a socket's: 16M, shared by 4 APIC IDs (CPUID 4; its
    # AMD models say nothing of sharing under TCG, no TOPOEXT).  32M a CPU
    # fits 4 x 16M alone, not three on one L3.
    Case("smp-llc-regions", cpu="max,vendor=GenuineIntel", smp="6,sockets=2,cores=3",
         fixed_cpus="two sockets of three cores: three regions on each L3",
         args=[*SMALL, "folio=2M", "size=32M", "clear=erms",
               "order=contiguous-page", "cpus=all", "cache=warm"],
         check=all_of(passes, llc_per_socket(3, fits=0))),
    scalable(4, lambda n: Case(
        "smp-x2apic", cpu="max,+x2apic", smp=n, unable=qemu.tcg_x2apic_missing,
        args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
              "order=contiguous-page", "cpus=all"],
        check=all_of(passes, cpus_up(n, x2apic=1), groups_ok(n, 1), reports(n)))),
    # APIC IDs above 255: 512 possible sockets, one CPU at socket 300.
    Case("smp-apic-id-300", cpu="max,+x2apic", unable=qemu.tcg_x2apic_missing,
         smp="1,sockets=512,cores=1,threads=1,maxcpus=512",
         fixed_cpus="one CPU hot-plugged at socket 300 of 512: its APIC ID is the test",
         extra=("-device", "max-x86_64-cpu,socket-id=300,core-id=0,thread-id=0"),
         args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
               "order=contiguous-page", "cpus=all"],
         check=all_of(passes, apic_id_300, groups_ok(2, 1, cpus="0-1"))),
    # A subset, a CPU that is not there, and a scale= sweep.
    scalable(4, subset_scale),
    scalable(4, lambda n: numa2_case("local", n)),
    scalable(4, lambda n: numa2_case("remote", n)),
    scalable(4, numa_memoryless),
    scalable(4, small_memory),
    # A CPU left out for want of memory fails the run, with cpus=all
    # as with a list.
    no_memory("all"),
    no_memory("0-11"),
    Case("numa-remote-one-node", args=[*SMALL, "folio=2M", "size=2M",
                                       "clear=erms", "order=contiguous-page",
                                       "numa=remote"],
         check=all_of(passes, expect_log(
             r"# SKIP numa=remote and numa=interleave need two NUMA nodes; "
             r"this machine has one \(no SRAT\)", "the skip's reason"))),
    scalable(3, ap_no_answer),
    scalable(3, work_fail),
    *(scalable(2, crash_no_answer(crash))
      for crash in ("hold-console", "deaf-writer", "stream-writer")),
    scalable(2, lambda n: Case(
        "smp-tsc-refused", smp=n,
        args=[*SMALL, "folio=2M", "size=2M", "clear=erms",
              "order=contiguous-page", "cpus=all", "tsc_skew_ns=0"],
        check=all_of(passes, refused, groups_ok(n, 1)))),
    scalable(2, lambda n: Case(
        "smp-sched-models", smp=n,
        args=[*SMALL, "folio=2M", "size=4M", "clear=erms,avx2",
              "order=linux", "preempt=all", "probe=latency", "probe_us=2000",
              "cpus=all"], timeout=400,
        check=all_of(passes, cpus_up(n), groups_ok(n, 8), preempts_everywhere))),
    # Two CPUs' 4K pools of 64M used to interleave, their frees overflowed
    # the frame allocator's table, frames were lost and the 2M pools came
    # out at 7 of 32 folios, the boot passing.  Now every configuration
    # runs at its size and no frame is lost.
    scalable(2, lambda n: Case(
        "smp2-pools-64M", smp=n, mem="2G",
        args=[*SMALL, "folio=4K,2M", "size=64M", "clear=erms",
              "order=contiguous-page", "cpus=all"],
        check=all_of(passes, groups_ok(n, 2, cpus=all_cpus(n)), sized(),
                     frames_equal(r"0-\d+", "4K", "2M")))),
    # More than fits: clamped alike on every CPU, said in the records...
    scalable(2, lambda n: Case(
        "smp2-clamp", smp=n, mem="256M",
        args=[*SMALL, "folio=2M", "size=256M", "clear=erms",
              "order=contiguous-page", "cpus=all"],
        check=all_of(passes, groups_ok(n, 1), sized(clamped=True),
                     frames_equal(r"0-\d+", "2M"),
                     expect_log(r"size=256M of 2M folios clamped to \d+M: \d+ "
                                r"folios per CPU fit in free memory", "the clamp")))),
    # ... or, with clamp=off, each configuration failed saying how many.
    scalable(2, lambda n: Case(
        "smp2-clamp-off", smp=n, mem="256M",
        args=[*SMALL, "folio=2M", "size=256M", "clear=erms",
              "order=contiguous-page", "cpus=all", "clamp=off"],
        check=all_of(expect_rc(1), frames_equal(r"0-\d+", "2M"), *(
            expect_log(rf"# cpu {c}: size=256M of 2M folios: \d+ of 128 folios "
                       r"per CPU fit in free memory \(clamp=off\)",
                       f"cpu {c}'s failure") for c in range(n)),
            expect_log(r"not ok 1 cpus0-\d+\.2M\.erms\.contiguous-page", "the failed line")))),
    # A line written past a folio lands in its CPU's own guard, under
    # cpus=all too, and the verifier names it.
    scalable(2, lambda n: Case(
        "smp2-overrun", smp=n,
        args=[*SMALL, "folio=2M", "size=4M", "clear=erms",
              "order=contiguous-page", "cpus=all", "inject=overrun"],
        check=all_of(expect_rc(1), *(guard_named(c) for c in range(n)),
                     frames_equal(r"0-\d+", "2M"),
                     expect_log(r"not ok 1 cpus0-\d+\.2M\.erms\.contiguous-page",
                                "the failed line")))),
]
