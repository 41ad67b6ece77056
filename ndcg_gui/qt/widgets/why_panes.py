"""Why is this list's NDCG what it is, and what would raise it: the tabs under the plot.

- Per rank: the per-rank table (CG, DCG, IDCG, NDCG and the arithmetic of every cell).
- Ideal vs list: the ideal ranking beside the list, rank by rank, and the judged documents the list
  missed (drag one into the ranked list to put it there).
- What if: for each document, NDCG@k if it alone moved to rank 1 or to its best slot, the loss at
  each rank, and the best single moves (Apply makes one an undo step).
- Unjudged: the range NDCG@k could take once the unjudged documents are judged, and which of them
  to judge first.
- Definitions: the list under every preset beside the definition in use, with the reason for each
  difference (double-click one to use it).

Widgets only: the tables are models of the document's report; choices go to the document.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.numbers import format_metric
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models import report_tables
from ndcg_gui.qt.models.report_tables import ReportTable


def table_view(model, drag: bool = False, stretch: int = -1) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectRows)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTabKeyNavigation(False)  # Tab moves to the next pane, not the next cell
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.Interactive)
    header.setStretchLastSection(stretch < 0)
    if stretch >= 0:
        header.setSectionResizeMode(stretch, QHeaderView.Stretch)
    header.setDefaultSectionSize(view.fontMetrics().horizontalAdvance("0.00000") + 16)
    if drag:
        view.setDragEnabled(True)
        view.setDragDropMode(QAbstractItemView.DragOnly)
        view.setDefaultDropAction(Qt.CopyAction)
    return view


def _note(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return label


class WhyTabs(QTabWidget):
    """The per-rank table and the panes that explain it. `showRank(rank)` asks the window to select
    that rank of the ranked list; `judgeRank(rank)` to start editing its grade."""

    showRank = Signal(int)
    judgeRank = Signal(int)

    def __init__(self, document: Document, metrics_view: QTableView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.setDocumentMode(True)
        self.ideal = report_tables.ideal_beside_actual(document)
        self.missed = report_tables.MissedTable(document)
        self.what_if = report_tables.what_if(document)
        self.moves = report_tables.best_moves(document)
        self.judge = report_tables.judge_first(document)
        self.definitions = report_tables.definitions(document)
        self._models: dict[int, list[ReportTable]] = {}

        self.addTab(metrics_view, "Per rank")
        self._add(self._ideal_pane(), "Ideal vs list", [self.ideal, self.missed])
        self._add(self._what_if_pane(), "What if", [self.what_if, self.moves])
        self._add(self._unjudged_pane(), "Unjudged", [self.judge])
        self._add(self._definitions_pane(), "Definitions", [self.definitions])
        self.setTabToolTip(0, "CG, DCG, IDCG and NDCG at every rank; hover a cell for its arithmetic")
        self.setTabToolTip(1, "The ideal order beside the list, and the judged documents the list missed")
        self.setTabToolTip(2, "What single moves would do to NDCG@k, and the best of them")
        self.setTabToolTip(3, "How far unjudged documents could move NDCG@k, and which to judge first")
        self.setTabToolTip(4, "This list's NDCG under every preset, and why they differ")
        self.currentChanged.connect(self._activate)
        document.changed.connect(self._follow)
        self._activate(self.currentIndex())

    def _add(self, pane: QWidget, title: str, models: list[ReportTable]) -> None:
        self._models[self.addTab(pane, title)] = models

    def _activate(self, index: int) -> None:
        """Only the tables in view are built on each change (some cost tens of milliseconds)."""
        for tab, models in self._models.items():
            for model in models:
                model.set_active(tab == index)
        self._follow(Changes())

    def _follow(self, _changes: Changes) -> None:
        current = self.currentIndex()
        if current == 2:
            self._show_best()
        elif current == 3:
            self._show_bounds()
        elif current == 1:
            self._show_missed()

    # ---- Ideal vs list -------------------------------------------------------------------------
    def _ideal_pane(self) -> QWidget:
        self.ideal_view = table_view(self.ideal, stretch=3)
        self.ideal_view.doubleClicked.connect(lambda index: self.showRank.emit(index.row() + 1))
        self.missed_view = table_view(self.missed, drag=True, stretch=0)
        self.missed_view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.missed_note = _note()
        right = QWidget()
        layout = QVBoxLayout(right)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.missed_note)
        layout.addWidget(self.missed_view, 1)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.ideal_view)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        return split

    def _show_missed(self) -> None:
        n = self.missed.rowCount()
        self.missed_note.setText(
            f"<b>{n} judged document{'s' if n != 1 else ''} not in the list</b>. Drag one into the "
            "ranked list to see what it would add." if n else
            "Every judged document is in the list." if self._doc.current_list().has_pool else
            "No qrels: only the list's own documents are known.")

    # ---- What if -------------------------------------------------------------------------------
    def _what_if_pane(self) -> QWidget:
        self.what_if_view = table_view(self.what_if, stretch=1)
        self.what_if_view.doubleClicked.connect(lambda index: self.showRank.emit(index.row() + 1))
        self.moves_view = table_view(self.moves, stretch=0)
        self.moves_view.doubleClicked.connect(lambda index: self.apply_move(index.row()))
        self.best_note = _note()
        self.apply_button = QPushButton("Apply best move")
        self.apply_button.setToolTip("Make the best single move (one undo step)")
        self.apply_button.clicked.connect(lambda: self.apply_move(0))
        right = QWidget()
        layout = QVBoxLayout(right)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.best_note)
        layout.addWidget(self.moves_view, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.apply_button)
        layout.addLayout(row)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.what_if_view)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        return split

    def _show_best(self) -> None:
        report = self._doc.report
        moves = report.best_moves()
        gain = float(moves["delta"].iloc[0]) if len(moves) else 0.0
        self.apply_button.setEnabled(gain > 0)
        loss = report.summary.idcg - report.summary.dcg
        self.best_note.setText(
            f"<b>Best single moves</b> (double-click one to make it). DCG@{report.k} is "
            f"{format_metric(loss)} short of IDCG@{report.k}." if gain > 0 else
            "<b>No single move raises NDCG@k</b>: the top k is as good as this list allows.")

    def apply_move(self, row: int) -> None:
        """Make best move number `row` (0: the best) as one undo step."""
        moves = self._doc.report.best_moves()
        if 0 <= row < len(moves) and moves["delta"].iloc[row] > 0:
            self._doc.move_to(int(moves["from_rank"].iloc[row]), int(moves["to_rank"].iloc[row]))

    # ---- Unjudged ------------------------------------------------------------------------------
    def _unjudged_pane(self) -> QWidget:
        self.bounds_note = _note()
        self.judge_view = table_view(self.judge, stretch=1)
        self.judge_view.doubleClicked.connect(
            lambda index: self.judgeRank.emit(int(self.judge.text(index.row(), 0))))
        pane = QWidget()
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.bounds_note)
        layout.addWidget(self.judge_view, 1)
        return pane

    def _show_bounds(self) -> None:
        report = self._doc.report
        if not report.has_unjudged:
            self.bounds_note.setText("Every document of the list is judged: NDCG@k is exact.")
            return
        low, high, exact = report.bounds
        k = report.k
        self.bounds_note.setText(
            f"<b>NDCG@{k} lies in [{format_metric(low)}, {format_metric(high)}]</b> whatever grades the "
            f"unjudged documents get ({'exact' if exact else 'a safe enclosure'}); counted as 0 it is "
            f"{format_metric(report.summary.ndcg)}. Judge first the documents whose grade could move "
            "it most (double-click one to grade it).")

    # ---- Definitions ---------------------------------------------------------------------------
    def _definitions_pane(self) -> QWidget:
        self.definitions_view = table_view(self.definitions, stretch=5)
        self.definitions_view.doubleClicked.connect(lambda index: self.apply_definition(index.row()))
        pane = QWidget()
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(_note("The same list under each definition tools use. Double-click a row to use "
                               "that definition (undoable)."))
        layout.addWidget(self.definitions_view, 1)
        return pane

    def apply_definition(self, row: int) -> None:
        frame = self._doc.report.definitions
        if 0 <= row < len(frame):
            ties = frame["ties"].iloc[row]
            self._doc.set_definition(config=frame["config"].iloc[row],
                                     ties=ties if ties in ("trec", "file", "average") else None)

