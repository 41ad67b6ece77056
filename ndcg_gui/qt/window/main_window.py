"""The main window: makes the editor, the headline, the plot, the metrics table and the query
dock around one `Document` and wires them, and keeps the title and status bar; where each sits is
`layout.py`'s. The work behind its actions is done by the controllers it makes (`Editing`,
`FileFlow`, `Exports`, `QueryBrowser`); the actions and menus are built in `actions.py`.

    +------------------------------------------------------------------------+
    | headline: NDCG@k, DCG@k, IDCG@k, k, definition, warnings               |
    +-----------+------------------+-----------------------------------------+
    | [queries] | ranked list      | curve plot                              |
    | (dock,    | (quick entry,    +-----------------------------------------+
    |  hidden   |  editable table) | per-rank metrics table                  |
    |  for one) |                  |                                         |
    +-----------+------------------+-----------------------------------------+
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QToolTip,
    QWidget,
)

from ndcg_gui import APP_NAME
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.comparison import RunComparison
from ndcg_gui.qt.document.comparison_ties import ComparisonTies
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.input_checks import InputChecks
from ndcg_gui.qt.document.loader import BackgroundLoader
from ndcg_gui.qt.document.query_scores import QueryScores
from ndcg_gui.qt.models.metrics_model import MetricsTableModel
from ndcg_gui.qt.models.ranking_model import RankingModel
from ndcg_gui.qt.widgets.editor.grades_box import GradesBox
from ndcg_gui.qt.widgets.editor.headline import Headline
from ndcg_gui.qt.widgets.editor.metrics_view import MetricsView
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.widgets.editor.status_counts import StatusCounts
from ndcg_gui.qt.widgets.guide import GuideDialog
from ndcg_gui.qt.widgets.learn.example_note import ExampleNote
from ndcg_gui.qt.widgets.load_progress import LoadProgress, TaskProgress
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot
from ndcg_gui.qt.widgets.queries.query_panel import QueryPanel
from ndcg_gui.qt.widgets.runs.comparison_pane import ComparisonPane
from ndcg_gui.qt.widgets.status_bar import StatusBar
from ndcg_gui.qt.widgets.why.checks_panel import ChecksPanel
from ndcg_gui.qt.window.actions import Actions, Commands, Place
from ndcg_gui.qt.window.colour_scheme import ColourScheme
from ndcg_gui.qt.window.comparison import RunCompare
from ndcg_gui.qt.window.editing import Editing
from ndcg_gui.qt.window.exports import Exports
from ndcg_gui.qt.window.feedback import Feedback
from ndcg_gui.qt.window.file_flow import FileFlow
from ndcg_gui.qt.window.layout import WindowLayout
from ndcg_gui.qt.window.learning import Learning
from ndcg_gui.qt.window.navigation import Navigation
from ndcg_gui.qt.window.query_browser import QueryBrowser
from ndcg_gui.qt.window.recovery import Recovery
from ndcg_gui.qt.window.segments import SegmentsFlow
from ndcg_gui.qt.window.settings_store import RecentFiles, restore_definition, save_definition


class MainWindow(WindowLayout, QMainWindow):
    def __init__(self, document: Document | None = None, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Not a child of the window: its undo stack must not signal into a window being destroyed.
        self.document = document or Document()
        self.settings = settings if settings is not None else QSettings()
        # Light or dark before anything is drawn (View ▸ Colours; the desktop's by default).
        self.colour_scheme = ColourScheme(self.settings, self)
        # No style sheet: it would route every table cell through QStyleSheetStyle (slower paints).
        self.setAcceptDrops(True)  # files dropped anywhere on the window are opened
        self._list_had_focus = False  # the list had the focus when a query's read greyed it

        # What the window shows.
        self.ranking_model = RankingModel(self.document, self)
        self.metrics_model = MetricsTableModel(self.document, self)
        self.ranking_view = RankingView(self.ranking_model)
        self.metrics_view = MetricsView(self.metrics_model)
        self.plot = CurvePlot(self.document)
        self.headline = Headline(self.document)
        self.example_note = ExampleNote(self.document)  # beside the headline while an example is open
        self.quick_entry = GradesBox(self.document)
        self.scores = QueryScores(self.document, self)
        self.query_panel = QueryPanel()
        self.comparison = RunComparison(self.document, self.scores, self)  # runs compared with the open one
        self.comparison_ties = ComparisonTies(self.document, self.comparison, self)  # verdicts, tie orders
        self.loader = BackgroundLoader(self.document.runner, parent=self)
        self.progress = LoadProgress(self.loader)
        self.scoring_progress = TaskProgress(
            self.scores.task, lambda name: f"{name}…",
            tip="The figures shown are the definition's before; Undo goes back to it and stops the job")
        self.comparison_progress = TaskProgress(  # (a run compared that DuckDB reads, scored again)
            self.comparison.task, lambda name: f"{name}…",
            tip="The figures shown are the definition's before; Undo goes back to it and stops the job")

        # The controllers behind the actions: each gets what it needs, not the window.
        self.setStatusBar(StatusBar(self))  # (long messages cut with "…", whole in the tooltip)
        feedback = Feedback(self, self.statusBar().showMessage, self.show_problem)
        say = feedback.status
        self.document.refused.connect(self.show_problem)
        self.files = FileFlow(self.document, self.scores, self.loader, RecentFiles(self.settings), feedback)
        self.editing = Editing(self.document, self.ranking_view, self.quick_entry, feedback,
                               self.files.maybe_discard)
        self.exports = Exports(self.document, self.plot, feedback, comparison=self.comparison)
        self.query_browser = QueryBrowser(self.document, self.scores, self.query_panel, feedback,
                                          comparison=self.comparison, ties=self.comparison_ties)
        self.quick_entry.returnPressed.connect(self.editing.apply_quick_list)
        self.recovery = Recovery(self.document, on_error=lambda message: say(f"⚠ {message}", 10000),
                                 parent=self)

        self._build_layout()
        # What in the file makes tools disagree: a tab of its own, its count in the title.
        self.input_checks = InputChecks(self.document, self)
        self.checks_panel = ChecksPanel(self.document, self.input_checks)
        self.why.addTab(self.checks_panel, "Checks")
        QWidget.setTabOrder(self.why.tabBar(), self.checks_panel.tree)  # (made last: else Tab ends there)
        self.navigation = Navigation(self.document, self.ranking_view, self.query_panel, self.query_dock,
                                     self.headline.k, self.scores, feedback)
        # Run comparison: a "Compare runs" tab beside the metrics while runs are compared.
        self.compare_pane = ComparisonPane()
        self.compare = RunCompare(self.document, self.comparison, self.compare_pane, self.right_tabs,
                                  feedback)
        self.compare.attach_files(self.files)  # (Compare runs without judgments… opens the first)
        self.headline.show_overlap(self.compare.query_overlap)  # (said instead of NDCG without judgments)
        self.segments = SegmentsFlow(self.document, feedback)  # File ▸ Open segments…
        self.guide: GuideDialog | None = None  # Help ▸ Guide, made when first asked for
        self.learning = Learning(self.document, self, self.settings, self.files.maybe_discard,
                                 (self.headline_dock, self.note_dock, self.right_tabs), self.why,
                                 self.example_note, self._show_note)
        self.example_note.asked.connect(self.learning.follow_note)
        place = Place(self, self.menuBar(), lambda bar: self.addToolBar(Qt.TopToolBarArea, bar), self.close,
                      self.about, self.show_guide)
        self.actions = Actions(place, Commands(self.document, self.editing, self.files, self.exports,
                                               self.navigation, self.compare, self.ranking_view, self.plot,
                                               self.query_dock, self.learning, self.colour_scheme,
                                               self.segments, self.files.notes, self.query_panel.table))
        self.why.showRank.connect(self.navigation.show_rank)
        self.why.judgeRank.connect(self.navigation.judge_rank)
        self.why.insertMissed.connect(self.ranking_model.insert_judged)
        self._name_for_assistive_tech()

        self.status_counts = StatusCounts(self.document)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.scoring_progress)
        self.statusBar().addPermanentWidget(self.comparison_progress)
        self.statusBar().addPermanentWidget(self.status_counts)
        self.ranking_model.editRejected.connect(self.show_problem)
        self.headline.definition.said.connect(lambda message: say(message, 10000))
        self.document.changed.connect(self._follow)
        self.files.opened.connect(lambda _path: self.ranking_view.setFocus())
        self.loader.task.started.connect(lambda _name: QTimer.singleShot(0, self, self._prepare_for_file))
        self.loader.task.finished.connect(self._load_ended)
        self.loader.task.progressed.connect(self._show_query_dock_early)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.loader.wait)
            app.aboutToQuit.connect(self.document.wait_reads)
            app.aboutToQuit.connect(self.scores.stop)
            app.aboutToQuit.connect(self.comparison.stop)
        self._restore_settings()
        self._follow(Changes(dataset=True))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, self._fit_list_pane)  # the splitter has its width now
        if not getattr(self, "_placed", False):
            self._placed = True
            # The frame's size is known once shown: fit again, unless a size was asked for since
            # (a screenshot's is a picture's, not a screen's).
            if self.size() == self._start_size:
                QTimer.singleShot(0, self, self._refit)

    # ---- what the person is told -----------------------------------------------------------------
    def show_problem(self, message: str) -> None:
        """A refused edit: said next to the cell being edited and in the status bar; the old value
        stays."""
        self.statusBar().showMessage(f"⚠ {message}", 8000)
        view = self.ranking_view
        index = view.currentIndex()
        if index.isValid() and view.isVisible():
            at = view.viewport().mapToGlobal(view.visualRect(index).bottomLeft())
            QToolTip.showText(at, f"⚠ {message}", view)

    def about(self) -> None:
        from ndcg_gui import __version__
        from ndcg_gui.qt.widgets.dialogs import show_info

        show_info(self, f"About {APP_NAME}",
                  f"{APP_NAME} {__version__}\n\nSee CG, DCG, IDCG and NDCG of a ranked list at every "
                  "rank, under a stated definition.")

    def show_guide(self) -> None:
        if self.guide is None:
            self.guide = GuideDialog(self)
        self.guide.show()
        self.guide.raise_()
        self.guide.activateWindow()

    def _prepare_for_file(self) -> None:
        """While a big file is read in the background (the GUI thread idle for seconds), do now
        what installing it would otherwise add to the one pass that shows it: the query panel's
        histogram plot (bench_queries --only big: that pass and the first paint after it are one
        frame, within the window's frame goal). The modules that score and explain a list are imported by the
        load's worker (`loader._Job.run`), not here: pandas among them, imported here it held the
        window for many frames as the file's job began."""
        if not self.loader.is_loading():  # a small file, read and shown already
            return

        # In a frame of its own (a timer lets input in between; a zero one would not).
        histogram = self.query_panel.histogram
        QTimer.singleShot(10, self, lambda: self.loader.is_loading() and histogram.plot_widget())

    def _show_query_dock_early(self, _fraction: float = 0.0) -> None:
        """A run DuckDB reads holds many queries: their dock laid out while it works (showing the
        queries of the document open until then), not in the frame that installs them (a big
        share of it); once the job tells its progress (DuckDB imported: the import holds the GIL)."""
        if self.loader.reading_by_engine() and not self.query_dock.isVisible():
            self.query_dock.setVisible(True)
            if not getattr(self, "_dock_restored", False):
                self._size_query_dock()

    def _load_ended(self, _result) -> None:
        """A load ended (shown, failed or cancelled): the dock as the document open needs it."""
        self._show_query_dock()

    # ---- following the document ----------------------------------------------------------------
    def _follow(self, changes: Changes) -> None:
        if changes.dataset:
            self._show_query_dock()
        if changes.comparison is not None:
            self._widen_query_dock(changes.comparison)
        self._update_title()
        if changes.reading:
            self._show_reading()
        if changes.problem is not None:
            self.show_problem(changes.problem)
        lst, doc = self.document.current_list(), self.document
        hint = None
        if not len(lst) and doc.path is not None:  # a query of a file that the run left empty
            hint = f"The run returned no document for query {doc.current_query}."
            if lst.unretrieved:
                n = len(lst.unretrieved)
                hint += (f" Its {n} judged document{'s are' if n > 1 else ' is'} in the Missed tab: drag "
                         "one here to see what it would add.")
        self.ranking_view.set_empty_hint(hint)

    def _show_reading(self) -> None:
        """While a picked query's list is read (a run DuckDB reads where it lies), the list on
        screen, another query's, and its per-rank table are greyed (the list takes no drag); the
        status bar says what is read."""
        view, reading = self.ranking_view, self.document.reading
        self.metrics_view.setEnabled(reading is None)  # (its figures: the list on screen's)
        if reading is not None:
            self._list_had_focus = self._list_had_focus or view.hasFocus()
            view.setEnabled(False)
            self.statusBar().showMessage(f"Reading query {reading}…")
            return
        view.setEnabled(True)
        if self._list_had_focus:  # (disabling it moved the focus on: back where it was)
            view.setFocus()
        self._list_had_focus = False
        if self.statusBar().currentMessage().startswith("Reading query "):
            self.statusBar().clearMessage()

    def _update_title(self) -> None:
        doc = self.document
        query = f" — query {doc.current_query}" if doc.query_count() > 1 else ""
        self.setWindowTitle(f"{doc.display_name}[*]{query} — {APP_NAME}")
        self.setWindowModified(not doc.is_clean())

    # ---- window state --------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self._place_first()
        self.fit_on_screen()
        self._start_size = self.size()
        state = s.value("window/state")  # the query dock's width and place
        saved = isinstance(state, QByteArray) and not state.isEmpty()
        if saved:
            self.restoreState(state)
        # The dock's width was the person's only if it showed in the session that saved it.
        self._dock_restored = saved and s.value("window/queryDockShown", False, type=bool)
        for splitter in (self.main_splitter, self.right_splitter):
            state = s.value(f"window/{splitter.objectName()}")
            if isinstance(state, QByteArray) and not state.isEmpty():
                splitter.restoreState(state)
        # Said in the headline while it stands: a k kept silently disagreed with ndcg-inspect.
        self.headline.set_kept(restore_definition(s, self.document))
        for memory in self._column_widths():
            memory.load(s.value(f"columns/{memory.name}"))

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/queryDockShown", self.query_dock.isVisible())
        for splitter in (self.main_splitter, self.right_splitter):
            s.setValue(f"window/{splitter.objectName()}", splitter.saveState())
        save_definition(s, self.document)
        for memory in self._column_widths():
            s.setValue(f"columns/{memory.name}", memory.to_text())
        self.files.recent.save()
        s.sync()

    def _column_widths(self) -> list:
        """The tables whose column widths a person may set, each remembered on its own."""
        views = [self.ranking_view, self.metrics_view, self.why.ideal_view, self.why.missed_view,
                 self.why.what_if_view, self.why.moves_view, self.why.judge_view, self.why.definitions_view]
        return [view.column_widths for view in views]

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.maybe_discard("closing"):
            event.ignore()
            return
        self.save_settings()
        self.recovery.discard()
        self.document.runner.stop()  # (a worker's late result has no window to show it in)
        # The history goes with the window, deleted by its stack now. Its steps are Python objects
        # the C++ stack owns; left to the cycle collector (a closed window's objects are in cycles),
        # a step's wrapper may be cleared before the stack, which gives the step back to Python to
        # delete while the stack still lists it: a double delete at the interpreter's exit.
        self.document.undo_stack.clear()
        event.accept()

    def dragEnterEvent(self, event) -> None:
        if self.files.dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = self.files.dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.files.open_dropped(paths)
