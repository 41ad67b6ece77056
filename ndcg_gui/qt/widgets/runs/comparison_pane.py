"""The "Compare runs" pane: which run is the baseline and which is put against it, the comparison's
figures (a row per run, each header saying how its figure was made), the scatter of their
per-query NDCG with how the figures were made in words, and the open query's two lists side by
side with its biggest moves in words.
Lays things out and forwards choices; the words come from the caller (the core's)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPainter, QPalette, QPen
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

from ndcg_gui.qt.models.colours import Colours
from ndcg_gui.qt.models.colours import current as colours_now
from ndcg_gui.qt.models.run_diff_model import RunDiffModel
from ndcg_gui.qt.widgets.plot.run_scatter import RunScatter
from ndcg_gui.qt.widgets.runs.run_lines import RunLines
from ndcg_gui.qt.widgets.scheme import FollowsScheme, set_colour
from ndcg_gui.qt.widgets.wrapped_label import WrappedLabel


def legend(colours: Colours) -> str:
    """What the side-by-side lines say: each colour with the line's shape beside it."""
    return (f"Lines join each document's ranks: <span style='color:{colours.up}'>green, solid</span>: rose "
            f"in the right-hand run; <span style='color:{colours.down}'>red, dashed</span>: fell; grey, "
            "level: kept its rank; thick: relevant (grade in the box, ? unjudged); ○ and <i>italics</i>: "
            "one run only.")


# Narrower than this, the scatter goes above the two lists: side by side each had ~170 px at
# 1024 px, and the lists showed three rows of cut ids.
NARROW = 480
SCATTER_MIN = 200  # the scatter's narrowest beside the lists
STATS_ROWS = 6  # the figures' table shows this many runs before it scrolls
RUN_HEADER = 96  # the widest a run's name makes its column of figures (turned); longer names are cut


class FocusedScroll(QScrollArea):
    """A scroll area that the keyboard scrolls (a Tab stop: arrows, Page Up/Down) and that shows
    when it has the focus, a frame in the highlight colour: Fusion draws none for a scroll area."""

    def event(self, event) -> bool:
        handled = super().event(event)
        # (the frame's paint comes here; paintEvent paints the viewport, which covers the rest)
        if event.type() == QEvent.Type.Paint and self.hasFocus():
            painter = QPainter(self)
            width = max(2, self.frameWidth())
            painter.setPen(QPen(self.palette().color(QPalette.ColorRole.Highlight), width))
            inset, outset = width // 2, -(width + 1) // 2
            painter.drawRect(self.rect().adjusted(inset, inset, outset, outset))
            painter.end()
        return handled

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.update()


def _small(text: str = "", rich: bool = False, label: QLabel | None = None) -> QLabel:
    label = label if label is not None else QLabel(wordWrap=True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 0.9)
    label.setFont(font)
    label.setText(text)
    return label


class ComparisonPane(FollowsScheme, QWidget):
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
        choose.addWidget(QLabel("Baseline:", buddy=self.baseline_combo))  # (what a screen reader says)
        choose.addWidget(self.baseline_combo)
        choose.addSpacing(12)
        choose.addWidget(QLabel("against:", buddy=self.focus_combo))
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
        # Asking for the lines it takes at its width: a plain wrapping label's minimum is a line or
        # two less, and at 1366x768 the method's text was then laid over the scatter's x axis.
        self.hint = hint = _small("One point per query; above the diagonal the run beats the baseline. "
                                  "Click a point to open its query.", label=WrappedLabel(max_lines=4))
        # The figures themselves, a row per run (headers' tooltips say how each was made).
        self.stats = QTableWidget(0, 0, editTriggers=QAbstractItemView.EditTrigger.NoEditTriggers,
                                  selectionMode=QAbstractItemView.SelectionMode.NoSelection)
        self.stats.verticalHeader().hide()
        self.stats.setTabKeyNavigation(False)  # Tab moves to the next pane, not cell by cell
        self.stats.setToolTip("The comparison's figures; each header's tooltip says how it was made")
        self.stats.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # A run's name cut in its middle where its column is narrower (run_bm25_…_v2): the ends
        # tell runs apart; whole in the header's tooltip.
        self.stats.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideMiddle)
        left_layout.addWidget(hint)
        left_layout.addWidget(self.scatter, 3)
        left_layout.addWidget(self.method_text, 2)

        self.diff_model = RunDiffModel(self)
        self.lines = RunLines(self.diff_model)
        for signal in (self.diff_model.modelReset, self.diff_model.dataChanged):
            signal.connect(self._lines_changed)
        self.lines_title = WrappedLabel(max_lines=2)  # (long run names: cut, whole in the tooltip)
        font = self.lines_title.font()
        font.setBold(True)
        self.lines_title.setFont(font)
        self.legend = _small(legend(colours_now()), rich=True)
        self.lines_scroll = scroll = FocusedScroll()
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
                             (scroll, "The open query in both runs, side by side"),
                             (self.method_text, "How each figure was made"),
                             (self.stats, "The comparison's figures, a row or column per run")):
            widget.setAccessibleName(name)
        # Everything in a scroll area: a short window (1024x700) scrolls the pane rather than
        # growing past the screen's bottom edge.
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(choose)
        layout.addWidget(self.stats)  # the whole pane's width (a column per figure), or turned
        layout.addWidget(self.splitter, 1)
        self.scroll = QScrollArea(widgetResizable=True, frameShape=QScrollArea.Shape.NoFrame)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # (a Tab stop that shows no focus)
        self.scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll)
        self._summary: tuple[list[tuple[str, str]], list[list[str]]] = ([], [])
        self._wide_width: int | None = None  # the figures' width a row per run
        self._turned = False
        self.follow_scheme()

    def restyle(self) -> None:
        colours = colours_now()
        for label in (self.hint, self.legend):
            set_colour(label, QPalette.ColorRole.WindowText, colours.muted)
        self.legend.setText(legend(colours))
        self._title_tip()

    def _lines_need(self) -> int:
        """The width the side-by-side lists need to show their ids whole, scroll bar and frame."""
        bar = self.lines_scroll.verticalScrollBar().sizeHint().width()
        return self.lines.minimumSizeHint().width() + bar + 2 * self.lines_scroll.frameWidth()

    def _lines_changed(self) -> None:
        """Side by side, the lists' side of the splitter keeps the width their ids need (the
        plot gives way); stacked, they scroll sideways when the pane is narrower."""
        self.lines_scroll.setMinimumWidth(0 if self.narrow else self._lines_need())
        self._arrange()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._arrange()

    def _arrange(self) -> None:
        # Side by side only when the scatter keeps SCATTER_MIN beside the lists' ids whole.
        narrow = self.width() < max(NARROW, SCATTER_MIN + self._lines_need() + 24)
        orientation = Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            # Narrow, the method's text, the legend and the biggest moves give their room to the
            # plot and the lists (they stay as tooltips: the hint's, the lists' title's).
            self.method_text.setVisible(not narrow)
            self.legend.setVisible(not narrow)
            self.moves_label.setVisible(not narrow)
            self._title_tip()
            self.lines_scroll.setMinimumWidth(0 if narrow else self._lines_need())
            extent = self.splitter.height() if narrow else self.splitter.width()
            first = extent // 3 if narrow else max(SCATTER_MIN, extent - self._lines_need())
            self.splitter.setSizes([first, extent - first])
        self._show_summary()

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
        self._summary = ([tuple(c) for c in columns], [list(r) for r in rows])
        self._wide_width: int | None = None
        self._show_summary()

    def _show_summary(self) -> None:
        """A row per run when the pane is wide enough for every column whole; else turned, a
        row per figure and a column per run (nine figures side by side did not fit 1280 px)."""
        columns, rows = self._summary
        if not columns:
            return
        table = self.stats
        if self._wide_width is None:  # measured once for each summary
            self._wide_width = self._fill(table, columns, rows, turned=False)
            self._turned = False
        # (the pane's width, not its scroll area's: that one is laid out after this resize)
        room = self.width() - 12 - self.scroll.verticalScrollBar().sizeHint().width()
        turned = self._wide_width > room
        if turned != self._turned:
            width = self._fill(table, columns, rows, turned)
            if turned and width > room and width > self._wide_width:  # many runs: no better turned
                self._fill(table, columns, rows, turned=False)
                turned = False
            self._turned = turned
        # As tall as its rows up to STATS_ROWS runs (more scroll); turned, every figure shows.
        table.resizeRowsToContents()
        shown = table.rowCount() if turned else min(table.rowCount(), STATS_ROWS)
        rows_height = sum(table.rowHeight(r) for r in range(shown))
        header = table.horizontalHeader().sizeHint().height()
        # Room for a sideways scroll bar only when the figures are wider than the pane (it took the
        # height of a row of the side-by-side lists at 1366x768 less a title bar).
        wide = sum(table.columnWidth(c) for c in range(table.columnCount())) + 2 * table.frameWidth() > room
        bar = table.horizontalScrollBar().sizeHint().height() if wide else 0
        table.setFixedHeight(header + rows_height + bar + 2 * table.frameWidth())

    def figures(self, run: int) -> list[str]:
        """The cells of the figures of the `run`-th run (0: the baseline), however they are laid out."""
        table = self.stats
        if self._turned:
            return [table.horizontalHeaderItem(run + 1).text()] + [
                table.item(r, run + 1).text() for r in range(table.rowCount())]
        return [table.item(run, c).text() for c in range(table.columnCount())]

    def _fill(self, table: QTableWidget, columns: list[tuple[str, str]], rows: list[list[str]],
              turned: bool) -> int:
        """Put the figures in `table` (turned: a row per figure); returns the width it needs."""
        if turned:
            heads = [(columns[0][0], columns[0][1])] + [(r[0], f"Run {r[0]}") for r in rows]
            cells = [[header] + [r[c] for r in rows] for c, (header, _how) in enumerate(columns) if c]
            tips = [how for c, (_h, how) in enumerate(columns) if c]
        else:
            heads, cells, tips = columns, rows, []
        table.clear()
        table.setColumnCount(len(heads))
        table.setRowCount(len(cells))
        table.verticalHeader().hide()
        for c, (header, how) in enumerate(heads):
            item = QTableWidgetItem(header)
            item.setToolTip(how)
            table.setHorizontalHeaderItem(c, item)
        for r, row in enumerate(cells):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                elif turned:
                    item.setToolTip(tips[r])
                table.setItem(r, c, item)
        table.resizeColumnsToContents()
        if turned:
            # A run's column as wide as its figures, its name cut in the header beyond RUN_HEADER
            # pixels (whole in the tooltip): a 35-character run name pushed the next run's
            # column, and every figure of it, out of a 1024-pixel window.
            for c in range(1, table.columnCount()):
                figures = table.sizeHintForColumn(c)
                table.setColumnWidth(c, max(figures, min(table.columnWidth(c), RUN_HEADER)))
        return sum(table.columnWidth(c) for c in range(table.columnCount())) + 2 * table.frameWidth()

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
        self._title_tip()

    def _title_tip(self) -> None:
        """The lists' title explains the lines, and says the biggest moves while they are hidden."""
        moves = self.moves_label.text().replace("\n", "<br>")
        self.lines_title.setToolTip(legend(colours_now()) + (f"<br><br>{moves}" if self.narrow else ""))
