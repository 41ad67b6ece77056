"""Run A against run B: adding and removing the runs compared with the open one, and keeping the
"Compare runs" pane (scatter, figures, the open query's lists side by side) in step with the
comparison and the document. The query panel's columns are fed by the query browser.

Runs are read by their own `BackgroundLoader` (a big one in a loader process, told the same
way), one after another, against the open document's qrels file; the comparison itself scores
them against the document's judgments as they stand.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QTabWidget, QWidget

from ndcg_gui.core.analysis.runs import significance
from ndcg_gui.core.analysis.runs.run_diff import biggest_moves, side_by_side, summary_cells
from ndcg_gui.qt.document.changes import Changes, ComparisonChanges
from ndcg_gui.qt.document.comparison import RunComparison
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.loader import BackgroundLoader, LoadResult
from ndcg_gui.qt.widgets import dialogs
from ndcg_gui.qt.widgets.runs.comparison_pane import ComparisonPane
from ndcg_gui.qt.window.feedback import Feedback

TAB_TITLE = "Compare runs"
MOVES_SAID = 5
Status = Callable[[str, int], None]


def _ignore(_result: Any, _error: BaseException | None) -> None:
    """(a failed import is met again, and reported, where the statistics need it)"""


def first_focus_stop(page: QWidget) -> QWidget | None:
    """The first widget inside `page` that Tab stops at, in the window's focus order."""
    widget = page.nextInFocusChain()
    while widget is not page and widget is not None:
        if (page.isAncestorOf(widget) and widget.isVisible() and widget.isEnabled()
                and widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.focusProxy() is None):
            return widget
        widget = widget.nextInFocusChain()
        if widget is page.nextInFocusChain():
            break
    return None


def lines_depth(k: int | None) -> int:
    """How many ranks the side-by-side lists show: twice k, at least 20, at most 100."""
    return min(100, max(20, 2 * (k or 10)))


HINT = ("One point per query; above the diagonal the run beats the baseline. "
        "Click a point to open its query.")
NO_JUDGMENTS_HINT = ("No judgments: no NDCG to plot. The runs are compared by how they rank each query "
                     "(the query table's RBO, Jaccard and τ; the open query's lists side by side).")


def weighted_cells(cmp) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """`summary_cells`, its mean and Δ headed "weighted" when the queries are weighted."""
    columns, rows = summary_cells(cmp)
    if cmp.weights is not None:
        columns = [(f"weighted {name}", tip) if tip in (cmp.methods["mean"], cmp.methods["delta"]) else
                   (name, tip) for name, tip in columns]
    return columns, rows


class RunCompare(QObject):
    def __init__(self, document: Document, comparison: RunComparison, pane: ComparisonPane,
                 tabs: QTabWidget, feedback: Feedback) -> None:
        super().__init__(feedback.parent)
        self.document, self.comparison, self.pane, self.tabs = document, comparison, pane, tabs
        self._status, self._parent = feedback.status, feedback.parent
        self.loader = BackgroundLoader(document.runner, parent=self)
        self._queue: list[Path] = []
        self._loading: Path | None = None
        self.problem: str | None = None  # the last add's failure (tests, the command line)
        self.files = None  # the window's `FileFlow` (`attach_files`)
        self._after_open: list[Path] = []  # runs to compare once the run opened unjudged is open
        self.loader.task.finished.connect(self._landed)
        document.changed.connect(self._follow_document)
        pane.baselineChosen.connect(comparison.set_baseline)
        pane.focusChosen.connect(comparison.set_focus)
        pane.queryClicked.connect(self._open_query)

    # ---- adding and removing runs ---------------------------------------------------------------
    def add_run_dialog(self) -> None:
        if not self._can_add():
            return
        paths, _ = QFileDialog.getOpenFileNames(self._parent, "Add runs to compare", self._start_dir(),
                                                "All files (*)")
        for path in paths:
            self.add_run(path)

    def add_run(self, path: str | Path) -> None:
        """Read `path` (a run of the same topics) and compare it; a big one in the background."""
        if not self._can_add():
            return
        self._queue.append(Path(path))
        if self._loading is None:
            self._next()

    def compare_unjudged_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self._parent, "Compare runs without judgments (two or more)",
                                                self._start_dir(), "All files (*)")
        if paths:
            self.compare_unjudged(paths)

    def compare_unjudged(self, paths: list[str | Path]) -> bool:
        """Open the first of `paths` without judgments and compare the others with it, by their
        rankings (a TREC run read with every document unjudged); False: not opened."""
        if len(paths) < 2 or self.files is None:
            dialogs.show_info(self._parent, "Compare runs without judgments",
                              "Pick two runs or more: the first is opened, the others compared with it.")
            return False
        self._after_open = [Path(p) for p in paths[1:]]
        if not self.files.open(paths[0], None, ask=True, judged=False):
            self._after_open = []
            return False
        if not self.files.loader.is_loading():  # (a small file: open already)
            self._add_after_open()
        return True

    def _add_after_open(self, _path: object = None) -> None:
        runs, self._after_open = self._after_open, []
        for run in runs:
            self.add_run(run)

    def attach_files(self, files) -> None:
        """The window's file flow: `compare_unjudged` opens the first run through it."""
        self.files = files
        files.opened.connect(lambda path: self._add_after_open() if self._after_open else None)

    def remove_run(self, name: str) -> None:
        self.comparison.remove_run(name)
        self._status(f"{name} is no longer compared", 5000)

    def busy(self) -> bool:
        """Whether runs asked for are still being read."""
        return self._loading is not None or bool(self._queue) or self.loader.is_loading()

    def flush(self) -> None:
        """Show the statistics of the last edit now (they otherwise follow a moment later)."""
        self.comparison.flush()

    def _can_add(self) -> bool:
        if self.comparison.can_add():
            return True
        dialogs.show_info(self._parent, "Add a run to compare",
                          "Runs are compared on judgments: open a TREC run with its qrels first "
                          "(File ▸ Open run with qrels…), then add the runs to compare with it; "
                          "without any judgments, File ▸ Compare runs without judgments… compares "
                          "their rankings.")
        return False

    def _next(self) -> None:
        self._loading = None
        if self._queue and not self.loader.is_loading():
            self._loading = self._queue.pop(0)
            self.problem = None
            if "scipy.special" not in sys.modules:  # (its import overlaps the read, not the scoring)
                self.document.runner.run("import the statistics", significance.prepare, _ignore)
            # (a Parquet run too big to hold, against Parquet qrels: scored by DuckDB, as an open)
            # (no judgments at all: a TREC run is read unjudged, the runs compared by their rankings)
            self.loader.start(self._loading, self.document.qrels_path, measure=self.document.measure,
                              need_grades=self.comparison.judged)

    def _landed(self, result: LoadResult) -> None:
        if result.problem is not None:
            self._failed(result.problem)
        elif result.loaded:
            self._loaded(result.data)
        self._next()

    def _loaded(self, dataset) -> None:
        path = self._loading
        if path is None or not self.comparison.can_add():
            return
        name = self.comparison.add_run(dataset, path=path)
        self._show_tab(select=True)
        if self.comparison.waiting:  # (scored in the background: DuckDB reads it, or a big open run)
            self._status(f"Comparing {name}: scoring it…", 8000)
            return
        if not self.comparison.judged:
            self._status(f"Comparing {name} without judgments: by how differently the runs rank "
                         "each query (RBO, Jaccard, Kendall's τ)", 8000)
            return
        scored, judged = self._scored(name)
        self._status(f"Comparing {name}: results for {scored:,} of {judged:,} judged queries", 8000)

    def _scored(self, name: str) -> tuple[int, int]:
        answered = self.comparison.answered
        return int(answered[name].sum()), len(answered)

    def _failed(self, message: str) -> None:
        self.problem = message
        dialogs.show_error(self._parent, "Could not add the run", message)

    def _start_dir(self) -> str:
        path = self.document.path
        return str(path.parent) if path is not None else str(Path.home())

    def _open_query(self, query: str) -> None:
        try:
            self.document.set_current_query(query)
        except KeyError as err:
            self._status(str(err), 5000)

    def query_overlap(self, query: str) -> str | None:
        """How differently the focus run ranks `query` than the baseline, in one line (the
        headline's, where NDCG would be without judgments); None while no overlap is worked out."""
        c = self.comparison
        overlap = c.overlap if c.active and c.focus is not None else None
        if overlap is None or query not in overlap.index:
            return None
        k = self.document.k
        figures = [(name, overlap.at[query, column]) for name, column in
                   (("RBO", "rbo"), (f"J@{k}" if k is not None else "Jaccard", "jaccard"), ("τ", "tau"))]
        said = " · ".join(  # (as the query table's cells: never "-0.0000")
            f"{name} {'–' if value != value else f'{round(value, 4) + 0.0:.4f}'}" for name, value in figures)
        return f"{c.focus} against {c.baseline}: {said}"

    def show_page(self, comparison: bool) -> None:
        """View ▸ Compare runs (`comparison`) or NDCG at each rank: that tab shown and the keyboard
        in it, as a click on the tab would leave it (its tab bar shows only while runs are compared)."""
        if comparison and not self.comparison.active:
            self._status("No run is compared: File ▸ Add run to compare… first", 5000)
            return
        page = self.pane if comparison else self.tabs.widget(0)
        self.tabs.setCurrentWidget(page)
        first = first_focus_stop(page)
        if first is not None:
            first.setFocus(Qt.FocusReason.OtherFocusReason)

    # ---- keeping the pane in step --------------------------------------------------------------------
    def _show_tab(self, select: bool = False) -> None:
        at = self.tabs.indexOf(self.pane)
        if self.comparison.active and at < 0:
            at = self.tabs.addTab(self.pane, TAB_TITLE)
        elif not self.comparison.active and at >= 0:
            self.tabs.removeTab(at)
        # The tab bar a Tab stop while it shows (two tabs); hidden, a stop would hold the focus.
        self.tabs.tabBar().setFocusPolicy(Qt.FocusPolicy.TabFocus if self.tabs.count() > 1
                                          else Qt.FocusPolicy.NoFocus)
        if select and self.comparison.active:
            self.tabs.setCurrentIndex(at)

    def _follow_comparison(self, changes: ComparisonChanges) -> None:
        self._show_tab()
        c = self.comparison
        if not c.active:
            return
        self.pane.setEnabled(not c.waiting)  # greyed: figures of the previous definition
        if changes.runs:
            self.pane.set_runs(c.names, c.baseline, c.focus)
            self._show_lines()
        if changes.runs or changes.queries:
            self._show_scatter()
        if not c.judged and c.overlap is not None and c.focus is not None:
            # (no judgments: the figures are the rankings' overlap, not NDCG's)
            if changes.runs or changes.summary or changes.queries:
                from ndcg_gui.core.analysis.runs.overlap import methods, overlap_cells  # lazy: start-up

                self.pane.set_summary(*overlap_cells(c.overlap, c.baseline, c.focus, self.document.k))
                # (RBO, Jaccard and τ: not the judging hole's line, which needs judgments)
                self.pane.set_method("\n".join(["No judgments: the runs are compared by how they rank "
                                                 "each query.", *methods(self.document.k)[:3]]))
        elif changes.runs or changes.summary:
            cmp = c.latest
            self.pane.set_summary(*weighted_cells(cmp))
            self.pane.set_method("\n".join([*self._weighing(cmp), cmp.describe()]))

    def _weighing(self, cmp) -> list[str]:
        """The method's first line when the document has query weights: what the statistics are
        weighted by, or why they are not (a compared query without a weight)."""
        weights = self.document.state.weights
        if weights is None:
            return []
        if cmp.weights is not None:
            return [f"Weighted by {weights.origin}: the means, Δ, the weighted paired randomization test "
                    "and the weighted bootstrap; each query's NDCG is its own."]
        from ndcg_gui.core.analysis.workspace_report import weights_problem  # lazy: start-up (pandas)

        return [f"Not weighted: {weights_problem(cmp, weights) or 'no query compared'}"]

    def _follow_document(self, changes: Changes) -> None:
        if changes.comparison is not None:
            self._follow_comparison(changes.comparison)
        if not self.comparison.active:
            return
        if changes.query:
            self.pane.scatter.set_current(self.document.current_query)
        if changes.shown_list(self.document.current_query):
            self._show_lines()

    def _show_scatter(self) -> None:
        c = self.comparison
        # Without judgments every NDCG is 0: no scatter of zeros, the hint says why.
        self.pane.scatter.setVisible(c.judged)
        self.pane.hint.setText(HINT if c.judged else NO_JUDGMENTS_HINT)
        if not c.judged:
            return
        compared = c.compared
        ndcg = c.ndcg.loc[compared]
        self.pane.scatter.set_points(list(compared), ndcg[c.baseline].to_numpy(), ndcg[c.focus].to_numpy(),
                                     (c.baseline, c.focus), self.document.k, self.document.current_query)

    def _show_lines(self) -> None:
        c, doc = self.comparison, self.document
        query, base, focus = doc.current_query, c.baseline, c.focus
        if not doc.state.all_at_hand(query):
            # A run just added (an edit made meanwhile): the job scoring it reads its list in a
            # worker, and its figures, when they land, bring the lines (not read here, frozen).
            return
        a, b = c.list_for(base, query), c.list_for(focus, query)
        diff = side_by_side(a.docs, b.docs, c.list_for(c.doc_name, query).judgments(), doc.measure)
        self.pane.diff_model.set_diff(diff, (base, focus), lines_depth(doc.k), doc.k)
        self.pane.set_moves(f"Query {query}: {base} (left) and {focus} (right)",
                            biggest_moves(diff, MOVES_SAID, (base, focus)))
