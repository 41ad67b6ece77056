"""The ranked-list table: drag rows to reorder them (the model's moveRows), or drop judged
documents from the Missed tab in; says which rows are selected and selects rows it is told to."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QContextMenuEvent, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from ndcg_gui.qt.models.ranking_model import RankingModel
from ndcg_gui.qt.widgets.column_widths import ColumnWidths

EMPTY_HINT = ("No documents yet.\n\nType grades in ranked order above (e.g. 3 2 3 0 1) and press Enter, "
              "open a ranked list or a TREC run with Ctrl+O, or drop a file here.\n\nThen drag rows to "
              "reorder them and watch NDCG follow.")


class RankingView(QTableView):
    def __init__(self, model: RankingModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
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
        # Long ids (TREC docnos, URLs) keep both ends readable; the whole text is in the tooltip.
        self.setTextElideMode(Qt.ElideMiddle)
        self.setTabKeyNavigation(False)  # Tab moves to the next pane, not cell by cell
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)  # no per-row measuring
        # Every column fitted to what it shows (measured on the first rows, not all of them); a
        # double-click on a header border fits that column again. The spare width goes to the
        # document id, or to the file's last text column (a title) when it has some.
        self._empty_hint = EMPTY_HINT
        header = self.horizontalHeader()
        header.setMinimumSectionSize(32)
        # The rows on screen and 50 more: the same widths as 200 rows on TREC runs (ids of one
        # shape) at a quarter of the cost, 4 against 16 ms of a file's install (bench_queries big).
        header.setResizeContentsPrecision(50)
        self.column_widths = ColumnWidths(self, "ranked list")
        model.modelReset.connect(self.fit_columns)
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
        model, header = self.model(), self.horizontalHeader()
        widest = self.fontMetrics().horizontalAdvance("M" * 28)
        columns = model.columnCount()
        spare = columns - 1 if columns > 6 and model.column("moved") < columns - 1 else RankingModel.DOC
        for column in range(columns):
            header.setSectionResizeMode(column, QHeaderView.Interactive)
            self.resizeColumnToContents(column)
            if header.sectionSize(column) > widest:  # a long id or title: elided in the middle
                header.resizeSection(column, widest)
        grade = RankingModel.GRADE  # "unjudged" fits, wherever the first unjudged row is
        if columns > grade:
            unjudged = self.fontMetrics().horizontalAdvance("unjudged") + 18
            header.resizeSection(grade, max(header.sectionSize(grade), unjudged))
        if columns:
            header.setSectionResizeMode(spare, QHeaderView.Stretch)
        self.column_widths.apply()

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
