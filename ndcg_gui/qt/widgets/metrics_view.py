"""The per-rank table's view: figures never shrink below what a bold "0.0000" needs, and when the
pane is too narrow for every column, the steps of the arithmetic (contribution, discount, gain,
ideal grade) give way first, so CG, DCG, IDCG and NDCG stay in view. A hidden step is still in the
tooltip of the DCG cell beside it."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ndcg_gui.qt.models.metrics_model import COLUMNS, MetricsTableModel
from ndcg_gui.qt.widgets.column_widths import ColumnWidths

# Given up, in this order, when the pane is narrow: the steps of the arithmetic, then what the
# ranked list beside the table already shows (the id, the grade) and CG. Rank, DCG, IDCG and NDCG stay.
OPTIONAL = ("contribution", "discount", "gain", "ideal_grade", "doc", "cg", "grade")


class MetricsView(QTableView):
    def __init__(self, model: MetricsTableModel) -> None:
        super().__init__()
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTabKeyNavigation(False)  # Tab moves to the next pane, not cell by cell
        self.setTextElideMode(self.textElideMode().ElideMiddle)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = self.horizontalHeader()
        bold = self.font()
        bold.setBold(True)
        self.narrowest = max(QFontMetrics(bold).horizontalAdvance("0.0000"),
                             self.fontMetrics().horizontalAdvance("Ideal gr.")) + 6
        header.setMinimumSectionSize(self.narrowest)
        header.setSectionResizeMode(QHeaderView.Stretch)
        header.setSectionResizeMode(0, QHeaderView.Fixed)
        header.setSectionResizeMode(1, QHeaderView.Interactive)
        header.resizeSection(0, self.narrowest)
        header.resizeSection(1, self.fontMetrics().horizontalAdvance("FT401-0784") + 12)
        self.column_widths = ColumnWidths(self, "per rank")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        """Hide the optional columns, in order, that the width cannot hold."""
        header = self.horizontalHeader()
        names = [name for _, name, _ in COLUMNS]
        room = self.viewport().width()
        widths = {name: header.sectionSize(c) if c < 2 else self.narrowest for c, name in enumerate(names)}
        need = sum(widths.values())
        hidden = set()
        for name in OPTIONAL:
            if need <= room:
                break
            hidden.add(name)
            need -= widths[name]
        for column, name in enumerate(names):
            if header.isSectionHidden(column) != (name in hidden):
                header.setSectionHidden(column, name in hidden)
