"""The per-rank table's view: every column is as wide as the texts of the rows in view (ids and
figures whole, never cut), and when the pane is too narrow for every column, the steps of the
arithmetic (contribution, discount, gain, ideal grade) give way first, so CG, DCG, IDCG and NDCG
stay in view. A hidden step is still in the tooltip of the DCG cell beside it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ndcg_gui.qt.models.metrics_model import COLUMNS, MetricsTableModel
from ndcg_gui.qt.widgets.column_widths import ColumnWidths, needed_width, rows_in_view
from ndcg_gui.qt.widgets.editor.ranking_view import REFIT_DELAY_MS
from ndcg_gui.qt.widgets.editor.text_cells import TextCells

# Given up, in this order, when the pane is narrow: the steps of the arithmetic, then what the
# ranked list beside the table already shows (the id, the grade) and CG. Rank, DCG, IDCG and NDCG stay.
OPTIONAL = ("contribution", "discount", "gain", "ideal_grade", "doc", "cg", "grade")
MEASURE_MORE = 10  # rows measured below those in view


class MetricsView(QTableView):
    def __init__(self, model: MetricsTableModel) -> None:
        super().__init__()
        self.setModel(model)
        self.setItemDelegate(TextCells(self))  # (Qt's own delegate cost more than the drawing)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTabKeyNavigation(False)  # Tab moves to the next pane, not cell by cell
        self.setTextElideMode(Qt.ElideRight)  # (columns fit their texts; a number is never cut inside)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = self.horizontalHeader()
        header.setMinimumSectionSize(16)
        header.setSectionResizeMode(QHeaderView.Interactive)
        # A row selected crosses every column: bold titles said nothing, and cut "Rank".
        header.setHighlightSections(False)
        self.column_widths = ColumnWidths(self, "per rank")
        # What the rows in view need, kept until they or their texts change: the layout resizes
        # the view several times before its first paint, and each resize only shares out room.
        self._needs: tuple[tuple[int, ...], list[int]] | None = None
        for signal in (model.dataChanged, model.modelReset, model.layoutChanged, model.headerDataChanged):
            signal.connect(self._forget_needs)  # (first: Qt calls the refits connected after it)
        # The rows in view decide the widths: refit when they scroll or change (once edits and
        # scrolling pause: measuring is too slow for the frame of every edit), and at once when
        # a list of another length comes, so its first frame shows it fitted.
        self._refit = QTimer(self, singleShot=True, interval=REFIT_DELAY_MS, timeout=self.fit_columns)
        for signal in (model.dataChanged, self.verticalScrollBar().valueChanged):
            signal.connect(self._refit.start)
        model.modelReset.connect(self.fit_columns)

    def dataChanged(self, top_left, bottom_right, roles=()) -> None:
        """Only the changed cells in view are repainted: Qt repaints the whole view for a range of
        more than about 200 rows (after a move, DCG and NDCG change down the whole list), so the
        range is cut to the rows in view first. The table has no editors to update."""
        height = self.viewport().height()
        first, last = max(self.rowAt(0), 0), self.rowAt(height - 1)
        if last < 0:
            last = self.model().rowCount() - 1
        top, bottom = max(top_left.row(), first), min(bottom_right.row(), last)
        if top > bottom or not top_left.isValid() or not bottom_right.isValid():
            return
        model = self.model()
        super().dataChanged(model.index(top, top_left.column()), model.index(bottom, bottom_right.column()),
                            roles)

    def _forget_needs(self, *_args) -> None:
        self._needs = None

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._needs = None
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def _bar_to_come(self) -> int:
        """The width of the vertical scroll bar that the rows will need and Qt has not shown yet
        (it lays the bar out after the model's reset): fitted to the room left beside it, the
        columns never overflow for a frame, which showed a horizontal bar and cut figures."""
        bar = self.verticalScrollBar()
        if bar.isVisible() or self.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff:
            return 0
        rows = self.model().rowCount() * self.verticalHeader().defaultSectionSize()
        return bar.sizeHint().width() if rows > self.viewport().height() else 0

    def fit_columns(self) -> None:
        """Every column as wide as its header and the texts of the rows in view; the optional
        columns that the width cannot hold are hidden, in order; spare width is shared out."""
        header = self.horizontalHeader()
        names = [name for _, name, _ in COLUMNS]
        rows = tuple(rows_in_view(self, MEASURE_MORE))
        if self._needs is None or self._needs[0] != rows:
            self._needs = (rows, [needed_width(self, column, list(rows)) for column in range(len(COLUMNS))])
        remembered = self.column_widths.widths
        widths = {}
        for column, (title, name, _) in enumerate(COLUMNS):
            widths[name] = max(self._needs[1][column], remembered.get(title, 0))  # may widen, not cut
        room = self.viewport().width() - self._bar_to_come()
        need = sum(widths.values())
        hidden = set()
        for name in OPTIONAL:
            if need <= room:
                break
            hidden.add(name)
            need -= widths[name]
        shown = [name for name in names if name not in hidden]
        spread = [name for name in shown if name not in ("rank", "doc")] or shown
        spare = max(room - need, 0)
        for i, name in enumerate(spread):  # the spare width, in whole pixels, to the figures
            widths[name] += spare // len(spread) + (1 if i < spare % len(spread) else 0)
        changed = False
        for column, name in enumerate(names):
            if header.isSectionHidden(column) != (name in hidden):
                header.setSectionHidden(column, name in hidden)
                changed = True
            if name not in hidden and header.sectionSize(column) != widths[name]:
                header.resizeSection(column, widths[name])
                changed = True
        if changed:
            # The scroll bars follow the new widths now, not at Qt's later pass: a frame painted
            # between showed a horizontal bar (and a narrower viewport) the columns no longer need.
            self.updateGeometries()
