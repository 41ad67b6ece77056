"""The list on screen under two definitions side by side (linear and exponential gain first, or
any two presets): both per-rank tables, the ranks whose own term differs marked (≠ and a shade),
and the way to the walk from one definition to the other, a choice at a time (its own tab)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.lists.numbers import format_grade, format_metric
from ndcg_gui.core.ndcg.presets import PRESETS
from ndcg_gui.core.teaching.side_by_side import SideBySide, choices, side_by_side
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models.colours import current
from ndcg_gui.qt.widgets.scheme import FollowsScheme

HEADERS = ("", "Rank", "Grade", "Gain", "Discount", "DCG", "IDCG", "NDCG")


class TwoDefinitionsDialog(FollowsScheme, QDialog):
    """`walk(a, b)`: show the walk between presets a and b (None: as it is), in its tab."""

    walk = Signal(object, object)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.setWindowTitle("Two definitions side by side")
        self.setModal(False)
        self.a, self.b = QComboBox(), QComboBox()
        self.a.setAccessibleName("First definition")
        self.b.setAccessibleName("Second definition")
        self.tables = (_table(), _table())
        for table, which in zip(self.tables, ("first", "second"), strict=True):
            table.setAccessibleName(f"The list under the {which} definition")
        self.titles = (QLabel(), QLabel())
        self.summary = QLabel(wordWrap=True)
        self.walk_button = QPushButton("&Walk from one to the other")
        self.walk_button.clicked.connect(self._walk)
        self.result: SideBySide | None = None
        row = QHBoxLayout()
        row.addWidget(QLabel("This list under"))
        row.addWidget(self.a)
        row.addWidget(QLabel("and"))
        row.addWidget(self.b)
        row.addStretch(1)
        row.addWidget(self.walk_button)
        sides = QHBoxLayout()
        for title, table in zip(self.titles, self.tables, strict=True):
            column = QVBoxLayout()
            column.addWidget(title)
            column.addWidget(table, 1)
            sides.addLayout(column)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addLayout(sides, 1)
        if parent is not None:
            self.resize(min(1000, parent.width() - 40), min(560, parent.height() - 40))
        self._fill_choices()
        self.a.currentIndexChanged.connect(self.refresh)
        self.b.currentIndexChanged.connect(self.refresh)
        document.changed.connect(self._follow)
        self.follow_scheme()

    def restyle(self) -> None:
        self.refresh()

    def _fill_choices(self) -> None:
        self._choices = choices(self._doc.measure)
        for box, start in ((self.a, "linear gain"), (self.b, "exponential gain")):
            box.blockSignals(True)
            current = box.currentText() or start
            box.clear()
            box.addItems(list(self._choices))
            box.setCurrentText(current)
            box.blockSignals(False)

    def choose(self, a: str, b: str) -> None:
        self.a.setCurrentText(a)
        self.b.setCurrentText(b)

    def _follow(self, changes: Changes) -> None:
        if changes.definition:
            self._fill_choices()
        self.refresh()

    def refresh(self, _index: int = 0) -> None:
        a, b = self.a.currentText(), self.b.currentText()
        self.result = both = side_by_side(self._doc.current_list(), (a, self._choices[a]),
                                          (b, self._choices[b]))
        for title, table, side in zip(self.titles, self.tables, (both.a, both.b), strict=True):
            title.setText(f"<b>{side.name}</b>: NDCG@{side.summary.k} = {side.summary.ndcg:.4f}<br>"
                          f"<small>{side.measure.describe()}</small>")
            title.setWordWrap(True)
            _fill(table, side.table, both.differs)
        self.summary.setText(both.text() + " (marked ≠).")
        gains = {a, b} == {"linear gain", "exponential gain"}
        self.walk_button.setEnabled((a in PRESETS and b in PRESETS) or gains)

    def _walk(self) -> None:
        a, b = self.a.currentText(), self.b.currentText()
        self.walk.emit(a if a in PRESETS else None, b if b in PRESETS else None)


def _table() -> QTableWidget:
    table = QTableWidget(0, len(HEADERS))
    table.setHorizontalHeaderLabels(list(HEADERS))
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.setTabKeyNavigation(False)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
    return table


def _fill(table: QTableWidget, frame, differs) -> None:
    table.setRowCount(len(frame))
    for row in range(len(frame)):
        mark = "≠" if differs[row] else ""
        cells = [mark, str(row + 1), format_grade(float(frame["grade"].iat[row]))]
        cells += [format_metric(float(frame[c].iat[row]))
                  for c in ("gain", "discount", "dcg", "idcg", "ndcg")]
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter if column > 0 else Qt.AlignCenter)
            if differs[row]:
                item.setBackground(current().brush("differs"))
                item.setToolTip("This rank's term (gain × discount, or the ideal's) differs between the two")
            table.setItem(row, column, item)
