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

The peer (issue 36), in the same process after the window: a bare QTableView over the same
10,000 rows (rank, doc, grade) beside a pyqtgraph curve of them (the DCG at every rank), the
same moves made with `beginMoveRows`/`endMoveRows` on its model, the curve's points worked out
again with numpy and set, then the same event processing until both are painted. Goal: the
window's move at most 1.3x the peer's (the ratio of the medians), so the figure holds on another
machine. Each sample also takes the GUI thread's CPU time (`time.thread_time`), which other
processes on a busy machine disturb less than the wall time: the CPU ratio is printed beside.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QObject, QSettings, Qt
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QTableView, QWidget

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


def time_moves(window: MainWindow, moves: list[tuple[int, int, int]], rounds: int
               ) -> tuple[list[tuple[float, float, float]], int]:
    """Per sample, milliseconds from the move to the end of the event processing that paints it
    (the frame), to the end of the move's slots, and the GUI thread's CPU time over the frame
    (steadier on a busy machine); and how many samples repainted all of table, metrics table,
    plot and headline."""
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
        start, cpu = time.perf_counter(), time.thread_time()
        window.document.move_rows(first, count, dest)
        moved = time.perf_counter()
        app.processEvents()
        end = time.perf_counter()
        times.append(((end - start) * 1000, (moved - start) * 1000, (time.thread_time() - cpu) * 1000))
        complete += counter.painted >= {"list", "metrics", "plot", "headline"}
    return times, complete


def seeded_grades(n: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    grades = rng.integers(0, 4, n).astype(float)
    grades[rng.random(n) < 0.1] = np.nan  # some unjudged
    return grades


def bench_moves(n: int, rounds: int) -> dict[str, float]:
    app = make_application()
    grades = seeded_grades(n)
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
    medians = {}
    for label, moves in (("near the top (3 -> 0 and back)", near), (f"far ({far_row} -> 1 and back)", far)):
        samples, complete = time_moves(window, moves, rounds)
        times = [total for total, _, _ in samples]
        median = statistics.median(times)
        key = "far" if label.startswith("far") else "near the top"
        medians[key] = median
        medians[key + " cpu"] = cpu = statistics.median(c for _, _, c in samples)
        signals = statistics.median(moved for _, moved, _ in samples)
        print(f"move on {n:,} rows, {label}: median {median:.1f} ms, p90 "
              f"{np.percentile(times, 90):.1f} ms, max {max(times):.1f} ms "
              f"({'meets' if median <= GOAL_MS else 'misses'} the {GOAL_MS:.0f} ms goal); "
              f"{complete}/{rounds} samples repainted list, metrics, plot and headline\n"
              f"  of which the move and every slot it triggers (median): {signals:.1f} ms, "
              f"the paint: {median - signals:.1f} ms; CPU of the GUI thread per frame {cpu:.1f} ms")
    # Parts of the move: the core's recompute (a new report's per-rank columns and headline figures),
    # and the query browser's rescore of the edited query (paid only while its panel shows).
    doc = window.document
    start = time.perf_counter()
    for _ in range(rounds):
        report = ListReport(doc.current_list(), doc.measure, doc.original_list())
        _ = report.columns, report.summary
    recompute = (time.perf_counter() - start) * 1000 / rounds
    result = window.scores.result
    start = time.perf_counter()
    for _ in range(rounds // 4):
        with_list_rescored(result, doc.current_list(), doc.measure)
    rescore = (time.perf_counter() - start) * 1000 / (rounds // 4)
    print(f"  parts: the core's recompute (metrics table + headline figures) {recompute:.1f} ms; "
          f"the query browser's rescore of the query when its panel shows (many queries) {rescore:.1f} ms")
    doc.undo_stack.setClean()
    window.close()
    return medians


class PeerModel(QAbstractTableModel):
    """The bare peer's rows: rank, doc and grade, moved as a list is."""

    def __init__(self, docs: list[str], grades: np.ndarray) -> None:
        super().__init__()
        self.docs, self.grades = list(docs), list(grades)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.docs)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 3

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        row = index.row()
        grade = self.grades[row]
        return (str(row + 1), self.docs[row], "" if grade != grade else f"{grade:g}")[index.column()]

    def move(self, first: int, count: int, dest: int) -> None:
        self.beginMoveRows(QModelIndex(), first, first + count - 1, QModelIndex(), dest)
        for items in (self.docs, self.grades):
            block = items[first:first + count]
            del items[first:first + count]
            at = dest if dest < first else dest - count
            items[at:at] = block
        self.endMoveRows()
        top = min(first, dest)  # the ranks below the move changed
        self.dataChanged.emit(self.index(top, 0), self.index(len(self.docs) - 1, 0))


def bare_peer(n: int, grades: np.ndarray, moves: list[tuple[int, int, int]], rounds: int
              ) -> tuple[list[float], list[float], int]:
    """Milliseconds from the peer's move to the end of the event processing that paints it, the
    GUI thread's CPU milliseconds over it, and how many samples repainted both the table and the
    curve."""
    import pyqtgraph as pg

    app = QApplication.instance()
    model = PeerModel([f"doc-{i:05d}" for i in range(n)], grades)
    table = QTableView()
    table.setModel(model)
    plot = pg.PlotWidget()
    curve = plot.plot()
    discount = 1.0 / np.log2(np.arange(2, n + 2))

    def redraw() -> None:
        gains = np.nan_to_num(np.asarray(model.grades, dtype=float))
        curve.setData(np.arange(1, n + 1), np.cumsum(gains * discount))

    redraw()
    splitter = QSplitter()
    splitter.addWidget(table)
    splitter.addWidget(plot)
    window = QMainWindow()
    window.setCentralWidget(splitter)
    window.resize(1280, 800)
    window.show()
    for _ in range(20):
        app.processEvents()
    counter = PaintCounter({"table": table.viewport(), "plot": plot.viewport()})
    times, cpus, complete = [], [], 0
    for i in range(rounds + 10):  # (the first 10: a warm-up)
        first, count, dest = moves[i % len(moves)]
        counter.painted.clear()
        start, cpu = time.perf_counter(), time.thread_time()
        model.move(first, count, dest)
        redraw()
        app.processEvents()
        if i >= 10:
            times.append((time.perf_counter() - start) * 1000)
            cpus.append((time.thread_time() - cpu) * 1000)
            complete += counter.painted >= {"table", "plot"}
    window.close()
    return times, cpus, complete


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    n, rounds = (1_000, 20) if quick else (10_000, 200)
    medians = bench_moves(n, rounds)
    far_row = n - n // 10
    near, far = [(3, 1, 0), (0, 1, 4)], [(far_row, 1, 1), (1, 1, far_row + 1)]
    for label, moves in (("near the top", near), ("far", far)):
        times, cpus, complete = bare_peer(n, seeded_grades(n), moves, rounds)
        peer, peer_cpu = statistics.median(times), statistics.median(cpus)
        print(f"bare peer (QTableView + pyqtgraph curve of the {n:,} rows), move {label}: median "
              f"{peer:.1f} ms, CPU {peer_cpu:.1f} ms ({complete}/{rounds} samples repainted both); "
              f"the window / the peer: {medians[label] / peer:.2f} (goal <= 1.3), in CPU "
              f"{medians[label + ' cpu'] / peer_cpu:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
