"""The widths a person gives a table's columns, remembered by column title: applied again when
the table refits its columns (another file, another query) and kept between sessions; and the
widths a column needs to show its texts whole, measured from the rows in view with the font each
cell is drawn in."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QApplication, QStyle, QStyleOptionHeader, QTableView


class ColumnWidths(QObject):
    def __init__(self, view: QTableView, name: str) -> None:
        super().__init__(view)
        self.view, self.name = view, name
        self.widths: dict[str, int] = {}
        view.horizontalHeader().sectionResized.connect(self._resized)

    def _resized(self, column: int, _old: int, new: int) -> None:
        # Only a person's resize (the mouse on a header border) is remembered, not a refit.
        if QApplication.mouseButtons() == Qt.NoButton:
            return
        title = self.view.model().headerData(column, Qt.Horizontal, Qt.DisplayRole)
        if title:
            self.widths[str(title)] = int(new)

    def apply(self) -> None:
        """Give the remembered columns the widths the person gave them."""
        model, header = self.view.model(), self.view.horizontalHeader()
        for column in range(model.columnCount()):
            width = self.widths.get(str(model.headerData(column, Qt.Horizontal, Qt.DisplayRole)))
            if width and header.sectionResizeMode(column) == header.ResizeMode.Interactive:
                header.resizeSection(column, width)

    def to_text(self) -> str:
        return json.dumps(self.widths)

    def load(self, text: object) -> None:
        """Widths saved by `to_text` (anything else is ignored)."""
        try:
            widths = json.loads(str(text)) if text else {}
        except ValueError:
            return
        if isinstance(widths, dict):
            self.widths = {str(k): v for k, v in widths.items() if isinstance(v, int) and 16 <= v <= 4000}
            self.apply()


# ---- widths measured from what a column shows ---------------------------------------------------------

def cell_margin(view: QAbstractItemView) -> int:
    """What a cell adds to its text: the style's text margin on each side, and the grid line."""
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    grid = 1 if isinstance(view, QTableView) and view.showGrid() else 0
    return 2 * margin + grid


def rows_in_view(view: QTableView, more: int = 0) -> list[int]:
    """The rows on screen (not hidden), and `more` rows below them."""
    n = view.model().rowCount()
    if not n:
        return []
    height = view.viewport().height()
    first = max(view.rowAt(0), 0)
    last = view.rowAt(height - 1)
    if last < 0:  # the rows end above the viewport's bottom (or it has no height yet: a screenful)
        last = n - 1 if height > 0 else first + 40
    return [r for r in range(first, min(n, last + 1 + more)) if not view.isRowHidden(r)]


def needed_width(view: QTableView, column: int, rows: list[int]) -> int:
    """The width `column` needs to show its header and the texts of `rows` whole: each text's
    advance in the font its cell is drawn in, the style's margins and the grid line, and a pixel
    for the fraction Qt's text layout rounds up (what `sizeHintForIndex` gives, at a tenth of the
    cost: this runs after every edit)."""
    model = view.model()
    plain = view.fontMetrics()
    fonts: dict[str, QFontMetrics] = {}
    widest = 0
    for row in rows:
        index = model.index(row, column)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if text is None or text == "":
            continue
        font = index.data(Qt.ItemDataRole.FontRole)
        metrics = plain
        if isinstance(font, QFont):
            metrics = fonts.get(font.key()) or fonts.setdefault(font.key(), QFontMetrics(font))
        widest = max(widest, metrics.horizontalAdvance(str(text)))
    return max(widest + cell_margin(view) + 1 if widest else 0, header_width(view, column))


def header_width(view: QTableView, column: int) -> int:
    """The width `column`'s header needs for its title, as the style draws it: in bold, as a
    highlighting header draws a column a selection crosses (a row selected made every title bold
    and cut "Rank", "Document", "Moved"), with room for the sort arrow in the column sorted by
    (`QHeaderView.sectionSizeFromContents`, measured here: the header's own hint is -1 while the
    column is hidden)."""
    header = view.horizontalHeader()
    option = QStyleOptionHeader()
    option.initFrom(header)
    option.section = column
    option.text = str(view.model().headerData(column, Qt.Orientation.Horizontal) or "")
    font = QFont(header.font())
    font.setBold(font.bold() or header.highlightSections())
    option.fontMetrics = QFontMetrics(font)
    if header.isSortIndicatorShown() and header.sortIndicatorSection() == column:
        option.sortIndicator = QStyleOptionHeader.SortIndicator.SortDown
    size = header.style().sizeFromContents(QStyle.ContentsType.CT_HeaderSection, option, QSize(), header)
    return size.width()
