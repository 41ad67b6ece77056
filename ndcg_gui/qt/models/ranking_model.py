"""The editable ranked list as a Qt table: rank, document, grade (and score when the file has one).

The model never changes its list itself: edits, drops and moves are forwarded to the `Document`,
which applies a core edit as an undo step; the model follows the document's `changed` notice. It
keeps its own copy of the list it shows, so a move becomes beginMoveRows / endMoveRows around the
swap (selection and scroll position follow the rows) and any other change is announced over the
rows whose cells differ.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from ndcg_gui.core.edits import EditRefused
from ndcg_gui.core.numbers import decimals_for, format_fixed, format_grade, parse_grade
from ndcg_gui.core.ranked_list import RankedList
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.cells import (
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGNMENT,
    DISPLAY,
    EDIT,
    FONT,
    FOREGROUND,
    TOOLTIP,
    UNJUDGED_BRUSH,
    UNJUDGED_TEXT,
    announce_rows,
    differing_rows,
    font,
)

ROWS_MIME = "application/x-ndcg-inspector-rows"
Index = QModelIndex | QPersistentModelIndex
CELL_FLAGS = Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsDragEnabled
EDITABLE_FLAGS = CELL_FLAGS | Qt.ItemIsEditable
_ROOT = QModelIndex()


class RankingModel(QAbstractTableModel):
    RANK, DOC, GRADE, SCORE = range(4)
    HEADERS = ("Rank", "Document", "Grade", "Score")

    editRejected = Signal(str)  # a message for the person who typed something we cannot use

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self._doc = document
        self._list: RankedList = document.current_list()
        self._score_decimals = 0
        self._measure()
        document.changed.connect(self._follow)

    # ---- following the document -----------------------------------------------------------------
    def _measure(self) -> None:
        scores = self._list.scores
        self._score_decimals = decimals_for(scores) if scores is not None else 0

    def _shown(self) -> dict[str, np.ndarray]:
        """What the cells show, column by column (the rank column is the row number)."""
        lst = self._list
        columns = {"doc": lst.docs, "grade": lst.grades}
        if lst.scores is not None:
            columns["score"] = lst.scores
        return columns

    def _follow(self, changes: Changes) -> None:
        new = self._doc.current_list()
        if new is self._list:
            return
        old = self._list
        same_shape = len(new) == len(old) and (new.scores is None) == (old.scores is None)
        if changes.move is not None and same_shape:
            first, count, destination = changes.move
            if self.beginMoveRows(_ROOT, first, first + count - 1, _ROOT, destination):
                self._list = new
                self._measure()
                self.endMoveRows()
                # The rows between the move's two ends now sit at other ranks.
                announce_rows(self, min(first, destination), max(first + count, destination) - 1)
                return
        if not same_shape:
            self.beginResetModel()
            self._list = new
            self._measure()
            self.endResetModel()
            return
        before, decimals = self._shown(), self._score_decimals
        self._list = new
        self._measure()
        if decimals != self._score_decimals:  # the score column's rule changed: every score
            announce_rows(self, 0, len(new) - 1)
            return
        rows = differing_rows(before, self._shown())
        if rows is not None:
            announce_rows(self, *rows)

    # ---- reading -----------------------------------------------------------------------------
    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._list)

    def columnCount(self, parent: Index = _ROOT) -> int:
        if parent.isValid():
            return 0
        return 4 if self._list.scores is not None else 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole and 0 <= section < len(self.HEADERS):
            return self.HEADERS[section]
        if orientation == Qt.Horizontal and role == Qt.ToolTipRole:
            return {
                self.GRADE: "Relevance grade; empty = unjudged (gain 0). Double-click to edit.",
                self.DOC: "Document id. Double-click to edit; drag rows to reorder.",
                self.SCORE: "The run's score (the list is ranked by it as loaded)",
            }.get(section)
        return None

    def data(self, index: Index, role: int = Qt.DisplayRole):
        # Called for every visible cell and role on each repaint: plain ints, cached objects.
        role = int(role)
        row, col = index.row(), index.column()
        if not 0 <= row < len(self._list):
            return None
        if role in (DISPLAY, EDIT):
            if col == self.RANK:
                return str(row + 1)
            if col == self.DOC:
                return str(self._list.docs[row])
            if col == self.GRADE:
                grade = float(self._list.grades[row])
                if grade != grade:  # NaN: unjudged
                    return "" if role == EDIT else UNJUDGED_TEXT
                return format_grade(grade)
            if col == self.SCORE and self._list.scores is not None:
                return format_fixed(self._list.scores[row], self._score_decimals)
            return None
        if role == ALIGNMENT:
            return ALIGN_LEFT if col == self.DOC else ALIGN_RIGHT
        if role == TOOLTIP and col == self.DOC:
            return str(self._list.docs[row])  # the whole id, however narrow the column
        if role in (FOREGROUND, FONT, TOOLTIP):
            grade = float(self._list.grades[row])
            if grade == grade:
                return None
            if role == FOREGROUND:
                return UNJUDGED_BRUSH if col == self.GRADE else None
            if role == FONT:
                return font(italic=True) if col in (self.DOC, self.GRADE) else None
            return "Unjudged: no grade for this document, so it counts as gain 0."
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemIsDropEnabled  # drops land between rows, never on one
        return EDITABLE_FLAGS if index.column() in (self.DOC, self.GRADE) else CELL_FLAGS

    # ---- editing (forwarded to the document) --------------------------------------------------
    def setData(self, index: Index, value, role: int = Qt.EditRole) -> bool:
        if role != Qt.EditRole or not index.isValid():
            return False
        row, col = index.row(), index.column()
        try:
            if col == self.GRADE:
                self._doc.set_grade(row, parse_grade(str(value)))
            elif col == self.DOC:
                self._doc.set_doc(row, str(value))
            else:
                return False
        except (ValueError, EditRefused) as err:
            self.editRejected.emit(str(err))
            return False
        return True

    # ---- moving rows ------------------------------------------------------------------------
    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.MoveAction

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.MoveAction

    def moveRows(self, source_parent: Index, source_row: int, count: int,
                 destination_parent: Index, destination_child: int) -> bool:
        if source_parent.isValid() or destination_parent.isValid():
            return False
        # The document pushes an undo step whose notice this model turns into
        # beginMoveRows/endMoveRows: the move is applied exactly once.
        return self._doc.move_rows(source_row, count, destination_child)

    def mimeTypes(self) -> list[str]:
        return [ROWS_MIME]

    def mimeData(self, indexes) -> QMimeData:
        rows = sorted({i.row() for i in indexes if i.isValid()})
        mime = QMimeData()
        mime.setData(ROWS_MIME, QByteArray(" ".join(map(str, rows)).encode()))
        return mime

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                        parent: Index) -> bool:
        return action == Qt.MoveAction and data.hasFormat(ROWS_MIME)

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                     parent: Index) -> bool:
        if action == Qt.IgnoreAction:
            return True
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        rows = [int(r) for r in bytes(data.data(ROWS_MIME).data()).decode().split()]
        if not rows:
            return False
        if row < 0:
            row = parent.row() if parent.isValid() else len(self._list)
        self._doc.move_block(rows, row)
        return True
