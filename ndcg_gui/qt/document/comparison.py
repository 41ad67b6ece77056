"""Run A against run B (and C …): further runs compared with the open one, kept in step with the
document.

The open run is the document's, edits included; the others are files loaded against the same
judgments and never change. Every run is scored against the document's judgments (a grade edited
in the open run judges that document for every run, as one qrels file would) under the document's
definition, by `core.compare.compare_runs`; the open run's per-query NDCG is the one the query
panel shows (`QueryScores`: an edited list is scored on its own), so every figure on screen agrees.
The baseline is the open run unless the person picks another; `focus` is the run put against the
baseline in the plots.

A new file, definition or set of runs scores everything again. An edit rescores only its query,
for every run (one list each; a move changes no judgment, so the other runs' figures stand), and
the statistics follow through `Comparison.with_scores`: once edits pause (`STATS_DELAY_MS`), in a
thread, so a drag repaints at once, a burst of edits (a held Ctrl+Down) pays for them once and no
frame waits for them. Reading `comparison` (or `flush`) always gives them up to date, at once.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, QTimer

from ndcg_gui.core.analysis.significance import snap_ties
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.state.workspace import run_label
from ndcg_gui.core.summary import list_row
from ndcg_gui.qt.document.changes import Changes, ComparisonChanges
from ndcg_gui.qt.document.document import Document
from ndcg_gui.qt.document.query_scores import QueryScores

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.compare import Comparison

SAMPLES, SEED = 10_000, 0  # the randomization test's and the bootstrap's draws, and their seed
STATS_DELAY_MS = 60
class RunComparison(QObject):
    """What changes is said in the document's notice (`Changes.comparison`): worked out with each
    change after the scores (`Document.work_out_with`), or announced when statistics land."""

    def __init__(self, document: Document, scores: QueryScores, parent: QObject | None = None) -> None:
        """This works out each change after `scores` did (`QueryScores.followed_by`), so they are
        up to date when this rescores."""
        super().__init__(parent)
        self.document, self.scores = document, scores
        # What is compared (runs, baseline, focus) and the mean policy are the document's state
        # (`Workspace.comparing`, `.policy`): changed through it, undoable and recovered. This
        # object holds what is worked out from them.
        self._doc_name = run_label(document.display_name)
        self._ndcg: pd.DataFrame | None = None  # (None until a run is added: no pandas at start-up)
        self._answered: pd.DataFrame | None = None
        self._cmp: Comparison | None = None
        self._after_scores = False  # a rescore waits for the open run's scores (a big file)
        self._pending: dict[str, dict[str, float]] = {}  # run -> query -> NDCG not in _cmp yet
        # query -> (the judgments, the other runs' NDCG under them), since the last full scoring
        self._others: dict[str, tuple[dict[str, float], dict[str, float]]] = {}
        self._timer = QTimer(self, singleShot=True, interval=STATS_DELAY_MS)
        self._timer.timeout.connect(self._work_out)
        # Counts of `_cmp` replaced from outside the statistics thread (a thread's result on an
        # older one is dropped) and of edits added to `_pending` (a thread's result that misses
        # some is shown, and the rest worked out after it).
        self._base, self._edits = 0, 0
        self._working = False  # the statistics thread is busy (one at a time)
        self._told: ComparisonChanges | None = None  # (what the change being followed changed)
        self._following = False
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
        return self.document.state.policy.empty

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
        """Whether the figures are of the previous definition, the open run's new scores not in yet."""
        return self._after_scores

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
        if self._missing == "skip":
            return self._ndcg.index[self._answered.all(axis=1).to_numpy()]
        return self._ndcg.index

    @property
    def deltas(self) -> pd.DataFrame:
        """Per query, each run's NDCG minus the baseline's (ties within 1e-9 exactly 0), as the
        statistics see them; NaN for queries left out of the comparison."""
        import pandas as pd

        if not self.active:
            return pd.DataFrame()
        others = self.others
        base = self._ndcg[self.baseline].to_numpy(dtype=float)
        values = snap_ties(self._ndcg[others].to_numpy(dtype=float) - base[:, None])
        values[~self._ndcg.index.isin(self.compared)] = np.nan
        return pd.DataFrame(values, index=self._ndcg.index, columns=pd.Index(others, name="run"))

    @property
    def comparison(self) -> Comparison | None:
        """The statistics (`core.compare.Comparison`), up to date with every edit; None while no
        run is compared."""
        if self._pending and self._cmp is not None:
            self._cmp = _with_scores(self._cmp, self._pending)
            self._base += 1
        self._pending = {}
        return self._cmp

    def list_for(self, run: str, query: str) -> RankedList:
        """The list `run` holds for `query`, judged by the document's judgments (the open run:
        its list as edited)."""
        own = self.document.list_for(query)
        if run == self._doc_name:
            return own
        return _judged_by(self._runs[run], query, own.judgments()).ties_ordered(self.document.ties)

    # ---- changing -----------------------------------------------------------------------------------
    def can_add(self) -> bool:
        """Runs are compared on judgments: the open document must have them."""
        return self.document.dataset.has_pool

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
        from ndcg_gui.core.summary import MeanPolicy

        self.document.set_policy(MeanPolicy(missing, self.document.state.policy.undefined))

    def flush(self) -> None:
        """Bring the statistics up to date now, and say so if an edit had left them behind."""
        self._timer.stop()
        if self._pending:
            self.comparison  # noqa: B018  (reading it applies the pending scores)
            self._tell(ComparisonChanges(summary=True))

    @property
    def working(self) -> bool:
        """Whether the statistics of the last edits are being worked out in the background."""
        return self._working

    # ---- the statistics thread ----------------------------------------------------------------------
    # 10,000 sign flips and resamples over 2,000 queries take 70-290 ms: on the GUI thread that was
    # a frozen frame each time edits paused. numpy does most of it with the GIL released.
    def _work_out(self) -> None:
        if self._working or not self._pending or self._cmp is None:
            return  # (a thread under way starts the next one when it lands)
        self._working = True
        pending = {run: dict(values) for run, values in self._pending.items()}
        self.document.runner.run("comparison statistics", functools.partial(_with_scores, self._cmp, pending),
                                 functools.partial(self._install, (self._base, self._edits)))

    def _install(self, tickets: tuple[int, int], result: Comparison | None,
                 error: BaseException | None) -> None:
        self._working = False
        if error is not None:
            return  # (the runner raises it; `_pending` is kept: reading `comparison` tries again)
        base, edits = tickets
        if base == self._base:
            # The statistics of the lists as they were when the thread started. Edits made since
            # stay pending (re-applying the ones it covered changes nothing: `with_scores` sets
            # values), so a steady stream of edits still shows figures, a moment behind.
            self._cmp = result
            if edits == self._edits:
                self._pending = {}
            self._tell(ComparisonChanges(summary=True))
        if self._pending and not self._timer.isActive():
            self._work_out()  # edits made while it worked, which have paused since

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
        if redo or runs or (changes.comparing and self._cmp is not None
                            and self._cmp.baseline != self.baseline) \
                or (changes.policy and self._cmp is not None and self._cmp.missing != self._missing):
            self._rescore_all()
        elif changes.comparing:  # only the run in the plots
            self._tell(ComparisonChanges(runs=True))
        elif changes.lists and not self._after_scores:  # (waiting: the rescore covers the edits)
            self._rescore(changes.lists)

    def _scores_changed(self) -> None:
        if self._after_scores and not self.scores.pending:
            self._after_scores = False
            self._rescore_all()

    def _rescore_all(self) -> None:
        import pandas as pd

        if self.scores.pending and self._runs:
            # A big file is scored anew in the background: the open run's figures come with it.
            # Until then the figures are of the previous definition (`waiting`: shown greyed), a
            # run added meanwhile without figures (NaN), and no statistics are worked out.
            self._after_scores = True
            self._base += 1
            self._pending = {}
            self._timer.stop()
            import pandas as pd

            names = self.names
            self._ndcg = (self._ndcg if self._ndcg is not None else pd.DataFrame()).reindex(columns=names)
            answered = self._answered if self._answered is not None else pd.DataFrame()
            self._answered = answered.reindex(columns=names, fill_value=False)
            self._tell(ComparisonChanges())
            return
        doc = self.document
        self._doc_name = self._open_name()
        self._pending = {}
        self._base += 1
        self._others.clear()
        self._timer.stop()
        if not self._runs:
            self._ndcg, self._answered, self._cmp = pd.DataFrame(), pd.DataFrame(), None
            self._tell(ComparisonChanges(runs=True, summary=True))
            return
        # The open run as the window shows it (`Document.list_for`; `Workspace.for_saving` differs
        # from it after an edit that emptied a list, see tests/qt/test_comparison.py).
        edited = doc.edited_queries()
        data = doc.dataset.with_lists({q: doc.list_for(q) for q in edited}) if edited else doc.dataset
        runs = {self._doc_name: data, **self._runs}
        every = self._compare(runs, data.qrels)
        index = every.per_query.index
        own = self.scores.result.reindex(index)
        self._answered = pd.DataFrame(
            {name: index.isin(_answered_queries(ds)) for name, ds in runs.items()}, index=index)
        every = self._as_shown(every, own)
        self._ndcg = every.per_query
        self._cmp = every if self._missing == "zero" else every.skipping(self._answered)
        self._tell(ComparisonChanges(runs=True, summary=True))

    def _as_shown(self, cmp: Comparison, own: pd.DataFrame) -> Comparison:
        """`cmp` with the open run's NDCG as the query panel shows it. `Dataset.evaluate` breaks
        tied scores by their mean ("average") only when every row of the file has a score, the
        panel per edited list: the two differ after an edit that adds a row without a score."""
        shown = own["ndcg"].reindex(cmp.per_query.index)
        differ = shown.notna() & (shown != cmp.per_query[self._doc_name])
        return cmp.with_scores(self._doc_name, shown[differ]) if differ.any() else cmp

    def _open_name(self) -> str:
        """The open run's name: its file's, told apart from a run added under the same name."""
        name = run_label(self.document.display_name)
        return f"{name} (open)" if name in self._runs else name

    def _compare(self, runs: dict[str, Dataset], qrels) -> Comparison:
        """Every run scored and compared, judged queries a run left empty scoring 0 ("skip" is
        worked out from it: `Comparison.skipping`)."""
        from ndcg_gui.core.analysis.compare import compare_runs

        doc = self.document
        return compare_runs(runs, qrels, k=doc.k, config=doc.config, ties=doc.ties, missing="zero",
                            baseline=self.baseline, samples=SAMPLES, seed=SEED)

    def _rescore(self, queries: frozenset[str]) -> None:
        """The open run's lists of `queries` changed: rescore them for every run (the judgments
        may have changed too). A query that gains or loses its last judgment or its last document
        changes which queries are compared: then everything is scored again."""
        doc = self.document
        own = self.scores.result  # the open run's lists as the panel scored them
        rows: dict[str, dict[str, float]] = {}
        for query in queries:
            lst = doc.list_for(query)
            judgments = lst.judgments()
            # Compared: the queries the document's judgments cover (a typed list without judgments
            # stays in the panel, scored by its own grades, but has nothing to compare on).
            known, judged = query in self._ndcg.index, bool(judgments)
            if known != judged or (known and self._answered.at[query, self._doc_name] != bool(len(lst))):
                self._rescore_all()
                return
            if known:
                shown = own.at[query, "ndcg"] if query in own.index else _ndcg_of(lst, doc)
                rows[query] = {self._doc_name: float(shown)} | self._others_on(query, judgments)
        if not rows:
            return
        import pandas as pd

        values = self._ndcg.to_numpy(copy=True)  # a new frame: readers may hold the old one
        at = self._ndcg.index.get_indexer(list(rows))
        compared = self._cmp.per_query.index if self._cmp is not None else pd.Index([])
        changed = set()
        for (query, row), i in zip(rows.items(), at, strict=True):
            for j, run in enumerate(self.names):
                if row[run] != values[i, j]:
                    values[i, j] = row[run]
                    changed.add(query)
                    if query in compared:
                        self._pending.setdefault(run, {})[query] = row[run]
                        self._edits += 1
        if not changed:  # (a move among documents of one grade, say): nothing shown changes
            return
        self._ndcg = pd.DataFrame(values, index=self._ndcg.index, columns=self._ndcg.columns)
        self._tell(ComparisonChanges(queries=frozenset(changed)))
        if self._pending:
            self._timer.start()

    def _others_on(self, query: str, judgments: dict[str, float]) -> dict[str, float]:
        """The other runs' NDCG of `query` judged by `judgments`. Their lists never change, so
        while an edit leaves the judgments as they were (a move), the last figures hold."""
        held = self._others.get(query)
        if held is None or held[0] != judgments:
            held = judgments, {run: _ndcg_of(self.list_for(run, query), self.document) for run in self._runs}
            self._others[query] = held
        return held[1]


def _with_scores(cmp: Comparison, pending: dict[str, dict[str, float]]) -> Comparison:
    for run, values in pending.items():
        cmp = cmp.with_scores(run, values)
    return cmp


def _answered_queries(dataset: Dataset) -> set[str]:
    return set(dataset.run["query"].astype(str).unique())


def _judged_by(dataset: Dataset, query: str, judgments: dict[str, float]) -> RankedList:
    """`dataset`'s list for `query` with `judgments` as its grades and judged pool."""
    try:
        own = dataset.ranked_list(query)
    except KeyError:
        own = RankedList.from_grades([], query=query)
    docs = own.docs.tolist()
    listed = set(docs)
    return dataclasses.replace(
        own,
        grades=np.array([judgments.get(d, np.nan) for d in docs], dtype=float),
        unretrieved={d: g for d, g in judgments.items() if d not in listed},
        has_pool=True,
    )


def _ndcg_of(lst: RankedList, doc: Document) -> float:
    """NDCG@k of one judged list, its tied scores in the order of the tie rule in use, as
    `Dataset.evaluate` scores it in the whole run."""
    row = list_row(lst, doc.k, doc.config, doc.ties)
    return float(row["ndcg"].iloc[0]) if len(row) else 0.0


def _no_frame() -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame()
