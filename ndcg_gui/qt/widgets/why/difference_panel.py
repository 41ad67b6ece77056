"""Why do two tools' figures differ on this list? Two presets picked, and the walk from one to the
other a choice at a time (`core.analysis.difference.explain_list`): what each step changes and
NDCG@k after it; the steps add up to the whole difference. Worked out only while it is in view."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.ndcg.presets import LABELS, PRESETS
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document

HEADERS = ["Step", "What changes", "NDCG@k after", "Change"]


class DifferencePanel(QWidget):
    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.a, self.b = QComboBox(), QComboBox()
        for box, start in ((self.a, "trec_eval"), (self.b, "sklearn")):
            for name in PRESETS:
                box.addItem(name, name)
                box.setItemData(box.count() - 1, LABELS[name], Qt.ItemDataRole.ToolTipRole)
            box.setCurrentIndex(box.findData(start))
            # As narrow as a short name: the preset names are long, the pane may not be.
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(6)
            box.currentIndexChanged.connect(self.refresh)
        self.a.setAccessibleName("First definition")
        self.b.setAccessibleName("Second definition")
        self.total = QLabel(wordWrap=True)
        self.table = QTableWidget(0, len(HEADERS))
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setTabKeyNavigation(False)  # Tab moves on, not cell by cell
        self.table.setAccessibleName("Why the two definitions differ, a choice at a time")
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setToolTip("Each step changes one choice from the first definition to the second, "
                              "keeping the ones before it: the changes add up to the whole difference")

        row = QHBoxLayout()
        row.addWidget(QLabel("Why do"))
        row.addWidget(self.a)
        row.addWidget(QLabel("and"))
        row.addWidget(self.b)
        row.addWidget(QLabel("differ?"))  # (short: the row fits a 1024 px window's pane)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.addLayout(row)
        layout.addWidget(self.total)
        layout.addWidget(self.table, 1)
        self._stale = True
        document.changed.connect(self._follow)

    def _follow(self, changes: Changes) -> None:
        if changes.shown_list(self._doc.current_query) or changes.definition:
            self._stale = True
            if self.isVisible():
                self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def refresh(self) -> None:
        self._stale = False
        a, b = self.a.currentData(), self.b.currentData()
        walk = self._doc.report.difference(a, b)
        steps = walk.steps
        moves = (steps["change"].abs() > 1e-12) | (steps.index == 0)  # choices that change the figure
        shown = steps[moves]
        idle = steps[~moves & (steps["changed"] != "")]
        self.table.setRowCount(len(shown))
        for r, row in enumerate(shown.itertuples()):
            texts = (f"as {a}" if row.Index == 0 else row.step, row.changed, f"{row.mean:.4f}",
                     "" if row.Index == 0 else f"{row.change:+.4f}")
            for c, text in enumerate(texts):
                item = QTableWidgetItem(text)
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        k = self._doc.k
        first, last = steps["mean"].iloc[0], steps["mean"].iloc[-1]
        said = f"NDCG@{k}: {first:.4f} under {a}, {last:.4f} under {b} ({last - first:+.4f})"
        if len(shown) == 1:
            said += ": no choice of theirs makes a difference here"
        if len(idle):
            said += ". Also differ, changing nothing on this list: " + "; ".join(idle["changed"])
        self.total.setText(said)
        self.table.resizeRowsToContents()


def scrolled(panel: QWidget) -> QScrollArea:
    """`panel` in a scroll area: it takes the height the tab has to spare and scrolls when short,
    never making the window taller than the screen allows (1024 x 700 with runs compared)."""
    area = QScrollArea()
    area.setWidget(panel)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # (a Tab stop that shows no focus: its boxes are stops)
    area.setMinimumHeight(3 * area.fontMetrics().lineSpacing())  # (a scroll area asks for ~70 px)
    return area
