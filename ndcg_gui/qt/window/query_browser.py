"""The query browser: the query panel kept in step with the document and its per-query scores.
The panel says which query the person picked; the document opens it; the panel follows the query
on screen and the scores of every edit. While runs are compared, it also shows the comparison's
columns (each run's NDCG and Δ, how differently the focus run ranks each query: RBO, Jaccard, τ),
one summary line per run (`core.run_diff.delta_line`) and the histogram of differences;
the document's mean policy (which queries the panel's mean counts) is the comparison's too."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from ndcg_gui.core.analysis.runs.run_diff import delta_line
from ndcg_gui.qt.document.changes import Changes, ComparisonChanges
from ndcg_gui.qt.document.comparison import RunComparison
from ndcg_gui.qt.document.comparison_ties import ComparisonTies
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores
from ndcg_gui.qt.models.query_model import RunColumns
from ndcg_gui.qt.widgets.queries.query_panel import QueryPanel
from ndcg_gui.qt.window.feedback import Feedback

# A query table of this many queries is filled in a frame of its own after another file is shown
# (the table, its order, mean and histogram: most of a frame), so that showing the file (its
# list, the dock) and filling the table are each one frame within the window's frame goal.
FILL_LATER = 20_000


class QueryBrowser(QObject):
    def __init__(self, document: Document, scores: QueryScores, panel: QueryPanel, feedback: Feedback,
                 comparison: RunComparison | None = None, ties: ComparisonTies | None = None) -> None:
        super().__init__(feedback.parent)
        self.document, self.scores, self.panel = document, scores, panel
        self.comparison, self.ties = comparison, ties
        self._status = feedback.status
        self._lines: list[str] = []  # the comparison's summary lines, made when its statistics change
        self._details = ""
        self._shown = None  # the statistics the lines are of
        self._later: Changes | None = None  # another file's notice, followed a frame later (FILL_LATER)
        self._filling = False
        panel.querySelected.connect(self._open_query)
        document.changed.connect(self._follow)
        # The document's state, an undo step:
        panel.policyChanged.connect(lambda policy: document.set_mean(policy.empty, policy.undefined))
        panel.set_policy(document.measure)
        self._show_segments()
        panel.set_notes(document.state.notes)
        self._show_scores()
        self._feed_comparison(statistics=True)
        panel.set_current_query(document.current_query)

    def _follow(self, changes: Changes) -> None:
        if changes.dataset and self.document.query_count() >= FILL_LATER and not self._filling:
            if self._later is not None:  # (one fill for both: it reads the document as it is then)
                self._later = self._later | changes
                return
            self._later = changes
            self.panel.setEnabled(False)  # (the rows of the file shown before, until filled)
            QTimer.singleShot(10, self, self._fill)  # (a timer lets a frame in between; a zero one would not)
            return
        if changes.policy:
            self.panel.set_policy(self.document.measure)
        if changes.segments:
            self._show_segments()
        if changes.notes or changes.dataset:
            self.panel.set_notes(self.document.state.notes)
        if changes.scores:
            self._show_scores()
        if changes.comparison is not None:
            self._show_comparison(changes.comparison)
        if changes.query or changes.dataset or changes.reading:
            self.panel.set_current_query(self._picked())
        if (changes.query or changes.dataset) and not self.document.dataset.in_memory:
            # The lists of the rows above and below, read now: an arrow key shows them at once.
            query = self.document.current_query
            self.document.read_ahead([self.panel.query_beside(query, 1), self.panel.query_beside(query, -1)])

    def _fill(self) -> None:
        """The query table of a big file, a frame after the file was shown (`FILL_LATER`)."""
        changes, self._later = self._later, None
        if changes is not None:
            self._filling = True
            try:
                self._follow(changes)
            finally:
                self._filling = False

    def _show_segments(self) -> None:
        segments = self.document.state.segments
        self.panel.set_segments(segments.values if segments is not None else None)
        self.panel.set_weights(self.document.state.weights)

    def _show_scores(self) -> None:
        doc = self.document
        if doc.query_count() < 2:  # the panel is hidden: nothing to show, so nothing to score
            return
        self.panel.set_unscored(len(doc.unjudged_queries()))
        self.panel.set_judged(doc.state.has_judgments())  # (no judgments: no mean of zeros)
        # While a big file is scored anew in the background the panel shows the previous scores
        # under their own k, greyed out: not the figures of the definition in use.
        self.panel.set_result(self.scores.result, self.scores.k, self.scores.condensed)
        self.panel.setEnabled(not self.scores.pending)
        self.panel.set_edited(doc.edited_queries())
        self.panel.set_current_query(self._picked())

    def _picked(self) -> str:
        """The query the table selects: the one on screen, or the one picked and being read."""
        return self.document.reading or self.document.current_query

    def _show_comparison(self, changes: ComparisonChanges) -> None:
        self._feed_comparison(statistics=changes.runs or changes.summary, ties=changes.ties)

    def _feed_comparison(self, statistics: bool, ties: bool = False) -> None:
        """The comparison's columns; its summary lines only when its statistics changed (reading
        them after an edit would compute them at once, see `RunComparison`)."""
        c = self.comparison
        if c is None:
            return
        if not c.active:
            self.panel.set_comparison(None)
            return
        if statistics:
            self._shown = cmp = c.latest
            self._details = cmp.describe()
        if statistics or (ties and self._shown is not None):
            # (the verdicts under tie orders alone: the statistics shown, not read again)
            cmp = self._shown
            self._lines = [delta_line(cmp, run) + self._ties_of(run) for run in cmp.summary.index]
        lines = self._lines
        overlap = c.overlap
        if overlap is not None and c.focus is not None:
            from ndcg_gui.core.analysis.runs.overlap import (  # lazy: start-up
                holes_line,
                most_different_first,
                overlap_line,
            )

            if not c.judged:  # (NDCG says nothing without judgments: the rankings' overlap does)
                lines = [overlap_line(overlap, c.baseline, c.focus, self.document.k)]
            else:  # (most different first: an edit re-works its query's row out of the frame's order)
                holes = most_different_first(overlap[overlap["hole"].to_numpy(dtype=bool)]).index
                if said := holes_line(list(holes), c.focus):
                    lines = [*lines, said]
        columns = RunColumns(runs=c.added, deltas=c.others, baseline=c.baseline, open_run=c.doc_name,
                             ndcg=c.ndcg, answered=c.answered, delta=c.deltas, waiting=c.waiting,
                             failed=c.failed, overlap=c.overlap, overlap_of=(c.baseline, c.focus or ""),
                             judged=c.judged)
        self.panel.set_comparison(columns, lines, self._details, c.focus)

    def _ties_of(self, run: str) -> str:
        """What the order of `run`'s tied documents can do to its verdict, once worked out."""
        verdict = self.ties.verdicts.get(run) if self.ties is not None else None
        said = verdict.short() if verdict is not None else ""
        return f" · {said}" if said else ""

    def _open_query(self, query: str) -> None:
        try:
            self.document.set_current_query(query)
        except KeyError as err:
            self._status(str(err), 5000)
