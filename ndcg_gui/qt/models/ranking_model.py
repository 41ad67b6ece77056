"""The editable ranked list as a Qt table: rank, document, grade, the score when the file has one,
where the document stands in the ideal ranking, how far it moved from the list as loaded, and the
file's other columns (title, url…).

The model never changes its list itself: edits, drops and moves are forwarded to the `Document`,
which applies a core edit as an undo step; the model follows the document's `changed` notice. It
keeps its own copy of what it shows, so a move becomes beginMoveRows / endMoveRows around the swap
(selection and scroll position follow the rows) and any other change is announced over the rows
whose cells differ.
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
from PySide6.QtGui import QBrush

from ndcg_gui.core.analysis.list_report import ListReport, rows_of_kind
from ndcg_gui.core.lists.edits import EditRefused, move_order
from ndcg_gui.core.lists.numbers import decimals_for, format_fixed, format_grade, parse_grade
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.cells import (
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGNMENT,
    BACKGROUND,
    DISPLAY,
    EDIT,
    FONT,
    FOREGROUND,
    TOOLTIP,
    UNJUDGED_TEXT,
    announce_rows,
    differing_rows,
    font,
)
from ndcg_gui.qt.models.colours import brush, current
from ndcg_gui.qt.models.report_tables import MISSED_MIME

ROWS_MIME = "application/x-ndcg-inspector-rows"
NEW_ROW = np.iinfo(np.int64).min  # "moved" of a row added since the list was loaded
Index = QModelIndex | QPersistentModelIndex
CELL_FLAGS = Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsDragEnabled
EDITABLE_FLAGS = CELL_FLAGS | Qt.ItemIsEditable
_ROOT = QModelIndex()
# The ideal column's marks beside its shade (`list_report.slot_marks`), for those who do not see
# colour: in the top k, a place the ideal gives a better document (this one belongs lower), and
# past k, one that belongs in the top k (higher).
WASTED_MARK, BELONGS_MARK = "↓", "↑"
# Tied scores: a bracket beside the shade joins each group's rows (first, middle, last).
TIE_MARKS = ("", "┌ ", "│ ", "└ ")
_DERIVED = frozenset(("tie", "tie_mark", "ideal", "mark", "moved"))  # worked out from the rows
_STYLED = frozenset((TOOLTIP, FOREGROUND, BACKGROUND, FONT))  # the roles `_cell` answers past the text

HEADERS = {
    "rank": ("Rank", "Position in the list (1 = top)"),
    "doc": ("Document", "Document id. Double-click to edit; drag rows to reorder."),
    "grade": ("Grade", "Relevance grade; empty = unjudged (gain 0). Double-click to edit."),
    "score": ("Score", "The run's score; tied scores are shaded together and joined by a bracket (┌ │ └)"),
    "ideal": ("Ideal", "Rank of the document in the ideal ranking of every judged document (empty for an "
              "unjudged one; equal grades in list order). ↓, red: in the top k, in a place the ideal top k "
              "gives a better document (of equal grades, the highest ranked are marked: there a better "
              "one adds most); ↑, green: past k, it belongs in the top k and would raise NDCG@k there"),
    "moved": ("Moved", "How far the document moved from the list as loaded (▲ up, ▼ down)"),
}


class RankingModel(QAbstractTableModel):
    # The first columns never move; score, ideal and moved follow when present.
    RANK, DOC, GRADE = range(3)

    editRejected = Signal(str)  # a message for the person who typed something we cannot use

    def __init__(self, document: Document, parent=None) -> None:
        super().__init__(parent)
        self._doc = document
        self._report: ListReport = document.report
        self._names: list[str] = []
        self._cols: dict[str, np.ndarray] = {}
        self._base = np.zeros(0, np.int64)  # each row's rank in the list as loaded (0: added since)
        self._read()
        document.changed.connect(self._follow)

    def column(self, name: str) -> int:
        """The column of `name` (rank, doc, grade, score, ideal, moved or an extra column), or -1."""
        return self._names.index(name) if name in self._names else -1

    # ---- what is shown ---------------------------------------------------------------------------
    def _read(self, base: np.ndarray | None = None) -> None:
        """The columns shown, from the report; `base`: each row's rank in the list as loaded,
        when known without the report's look-up of every id (after a move: the rows' own, moved)."""
        report = self._report
        lst = report.list
        n = len(lst)
        names = ["rank", "doc", "grade"]
        cols: dict[str, np.ndarray] = {"doc": lst.docs, "grade": lst.grades}
        if lst.scores is not None:
            names.append("score")
            cols["score"] = lst.scores
            self._score_decimals = decimals_for(lst.scores)
            cols["tie"] = _tie_groups(lst.scores)
            cols["tie_mark"] = _tie_marks(cols["tie"])
        names += ["ideal", "moved"]
        cols["ideal"] = report.ideal_ranks
        cols["mark"] = report.slot_marks  # the ideal column's shade
        base = self._base = report.baseline_ranks if base is None else base
        cols["moved"] = np.where(base > 0, base - np.arange(1, n + 1), NEW_ROW)
        extras = getattr(lst, "extras", {}) or {}
        for name, values in extras.items():
            names.append(f"extra:{name}")
            cols[f"extra:{name}"] = values
        self._names, self._cols, self._n = names, cols, n

    def _follow(self, changes: Changes) -> None:
        report = self._doc.report
        if report is self._report:
            return
        old_names, old_cols, old_n = self._names, self._cols, self._n
        move = changes.move
        same_shape = len(report.list) == old_n
        if move is not None and same_shape:
            first, count, destination = move
            if self.beginMoveRows(_ROOT, first, first + count - 1, _ROOT, destination):
                order = move_order(old_n, first, count, destination)
                # A row's rank as loaded moves with it: the list as loaded is the file's, in the
                # tie rule's order, so only another file, query or definition makes another one.
                same_base = not (changes.dataset or changes.query or changes.definition)
                self._report = report
                self._read(self._base[order] if same_base else None)
                self.endMoveRows()
                # The rows between the move's two ends sit at other ranks; figures of other rows
                # (their ideal rank, how far they moved) may change too: announce what differs.
                lo, hi = min(first, destination), max(first + count, destination) - 1
                # (the list's own columns moved with their rows: only the derived ones can differ)
                derived = [k for k in self._cols if k in _DERIVED]
                rows = differing_rows({k: old_cols[k][order] for k in derived if k in old_cols},
                                      {k: self._cols[k] for k in derived})
                if rows is not None:
                    lo, hi = min(lo, rows[0]), max(hi, rows[1])
                announce_rows(self, lo, hi)
                return
        self._report = report
        self._read()
        if not same_shape or self._names != old_names:
            self.beginResetModel()
            self.endResetModel()
            return
        rows = differing_rows(old_cols, self._cols)  # (a new k: the shades, in "mark")
        if rows is not None:
            announce_rows(self, *rows)

    def value_moved(self, row: int) -> int:
        """How far the document at `row` moved from the list as loaded (NEW_ROW: added since)."""
        return int(self._cols["moved"][row])

    def rows_of_kind(self, kind: str) -> np.ndarray:
        """Which rows shown are relevant / judged / unjudged (core.list_report.rows_of_kind)."""
        return rows_of_kind(self._report.list, kind)

    # ---- reading -----------------------------------------------------------------------------
    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else self._n

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._names)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole):
        if orientation != Qt.Horizontal or not 0 <= section < len(self._names):
            return None
        role = int(role)  # (plain ints: an enum's comparison costs more than the answer)
        if role not in (DISPLAY, TOOLTIP):
            return None
        name = self._names[section]
        header = HEADERS.get(name, (name.removeprefix("extra:"), "A column of the file, kept with its row"))
        return header[0] if role == DISPLAY else header[1]

    def data(self, index: Index, role: int = Qt.DisplayRole):
        row, col = index.row(), index.column()
        if not 0 <= row < self._n or not 0 <= col < len(self._names):
            return None
        return self._cell(self._names[col], row, int(role))

    def multiData(self, index: Index, roles) -> None:
        """Every role a view paints the cell with, in one call (see `cells.OneCallPerCell`), the
        cell found once."""
        row, col = index.row(), index.column()
        if not 0 <= row < self._n or not 0 <= col < len(self._names):
            for role_data in roles:
                role_data.clearData()
            return
        name, cell = self._names[col], self._cell
        for role_data in roles:
            role_data.setData(cell(name, row, role_data.role()))

    def look(self, row: int, column: int) -> tuple:
        """What a cell is painted with, in one call (the list's delegate, `TextCells`): its
        display, alignment, foreground, background and font roles, as `data()` gives them."""
        name, cell = self._names[column], self._cell
        return (self._text(name, row, DISPLAY), cell(name, row, ALIGNMENT), cell(name, row, FOREGROUND),
                cell(name, row, BACKGROUND), cell(name, row, FONT))

    def _cell(self, name: str, row: int, role: int):
        # Called for every visible cell and role on each repaint: plain ints, cached objects.
        if role in (DISPLAY, EDIT):
            return self._text(name, row, role)
        if role == ALIGNMENT:
            return ALIGN_LEFT if name == "doc" or name.startswith("extra:") else ALIGN_RIGHT
        if role not in _STYLED:  # (a delegate asks for the check state and the decoration too)
            return None
        grade = self._cols["grade"][row]
        unjudged = grade != grade
        if role == TOOLTIP:
            if name == "doc" or name.startswith("extra:"):
                return str(self._cols[name][row])  # the whole text, however narrow the column
            if name == "score":
                return self._tie_tip(row)
            if name == "moved":
                moved = self._cols["moved"][row]
                return "Added since the list was loaded" if moved == NEW_ROW else \
                    f"Rank {row + 1 + moved} in the list as loaded" if moved else "Where it was loaded"
            return "Unjudged: no grade for this document, so it counts as gain 0." if unjudged else None
        if role == FOREGROUND:
            if name == "grade" and unjudged:
                return current().brush("unjudged")
            if name == "moved":
                moved = self._cols["moved"][row]
                return current().brush("up") if moved > 0 else \
                    current().brush("down") if moved < 0 and moved != NEW_ROW else None
            return None
        if role == BACKGROUND:
            if name == "ideal":
                return self._out_of_place(row)
            if name == "score" and self._cols["tie"][row] >= 0:
                return brush(current().ties[self._cols["tie"][row] % 2])
            return None
        return font(italic=True) if unjudged and name in ("doc", "grade") else None  # (FONT)

    def _text(self, name: str, row: int, role: int) -> str:
        if name == "rank":
            return str(row + 1)
        value = self._cols[name][row]
        if name == "grade":
            if value != value:  # NaN: unjudged
                return "" if role == EDIT else UNJUDGED_TEXT
            return format_grade(value)
        if name == "score":
            text = format_fixed(value, self._score_decimals)
            return text if role == EDIT else TIE_MARKS[self._cols["tie_mark"][row]] + text
        if name == "ideal":
            mark = self._cols["mark"][row]
            text = str(value) if value else ""
            if role == EDIT or not mark:
                return text
            return f"{text} {WASTED_MARK if mark > 0 else BELONGS_MARK}".lstrip()
        if name == "moved":
            if value == NEW_ROW:
                return "new"
            return f"▲{value}" if value > 0 else f"▼{-value}" if value < 0 else ""
        return str(value)

    def _out_of_place(self, row: int) -> QBrush | None:
        """What NDCG@k cares about (`core.list_report.slot_marks`): a document in the top k wasting
        a place the ideal gives a better one, or one past k that belongs in the top k."""
        mark = self._cols["mark"][row]
        return current().brush("wasted_slot") if mark > 0 else \
            current().brush("belongs_in_top_k") if mark < 0 else None

    def _tie_tip(self, row: int) -> str | None:
        group = self._cols["tie"][row]
        if group < 0:
            return None
        rows = np.flatnonzero(self._cols["tie"] == group)
        return f"Tied score: ranks {rows[0] + 1}–{rows[-1] + 1} have the same score (the tie rule orders "\
            "them)"

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

    # ---- moving rows, and judged documents dropped in ---------------------------------------------
    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.MoveAction | Qt.CopyAction

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
        return [ROWS_MIME, MISSED_MIME]

    def mimeData(self, indexes) -> QMimeData:
        rows = sorted({i.row() for i in indexes if i.isValid()})
        mime = QMimeData()
        mime.setData(ROWS_MIME, QByteArray(" ".join(map(str, rows)).encode()))
        return mime

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                        parent: Index) -> bool:
        if data.hasFormat(MISSED_MIME):
            return action in (Qt.CopyAction, Qt.MoveAction)
        return action == Qt.MoveAction and data.hasFormat(ROWS_MIME)

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                     parent: Index) -> bool:
        if action == Qt.IgnoreAction:
            return True
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        if row < 0:
            row = parent.row() if parent.isValid() else self._n
        if data.hasFormat(MISSED_MIME):
            return self.insert_judged(bytes(data.data(MISSED_MIME).data()).decode().splitlines(), row)
        rows = [int(r) for r in bytes(data.data(ROWS_MIME).data()).decode().split()]
        if not rows:
            return False
        self._doc.move_block(rows, row)
        return True

    def insert_judged(self, docs: list[str], row: int) -> bool:
        """Judged documents the list did not retrieve, put in at `row` with their grades."""
        missed = self._report.list.unretrieved
        docs = [d for d in docs if d in missed]
        if not docs:
            return False
        what = docs[0] if len(docs) == 1 else f"{len(docs)} judged documents"
        try:
            self._doc.insert_rows(row, docs, [missed[d] for d in docs], f"Insert {what}")
        except EditRefused as err:
            self.editRejected.emit(str(err))
            return False
        return True


def _tie_marks(groups: np.ndarray) -> np.ndarray:
    """Where each row sits in its group of tied scores: 0 in none, 1 first, 2 between, 3 last
    (the index of its bracket in TIE_MARKS)."""
    tied = groups >= 0
    same_above = np.concatenate([[False], (groups[1:] == groups[:-1]) & tied[1:]])
    same_below = np.concatenate([(groups[:-1] == groups[1:]) & tied[:-1], [False]])
    return np.select([~tied, ~same_above, same_below], [0, 1, 2], 3)


def _tie_groups(scores: np.ndarray) -> np.ndarray:
    """A group number for each run of equal neighbouring scores longer than one, -1 elsewhere."""
    if len(scores) < 2:
        return np.full(len(scores), -1, np.int64)
    same = scores[1:] == scores[:-1]
    after = np.concatenate([[False], same])  # equal to the row above
    before = np.concatenate([same, [False]])  # equal to the row below
    tied = after | before
    group = np.cumsum(tied & ~after) - 1
    return np.where(tied, group, -1)
