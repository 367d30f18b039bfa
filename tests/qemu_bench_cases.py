# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of what a benchmark number means: cache state, page-table
bits, and a verifier that sees what the user sees (records checked, not
only the verdict)."""
from __future__ import annotations

from hzlib import qemu, records

from qemu_cases import (Case, Check, all_of, bench_ok, expect_log, expect_rc, passes,
                        run_report, scalable)

BENCH = ["bench=fault", "folio=2M", "clear=rep", "order=contiguous-page",
         "size=16M", "runs=1", "selftest=off"]


def run_records(res: qemu.BootResult) -> tuple[list[records.Record], str | None]:
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return [], f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    return boots[0].records, None


def injected(verify: str, lines: int) -> Check:
    """Every pass planted @lines dirty lines; full verification finds
    them all, sampled verification exactly those on lines it reads."""
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        cfg = next((r for r in recs if r.type == "config"), None)
        if cfg is None or cfg.f.get("verify") != verify:
            return f"config record lacks verify={verify}"
        want_lpp = "64" if verify == "full" else "1"
        if cfg.f.get("sample_lines_per_page") != want_lpp:
            return f"sample_lines_per_page={cfg.f.get('sample_lines_per_page')}"
        runs = [r for r in recs if r.type == "run"]
        if not runs:
            return "no run records"
        for r in runs:
            inj, seen, det = (r.int("injected"), r.int("injected_seen"),
                              r.int("detected"))
            if inj != lines:
                return f"run {r.f['run']}: injected={inj}, asked {lines}"
            if verify == "full" and not seen == det == inj:
                return f"run {r.f['run']}: injected {inj}, seen {seen}, detected {det}"
            if verify == "sample" and not (det == seen and 0 < seen < inj):
                return (f"run {r.f['run']}: sampled verification detected {det} "
                        f"of the {seen} injected lines it reads ({inj} injected)")
            if r.f.get("verify") != "fail":
                return f"run {r.f['run']}: verify={r.f.get('verify')} with dirty lines"
        return None
    return run


def config_says(**want: str) -> Check:
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        for r in (x for x in recs if x.type == "config"):
            for k, v in want.items():
                if r.f.get(k) != v:
                    return f"config {r.f.get('name')}: {k}={r.f.get(k)}, expected {v}"
        return None
    return run


def summaries_net(res: qemu.BootResult) -> str | None:
    recs, why = run_records(res)
    if why:
        return why
    tb = next((r for r in recs if r.type == "timebase"), None)
    sums = [r for r in recs if r.type == "summary" and r.f.get("status") == "ok"]
    if tb is None or not sums:
        return "no timebase or summary records"
    for s in sums:
        if s.int("net_of_ticks", -1) != tb.int("overhead_median"):
            return (f"summary cfg={s.f['cfg']} net_of_ticks={s.f.get('net_of_ticks')}, "
                    f"timebase overhead_median={tb.f['overhead_median']}")
    return None


def auto_stopped(recs: list[records.Record], max_runs: int) -> str | None:
    """runs=auto (docs/statistics.md): every configuration's config record
    says it, its summary names the limit that stopped it and the half-width
    reached, between 3 and @max_runs measured passes, each verified."""
    cfgs = [r for r in recs if r.type == "config"]
    if not cfgs:
        return "no config records"
    for c in cfgs:
        name, cfg = c.f.get("name"), c.f["cfg"]
        if c.f.get("runs") != "auto" or c.int("max_runs", -1) != max_runs:
            return f"{name}: config runs={c.f.get('runs')} max_runs={c.f.get('max_runs')}"
        s = next((r for r in recs if r.type == "summary" and r.f.get("cfg") == cfg), None)
        runs = [r for r in recs if r.type == "run" and r.f.get("cfg") == cfg
                and r.f.get("pass") == "measure"]
        if s is None:
            return f"{name}: no summary"
        n = s.int("runs", -1)
        if (s.f.get("stopped_by") not in ("precision", "max_runs")
                or not 3 <= n <= max_runs or n != len(runs)
                # precision is checked first: it may be met at max_runs too
                or (s.f["stopped_by"] == "max_runs" and n != max_runs)
                or not s.f.get("ci_pct_x100", "").isdigit()):
            return (f"{name}: stopped_by={s.f.get('stopped_by')} runs={n} "
                    f"({len(runs)} measured) ci_pct_x100={s.f.get('ci_pct_x100')}")
        bad = [r.f.get("run") for r in runs if r.f.get("verify") != "ok"]
        if bad:
            return f"{name}: runs {bad} not verified"
        # the series flags (lib/series.c): Mann-Kendall's S from 6 passes
        if "series" not in s.f or ("drift_s" in s.f) != (n >= 6):
            return f"{name}: series={s.f.get('series')} drift_s={s.f.get('drift_s')}"
    return None


M64 = (1 << 64) - 1
GOLDEN = 0x9e3779b97f4a7c15


def round_order(seed: int, key: int, rnd: int, n: int) -> list[int]:
    """lib/benchrun.c round_order(), measured round @rnd of a group of @n
    whose first member's cfg (or CPUs' group) is @key: the members' indices
    in the order they run (docs/statistics.md, "Round groups")."""
    state = (seed ^ (key << 32) ^ ((rnd + 1) * GOLDEN)) & M64 or GOLDEN
    order = list(range(n))
    for i in range(n, 1, -1):
        x = state or 1          # lib/touch.c bench_random(): xorshift64*
        x ^= x >> 12
        x ^= (x << 25) & M64
        x ^= x >> 27
        state = x
        k = ((x * 0x2545F4914F6CDD1D) & M64) % i
        order[i - 1], order[k] = order[k], order[i - 1]
    return order


def groups_split(res: qemu.BootResult) -> str | None:
    """The kernel's round groups (docs/statistics.md): points of one folio
    size under one model share a group; a pre-zeroing point is a group of
    one; every pass verified or n/a (access=write)."""
    recs, why = run_records(res)
    if why:
        return why
    groups: dict[tuple[str, str, str], set[str]] = {}
    for c in (r for r in recs if r.type == "config"):
        if c.f.get("interleave") != "on":
            return f"{c.f['name']}: interleave={c.f.get('interleave')}"
        if c.f.get("prezero", "none") != "none" and c.f["round_group"] != c.f["cfg"]:
            return f"{c.f['name']}: pre-zeroing in round group {c.f['round_group']}"
        key = (c.f["folio"], c.f.get("preempt", "off"), c.f.get("prezero", "none"))
        if key[2] == "none":
            groups.setdefault(key, set()).add(c.f["round_group"])
    if any(len(g) != 1 for g in groups.values()):
        return f"points of one folio size and model in several groups: {groups}"
    bad = [(r.f["cfg"], r.f["run"]) for r in recs if r.type == "run"
           and r.f.get("verify") not in ("ok", "n/a")]
    return f"passes not verified: {bad}" if bad else None


def rounds_hold(members: int, rounds: int) -> Check:
    """interleave=on (docs/statistics.md, "Round groups"): the @members
    configurations share one round_group; the measured runs come round by
    round, each round holding every member once at slots 0..@members-1,
    in the order seed= draws (round_order()); every pass verified."""
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        cfgs = [r for r in recs if r.type == "config"]
        groups = {(c.f.get("interleave"), c.f.get("round_group")) for c in cfgs}
        if len(cfgs) != members or groups != {("on", cfgs[0].f["cfg"])}:
            return f"{len(cfgs)} configs in groups {sorted(groups, key=str)}"
        meas = [r for r in recs if r.type == "run" and r.f.get("pass") == "measure"]
        if len(meas) != members * rounds:
            return f"{len(meas)} measured runs, expected {members * rounds}"
        for i, r in enumerate(meas):
            want = (str(i // members), str(i % members))
            if (r.f.get("round"), r.f.get("slot")) != want:
                return f"run {i}: round={r.f.get('round')} slot={r.f.get('slot')}, expected {want}"
        ids = [c.f["cfg"] for c in cfgs]
        seed = int(cfgs[0].f["seed"])
        for k in range(rounds):
            ran = [r.f["cfg"] for r in meas[k * members:(k + 1) * members]]
            want = [ids[i] for i in round_order(seed, int(ids[0]), k, members)]
            if ran != want:
                return f"round {k} ran {ran}, seed={seed} draws {want}"
        if any(r.f.get("round") is not None for r in recs
               if r.type == "run" and r.f.get("pass") != "measure"):
            return "a warm-up or verify pass carries a round"
        bad = [(r.f["cfg"], r.f["run"]) for r in recs if r.type == "run"
               and r.f.get("verify") != "ok"]
        return f"passes not verified: {bad}" if bad else None
    return run


def blocked(res: qemu.BootResult) -> str | None:
    """interleave=off: each configuration's passes back to back, and no
    record says round, slot or round_group."""
    recs, why = run_records(res)
    if why:
        return why
    if any(r.f.get("interleave") != "off" or "round_group" in r.f
           for r in recs if r.type == "config"):
        return "a config record does not say interleave=off alone"
    runs = [r for r in recs if r.type == "run"]
    if any("round" in r.f or "slot" in r.f for r in runs):
        return "a run record carries round or slot"
    order = [r.f["cfg"] for r in runs]
    if order != sorted(order, key=int):
        return f"passes not blocked: {order}"
    return None


def same_rounds(res: qemu.BootResult) -> str | None:
    """The members of a runs=auto round group stop after the same round,
    by the same rule."""
    recs, why = run_records(res)
    if why:
        return why
    sums = {(s.f.get("runs"), s.f.get("stopped_by")) for s in recs if s.type == "summary"}
    return None if len(sums) == 1 else f"members stopped apart: {sorted(sums, key=str)}"


def runs_auto(max_runs: int) -> Check:
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        why = auto_stopped(recs, max_runs)
        if why:
            return why
        r = run_report(res)
        if r.returncode != 0 or "runs=auto precision=5%: stopped by" not in r.stdout:
            return f"report rc={r.returncode}: {(r.stderr or r.stdout)[-300:]}"
        # the kernel's series check is the host's on the same passes
        if "the record's series check said" in r.stdout:
            return r.stdout[r.stdout.index("the record's series check said"):][:300]
        return None
    return run


CASES = [
    # A clear that misses lines: planted at seeded positions, all counted.
    Case("bench-detects-dirty-lines", args=[
        *BENCH, "inject=skip-line", "inject_lines=64"], check=all_of(
        expect_rc(1),
        expect_log(r"not ok 1 2M\.rep\.contiguous-page",
                   "a failed case named by folio, primitive and order"),
        expect_log(r"folio \d+ \(user va 0x[0-9a-f]+, pa 0x[0-9a-f]+, fault page 0\) "
                   r"not zero at offset 0x[0-9a-f]+", "the folio, address and offset"),
        injected("full", 64))),
    Case("bench-sampled-verify-counts", args=[
        *BENCH, "inject=skip-line", "inject_lines=2048", "verify=sample",
        "warmups=0"], check=all_of(expect_rc(1), injected("sample", 2048))),
    # A mapping bug: one folio mapped at another's frame.  Its contents
    # are zero, so only the check through the user's mapping can see it.
    Case("bench-detects-wrong-pa", args=[*BENCH, "inject=wrong-pa", "warmups=0"],
         check=all_of(expect_rc(1), expect_log(
             r"folio 4 \(user va 0x[0-9a-f]+, pa 0x[0-9a-f]+\): the workload's "
             r"mapping has the wrong physical address", "the folio and its address"),
             expect_log(r"(?m)^    # 2M\.rep\.contiguous-page: folio 4 ",
                        "exactly the wrong folio named first"))),
    # Defaults: cold caches, Linux's A/D bits, summaries net of the timer.
    Case("bench-defaults", args=[*BENCH, "clear=erms,avx2"], check=all_of(
        passes, bench_ok(2), summaries_net,
        config_says(cache="cold", pte="linux", fill="movq", fits_llc="1"))),
    Case("bench-warm-clean", args=[*BENCH, "cache=asis", "pte=clean",
                                   "folio=4K,2M", "size=4M"], check=all_of(
        passes, bench_ok(2), config_says(cache="warm", pte="clean"),
        expect_log(r"cmdline note: cache=asis is an old name for cache=warm",
                   "the note on the old name"))),
    # QEMU's TCG has no PMU: every event asked for is skipped, saying why,
    # and the benchmark runs and verifies as without pmu=.
    Case("bench-pmu-less", args=[*BENCH, "clear=erms", "pmu=instructions,cycles,llc-misses"],
         check=all_of(passes, bench_ok(1), config_says(
             pmu="instructions,cycles,llc-misses", pmu_counted="none"),
             expect_log(r'pmu_skip="instructions,cycles,llc-misses: no (core performance '
                        r'counters[^;"]*|PMU: CPUID 0AH reports version 0)"',
                        "the events' one reason, said once"))),
    # runs=auto: measured passes until the 95% interval of the mean is
    # within 5%, or 8 of them; what stopped them said, every folio verified.
    # Four points of one pool, interleaved round by round, every pass
    # verified; and the same matrix blocked.
    Case("bench-interleave", args=[
        "bench=fault", "folio=2M", "size=4M", "clear=erms,rep",
        "order=contiguous-page,converging-page", "runs=3", "warmups=1",
        "selftest=off"], check=all_of(passes, bench_ok(4), rounds_hold(4, 3))),
    Case("bench-interleave-seed", args=[
        "bench=fault", "folio=2M", "size=4M", "clear=erms,rep,movnti",
        "order=contiguous-page", "runs=4", "warmups=0", "seed=77",
        "selftest=off"], check=all_of(passes, bench_ok(3), rounds_hold(3, 4))),
    # Groups split by model and pre-zeroing; a member QEMU cannot run
    # (avx512-nt) skipped last in its group, the model still let go.
    Case("bench-interleave-groups", args=[
        "bench=fault", "folio=2M,4K", "size=4M", "clear=erms,avx512-nt",
        "order=contiguous-page", "preempt=none,full", "prezero=none,request",
        "access=write", "runs=2", "warmups=1", "selftest=off"],
        check=all_of(passes, bench_ok(16), groups_split)),
    Case("bench-interleave-off", args=[
        "bench=fault", "folio=2M", "size=4M", "clear=erms,rep",
        "order=contiguous-page", "runs=2", "warmups=1", "interleave=off",
        "selftest=off"], check=all_of(passes, bench_ok(2), blocked)),
    # runs=auto over a round group: the rule stops both members together.
    Case("bench-runs-auto-group", args=[
        "bench=fault", "folio=2M", "size=4M", "clear=erms,rep",
        "order=contiguous-page", "runs=auto", "precision=5", "max_runs=6",
        "warmups=0", "selftest=off"],
        check=all_of(passes, bench_ok(2), runs_auto(6), same_rounds)),
    Case("bench-runs-auto", args=[
        "bench=fault", "folio=2M", "size=4M", "clear=erms", "order=contiguous-page",
        "runs=auto", "precision=5", "max_runs=8", "warmups=0", "selftest=off"],
        check=all_of(passes, bench_ok(1), runs_auto(8))),
]


def group_rounds(ncpus: int, members: int, max_runs: int | None = None,
                 rounds: int | None = None) -> Check:
    """runs=auto or interleave=on with cpus= (docs/statistics.md, "runs=auto
    in a group of CPUs"): @members configurations a CPU, each run by
    @ncpus CPUs at once; every CPU's configurations ran the same measured
    rounds (@rounds, or with runs=auto 3..@max_runs and stopped by one
    rule, named by every summary and the group's agg_summary); each CPU's
    rounds in the order seed= draws from the CPUs' group; an agg record
    for every measured round; every pass verified."""
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        cfgs = [r for r in recs if r.type == "config"]
        if len(cfgs) != ncpus * members or len({c.f["cpu"] for c in cfgs}) != ncpus:
            return f"{len(cfgs)} config records on {len({c.f.get('cpu') for c in cfgs})} CPUs"
        summ = {r.f["cfg"]: r for r in recs if r.type == "summary"}
        ends = {(summ[c.f["cfg"]].f.get("runs"), summ[c.f["cfg"]].f.get("stopped_by"))
                for c in cfgs if c.f["cfg"] in summ}
        if len(ends) != 1 or len(summ) != len(cfgs):
            return f"CPUs or members stopped apart: {sorted(ends, key=str)}"
        n, stop = ends.pop()
        n = int(n)
        if max_runs is not None:
            why = auto_stopped(recs, max_runs)
            if why:
                return why
            asum = [r for r in recs if r.type == "agg_summary"]
            if len(asum) != members or any(a.f.get("stopped_by") != stop
                                           or a.int("runs") != n for a in asum):
                return f"agg_summary: {[(a.f.get('runs'), a.f.get('stopped_by')) for a in asum]}"
            said = f"runs=auto: every CPU stopped by {stop} after the same {n} rounds"
            if run_report(res).stdout.count(said) != members:
                return f"report does not say {said!r} under each group"
        elif n != rounds:
            return f"{n} rounds, expected {rounds}"
        meas = [r for r in recs if r.type == "run" and r.f.get("pass") == "measure"]
        for cpu in {c.f["cpu"] for c in cfgs}:
            mine = [c for c in cfgs if c.f["cpu"] == cpu]
            ids = [c.f["cfg"] for c in mine]
            key, seed = int(mine[0].f["group"]), int(mine[0].f["seed"])
            ran = [r for r in meas if r.f["cfg"] in ids]
            if len(ran) != members * n:
                return f"cpu {cpu}: {len(ran)} measured runs, expected {members * n}"
            for k in range(n):
                got = [r.f["cfg"] for r in ran[k * members:(k + 1) * members]]
                want = [ids[i] for i in round_order(seed, key, k, members)]
                if got != want or any(r.f.get("round") != str(k)
                                      for r in ran[k * members:(k + 1) * members]):
                    return f"cpu {cpu} round {k} ran {got}, seed={seed} draws {want}"
        aggs = [r for r in recs if r.type == "agg" and r.f.get("pass") == "measure"]
        if len(aggs) != members * n:
            return f"{len(aggs)} measured agg records, expected {members * n}"
        bad = [(r.f["cfg"], r.f["run"]) for r in recs if r.type == "run"
               and r.f.get("verify") != "ok"]
        return f"passes not verified: {bad}" if bad else None
    return run


def auto_all_failed(ncpus: int) -> Check:
    """Every CPU's series failed in its first round (inject=skip-line on
    all of them): all stop there together, each summary fail with no
    stopped_by, the group's agg_summary fail; nobody waits for another."""
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        summ = [r for r in recs if r.type == "summary"]
        meas = [r for r in recs if r.type == "run" and r.f.get("pass") == "measure"]
        if len(summ) != ncpus or len(meas) != ncpus:
            return f"{len(summ)} summaries, {len(meas)} measured runs, expected {ncpus}"
        if any(s.f["status"] != "fail" or "stopped_by" in s.f or s.int("runs") != 1
               for s in summ):
            return f"summaries {[s.f for s in summ][:2]}"
        asum = [r for r in recs if r.type == "agg_summary"]
        if len(asum) != 1 or asum[0].f["status"] != "fail" or "stopped_by" in asum[0].f:
            return f"agg_summary {[a.f for a in asum]}"
        return None
    return run


def auto_one_failed(ncpus: int, max_runs: int) -> Check:
    """inject_cpu=1: CPU 1's series fails from its first pass and runs on
    in step, out of the rule; the others stop by the rule after the same
    rounds; every CPU's rounds recorded, the group's agg_summary fail and
    naming the others' rule; an agg record for every round."""
    def run(res: qemu.BootResult) -> str | None:
        recs, why = run_records(res)
        if why:
            return why
        cfg = {r.f["cfg"]: r.f["cpu"] for r in recs if r.type == "config"}
        summ = {cfg[s.f["cfg"]]: s for s in recs if s.type == "summary"}
        if sorted(summ, key=int) != [str(c) for c in range(ncpus)]:
            return f"summaries of CPUs {sorted(summ)}"
        bad, good = summ["1"], [s for c, s in summ.items() if c != "1"]
        if bad.f["status"] != "fail" or "stopped_by" in bad.f:
            return f"cpu 1's summary: {bad.f}"
        stops = {(s.f["status"], s.f.get("stopped_by"), s.f["runs"]) for s in good}
        if len(stops) != 1:
            return f"the other CPUs stopped apart: {stops}"
        st, stop, n = stops.pop()
        if st != "ok" or stop not in ("precision", "max_runs") or \
                not 3 <= int(n) <= max_runs or bad.f["runs"] != n:
            return f"others {st} {stop} after {n}; cpu 1 ran {bad.f['runs']}"
        for c in summ:
            ran = [r for r in recs if r.type == "run" and cfg[r.f["cfg"]] == c
                   and r.f.get("pass") == "measure"]
            if len(ran) != int(n):
                return f"cpu {c}: {len(ran)} measured runs recorded, expected {n}"
        asum = [r for r in recs if r.type == "agg_summary"]
        aggs = [r for r in recs if r.type == "agg" and r.f.get("pass") == "measure"]
        if len(asum) != 1 or asum[0].f["status"] != "fail" or \
                asum[0].f.get("stopped_by") != stop or len(aggs) != int(n):
            return f"agg_summary {[a.f for a in asum]}, {len(aggs)} measured aggs"
        return None
    return run


def auto_by_precision(res: qemu.BootResult) -> str | None:
    """Every summary and the group's agg_summary stopped by precision=,
    not by max_runs."""
    recs, why = run_records(res)
    if why:
        return why
    ends = [(r.type, r.f.get("stopped_by")) for r in recs
            if r.type in ("summary", "agg_summary")]
    if not ends or any(stop != "precision" for _, stop in ends):
        return f"not every series stopped by precision: {ends}"
    return None


AUTO_CPUS = ["bench=fault", "folio=2M", "size=2M", "order=contiguous-page",
             "warmups=0", "selftest=off", "cpus=all"]

SMP_CASES = [
    # runs=auto at every CPU at once: the CPUs agree after each round, so
    # every CPU's two interleaved configurations run the same rounds.
    scalable(2, lambda n: Case(
        "smp-runs-auto", smp=n, timeout=400,
        args=[*AUTO_CPUS, "clear=erms,rep", "runs=auto", "precision=5%",
              "max_runs=6"],
        check=all_of(passes, group_rounds(n, 2, max_runs=6), runs_auto(6)))),
    # The group stops by the rule's precision, not only by max_runs: at
    # precision=100% three rounds within an sd of 40% of the mean do, which
    # TCG's noise keeps to (max_runs=30 is far past what it takes).
    scalable(2, lambda n: Case(
        "smp-runs-auto-precision", smp=n,
        args=[*AUTO_CPUS, "clear=erms", "runs=auto", "precision=100%",
              "max_runs=30"],
        check=all_of(passes, group_rounds(n, 1, max_runs=30), auto_by_precision))),
    # interleave=on with cpus=all, runs=N: rounds in step on every CPU.
    scalable(2, lambda n: Case(
        "smp-interleave", smp=n,
        args=[*AUTO_CPUS, "clear=erms,rep,movnti", "runs=2", "interleave=on"],
        check=all_of(passes, group_rounds(n, 3, rounds=2)))),
    # CPU 1's series fails (test-only inject_cpu=); it keeps step with
    # the others, which stop by the rule; the run fails, nobody hangs.
    scalable(2, lambda n: Case(
        "smp-runs-auto-one-failed", smp=n,
        args=[*AUTO_CPUS, "clear=erms", "runs=auto", "max_runs=5",
              "inject=skip-line", "inject_lines=4", "inject_cpu=1"],
        check=all_of(expect_rc(1), auto_one_failed(n, 5),
                     expect_log(r"# cpu 1: 2M\.erms\.contiguous-page: folio \d+ .*not zero",
                                "cpu 1's failure named")))),
    # Every CPU's series fails: they stop together after one round.
    scalable(2, lambda n: Case(
        "smp-runs-auto-failed", smp=n,
        args=[*AUTO_CPUS, "clear=erms", "runs=auto", "max_runs=5",
              "inject=skip-line", "inject_lines=4"],
        check=all_of(expect_rc(1), auto_all_failed(n)))),
]
