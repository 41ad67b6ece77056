"""The per-rank metrics table, read-only: every figure comes from the document's recompute
(`RankedList.metrics`); this model only formats them and explains them in tooltips."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from ndcg_gui.core.config import MetricConfig
from ndcg_gui.qt.document import Document
from ndcg_gui.qt.ranking_model import (
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGNMENT,
    BACKGROUND,
    DISPLAY,
    FONT,
    FOREGROUND,
    TOOLTIP,
    UNJUDGED_BRUSH,
    UNJUDGED_TEXT,
    font,
    format_number,
)

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()

# (header, column of the document's metrics table, tooltip of the header)
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
BEYOND_K_BACKGROUND = QColor("#eef0f3")
BEYOND_K_FOREGROUND = QColor("#8a9099")
BEYOND_K_BRUSH = QBrush(BEYOND_K_FOREGROUND)
CELL_FLAGS = Qt.ItemIsEnabled | Qt.ItemIsSelectable
BEYOND_K_BACKGROUND_BRUSH = QBrush(BEYOND_K_BACKGROUND)


def discount_formula(rank: int, config: MetricConfig) -> str:
    """The discount at `rank` as a person would write it: `1 / log2(4)`."""
    if config.discount == "log2":
        return f"1 / log2({rank + 1})"
    if rank < config.base:
        return "1"
    return f"1 / {_log_name(config.base)}({rank})"


def divide_by_discount(gain: str, rank: int, config: MetricConfig) -> str:
    """`gain / log2(i+1)`, or `gain × 1` where the discount is 1 (Järvelin–Kekäläinen)."""
    if config.discount == "jarvelin" and rank < config.base:
        return f"{gain} × 1"
    return f"{gain} / {discount_formula(rank, config)[4:]}"


def _log_name(base: float) -> str:
    b = format_number(base)
    return "log2" if b == "2" else "ln" if abs(base - math.e) < 1e-12 else f"log_{b}"


def gain_formula(grade: float, gain: float, config: MetricConfig) -> str:
    g, v = format_number(grade), format_number(gain)
    if config.negative == "zero" and grade < 0:
        return f"gain = 0 (negative grade {g} counts as 0)"
    if config.gain_table is not None:
        if grade in config.gain_table:
            return f"gain = table[{g}] = {v}"
        return f"gain = {v} (grade {g} is not in the table, so it is its own gain)"
    if config.gain == "exponential":
        return f"gain = 2^{g} − 1 = {v}"
    return f"gain = grade = {v}"


class MetricsTableModel(QAbstractTableModel):
    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self._doc = document
        self._cols: dict[str, np.ndarray] = {}
        self._judged = np.zeros(0, bool)
        self._n = 0
        self._k = document.k
        self._changed_rows: tuple[int, int] | None = None
        self._read()
        # A move between ranks a and b changes the discounts of the rows it shifts, so DCG and NDCG
        # change from min(a, b) to the end of the list (CG and IDCG only between the ends): note
        # where the change starts, so the following metricsChanged repaints from there down.
        document.listChanged.connect(self._list_changed)
        document.metricsChanged.connect(self._metrics_changed)

    def _read(self) -> None:
        table = self._doc.metrics
        # Plain arrays: data() is called for every visible cell on every repaint.
        self._cols = {name: table[name].to_numpy() for _, name, _ in COLUMNS}
        self._cols["ideal_gain"] = table["ideal_gain"].to_numpy(dtype=float)
        self._judged = table["judged"].to_numpy(dtype=bool)
        self._n = len(table)
        self._k = self._doc.k

    def _list_changed(self, move) -> None:
        if move is not None:
            first, _count, destination = move
            self._changed_rows = (min(first, destination), len(self._doc.metrics) - 1)

    def _metrics_changed(self) -> None:
        rows, self._changed_rows = self._changed_rows, None
        if len(self._doc.metrics) != self._n:
            self.beginResetModel()
            self._read()
            self.endResetModel()
            return
        k_changed = self._k != self._doc.k
        self._read()
        if not self._n:
            return
        if rows is None or k_changed:
            rows = (0, self._n - 1)
        # One signal: views repaint only the changed cells they show.
        self.dataChanged.emit(self.index(rows[0], 0), self.index(min(rows[1], self._n - 1),
                                                                 len(COLUMNS) - 1))

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else self._n

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole):
        if orientation != Qt.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.DisplayRole:
            return COLUMNS[section][0]
        if role == Qt.ToolTipRole:
            return COLUMNS[section][2]
        return None

    def value(self, row: int, name: str):
        """The raw figure behind a cell (tests compare these with `per_rank`)."""
        return self._cols[name][row]

    def data(self, index: Index, role: int = Qt.DisplayRole):
        # Called for every visible cell and role on each repaint: plain ints, cached objects.
        role = int(role)
        row, col = index.row(), index.column()
        if not 0 <= row < self._n:
            return None
        name = COLUMNS[col][1]
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
            return format_number(value) if name in ("grade", "ideal_grade", "cg") else f"{value:.4f}"
        if role == ALIGNMENT:
            return ALIGN_LEFT if name == "doc" else ALIGN_RIGHT
        beyond_k = row >= self._k
        if role == FOREGROUND:
            if beyond_k:
                return BEYOND_K_BRUSH
            return UNJUDGED_BRUSH if name == "grade" and not self._judged[row] else None
        if role == BACKGROUND:
            return BEYOND_K_BACKGROUND_BRUSH if beyond_k else None
        if role == FONT:
            if name == "ndcg" and row + 1 == self._k:
                return font(bold=True)
            if name == "grade" and not self._judged[row]:
                return font(italic=True)
            return None
        if role == TOOLTIP:
            text = self.explain(row, name)
            if beyond_k:
                text += f"\n(rank {row + 1} is beyond the cut-off k = {self._k})"
            return text
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return CELL_FLAGS if index.isValid() else Qt.NoItemFlags

    def explain(self, row: int, name: str) -> str:
        """The arithmetic behind one cell, with the numbers, e.g. `DCG@3 = 4.2619 + 3 / log2(4) = 5.7619`."""
        c, cfg, i = self._cols, self._doc.config, row + 1

        def f(col: str, r: int = row) -> str:
            return format_number(float(c[col][r]))

        prev = (lambda col: f"{f(col, row - 1)} + ") if row > 0 else (lambda col: "")
        if name == "grade":
            if not self._judged[row]:
                return "Unjudged: no grade for this document, so it counts as gain 0."
            return f"grade of {c['doc'][row]} = {f('grade')}"
        if name == "gain":
            if not self._judged[row]:
                return "gain = 0: the document is unjudged"
            return gain_formula(float(c["grade"][row]) if self._judged[row] else 0.0,
                                float(c["gain"][row]), cfg)
        if name == "discount":
            return f"discount at rank {i} = {discount_formula(i, cfg)} = {f('discount')}"
        if name == "contribution":
            return f"gain × discount = {f('gain')} × {f('discount')} = {f('contribution')}"
        if name == "cg":
            return f"CG@{i} = {prev('cg')}{f('gain')} = {f('cg')}"
        if name == "dcg":
            term = divide_by_discount(f("gain"), i, cfg)
            return f"DCG@{i} = {prev('dcg')}{term} = {f('dcg')}"
        if name == "ideal_grade":
            if math.isnan(float(c["ideal_grade"][row])):
                return f"The ideal ranking has no document at rank {i}: it adds 0."
            return f"ideal grade at rank {i} = {f('ideal_grade')} (gain {f('ideal_gain')})"
        if name == "idcg":
            term = divide_by_discount(f("ideal_gain"), i, cfg)
            return f"IDCG@{i} = {prev('idcg')}{term} = {f('idcg')}"
        if name == "ndcg":
            if float(c["idcg"][row]) == 0:
                return f"IDCG@{i} = 0: NDCG@{i} is undefined, shown as 0"
            return f"NDCG@{i} = DCG@{i} / IDCG@{i} = {f('dcg')} / {f('idcg')} = {f('ndcg')}"
        if name == "rank":
            return f"rank {i}" + (" (within the cut-off)" if i <= self._k else "")
        return str(c[name][row])
