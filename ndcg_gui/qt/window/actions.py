"""Every action of the window in one place: made from the controllers' slots, given their
shortcuts and tips, and laid out in the menus and the toolbar. A new command is one line here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu, QMenuBar, QToolBar, QWidget

from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.widgets.editor.ranking_view import RankingView
from ndcg_gui.qt.widgets.plot.curve_plot import CurvePlot
from ndcg_gui.qt.window.colour_scheme import CHOICES, ColourScheme
from ndcg_gui.qt.window.comparison import RunCompare
from ndcg_gui.qt.window.editing import Editing
from ndcg_gui.qt.window.exports import Exports
from ndcg_gui.qt.window.file_flow import FileFlow
from ndcg_gui.qt.window.learning import Learning
from ndcg_gui.qt.window.navigation import Navigation
from ndcg_gui.qt.window.query_notes import QueryNotes
from ndcg_gui.qt.window.segments import SegmentsFlow


@dataclass(frozen=True)
class Place:
    """Where the actions go: `owner` holds them (their shortcuts work anywhere in it) and is their
    Qt parent; the menus go in `menu_bar`, the toolbar through `add_toolbar`."""

    owner: QWidget
    menu_bar: QMenuBar
    add_toolbar: Callable[[QToolBar], None]
    quit: Callable[[], object]
    about: Callable[[], None]
    guide: Callable[[], None]


@dataclass(frozen=True)
class Commands:
    """What the actions call: the document, the controllers and the views they act on."""

    document: Document
    edit: Editing
    files: FileFlow
    exports: Exports
    nav: Navigation
    compare: RunCompare | None
    ranking_view: RankingView
    plot: CurvePlot
    query_dock: QDockWidget
    learn: Learning | None = None
    colours: ColourScheme | None = None
    segments: SegmentsFlow | None = None
    notes: QueryNotes | None = None
    query_table: QWidget | None = None  # (its context menu offers the note)


class Actions(QObject):
    def __init__(self, place: Place, commands: Commands) -> None:
        super().__init__(place.owner)
        self._place, w = place, place.owner
        doc, edit, files, exports, nav = (commands.document, commands.edit, commands.files, commands.exports,
                                          commands.nav)
        ranking_view, plot, compare = commands.ranking_view, commands.plot, commands.compare
        self._files, self._plot, self._query_dock = files, plot, commands.query_dock
        stack = doc.undo_stack

        self.undo = stack.createUndoAction(w, "&Undo")
        self.undo.setShortcuts(QKeySequence.Undo)
        self.redo = stack.createRedoAction(w, "&Redo")
        # Ctrl+Shift+Z and Ctrl+Y on every platform (QKeySequence.Redo gives only one of them).
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for action, short in ((self.undo, "Undo"), (self.redo, "Redo")):
            # The text names the step ("Undo Set grade of doc-B", also the tooltip); the toolbar
            # shows the short icon text, so it does not widen on every edit.
            action.setIconText(short)
            w.addAction(action)

        a = self._make
        self.new = a("&New list", files.new_list, QKeySequence.New, "Start an empty list")
        self.open = a("&Open…", files.open_dialog, QKeySequence.Open,
                      "Open a ranked list, a TREC run or qrels")
        self.open_qrels = a("Open run with &qrels…", files.open_with_qrels_dialog, "Ctrl+Shift+O",
                            "Open a TREC run and its qrels")
        self.save = a("&Save", files.save, QKeySequence.Save, "Save the list")
        self.save_as = a("Save &as…", files.save_as, QKeySequence.SaveAs)
        self.export_metrics = a("Export &metrics CSV…", exports.export_metrics_dialog, None,
                                "Save the per-rank metrics table as CSV")
        self.export_png = a("Export plot as &PNG…", lambda: exports.export_plot_dialog("png"), None,
                            "Save the curve plot as a PNG image")
        self.export_svg = a("Export plot as S&VG…", lambda: exports.export_plot_dialog("svg"), None,
                            "Save the curve plot as an SVG drawing")
        self.export_summary = a("Export per-query s&ummary CSV…", exports.export_summary_dialog, None,
                                "Save one row per query: documents, judged, DCG, IDCG, NDCG at k")
        self.export_report = a("&Export report…", exports.export_report_dialog, None,
                               "Save one HTML page to share: the mean, histogram and worst queries, or "
                               "the run comparison's statistics, verdict and biggest losses")
        self.quit = a("&Quit", place.quit, QKeySequence.Quit)

        self.move_up = a("Move &up", lambda: edit.move_selection(-1), "Ctrl+Up",
                         "Move the selected rows one rank up")
        self.move_down = a("Move &down", lambda: edit.move_selection(1), "Ctrl+Down",
                           "Move the selected rows one rank down")
        self.move_to_rank = a("Move &to rank…", edit.move_to_rank, "Ctrl+M",
                              "Move the selected rows to a rank you type (a drag by keyboard)")
        self.add_row = a("&Add row", edit.add_row, "Ctrl+Shift+N",
                         "Add a document below the current row")
        self.delete = a("&Delete rows", edit.delete_rows, QKeySequence.Delete, "Delete the selected rows")
        self.copy = a("&Copy rows", edit.copy_rows, QKeySequence.Copy,
                      "Copy the selected rows (document, grade)")
        self.paste = a("&Paste rows", edit.paste_rows, QKeySequence.Paste,
                       "Paste a column of grades, or document/grade pairs")
        self.sort = a("&Sort to ideal", doc.sort_ideal, "Ctrl+I", "Order the list by gain, highest first")
        self.reverse = a("&Reverse", doc.reverse, "Ctrl+R", "Reverse the list")
        self.reset = a("Reset to &original", edit.reset, None,
                       "Back to the order and grades of the file")
        self.zoom_to_k = a("&Zoom to k", plot.zoom_to_k, None, "Show the first k ranks in the plot")
        self.show_all = a("Show all &ranks", plot.show_all, None, "Show every rank in the plot")
        self.about = a("&About", place.about)
        self.guide = a("&Guide", place.guide, QKeySequence.HelpContents,
                       "What each column, colour, band and tab means, with a worked example")
        self.next_query = a("&Next query", lambda: nav.step_query(1), "Alt+Down",
                            "Open the next query of the query table")
        self.previous_query = a("&Previous query", lambda: nav.step_query(-1), "Alt+Up",
                                "Open the previous query of the query table")
        self.worst_query = a("&Worst query", nav.worst_query, "Alt+W",
                             "Sort the query table by NDCG, lowest first, and open the worst query")
        self.most_different = a("Most &different first", nav.most_different, "Alt+D",
                                "Sort the query table by rank-biased overlap, lowest first (the queries "
                                "the runs compared rank most differently), and open the first")
        self.next_relevant = a("Next &relevant document", lambda: nav.step_relevant(1), "F3",
                               "Select the next document with a grade above 0")
        self.previous_relevant = a("Previous relevant document", lambda: nav.step_relevant(-1), "Shift+F3",
                                   "Select the previous document with a grade above 0")
        self.find_query = a("&Find query…", nav.focus_filter, QKeySequence.Find, "Filter the query ids")
        self.set_k = a("Set &k…", nav.focus_k, "Ctrl+K", "Type the cut-off k")
        for action in (self.move_up, self.move_down, self.move_to_rank, self.delete, self.copy, self.paste):
            # Only while the list has focus, so the metrics table and text fields keep theirs.
            action.setShortcutContext(Qt.WidgetWithChildrenShortcut)
            w.removeAction(action)
            ranking_view.addAction(action)  # (and in the list's context menu)
        self.paste.setProperty("withoutRows", True)  # offered by the menu of an empty list too

        self._learn = learn = commands.learn
        self.step_by_step = a("&Step by step", learn.show_steps if learn else lambda: None, "F6",
                              "The per-rank table one rank at a time: Space or → the next, ← back")
        self.exercise = a("E&xercise…", learn.show_exercise if learn else lambda: None, "F7",
                          "Work out DCG, IDCG and NDCG of a list yourself; a wrong answer is shown where it "
                          "departs")
        self.two_definitions = a("Two &definitions side by side…",
                                 learn.show_two_definitions if learn else lambda: None, None,
                                 "This list under linear and exponential gain (or any two presets)")
        self.examples_menu = QMenu("&Worked examples", w)
        self.examples_menu.aboutToShow.connect(self._fill_examples)

        self.recent_menu = QMenu("Open &recent", w)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        # Run comparison: add runs against the open run's qrels; remove one (a menu of the runs).
        self._compare = compare
        self.add_run = a("Add run to &compare…", compare.add_run_dialog if compare else lambda: None,
                         "Ctrl+Shift+A", "Compare another run of the same topics with the open one")
        self.compare_unjudged = a("Compare runs &without judgments…",
                                  compare.compare_unjudged_dialog if compare else lambda: None, None,
                                  "Open two runs or more without qrels: how differently they rank each "
                                  "query (rank-biased overlap, Jaccard, Kendall's τ)")
        # The pane's two tabs, from the keyboard wherever it is (the tab bar is a Tab stop too).
        self.show_curves = a("NDCG at each ran&k", lambda: compare and compare.show_page(False), "Ctrl+1",
                             "Show the curves and the per-rank tables beside the list")
        self.show_comparison = a("Compare r&uns", lambda: compare and compare.show_page(True), "Ctrl+2",
                                 "Show the runs compared beside the list")
        segments = commands.segments
        self.open_segments = a("Open se&gments…", segments.open_dialog if segments else lambda: None, None,
                               "Read each query's segment (lines query<TAB>segment): the query panel "
                               "then filters by segment and gives each one's mean")
        notes = commands.notes
        self.edit_note = a("&Note on query…", notes.edit if notes else lambda: None, "Ctrl+Alt+M",
                           "Type a note on the query on screen (why it ranks as it does): kept beside the "
                           "run when saved, shown in the query table and the report")
        if commands.query_table is not None:
            commands.query_table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
            commands.query_table.addAction(self.edit_note)
        self.remove_run_menu = QMenu("Re&move compared run", w)
        self.remove_run_menu.aboutToShow.connect(self._fill_remove_run)
        self.colours_menu = self._colours_menu(commands.colours)
        self._menus()
        self.toolbar = self._toolbar()

    def _make(self, text: str, slot: Callable[[], object], shortcut=None, tip: str | None = None) -> QAction:
        action = QAction(text, self._place.owner)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self._place.owner.addAction(action)
        return action

    def _menus(self) -> None:
        w, bar = self._place.owner, self._place.menu_bar
        file_menu = bar.addMenu("&File")
        for action in (self.new, self.open, self.open_qrels, self.recent_menu, None, self.add_run,
                       self.compare_unjudged, self.remove_run_menu, self.open_segments, None, self.save,
                       self.save_as, None, self.export_metrics, self.export_summary, self.export_png,
                       self.export_svg, self.export_report, None, self.quit):
            _add(file_menu, action)
        edit = bar.addMenu("&Edit")
        for action in (self.undo, self.redo, None, self.copy, self.paste, self.add_row, self.delete,
                       None, self.move_up, self.move_down, self.move_to_rank, self.sort, self.reverse,
                       self.reset, None, self.edit_note):
            _add(edit, action)
        go = bar.addMenu("&Go")
        for action in (self.worst_query, self.most_different, self.next_query, self.previous_query,
                       self.find_query, None, self.next_relevant,
                       self.previous_relevant, None, self.set_k):
            _add(go, action)
        view = bar.addMenu("&View")
        view.addAction(self._query_dock.toggleViewAction())
        for action in (self.show_curves, self.show_comparison, None, self.zoom_to_k, self.show_all, None):
            _add(view, action)
        for box in self._plot.toggles.values():  # (and Tab reaches the row of them: one stop)
            text = box.property("menuText") or box.text()
            action = QAction(text, w, checkable=True, checked=box.isChecked())
            action.toggled.connect(box.setChecked)
            box.toggled.connect(action.setChecked)
            view.addAction(action)
        view.addSeparator()
        view.addMenu(self.colours_menu)
        help_menu = bar.addMenu("&Help")
        for action in (self.guide, None, self.examples_menu, self.step_by_step, self.exercise,
                       self.two_definitions, None, self.about):
            _add(help_menu, action)

    def _colours_menu(self, scheme: ColourScheme | None) -> QMenu:
        """View ▸ Colours: the desktop's scheme, or light or dark for good (remembered)."""
        menu = QMenu("&Colours", self._place.owner)
        group = QActionGroup(menu)
        self.colour_actions: dict[str, QAction] = {}
        for choice, text in CHOICES.items():
            action = QAction(text, menu, checkable=True)
            action.setChecked(scheme is not None and scheme.choice == choice)
            action.setEnabled(scheme is not None)
            action.triggered.connect(lambda _c=False, c=choice: scheme and scheme.choose(c))
            group.addAction(action)
            menu.addAction(action)
            self.colour_actions[choice] = action
        if scheme is not None:
            scheme.changed.connect(lambda choice: self.colour_actions[choice].setChecked(True))
        return menu

    def _toolbar(self) -> QToolBar:
        bar = QToolBar("Main")
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        # What a person reaches for while editing; the exports live in the File menu, so the bar
        # fits a 1024 px window without an overflow menu.
        self.reset.setIconText("Reset")
        for action in (self.open, self.save, None, self.undo, self.redo, None, self.move_up, self.move_down,
                       self.add_row, self.delete, None, self.sort, self.reverse, self.reset):
            _add(bar, action)
        self._place.add_toolbar(bar)
        return bar

    def _fill_recent(self) -> None:
        menu, files = self.recent_menu, self._files
        menu.clear()
        for run, qrels in files.recent.items():
            text = Path(run).name + (f" + {Path(qrels).name}" if qrels else "")
            action = menu.addAction(text)
            action.setToolTip(run + (f" + {qrels}" if qrels else ""))
            action.triggered.connect(lambda _c=False, r=run, q=qrels: files.open(r, q))
        if not files.recent.entries:
            menu.addAction("(none)").setEnabled(False)


    def _fill_examples(self) -> None:
        """The worked examples, read when the menu first opens (not at start-up)."""
        from ndcg_gui.core.teaching.examples import worked_examples

        menu, learn = self.examples_menu, self._learn
        if menu.actions() or learn is None:
            return
        for e in worked_examples():
            action = menu.addAction(f"{e.id}: {e.title}")
            action.setToolTip(e.about)
            action.triggered.connect(lambda _c=False, i=e.id: learn.open_example(i))

    def _fill_remove_run(self) -> None:
        menu, compare = self.remove_run_menu, self._compare
        menu.clear()
        names = compare.comparison.added if compare is not None else []
        for name in names:
            action = menu.addAction(name)
            action.triggered.connect(lambda _c=False, n=name: compare.remove_run(n))
        if not names:
            menu.addAction("(none)").setEnabled(False)


def _add(container, action) -> None:
    if action is None:
        container.addSeparator()
    elif isinstance(action, QMenu):
        container.addMenu(action)
    else:
        container.addAction(action)
