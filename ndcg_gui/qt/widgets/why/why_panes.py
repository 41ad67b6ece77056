"""Why is this list's NDCG what it is, and what would raise it: the tabs under the plot, one table
each, the whole width of the pane.

- Per rank: the per-rank table (CG, DCG, IDCG, NDCG and the arithmetic of every cell).
- Ideal: the ideal ranking beside the list, rank by rank.
- Missed: the judged documents the list did not retrieve (drag one into the ranked list, or Enter:
  in at the rank where it raises NDCG@k most; Insert: at a rank asked for).
- What if: for each document, NDCG@k if it alone moved to rank 1 or to its best slot, and the loss
  at each rank.
- Best moves: the single moves that raise NDCG@k most (Apply makes one an undo step).
- Unjudged: the range NDCG@k could take once the unjudged documents are judged, and which of them
  to judge first.
- Definitions: the list under every preset beside the definition in use, with the reason for each
  difference (double-click one to use it), and which presets give a mean another tool printed.
- Why they differ: the walk from one preset to another, a choice at a time (a tab of its own: under
  the presets at 1366x768 its answer was cut at the pane's bottom).

The tab bar keeps its titles whole (`FittingTabBar`: where they do not all fit, those that do and a
"More" button that lists every tab; no scroll arrow).

What a double-click on a row does, Enter does too, and every row action is in the table's context
menu (`ReportView`): the keyboard reaches all of it.

Widgets only: the tables are models of the document's report; choices go to the document.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui.core.lists.numbers import format_grade, format_metric
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.models import report_tables
from ndcg_gui.qt.models.report_tables import ReportTable
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.widgets.column_widths import ColumnWidths
from ndcg_gui.qt.widgets.fitting_tabs import FittingTabBar
from ndcg_gui.qt.widgets.report_view import ReportView
from ndcg_gui.qt.widgets.why.difference_panel import DifferencePanel, scrolled
from ndcg_gui.qt.widgets.why.which_preset_box import WhichPresetBox

WIDEST_COLUMN = 34  # characters: a long id or reason is cut at its end beyond this


def table_view(model, drag: bool = False, name: str = "") -> ReportView:
    view = ReportView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectRows)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.ElideRight)  # (a number keeps its leading digits)
    view.setTabKeyNavigation(False)  # Tab moves to the next pane, not the next cell
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.Interactive)
    header.setStretchLastSection(True)
    header.setResizeContentsPrecision(100)
    widest = view.fontMetrics().horizontalAdvance("M" * WIDEST_COLUMN)
    view.column_widths = ColumnWidths(view, name)

    def fit() -> None:  # each column to what it holds (first rows measured), long text capped
        for column in range(model.columnCount()):
            view.resizeColumnToContents(column)
            if header.sectionSize(column) > widest:
                header.resizeSection(column, widest)
        view.column_widths.apply()  # what the person chose wins

    model.modelReset.connect(fit)
    fit()
    if drag:
        view.setDragEnabled(True)
        view.setDragDropMode(QAbstractItemView.DragOnly)
        view.setDefaultDropAction(Qt.CopyAction)
        view.setSelectionMode(QAbstractItemView.ExtendedSelection)
    return view


class _LastColumnFills(QObject):
    """Keeps a table's last column as wide as the room the others leave (at least `least` px),
    so its text wraps in view instead of running past the edge."""

    def __init__(self, view: QTableView, least: int = 160) -> None:
        super().__init__(view)
        self.view, self.least = view, least
        view.viewport().installEventFilter(self)
        view.model().modelReset.connect(self.fill)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fill()
        return False

    def fill(self) -> None:
        view = self.view
        last = view.model().columnCount() - 1
        if last < 1:
            return
        others = sum(view.columnWidth(c) for c in range(last))
        view.setColumnWidth(last, max(self.least, view.viewport().width() - others))


def _note() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return label


def _pane(note: QLabel, view: QTableView, *buttons: QPushButton, below: QWidget | None = None) -> QWidget:
    pane = QWidget()
    layout = QVBoxLayout(pane)
    layout.setContentsMargins(4, 4, 4, 4)
    layout.setSpacing(4)
    top = QHBoxLayout()
    top.addWidget(note, 1)
    for button in buttons:
        top.addWidget(button)
    layout.addLayout(top)
    layout.addWidget(view, 1)
    if below is not None:
        layout.addWidget(below)
    return pane


class WhyTabs(QTabWidget):
    """The per-rank table and the panes that explain it. `showRank(rank)` asks the window to select
    that rank of the ranked list; `judgeRank(rank)` to start editing its grade; `insertMissed(docs,
    row)` to put judged documents the list missed in before `row`."""

    showRank = Signal(int)
    judgeRank = Signal(int)
    insertMissed = Signal(list, int)

    def __init__(self, document: Document, metrics_view: QTableView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._doc = document
        self.setTabBar(FittingTabBar())  # (before any tab is added)
        self.setDocumentMode(True)
        self.ideal = report_tables.ideal_beside_actual(document)
        self.missed = report_tables.MissedTable(document)
        self.what_if = report_tables.what_if(document)
        self.moves = report_tables.best_moves(document)
        self.judge = report_tables.judge_first(document)
        self.definitions = report_tables.definitions(document)
        self.notes: dict[ReportTable, QLabel] = {}  # the line above each table, by its model
        self._models: dict[int, ReportTable] = {}

        self.ideal_view = table_view(self.ideal, name="ideal")
        self.ideal_view.add_row_action("Show this rank in the list", lambda row: self.showRank.emit(row + 1),
                                       default=True)
        self.ideal_view.add_row_action("Find the ideal document in the list", self.find_ideal_document)
        self.missed_view = table_view(self.missed, drag=True, name="missed")
        self.missed_view.add_row_action("Insert into list at its best rank", self.insert_missed, default=True,
                                        tip="Where it raises NDCG@k most (one undo step)")
        self.missed_view.add_row_action("Insert into list at rank…", self.insert_missed_at, keys=("Ins",))
        self.what_if_view = table_view(self.what_if, name="what if")
        self.what_if_view.add_row_action("Find this document in the list",
                                         lambda row: self.showRank.emit(row + 1), default=True)
        self.moves_view = table_view(self.moves, name="best moves")
        self.moves_view.add_row_action("Make this move", self.apply_move, default=True)
        self.apply_button = QPushButton("Apply best move")
        self.apply_button.setToolTip("Make the best single move (one undo step)")
        self.apply_button.clicked.connect(lambda: self.apply_move(0))
        self.judge_view = table_view(self.judge, name="unjudged")
        self.judge_view.add_row_action("Grade this document…",
                                       lambda row: self.judgeRank.emit(int(self.judge.text(row, 0))),
                                       default=True)
        self.definitions_view = view = table_view(self.definitions, name="definitions")
        view.add_row_action("Use this definition", self.apply_definition, default=True)
        # "Why it differs" is the point of the tab: its reasons wrap within the column's width
        # (elided in the middle, "same figure: negative grad…— makes no d" said nothing).
        view.setWordWrap(True)
        view.setTextElideMode(Qt.ElideNone)
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(False)
        self._fills = _LastColumnFills(view)
        # Another tool's mean: which presets give it (under the presets it names).
        self.which = WhichPresetBox(document)

        self.addTab(metrics_view, "Per rank")
        self.setTabToolTip(0, "CG, DCG, IDCG and NDCG at every rank; hover a cell for its arithmetic")
        for title, view, model, tip, buttons in (
            ("Ideal", self.ideal_view, self.ideal, "The ideal order beside the list, rank by rank", ()),
            ("Missed", self.missed_view, self.missed, "The judged documents the list did not retrieve", ()),
            ("What if", self.what_if_view, self.what_if, "What moving one document would do to NDCG@k", ()),
            ("Best moves", self.moves_view, self.moves, "The single moves that raise NDCG@k most",
             (self.apply_button,)),
            ("Unjudged", self.judge_view, self.judge,
             "How far unjudged documents could move NDCG@k, and which to judge first", ()),
            ("Definitions", self.definitions_view, self.definitions,
             "This list's NDCG under every preset, and why they differ", ()),
        ):
            self.notes[model] = note = _note()
            below = self.which if model is self.definitions else None
            index = self.addTab(_pane(note, view, *buttons, below=below), title)
            self.setTabToolTip(index, tip)
            view.setAccessibleName(f"{title} table")  # (what a screen reader says on reaching it)
            view.setAccessibleDescription(tip)
            self._models[index] = model
        # The walk from one preset to another, a choice at a time: a tab of its own.
        self.difference = DifferencePanel(document)
        index = self.addTab(scrolled(self.difference), "Why they differ")
        self.setTabToolTip(index, "Why two presets' figures differ on this list, a choice at a time")
        self.currentChanged.connect(self._activate)
        document.changed.connect(self._follow)
        self._activate(self.currentIndex())

    def setTabToolTip(self, index: int, tip: str) -> None:
        """`tip` after the tab's whole title (the title may be cut on the tab)."""
        self.tabBar().set_about(index, tip)

    def _activate(self, index: int) -> None:
        """Only the table in view is built on each change (some cost tens of milliseconds)."""
        for tab, model in self._models.items():
            model.set_active(tab == index)
        self._follow(Changes())

    def _follow(self, _changes: Changes) -> None:
        """The line above the table in view: what it says of this list."""
        model = self._models.get(self.currentIndex())  # (None: the per-rank table, which has no note)
        if model is None:
            return
        note, report = self.notes[model], self._doc.report
        k = report.k
        if model is self.ideal:
            text = (f"The ideal ranking (every judged document, highest gain first) beside the list. "
                    f"IDCG@{k} is the DCG of its first {k}; Enter or double-click a row to find that rank "
                    "in the list.")
        elif model is self.missed:
            n = self.missed.rowCount()
            text = (f"<b>{n} judged document{'s' if n != 1 else ''} not in the list</b> (they count in "
                    "the ideal). Drag one into the ranked list to see what it would add (Enter: in at its "
                    "best rank; Ins: at a rank you choose)." if n else
                    "Every judged document is in the list." if report.list.has_pool else
                    "No qrels: only the list's own documents are known.")
        elif model is self.what_if:
            text = (f"NDCG@{k} if one document alone moved to rank 1 or to its best slot, and what each "
                    f"rank gives away against the ideal (the first {k} losses add up to IDCG@{k} − DCG@{k}).")
            if report.averaged_ties:
                text += " Tied scores are taken in list order here, their gains not shared."
        elif model is self.moves:
            moves = report.best_moves()
            gain = float(moves["delta"].iloc[0]) if len(moves) else 0.0
            self.apply_button.setEnabled(gain > 0)
            short = format_metric(report.summary.idcg - report.summary.dcg)
            text = (f"<b>Best single moves</b>: from rank → to rank (Enter or double-click one to make it). "
                    f"DCG@{k} is {short} short of IDCG@{k}." if gain > 0 else
                    f"<b>No single move raises NDCG@{k}</b>: the top {k} is as good as this list allows.")
        elif model is self.judge:
            if report.has_unjudged and not report.unjudged_range:
                text = ("With tied scores sharing their gains (ties: averaged) the range NDCG@k could "
                        "take is not worked out; the documents below are ranked with the ties broken in "
                        "list order.")
            elif report.has_unjudged:
                low, high, exact = report.bounds
                text = (f"<b>NDCG@{k} lies in [{format_metric(low)}, {format_metric(high)}]</b> whatever "
                        f"grades the unjudged documents get ({'exact' if exact else 'a safe enclosure'}); "
                        f"counted as 0 it is {format_metric(report.summary.ndcg)}. Judge first those whose "
                        "grade could move it most (Enter or double-click one to grade it).")
            else:
                text = f"Every document of the list is judged: NDCG@{k} is exact."
        else:
            text = ("This list under each definition tools use, why each differs from the first row; Enter "
                    "uses one (Ctrl+Z: back).")
        if len(report.list) and not (report.list.judged.any() or report.list.unretrieved):  # (no grades)
            self.apply_button.setEnabled(False)
            text = ("<b>No judgments</b>: the figures below are 0 for want of grades, not measured. Open "
                    "the run with its qrels (File ▸ Open run with qrels…) or type grades to score it.")
        if note.text() != text:
            note.setText(text)

    def apply_move(self, row: int) -> None:
        """Make best move number `row` (0: the best) as one undo step."""
        moves = self._doc.report.best_moves()
        if 0 <= row < len(moves) and moves["delta"].iloc[row] > 0:
            self._doc.move_to(int(moves["from_rank"].iloc[row]), int(moves["to_rank"].iloc[row]))

    def apply_definition(self, row: int) -> None:
        frame = self._doc.report.definitions
        if 0 <= row < len(frame):
            self._doc.set_measure(frame["measure"].iloc[row])

    def find_ideal_document(self, row: int) -> None:
        """Select, in the ranked list, the document at ideal rank row + 1 (if the list has it)."""
        ideal = self._doc.report.ideal
        if row < len(ideal) and int(ideal["list_rank"].iloc[row]):
            self.showRank.emit(int(ideal["list_rank"].iloc[row]))

    def _missed_picked(self, row: int) -> list[str]:
        """The missed documents selected, if the current one is among them; else the current one."""
        rows = sorted({i.row() for i in self.missed_view.selectionModel().selectedRows()})
        rows = rows if row in rows else [row]
        return [self.missed.text(r, 0) for r in rows if 0 <= r < self.missed.rowCount()]

    def _best_row(self, doc: str) -> int:
        """Where the missed document `doc` raises NDCG@k most (core.analysis.whatif.best_insert_row)."""
        from ndcg_gui.core.analysis.whatif import best_insert_row  # (pandas: not before the first paint)

        lst = self._doc.report.list
        return best_insert_row(lst.grades, lst.unretrieved[doc], self._doc.measure)

    def insert_missed(self, row: int) -> None:
        """The selected missed documents into the list, where the first raises NDCG@k most."""
        docs = self._missed_picked(row)
        if docs:
            self._insert(docs, self._best_row(docs[0]))

    def insert_missed_at(self, row: int) -> None:
        """The selected missed documents into the list at a rank the person types."""
        docs = self._missed_picked(row)
        if not docs:
            return
        lst = self._doc.report.list
        grade = lst.unretrieved[docs[0]]
        best = self._best_row(docs[0]) + 1
        what = docs[0] if len(docs) == 1 else f"{len(docs)} documents"
        rank, ok = dialogs.ask_number(
            self, "Insert into the list",
            f"Rank for {what} (grade {format_grade(grade)}; NDCG@{self._doc.k} gains most at rank {best}):",
            best, 1, len(lst) + 1)
        if ok:
            self._insert(docs, rank - 1)

    def _insert(self, docs: list[str], row: int) -> None:
        self.insertMissed.emit(docs, row)
        self.showRank.emit(row + 1)
