"""The editable ranked list as a Qt table: rank, document, grade (and score when the file has one).

The model never changes its list itself: edits, drops and moves are forwarded to the `Document`,
which pushes an undo command; the model only follows the document's signals (a move becomes
beginMoveRows/endMoveRows so selection and scroll position follow the rows).
"""

from __future__ import annotations

import math
from functools import cache

from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont

from ndcg_gui.core.ranked_list import RankedList
from ndcg_gui.qt.document import Document

ROWS_MIME = "application/x-ndcg-inspector-rows"
UNJUDGED_TEXT = "unjudged"
UNJUDGED_COLOR = QColor("#b45309")

Index = QModelIndex | QPersistentModelIndex
DISPLAY, EDIT, ALIGNMENT = int(Qt.DisplayRole), int(Qt.EditRole), int(Qt.TextAlignmentRole)
FOREGROUND, BACKGROUND, FONT = int(Qt.ForegroundRole), int(Qt.BackgroundRole), int(Qt.FontRole)
TOOLTIP = int(Qt.ToolTipRole)
ALIGN_LEFT = int(Qt.AlignLeft | Qt.AlignVCenter)
ALIGN_RIGHT = int(Qt.AlignRight | Qt.AlignVCenter)
UNJUDGED_BRUSH = QBrush(UNJUDGED_COLOR)
CELL_FLAGS = Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsDragEnabled
EDITABLE_FLAGS = CELL_FLAGS | Qt.ItemIsEditable


@cache
def font(italic: bool = False, bold: bool = False) -> QFont:
    """Made on first use: a QFont needs the application to exist."""
    f = QFont()
    f.setItalic(italic)
    f.setBold(bold)
    return f
_ROOT = QModelIndex()


def format_number(x: float) -> str:
    """Whole numbers as such, others with 4 decimals (the precision of the worked examples)."""
    if math.isnan(x):
        return ""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.4f}"


def parse_grade(text: str) -> float:
    """A grade typed by a person: a number, or empty / '-' / 'unjudged' for no judgment."""
    t = text.strip()
    if t.lower() in ("", "-", "–", "nan", UNJUDGED_TEXT):
        return math.nan
    try:
        value = float(t.replace(",", ".")) if t.count(",") == 1 and "." not in t else float(t)
    except ValueError:
        raise ValueError(f"grade {text!r} is not a number (leave it empty for unjudged)") from None
    if not math.isfinite(value):
        raise ValueError(f"grade {text!r} must be a finite number")
    return value


class RankingModel(QAbstractTableModel):
    RANK, DOC, GRADE, SCORE = range(4)
    HEADERS = ("Rank", "Document", "Grade", "Score")

    editRejected = Signal(str)  # a message for the person who typed something we cannot use

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self._doc = document
        self._list: RankedList = document.current_list()
        self._moving = False
        document.rowsAboutToMove.connect(self._before_move)
        document.listChanged.connect(self._list_changed)

    # ---- following the document -----------------------------------------------------------------
    def _before_move(self, first: int, count: int, destination: int) -> None:
        self._moving = self.beginMoveRows(QModelIndex(), first, first + count - 1, QModelIndex(),
                                          destination)

    def _list_changed(self, move) -> None:
        new = self._doc.current_list()
        if move is not None and self._moving:
            self._list = new
            self._moving = False
            self.endMoveRows()
            self._changed_rows(min(move[0], move[2]), max(move[0] + move[1], move[2]))
            return
        old_columns = self.columnCount()
        if len(new) != len(self._list) or (new.scores is None) != (self._list.scores is None):
            self.beginResetModel()
            self._list = new
            self.endResetModel()
            return
        self._list = new
        if len(new) and old_columns == self.columnCount():
            self._changed_rows(0, len(new))

    def _changed_rows(self, first: int, stop: int) -> None:
        last = min(stop, len(self._list)) - 1
        if last >= first:
            self.dataChanged.emit(self.index(first, 0), self.index(last, self.columnCount() - 1))

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
                return format_number(grade)
            if col == self.SCORE and self._list.scores is not None:
                return format_number(float(self._list.scores[row]))
            return None
        if role == ALIGNMENT:
            return ALIGN_LEFT if col == self.DOC else ALIGN_RIGHT
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
                grade = parse_grade(str(value))
                old = float(self._list.grades[row])
                if grade == old or (math.isnan(grade) and math.isnan(old)):
                    return True
                self._doc.set_grade(row, grade)
            elif col == self.DOC:
                if str(value).strip() == self._list.docs[row]:
                    return True
                self._doc.set_doc(row, str(value))
            else:
                return False
        except ValueError as err:
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
        # The document pushes an undo command whose redo emits rowsAboutToMove/listChanged, which
        # this model turns into beginMoveRows/endMoveRows: the move is applied exactly once.
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
        return self.move_block(rows, row)

    def move_block(self, rows: list[int], destination: int) -> bool:
        """Move rows (contiguous or not) together to before `destination`, as one undo step."""
        rows = sorted(set(rows))
        if rows == list(range(rows[0], rows[-1] + 1)):
            return self.moveRows(QModelIndex(), rows[0], len(rows), QModelIndex(), destination)
        n = len(self._list)
        picked = set(rows)
        before = [r for r in range(destination) if r not in picked]
        after = [r for r in range(destination, n) if r not in picked]
        self._doc.reorder(before + rows + after, f"Move {len(rows)} rows")
        return True
