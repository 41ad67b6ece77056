"""The per-rank metrics table, read-only: every figure comes from the document's recompute (the
core's `display_table`); this model formats the figures (core.numbers), explains them in tooltips
(core.explain) and sets apart the ranks beyond k.

Announcing: after each change the model compares the columns it shows with the ones it showed and
announces every row that differs (plus every row when k moves the greyed ranks or the bold row), so
a cell whose value changed is never left painted with the old one.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ndcg_gui.core.analysis.explain import explain_cell
from ndcg_gui.core.analysis.list_report import ListReport
from ndcg_gui.core.lists.numbers import format_grade, format_metric
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.cells import (
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGNMENT,
    BACKGROUND,
    DISPLAY,
    FONT,
    FOREGROUND,
    TOOLTIP,
    UNJUDGED_TEXT,
    OneCallPerCell,
    announce_cells,
    announce_rows,
    font,
)
from ndcg_gui.qt.models.colours import current

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()

# (header, column of the display table, tooltip of the header)
COLUMNS = [
    ("Rank", "rank", "Position i in the list (1 = top)"),
    ("Document", "doc", "Document id"),
    ("Grade", "grade", "Relevance grade (unjudged documents count as 0)"),
    ("Gain", "gain", "Gain of the grade under the definition in use"),
    ("Disc.", "discount", "Discount at rank i"),
    ("Contrib.", "contribution", "What this rank adds to DCG: gain × discount"),
    ("CG", "cg", "Cumulative gain: sum of gains at ranks 1..i"),
    ("DCG", "dcg", "Discounted cumulative gain at ranks 1..i"),
    ("Ideal gr.", "ideal_grade", "Grade at rank i of the ideal ranking"),
    ("IDCG", "idcg", "DCG of the ideal ranking at ranks 1..i"),
    ("NDCG", "ndcg", "DCG / IDCG at rank i (0 where IDCG = 0)"),
]
# What each column's cells are drawn from (an unjudged grade reads "unjudged", in italics).
SHOWN_FROM = [(name, "judged") if name == "grade" else (name,) for _, name, _ in COLUMNS]
GRADE_COLUMNS = ("grade", "ideal_grade")  # shown as given; every other figure to 4 decimals
CELL_FLAGS = Qt.ItemIsEnabled | Qt.ItemIsSelectable


class MetricsTableModel(OneCallPerCell, QAbstractTableModel):
    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self._doc = document
        self._report: ListReport | None = None
        self._cols: dict[str, np.ndarray] = {}
        self._judged = np.zeros(0, bool)
        self._n = 0
        self._k = document.k
        self._read()
        document.changed.connect(self._follow)

    def _read(self) -> None:
        report = self._report = self._doc.report
        # Plain arrays: data() is called for every visible cell on every repaint.
        columns = report.columns
        self._cols = {name: columns[name] for _, name, _ in COLUMNS}
        # Shown too: an unjudged grade reads "unjudged", in italics, whatever its scoring value.
        self._judged = self._cols["judged"] = columns["judged"]
        self._n = len(columns["rank"])
        self._k = report.k
        self._no_judgments = not (report.list.judged.any() or report.list.unretrieved) and self._n > 0
        if self._no_judgments:  # (NDCG's 0 where IDCG = 0 would read as a figure: shown "–")
            self._cols["ndcg"] = np.full(self._n, np.nan)

    def _follow(self, changes: Changes) -> None:
        if self._doc.report is self._report:
            return  # nothing this table shows was recomputed
        if len(self._doc.report.list) != self._n:
            self.beginResetModel()
            self._read()
            self.endResetModel()
            return
        before, k_before = self._cols, self._k
        self._read()
        if k_before != self._k:  # greyed ranks and the bold NDCG@k row move
            announce_rows(self, 0, self._n - 1)
            return
        announce_cells(self, before, self._cols, SHOWN_FROM)

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else self._n

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole):
        if orientation != Qt.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        role = int(role)  # (plain ints: an enum's comparison costs more than the answer)
        return COLUMNS[section][0] if role == DISPLAY else COLUMNS[section][2] if role == TOOLTIP else None

    def value(self, row: int, name: str):
        """The raw figure behind a cell (tests compare these with `per_rank`)."""
        return self._cols[name][row]

    def data(self, index: Index, role: int = Qt.DisplayRole):
        row, col = index.row(), index.column()
        if not 0 <= row < self._n or not 0 <= col < len(COLUMNS):
            return None
        return self._cell(COLUMNS[col][1], row, int(role))

    def _cell(self, name: str, row: int, role: int):
        # Called for every visible cell and role on each repaint: plain ints, cached objects.
        if role == DISPLAY:
            if name == "doc":
                return str(self._cols["doc"][row])
            if name == "rank":
                return str(row + 1)
            if name == "grade" and not self._judged[row]:
                return UNJUDGED_TEXT
            value = float(self._cols[name][row])
            if value != value:
                return "–"
            return format_grade(value) if name in GRADE_COLUMNS else format_metric(value)
        if role == ALIGNMENT:
            return ALIGN_LEFT if name == "doc" else ALIGN_RIGHT
        beyond_k = row >= self._k
        if role == FOREGROUND:
            if beyond_k:
                return current().brush("beyond_k_text")
            return current().brush("unjudged") if name == "grade" and not self._judged[row] else None
        if role == BACKGROUND:
            return current().brush("beyond_k") if beyond_k else None
        if role == FONT:
            if name == "ndcg" and row + 1 == self._k:
                return font(bold=True)
            if name == "grade" and not self._judged[row]:
                return font(italic=True)
            return None
        if role == TOOLTIP:
            if name == "ndcg" and self._no_judgments:
                return "No judgments: no NDCG (open the run with its qrels, or type grades, to score it)"
            return self.explain(row, name)
        return None

    def look(self, row: int, column: int) -> tuple:
        """What a cell is painted with, in one call (the table's delegate, `TextCells`): its
        display, alignment, foreground, background and font roles, as `data()` gives them."""
        name, cell = COLUMNS[column][1], self._cell
        return (cell(name, row, DISPLAY), cell(name, row, ALIGNMENT), cell(name, row, FOREGROUND),
                cell(name, row, BACKGROUND), cell(name, row, FONT))

    def flags(self, index: Index) -> Qt.ItemFlag:
        return CELL_FLAGS if index.isValid() else Qt.NoItemFlags

    def explain(self, row: int, name: str) -> str:
        """The arithmetic behind one cell, e.g. `DCG@3 = 4.2619 + 3 / log2(4) = 5.7619`."""
        return explain_cell(self._report.table, row, name, self._report.measure.at(self._k))
