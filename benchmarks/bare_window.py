"""The peer of `bench_startup.py`: a bare PySide6 window holding a QTableView (5 rows x 9 columns,
as E1's per-rank table) and a pyqtgraph PlotWidget (one 5-point curve), 1280 x 800.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bare_window.py

bench_startup.py runs it (and ndcg-gui) under first_paint.py, which ends it once it has painted.
"""

from __future__ import annotations

import sys

import pyqtgraph as pg  # binds to PySide6, the only Qt installed (as ndcg_gui.qt asks it to)
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QTableView


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
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
