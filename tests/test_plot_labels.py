# SPDX-License-Identifier: GPL-2.0-only
"""The frontier plot's labels (plot.place_labels): on a synthetic crowd of
configurations whose points nearly coincide, no label's box, as the
renderer measures it, overlaps another label or any marker; a label moved
off its point has a leader line; an uncrowded plot keeps every label
beside its point; the placement is the same every time.  Needs Debian's
python3-matplotlib (/usr/bin/python3)."""
from __future__ import annotations

import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import plot, records  # noqa: E402

try:
    from matplotlib.text import Text
except ImportError:         # the tests say so and skip
    pass
from synth import Log, kernel_config  # noqa: E402

CLEARS = ("erms", "rep", "orig", "movnti", "avx2", "avx2-nt", "movntdq")
ORDERS = ("contiguous-page", "converging-page")


def probed(log: Log, i: int, model: str, fault: int, late: tuple[int, int]) -> None:
    """A configuration of probe=latency: 2 faults of @fault ticks (1 GHz:
    1000 ticks a µs), the probe late by @late."""
    clear, order = CLEARS[i % len(CLEARS)], ORDERS[i // len(CLEARS) % len(ORDERS)]
    log.config(kernel_config(name=f"{clear}.{order}.{i}", clear=clear, order=order,
                             preempt=model, probe="latency", probe_us="1000",
                             seed=str(i + 1)),
               [{"fault": [fault] * 2, "clear": [1000000] * 2}],
               run_extra="probe_wakeups=2 probe_expected=2")
    log.add("samples", f"cfg={log.cfgs} run=0 kind=probe first=0 v={late[0]},{late[1]} n=2")


def crowd(n: int, spread: float) -> Log:
    """@n configurations under preempt=full whose points are @spread
    apart (fault time and probe lateness each grow by that fraction from
    one to the next), and two under preempt=none far from them, as the
    models part: the axes span those, the @n crowd together."""
    log = Log()
    for i in range(n):
        f = 1 + spread * i
        probed(log, i, "full", int(2000000 * f), (int(50000 * f), int(80000 * f)))
    for i, (fault, late) in enumerate(((1000000, (5000000, 9000000)),
                                       (4000000, (3000000, 6000000)))):
        probed(log, n + i, "none", fault, late)
    return log


def beside(t) -> bool:  # type: ignore[no-untyped-def]
    """A label on the nearest ring around its point (plot.LABEL_RINGS)."""
    return max(abs(v) for v in t.xyann) <= plot.LABEL_RINGS[0]


def text_box(t, renderer):  # type: ignore[no-untyped-def]
    """An annotation's text as the renderer lays it out, without its
    leader line (which its own extent takes in)."""
    t.update_positions(renderer)
    return Text.get_window_extent(t, renderer)


def overlap(a, b) -> float:  # type: ignore[no-untyped-def]
    """The area two renderer boxes share (0: apart or touching)."""
    return plot.box_overlap((a.x0, a.y0, a.x1, a.y1), (b.x0, b.y0, b.x1, b.y1))


@unittest.skipIf(importlib.util.find_spec("matplotlib") is None,
                 "no matplotlib for this python: run with /usr/bin/python3")
class LabelPlacement(unittest.TestCase):
    def figure(self, log: Log):  # type: ignore[no-untyped-def]
        plt = plot.pyplot()
        rows = plot.ok_rows(records.parse(log.text()))
        fig = plot.frontier_axes(plt, rows, "a crowd")
        self.addCleanup(plt.close, fig)
        ax = fig.axes[0]
        renderer = fig.canvas.get_renderer()
        labels = [t for t in ax.texts]
        _, points = plot.frontier_marks(rows)
        px = fig.dpi / 72
        marks = []
        for x, y, half in points:
            cx, cy = ax.transData.transform((x, y))
            marks.append((cx - half * px, cy - half * px, cx + half * px, cy + half * px))
        return fig, rows, labels, [text_box(t, renderer) for t in labels], marks

    def test_the_crowd_is_crowded(self) -> None:
        """Beside their points, as before, these labels would overlap."""
        plt = plot.pyplot()
        rows = plot.ok_rows(records.parse(crowd(14, 0.01).text()))
        fig, ax = plt.subplots(figsize=(11, 4.6))
        self.addCleanup(plt.close, fig)
        labels, _ = plot.frontier_marks(rows)
        ax.scatter([x for x, _, _ in labels], [y for _, y, _ in labels])
        ax.set_xscale("log")
        fig.canvas.draw()
        boxes = [ax.annotate(t, (x, y), fontsize=7, xytext=(4, 3), textcoords="offset points")
                 .get_window_extent(fig.canvas.get_renderer()) for x, y, t in labels]
        self.assertTrue(any(overlap(a, b) > 0 for i, a in enumerate(boxes)
                            for b in boxes[i + 1:]))

    def test_no_label_overlaps_a_label_or_a_point(self) -> None:
        fig, rows, labels, boxes, marks = self.figure(crowd(14, 0.01))
        self.assertEqual(len(labels), len(rows))
        self.assertEqual(sorted(t.get_text() for t in labels),
                         sorted(plot.frontier_marks(rows)[0][i][2] for i in range(len(rows))))
        for i, a in enumerate(boxes):
            for j, b in enumerate(boxes[i + 1:], i + 1):
                self.assertEqual(overlap(a, b), 0, f"{labels[i].get_text()!r} on "
                                 f"{labels[j].get_text()!r}")
            for m in marks:
                self.assertEqual(plot.box_overlap((a.x0, a.y0, a.x1, a.y1), m), 0,
                                 f"{labels[i].get_text()!r} hides a point")
        # Moved off their points, joined to them; beside them, not.
        moved = [t for t in labels if not beside(t)]
        self.assertTrue(moved)
        self.assertTrue(all(t.arrow_patch is not None for t in moved))
        self.assertTrue(all(t.arrow_patch is None for t in labels if beside(t)))

    def test_uncrowded_labels_stay_beside(self) -> None:
        _, _, labels, _, _ = self.figure(crowd(3, 3.0))
        self.assertEqual(len(labels), 5)
        self.assertTrue(all(beside(t) and t.arrow_patch is None for t in labels))
        # Up and right of the point, as before, where the axes have room.
        self.assertEqual(labels[0].xyann, (4, 3))

    def test_placed_the_same_every_time(self) -> None:
        one = [t.xyann for t in self.figure(crowd(14, 0.01))[2]]
        two = [t.xyann for t in self.figure(crowd(14, 0.01))[2]]
        self.assertEqual(one, two)


if __name__ == "__main__":
    unittest.main()


@unittest.skipIf(importlib.util.find_spec("matplotlib") is None,
                 "no matplotlib for this python: run with /usr/bin/python3")
class TreeLabels(unittest.TestCase):
    """make LINUX= (docs/linux-tree.md): a tree primitive is named with
    its tree wherever a figure names primitives; hugezero's own are not."""

    def test_gbps_ticks(self) -> None:
        log = Log(boot='version=0.3 firmware=bios cmdline="bench=fault" '
                       'linux_tree=6.12.118 linux_tree_sha256=' + "ab" * 32)
        for clear, extra in (("erms", ""), ("linux-erms",
                                            " tree_routine=clear_page_erms tree_abi=per-page")):
            log.config(kernel_config(name=f"{clear}.contiguous-page", clear=clear,
                                     order="contiguous-page") + extra,
                       [{"fault": [2000000] * 2, "clear": [1000000] * 2}])
        plt = plot.pyplot()
        kept = []

        class Keep:	# pyplot, but the figure stays open to be read
            def __getattr__(self, k: str):  # type: ignore[no-untyped-def]
                return getattr(plt, k)

            def close(self, fig) -> None:  # type: ignore[no-untyped-def]
                kept.append(fig)

        rows = plot.ok_rows(records.parse(log.text()))
        with tempfile.TemporaryDirectory() as d:
            plot.gbps_figure(Keep(), rows, "trees", Path(d))
        self.addCleanup(plt.close, kept[0])
        ticks = [t.get_text() for t in kept[0].axes[0].get_xticklabels()]
        self.assertEqual(ticks, ["erms", "linux-erms of Linux 6.12.118 (sha abababababab)"])
