"""The "Compare runs" pane: which run is the baseline and which is put against it, the comparison's
figures (a row per run, each header saying how its figure was made), the scatter of their
per-query NDCG with how the figures were made in words, and the open query's two lists side by
side with its biggest moves in words.
Lays things out and forwards choices; the words come from the caller (the core's)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.qt.models.run_diff_model import RunDiffModel
from ndcg_gui.qt.widgets.plot.run_scatter import RunScatter
from ndcg_gui.qt.widgets.run_lines import RunLines

LEGEND = ("Lines join each document's ranks: <span style='color:#15803d'>green</span> rose in the "
          "right-hand run, <span style='color:#b91c1c'>red</span> fell, grey kept its rank; thick: "
          "relevant (grade in the box, ? unjudged); ○ and <i>italics</i>: retrieved by one run only.")


# Narrower than this, the scatter goes above the two lists: side by side each had ~170 px at
# 1024 px, and the lists showed three rows of cut ids.
NARROW = 480
STATS_ROWS = 6  # the figures' table shows this many runs before it scrolls


def _small(text: str = "", rich: bool = False) -> QLabel:
    label = QLabel(text, wordWrap=True, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 0.9)
    label.setFont(font)
    label.setStyleSheet("color: #4b5563")
    return label


class ComparisonPane(QWidget):
    baselineChosen = Signal(str)
    focusChosen = Signal(str)
    queryClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.baseline_combo = QComboBox(toolTip="The run every other run is compared with")
        self.focus_combo = QComboBox(toolTip="The run shown against the baseline in the plot, the "
                                             "histogram and the side-by-side lists")
        for combo in (self.baseline_combo, self.focus_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setMaximumWidth(260)
        self.baseline_combo.activated.connect(self._baseline_picked)
        self.focus_combo.activated.connect(self._focus_picked)
        choose = QHBoxLayout()
        choose.addWidget(QLabel("Baseline:"))
        choose.addWidget(self.baseline_combo)
        choose.addSpacing(12)
        choose.addWidget(QLabel("against:"))
        choose.addWidget(self.focus_combo)
        choose.addStretch(1)

        self.scatter = RunScatter()
        self.scatter.queryClicked.connect(self.queryClicked)
        self.method_text = QPlainTextEdit(readOnly=True)
        self.method_text.setToolTip("How each figure of the comparison was computed: enough to reproduce it")
        font = self.method_text.font()
        font.setPointSizeF(font.pointSizeF() * 0.85)
        self.method_text.setFont(font)
        self.method_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.method_text.setTabChangesFocus(True)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        self.hint = hint = _small("One point per query; above the diagonal the run beats the baseline. "
                                  "Click a point to open its query.")
        # The figures themselves, a row per run (headers' tooltips say how each was made).
        self.stats = QTableWidget(0, 0, editTriggers=QAbstractItemView.EditTrigger.NoEditTriggers,
                                  selectionMode=QAbstractItemView.SelectionMode.NoSelection)
        self.stats.verticalHeader().hide()
        self.stats.setToolTip("The comparison's figures; each header's tooltip says how it was made")
        self.stats.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        left_layout.addWidget(hint)
        left_layout.addWidget(self.scatter, 3)
        left_layout.addWidget(self.method_text, 2)

        self.diff_model = RunDiffModel(self)
        self.lines = RunLines(self.diff_model)
        self.lines_title = QLabel(wordWrap=True)
        font = self.lines_title.font()
        font.setBold(True)
        self.lines_title.setFont(font)
        self.legend = _small(LEGEND, rich=True)
        self.lines_title.setToolTip(LEGEND)
        scroll = QScrollArea()
        scroll.setWidget(self.lines)
        scroll.setWidgetResizable(True)
        # Sideways only when the pane is narrower than the ids need (RunLines.minimumSizeHint).
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.moves_label = QLabel(wordWrap=True,
                                  textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.lines_title)
        right_layout.addWidget(self.legend)
        right_layout.addWidget(scroll, 1)
        right_layout.addWidget(self.moves_label)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        for widget, name in ((self.baseline_combo, "Baseline run"),
                             (self.focus_combo, "Run against the baseline"),
                             (self.scatter, "NDCG of the baseline against the other run, per query"),
                             (self.lines, "The open query in both runs, side by side"),
                             (self.method_text, "How each figure was made")):
            widget.setAccessibleName(name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(choose)
        layout.addWidget(self.stats)  # the whole pane's width: nine columns
        layout.addWidget(self.splitter, 1)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        narrow = self.width() < NARROW
        orientation = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            # Narrow, the method's text and the legend give their room to the plot and the lists
            # (they stay as tooltips: the hint's, the lists' title's).
            self.method_text.setVisible(not narrow)
            self.legend.setVisible(not narrow)
            extent = self.splitter.height() if narrow else self.splitter.width()
            self.splitter.setSizes([extent // 3, extent - extent // 3])

    @property
    def narrow(self) -> bool:
        return self.splitter.orientation() == Qt.Orientation.Vertical

    def _baseline_picked(self, index: int) -> None:
        self.baselineChosen.emit(self.baseline_combo.itemData(index))

    def _focus_picked(self, index: int) -> None:
        self.focusChosen.emit(self.focus_combo.itemData(index))

    # ---- feeding ---------------------------------------------------------------------------
    def set_runs(self, names: Sequence[str], baseline: str, focus: str | None) -> None:
        """The runs to choose from; the baseline's combo lists every run, the other every run but
        the baseline. Nothing is announced."""
        for combo, items, current in ((self.baseline_combo, list(names), baseline),
                                      (self.focus_combo, [n for n in names if n != baseline], focus)):
            combo.blockSignals(True)
            combo.clear()
            for name in items:
                combo.addItem(name, name)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)

    def set_summary(self, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]) -> None:
        """The figures (`core.run_diff.summary_cells`): (header, how it was made) per column and a
        row of cells per run, the baseline first."""
        table = self.stats
        table.setColumnCount(len(columns))
        table.setRowCount(len(rows))
        for c, (header, how) in enumerate(columns):
            item = QTableWidgetItem(header)
            item.setToolTip(how)
            table.setHorizontalHeaderItem(c, item)
        for r, cells in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(r, c, item)
        table.resizeColumnsToContents()
        # As tall as its rows up to STATS_ROWS runs (more scroll), and room for the scroll bar a
        # narrow pane needs to reach the columns on the right.
        table.resizeRowsToContents()
        rows_height = sum(table.rowHeight(r) for r in range(min(len(rows), STATS_ROWS)))
        header = table.horizontalHeader().sizeHint().height()
        bar = table.horizontalScrollBar().sizeHint().height()
        table.setFixedHeight(header + rows_height + bar + 2 * table.frameWidth())

    def set_method(self, method: str) -> None:
        """How each figure of the comparison was computed (`Comparison.describe`)."""
        self.method_text.setPlainText(method)
        self.hint.setToolTip(method)

    def set_moves(self, title: str, moves: Sequence[str]) -> None:
        self.lines_title.setText(title)
        if moves:
            self.moves_label.setText("Biggest moves:\n" + "\n".join(f"• {m}" for m in moves))
        else:
            self.moves_label.setText("No document changed rank.")
