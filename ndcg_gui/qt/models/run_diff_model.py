"""One query's two ranked lists side by side (baseline run A, compared run B): one row per document
ranked within `depth` in either list, from `core.run_diff.side_by_side`. The lines view paints
this model; a table view can show it as it is. Holds no logic beyond choosing the rows shown.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ndcg_gui.core.analysis.runs.run_diff import DIFF_COLUMNS
from ndcg_gui.core.lists.numbers import format_grade
from ndcg_gui.qt.models.cells import (
    ALIGN_LEFT,
    ALIGN_RIGHT,
    ALIGNMENT,
    DISPLAY,
    FOREGROUND,
    TOOLTIP,
    announce_rows,
    differing_rows,
)
from ndcg_gui.qt.models.colours import current

if TYPE_CHECKING:
    import pandas as pd

COL_DOC, COL_GRADE, COL_RANK_A, COL_RANK_B, COL_MOVE, COL_EFFECT = range(6)
HEADERS = ["Document", "Grade", "Rank A", "Rank B", "Move", "ΔDCG"]

Index = QModelIndex | QPersistentModelIndex


def _rank(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.0f}"


class RunDiffModel(QAbstractTableModel):
    """Rows: the documents a `side_by_side` frame ranks within `depth` in list A or B, A's order
    first. Read-only."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._shown: pd.DataFrame | None = None  # (made when first read: no pandas at start-up)
        self._names = ("A", "B")
        self._depth = 0
        self._k: int | None = None

    # ---- feeding ---------------------------------------------------------------------------
    def set_diff(self, diff: pd.DataFrame, names: tuple[str, str], depth: int, k: int | None) -> None:
        """Show the documents of `diff` (a `side_by_side` frame) ranked within `depth` in either
        list. The same documents only repaint the rows that changed."""
        shown = diff[(diff["rank_a"] <= depth) | (diff["rank_b"] <= depth)]
        header = (names, k) != (self._names, self._k)
        same_rows = shown.index.equals(self._frame.index)
        if not same_rows:
            self.beginResetModel()
        old = self._columns()
        self._frame, self._names, self._depth, self._k = shown, names, depth, k
        if not same_rows:
            self.endResetModel()
            return
        if header:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)
            announce_rows(self, 0, len(shown) - 1)  # "only in B" names the run in every row
            return
        changed = differing_rows(old, self._columns())
        if changed is not None:
            announce_rows(self, *changed)

    @property
    def _frame(self) -> pd.DataFrame:
        if self._shown is None:
            import pandas as pd

            self._shown = pd.DataFrame(columns=DIFF_COLUMNS)
        return self._shown

    @_frame.setter
    def _frame(self, frame: pd.DataFrame) -> None:
        self._shown = frame

    def _columns(self) -> dict[str, np.ndarray]:
        # Every column a view reads (the lines view draws relevant documents from their gain).
        return {c: self._frame[c].to_numpy(dtype=float) for c in DIFF_COLUMNS}

    # ---- reading (the lines view) ------------------------------------------------------------
    @property
    def frame(self) -> pd.DataFrame:
        return self._frame

    @property
    def names(self) -> tuple[str, str]:
        return self._names

    @property
    def depth(self) -> int:
        return self._depth

    # ---- QAbstractTableModel ---------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self._shown is None else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        a, b = self._names
        at = f"@{self._k}" if self._k is not None else ""
        if role == DISPLAY:
            return HEADERS[section]
        if role == TOOLTIP:
            return ["Document id", "Grade in the judgments (empty: unjudged)", f"Rank in {a}",
                    f"Rank in {b}", f"Ranks gained in {b} (↑) or lost (↓)",
                    f"The document's change of DCG{at} from {a} to {b}: gain × (discount in {b} − "
                    f"discount in {a}), 0 beyond k"][section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        r = self._frame.iloc[row]
        if role == DISPLAY:
            return self._display(str(self._frame.index[row]), r, col)
        if role == ALIGNMENT:
            return ALIGN_LEFT if col == COL_DOC else ALIGN_RIGHT
        if role == FOREGROUND and col in (COL_MOVE, COL_EFFECT):
            value = r["move"] if col == COL_MOVE else r["effect"]
            if math.isnan(value) or value == 0:
                return None
            return current().brush("up") if value > 0 else current().brush("down")
        return None

    def _display(self, doc: str, r: pd.Series, col: int) -> str:
        if col == COL_DOC:
            return doc
        if col == COL_GRADE:
            return format_grade(r["grade"])
        if col == COL_RANK_A:
            return _rank(r["rank_a"])
        if col == COL_RANK_B:
            return _rank(r["rank_b"])
        if col == COL_MOVE:
            b = self._names[1]
            if math.isnan(r["rank_b"]):
                return f"not in {b}"
            if math.isnan(r["rank_a"]):
                return f"only in {b}"
            move = r["move"]
            return "=" if move == 0 else f"{'↑' if move > 0 else '↓'}{abs(move):.0f}"
        return "0" if r["effect"] == 0 else f"{r['effect']:+.4f}"
