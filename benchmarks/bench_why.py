"""Every figure stays live: a row move on a 1,000-row list with judged documents the list missed and
unjudged documents, until the whole window is repainted (the list with its ideal ranks and moves,
the per-rank table or the tab in view, the plot with its band, the headline with its bounds), with
each tab of the "why" panes in view in turn. Goal: median <= 16 ms (one frame at 60 Hz).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_why.py            # 1,000 rows
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_why.py --quick    # check it runs

One sample is `Document.move_rows` (undo step, core recompute, every model's and view's follow-up)
and the event processing in which Qt paints what changed. The plot's unjudged band is drawn a
moment after edits pause (it costs tens of milliseconds); its cost is reported apart.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NDCG_RECOVERY_DIR", tempfile.mkdtemp())

import numpy as np
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.qt.app import make_application
from ndcg_gui.qt.window.main_window import MainWindow

GOAL_MS = 16.0


def make_list(n: int, rng: np.random.Generator) -> RankedList:
    grades = rng.choice([0.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0], n)
    grades[rng.random(n) < 0.1] = np.nan  # unjudged
    missed = {f"missed-{i}": float(rng.choice([1.0, 2.0, 3.0])) for i in range(n // 20)}
    return RankedList(docs=[f"doc-{i:05d}" for i in range(n)], grades=grades, query="q",
                      unretrieved=missed, has_pool=True)


def frames(window: MainWindow, rounds: int) -> list[float]:
    app = QApplication.instance()
    moves = [(3, 1, 0), (0, 1, 4)]  # down and back
    out = []
    for i in range(rounds):
        start = time.perf_counter()
        window.document.move_rows(*moves[i % 2])
        app.processEvents()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.rounds = 100, 6
    app = make_application()
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "bench.ini"), QSettings.IniFormat)
    window = MainWindow(settings=settings)
    window.document.set_lists({"q": make_list(args.rows, np.random.default_rng(7))})
    window.resize(1280, 800)
    window.show()
    for _ in range(20):
        app.processEvents()
    worst = 0.0
    for tab in range(window.why.count()):
        window.why.setCurrentIndex(tab)
        frames(window, 6)  # warm-up
        times = frames(window, args.rounds)
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"{args.rows:,} rows, tab {window.why.tabText(tab)!r} in view: move to repaint median "
              f"{median:.1f} ms, p90 {np.percentile(times, 90):.1f} ms, max {max(times):.1f} ms")
    plot = window.plot
    start = time.perf_counter()
    plot.settle()  # the band, drawn once edits pause
    app.processEvents()
    print(f"the unjudged band after a pause: {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"worst tab median {worst:.1f} ms ({'meets' if worst <= GOAL_MS else 'misses'} the "
          f"{GOAL_MS:.0f} ms goal)")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
