"""The peer of `bench_startup.py`: a bare PySide6 window holding a QTableView (5 rows x 9 columns,
as E1's per-rank table) and a pyqtgraph PlotWidget (one 5-point curve), 1280 x 800.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bare_window.py

With NDCG_GUI_FIRST_PAINT_PROBE=1 it prints `first-paint` on stdout once the window has been
painted and ends at once, as `ndcg-gui` does under the same variable (see ndcg_gui/qt/app.py), so
both processes are timed to the same moment. Without it the window stays open.
"""

from __future__ import annotations

import os
import sys

import pyqtgraph as pg  # binds to PySide6, the only Qt installed (as ndcg_gui.qt asks it to)
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QTableView


class FirstPaint(QObject):
    """On the first Paint event of the window's widgets: report once the event loop is back (the
    whole paint, children and flush included, is done by then) and end the process."""

    def __init__(self, app: QApplication) -> None:
        super().__init__()
        self.seen = False
        app.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if not self.seen and event.type() == QEvent.Type.Paint:
            self.seen = True
            QTimer.singleShot(0, self.report)
        return False

    def report(self) -> None:
        sys.stdout.write("first-paint\n")
        sys.stdout.flush()
        os._exit(0)


def main() -> int:
    app = QApplication(sys.argv[:1])
    model = QStandardItemModel(5, 9)
    grades = [3, 2, 3, 0, 1]
    for row, grade in enumerate(grades):
        for col in range(9):
            model.setItem(row, col, QStandardItem(f"{grade * (col + 1) / 3:.4f}"))
    table = QTableView()
    table.setModel(model)
    plot = pg.PlotWidget()
    plot.plot([1, 2, 3, 4, 5], [0.5, 0.7, 0.9, 0.95, 0.97])
    splitter = QSplitter()
    splitter.addWidget(table)
    splitter.addWidget(plot)
    window = QMainWindow()
    window.setCentralWidget(splitter)
    window.resize(1280, 800)
    # Watching from here on, as ndcg-gui does: the filter sees every event, which costs a little.
    probe = FirstPaint(app) if os.environ.get("NDCG_GUI_FIRST_PAINT_PROBE") else None
    window.show()
    code = app.exec()
    del probe  # alive until here: the filter dies with it
    return code


if __name__ == "__main__":
    sys.exit(main())
