"""The main window: lays out the editor, the headline, the plot, the metrics table and the query
dock around one `Document`, and keeps the title and status bar. The work behind its actions is
done by the controllers it makes (`Editing`, `FileFlow`, `Exports`, `QueryBrowser`); the actions
and menus are built in `actions.py`.

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
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTabWidget,
    QToolTip,
    QVBoxLayout,
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
from ndcg_gui.qt.widgets.checks_panel import ChecksPanel
from ndcg_gui.qt.widgets.comparison_pane import ComparisonPane
from ndcg_gui.qt.widgets.grades_box import GradesBox
from ndcg_gui.qt.widgets.guide import GuideDialog
from ndcg_gui.qt.widgets.headline import Headline
from ndcg_gui.qt.widgets.load_progress import LoadProgress
from ndcg_gui.qt.widgets.metrics_view import MetricsView
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot
from ndcg_gui.qt.widgets.query_panel import QueryPanel
from ndcg_gui.qt.widgets.ranking_view import RankingView
from ndcg_gui.qt.widgets.status_counts import StatusCounts
from ndcg_gui.qt.widgets.why_panes import WhyTabs
from ndcg_gui.qt.window.actions import Actions
from ndcg_gui.qt.window.comparison import RunCompare
from ndcg_gui.qt.window.editing import Editing
from ndcg_gui.qt.window.exports import Exports
from ndcg_gui.qt.window.feedback import Feedback
from ndcg_gui.qt.window.file_flow import FileFlow
from ndcg_gui.qt.window.navigation import Navigation
from ndcg_gui.qt.window.query_browser import QueryBrowser
from ndcg_gui.qt.window.recovery import Recovery
from ndcg_gui.qt.window.settings_store import RecentFiles, restore_definition, save_definition

QUERY_DOCK_WIDTH = 320
LIST_PANE_MIN = 320  # the list's pane at its narrowest as fitted (short ids): room to type grades
RIGHT_MIN = 430  # the plot and the tables' narrowest beside a query dock that grows
FIRST_SIZE = (1280, 800)  # the first window's size, less on a smaller screen (fit_on_screen)


def pane_title(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("paneTitle")
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    label.setContentsMargins(0, 2, 0, 2)
    label.setWordWrap(True)  # a narrow pane wraps the title rather than widening the window
    return label


class MainWindow(QMainWindow):
    def __init__(self, document: Document | None = None, settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Not a child of the window: its undo stack must not signal into a window being destroyed.
        self.document = document or Document()
        self.settings = settings if settings is not None else QSettings()
        # No style sheet: it would route every table cell through QStyleSheetStyle (slower paints).
        self.setAcceptDrops(True)  # files dropped anywhere on the window are opened

        # What the window shows.
        self.ranking_model = RankingModel(self.document, self)
        self.metrics_model = MetricsTableModel(self.document, self)
        self.ranking_view = RankingView(self.ranking_model)
        self.metrics_view = MetricsView(self.metrics_model)
        self.plot = CurvePlot(self.document)
        self.headline = Headline(self.document)
        self.quick_entry = GradesBox(self.document)
        self.scores = QueryScores(self.document, self)
        self.query_panel = QueryPanel()
        self.comparison = RunComparison(self.document, self.scores, self)  # runs compared with the open one
        self.comparison_ties = ComparisonTies(self.document, self.comparison, self)  # verdicts, tie orders
        self.loader = BackgroundLoader(parent=self)
        self.progress = LoadProgress(self.loader)

        # The controllers behind the actions: each gets what it needs, not the window.
        feedback = Feedback(self, self.statusBar().showMessage, self.show_problem)
        say = feedback.status
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
        self.actions = Actions(self, self.document, self.editing, self.files, self.exports, self.ranking_view,
                               self.plot, self.query_dock, self.about, self.navigation, compare=self.compare,
                               guide=self.show_guide)
        self.guide: GuideDialog | None = None  # Help ▸ Guide, made when first asked for
        self.why.showRank.connect(self.navigation.show_rank)
        self.why.judgeRank.connect(self.navigation.judge_rank)
        self.why.insertMissed.connect(self.ranking_model.insert_judged)
        self._name_for_assistive_tech()

        self.status_counts = StatusCounts(self.document)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.status_counts)
        self.ranking_model.editRejected.connect(self.show_problem)
        self.document.changed.connect(self._follow)
        self.files.opened.connect(lambda _path: self.ranking_view.setFocus())
        self.loader.started.connect(lambda _name: QTimer.singleShot(0, self, self._prepare_for_file))
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.loader.wait)
        self._restore_settings()
        self._follow(Changes(dataset=True))

    # ---- layout -----------------------------------------------------------------------------
    def _build_layout(self) -> None:
        editor = QWidget()
        editor_layout = QVBoxLayout(editor)
        editor_layout.setContentsMargins(6, 6, 0, 6)
        editor_layout.addWidget(pane_title("Ranked list — drag rows to reorder"))
        entry_row = QHBoxLayout()
        entry_row.addWidget(self.quick_entry, 1)
        use = QPushButton("Use")
        use.setToolTip(self.quick_entry.toolTip())
        use.clicked.connect(self.editing.apply_quick_list)
        entry_row.addWidget(use)
        editor_layout.addLayout(entry_row)
        self.row_kind = QComboBox()
        for text, kind in (("All rows", "all"), ("Relevant", "relevant"), ("Judged", "judged"),
                           ("Unjudged", "unjudged")):
            self.row_kind.addItem(text, kind)
        self.row_kind.setToolTip("Show only some rows of the list (F3 / Shift+F3 step through the relevant "
                                 "ones); ranks and figures stay those of the whole list")
        self.row_kind.setAccessibleName("Show rows")
        self.row_kind.currentIndexChanged.connect(
            lambda _i: self.ranking_view.show_kind(self.row_kind.currentData()))
        entry_row.addWidget(self.row_kind)
        editor_layout.addWidget(self.ranking_view, 1)

        self.why = WhyTabs(self.document, self.metrics_view)
        metrics = QWidget()
        metrics_layout = QVBoxLayout(metrics)
        metrics_layout.setContentsMargins(0, 0, 6, 6)
        metrics_layout.addWidget(self.why, 1)

        self.right_splitter = QSplitter(Qt.Vertical)
        self.right_splitter.setObjectName("rightSplitter")
        self.right_splitter.addWidget(self.plot)
        self.right_splitter.addWidget(metrics)
        # The plot gets the larger share: two panels of curves need height to be read.
        self.plot.setMinimumHeight(240)
        self.right_splitter.setStretchFactor(0, 3)
        self.right_splitter.setStretchFactor(1, 2)
        self.right_splitter.setSizes([380, 280])

        self.main_splitter = QSplitter(Qt.Horizontal)
        self.main_splitter.setObjectName("mainSplitter")
        self.main_splitter.addWidget(editor)
        # The metrics, and the run comparison's tab while runs are compared (no tab bar otherwise).
        self.right_tabs = QTabWidget(documentMode=True, tabBarAutoHide=True)
        # Tab must not stop on the tab widget itself: its focus goes to a tab bar that is hidden.
        self.right_tabs.setFocusPolicy(Qt.NoFocus)
        self.right_tabs.addTab(self.right_splitter, "NDCG at each rank")
        self.main_splitter.addWidget(self.right_tabs)
        # The list's pane is as wide as its ids and figures need (RankingView.minimumSizeHint);
        # the width left goes to the plot and the tables, and so does a wider window.
        self.main_splitter.setStretchFactor(0, 0)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setChildrenCollapsible(False)
        self.main_splitter.setSizes([360, 920])
        self.main_splitter.splitterMoved.connect(self._list_pane_moved)
        self._list_pane_set = False  # the person dragged the list's pane wider: kept
        self.ranking_view.widthNeeded.connect(self._fit_list_pane)
        self.setCentralWidget(self.main_splitter)

        # The headline spans the whole width, above the query dock too: a fixed top dock.
        self.headline_dock = QDockWidget("Headline", self)
        self.headline_dock.setObjectName("headlineDock")
        self.headline_dock.setFeatures(QDockWidget.NoDockWidgetFeatures)
        self.headline_dock.setTitleBarWidget(QWidget())
        self.headline_dock.setWidget(self.headline)
        self.addDockWidget(Qt.TopDockWidgetArea, self.headline_dock)

        # The query browser: a dock on the left, hidden while the file has one query.
        self.query_dock = QDockWidget("Queries", self)
        self.query_dock.setObjectName("queryDock")
        # Closable: Qt greys out View ▸ Queries (the dock's toggle action) for a dock that is not.
        self.query_dock.setFeatures(QDockWidget.DockWidgetClosable | QDockWidget.DockWidgetMovable
                                    | QDockWidget.DockWidgetFloatable)
        self.query_dock.setWidget(self.query_panel)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.query_dock)
        self.query_dock.hide()

    def _list_pane_moved(self, _pos: int, _index: int) -> None:
        self._list_pane_set = True

    def _fit_list_pane(self, _width: int = 0) -> None:
        """The list's pane at the width its columns need (a longer id widens it, a shorter one
        gives the room back to the plot), unless the person set its width by dragging."""
        sizes = self.main_splitter.sizes()
        if self._list_pane_set or len(sizes) != 2 or sum(sizes) <= 0:
            return
        # (never so narrow that the grades box shows no more than "Type grad…")
        want = max(self.main_splitter.widget(0).minimumSizeHint().width(), LIST_PANE_MIN)
        if sizes[0] != want:
            self.main_splitter.setSizes([want, sum(sizes) - want])

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, self._fit_list_pane)  # the splitter has its width now
        if not getattr(self, "_placed", False):
            self._placed = True
            # The frame's size is known once shown: fit again, unless a size was asked for since
            # (a screenshot's is a picture's, not a screen's).
            if self.size() == self._start_size:
                QTimer.singleShot(0, self, self.fit_on_screen)

    def _name_for_assistive_tech(self) -> None:
        """Names a screen reader says, and Tab moving between panes rather than cells."""
        for widget, name in ((self.ranking_view, "Ranked list"), (self.metrics_view, "Per-rank metrics"),
                             (self.quick_entry, "Type grades"), (self.headline.k, "Cut-off k"),
                             (self.query_panel.table, "Queries"),
                             (self.query_panel.filter_edit, "Filter queries"),
                             (self.plot, "DCG, IDCG and NDCG curves"), (self.why, "Why this NDCG")):
            widget.setAccessibleName(name)
        self.query_panel.table.setTabKeyNavigation(False)

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
        what installing it would otherwise add to the one pass that shows it: the modules that
        score and explain a list, and the query panel's histogram plot (bench_queries --only big:
        that pass and the first paint after it are one frame, goal under 100 ms)."""
        if not self.loader.is_loading():  # a small file, read and shown already
            return
        import ndcg_gui.core.analysis.unjudged
        import ndcg_gui.core.evaluate  # noqa: F401

        # In a frame of its own (a timer lets input in between; a zero one would not).
        histogram = self.query_panel.histogram
        QTimer.singleShot(10, self, lambda: self.loader.is_loading() and histogram.plot_widget())

    # ---- following the document ----------------------------------------------------------------
    def _follow(self, changes: Changes) -> None:
        if changes.dataset:
            self._show_query_dock()
        if changes.comparison is not None:
            self._widen_query_dock(changes.comparison)
        self._update_title()
        lst, doc = self.document.current_list(), self.document
        hint = None
        if not len(lst) and doc.path is not None:  # a query of a file that the run left empty
            hint = f"The run returned no document for query {doc.current_query}."
            if lst.unretrieved:
                n = len(lst.unretrieved)
                hint += (f" Its {n} judged document{'s are' if n > 1 else ' is'} in the Missed tab: drag "
                         "one here to see what it would add.")
        self.ranking_view.set_empty_hint(hint)

    def _show_query_dock(self) -> None:
        many = len(self.document.queries()) > 1
        self.query_dock.toggleViewAction().setEnabled(many)  # View ▸ Queries: a file of queries
        if many and not self.query_dock.isVisible():
            self.query_dock.setVisible(True)
            if not getattr(self, "_dock_restored", False):  # else the width the person left it at
                self._size_query_dock()
        elif not many:
            self.query_dock.setVisible(False)

    def _size_query_dock(self) -> None:
        """A narrower dock in a small window, so the list and the figures keep their room.
        resizeDocks is ignored until the layout holds the dock: in a shown window the layout is run
        now, so the window is painted once at its final layout (a big file's install painted the
        plots twice, at two sizes, in one ~60 ms pass); before the window is shown, a turn later
        (resizeDocks is also ignored before the window is first laid out)."""
        if not self.isVisible():
            QTimer.singleShot(0, self, lambda: self.resizeDocks([self.query_dock], [self.dock_width()],
                                                                Qt.Horizontal))
            return
        self.resizeDocks([self.query_dock], [self.dock_width()], Qt.Horizontal)
        self.layout().activate()

    def _widen_query_dock(self, changes) -> None:
        """Runs compared add columns to the query table: the dock grows to show them whole (up to
        a third of the window; never narrower than the person left it), not behind a scroll bar;
        in a small window it gives way to the side-by-side lists' ids (`_dock_cap`)."""
        if not changes.runs or not self.query_dock.isVisible():
            return
        cap = self._dock_cap()
        want = min(self.query_panel.needed_width(), cap)
        if want > self.query_dock.width() or self.query_dock.width() > cap:
            self.resizeDocks([self.query_dock], [want], Qt.Horizontal)

    def dock_width(self) -> int:
        """The query dock's first width: QUERY_DOCK_WIDTH, less in a window under 1280 px, but
        wide enough for the query table's columns whole while that takes at most a third of it."""
        width = max(self.width(), self.minimumSizeHint().width())  # (what the window grows to)
        usual = min(QUERY_DOCK_WIDTH, max(240, width // 4))
        return min(max(usual, min(self.query_panel.needed_width(), width // 3)), self._dock_cap())

    def _dock_cap(self) -> int:
        """The widest the query dock may be: a third of the window; while runs are compared, less
        when the list's ids and the side-by-side lists (RIGHT_MIN) would not fit beside it."""
        width = max(self.width(), self.minimumSizeHint().width())
        if not self.comparison.active:
            return width // 3
        room = width - self.main_splitter.widget(0).minimumSizeHint().width() - RIGHT_MIN
        return max(self.query_dock.minimumSizeHint().width(), min(width // 3, room))

    def _update_title(self) -> None:
        doc = self.document
        query = f" — query {doc.current_query}" if len(doc.queries()) > 1 else ""
        self.setWindowTitle(f"{doc.display_name}[*]{query} — {APP_NAME}")
        self.setWindowModified(not doc.is_clean())

    # ---- window state --------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(*FIRST_SIZE)
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
        restore_definition(s, self.document)
        for memory in self._column_widths():
            memory.load(s.value(f"columns/{memory.name}"))

    def fit_on_screen(self) -> None:
        """Within the screen's available area (a saved size from a bigger screen, or the first
        1280x800 on a 1366x768 laptop, would put the status bar below its edge): shrunk to fit,
        frame and all, and moved onto it."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        frame = self.frameGeometry()  # (the size of the title bar and borders, once known)
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        width = min(self.width(), area.width() - extra_w)
        height = min(self.height(), area.height() - extra_h)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        frame = self.frameGeometry()
        x = min(max(frame.x(), area.left()), area.right() + 1 - frame.width())
        y = min(max(frame.y(), area.top()), area.bottom() + 1 - frame.height())
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

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
        event.accept()

    def dragEnterEvent(self, event) -> None:
        if self.files.dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = self.files.dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.files.open_dropped(paths)
