"""Every query's NDCG@k for the query browser, kept in step with the document.

A new dataset or a new definition (k, gain, discount, ties) scores every query with `evaluate`;
an edit rescores only the edited query (each query is scored on its own, so that is the same
result). Nothing is scored until `result` is read: with one query no panel shows the scores, so
the first screen and every drag cost no scoring (and no pandas) beyond the editor's.
A loader that already scored the file (in its process) offers that result, so a big file
is not scored twice.

Scoring every query of a big file (say 2,000 queries x 1,000 documents) would freeze the
window for longer than a frame, so from `BACKGROUND_ROWS` rows on it runs in a worker thread
(the document's `Runner`) on the document's state as it was, and is
installed when it lands, with the lists edited since rescored one by one. Until then `result` is
the previous scoring, `pending` is True and `k` is the cut-off that scoring used: the panel greys
it rather than show figures of another definition as current. A scoring overtaken by another
change is dropped when it lands.
"""

from __future__ import annotations

import functools
import operator
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from ndcg_gui.core.analysis.workspace_report import WorkspaceReport, rescored, score_state
from ndcg_gui.core.sql.progress import StepFraction
from ndcg_gui.qt.document.changes import Changes
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.runner import Task, engines_below_gui

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.ndcg.measure import Measure
    from ndcg_gui.core.state.workspace import Workspace

# From this many rows (run + qrels) a full scoring runs in the background: below it, it takes
# well under a frame and is done at once, so small files (and the tests) never see a pending panel.
BACKGROUND_ROWS = 200_000
# The engine's statements a scoring goes through (reading, checking each input, scoring, the
# queries without judgments).
SCORING_STEPS = 6


class QueryScores(QObject):
    """What changes is said in the document's notice (`Changes.scores`): worked out with each
    change (`Document.work_out_with`), or announced when a background scoring lands."""

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._result: pd.DataFrame | None = None
        self._of: Workspace | None = None  # the state `_result` was scored for
        self._dirty = True  # the dataset or the definition changed since
        self._stale: set[str] = set()  # queries edited since, not rescored yet
        self._offered: tuple[object, Measure, pd.DataFrame] | None = None
        self._ticket = 0  # counts dataset and definition changes: a scoring of an older one is dropped
        self._wanted = False  # a background scoring of the document as it is now is wanted
        self._working = False  # the worker thread is busy (one at a time)
        self._following, self._told = False, False  # (what a change changes goes out with it)
        self._dependents: list[Callable[[Changes], Changes | None]] = []
        # A run DuckDB reads scored again (another k or definition: minutes on 500M rows) is
        # followed in the status bar: started -> progressed -> finished(None).
        self.task = Task(self)
        self._engine_job = False
        self._thread: threading.Thread | None = None  # the last scoring's
        document.work_out_with(self._follow)


    # ---- what the panel reads -------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        """Whether the document as it is now is being scored in the background (`result` is then
        the previous scoring: another definition or file)."""
        return self._wanted

    @property
    def k(self) -> int | None:
        """The cut-off `result` was scored at (the document's, unless `pending`)."""
        return self._of.k if self._wanted and self._of is not None else self.document.k

    @property
    def condensed(self) -> bool:
        """Whether `result` was scored on condensed lists (judged documents only)."""
        state = self._of if self._wanted and self._of is not None else self.document.state
        return state.measure.judged_only

    @property
    def result(self) -> pd.DataFrame:
        """Every query's row of `evaluate`, edits included; while `pending`, the previous
        scoring's (no rows when it was of another file)."""
        if self._wanted:
            if self._of is not None and self._of.dataset is self.document.dataset:
                return self._result
            return _no_rows(self._result)
        if self._dirty:
            self.rescore_all()
        if self._stale:
            self._result, self._stale = rescored(self._result, self.document.state, self._stale), set()
        return self._result

    @property
    def report(self) -> WorkspaceReport:
        """The document's figures across queries (the mean under its policy, the worst query) over
        `result`."""
        return WorkspaceReport(self.document.state, self.result)

    # ---- following the document ----------------------------------------------------------------
    def _tell(self) -> None:
        """`result` or `pending` changed: in the notice being made, or in one of its own."""
        if self._following:
            self._told = True
        else:
            self.document.announce(Changes(scores=True))

    def followed_by(self, follower: Callable[[Changes], Changes | None]) -> None:
        """`follower` works out each change after these scores did (the run comparison reads
        them), and what it changes goes out in the same notice."""
        self._dependents.append(follower)

    def _follow(self, changes: Changes) -> Changes | None:
        self._following, self._told = True, False
        try:
            self._follow_change(changes)
        finally:
            self._following = False
        if self._told:
            changes = changes | Changes(scores=True)
        more = [m for follow in self._dependents if (m := follow(changes)) is not None]
        if not (self._told or more):
            return None
        return functools.reduce(operator.or_, more, Changes(scores=self._told))

    def _follow_change(self, changes: Changes) -> None:
        if changes.dataset or changes.definition:
            self._ticket += 1
            self._dirty = True
            self._wanted = self._background()
            if self._wanted and not self._working:
                # Once the events already queued are handled: the change's repaint comes first,
                # not slowed by the worker (2 cores, one GIL: about twice as long otherwise).
                self._working = True
                QTimer.singleShot(0, self, self._start_queued)
            self._tell()
        elif changes.lists:
            self._stale |= changes.lists
            if self.document.query_count() > 1:  # the panel shows the scores: rescore now
                self._tell()

    def _background(self) -> bool:
        if self.document.query_count() < 2 or self._offer_fits():
            return False
        return self.document.state.size() >= BACKGROUND_ROWS

    def offer(self, dataset: object, measure: Measure, result: pd.DataFrame) -> None:
        """A result already computed for `dataset` under `measure`: used instead of scoring again
        when that dataset is opened under a measure that scores each query alike (its mean policy
        aside: `Measure.per_query`)."""
        self._offered = (dataset, measure.per_query(), result)

    def _offer_fits(self) -> bool:
        offered, doc = self._offered, self.document
        return (offered is not None and offered[0] is doc.dataset
                and offered[1] == doc.state.measure.per_query())

    def rescore_all(self) -> None:
        """Score every query of the document now, in this thread."""
        doc = self.document
        offered = self._offered[2] if self._offer_fits() else None
        self._offered = None
        result = score_state(doc.state, offered)
        self._ticket += 1  # (a background scoring under way is not needed any more)
        self._wanted, self._dirty = False, False
        self._result, self._of, self._stale = result, doc.state, set()

    # ---- the worker ---------------------------------------------------------------------------------
    def _start_queued(self) -> None:
        if self._wanted:
            self._start()
        else:  # (not needed any more: another file, or scored here meanwhile)
            self._working = False

    def _start(self) -> None:
        self._working = True
        ticket, state = self._ticket, self.document.state
        work = functools.partial(score_state, state)
        if not state.dataset.in_memory:  # scored by DuckDB again: stopped once another change comes
            fraction, post = StepFraction(SCORING_STEPS), self.document.runner.post

            def report(step: str, percent: float) -> bool:
                post(self._progressed, ticket, fraction(step, percent))
                return ticket == self._ticket

            work = functools.partial(_score_engine, state, report)
            self._engine_job = True
            self.task.started.emit(f"Scoring every query at k = {state.k} with DuckDB")
        self._thread = self.document.runner.run("query scores", work,
                                                functools.partial(self._install, ticket, state))

    def stop(self, timeout: float = 10.0) -> None:
        """On quit: stop an engine's scoring and wait for its thread (a thread still in DuckDB when
        Python ends aborts the process)."""
        self._ticket += 1  # (its report then says stop)
        self._wanted = False
        if self._thread is not None:
            self._thread.join(timeout)

    def _progressed(self, ticket: int, fraction: float) -> None:
        if ticket == self._ticket:
            self.task.progressed.emit(fraction)

    def _install(self, ticket: int, state: Workspace, result: pd.DataFrame | None,
                 error: BaseException | None) -> None:
        """A background scoring of `state` landed (the runner raises an error after this)."""
        self._working = False
        if self._engine_job:
            self._engine_job = False
            self.task.finished.emit(None)
        if ticket != self._ticket or (result is None and error is None):
            # overtaken by another change (an engine's job stopped for it): score the document as it is now
            if self._wanted:
                self._start()
            return
        self._wanted = False
        if error is not None:  # (still dirty: reading `result` scores again, here)
            if not state.dataset.in_memory:  # (not DuckDB's minutes on this thread: the scores of before)
                self._dirty = False
            self._tell()
            return
        self._dirty = False
        now = self.document.state
        # Lists edited while the worker ran: rescored one by one when `result` is read.
        self._stale = {q for q in set(state.lists) | set(now.lists)
                       if state.lists.get(q) is not now.lists.get(q)}
        self._result, self._of = result, now
        self._tell()

    def wait(self, timeout: float = 60.0) -> bool:
        """Process events until no scoring is pending (tests and benchmarks). True when none is."""
        deadline = time.monotonic() + timeout
        while self._wanted and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.001)
        return not self._wanted


def _score_engine(state: Workspace, report: Callable[[str, float], bool]) -> pd.DataFrame | None:
    """`score_state` of a document whose dataset an engine scores (`core.sql.engine_dataset`),
    its progress told to `report`: the job stops as soon as that returns False (another change
    came: minutes of DuckDB's work for figures nobody will see); None then."""
    from ndcg_gui.core.sql.progress import Cancelled

    engines_below_gui()  # (DuckDB's threads below the window; this one holds the GIL between calls)
    try:
        scored = state.dataset.evaluate(state.measure.per_query(), progress=report)
    except Cancelled:
        return None
    return score_state(state, scored)


def _no_rows(result: pd.DataFrame | None) -> pd.DataFrame:
    """`result` without its rows, or an empty frame with the columns of `evaluate`."""
    if result is not None:
        return result.iloc[:0]
    import pandas as pd

    from ndcg_gui.core.ndcg.evaluate import RESULT_COLUMNS

    return pd.DataFrame({name: [] for name in RESULT_COLUMNS})
