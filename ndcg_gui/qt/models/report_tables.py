"""Read-only tables of what the core says about the shown list (the document's `ListReport`):
the ideal order beside the list, the judged documents the list missed, what single moves would
do, the unjudged documents worth judging first, and the list under every preset.

Each table is a list of columns, each column a function of the report giving one value per row and
how a value reads. After every change the model takes the values again and announces the rows
whose values differ (or resets when the row count changes), so no shown cell can go stale; values
become text only for the cells a view paints. A table whose view
is hidden is not built (some parts of the report cost tens of milliseconds); it is built when the
view shows it again (`set_active`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QByteArray, QMimeData, QModelIndex, QPersistentModelIndex, Qt

from ndcg_gui.core.analysis.list_report import ListReport
from ndcg_gui.core.lists.numbers import format_grade, format_metric
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.cells import (
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGNMENT,
    DISPLAY,
    FOREGROUND,
    TOOLTIP,
    announce_rows,
)

if TYPE_CHECKING:
    import pandas as pd

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
MISSED_MIME = "application/x-ndcg-inspector-missed"  # judged documents dragged into the list


@dataclass(frozen=True)
class Column:
    header: str
    tip: str
    values: Callable[[ListReport], np.ndarray]  # one value per row
    fmt: Callable[[object], str] = str  # how a value reads
    left: bool = False  # ids and words left, figures right


def _metric(x) -> str:
    return format_metric(float(x))


def _grade_or_unjudged(x) -> str:
    x = float(x)
    return "unjudged" if x != x else format_grade(x)


def _loss(x: float) -> str:
    """A rank's loss against the ideal named by its sign: below 0 the row holds more than the ideal
    does at its rank (a better document put ahead), a gain, not a loss of −0.4307."""
    x = float(x)
    return "" if x != x else "0" if x == 0 else f"loses {format_metric(x)}" if x > 0 else \
        f"gains {format_metric(-x)}"


def _signed(x: float) -> str:
    return "" if x != x else ("+" if x > 0 else "−" if x < 0 else "±") + format_metric(abs(x))


class ReportTable(QAbstractTableModel):
    def __init__(self, document: Document, columns: list[Column], parent=None) -> None:
        super().__init__(parent)
        self._doc = document
        self.columns = columns
        self._report: ListReport | None = None
        self._cells: list[np.ndarray] = [np.array([], dtype=object) for _ in columns]
        self._active = False
        document.changed.connect(self._follow)

    # ---- building ---------------------------------------------------------------------------
    def set_active(self, active: bool) -> None:
        """Build while a view shows the table; a hidden table is left as it was until shown."""
        self._active = active
        if active:
            self._refresh()

    def _follow(self, _changes: Changes) -> None:
        if self._active:
            self._refresh()

    def _build(self, report: ListReport) -> list[np.ndarray]:
        return [np.asarray(column.values(report)) for column in self.columns]

    def _refresh(self) -> None:
        report = self._doc.report
        if report is self._report:
            return
        cells = self._build(report)
        rows = len(cells[0]) if cells else 0
        if rows != self.rowCount():
            self.beginResetModel()
            self._report, self._cells = report, cells
            self.endResetModel()
            return
        before, self._report, self._cells = self._cells, report, cells
        differ = np.zeros(rows, bool)
        for old, new in zip(before, cells, strict=True):
            if old.dtype != new.dtype:
                differ[:] = True
                break
            changed = old != new
            if new.dtype.kind == "f":
                changed &= ~(np.isnan(old) & np.isnan(new))
            differ |= changed
        if differ.any():
            hits = np.flatnonzero(differ)
            announce_rows(self, int(hits[0]), int(hits[-1]))

    # ---- reading -------------------------------------------------------------------------------
    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() or not self._cells else len(self._cells[0])

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole):
        if orientation != Qt.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.DisplayRole:
            return self.columns[section].header
        if role == Qt.ToolTipRole:
            return self.columns[section].tip
        return None

    def data(self, index: Index, role: int = Qt.DisplayRole):
        row, col = index.row(), index.column()
        if not 0 <= row < self.rowCount():
            return None
        role = int(role)
        if role in (DISPLAY, TOOLTIP):
            return self.text(row, col)
        if role == ALIGNMENT:
            return ALIGN_LEFT if self.columns[col].left else ALIGN_RIGHT
        if role == FOREGROUND:
            return None
        return None

    def text(self, row: int, column: int) -> str:
        return self.columns[column].fmt(self._cells[column][row])

    @property
    def report(self) -> ListReport | None:
        """The report the table was last built from."""
        return self._report


# ---- the tables ------------------------------------------------------------------------------------
def _list_cell(report: ListReport, name: str) -> np.ndarray:
    """The list's column at each rank of the ideal table (empty past the end of the list)."""
    n = max(len(report.list), len(report.ideal))
    out = np.full(n, "", dtype=object)
    lst = report.list
    if name == "doc":
        out[: len(lst)] = lst.docs.astype(str)
    else:
        out[: len(lst)] = ["unjudged" if g != g else format_grade(g) for g in lst.grades]
    return out


def _ideal_cell(report: ListReport, name: str) -> np.ndarray:
    ideal = report.ideal
    n = max(len(report.list), len(ideal))
    out = np.full(n, "", dtype=object)
    if name == "doc":
        out[: len(ideal)] = ideal["doc"].astype(str).to_numpy()
    elif name == "grade":
        out[: len(ideal)] = [format_grade(g) for g in ideal["grade"]]
    else:
        out[: len(ideal)] = [f"rank {r}" if r else "not retrieved" for r in ideal["list_rank"]]
    return out


def ideal_beside_actual(document: Document) -> ReportTable:
    return ReportTable(document, [
        Column("Rank", "Rank i", lambda r: np.arange(1, max(len(r.list), len(r.ideal)) + 1)),
        Column("List", "The document at rank i of the list", lambda r: _list_cell(r, "doc"), left=True),
        Column("Grade", "Its grade", lambda r: _list_cell(r, "grade")),
        Column("Ideal", "The document at rank i of the ideal ranking (every judged document, highest gain "
               "first; equal gains in list order)", lambda r: _ideal_cell(r, "doc"), left=True),
        Column("Grade ", "Its grade", lambda r: _ideal_cell(r, "grade")),
        Column("In the list", "Where the list has the ideal document, or 'not retrieved'",
               lambda r: _ideal_cell(r, "where"), left=True),
    ])


class MissedTable(ReportTable):
    """The judged documents the list did not retrieve, highest grade first; drag one (or several)
    into the ranked list to insert them there (an undoable insert)."""

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(document, [
            Column("Document", "Judged, but not in the list", lambda r: _missed(r)["doc"].to_numpy(),
                   left=True),
            Column("Grade", "Its judged grade", lambda r: _missed(r)["grade"].to_numpy(), _grade_or_unjudged),
            Column("Ideal rank", "Its rank in the ideal ranking", lambda r: _missed(r)["rank"].to_numpy()),
        ], parent)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.NoItemFlags
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsDragEnabled

    def mimeTypes(self) -> list[str]:
        return [MISSED_MIME]

    def mimeData(self, indexes) -> QMimeData:
        docs = [self.text(r, 0) for r in sorted({i.row() for i in indexes if i.isValid()})]
        mime = QMimeData()
        mime.setData(MISSED_MIME, QByteArray("\n".join(docs).encode()))
        return mime

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.CopyAction


def _missed(report: ListReport) -> pd.DataFrame:
    ideal = report.ideal
    return ideal[ideal["list_rank"] == 0]


def what_if(document: Document) -> ReportTable:
    def effects(r: ListReport) -> pd.DataFrame:
        return r.move_effects

    def delta(r: ListReport, column: str) -> np.ndarray:
        # Against NDCG@k of the list as it stands, ties broken in list order (a position analysis).
        return effects(r)[column].to_numpy() - effects(r).attrs["ndcg"]

    return ReportTable(document, [
        Column("Rank", "Rank in the list", lambda r: effects(r)["rank"].to_numpy()),
        Column("Document", "The document", lambda r: r.list.docs, left=True),
        Column("Grade", "Its grade (unjudged counts as 0)", lambda r: r.list.grades, _grade_or_unjudged),
        Column("Rank if sorted", "Its rank if this list alone were sorted by gain, high first (the judged "
               "documents the list missed are not counted here; the ranked list's Ideal column counts them)",
               lambda r: effects(r)["ideal_rank"].to_numpy()),
        Column("Δ if first", "How NDCG@k changes if this document alone moves to rank 1",
               lambda r: delta(r, "ndcg_if_first"), _signed),
        Column("Δ if sorted", "How NDCG@k changes if this document alone moves to its rank if sorted "
               "(the others keep their order)",
               lambda r: delta(r, "ndcg_if_ideal"), _signed),
        Column("Loss or gain", "The ideal ranking's gain × discount at this rank minus this row's: what "
               "the rank gives away against the ideal (loses), or, where the row holds more than the ideal "
               "has at its rank, what it gains over it (gains); the first k add up to IDCG@k − DCG@k",
               lambda r: effects(r)["loss"].to_numpy(), _loss),
    ])


def best_moves(document: Document) -> ReportTable:
    return ReportTable(document, [
        Column("Move", "One document taken out and put back at another rank",
               lambda r: np.array([f"{f} → {t}   {r.list.docs[f - 1]}"
                                   for f, t in zip(r.best_moves()["from_rank"], r.best_moves()["to_rank"],
                                                   strict=True)], dtype=object), left=True),
        Column("NDCG@k after", "NDCG@k after this move", lambda r: r.best_moves()["ndcg_after"].to_numpy(),
               _metric),
        Column("Δ", "Change of NDCG@k", lambda r: r.best_moves()["delta"].to_numpy(), _signed),
    ])


def judge_first(document: Document) -> ReportTable:
    def table(r: ListReport) -> pd.DataFrame:
        return r.judge_first if r.has_unjudged else r.judge_first.iloc[:0]

    return ReportTable(document, [
        Column("Rank", "Rank of the unjudged document", lambda r: table(r)["rank"].to_numpy()),
        Column("Document", "Unjudged document",
               lambda r: np.array([r.list.docs[i - 1] for i in table(r)["rank"]], dtype=object), left=True),
        Column("NDCG@k low", "NDCG@k if its grade were the least harmful one",
               lambda r: table(r)["low"].to_numpy(), _metric),
        Column("high", "NDCG@k if its grade were the most helpful one",
               lambda r: table(r)["high"].to_numpy(), _metric),
        Column("Spread", "How much its grade alone could move NDCG@k: judge the widest first",
               lambda r: table(r)["spread"].to_numpy(), _metric),
    ])


def definitions(document: Document) -> ReportTable:
    def frame(r: ListReport) -> pd.DataFrame:
        return r.definitions

    return ReportTable(document, [
        Column("Definition", "The definition in use, then every preset (double-click to apply one)",
               lambda r: frame(r)["preset"].astype(str).to_numpy(), left=True),
        Column("NDCG@k", "NDCG@k of this list under it", lambda r: frame(r)["ndcg"].to_numpy(), _metric),
        Column("DCG@k", "DCG@k of this list under it", lambda r: frame(r)["dcg"].to_numpy(), _metric),
        Column("IDCG@k", "IDCG@k under it (where the ideal comes from may differ)",
               lambda r: frame(r)["idcg"].to_numpy(), _metric),
        Column("Ties", "How tied scores are ordered", lambda r: frame(r)["ties"].astype(str).to_numpy()),
        Column("Why it differs", "What makes the figure differ from the first row's",
               lambda r: frame(r)["reason"].astype(str).to_numpy(), left=True),
    ])
