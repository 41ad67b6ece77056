"""Run A against run B (and C …): further runs compared with the open one, kept in step with the
document.

The open run is the document's, edits included; the others are files loaded against the same
judgments and never change. Every run is scored against the document's judgments (a grade edited
in the open run judges that document for every run, as one qrels file would) under the document's
definition, by the core's `workspace_report.compare_state`; the open run's per-query NDCG is the
one the query panel shows (`QueryScores`: an edited list is scored on its own), so every figure on
screen agrees.
The baseline is the open run unless the person picks another; `focus` is the run put against the
baseline in the plots.

A new file, definition or set of runs scores everything again: at once when every run is held in
memory; in a worker when a run is read where it lies (`core.sql.engine_dataset`: DuckDB scores it
again, seconds to minutes), the figures of before shown greyed (`waiting`) meanwhile, its progress
told by `task`, an older job stopped by a newer change (the last one wins), the lists edited
meanwhile rescored when it lands. An edit rescores only its query,
for every run (one list each; a move changes no judgment, so the other runs' figures stand), and
the statistics follow through `Comparison.with_scores`: once edits pause (`statistics.py`), in a
thread, so a drag repaints at once, a burst of edits (a held Ctrl+Down) pays for them once and no
frame waits for them. Reading `comparison` (or `flush`) always gives them up to date, at once.
"""

from __future__ import annotations

import functools
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject

from ndcg_gui.core.analysis import workspace_report as report
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.sql.progress import StepFraction
from ndcg_gui.core.state.workspace import run_label
from ndcg_gui.qt.document.changes import Changes, ComparisonChanges
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import SCORING_STEPS, QueryScores
from ndcg_gui.qt.document.runner import Task, engines_below_gui
from ndcg_gui.qt.document.statistics import Statistics

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.runs.compare import Comparison
    from ndcg_gui.core.state.workspace import Workspace

class RunComparison(QObject):
    """What changes is said in the document's notice (`Changes.comparison`): worked out with each
    change after the scores (`Document.work_out_with`), or announced when statistics land."""

    def __init__(self, document: Document, scores: QueryScores, parent: QObject | None = None) -> None:
        """This works out each change after `scores` did (`QueryScores.followed_by`), so they are
        up to date when this rescores."""
        super().__init__(parent)
        self.document, self.scores = document, scores
        # What is compared (runs, baseline, focus) and the mean policy are the document's state
        # (`Workspace.comparing`, `.measure`'s mean policy): changed through it, undoable and recovered. This
        # object holds what is worked out from them.
        self._doc_name = run_label(document.display_name)
        self._ndcg: pd.DataFrame | None = None  # (None until a run is added: no pandas at start-up)
        self._answered: pd.DataFrame | None = None
        self._overlap: pd.DataFrame | None = None  # the focus run against the baseline, per query
        self._after_scores = False  # a rescore waits for the open run's scores (a big file)
        # query -> (the judgments, the other runs' NDCG under them), since the last full scoring
        self._others: dict[str, tuple[dict[str, float], dict[str, float]]] = {}
        self.statistics = Statistics(document.runner, self._statistics_landed, self)
        self._told: ComparisonChanges | None = None  # (what the change being followed changed)
        self._following = False
        # Scoring again with a run DuckDB reads, in a worker: started -> progressed -> finished(None).
        self.task = Task(self)
        self._ticket = 0  # counts full scorings asked for: an older job's figures are dropped
        self._job_wanted = False  # the figures of the document as it is now are being worked out
        self._job: threading.Thread | None = None  # the worker, while one runs (one at a time)
        # The last engine scoring failed (said in one line): the figures shown stay those of before,
        # greyed, no edit rescored alone under the new definition, until a full scoring succeeds.
        self._stale = False
        scores.followed_by(self._follow_all)  # (after the scores: it reads them)

    # ---- reading ------------------------------------------------------------------------------
    @property
    def _runs(self) -> dict[str, Dataset]:
        """The other runs, by name, in the order added."""
        return {r.name: r.dataset for r in self.document.state.comparing.runs}

    @property
    def _baseline(self) -> str | None:
        return self.document.state.comparing.baseline

    @property
    def _focus(self) -> str | None:
        return self.document.state.comparing.focus

    @property
    def _missing(self) -> str:
        return self.document.state.measure.empty

    @property
    def active(self) -> bool:
        """Whether runs are compared (at least one run besides the open one)."""
        return bool(self._runs)

    @property
    def doc_name(self) -> str:
        return self._doc_name

    @property
    def names(self) -> list[str]:
        """Every run, the open one first."""
        return [self._doc_name, *self._runs] if self._runs else []

    @property
    def added(self) -> list[str]:
        """The runs added to the comparison (not the open one)."""
        return list(self._runs)

    @property
    def baseline(self) -> str:
        return self._doc_name if self._baseline is None else self._baseline

    @property
    def others(self) -> list[str]:
        """Every run but the baseline, in order."""
        return [n for n in self.names if n != self.baseline]

    @property
    def focus(self) -> str | None:
        """The run put against the baseline in the plots and the histogram."""
        others = self.others
        return self._focus if self._focus in others else (others[0] if others else None)

    @property
    def waiting(self) -> bool:
        """Whether the figures are of the previous definition (or runs): the open run's new scores,
        or an engine's scoring of a run read where it lies, not in yet (or failed: `_stale`)."""
        return self._after_scores or self._job_wanted or self._stale

    @property
    def failed(self) -> bool:
        """Whether the figures shown are of before a change because scoring them again failed
        (said in one line then); the next change of k, definition or runs tries again."""
        return self._stale and not self._job_wanted

    @property
    def missing(self) -> str:
        return self._missing

    def path_of(self, name: str) -> Path | None:
        if name == self._doc_name:
            return self.document.path
        return self.document.state.comparing.run(name).path if name in self._runs else None

    @property
    def ndcg(self) -> pd.DataFrame:
        """NDCG@k of every judged query (index) for every run (columns), a run that returned
        nothing for a query scoring 0; edits of the open run included."""
        return self._ndcg if self._ndcg is not None else _no_frame()

    @property
    def answered(self) -> pd.DataFrame:
        """True where a run returned at least one document for the query."""
        return self._answered if self._answered is not None else _no_frame()

    @property
    def compared(self) -> pd.Index:
        """The queries the statistics are over: every judged one (missing="zero"), or those every
        run answered ("skip")."""
        if not self.active:
            import pandas as pd

            return pd.Index([], name="query", dtype=object)
        return report.compared_queries(self._ndcg, self._answered, self._missing)

    @property
    def deltas(self) -> pd.DataFrame:
        """Per query, each run's NDCG minus the baseline's (ties within 1e-9 exactly 0), as the
        statistics see them; NaN for queries left out of the comparison."""
        if not self.active:
            return _no_frame()
        return report.deltas(self._ndcg, self.baseline, self.others, self.compared)

    @property
    def comparison(self) -> Comparison | None:
        """The statistics (`core.compare.Comparison`), up to date with every edit; None while no
        run is compared."""
        return self.statistics.current

    @property
    def latest(self) -> Comparison | None:
        """The statistics as last worked out: what the views show when a notice says they changed.
        Edits made since wait for the background (`statistics.py`) and are announced when they
        land; reading `comparison` in a notice would work them out on the GUI thread instead
        (more than a frame over many queries, in the frame of the move that made them)."""
        return self.statistics.cmp

    @property
    def overlap(self) -> pd.DataFrame | None:
        """How differently the focus run ranks each query than the baseline (`run_overlap`: rbo,
        jaccard, tau, and hole: a big change of ranking with no change of NDCG), index query; None
        while no run is compared or a run is read where it lies."""
        return self._overlap

    @property
    def judged(self) -> bool:
        """Whether the runs are compared on judgments (False: by their rankings alone)."""
        return self.document.state.has_judgments()

    def list_for(self, run: str, query: str) -> RankedList:
        """The list `run` holds for `query`, judged by the document's judgments (the open run:
        its list as edited)."""
        return report.run_list(self.document.state, None if run == self._doc_name else run, query)

    # ---- changing -----------------------------------------------------------------------------------
    def can_add(self) -> bool:
        """Runs are compared on the open document's qrels, or, without any judgment, by their
        rankings alone; a run with grades of its own but no qrels judges the others by nothing."""
        return self.document.dataset.has_pool or not self.judged

    def add_run(self, dataset: Dataset, name: str | None = None, path: str | Path | None = None) -> str:
        """Compare `dataset` too (an undo step of the document); returns the name it is shown under."""
        return self.document.add_run(dataset, path, name, self._doc_name)

    def remove_run(self, name: str) -> None:
        self.document.remove_run(name)

    def clear(self) -> None:
        self.document.clear_runs()

    def set_baseline(self, name: str) -> None:
        if name not in self.names:
            raise KeyError(f"no run {name!r} is compared")
        self.document.set_baseline(None if name == self._doc_name else name)

    def set_focus(self, name: str) -> None:
        if name not in self.others:
            raise KeyError(f"{name!r} is not compared with the baseline {self.baseline!r}")
        if name != self.focus:
            self.document.set_focus(name)

    def set_missing(self, missing: str) -> None:
        """"zero": a judged query a run returned nothing for scores 0; "skip": only queries every
        run answered are compared (the mean policy's choice for empty queries, the document's)."""
        self.document.set_mean(empty=missing)

    def flush(self) -> None:
        """Bring the statistics up to date now, and say so if an edit had left them behind."""
        if self.statistics.flush():
            self._tell(ComparisonChanges(summary=True))

    @property
    def working(self) -> bool:
        """Whether the statistics of the last edits are being worked out in the background."""
        return self.statistics.working

    @property
    def _pending(self) -> dict[str, dict[str, float]]:
        return self.statistics.pending

    def _statistics_landed(self) -> None:
        self._tell(ComparisonChanges(summary=True))

    # ---- following the document --------------------------------------------------------------------
    def _tell(self, what: ComparisonChanges) -> None:
        """The figures changed: in the notice being made, or in one of its own."""
        if self._following:
            self._told = what if self._told is None else self._told | what
        else:
            self.document.announce(Changes(comparison=what))

    def _follow_all(self, changes: Changes) -> Changes | None:
        self._following, self._told = True, None
        try:
            if changes.scores:
                self._scores_changed()
            self._follow(changes)
        finally:
            self._following = False
        return None if self._told is None else Changes(comparison=self._told)

    def _follow(self, changes: Changes) -> None:
        doc = self.document
        if not self._runs:
            self._doc_name = run_label(doc.display_name)
            if changes.comparing and self._ndcg is not None and len(self._ndcg.columns):
                self._rescore_all()  # the last run removed: the figures go
            return
        redo = changes.dataset or changes.definition or self._open_name() != self._doc_name
        runs = self._ndcg is None or list(self._ndcg.columns) != self.names
        cmp = self.statistics.cmp
        if redo or runs or (changes.comparing and cmp is not None and cmp.baseline != self.baseline) \
                or (changes.policy and cmp is not None and cmp.measure.empty != self._missing):
            self._rescore_all()
        elif changes.comparing:  # only the run in the plots
            self._work_out_overlap()
            self._tell(ComparisonChanges(runs=True))
        elif changes.lists and not self.waiting:  # (waiting: the rescore covers the edits)
            self._rescore(changes.lists)

    def _scores_changed(self) -> None:
        if self._after_scores and not self.scores.pending:
            self._after_scores = False
            self._rescore_all()

    def _rescore_all(self) -> None:
        self._ticket += 1  # (a job under way is not wanted any more: its report says stop)
        self._job_wanted = False
        if self.scores.pending and self._runs:
            # A big file is scored anew in the background: the open run's figures come with it.
            self._after_scores = True
            self._wait_for_figures()
            return
        self._doc_name = self._open_name()
        self._others.clear()
        if not self._runs:
            self._ndcg, self._answered, self._stale = _no_frame(), _no_frame(), False
            self._overlap = None
            self.statistics.reset(None)
            self._tell(ComparisonChanges(runs=True, summary=True))
            return
        if not self.document.dataset.in_memory or not all(ds.in_memory for ds in self._runs.values()):
            self._job_wanted = True  # (DuckDB scores a run again: seconds to minutes)
            self._wait_for_figures()
            if self._job is None:
                self._start_job()
            return
        # The open run as the window shows it (its lists as edited, scored as the query panel
        # scores them; `Workspace.for_saving` differs after an edit that emptied a list, see
        # tests/qt/document/test_comparison.py).
        self._install(report.compare_state(self.document.state, self._doc_name, self.scores.result,
                                           self.baseline))

    def _install(self, figures: report.RunFigures) -> None:
        self._ndcg, self._answered, self._stale = figures.ndcg, figures.answered, False
        self.statistics.reset(figures.comparison)
        self._work_out_overlap()
        self._tell(ComparisonChanges(runs=True, summary=True))

    def _work_out_overlap(self, queries: frozenset[str] | None = None) -> None:
        """The focus run's overlap with the baseline, worked out with the other per-query figures
        (every query, or again for the edited `queries`), with the judging holes where NDCG
        judges them."""
        focus = self.focus
        if focus is None:
            self._overlap = None
            return
        state = self.document.state
        if queries is not None and self._overlap is not None:
            rows = report.run_overlap(state, self._doc_name, self.baseline, focus, sorted(queries))
            if rows is None:
                return
            import pandas as pd

            before = self._overlap.drop(columns="hole")
            table = pd.concat([before.drop(index=rows.index, errors="ignore"), rows])
        else:
            table = report.run_overlap(state, self._doc_name, self.baseline, focus)
            if table is None:
                self._overlap = None
                return
        from ndcg_gui.core.analysis.runs.overlap import is_hole  # lazy: start-up

        judged = self.judged and self._ndcg is not None and focus in self.deltas.columns
        table["hole"] = is_hole(table["rbo"], self.deltas[focus]) if judged else False
        self._overlap = table

    def _wait_for_figures(self) -> None:
        """Until the figures come from the background, those of before are shown (`waiting`:
        greyed), a run added meanwhile without figures (NaN), and no statistics are worked out."""
        self.statistics.reset(self.statistics.cmp)
        import pandas as pd

        names = self.names
        self._ndcg = (self._ndcg if self._ndcg is not None else pd.DataFrame()).reindex(columns=names)
        answered = self._answered if self._answered is not None else pd.DataFrame()
        self._answered = answered.reindex(columns=names, fill_value=False)
        self._tell(ComparisonChanges())

    # ---- the worker, for runs read where they lie ----------------------------------------------------
    def _start_job(self) -> None:
        ticket, state, own = self._ticket, self.document.state, self.scores.result
        engines = sum(not ds.in_memory for ds in (state.dataset, *self._runs.values()))
        fraction, post = StepFraction(SCORING_STEPS * engines), self.document.runner.post

        def told(step: str, percent: float) -> bool:
            post(self._progressed, ticket, fraction(step, percent))
            return ticket == self._ticket

        work = functools.partial(_compare_engine, state, self._doc_name, own, self.baseline, told,
                                 self.document.current_query)
        self.task.started.emit(f"Scoring the runs compared at k = {state.k} with DuckDB")
        self._job = self.document.runner.run("run comparison", work,
                                             functools.partial(self._landed, ticket, state))

    def _progressed(self, ticket: int, fraction: float) -> None:
        if ticket == self._ticket:
            self.task.progressed.emit(fraction)

    def _landed(self, ticket: int, state: Workspace, figures: report.RunFigures | InputError | None,
                error: BaseException | None) -> None:
        """A job's figures of `state` (None: it was stopped; an InputError: a file that could not be
        read, said in one line); the runner raises a bug after this."""
        self._job = None
        self.task.finished.emit(None)
        if ticket != self._ticket or (figures is None and error is None):
            if self._job_wanted:  # overtaken: the document as it is now
                self._start_job()
            return
        self._job_wanted = False
        failed = error is not None or isinstance(figures, InputError)
        problem = None if not isinstance(figures, InputError) else (
            f"{figures} — the runs compared were not scored again: the greyed figures are of before")
        self._stale = failed
        self._following, self._told = True, None
        try:
            if not failed:
                self._install(figures)
                # Lists edited while the engine worked: rescored one by one.
                now = self.document.state
                edited = frozenset(q for q in set(state.lists) | set(now.lists)
                                   if state.lists.get(q) is not now.lists.get(q))
                if edited:
                    self._rescore(edited)
            else:
                self._told = ComparisonChanges()  # (the figures of before, still greyed)
        finally:
            self._following = False
        self.document.announce(Changes(comparison=self._told, problem=problem))

    def stop(self, timeout: float = 10.0) -> None:
        """On quit: stop an engine's scoring and wait for its thread (a thread still in DuckDB when
        Python ends aborts the process)."""
        self._ticket += 1
        self._job_wanted = False
        job = self._job
        if job is not None:
            job.join(timeout)

    def wait(self, timeout: float = 60.0) -> bool:
        """Process events until the figures are those of the document as it is now (tests)."""
        deadline = time.monotonic() + timeout
        while (self._after_scores or self._job_wanted or self.scores.pending) and time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.001)
        return not self.waiting

    def _open_name(self) -> str:
        """The open run's name: its file's, told apart from a run added under the same name."""
        name = run_label(self.document.display_name)
        return f"{name} (open)" if name in self._runs else name

    def _rescore(self, queries: frozenset[str]) -> None:
        """The open run's lists of `queries` changed: rescore them for every run (the judgments
        may have changed too). A query that gains or loses its last judgment or its last document
        changes which queries are compared: then everything is scored again."""
        rows = report.edited_rows(self.document.state, self._doc_name, queries, self._ndcg, self._answered,
                                  self.scores.result, self._others)
        if rows is None:
            self._rescore_all()
            return
        moved = self._overlap is not None  # (a move changes the overlap, judged or not)
        if not rows:
            if moved:
                self._work_out_overlap(queries)
                self._tell(ComparisonChanges(queries=frozenset(queries)))
            return
        import pandas as pd

        values = self._ndcg.to_numpy(copy=True)  # a new frame: readers may hold the old one
        at = self._ndcg.index.get_indexer(list(rows))
        cmp = self.statistics.cmp
        compared = cmp.per_query.index if cmp is not None else pd.Index([])
        changed = set()
        for (query, row), i in zip(rows.items(), at, strict=True):
            for j, run in enumerate(self.names):
                if row[run] != values[i, j]:
                    values[i, j] = row[run]
                    changed.add(query)
                    if query in compared:
                        self.statistics.add(run, query, row[run])
        if not changed and not moved:  # (a move among documents of one grade, say): nothing shown changes
            return
        if changed:
            self._ndcg = pd.DataFrame(values, index=self._ndcg.index, columns=self._ndcg.columns)
        self._work_out_overlap(frozenset(queries))
        self._tell(ComparisonChanges(queries=frozenset(changed | set(queries))))
        if not changed:
            return
        self.statistics.edited()


def _compare_engine(state: Workspace, open_run: str, own: pd.DataFrame, baseline: str,
                    told, shown: str) -> report.RunFigures | InputError | None:
    """`compare_state` in a worker, an engine's progress `told` (returning False stops it: None);
    the lists of the query `shown` read first (the pane shows them side by side: not read again on
    the GUI thread). A file that cannot be read (gone since, the engine out of memory) is the
    InputError returned, said in one line, not raised (a bug is)."""
    from ndcg_gui.core.sql.progress import Cancelled

    engines_below_gui()  # (DuckDB's threads below the window; this one holds the GIL between calls)
    try:
        state.read_all(shown)
        return report.compare_state(state, open_run, own, baseline, progress=told)
    except Cancelled:
        return None
    except InputError as err:
        return err


def _no_frame() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame()
