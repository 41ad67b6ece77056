"""What the table models share: role numbers as plain ints, and fonts made once (`data()` is
called for every visible cell and role on each repaint; brushes: `colours`), plus the one way a
model tells its views which rows changed."""

from __future__ import annotations

from functools import cache

import numpy as np
from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtGui import QFont

DISPLAY, EDIT, ALIGNMENT = int(Qt.DisplayRole), int(Qt.EditRole), int(Qt.TextAlignmentRole)
FOREGROUND, BACKGROUND, FONT = int(Qt.ForegroundRole), int(Qt.BackgroundRole), int(Qt.FontRole)
TOOLTIP = int(Qt.ToolTipRole)
ALIGN_LEFT = int(Qt.AlignLeft | Qt.AlignVCenter)
ALIGN_RIGHT = int(Qt.AlignRight | Qt.AlignVCenter)

UNJUDGED_TEXT = "unjudged"


@cache
def font(italic: bool = False, bold: bool = False) -> QFont:
    """Made on first use: a QFont needs the application to exist."""
    f = QFont()
    f.setItalic(italic)
    f.setBold(bold)
    return f


def differing_rows(old: dict[str, np.ndarray], new: dict[str, np.ndarray]) -> tuple[int, int] | None:
    """(first, last) row where any column of two equally long tables differs (NaN equals NaN), or
    None. Comparing the shown columns themselves means no changed cell can be left unannounced."""
    changed = None
    for name, a in new.items():
        b = old.get(name)
        if b is None or len(a) != len(b):
            return (0, len(a) - 1) if len(a) else None
        differ = a != b
        if a.dtype.kind == "f":
            differ &= ~(np.isnan(a) & np.isnan(b))
        changed = differ if changed is None else changed | differ
    if changed is None or not changed.any():
        return None
    hits = np.flatnonzero(changed)
    return int(hits[0]), int(hits[-1])


class OneCallPerCell:
    """For a table model whose `data()` is Python: a view asks for all the roles it paints a cell
    with (display, alignment, font, colours…) in one `multiData` call, which Qt's own answers by
    calling `data()` once per role, each a call from C++ into Python; here they are answered in
    one call, the roles `data()` gives nothing for included (no role is left unanswered)."""

    def multiData(self, index, roles) -> None:
        data = self.data
        for role_data in roles:
            role_data.setData(data(index, role_data.role()))


def announce_cells(model: QAbstractItemModel, old: dict[str, np.ndarray], new: dict[str, np.ndarray],
                   shown: list[tuple[str, ...]]) -> None:
    """dataChanged over the rows that differ in each column (`shown[c]`: the arrays column c is
    drawn from), neighbouring columns with the same rows in one signal: a view repaints only
    those cells (after a move, DCG and NDCG change down the list, the other columns only between
    the move's ends)."""
    spans: list[tuple[int, int, int, int]] = []  # (first row, last row, first column, last column)
    for column, names in enumerate(shown):
        rows = differing_rows({n: old[n] for n in names if n in old}, {n: new[n] for n in names})
        if rows is None:
            continue
        if spans and spans[-1][:2] == rows and spans[-1][3] == column - 1:
            spans[-1] = (*rows, spans[-1][2], column)
        else:
            spans.append((*rows, column, column))
    for first, last, left, right in spans:
        model.dataChanged.emit(model.index(first, left), model.index(last, right))


def announce_rows(model: QAbstractItemModel, first: int, last: int) -> None:
    """One dataChanged over whole rows first..last (clipped to the model)."""
    last = min(last, model.rowCount() - 1)
    if last >= first >= 0:
        model.dataChanged.emit(model.index(first, 0), model.index(last, model.columnCount() - 1))
