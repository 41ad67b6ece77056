"""What a person can read in the window, measured the way Qt draws it: every text shown in a
table's visible cells against its column's width (the font of the cell, the style's text margins,
the grid line), the ids of the side-by-side lists against their boxes and the part of the lists in
view, and the window against its screen. Each check returns what does not fit (empty: all fits)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QStyle, QTableView, QWidget

LONG_IDS = ("tests/data/long_ids.run", "tests/data/long_ids.b.run", "tests/data/long_ids.qrels")


def cut_cells(view: QTableView, columns: range | None = None) -> list[str]:
    """Headers and cells in view whose text is wider than its column leaves for text."""
    model = view.model()
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    grid = 1 if view.showGrid() else 0
    shown = view.viewport().rect()
    cut = []
    header = view.horizontalHeader()
    header_margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    for column in columns if columns is not None else range(model.columnCount()):
        title = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
        need = header.fontMetrics().horizontalAdvance(title) + header_margin
        if title and not view.isColumnHidden(column) and need > view.columnWidth(column):
            cut.append(f"header {title!r}: needs {need}, has {view.columnWidth(column)}")
    for row in range(model.rowCount()):
        if view.isRowHidden(row) or not view.visualRect(model.index(row, 0)).intersects(shown):
            continue
        for column in columns if columns is not None else range(model.columnCount()):
            if view.isColumnHidden(column):
                continue
            index = model.index(row, column)
            text = index.data(Qt.ItemDataRole.DisplayRole)
            if not text:
                continue
            font = index.data(Qt.ItemDataRole.FontRole)
            metrics = QFontMetrics(font if isinstance(font, QFont) else view.font())
            need = metrics.horizontalAdvance(str(text)) + margin + grid
            if need > view.columnWidth(column):
                header = model.headerData(column, Qt.Orientation.Horizontal)
                cut.append(f"row {row + 1} {header} {text!r}: needs {need}, has {view.columnWidth(column)}")
    if view.horizontalScrollBar().isVisible():
        cut.append("the columns scroll sideways")
    return cut


def title_outside(axis) -> str | None:
    """What of a pyqtgraph axis's title is drawn beyond the axis's ends (None: it is within).
    The title's box as placed: a left axis turns it a quarter, its position then the bottom end."""
    box, at, length = axis.label.boundingRect(), axis.label.pos(), axis.size()
    if axis.orientation in ("left", "right"):
        start, end, room = at.y() - box.width(), at.y(), length.height()
    else:
        start, end, room = at.x(), at.x() + box.width(), length.width()
    if start < 0 or end > room:
        return f"{axis.labelText!r} drawn from {start:.0f} to {end:.0f} of 0..{room:.0f}"
    return None


def cut_lines(pane) -> list[str]:
    """Ids of the side-by-side lists wider than their box, or out of the part in view."""
    lines = pane.lines
    port = pane.lines_scroll.viewport()
    left, right = -lines.x(), -lines.x() + port.width()  # the lists' part in view
    cut = []
    for doc, font, box in lines.doc_boxes():
        need = QFontMetrics(font).horizontalAdvance(doc)
        if need > box.width():
            cut.append(f"{doc!r}: needs {need}, has {box.width():.0f}")
        elif box.left() < left or box.left() + need > right:
            cut.append(f"{doc!r}: out of view sideways ({box.left():.0f}+{need} not in {left}..{right})")
    return cut


def off_screen(window: QWidget) -> list[str]:
    """The window, or its status bar, past the edges of its screen's available area."""
    area: QRect = window.screen().availableGeometry()
    frame = window.frameGeometry()
    problems = []
    if not area.contains(frame):
        problems.append(f"window {frame.getRect()} not within {area.getRect()}")
    bar = window.statusBar()
    at = bar.mapToGlobal(bar.rect().topLeft())
    if not bar.isVisible() or not area.contains(QRect(at, bar.size())):
        problems.append(f"status bar at {at.toTuple()} {bar.size().toTuple()} not within {area.getRect()}")
    return problems
