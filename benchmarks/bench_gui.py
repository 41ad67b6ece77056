"""The window's speed: a row move on a 10,000-row list until table, plot and headline are repainted,
and start-up to the first window shown next to a bare PySide6 window.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py           # 10,000 rows
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py --quick   # check it runs

Move: the window (1280 x 800) shows a seeded list of 10,000 graded documents. One sample is
`Document.move_rows` (the undo command, the core's recompute, the models' signals; the query
browser rescores only when its panel shows, i.e. with several queries) and then the event
processing in which Qt paints what changed: the ranked list, the metrics table, the plot and the
headline (an event filter checks that each got a Paint event). Two kinds of move: a drag near the
top (row 3 to row 0, the rows on screen) and a far one (row 9,000 to row 1). Goal: median <= 16 ms
(one frame at 60 Hz).

Start-up: wall time of a fresh process from launch until its first window has been shown and
painted, for `ndcg-gui` (opening E1) and for a bare QWidget, median of several runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtWidgets import QApplication, QWidget

from ndcg_gui.core.ranked_list import RankedList
from ndcg_gui.qt.app import make_application
from ndcg_gui.qt.window.main_window import MainWindow

GOAL_MS = 16.0

BARE = """
import time, sys
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication(sys.argv[:1])
w = QWidget(); w.resize(1280, 800); w.show(); w.repaint(); app.processEvents()
"""

OURS = """
import sys, tempfile, os
from PySide6.QtCore import QSettings
from ndcg_gui.qt.app import make_application, apply_options
from ndcg_gui.qt.window.main_window import MainWindow
from ndcg_gui.cli import build_parser
app = make_application()
settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.IniFormat)
w = MainWindow(settings=settings)
apply_options(w, build_parser().parse_args([]))
w.resize(1280, 800); w.show(); w.repaint(); app.processEvents()
"""


class PaintCounter(QObject):
    """Counts Paint events of the widgets a move must repaint."""

    def __init__(self, widgets: dict[str, QWidget]) -> None:
        super().__init__()
        self.names = {id(w): name for name, w in widgets.items()}
        self.painted: set[str] = set()
        for w in widgets.values():
            w.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Paint:
            self.painted.add(self.names.get(id(watched), "?"))
        return False


def time_moves(window: MainWindow, moves: list[tuple[int, int, int]], rounds: int) -> tuple[list[float], int]:
    """Milliseconds from the move to the end of the event processing that paints it (the frame),
    and how many samples repainted all of table, metrics table, plot and headline."""
    app = QApplication.instance()
    counter = PaintCounter({
        "list": window.ranking_view.viewport(),
        "metrics": window.metrics_view.viewport(),
        "plot": window.plot.plot.viewport(),
        "headline": window.headline.ndcg,
    })
    times, complete = [], 0
    for i in range(rounds):
        first, count, dest = moves[i % len(moves)]
        counter.painted.clear()
        start = time.perf_counter()
        window.document.move_rows(first, count, dest)
        moved = time.perf_counter()
        app.processEvents()
        end = time.perf_counter()
        times.append(((end - start) * 1000, (moved - start) * 1000))
        complete += counter.painted >= {"list", "metrics", "plot", "headline"}
    return times, complete


def bench_moves(n: int, rounds: int) -> None:
    app = make_application()
    rng = np.random.default_rng(7)
    grades = rng.integers(0, 4, n).astype(float)
    grades[rng.random(n) < 0.1] = np.nan  # some unjudged
    # A throw-away settings file (never os.devnull: QSettings saves by writing a temporary file and
    # renaming it over its path, which as root replaces /dev/null with a regular file).
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "bench.ini"), QSettings.IniFormat)
    window = MainWindow(settings=settings)
    window.document.set_lists({"q": RankedList(docs=[f"doc-{i:05d}" for i in range(n)], grades=grades)})
    window.resize(1280, 800)
    window.show()
    for _ in range(20):
        app.processEvents()
    window.repaint()
    near = [(3, 1, 0), (0, 1, 4)]  # down and back: the list returns to where it was
    far_row = n - n // 10  # 9,000 of 10,000
    far = [(far_row, 1, 1), (1, 1, far_row + 1)]
    time_moves(window, near, 10)  # warm-up
    for label, moves in (("near the top (3 -> 0 and back)", near), (f"far ({far_row} -> 1 and back)", far)):
        samples, complete = time_moves(window, moves, rounds)
        times = [total for total, _ in samples]
        median = statistics.median(times)
        signals = statistics.median(moved for _, moved in samples)
        print(f"move on {n:,} rows, {label}: median {median:.1f} ms, p90 "
              f"{np.percentile(times, 90):.1f} ms, max {max(times):.1f} ms "
              f"({'meets' if median <= GOAL_MS else 'misses'} the {GOAL_MS:.0f} ms goal); "
              f"{complete}/{rounds} samples repainted list, metrics, plot and headline\n"
              f"  of which the move and every slot it triggers (median): {signals:.1f} ms, "
              f"the paint: {median - signals:.1f} ms")
    # Parts of the move: the core's recompute, and the query browser's rescore of the query.
    doc = window.document
    start = time.perf_counter()
    for _ in range(rounds):
        doc._recompute()
    recompute = (time.perf_counter() - start) * 1000 / rounds
    browser = getattr(window, "query_browser", None)
    rescore = float("nan")
    if browser is not None and hasattr(browser, "scores"):
        start = time.perf_counter()
        for _ in range(rounds // 4):
            browser.scores.rescore_query(doc.current_query)
            _ = browser.scores.result  # one query: rescored when read, not on the move
        rescore = (time.perf_counter() - start) * 1000 / (rounds // 4)
    print(f"  parts: the core's recompute (metrics table + headline figures) {recompute:.1f} ms; "
          f"the query browser's rescore of the query when its panel shows (many queries) {rescore:.1f} ms")
    window.document.undo_group.activeStack().setClean()
    window.close()


def bench_startup(runs: int) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    for label, code in (("bare PySide6 window", BARE), ("NDCG Inspector on E1", OURS)):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
            times.append((time.perf_counter() - start) * 1000)
        print(f"start-up to first window shown, {label}: median {statistics.median(times):.0f} ms "
              f"(min {min(times):.0f}, {runs} runs)")


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    bench_moves(1_000 if quick else 10_000, 20 if quick else 200)
    bench_startup(2 if quick else 7)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
