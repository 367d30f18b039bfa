# SPDX-License-Identifier: GPL-2.0-only
"""Figures of a set of results, PNG and SVG, with titles, units and the
machine named: GB/s by primitive x order x folio size, per-fault latency
CDFs, the split of a fault into clearing, overhead and access, the
preemption models' frontier, the scaling of all CPUs at once, and where
pre-zeroing put the zeroing.
matplotlib comes from Debian's python3-matplotlib (scripts/setup.sh)."""
from __future__ import annotations

import math
from pathlib import Path

from . import dims, display, groups, results
from .records import Boot

Row = dict[str, object]



def first_seen(rows: list[Row], key: str) -> list[str]:
    """The values of key in the order the records first name them: the
    writers walk primitives and orders in their tables' order, so no list
    of names lives here (a primitive added to lib/prims.h appears)."""
    seen: dict[str, None] = {}
    for r in rows:
        seen.setdefault(str(r[key]), None)
    return list(seen)


class PlotError(Exception):
    pass


def pyplot():  # type: ignore[no-untyped-def]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise PlotError("matplotlib is not available to this python "
                        f"({e}): install Debian's python3-matplotlib "
                        "(scripts/setup.sh does) and run with /usr/bin/python3") from e
    return plt


def machine(boots: list[Boot]) -> str:
    """The machines of @boots (display.machine_name), each with what ran
    on it: a figure's title."""
    names = []
    for b in boots:
        if not b.first("machine"):
            continue
        h = b.first("host")
        where = f"Linux {h.f.get('kernel')}" if h else "hugezero kernel"
        n = f"{display.machine_name(b)}, {where}"
        if n not in names:
            names.append(n)
    return "; ".join(names) or "unknown machine"


def save(fig, out: Path, name: str) -> list[Path]:  # type: ignore[no-untyped-def]
    paths = []
    for ext in ("png", "svg"):
        p = out / f"{name}.{ext}"
        fig.savefig(p, dpi=120, bbox_inches="tight")
        paths.append(p)
    return paths


def ok_rows(boots: list[Boot]) -> list[Row]:
    return [r for r in results.rows(boots) if r["status"] == "ok"
            and isinstance(r["gbps_mean"], float) and not math.isnan(r["gbps_mean"])]


# Shown on every label; the other dimensions where the figure's rows differ in them.
SHOWN = ("folio", "clear", "order", "chunk", "radius", "backing")


def labeller(rows: list[Row]):  # type: ignore[no-untyped-def]
    """label(row): its order, chunk and backing, every other dimension in
    which the rows differ, its CPU when it ran in a group of several, and
    its boot where two rows would still share a label: no two
    configurations are drawn as one."""
    ds: list[dict[str, str]] = [r["dims"] for r in rows]  # type: ignore[misc]
    vary = dims.varying(ds, SHOWN)

    def base(r: Row) -> str:
        d: dict[str, str] = r["dims"]  # type: ignore[assignment]
        chunk = f" {r['chunk']}" if r["chunk"] else ""
        extra = dims.label(d, ["radius", *vary])
        # The CPUs of a group are equal in every dimension: which CPU.
        cpu = f" cpu={r['cpu']}" if str(r.get("ncpus", "")) not in ("", "1") else ""
        return (f"{display.order_label(r)}{chunk}" + (f" ({r['backing']})" if r["backing"] else "")
                + (f" {extra}" if extra else "") + cpu)

    seen: dict[tuple[object, ...], int] = {}
    for r in rows:
        k = (r["folio"], display.clear_label(r), base(r))
        seen[k] = seen.get(k, 0) + 1

    def label(r: Row) -> str:
        b = base(r)
        return b + (f" [boot {r['boot']}]"
                    if seen.get((r["folio"], display.clear_label(r), b), 0) > 1 else "")
    return label


def gbps_figure(plt, rows, title: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    label_of = labeller(rows)
    folios = display.folios_of(r["folio"] for r in rows)
    fig, axes = plt.subplots(len(folios), 1, figsize=(12, 4.2 * len(folios)), squeeze=False)
    for ax, folio in zip(axes[:, 0], folios):
        mine = [{**r, "clear_label": display.clear_label(r)} for r in rows
                if r["folio"] == folio]
        # Ticks by clear= and, for a tree's routine, its tree: two trees'
        # linux-erms are two bars, each named.
        prims = first_seen(mine, "clear_label")
        orders = first_seen(mine, "order")
        # Each label by its order's first place (order=tree's names its tree).
        rank = {label_of(r): orders.index(str(r["order"])) for r in mine}
        groups = sorted(rank, key=lambda s: (rank[s], s))
        width = 0.8 / max(len(groups), 1)
        for gi, g in enumerate(groups):
            xs, ys, es = [], [], []
            for pi, p in enumerate(prims):
                for r in mine:
                    if r["clear_label"] == p and label_of(r) == g:
                        xs.append(pi + (gi - (len(groups) - 1) / 2) * width)
                        ys.append(r["gbps_mean"])
                        es.append(display.sd_abs(float(r["gbps_mean"]),  # type: ignore[arg-type]
                                                 float(r["gbps_stddev_pct"]),  # type: ignore[arg-type]
                                                 int(r["runs"])))  # type: ignore[call-overload]
            ax.bar(xs, ys, width, yerr=es, capsize=2, label=g)
        ax.set_xticks(range(len(prims)))
        ax.set_xticklabels(prims)
        ax.set_ylabel(display.figure_mean_sd("GB/s (2^30 B/s, net)", "runs"))
        ax.set_title(f"{folio} folios")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle(f"Zeroing rate by primitive and order — {title}", fontsize=11)
    paths = save(fig, out, "gbps")
    plt.close(fig)
    return paths


CDF_LINES = 14     # more are not told apart


def draw_cdf(ax, lines: list[tuple[str, list[float]]],  # type: ignore[no-untyped-def]
             colours: list[str] | None = None) -> None:
    """One step line per (name, sorted µs values) of @lines, the first
    CDF_LINES of them, on a log axis (a 0 µs sample is off its left end)."""
    for i, (name, v) in enumerate(lines[:CDF_LINES]):
        n = len(v)
        ax.step(v, [(k + 1) / n for k in range(n)], where="post", label=name,
                **({"color": colours[i]} if colours else {}))
    ax.set_xscale("log")
    ax.set_xlabel("latency per folio (µs net of the timer, log scale)")
    ax.set_ylabel("fraction of faults")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)


def cdf_figure(plt, boots, title: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    series: dict[str, list[tuple[str, list[float]]]] = {}
    done = [(b, c, r) for b in boots for c, r in results.pairs(b)
            if r["status"] == "ok" and results.tsc_hz(b)]
    label_of = labeller([r for _, _, r in done])
    for b, c, row in done:
        hz = results.tsc_hz(b)
        kind = results.rate_kind(c)
        v = [x * 1e6 / hz for x in results.measured_samples(b, c, kind)]
        if v:
            series.setdefault(str(row["folio"]), []).append(
                (f"{display.clear_label(row)} {label_of(row)} [{kind}]", v))
    if not series:
        return []
    fig, axes = plt.subplots(len(series), 1, figsize=(11, 4.2 * len(series)), squeeze=False)
    for ax, (folio, lines) in zip(axes[:, 0], sorted(series.items())):
        draw_cdf(ax, lines)
        ax.set_title(f"{folio} folios: per-fault latency CDF"
                     f"{' (first 14 configurations)' if len(lines) > 14 else ''}")
    fig.suptitle(f"Per-fault latency — {title}", fontsize=11)
    paths = save(fig, out, "latency-cdf")
    plt.close(fig)
    return paths


def split_figure(plt, rows, title: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    mine = [r for r in rows if not math.isnan(float(r["clear_us_median"]))
            and not math.isnan(float(r["overhead_us_median"]))]
    if not mine:
        return []
    label_of = labeller(mine)
    names = [f"{r['folio']} {display.clear_label(r)} {label_of(r)}" for r in mine]
    clear = [float(r["clear_us_median"]) for r in mine]
    over = [float(r["overhead_us_median"]) for r in mine]
    acc = [0.0 if math.isnan(float(r["access_us_median"])) else float(r["access_us_median"])
           for r in mine]
    fig, ax = plt.subplots(figsize=(11, 0.28 * len(mine) + 1.8))
    y = range(len(mine))
    ax.barh(y, clear, label="clearing (in the fault handler)")
    ax.barh(y, over, left=clear, label="fault overhead (entry, folio, mapping, exit)")
    ax.barh(y, acc, left=[c + o for c, o in zip(clear, over)],
            label="post-fault access of the folio")
    ax.set_yticks(list(y))
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("µs per folio (medians over every fault of every run, net of the timer)")
    ax.legend(fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"Where a fault's time goes — {title}", fontsize=11)
    paths = save(fig, out, "split")
    plt.close(fig)
    return paths


# A colour per model in the order the records first name them (the
# writers walk lib/preempt.h's models in order): no list of models here.
PALETTE = ["tab:gray", "tab:blue", "tab:green", "tab:red", "tab:orange", "tab:purple",
           "tab:brown", "tab:pink", "tab:olive", "tab:cyan"]


def model_colours(rows: list[Row]) -> dict[str, str]:
    models = [m for m in dict.fromkeys(r["dims"].get("preempt", "-")  # type: ignore[union-attr]
                                       for r in rows if r["bench"] != "linux-fault")]
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(models)}


def has_probe(r: Row) -> bool:
    return isinstance(r.get("probe_us_p99"), float) and not math.isnan(r["probe_us_p99"])  # type: ignore[arg-type]


# Where a label may go around its point, in points: nearest first, each
# ring in the same order of directions (the first is beside the point,
# up and right, where an uncrowded label always goes).
LABEL_RINGS = (4, 14, 26, 40, 56, 76, 100, 130)
LABEL_DIRECTIONS = ((1, 0.75), (1, -1), (-1, 0.75), (-1, -1), (0, 1), (0, -1),
                    (1, 0), (-1, 0))
LABEL_PAD = 1.0     # pixels kept clear around a label


def box_overlap(a, b) -> float:  # type: ignore[no-untyped-def]
    """The area two display-space boxes (x0, y0, x1, y1) share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(ax, labels: list[tuple[float, float, str]],  # type: ignore[no-untyped-def]
                 points: list[tuple[float, float, float]], fontsize: float = 7) -> list:
    """Each label of @labels (x, y, text: data coordinates) beside its
    point where its box, in display coordinates, overlaps no label placed
    before it and no marker of @points (x, y and half its side in points,
    taken as a square), and stays inside the axes: the candidates are LABEL_RINGS x
    LABEL_DIRECTIONS, tried in that order, so the same figure is always
    placed the same way.  A label not beside its point is joined to it by
    a leader line.  Where no candidate is free, the one overlapping least
    is taken.  Call with the axes' scales and limits final; returns the
    annotations."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    px = fig.dpi / 72.0
    area = ax.get_window_extent(renderer)
    blocked = []
    for x, y, half in points:
        cx, cy = ax.transData.transform((x, y))
        blocked.append((cx - half * px, cy - half * px, cx + half * px, cy + half * px))
    placed = []
    for x, y, text in labels:
        probe = ax.annotate(text, (x, y), fontsize=fontsize, xytext=(0, 0),
                            textcoords="offset points")
        ext = probe.get_window_extent(renderer)
        probe.remove()
        w, h = ext.width, ext.height
        at = ax.transData.transform((x, y))
        best = None
        for ring in LABEL_RINGS:
            for dx, dy in LABEL_DIRECTIONS:
                ox, oy = at[0] + dx * ring * px, at[1] + dy * ring * px
                x0 = ox if dx > 0 else ox - w if dx < 0 else ox - w / 2
                y0 = oy if dy > 0 else oy - h if dy < 0 else oy - h / 2
                box = (x0 - LABEL_PAD, y0 - LABEL_PAD, x0 + w + LABEL_PAD, y0 + h + LABEL_PAD)
                inside = (box[0] >= area.x0 and box[2] <= area.x1 and
                          box[1] >= area.y0 and box[3] <= area.y1)
                cost = sum(box_overlap(box, o) for o in blocked) + (0 if inside else w * h)
                if best is None or cost < best[0]:
                    best = (cost, ring, dx, dy, box)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        _, ring, dx, dy, box = best  # type: ignore[misc]
        blocked.append(box)
        leader = ring != LABEL_RINGS[0]
        placed.append(ax.annotate(
            text, (x, y), fontsize=fontsize, xytext=(dx * ring, dy * ring),
            textcoords="offset points",
            ha="left" if dx > 0 else "right" if dx < 0 else "center",
            va="bottom" if dy > 0 else "top" if dy < 0 else "center",
            **({"arrowprops": {"arrowstyle": "-", "color": "0.5", "lw": 0.5,
                               "shrinkA": 0, "shrinkB": 3}} if leader else {})))
    return placed


def frontier_figure(plt, rows, title: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """The trade the models make (frontier_axes), saved."""
    fig = frontier_axes(plt, rows, title)
    if fig is None:
        return []
    paths = save(fig, out, "frontier")
    plt.close(fig)
    return paths


def frontier_axes(plt, rows, title: str):  # type: ignore[no-untyped-def]
    """The trade the models make: clearing GB/s against the probe's wake-up
    latency (p99 filled, max hollow, log axis), one colour per model,
    merged 7.0's choice (order=linux) starred, Linux's own demand fault in
    black; each point labelled where the label hides no other (place_labels).
    None without a probed configuration."""
    probed = [r for r in rows if has_probe(r)]
    if not probed:
        return None
    folios = display.folios_of(r["folio"] for r in probed)
    fig, axes = plt.subplots(len(folios), 1, figsize=(11, 4.6 * len(folios)), squeeze=False)
    colours = model_colours(probed)
    for ax, folio in zip(axes[:, 0], folios):
        for r in (x for x in probed if x["folio"] == folio):
            d: dict[str, str] = r["dims"]  # type: ignore[assignment]
            linux = r["bench"] == "linux-fault"
            model = d.get("preempt", "-")
            colour = "black" if linux else colours.get(model, "tab:purple")
            star = not linux and r["order"] == "linux"
            y = r["gbps_mean"]
            ax.scatter([r["probe_us_p99"]], [y], color=colour, s=90 if star else 36,
                       marker="*" if star else ("D" if linux else "o"), zorder=3)
            ax.scatter([r["probe_us_max"]], [y], facecolors="none", edgecolors=colour,
                       s=36, marker="o", zorder=2)
            ax.plot([r["probe_us_p99"], r["probe_us_max"]], [y, y], color=colour,
                    alpha=0.35, lw=1)
        for m, c in colours.items():
            if any(x["dims"].get("preempt") == m for x in probed  # type: ignore[union-attr]
                   if x["folio"] == folio and x["bench"] != "linux-fault"):
                ax.scatter([], [], color=c, label=f"preempt={m}")
        ax.scatter([], [], color="black", marker="D", label="Linux demand fault (host's model)")
        ax.scatter([], [], color="gray", marker="*", s=90, label="Linux 7.0's choice (order=linux)")
        ax.scatter([], [], facecolors="none", edgecolors="gray", label="max (p99 filled)")
        ax.set_xscale("log")
        ax.set_xlabel("probe wake-up latency, µs (log): p99 filled, max hollow")
        ax.set_ylabel("GB/s (2^30 B/s, net)")
        ax.set_title(f"{folio} folios")
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle(f"Clearing rate against a waiting task's latency — {title}", fontsize=11)
    # The labels last, in display coordinates: every scale and limit set.
    fig.canvas.draw()
    for ax, folio in zip(axes[:, 0], folios):
        place_labels(ax, *frontier_marks([x for x in probed if x["folio"] == folio]))
    return fig


def frontier_marks(rows: list[Row]) -> tuple[list[tuple[float, float, str]],
                                             list[tuple[float, float, float]]]:
    """The frontier's labels (at each p99 point) and every marker, with
    half its side in points (a scatter's s is its area in points²)."""
    labels, points = [], []
    for r in rows:
        y = float(r["gbps_mean"])  # type: ignore[arg-type]
        linux = r["bench"] == "linux-fault"
        star = not linux and r["order"] == "linux"
        what = (f"Linux ({r['backing']})" if linux else
                f"{display.clear_label(r)} {display.order_label(r)}"
                f"{' ' + str(r['chunk']) if r['chunk'] else ''}")
        labels.append((float(r["probe_us_p99"]), y, what))  # type: ignore[arg-type]
        points += [(float(r["probe_us_p99"]), y, math.sqrt(90 if star else 36) / 2),  # type: ignore[arg-type]
                   (float(r["probe_us_max"]), y, math.sqrt(36) / 2)]  # type: ignore[arg-type]
    return labels, points


def finite(v: object) -> bool:
    return isinstance(v, float) and not math.isnan(v)


def scaling_figure(plt, boots, title: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """All CPUs at once (docs/smp.md): each group's aggregate GB/s (total
    bytes over wall time, mean ± sd of its passes) against how many CPUs
    ran it, one line per primitive × order and every other dimension in
    which the lines differ — from a log with scale= steps."""
    rs = [r for r in groups.rows(boots) if r["status"] == "ok" and finite(r["gbps_mean"])]
    if len({r["ncpus"] for r in rs}) < 2:
        return []

    def rest(r: Row) -> dict[str, str]:
        return {k: v for k, v in r["dims"].items() if k != "cpus"}  # type: ignore[union-attr]
    vary = dims.varying([rest(r) for r in rs], SHOWN)
    series: dict[tuple[object, ...], list[Row]] = {}
    for r in rs:
        series.setdefault((r["folio"], dims.key(rest(r))), []).append(r)
    for k, mine in list(series.items()):
        if len({r["ncpus"] for r in mine}) < len(mine):    # a step twice: a line per boot
            del series[k]
            for r in mine:
                series.setdefault((*k, r["boot"]), []).append(r)
    folios = display.folios_of(r["folio"] for r in rs)
    fig, axes = plt.subplots(len(folios), 1, figsize=(11, 4.6 * len(folios)), squeeze=False)
    for ax, folio in zip(axes[:, 0], folios):
        steps: set[int] = set()
        for k, mine in series.items():
            if k[0] != folio:
                continue
            mine.sort(key=lambda r: int(r["ncpus"]))  # type: ignore[call-overload]
            r = mine[0]
            extra = dims.label(rest(r), ["radius", *vary])
            name = (f"{display.clear_label(r)} {display.order_label(r)}"
                    f"{' ' + str(r['chunk']) if r['chunk'] else ''}"
                    + (f" ({r['backing']})" if r["backing"] else "")
                    + (f" {extra}" if extra else "") + (f" [boot {k[2]}]" if len(k) > 2 else ""))
            xs = [int(x["ncpus"]) for x in mine]  # type: ignore[call-overload]
            ys = [float(x["gbps_mean"]) for x in mine]  # type: ignore[arg-type]
            es = [display.sd_abs(y, x["gbps_stddev_pct"], len(x["gbps_runs"]))  # type: ignore[arg-type]
                  for x, y in zip(mine, ys)]
            ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=name)
            steps.update(xs)
        ax.set_xticks(sorted(steps))
        ax.set_xlabel("CPUs running the configuration at once (ncpus)")
        ax.set_ylabel(display.figure_mean_sd("aggregate GB/s (2^30 B/s)", "passes"))
        ax.set_ylim(bottom=0)
        ax.set_title(f"{folio} folios")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle(f"Zeroing rate of all CPUs at once (total bytes / wall time of a pass) "
                 f"— {title}", fontsize=11)
    paths = save(fig, out, "scaling")
    plt.close(fig)
    return paths


# prezero=: the colour of each mode's zeroing ahead (by who did it), of
# the zeroing left in the faults, and of each mode's latency line.
AHEAD_COLOURS = {"request": "tab:blue", "idle": "tab:green", "dedicated": "tab:purple",
                 "free": "tab:orange"}
INLINE_COLOUR = "tab:red"
MODE_COLOURS = {"none": "black", "request": "tab:blue", "idle": "tab:green",
                "dedicated": "tab:purple", "on-free": "tab:orange"}
PREZERO_DIMS = ("prezero", *dims.PREZERO_PARAMS)


def prezero_figure(plt, boots, title: str, out: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """Where the zeroing went (docs/prezero-report.md): per folio/clear/order
    group (and every other dimension, boot by boot), per mode the zeroing
    per pass stacked — in the faults, then ahead, coloured by who did it —
    with the time to fault the region marked; beside it, each mode's
    per-fault latency CDF."""
    done = [(b, c, r) for b in boots for c, r in results.pairs(b)
            if r["status"] == "ok" and "prezero" in c.rec.f and results.tsc_hz(b)]
    if not any(r["prezero"] != "none" for _, _, r in done):
        return []
    from matplotlib.patches import Patch     # pyplot() has found matplotlib

    def rest(r: Row) -> dict[str, str]:
        return {k: v for k, v in r["dims"].items() if k not in PREZERO_DIMS}  # type: ignore[union-attr]
    vary = dims.varying([rest(r) for _, _, r in done], SHOWN)
    panels: dict[tuple[object, ...], list[tuple[Boot, results.Config, Row]]] = {}
    for b, c, r in done:
        panels.setdefault((b.index, dims.key(rest(r))), []).append((b, c, r))
    fig, axes = plt.subplots(len(panels), 2, figsize=(14, 4.4 * len(panels)), squeeze=False)
    for (bars, cdf), mine in zip(axes, panels.values()):
        r0 = mine[0][2]
        names = mode_names([r for _, _, r in mine])
        xs = range(len(mine))
        inline = [finite_or_0(r["inline_clear_ms_per_run"]) for _, _, r in mine]
        ahead = [finite_or_0(r["prezero_ms_per_run"]) for _, _, r in mine]
        bars.bar(xs, inline, 0.6, color=INLINE_COLOUR)
        bars.bar(xs, ahead, 0.6, bottom=inline,
                 color=[AHEAD_COLOURS.get(str(r["prezero_by"]), "tab:gray") for _, _, r in mine])
        fault = bars.scatter(xs, [r["fault_ms_per_run"] for _, _, r in mine], color="black",
                             marker="D", zorder=3, label="time to fault the region")
        keys = [fault, Patch(color=INLINE_COLOUR, label="zeroing in the faults")] + [
            Patch(color=colour, label=f"zeroing ahead, by {by}")
            for by, colour in AHEAD_COLOURS.items()
            if any(r["prezero_by"] == by for _, _, r in mine)]
        bars.set_xticks(list(xs))
        bars.set_xticklabels(names, fontsize=8)
        bars.set_xlabel("prezero= mode")
        bars.set_ylabel("ms per measured pass (net of the timer)")
        bars.set_ylim(bottom=0)
        bars.grid(axis="y", alpha=0.3)
        bars.legend(handles=keys, fontsize=7)
        extra = dims.label(r0["dims"], ["radius", *vary])  # type: ignore[arg-type]
        head = (f"{r0['folio']} {r0['clear']} {display.order_label(r0)}"
                f"{' ' + str(r0['chunk']) if r0['chunk'] else ''}{' ' + extra if extra else ''}"
                f"{f' [boot {mine[0][0].index}]' if len(boots) > 1 else ''}")
        bars.set_title(f"{head}: where the zeroing went", fontsize=9)
        hz = [results.tsc_hz(b) for b, _, _ in mine]
        lines = [(name.replace("\n", " "), [x * 1e6 / f for x in results.measured_samples(b, c, "fault")])
                 for name, f, (b, c, _) in zip(names, hz, mine)]
        draw_cdf(cdf, [(n, v) for n, v in lines if v],
                 [MODE_COLOURS.get(str(r["prezero"]), "tab:gray")
                  for (n, v), (_, _, r) in zip(lines, mine) if v])
        cdf.legend(fontsize=7, loc="lower right")
        cdf.set_title(f"{head}: per-fault latency by mode", fontsize=9)
    fig.suptitle(f"Pre-zeroing: the zeroing per pass, in the faults and ahead of them, and "
                 f"the faults' latency — {title}", fontsize=11)
    paths = save(fig, out, "prezero")
    plt.close(fig)
    return paths


def mode_names(rows: list[Row]) -> list[str]:
    """Each row's mode, with the parameters in which it differs from
    another row of the same mode ('request\nn=1'), and its configuration's
    number where that is not enough."""
    out = []
    for r in rows:
        same = [x["dims"] for x in rows if x["prezero"] == r["prezero"]]
        out.append(str(r["prezero"]) + "".join(
            f"\n{k.removeprefix('prezero_')}={dims.value(r['dims'], k)}"  # type: ignore[arg-type]
            for k in dims.varying(same, ("prezero",))))  # type: ignore[arg-type]
    return [n + (f"\ncfg {r['cfg']}" if out.count(n) > 1 else "") for n, r in zip(out, rows)]


def finite_or_0(v: object) -> float:
    return float(v) if finite(v) else 0.0  # type: ignore[arg-type]


# The kinds of figure, and what each needs when it has nothing to draw.
KINDS: dict[str, str] = {
    "gbps": "an ok configuration",
    "latency-cdf": "an ok configuration with samples",
    "split": "an ok configuration with clear and fault medians",
    "frontier": "an ok configuration with probe=latency",
    "scaling": "ok groups of at least two CPU counts (a log with scale= steps)",
    "prezero": "an ok configuration run with a prezero= mode other than none",
}


def write(boots: list[Boot], out: Path, kind: str = "all") -> list[Path]:
    """Every figure the records have (@kind 'all': at least one ok
    configuration needed), or the one @kind, which must have something."""
    plt = pyplot()
    out.mkdir(parents=True, exist_ok=True)
    rows = ok_rows(boots)
    title = machine(boots)
    draw = {
        "gbps": lambda: gbps_figure(plt, rows, title, out) if rows else [],
        "latency-cdf": lambda: cdf_figure(plt, boots, title, out),
        "split": lambda: split_figure(plt, rows, title, out),
        "frontier": lambda: frontier_figure(plt, rows, title, out),
        "scaling": lambda: scaling_figure(plt, boots, title, out),
        "prezero": lambda: prezero_figure(plt, boots, title, out),
    }
    if kind == "all":
        if not rows:
            raise PlotError("no configuration with status ok in these records")
        return [p for k in KINDS for p in draw[k]()]
    paths = draw[kind]()
    if not paths:
        raise PlotError(f"nothing to draw as {kind}: it needs {KINDS[kind]}")
    return paths
