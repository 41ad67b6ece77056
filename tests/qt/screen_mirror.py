"""What a view has painted, kept the way a view keeps it: a `ScreenMirror` follows a model's signals
only (dataChanged, rows inserted/removed/moved, layout and reset), reading a cell again only when a
signal covers it. After any action, `stale_cells()` lists the cells whose painted value differs
from what the model says now: each is a figure the user would see wrong until something happened to
repaint it. This is the check "every changed cell was announced".
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

# What a table view paints of a cell. Tooltips are not here: a view asks for them on each hover.
PAINTED_ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.ForegroundRole,
    Qt.ItemDataRole.BackgroundRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.CheckStateRole,
    Qt.ItemDataRole.DecorationRole,
)


def _plain(value):
    """A comparable stand-in for what a role returns."""
    if isinstance(value, QFont):
        return ("font", value.bold(), value.italic(), value.underline(), value.strikeOut())
    if isinstance(value, QBrush):
        return ("brush", value.color().name(QColor.NameFormat.HexArgb), int(value.style().value))
    if isinstance(value, QColor):
        return ("color", value.name(QColor.NameFormat.HexArgb))
    if hasattr(value, "value") and not isinstance(value, (int, float, str)):
        return int(value.value)  # an enum (alignment, check state)
    return value


class ScreenMirror:
    def __init__(self, model: QAbstractItemModel, name: str) -> None:
        self.model, self.name = model, name
        self.rows: list[list[tuple]] = []
        self.header: list = []
        self.events: list[str] = []
        self._read_all()
        m = model
        m.dataChanged.connect(self._data_changed)
        m.headerDataChanged.connect(lambda *_: self._read_header())
        m.modelReset.connect(self._read_all)
        m.layoutChanged.connect(self._read_all)
        m.rowsInserted.connect(self._rows_inserted)
        m.rowsRemoved.connect(self._rows_removed)
        m.rowsMoved.connect(self._rows_moved)
        m.columnsInserted.connect(self._read_all)
        m.columnsRemoved.connect(self._read_all)
        m.columnsMoved.connect(self._read_all)

    # ---- reading the model as a view would ----------------------------------------------------
    def _cell(self, row: int, column: int) -> tuple:
        index = self.model.index(row, column)
        return tuple(_plain(self.model.data(index, role)) for role in PAINTED_ROLES)

    def _row(self, row: int) -> list[tuple]:
        return [self._cell(row, c) for c in range(self.model.columnCount())]

    def _read_header(self) -> None:
        self.header = [self.model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                       for c in range(self.model.columnCount())]

    def _read_all(self, *_args) -> None:
        self.rows = [self._row(r) for r in range(self.model.rowCount())]
        self._read_header()

    # ---- following the signals ------------------------------------------------------------------
    def _data_changed(self, top_left: QModelIndex | QPersistentModelIndex, bottom_right, _roles=()) -> None:
        if not top_left.isValid() or not bottom_right.isValid():
            return
        for row in range(top_left.row(), bottom_right.row() + 1):
            for column in range(top_left.column(), bottom_right.column() + 1):
                if row < len(self.rows) and column < len(self.rows[row]):
                    self.rows[row][column] = self._cell(row, column)

    def _rows_inserted(self, parent, first: int, last: int) -> None:
        if not parent.isValid():
            self.rows[first:first] = [self._row(r) for r in range(first, last + 1)]

    def _rows_removed(self, parent, first: int, last: int) -> None:
        if not parent.isValid():
            del self.rows[first:last + 1]

    def _rows_moved(self, parent, start: int, end: int, _destination, row: int) -> None:
        if parent.isValid():
            return
        block = self.rows[start:end + 1]
        rest = self.rows[:start] + self.rows[end + 1:]
        at = row if row <= start else row - len(block)
        self.rows = rest[:at] + block + rest[at:]

    # ---- the check ---------------------------------------------------------------------------------
    def stale_cells(self, limit: int = 5) -> list[str]:
        """Cells painted with a value the model no longer gives (at most `limit`, described)."""
        m = self.model
        if len(self.rows) != m.rowCount():
            return [f"{self.name}: {len(self.rows)} rows painted, the model has {m.rowCount()}"]
        out: list[str] = []
        header = [m.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                  for c in range(m.columnCount())]
        if header != self.header:
            out.append(f"{self.name}: header painted {self.header}, the model says {header}")
        for r, painted in enumerate(self.rows):
            if len(painted) != m.columnCount():
                out.append(f"{self.name}: row {r} has {len(painted)} painted cells, model {m.columnCount()}")
                continue
            for c, shown in enumerate(painted):
                now = self._cell(r, c)
                if shown != now:
                    out.append(f"{self.name}: cell ({r}, {header[c] if c < len(header) else c}) painted "
                               f"{shown[0]!r} {shown[1:]} but the model says {now[0]!r} {now[1:]}")
                    if len(out) >= limit:
                        return out
        return out
