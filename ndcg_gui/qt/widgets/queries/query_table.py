"""The query panel's table of queries, and the widths of its columns: each figure column as wide as
resizeColumnToContents would make it over every row, measured from the few texts the model says
could be widest (measuring every row, ResizeToContents, read a thousand rows per repaint)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QStyleOptionViewItem, QTableView

from ndcg_gui.qt.models.query_model import (
    COL_EDITED,
    COL_QUERY,
    FIXED_COLUMNS,
    QueryFilterProxy,
    QueryTableModel,
)

QUERY_WIDTH_COMPARING = 140
MIN_ROWS = 5  # rows the table keeps in a crowded dock (the texts under it are cut before)


class QueryTable(QTableView):
    """The queries of `model` through `proxy`, one selected at a time, sorted by a header click.
    `widthChanged`: the room for the columns changed (the panel then drops or brings back the
    columns it can do without, `QueryPanel._fit_room`)."""

    widthChanged = Signal()

    def __init__(self, model: QueryTableModel, proxy: QueryFilterProxy) -> None:
        super().__init__()
        self.query_model = model
        self.setModel(proxy)
        self.setSortingEnabled(True)
        self.sortByColumn(COL_QUERY, Qt.SortOrder.AscendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.horizontalHeader()
        # Figures sized to their content when the queries or k change, not on every edit, from a
        # few texts the model names (`fit_figures`): measuring columns (ResizeToContents) reads a
        # thousand rows per repaint, and resizeColumnToContents 200 rows per column.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_QUERY, QHeaderView.ResizeMode.Stretch)
        header.setResizeContentsPrecision(200)
        model.modelReset.connect(self.fit_columns)
        model.headerDataChanged.connect(self.fit_figures)  # k in the headers
        header.sortIndicatorChanged.connect(self.fit_figures)  # the arrow's room moves with it
        header.setSectionResizeMode(COL_EDITED, QHeaderView.ResizeMode.Fixed)
        self.fit_figures()

    def minimumSizeHint(self) -> QSize:
        """Room for MIN_ROWS rows under the header (and a scroll bar): at 1024x700 with two long
        run names compared, the texts under the table took the dock and left 2.5 rows."""
        hint = super().minimumSizeHint()
        rows = MIN_ROWS * self.verticalHeader().defaultSectionSize()
        height = (self.horizontalHeader().sizeHint().height() + rows
                  + self.horizontalScrollBar().sizeHint().height() + 2 * self.frameWidth())
        return QSize(hint.width(), max(hint.height(), height))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.widthChanged.emit()

    def columns_width(self, leaving: set[int] = frozenset()) -> int:
        """The width of the columns shown, less those of `leaving`."""
        return sum(self.columnWidth(c) for c in range(self.query_model.columnCount())
                   if not self.isColumnHidden(c) and c not in leaving)

    def room(self) -> int:
        """The width the columns have before the table scrolls sideways: the viewport's, less the
        vertical scroll bar's while the rows need it (it may show only once a column has gone)."""
        room = self.width() - 2 * self.frameWidth()
        rows = self.verticalHeader().length() + self.horizontalHeader().height()
        if rows > self.height() - 2 * self.frameWidth() - self.horizontalScrollBar().sizeHint().height():
            room -= self.verticalScrollBar().sizeHint().width()
        return room

    def fit_columns(self) -> None:
        model = self.query_model
        comparing = model.columnCount() > FIXED_COLUMNS
        self.fit_figures()
        header = self.horizontalHeader()
        # While comparing, the ids are as wide as they need (at most QUERY_WIDTH_COMPARING): a
        # stretched column shrinks only part of the way when the dock narrows, hiding the runs.
        if comparing:
            header.setSectionResizeMode(COL_QUERY, QHeaderView.ResizeMode.Interactive)
            self.resizeColumnToContents(COL_QUERY)
            self.setColumnWidth(COL_QUERY, min(self.columnWidth(COL_QUERY), QUERY_WIDTH_COMPARING))
        else:
            header.setSectionResizeMode(COL_QUERY, QHeaderView.ResizeMode.Stretch)

    def fit_figures(self, *_header_change) -> None:
        """Docs, judged and the open run's NDCG as wide as resizeColumnToContents would make them
        over every row (the header's, `_header_width`, or the widest cell's, plus the grid line),
        from the few texts the model says could be widest, measured as the delegate measures a cell;
        while comparing, each run's columns as wide as a figure or their header; the edited mark's
        as its header. A column whose width is right already is left alone (no relayout)."""
        model = self.query_model
        comparing = model.columnCount() > FIXED_COLUMNS
        grid = int(self.showGrid())
        mark = self.fontMetrics().horizontalAdvance("✎✎") + 8
        widths = {COL_EDITED: max(mark, self._header_width(COL_EDITED))}
        for column in range(COL_QUERY + 1, FIXED_COLUMNS - int(comparing)):
            cells = [self._cell_width(text, bold) for text, bold in model.widest_texts(column)]
            widths[column] = max(self._header_width(column), max(cells, default=0) + grid)
        figure = self.fontMetrics().horizontalAdvance("+0.0000") + 14
        # (RBO, Jaccard and τ have no sign: a figure less its "+", so the three fit a 1366 px window)
        unsigned = self.fontMetrics().horizontalAdvance("0.0000") + 10
        for column in range(FIXED_COLUMNS - int(comparing), model.columnCount()):
            wider = [self._cell_width(text, False) + grid for text in model.run_texts(column)]
            least = unsigned if 0 <= model.overlap_column() <= column else figure
            widths[column] = max(least, self._header_width(column), *wider)
        for column, width in widths.items():
            if width != self.columnWidth(column):
                self.setColumnWidth(column, width)

    def needed_width(self) -> int:
        """The table's width that shows every column whole: the longest query ids (measured as the
        delegate measures a cell, not every row, which a big file would feel) beside the fitted
        figures, the scroll bar and the frame."""
        self.fit_figures()  # (fitted when the scores land, which may be after the dock shows)
        model = self.query_model
        columns = sum(self.columnWidth(c) for c in range(model.columnCount()) if c != COL_QUERY)
        widest_id = max((self._cell_width(t, bold) for t, bold in model.longest_queries()), default=0)
        ids = max(widest_id + int(self.showGrid()), self.horizontalHeader().sectionSizeHint(COL_QUERY))
        return columns + ids + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()

    def _header_width(self, column: int) -> int:
        """The header's size hint, with room for the sort arrow only in the column sorted by. Qt
        keeps that room (~20 px) in every column, and three figure columns left the query ids
        none in a 320 px dock ("…" at 1280x800)."""
        header = self.horizontalHeader()
        hint = header.sectionSizeHint(column)
        if not header.isSortIndicatorShown() or header.sortIndicatorSection() == column:
            return hint
        # QHeaderView::sectionSizeFromContents adds the contents' height and the header margin.
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        return hint - header.sectionSizeFromContents(column).height() - margin

    def _cell_width(self, text: str, bold: bool) -> int:
        """The width the table's delegate asks for a cell showing `text` (what
        resizeColumnToContents reads from each row): the style's size of an item view item."""
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        if bold:  # the model's FontRole for an edited query: the view's font, bold
            font = QFont(option.font)
            font.setBold(True)
            option.font, option.fontMetrics = font, QFontMetrics(font)
        option.text = text
        option.features |= QStyleOptionViewItem.ViewItemFeature.HasDisplay
        item = QStyle.ContentsType.CT_ItemViewItem
        return self.style().sizeFromContents(item, option, QSize(), self).width()
