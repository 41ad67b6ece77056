"""Step by step: the per-rank table of the list on screen revealed one rank at a time (Space or →
the next rank, ← back, Home the first, End the last, Esc closes), with the arithmetic of the rank
reached (`core.teaching.steps.rank_steps`) and the DCG, IDCG and NDCG curves drawn as far as it.
Works on whatever list the document shows (typed, loaded, an example) and follows its edits."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg  # (after PySide6: pyqtgraph takes the binding imported first)
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.lists.numbers import format_grade, format_metric
from ndcg_gui.core.teaching.steps import RankStep, rank_steps
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.plot.curve_panels import SYMBOLS, curve_pen
from ndcg_gui.qt.widgets.plot.plot_parts import no_tab_stop, paint_plot
from ndcg_gui.qt.widgets.scheme import FollowsScheme

COLUMNS = (("Rank", None), ("Doc", None), ("Grade", None), ("Gain", "gain"), ("Discount", "discount"),
           ("Term", "contribution"), ("DCG", "dcg"), ("Ideal grade", "ideal_grade"), ("IDCG", "idcg"),
           ("NDCG", "ndcg"))
LINE_NAMES = {"gain": "Gain", "discount": "Discount", "contribution": "DCG term", "dcg": "Running DCG",
              "ideal_grade": "The ideal's row", "idcg": "IDCG", "ndcg": "NDCG"}
NEXT_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Right)
CURVES = (("dcg", "DCG"), ("idcg", "IDCG"), ("ndcg", "NDCG"))  # drawn as in the window's plot


class StepDialog(FollowsScheme, QDialog):
    """Not modal: the list stays in view. `rank`: how many ranks are revealed (0: none yet)."""

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.setWindowTitle("Step by step")
        self.setModal(False)
        self.setFocusPolicy(Qt.StrongFocus)  # (the keys are the dialog's: nothing in it takes focus)
        self.steps: list[RankStep] = []
        self.rank = 0
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([c for c, _ in COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setFocusPolicy(Qt.NoFocus)
        self.table.setSelectionMode(QAbstractItemView.NoSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.setAccessibleName("Per-rank table, revealed rank by rank")
        self.explain = QLabel()
        self.explain.setWordWrap(True)
        self.explain.setTextFormat(Qt.RichText)
        self.explain.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.explain.setAccessibleName("The arithmetic of this rank")
        # DCG and IDCG above, NDCG (0 to 1) below, their ranges those of the whole list: the curves
        # grow into a frame that stays put.
        self.plot = pg.GraphicsLayoutWidget()
        self.plot.setMinimumSize(260, 200)
        no_tab_stop(self.plot)  # (its viewport too: the keys are the dialog's)
        self.sums = self.plot.addPlot(row=0, col=0)
        self.ratio = self.plot.addPlot(row=1, col=0)
        self.ratio.setXLink(self.sums)
        self.ratio.setLabel("bottom", "rank")
        for panel in (self.sums, self.ratio):
            panel.setMouseEnabled(False, False)
            panel.setMenuEnabled(False)
            panel.addLegend(offset=(-10, 5))
        self.curves = {}
        for name, label in CURVES:
            panel = self.ratio if name == "ndcg" else self.sums
            self.curves[name] = panel.plot([], [], symbol=SYMBOLS[name], symbolSize=6, name=label)
        self.back_button, self.next_button = QPushButton("◀ Back (←)"), QPushButton("Next rank (Space, →)")
        for button, step in ((self.back_button, -1), (self.next_button, 1)):
            button.setFocusPolicy(Qt.NoFocus)  # (Space must not press a button with the focus)
            button.clicked.connect(lambda _c=False, s=step: self.go(self.rank + s))
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.next_button)
        buttons.addStretch(1)
        lower = QHBoxLayout()
        lower.addWidget(self.explain, 3)
        lower.addWidget(self.plot, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.table)
        layout.addLayout(lower, 1)
        layout.addLayout(buttons)
        if parent is not None:
            self.resize(min(900, parent.width() - 40), min(620, parent.height() - 40))
        document.changed.connect(self._follow)
        self._follow(Changes(dataset=True))
        self.follow_scheme()

    def restyle(self) -> None:
        c = current()
        paint_plot(self.plot, (self.sums, self.ratio), c)
        for name, curve in self.curves.items():
            pen = curve_pen(c, name)
            curve.setPen(pen)
            curve.setSymbolBrush(pen.color())
            curve.setSymbolPen(pen.color())

    # ---- keys ---------------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in NEXT_KEYS:
            self.go(self.rank + 1)
        elif key == Qt.Key.Key_Left:
            self.go(self.rank - 1)
        elif key == Qt.Key.Key_Home:
            self.go(1)
        elif key == Qt.Key.Key_End:
            self.go(len(self.steps))
        else:
            super().keyPressEvent(event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    # ---- what is shown -----------------------------------------------------------------------------------
    def _follow(self, _changes: Changes) -> None:
        report = self._doc.report
        self.steps = rank_steps(report.table, report.measure)
        self.k = report.k
        self.table.setRowCount(len(self.steps))
        rows = min(max(len(self.steps), 1), 10)  # (every rank in view, up to ten)
        self.table.setFixedHeight(self.table.horizontalHeader().height() + 4
                                  + rows * self.table.verticalHeader().defaultSectionSize())
        self.sums.setXRange(0.5, max(1, len(self.steps)) + 0.5, padding=0)
        top = max([max(s.values["dcg"], s.values["idcg"]) for s in self.steps] + [1.0])
        self.sums.setYRange(0, top * 1.05, padding=0)
        self.ratio.setYRange(0, 1.05, padding=0)
        self.go(min(max(self.rank, 1 if self.steps else 0), len(self.steps)))

    def go(self, rank: int) -> None:
        """Reveal ranks 1..`rank` (kept within the list)."""
        self.rank = max(min(rank, len(self.steps)), 1 if self.steps else 0)
        n = len(self.steps)
        for row, step in enumerate(self.steps):
            shown = row < self.rank
            for column, (_, name) in enumerate(COLUMNS):
                text = _cell(step, column, name) if shown else ""
                item = self.table.item(row, column)
                if item is None:
                    item = QTableWidgetItem()
                    self.table.setItem(row, column, item)
                item.setText(text)
                font = item.font()
                font.setBold(row == self.rank - 1)
                item.setFont(font)
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter if column > 1 else
                                      Qt.AlignLeft | Qt.AlignVCenter)
        if self.rank:
            self.table.scrollToItem(self.table.item(self.rank - 1, 0))
        self.back_button.setEnabled(self.rank > 1)
        self.next_button.setEnabled(self.rank < n)
        self.title.setText(self._title())
        self.explain.setText(self._explain())
        self._draw()

    def _title(self) -> str:
        n = len(self.steps)
        if not n:
            return "The list is empty: type grades in the list's box (e.g. 3 2 3 0 1), then come back."
        gain = self._doc.measure.describe().split(";")[0]
        return (f"<b>Rank {self.rank} of {n}</b> ({gain}; k = {self.k}) — "
                "Space or → the next rank, ← back, Home the first, End the last, Esc closes")

    def _explain(self) -> str:
        if not self.rank:
            return ""
        step = self.steps[self.rank - 1]
        lines = [f"<b>Rank {step.rank}: {html.escape(step.doc)}, grade {html.escape(step.grade)}</b>"]
        lines += [f"{LINE_NAMES[c]}: {html.escape(text).replace(chr(10), ' ')}" for c, text in step.lines]
        if step.rank == self.k:
            lines.append(f"<b>This is NDCG@{self.k}, the headline's figure.</b>")
        elif step.beyond_k:
            lines.append(f"<i>Rank {step.rank} is beyond the cut-off k = {self.k}: the headline stops at "
                         f"rank {self.k}.</i>")
        if self.rank == len(self.steps) and step.rank < self.k:
            lines.append(f"<i>The list ends here, before k = {self.k}.</i>")
        return "<br>".join(lines)

    def _draw(self) -> None:
        ranks = np.arange(1, self.rank + 1)
        for name, curve in self.curves.items():
            curve.setData(ranks, [s.values[name] for s in self.steps[:self.rank]])


def _cell(step: RankStep, column: int, name: str | None) -> str:
    if column == 0:
        return str(step.rank)
    if column == 1:
        return step.doc
    if column == 2:
        return step.grade
    value = step.values[name]
    if name == "ideal_grade":
        return "" if np.isnan(value) else format_grade(value)
    return format_metric(value)

