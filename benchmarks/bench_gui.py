"""The window's speed: a row move on a 10,000-row list until table, plot and headline are repainted
(start-up is measured by bench_startup.py).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py           # 10,000 rows
    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py --quick   # check it runs

Move: the window (1280 x 800) shows a seeded list of 10,000 graded documents. One sample is
`Document.move_rows` (the undo command, the core's recompute, the models' signals; the query
browser rescores only when its panel shows, i.e. with several queries) and then the event
processing in which Qt paints what changed: the ranked list, the metrics table, the plot and the
headline (an event filter checks that each got a Paint event). Two kinds of move: a drag near the
top (row 3 to row 0, the rows on screen) and a far one (row 9,000 to row 1). Goal: median <= 16 ms
(one frame at 60 Hz).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtWidgets import QApplication, QWidget

from ndcg_gui.core.analysis.list_report import ListReport
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.rescoring import with_list_rescored
from ndcg_gui.qt.app import make_application
from ndcg_gui.qt.window.main_window import MainWindow

GOAL_MS = 16.0


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
    # Parts of the move: the core's recompute (a new report's per-rank columns and headline figures),
    # and the query browser's rescore of the edited query (paid only while its panel shows).
    doc = window.document
    start = time.perf_counter()
    for _ in range(rounds):
        report = ListReport(doc.current_list(), doc.k, doc.config, doc.original_list(), doc.ties)
        _ = report.columns, report.summary
    recompute = (time.perf_counter() - start) * 1000 / rounds
    result = window.scores.result
    start = time.perf_counter()
    for _ in range(rounds // 4):
        with_list_rescored(result, doc.current_list(), doc.k, doc.config, doc.ties)
    rescore = (time.perf_counter() - start) * 1000 / (rounds // 4)
    print(f"  parts: the core's recompute (metrics table + headline figures) {recompute:.1f} ms; "
          f"the query browser's rescore of the query when its panel shows (many queries) {rescore:.1f} ms")
    doc.undo_stack.setClean()
    window.close()


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    bench_moves(1_000 if quick else 10_000, 20 if quick else 200)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
