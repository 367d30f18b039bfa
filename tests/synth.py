# SPDX-License-Identifier: GPL-2.0-only
"""Synthetic hugezero logs for the host scripts' tests: records with real
checksums and sequence numbers, built a record at a time."""
from __future__ import annotations

import random
import zlib

MACHINE = ('vendor=AuthenticAMD family=0x19 model=0x11 stepping=1 brand="AMD EPYC 9654" '
           'l3=33554432 features=erms,avx2,clzero')


def record(seq: int, rtype: str, body: str) -> str:
    head = f"@hz1 {seq} {rtype}{' ' + body if body else ''} "
    return f"{head}#{zlib.crc32(head.encode()):08x}"


def cpulist(cpus: list[int]) -> str:
    """As cpulist_format() writes it: "0,2-7"."""
    runs: list[list[int]] = []
    for c in sorted(cpus):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


class Log:
    """One boot's records; text() closes it with its end record."""

    def __init__(self, boot: str = 'version=0.2 firmware=bios cmdline="bench=fault"',
                 machine: str = MACHINE, timebase: str = "tsc_hz=1000000000 source=hpet "
                 "invariant=1 overhead_median=0", host: str | None = None) -> None:
        self.lines: list[str] = []
        self.cfgs = 0
        self.groups = 0
        self.add("boot", boot)
        self.add("machine", machine)
        self.add("timebase", timebase)
        if host is not None:
            self.add("host", host)

    def add(self, rtype: str, body: str) -> "Log":
        self.lines.append(record(len(self.lines) + 1, rtype, body))
        return self

    def config(self, body: str, runs: list[dict[str, list[int]]],
               summary: str = "", samples: bool = True,
               run_extra: str | list[str] = "") -> "Log":
        """A configuration with measured runs of the given samples by kind
        (fault, clear, access; pmu.EVENT, a counter's deltas); run totals
        are the timed samples' sums.
        @run_extra: more fields of every run record, or of each in turn."""
        self.cfgs += 1
        cfg = self.cfgs
        self.add("config", f"cfg={cfg} {body}")
        for i, kinds in enumerate(runs):
            self.run(cfg, i, kinds, samples,
                     run_extra if isinstance(run_extra, str) else run_extra[i])
        self.add("summary", f"cfg={cfg} status=ok runs={len(runs)}"
                 f"{' ' + summary if summary else ''}")
        return self

    def run(self, cfg: int, i: int, kinds: dict[str, list[int]], samples: bool = True,
            run_extra: str = "") -> None:
        """Pass @i's run record (totals the samples' sums) and its samples."""
        n = len(next(iter(kinds.values())))
        totals = " ".join(f"{k}_ticks={sum(v)}" for k, v in kinds.items()
                          if not k.startswith("pmu."))
        self.add("run", f"cfg={cfg} run={i} pass=measure faults={n} resched=0 "
                 f"{totals}{' ' + run_extra if run_extra else ''}")
        for k, v in kinds.items():
            if samples:
                self.add("samples", f"cfg={cfg} run={i} kind={k} first=0 "
                         f"v={','.join(map(str, v))} n={n}")

    def interleaved(self, bodies: list[str], passes: list[list[dict[str, list[int]]]],
                    orders: list[list[int]], group: int = 1) -> "Log":
        """Configurations @bodies whose measured passes ran interleaved in
        round group @group (docs/statistics.md, issue 24): their config
        records (interleave=on round_group=@group), then round by round the
        passes in that round's order @orders[i] (round_orders()), each run
        record with its round and slot, @passes[k][i] the samples of
        configuration k's pass in round i; then their summaries."""
        first = self.cfgs + 1
        for body in bodies:
            self.cfgs += 1
            self.add("config", f"cfg={self.cfgs} {body} interleave=on round_group={group}")
        for i, order in enumerate(orders):
            for slot, k in enumerate(order):
                self.run(first + k, i, passes[k][i], run_extra=f"round={i} slot={slot}")
        for k in range(len(bodies)):
            self.add("summary", f"cfg={first + k} status=ok runs={len(orders)}")
        return self

    def smp(self, ncpus: int, nodes: int = 1, offsets: list[int] | None = None,
            err: int = 10, bound: int = 1000) -> "Log":
        """One cpu record per CPU (all up; CPU c on node c % nodes), then
        the smp record."""
        offsets = offsets or [0] * ncpus
        for c in range(ncpus):
            self.add("cpu", f"cpu={c} apic_id={2 * c} uid={c} node={c % nodes} state=up "
                     f"x2apic=0 tsc_offset_ticks={offsets[c]} "
                     f"tsc_offset_err_ticks={0 if c == 0 else err} tsc_warps=0")
        skew = max(abs(o) + (0 if c == 0 else err) for c, o in enumerate(offsets))
        self.add("smp", f"present={ncpus} up={ncpus} nodes={nodes} slit={int(nodes > 1)} "
                 f"tsc_skew_ticks={skew} tsc_skew_bound_ticks={bound} "
                 f"tsc_sync={'ok' if skew <= bound else 'bad'}")
        return self

    def group(self, body: str, per_cpu: dict[int, list[dict[str, list[int]]]],
              walls: list[int], refused: dict[int, str] | None = None,
              rusage: list[tuple[int, int]] | None = None, nodes: int = 1,
              numa: str = "local", status: str = "ok", skew: int = 5,
              run_extra: str = "", corr: tuple[int, int] | None = None) -> "Log":
        """One configuration (@body, with size=) run by the CPUs of @per_cpu
        together: each CPU's config, runs and summary, and per pass an agg
        record — bytes the sum of the CPUs' sizes, wall @walls[i] (or the
        reason in @refused[i]), stime/utime ticks the CPUs' fault/access
        totals, and with @rusage the companion's (stime_us, utime_us); the
        start skew @skew, with @corr the kernel's (start_skew_corr_ticks,
        start_skew_err_ticks) too, as an older log has not — then the
        agg_summary.  @run_extra: more fields of every run record."""
        self.groups += 1
        g, cpus = self.groups, sorted(per_cpu)
        # The canonical cpulist the writers print: each run of CPUs a range.
        text = cpulist(cpus)
        size = int(dict(kv.split("=", 1) for kv in body.split())["size"])
        cfg = {}
        for c in cpus:
            self.cfgs += 1
            cfg[c] = self.cfgs
            node = c % nodes
            mem = {"local": node, "remote": (node + 1) % nodes}.get(numa, numa)
            self.add("config", f"cfg={cfg[c]} {body} cpus={text} ncpus={len(cpus)} "
                     f"numa={numa} group={g} cpu={c} apic_id={2 * c} node={node} "
                     f"mem_node={mem}")
        refused = refused or {}
        for i, wall in enumerate(walls):
            for c in cpus:
                self.run(cfg[c], i, per_cpu[c][i], run_extra=run_extra)
            own = {c: sum(sum(v) for v in per_cpu[c][i].values()) for c in cpus}
            slow, fast = max(cpus, key=own.__getitem__), min(cpus, key=own.__getitem__)
            timing = (f"refused=\"{refused[i]}\"" if i in refused
                      else f"start_skew_ticks={skew} " + (
                          f"start_skew_corr_ticks={corr[0]} start_skew_err_ticks={corr[1]} "
                          if corr else "") + f"wall_ticks={wall}")
            st = sum(sum(per_cpu[c][i].get("fault", [])) for c in cpus)
            ut = sum(sum(per_cpu[c][i].get("access", [])) for c in cpus)
            us = f" stime_us={rusage[i][0]} utime_us={rusage[i][1]}" if rusage else ""
            self.add("agg", f"group={g} run={i} pass=measure cpus={text} ncpus={len(cpus)} "
                     f"bytes={size * len(cpus)} {timing} stime_ticks={st} utime_ticks={ut}"
                     f"{us} slowest_cpu={slow} slowest_ticks={own[slow]} "
                     f"fastest_cpu={fast} fastest_ticks={own[fast]}")
        for c in cpus:
            self.add("summary", f"cfg={cfg[c]} status=ok runs={len(walls)}")
        self.add("agg_summary", f"group={g} status={status} runs={len(walls)} cpus={text} "
                 f"ncpus={len(cpus)}")
        return self

    def text(self) -> str:
        n = len(self.lines) + 1
        return "\n".join(self.lines + [record(n, "end", f"records={n}")]) + "\n"


def prezero_log() -> Log:
    """A boot of prezero=none,request,on-free: 2 folios of 2M, 2 measured
    passes each, at 1 GHz (1,000,000 ticks a ms) with a timer pair of 10
    ticks and a fault window's two of 30.  Net of them, per pass:
      none     faults 2.2, 2.2 ms; clears 1.9, 1.9; nothing ahead
      request  (prezero_n=1) one fault of two pre-zeroed (clear 0, its
               fault net of one pair): faults 1.02, 1.13; clears 0.9, 1.0;
               ahead 0.9, 1.0 (one folio, its pair off)
      on-free  both pre-zeroed: faults 0.06, 0.06; no clears; ahead 1.9,
               2.1 (two folios at unmap)"""
    log = Log(timebase="tsc_hz=1000000000 source=hpet invariant=1 overhead_median=10")
    ahead = {"prezero_clear": "erms", "prezero_order": "contiguous-page"}
    log.config(kernel_config(name="none.2M.erms.contiguous-page", prezero="none"),
               [{"fault": [1000030, 1200030], "clear": [900010, 1000010]},
                {"fault": [1100030, 1100030], "clear": [950010, 950010]}],
               summary="fault_net_of_ticks=30")
    log.config(kernel_config(name="request.2M.erms.contiguous-page", prezero="request",
                             prezero_n="1", **ahead),
               [{"fault": [1000030, 20010], "clear": [900010, 0]},
                {"fault": [1100030, 30010], "clear": [1000010, 0]}],
               summary="fault_net_of_ticks=30",
               run_extra=[f"prezeroed_faults=1 prezero_by=request prezero_ticks={t} "
                          "prezero_folios=1" for t in (900010, 1000010)])
    log.config(kernel_config(name="on-free.2M.erms.contiguous-page", prezero="on-free",
                             **ahead),
               [{"fault": [20010, 40010], "clear": [0, 0]},
                {"fault": [30010, 30010], "clear": [0, 0]}],
               summary="fault_net_of_ticks=30",
               run_extra=[f"prezeroed_faults=2 prezero_by=free prezero_ticks={t} "
                          "prezero_folios=2" for t in (1900020, 2100020)])
    return log


def kernel_config(**over: str) -> str:
    """A bench=fault config record's fields, some replaced or added."""
    f = {"name": "2M.erms.contiguous-page", "bench": "fault", "folio": "2M",
         "clear": "erms", "order": "contiguous-page", "chunk": "0", "radius": "0",
         "size": "4194304", "size_requested": "4194304", "folios": "2", "touch": "seq",
         "offset": "first", "access": "none", "cache": "asis", "fill": "movq", "cpl": "3",
         "warmups": "1", "runs": "2", "verify": "full", "seed": "1", "inject": "none"}
    f.update(over)
    return " ".join(f"{k}={v}" for k, v in f.items())


def pmu_config(log: Log, counts: dict[str, list[int]], skip: str = "",
               runs: list[dict[str, list[int]]] | None = None, **over: str) -> Log:
    """A configuration of pmu= (2 folios of 1G by default, 2 passes of 2
    faults) whose counted events have, in every pass, the per-fault deltas
    of @counts; @skip ('EVENT: reason; ...') names the events asked for but
    not counted."""
    runs = runs or [{"fault": [2000, 2000], "clear": [1000, 1000]},
                    {"fault": [2100, 1900], "clear": [1000, 1000]}]
    skipped = [part.split(":", 1)[0] for part in skip.split("; ") if part]
    fields = {"name": "1G.erms.contiguous-page", "folio": "1G", "size": str(2 << 30),
              "size_requested": str(2 << 30), "pmu": ",".join([*counts, *skipped]),
              "pmu_counted": ",".join(counts) or "none", **over}
    if skip:
        fields["pmu_skip"] = f'"{skip}"'
    return log.config(kernel_config(**fields), [
        {**r, **{f"pmu.{ev}": v for ev, v in counts.items()}} for r in runs])


def round_orders(configs: int, rounds: int, seed: int = 1) -> list[list[int]]:
    """Each round's order of @configs configurations, shuffled from @seed
    as an interleaving runner would: configuration k runs at slot
    orders[i].index(k) of round i."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        order = list(range(configs))
        rng.shuffle(order)
        out.append(order)
    return out
