"""The ranked-list table: drag rows to reorder them (the model's moveRows), or drop judged
documents from the Missed tab in; says which rows are selected and selects rows it is told to."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QContextMenuEvent, QFontMetrics, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from ndcg_gui.qt.models.cells import UNJUDGED_TEXT, font
from ndcg_gui.qt.models.ranking_model import RankingModel
from ndcg_gui.qt.widgets.column_widths import ColumnWidths, cell_margin, needed_width, rows_in_view
from ndcg_gui.qt.widgets.editor.text_cells import TextCells

EMPTY_HINT = ("No documents yet.\n\nType grades in ranked order above (e.g. 3 2 3 0 1) and press Enter, "
              "open a ranked list or a TREC run with Ctrl+O, or drop a file here.\n\nThen drag rows to "
              "reorder them and watch NDCG follow.")
MEASURE_MORE = 30  # rows measured below those in view: a scroll rarely meets a wider id
REFIT_DELAY_MS = 120  # columns are measured again once edits and scrolling pause this long
MAX_NEEDED_M = 48  # the widest the list asks its pane to be, in "M"s


class RankingView(QTableView):
    widthNeeded = Signal(int)  # the width that shows the list's columns whole changed (needed_width)

    def __init__(self, model: RankingModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setItemDelegate(TextCells(self))  # (Qt's own delegate cost more than the drawing)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        # The drag-and-drop set-up that makes Qt call moveRows (see shared STYLE.md). DragDrop, not
        # InternalMove: an InternalMove view refuses every drag that did not start in itself, and
        # the Missed tab's documents are dropped here. A drag of the list's own rows still moves
        # them (QTableView.dropEvent calls moveRows for a move from itself; the model has no
        # removeRows, so nothing is removed after the drag either).
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDrop)
        self.setDragDropOverwriteMode(False)
        self.setDefaultDropAction(Qt.MoveAction)
        self.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed
                             | QAbstractItemView.AnyKeyPressed)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        # Columns fit their texts (fit_columns); past that, text is cut at its end, never in the
        # middle of a number. The whole text is in the tooltip.
        self.setTextElideMode(Qt.ElideRight)
        self.setTabKeyNavigation(False)  # Tab moves to the next pane, not cell by cell
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)  # no per-row measuring
        # Every column fitted to what it shows, measured on the rows in view and MEASURE_MORE
        # below them (not all rows: a file's install stays one frame); rows scrolled into view or
        # edited widen a column that is too narrow for them. A double-click on a header border
        # fits that column again. The spare width goes to the last column.
        self._empty_hint = EMPTY_HINT
        self._needed = 0
        self._fitted: list[int] = []  # each column's width as fitted (the last one's before stretching)
        header = self.horizontalHeader()
        header.setMinimumSectionSize(32)
        # A row selected crosses every column: Qt drew every title bold, which said nothing and
        # cut "Rank", "Document" and "Moved" (the widths are measured in the font drawn).
        header.setHighlightSections(False)
        header.setResizeContentsPrecision(MEASURE_MORE)
        header.setStretchLastSection(True)
        self.column_widths = ColumnWidths(self, "ranked list")
        model.modelReset.connect(self.fit_columns)
        # Once edits, drags and scrolling pause (measuring the rows in view is too slow for
        # the frame of every edit).
        self._grow = QTimer(self, singleShot=True, interval=REFIT_DELAY_MS, timeout=self._grow_columns)
        for signal in (model.dataChanged, model.rowsMoved, self.verticalScrollBar().valueChanged):
            signal.connect(self._grow.start)
        self.fit_columns()
        # Show only some rows (relevant, judged, unjudged): the list itself is untouched, so a
        # drag or an edit among the rows shown means the same rows of the whole list.
        self._kind = "all"
        self._some_hidden = False
        self._refilter = QTimer(self, singleShot=True, interval=0, timeout=self._apply_kind)
        for signal in (model.modelReset, model.rowsMoved, model.dataChanged, model.layoutChanged):
            signal.connect(self._refilter.start)
        # Enter does what a double-click does (edit a cell; the grade where the cell is not
        # editable); the window adds its row actions (move, delete, copy, paste) to this menu.
        self.edit_action = QAction("Edit grade", self)
        self.edit_action.setShortcuts([QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter)])
        self.edit_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # (not while editing)
        self.edit_action.triggered.connect(self.edit_current)
        self.addAction(self.edit_action)
        # A move repaints only the rows between its two ends (`doItemsLayout`); any other change
        # of the rows' layout, the whole view, as Qt does.
        self._moved_rows: tuple[int, int] | None = None
        model.rowsMoved.connect(self._note_move)
        for signal in (model.modelReset, model.layoutChanged, model.rowsInserted, model.rowsRemoved,
                       model.columnsInserted, model.columnsRemoved, model.columnsMoved):
            signal.connect(self._whole_layout)

    def _note_move(self, parent, first: int, last: int, _destination_parent, destination: int) -> None:
        if parent.isValid() or self._moved_rows == ():
            return
        # Rows first..last moved to before `destination`: every row between the two ends shows
        # another document, no row outside them.
        lo, hi = min(first, destination), max(last + 1, destination) - 1
        if self._moved_rows is not None:
            lo, hi = min(lo, self._moved_rows[0]), max(hi, self._moved_rows[1])
        self._moved_rows = (lo, hi)

    def _whole_layout(self, *_args) -> None:
        self._moved_rows = ()  # (until the layout Qt does next: the whole view)

    def changeEvent(self, event) -> None:
        self._whole_layout()  # (a font, style or palette: Qt's own layout repaints all)
        super().changeEvent(event)

    def doItemsLayout(self) -> None:
        """Qt lays the items out again after a move (`rowsMoved`) and repaints the whole view; after
        moves only, with every row shown, the geometry is updated and only the rows between each
        move's ends are repainted (the rows outside them show what they showed; a cell that differs
        there is announced by the model, `dataChanged`). The vertical header is hidden, so its
        scroll offset, which Qt's own sets here, is not needed."""
        moved, self._moved_rows = self._moved_rows, None
        if not moved or self._some_hidden or not self.verticalHeader().isHidden() \
                or self.model().rowCount() == 0:
            super().doItemsLayout()
            return
        self.updateGeometries()
        lo, hi = moved
        height = self.viewport().height()
        first, last = max(self.rowAt(0), 0), self.rowAt(height - 1)
        if last < 0:
            last = self.model().rowCount() - 1
        top, bottom = max(lo, first), min(hi, last)
        if top <= bottom:
            y0 = self.rowViewportPosition(top)
            y1 = self.rowViewportPosition(bottom) + self.rowHeight(bottom)
            self.viewport().update(0, y0, self.viewport().width(), y1 - y0)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """The list's actions (Edit grade, move, delete, copy, paste) for the rows meant: right click
        on a row outside the selection selects it; the menu key opens below the current row. An empty
        list offers only what needs no row (paste)."""
        index = self.indexAt(event.pos()) if event.reason() == QContextMenuEvent.Reason.Mouse \
            else self.currentIndex()
        if event.reason() == QContextMenuEvent.Reason.Mouse and index.isValid() \
                and index.row() not in self.selected_rows():
            self.select_rows(index.row(), 1)
            self.setCurrentIndex(index)
        rows = index.isValid()
        actions = [a for a in self.actions() if rows or a.property("withoutRows")]
        if not actions:
            return
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addActions(actions)
        if event.reason() == QContextMenuEvent.Reason.Mouse or not rows:
            at = event.globalPos()
        else:
            rect = self.visualRect(index)
            at = self.viewport().mapToGlobal(QPoint(rect.left() + 8, rect.bottom()))
        menu.popup(at)

    def edit_current(self) -> None:
        """Start typing in the current cell, or in its row's grade if that cell is not editable."""
        index = self.currentIndex()
        if not index.isValid():
            return
        if not index.flags() & Qt.ItemFlag.ItemIsEditable:
            index = index.siblingAtColumn(RankingModel.GRADE)
            self.setCurrentIndex(index)
        self.edit(index)

    def show_kind(self, kind: str) -> None:
        """Show only the rows of `kind` (all, relevant, judged, unjudged)."""
        self._kind = kind
        self._apply_kind()

    def _apply_kind(self) -> None:
        if self._kind == "all" and not self._some_hidden:
            return  # the usual case, on every edit: nothing to look at
        shown = self.ranking_model().rows_of_kind(self._kind)
        for row, visible in enumerate(shown.tolist()):
            if self.isRowHidden(row) == visible:
                self.setRowHidden(row, not visible)
        self._some_hidden = not bool(shown.all())

    def fit_columns(self) -> None:
        """Every column as wide as its header and the texts of the rows in view (and MEASURE_MORE
        below) need, so ids and figures show whole; the last column takes any spare width."""
        model, header = self.model(), self.horizontalHeader()
        for column in range(model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.Interactive)
        self._fit(grow_only=False)
        self.column_widths.apply()

    def _fit(self, grow_only: bool) -> None:
        model, header = self.model(), self.horizontalHeader()
        rows = rows_in_view(self, MEASURE_MORE)
        cap = self.fontMetrics().horizontalAdvance("M" * 40)  # a URL or a title: elided on the right
        # "unjudged" fits in the grade column wherever the first unjudged row is.
        unjudged = QFontMetrics(font(italic=True)).horizontalAdvance(UNJUDGED_TEXT) + cell_margin(self) + 2
        remembered = self.column_widths.widths
        columns = model.columnCount()
        if not grow_only or len(self._fitted) != columns:
            self._fitted = [0] * columns
        for column in range(columns):
            if grow_only and str(model.headerData(column, Qt.Horizontal)) in remembered:
                continue  # the person's width wins
            need = min(needed_width(self, column, rows), cap)
            if column == RankingModel.GRADE:
                need = max(need, unjudged)
            if need > self._fitted[column]:
                self._fitted[column] = need
                if need > header.sectionSize(column) or not grow_only:
                    header.resizeSection(column, need)
        own = model.column("moved") + 1 or columns  # the file's extra columns follow
        needed = sum(self._fitted[:own])  # (not the sections: the last one stretches)
        if needed != self._needed:
            self._needed = needed
            self.updateGeometry()
            self.widthNeeded.emit(self.needed_width())

    def _grow_columns(self) -> None:
        """Rows scrolled into view or edited may hold a longer id or figure: widen its column."""
        self._fit(grow_only=True)

    def needed_width(self) -> int:
        """The width that shows the list's own columns whole (a file's extra columns may scroll)."""
        bar = self.verticalScrollBar().sizeHint().width()
        return self._needed + bar + 2 * self.frameWidth()

    def minimumSizeHint(self) -> QSize:
        # The pane (a splitter's) never squeezes the ids and figures; past MAX_NEEDED_M "M"s
        # (a long URL), the rest of an id is elided and in its tooltip.
        cap = self.fontMetrics().horizontalAdvance("M" * MAX_NEEDED_M)
        return QSize(min(self.needed_width(), cap), super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._grow.start()  # more rows in view

    def set_empty_hint(self, text: str | None) -> None:
        """What an empty list says (None: the first-run hint)."""
        text = text or EMPTY_HINT
        if text != self._empty_hint:
            self._empty_hint = text
            self.viewport().update()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.model().rowCount() == 0:  # an empty list says what to do
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.PlaceholderText))
            painter.drawText(self.viewport().rect().adjusted(12, 12, -12, -12),
                             Qt.AlignHCenter | Qt.AlignTop | Qt.TextWordWrap, self._empty_hint)
            painter.end()

    def ranking_model(self) -> RankingModel:
        return self.model()  # type: ignore[return-value]

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.selectionModel().selectedRows()})

    def current_row(self) -> int:
        index = self.currentIndex()
        return index.row() if index.isValid() else -1

    def select_rows(self, first: int, count: int) -> None:
        model = self.model()
        if count < 1 or first < 0 or first + count > model.rowCount():
            return
        top = model.index(first, 0)
        bottom = model.index(first + count - 1, model.columnCount() - 1)
        self.selectionModel().select(QItemSelection(top, bottom),
                                     QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows)
        self.selectionModel().setCurrentIndex(top, QItemSelectionModel.NoUpdate)
