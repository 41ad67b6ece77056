"""The main window: lays out the editor, the headline, the plot and the metrics table around one
`Document`, and turns menu, toolbar and keyboard intent into document calls.

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
from PySide6.QtGui import QAction, QCloseEvent, QFontMetrics, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTableView,
    QToolBar,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ndcg_gui import APP_NAME
from ndcg_gui.core.list_report import counts
from ndcg_gui.qt.curve_plot import CurvePlot
from ndcg_gui.qt.document import Document
from ndcg_gui.qt.file_actions import FileActions
from ndcg_gui.qt.headline import Headline
from ndcg_gui.qt.metrics_model import MetricsTableModel
from ndcg_gui.qt.paste import parse_quick_list, parse_rows
from ndcg_gui.qt.query_browser import QueryBrowser
from ndcg_gui.qt.ranking_model import RankingModel
from ndcg_gui.qt.ranking_view import RankingView
from ndcg_gui.qt.settings_store import restore_definition, save_definition

QUERY_DOCK_WIDTH = 320


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
        self.document = document or Document(self)
        self.settings = settings if settings is not None else QSettings()
        # No style sheet: it would route every table cell through QStyleSheetStyle (slower paints).
        self.setAcceptDrops(True)  # files dropped anywhere on the window are opened

        self.ranking_model = RankingModel(self.document, self)
        self.metrics_model = MetricsTableModel(self.document, self)
        self.ranking_view = RankingView(self.ranking_model)
        self.metrics_view = self._metrics_view()
        self.plot = CurvePlot(self.document)
        self.headline = Headline(self.document)
        self.quick_entry = QLineEdit()
        self.quick_entry.setPlaceholderText("Type grades, e.g. 3 2 3 0 1, and press Enter")
        self.quick_entry.setToolTip("Start a new list from grades in ranked order (undoable)")
        self.quick_entry.returnPressed.connect(self.apply_quick_list)

        self.files = FileActions(self)
        self._build_actions()
        self._build_layout()
        self._build_menus()

        self.status_counts = QLabel()
        self.statusBar().addPermanentWidget(self.status_counts)
        self.ranking_model.editRejected.connect(self.show_problem)
        self.document.listChanged.connect(lambda _move: self._update_status())
        self.document.datasetChanged.connect(self._dataset_changed)
        self.document.currentQueryChanged.connect(lambda _q: self._update_title())
        self.document.cleanChanged.connect(lambda _clean: self._update_title())
        self.document.metricsChanged.connect(self._update_status)
        self._restore_settings()
        self._dataset_changed()
        # The query browser: panel in the dock, per-query scores, big files loaded in the background.
        self.query_browser = QueryBrowser(self)

    # ---- layout -----------------------------------------------------------------------------
    def _metrics_view(self) -> QTableView:
        view = QTableView()
        view.setModel(self.metrics_model)
        view.setSelectionBehavior(QTableView.SelectRows)
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.verticalHeader().hide()
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        header = view.horizontalHeader()
        # Figures share the width but never shrink below a bold "0.0000" (the NDCG@k cell) or a
        # header: a narrow pane scrolls rather than cutting figures short. Rank and id keep theirs.
        bold = view.font()
        bold.setBold(True)
        narrowest = max(QFontMetrics(bold).horizontalAdvance("0.0000"),
                        view.fontMetrics().horizontalAdvance("Ideal gr.")) + 6
        header.setMinimumSectionSize(narrowest)
        header.setSectionResizeMode(QHeaderView.Stretch)
        header.setSectionResizeMode(0, QHeaderView.Fixed)
        header.setSectionResizeMode(1, QHeaderView.Interactive)
        header.resizeSection(0, narrowest)
        header.resizeSection(1, 80)
        return view

    def _build_layout(self) -> None:
        editor = QWidget()
        editor_layout = QVBoxLayout(editor)
        editor_layout.setContentsMargins(6, 6, 0, 6)
        title = pane_title("Ranked list — drag rows to reorder")
        editor_layout.addWidget(title)
        entry_row = QHBoxLayout()
        entry_row.addWidget(self.quick_entry, 1)
        new_button = QPushButton("Use")
        new_button.setToolTip(self.quick_entry.toolTip())
        new_button.clicked.connect(self.apply_quick_list)
        entry_row.addWidget(new_button)
        editor_layout.addLayout(entry_row)
        editor_layout.addWidget(self.ranking_view, 1)

        metrics = QWidget()
        metrics_layout = QVBoxLayout(metrics)
        metrics_layout.setContentsMargins(0, 0, 6, 6)
        metrics_title = pane_title("Per-rank metrics (ranks beyond k are greyed; hover a cell for the "
                                   "arithmetic)")
        metrics_layout.addWidget(metrics_title)
        metrics_layout.addWidget(self.metrics_view, 1)

        self.right_splitter = QSplitter(Qt.Vertical)
        self.right_splitter.setObjectName("rightSplitter")
        self.right_splitter.addWidget(self.plot)
        self.right_splitter.addWidget(metrics)
        self.right_splitter.setStretchFactor(0, 1)
        self.right_splitter.setStretchFactor(1, 1)
        self.right_splitter.setSizes([330, 330])

        self.main_splitter = QSplitter(Qt.Horizontal)
        self.main_splitter.setObjectName("mainSplitter")
        self.main_splitter.addWidget(editor)
        self.main_splitter.addWidget(self.right_splitter)
        self.main_splitter.setStretchFactor(0, 0)
        self.main_splitter.setStretchFactor(1, 1)
        self.main_splitter.setSizes([300, 980])

        self.setCentralWidget(self.main_splitter)
        # The headline spans the whole width, above the query dock too: a fixed top dock.
        self.headline_dock = QDockWidget("Headline", self)
        self.headline_dock.setObjectName("headlineDock")
        self.headline_dock.setFeatures(QDockWidget.NoDockWidgetFeatures)
        self.headline_dock.setTitleBarWidget(QWidget())
        self.headline_dock.setWidget(self.headline)
        self.addDockWidget(Qt.TopDockWidgetArea, self.headline_dock)

        # The query browser's place: a dock on the left, hidden while the file has one query.
        self.query_dock = QDockWidget("Queries", self)
        self.query_dock.setObjectName("queryDock")
        self.query_dock.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetFloatable)
        placeholder = QLabel("Queries")
        placeholder.setAlignment(Qt.AlignCenter)
        self.query_dock.setWidget(placeholder)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.query_dock)
        self.query_dock.hide()

    def set_query_panel(self, widget: QWidget) -> None:
        """Put the query browser in the left dock (shown while the file has several queries)."""
        self.query_dock.setWidget(widget)
        self._dataset_changed()

    # ---- actions ----------------------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, tip: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _fixed_label(self, action: QAction, text: str) -> QAction:
        """A toolbar twin of `action` that keeps a short label: the undo actions' text names the
        step ("Undo Set grade of doc-B"), which would widen the toolbar on every edit."""
        twin = QAction(text, self)
        twin.triggered.connect(lambda _checked=False: action.trigger())

        def follow() -> None:
            twin.setEnabled(action.isEnabled())
            twin.setToolTip(action.text().replace("&", "") + " (" + action.shortcut().toString() + ")")

        action.changed.connect(follow)
        follow()
        return twin

    def _build_actions(self) -> None:
        group = self.document.undo_group
        self.undo_action = group.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.Undo)
        self.redo_action = group.createRedoAction(self, "&Redo")
        self.redo_action.setShortcut(QKeySequence.Redo)
        self.move_up_action = self._action("Move &up", lambda: self.ranking_view.move_selection(-1),
                                           "Ctrl+Up", "Move the selected rows one rank up")
        self.move_down_action = self._action("Move &down", lambda: self.ranking_view.move_selection(1),
                                             "Ctrl+Down", "Move the selected rows one rank down")
        self.add_row_action = self._action("&Add row", self.add_row, "Ctrl+Shift+N",
                                           "Add a document below the current row")
        self.delete_action = self._action("&Delete rows", self.delete_rows, QKeySequence.Delete,
                                          "Delete the selected rows")
        self.copy_action = self._action("&Copy rows", self.copy_rows, QKeySequence.Copy)
        self.paste_action = self._action("&Paste rows", self.paste_rows, QKeySequence.Paste,
                                         "Paste a column of grades, or document/grade pairs")
        self.sort_action = self._action("&Sort to ideal", self.document.sort_ideal, "Ctrl+I",
                                        "Order the list by gain, highest first")
        self.reverse_action = self._action("&Reverse", self.document.reverse, "Ctrl+R")
        self.reset_action = self._action("Reset to &original", self.document.reset_to_original, None,
                                         "Back to the order and grades of the file")
        for action in (self.move_up_action, self.move_down_action, self.delete_action,
                       self.copy_action, self.paste_action):
            # Only while the list has focus, so the metrics table and text fields keep theirs.
            action.setShortcutContext(Qt.WidgetWithChildrenShortcut)
            self.removeAction(action)
            self.ranking_view.addAction(action)

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        self.files.populate(file_menu)
        edit = menu.addMenu("&Edit")
        for action in (self.undo_action, self.redo_action, None, self.copy_action, self.paste_action,
                       self.add_row_action, self.delete_action, None, self.move_up_action,
                       self.move_down_action, self.sort_action, self.reverse_action, self.reset_action):
            edit.addSeparator() if action is None else edit.addAction(action)
        view = menu.addMenu("&View")
        view.addAction(self.query_dock.toggleViewAction())
        for box in self.plot.toggles.values():
            action = QAction(f"{box.text()} curve", self, checkable=True, checked=box.isChecked())
            action.toggled.connect(box.setChecked)
            box.toggled.connect(action.setChecked)
            view.addAction(action)
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self._action("&About", self.about))

        bar = QToolBar("Main")
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        for action in (self.files.open_action, self.files.save_action, None,
                       self._fixed_label(self.undo_action, "Undo"),
                       self._fixed_label(self.redo_action, "Redo"), None, self.move_up_action,
                       self.move_down_action, self.add_row_action, self.delete_action, None, self.sort_action,
                       self.reverse_action, self.reset_action, None, self.files.export_png_action,
                       self.files.export_svg_action, self.files.export_metrics_action):
            bar.addSeparator() if action is None else bar.addAction(action)
        self.addToolBar(Qt.TopToolBarArea, bar)

    # ---- editing intent -> document -------------------------------------------------------
    def apply_quick_list(self) -> None:
        try:
            grades = parse_quick_list(self.quick_entry.text())
        except ValueError as err:
            self.show_problem(str(err))
            return
        self.document.new_from_grades(grades)
        self.statusBar().showMessage(f"New list of {len(grades)} documents (Ctrl+Z to undo)", 5000)

    def add_row(self) -> None:
        row = self.ranking_view.current_row() + 1 if self.ranking_view.current_row() >= 0 else len(
            self.document.current_list())
        self.document.insert_rows(row, None, [0.0], "Add row")
        self.ranking_view.select_rows(row, 1)

    def delete_rows(self) -> None:
        rows = self.ranking_view.selected_rows()
        if rows:
            self.document.remove_rows(rows)

    def copy_rows(self) -> None:
        lst = self.document.current_list()
        rows = self.ranking_view.selected_rows() or range(len(lst))
        lines = ["doc\tgrade"] + [
            f"{lst.docs[r]}\t{'' if lst.grades[r] != lst.grades[r] else f'{lst.grades[r]:g}'}"
            for r in rows
        ]
        QGuiApplication.clipboard().setText("\n".join(lines) + "\n")

    def paste_rows(self, text: str | None = None) -> None:
        """Document/grade pairs are inserted above the current row; a column of grades overwrites
        grades from the current row down (new documents past the end)."""
        text = QGuiApplication.clipboard().text() if text is None else text
        try:
            rows = parse_rows(text)
            current = self.ranking_view.current_row()
            if rows.docs is None:
                start = current if current >= 0 else len(self.document.current_list())
                self.document.set_grades_from(start, rows.grades, f"Paste {len(rows.grades)} grades")
            else:
                at = current if current >= 0 else len(self.document.current_list())
                self.document.insert_rows(at, rows.docs, rows.grades, f"Paste {len(rows.docs)} rows")
        except ValueError as err:
            self.show_problem(str(err))

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
        from ndcg_gui.qt.dialogs import show_info

        show_info(self, f"About {APP_NAME}",
                  f"{APP_NAME} {__version__}\n\nSee CG, DCG, IDCG and NDCG of a ranked list at every "
                  "rank, under a stated definition.")

    # ---- window state --------------------------------------------------------------------------
    def _dataset_changed(self) -> None:
        many = len(self.document.queries()) > 1
        if many and not self.query_dock.isVisible():
            self.query_dock.setVisible(True)
            if not getattr(self, "_dock_restored", False):  # else the width the person left it at
                # After the layout has run (resizeDocks is ignored before the window is laid out).
                QTimer.singleShot(0, lambda: self.resizeDocks([self.query_dock], [QUERY_DOCK_WIDTH],
                                                              Qt.Horizontal))
        elif not many:
            self.query_dock.setVisible(False)
        self._update_title()
        self._update_status()

    def _update_title(self) -> None:
        doc = self.document
        name = doc.display_name
        query = f" — query {doc.current_query}" if len(doc.queries()) > 1 else ""
        self.setWindowTitle(f"{name}[*]{query} — {APP_NAME}")
        self.setWindowModified(not doc.is_clean())

    def _update_status(self) -> None:
        c = counts(self.document.current_list())
        parts = [f"{c.documents} documents", f"{c.judged} judged", f"{c.unjudged} unjudged",
                 f"{c.relevant} relevant"]
        if c.unretrieved:
            parts.append(f"{c.unretrieved} judged but not retrieved")
        queries = len(self.document.queries())
        if queries > 1:
            unjudged = len(self.document.dataset.unjudged_queries())
            note = f" ({unjudged} without judgments, not scored)" if unjudged else ""
            parts.append(f"{queries} queries{note}")
        self.status_counts.setText(" · ".join(parts))

    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
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

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("window/queryDockShown", self.query_dock.isVisible())
        for splitter in (self.main_splitter, self.right_splitter):
            s.setValue(f"window/{splitter.objectName()}", splitter.saveState())
        save_definition(s, self.document)
        self.files.save_recent()
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.maybe_discard("closing"):
            event.ignore()
            return
        self.save_settings()
        event.accept()

    def dragEnterEvent(self, event) -> None:
        if self.files.dropped_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = self.files.dropped_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.files.open_dropped(paths)
