"""What the window shows across the queries of one `Workspace`, worked out from the state alone,
as `ListReport` is for the list on screen: every query's NDCG under the definition, edits
included; the mean and the histogram's queries under the mean policy; the worst query; and the run
comparison's per-query figures and statistics.

Qt-free: the window decides when this work runs (`qt/document`: at once, or on its `Runner` for a
big file) and keeps what is already worked out; a script or a test calls it directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.analysis.runs.significance import snap_ties
from ndcg_gui.core.errors import InputError
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.query_order import KEEP_FROM, order_keys_of
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.lists.rescoring import list_row, score, with_list_rescored
from ndcg_gui.core.ndcg.mean import (
    MeanSummary,
    bin_index,
    counted,
    histogram,
    mean_summary,
    worst_query,
)
from ndcg_gui.core.ndcg.measure import MEAN_FIELDS, Measure

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.runs.compare import Comparison
    from ndcg_gui.core.formats.query_map import QueryMap
    from ndcg_gui.core.state.workspace import Workspace

SAMPLES, SEED = 10_000, 0  # the randomization test's and the bootstrap's draws, and their seed


# ---- every query's scores --------------------------------------------------------------------------
def score_state(state: Workspace, scored: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every query of `state` scored under its measure (a row of `evaluate` under
    `Measure.per_query`), its edited lists included, `prepared` for the window under the measure's
    mean policy. `scored`: the dataset's own queries already scored so (a loader did it)."""
    if scored is None:
        scored = score(state.dataset, state.measure)
    return prepared(rescored(scored, state, state.edited_queries()), state.measure)


def score_for_window(dataset: Dataset, measure: Measure) -> pd.DataFrame:
    """`score`, `prepared` for the window (a loader's worker). Module-level so a loader process
    can run it (`functools.partial(score_for_window, measure=...)` pickles)."""
    return prepared(score(dataset, measure), measure)


def prepared(result: pd.DataFrame, measure: Measure) -> pd.DataFrame:
    """`result`, with what the window's query panel works out over every query of a big one (the
    ids' natural order, lengths and Arrow text; the mean and histogram under `measure`) worked out
    now and kept for it: called in the worker that scored it, so the frame that shows 500,000
    queries only takes them (its keys, mean and histogram made there would fill that frame)."""
    if len(result) >= KEEP_FROM:
        order_keys_of(result.index)
        QueryMean.keep(result, measure)
    return result


def rescored(result: pd.DataFrame, state: Workspace, queries: Sequence[str] | set[str]) -> pd.DataFrame:
    """`result` with the rows of `queries` scored again from `state`'s lists (each query is scored
    on its own, so this equals scoring every query again)."""
    for query in queries:
        result = with_list_rescored(result, state.list_for(query), state.measure)
    return result


def ndcg_of(lst: RankedList, measure: Measure) -> float:
    """NDCG@k of one judged list, its tied scores in the order of the tie rule, as `evaluate`
    scores it in a whole run (0 for a list with nothing to score)."""
    row = list_row(lst, measure)
    return float(row["ndcg"].iloc[0]) if len(row) else 0.0


# ---- the mean and the histogram ----------------------------------------------------------------------
class QueryMean:
    """The mean NDCG of `result` (every query's row) under `measure`'s mean policy, and the queries
    it counts: the histogram's values. `of` gives the one a worker worked out already (`keep`), if
    any."""

    _kept: tuple[QueryMean, ...] = ()  # the last two kept (their results held: identity is the key)

    def __init__(self, result: pd.DataFrame, measure: Measure) -> None:
        self.result, self.measure = result, measure

    @classmethod
    def of(cls, result: pd.DataFrame, measure: Measure) -> QueryMean:
        """The one kept for `result` under `measure`'s mean policy (its other choices made
        `result`), else a new one."""
        policy = tuple(getattr(measure, f) for f in MEAN_FIELDS)
        for kept in cls._kept:
            if kept.result is result and tuple(getattr(kept.measure, f) for f in MEAN_FIELDS) == policy:
                return kept
        return cls(result, measure)

    @classmethod
    def keep(cls, result: pd.DataFrame, measure: Measure) -> QueryMean:
        """Work out the mean and the histogram of `result` now (a worker thread) and keep them."""
        mean = cls.of(result, measure)
        _ = mean.summary, mean.histogram
        cls._kept = (mean, *cls._kept[:1])
        return mean

    @cached_property
    def summary(self) -> MeanSummary | None:
        """The mean and what went into it; None when there is no query."""
        return mean_summary(self.result, self.measure) if len(self.result) else None

    @cached_property
    def counted_ndcg(self) -> np.ndarray:
        """`values` without their queries (what the histogram draws; picking the Index of every id
        by the same mask would copy ids it never reads)."""
        if not len(self.result):
            return np.zeros(0)
        keep = counted(self.result, self.measure).to_numpy(dtype=bool)
        return self.result["ndcg"].to_numpy(dtype=float)[keep]

    @cached_property
    def histogram(self) -> tuple[np.ndarray, np.ndarray]:
        """(edges, counts) of `counted_ndcg`."""
        return histogram(self.counted_ndcg)

    @cached_property
    def values(self) -> pd.Series:
        """NDCG of each query the mean counts (index: query)."""
        import pandas as pd  # lazy: start-up (pandas)

        if not len(self.result):
            return pd.Series([], dtype=float)
        # (Picked by a numpy mask, not `.loc[Series]`: numpy asks the Series for attributes, and
        # pandas looks each name up among the index's labels: a hash table of every query id
        # made for that, in the frame that shows them.)
        keep = counted(self.result, self.measure).to_numpy(dtype=bool)
        return pd.Series(self.result["ndcg"].to_numpy(dtype=float)[keep], index=self.result.index[keep],
                         name="ndcg")

    def in_bin(self, edges: np.ndarray, index: int) -> list[str]:
        return in_bin(self.values, edges, index)


def in_bin(values: pd.Series, edges: np.ndarray, index: int) -> list[str]:
    """The queries (`values`' index) whose value falls in histogram bin `index` of `edges`."""
    return [str(q) for q in values.index[bin_index(values.to_numpy(dtype=float), edges) == index]]


# ---- runs compared -------------------------------------------------------------------------------------
def judged_by(dataset: Dataset, query: str, judgments: Mapping[str, float]) -> RankedList:
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


def answered_queries(dataset: Dataset) -> set[str]:
    """The queries `dataset` returned at least one document for."""
    return dataset.answered_queries()


def run_list(state: Workspace, run: str | None, query: str) -> RankedList:
    """The list run `run` (None: the open one) holds for `query`, judged by the open document's
    judgments (the open run: its list as edited)."""
    own = state.list_for(query)
    if run is None:
        return own
    return judged_by(state.comparing.run(run).dataset, query, own.judgments()).ties_ordered(state.measure)


@dataclasses.dataclass(frozen=True)
class RunFigures:
    """Every run's NDCG@k per judged query (a run that returned nothing scoring 0), edits of the open
    run included; where each run answered; and the statistics over the queries compared."""

    ndcg: pd.DataFrame  # index query, a column per run (the open one first)
    answered: pd.DataFrame  # True where the run returned a document for the query
    comparison: Comparison

    def compared(self, missing: str) -> pd.Index:
        """The queries the statistics are over: every judged one (missing="zero"), or those every
        run answered ("skip")."""
        return compared_queries(self.ndcg, self.answered, missing)


def compared_queries(ndcg: pd.DataFrame, answered: pd.DataFrame, missing: str) -> pd.Index:
    if missing == "skip":
        return ndcg.index[answered.all(axis=1).to_numpy()]
    return ndcg.index


def deltas(ndcg: pd.DataFrame, baseline: str, others: list[str], compared: pd.Index) -> pd.DataFrame:
    """Per query, each of `others`' NDCG minus the baseline's (ties within 1e-9 exactly 0), as the
    statistics see them; NaN for queries left out of the comparison."""
    import pandas as pd  # lazy: start-up (pandas)

    base = ndcg[baseline].to_numpy(dtype=float)
    values = snap_ties(ndcg[others].to_numpy(dtype=float) - base[:, None])
    values[~ndcg.index.isin(compared)] = np.nan
    return pd.DataFrame(values, index=ndcg.index, columns=pd.Index(others, name="run"))


def compare_state(state: Workspace, open_run: str, own: pd.DataFrame, baseline: str,
                  progress: Callable[[str, float], bool | None] | None = None) -> RunFigures:
    """The open run (named `open_run`, its lists as edited) and every run `state` compares, scored
    against the open document's judgments under its definition and compared with `baseline`.
    `own`: the open run's every query scored (`score_state`), whose NDCG the figures show for it.
    `progress`: told how far an engine scoring a run read where it lies is (returning False stops
    it: `core.sql.progress`'s Report and Cancelled)."""
    import pandas as pd  # lazy: start-up (pandas)

    from ndcg_gui.core.analysis.runs.compare import compare_runs, compare_scored  # lazy: start-up

    edited = state.edited_queries()
    data = state.dataset.with_lists({q: state.list_for(q) for q in edited}) if edited else state.dataset
    runs = {open_run: data, **{r.name: r.dataset for r in state.comparing.runs}}
    if all(ds.in_memory for ds in runs.values()):
        every = compare_runs(runs, data.qrels, state.measure.per_query(), baseline=baseline,
                             samples=SAMPLES, seed=SEED)
    else:  # a run read where it lies (core.sql): each run's scores from its engine, judged by its qrels
        measure = state.measure.per_query()
        scored = {name: own if name == open_run else ds.evaluate(measure)
                  if ds.in_memory else ds.evaluate(measure, progress=progress)
                  for name, ds in runs.items()}
        # Each run scored by its own qrels file: an edited query is judged for every run by the
        # open run's judgments as edited (as `compare_runs` judges them all), each run's list of it
        # read here (a worker) and kept (`Workspace.with_list`, `with_run`).
        for name in [r.name for r in state.comparing.runs]:
            for query in edited:
                scored[name] = with_list_rescored(scored[name], run_list(state, name, query), measure)
        every = compare_scored(scored, measure, baseline=baseline, samples=SAMPLES, seed=SEED)
    index = every.per_query.index
    answered = pd.DataFrame({name: index.isin(answered_queries(ds)) for name, ds in runs.items()},
                            index=index)
    every = as_shown(every, open_run, own.reindex(index))
    cmp = every if state.measure.empty == "zero" else every.skipping(answered)
    return RunFigures(every.per_query, answered, weighted(cmp, state.weights))


def weighted(cmp: Comparison, weights: QueryMap[float] | None) -> Comparison:
    """`cmp` weighted by the document's query weights as `ndcg-inspect` weighs a comparison
    (`compare.weighed`); as it is without weights or when they do not weigh it (`weights_problem`
    says why, for the window)."""
    from ndcg_gui.core.analysis.runs.compare import weighed  # lazy: start-up (pandas)

    try:
        return weighed(cmp, weights)
    except InputError:  # (the window says why: `weights_problem`)
        return cmp


def weights_problem(cmp: Comparison, weights: QueryMap[float]) -> str | None:
    """Why `weights` cannot weigh `cmp` (a compared query without a weight, every weight 0), in
    `compare.weighed`'s one line; None when they can."""
    from ndcg_gui.core.analysis.runs.compare import compared_weights  # lazy: start-up (pandas)

    try:
        compared_weights(cmp, weights)
    except InputError as err:
        return str(err)
    return None


def as_shown(cmp: Comparison, open_run: str, own: pd.DataFrame) -> Comparison:
    """`cmp` with the open run's NDCG as every query's scores have it. `Dataset.evaluate` breaks
    tied scores by their mean ("average") only when every row of the file has a score, a list
    scored alone always: the two differ after an edit that adds a row without a score."""
    shown = own["ndcg"].reindex(cmp.per_query.index)
    differ = shown.notna() & (shown != cmp.per_query[open_run])
    return cmp.with_scores(open_run, shown[differ]) if differ.any() else cmp


def with_scores(cmp: Comparison, scores: Mapping[str, Mapping[str, float]]) -> Comparison:
    """`cmp` with each run's NDCG of some queries replaced (run -> query -> NDCG), its statistics
    worked out again."""
    for run, values in scores.items():
        cmp = cmp.with_scores(run, values)
    return cmp


Judged = dict[str, tuple[dict[str, float], dict[str, float]]]  # query -> (judgments, other runs' NDCG)


Rows = dict[str, dict[str, float]]  # query -> run -> NDCG


def edited_rows(state: Workspace, open_run: str, queries: Sequence[str] | frozenset[str], ndcg: pd.DataFrame,
                answered: pd.DataFrame, own: pd.DataFrame, held: Judged) -> Rows | None:
    """Every run's NDCG of the edited `queries` (query -> run -> NDCG), for the compared ones; None
    when an edit changes which queries are compared (a query gains or loses its last judgment or its
    last document): then everything is compared again. `own`: the open run's scores; `held`: the
    other runs' figures under the judgments they were worked out for (kept between calls: their
    lists never change, so while an edit leaves the judgments as they were, a move, they hold)."""
    rows: Rows = {}
    for query in queries:
        lst = state.list_for(query)
        judgments = lst.judgments()
        # Compared: the queries the judgments cover (a typed list without judgments has nothing to
        # compare on).
        known, judged = query in ndcg.index, bool(judgments)
        if known != judged or (known and answered.at[query, open_run] != bool(len(lst))):
            return None
        if known:
            shown = own.at[query, "ndcg"] if query in own.index else ndcg_of(lst, state.measure)
            last = held.get(query)
            if last is None or last[0] != judgments:
                others = {r.name: ndcg_of(run_list(state, r.name, query), state.measure)
                          for r in state.comparing.runs}
                last = held[query] = (judgments, others)
            rows[query] = {open_run: float(shown)} | last[1]
    return rows


def run_overlap(state: Workspace, open_run: str, baseline: str, other: str,
                queries: Sequence[str] | None = None) -> pd.DataFrame | None:
    """How differently `other` ranks each query than `baseline` (`core.analysis.runs.overlap`:
    rbo, jaccard@k, tau; index query), both ranked as NDCG ranks them under the state's
    definition, the open run's edited lists as they stand; `queries`: those only (None: every
    query of either run). None when a run is read where it lies (its rows are not at hand)."""
    from ndcg_gui.core.analysis.runs.overlap import lists_overlap, ranked_lists  # lazy: start-up

    sides = []
    for name in (baseline, other):
        dataset = state.dataset if name == open_run else state.comparing.run(name).dataset
        if not dataset.in_memory:
            return None
        lists = ranked_lists(dataset.run, state.measure)
        if name == open_run:
            lists |= {q: state.list_for(q).docs.tolist() for q in state.edited_queries()}
        sides.append(lists)
    return lists_overlap(sides[0], sides[1], state.measure.k, queries=queries)


# ---- the report ------------------------------------------------------------------------------------------
class WorkspaceReport:
    """What the window shows across queries of `state`, each part worked out when first read.
    `scores`: every query's scores when already worked out (the window keeps them up to date edit
    by edit)."""

    def __init__(self, state: Workspace, scores: pd.DataFrame | None = None) -> None:
        self.state = state
        if scores is not None:
            self.__dict__["scores"] = scores

    @cached_property
    def scores(self) -> pd.DataFrame:
        """Every query's row of `evaluate` (every judged query listed), edits included."""
        return score_state(self.state)

    @cached_property
    def mean(self) -> QueryMean:
        """The mean under the state's mean policy, and the queries it counts."""
        return QueryMean(self.scores, self.state.measure)

    def worst_query(self, among: Sequence[str] | None = None) -> tuple[str | None, list[str]]:
        """The query of lowest NDCG with results and IDCG > 0 among `among` (None: every query),
        and those passed over on the way (`core.ndcg.mean.worst_query`)."""
        return worst_query(self.scores, among)

    def runs(self, open_run: str, baseline: str | None = None) -> RunFigures:
        """The runs compared, the open one named `open_run`, against `baseline` (None: the open run)."""
        return compare_state(self.state, open_run, self.scores, baseline or open_run)
