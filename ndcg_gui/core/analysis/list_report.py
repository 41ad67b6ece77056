"""What the window shows of one ranked list, computed here so a script gets the same: the figures
at k with the caveats a reader must see next to them, the per-rank table with the two columns a
reader of the arithmetic needs, and the counts of the list's documents."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import condensed_keep, dcg_idcg_at, finish, gains, per_rank_columns
from ndcg_gui.core.ndcg.ties import run_scores, tie_runs

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.analysis.difference import Difference
    from ndcg_gui.core.analysis.unjudged import BandSearch


@dataclass(frozen=True)
class ListSummary:
    """What the headline shows: the figures at k and the warnings that matter for them."""

    k: int
    n: int
    dcg: float
    idcg: float
    ndcg: float
    warnings: tuple[str, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = field(default_factory=tuple)


def list_summary(lst: RankedList, measure: Measure) -> ListSummary:
    """NDCG@k, DCG@k, IDCG@k of one list (k the measure's, never None here: the window's), and
    the caveats a reader must see next to them. With ties="average", tied neighbours share their
    gains (scikit-learn)."""
    k = measure.k
    pool = lst.judged_pool()
    grades = lst.grades if measure.judged_only else lst.scoring_grades()  # condensed: unjudged leave
    dcg, idcg = dcg_idcg_at(grades, measure, judged=pool, tie_scores=_tie_scores(lst, measure),
                            unjudged=~lst.judged)
    ndcg = float(finish(np.array([dcg]), np.array([idcg]), measure)[0])
    warnings: list[str] = []
    notes: list[str] = []
    grades = lst.grades[lst.judged]
    all_grades = grades if pool is None else np.concatenate([grades, pool])
    if (all_grades < 0).any():
        if measure.negative == "keep":
            warnings.append("negative grades are kept: NDCG may fall outside [0, 1]")
        else:
            notes.append("negative grades count as gain 0")
    if idcg == 0:
        warnings.append(f"IDCG@{k} = 0: no relevant document, NDCG is undefined (shown as 0)")
    unjudged = int((~lst.judged[:k]).sum())
    if unjudged:
        what = "unjudged documents count" if unjudged > 1 else "unjudged document counts"
        warnings.append(f"{unjudged} {what} as gain 0 in the top {k}")
    if measure.ideal == "judged" and not lst.has_pool:
        notes.append("no qrels: the ideal comes from the list's own grades")
    if lst.unretrieved and measure.ideal == "judged":
        m = len(lst.unretrieved)
        notes.append(f"{m} judged document{'s' if m > 1 else ''} not in the list count in the ideal")
    if len(lst) < k:
        notes.append(f"the list has {len(lst)} documents, fewer than k = {k}")
    return ListSummary(k, len(lst), dcg, idcg, ndcg, tuple(warnings), tuple(notes))


DISPLAY_COLUMNS = ["rank", "doc", "grade", "judged", "gain", "discount", "cg", "dcg", "ideal_grade", "idcg",
                   "ndcg", "contribution", "ideal_gain", "tied"]


def _tie_scores(lst: RankedList, measure: Measure):
    """The scores whose ties share gains: under ties="average" only (scikit-learn)."""
    return lst.scores if measure.ties == "average" and lst.scores is not None else None


def display_columns(lst: RankedList, measure: Measure) -> dict[str, np.ndarray]:
    """What the per-rank table shows, as plain arrays: the `per_rank` columns, the list's `doc` and
    `judged`, the two figures `per_rank` leaves implicit: `contribution` (gain × discount) and
    `ideal_gain` (the gain of the ideal grade at each rank), and `tied`: how many neighbours share
    the row's gain (ties="average"; 1 otherwise)."""
    tie_scores = _tie_scores(lst, measure)
    grades = lst.grades if measure.judged_only else lst.scoring_grades()
    columns = per_rank_columns(grades, measure, judged=lst.judged_pool(), tie_scores=tie_scores,
                               unjudged=~lst.judged)
    columns["doc"] = lst.docs
    columns["judged"] = lst.judged
    if tie_scores is None:
        columns["tied"] = np.ones(len(lst), np.int64)
    else:
        runs = tie_runs(tie_scores)
        columns["tied"] = np.bincount(runs)[runs] if len(runs) else np.zeros(0, np.int64)
    columns["contribution"] = columns["gain"] * columns["discount"]
    ideal = columns["ideal_grade"]
    columns["ideal_gain"] = np.where(np.isnan(ideal), 0.0, gains(np.nan_to_num(ideal), measure))
    return {name: columns[name] for name in DISPLAY_COLUMNS}


def display_table(lst: RankedList, measure: Measure) -> pd.DataFrame:
    """`display_columns` as a DataFrame (ids kept as Python objects, not copied to Arrow)."""
    import pandas as pd  # lazy: start-up (pandas: the first screen is painted without it)

    columns = display_columns(lst, measure)
    columns["doc"] = pd.Series(columns["doc"], dtype=object, copy=False)
    return pd.DataFrame(columns)


@dataclass(frozen=True)
class Counts:
    """How many documents of a list are judged, unjudged, relevant (grade > 0), and how many judged
    documents of the query the list did not retrieve."""

    documents: int
    judged: int
    unjudged: int
    relevant: int
    unretrieved: int
    relevant_judged: int = 0  # relevant documents of the whole judged pool (retrieved or not)


ROW_KINDS = ("all", "relevant", "judged", "unjudged")


def rows_of_kind(lst: RankedList, kind: str) -> np.ndarray:
    """Which rows are of `kind`: all, relevant (grade above 0), judged, or unjudged."""
    if kind == "all":
        return np.ones(len(lst), bool)
    if kind == "relevant":
        return np.nan_to_num(lst.grades, nan=0.0) > 0
    if kind == "judged":
        return lst.judged.copy()
    if kind == "unjudged":
        return ~lst.judged
    raise ValueError(f"kind must be one of {', '.join(ROW_KINDS)}, not {kind!r}")


def counts(lst: RankedList) -> Counts:
    judged = lst.judged
    relevant = int((lst.grades[judged] > 0).sum())
    missed = sum(1 for g in lst.unretrieved.values() if g > 0)
    return Counts(len(lst), int(judged.sum()), int((~judged).sum()), relevant, len(lst.unretrieved),
                  relevant + missed)


def ideal_order(lst: RankedList, measure: Measure) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(docs, grades, list_rank) of the ideal ranking, in ideal order (see `ideal_ranking`)."""
    from_pool = lst.has_pool and measure.ideal == "judged"
    judged = lst.judged  # an unjudged document has no place in an ideal ranking of judgments
    missed = list(lst.unretrieved) if from_pool else []
    docs = np.concatenate([lst.docs[judged], np.asarray(missed, dtype=object)])
    grades = np.concatenate([lst.scoring_grades()[judged],
                             np.fromiter(lst.unretrieved.values(), float) if from_pool else np.zeros(0)])
    list_rank = np.concatenate([np.flatnonzero(judged) + 1, np.zeros(len(missed), np.int64)])
    order = np.argsort(-gains(grades, measure), kind="stable")
    return docs[order], grades[order], list_rank[order].astype(np.int64)


def ideal_rank_of_rows(lst: RankedList, measure: Measure) -> np.ndarray:
    """Each row's rank in the ideal ranking (0 for an unjudged row, or one out of the pool): where
    `ideal_order` puts each judged row, worked out without its documents and grades."""
    from_pool = lst.has_pool and measure.ideal == "judged"
    judged = lst.judged
    rows = np.flatnonzero(judged)
    grades = lst.scoring_grades()[judged]
    if from_pool and lst.unretrieved:
        grades = np.concatenate([grades, np.fromiter(lst.unretrieved.values(), float)])
    place = np.empty(len(grades), np.int64)
    place[_descending(gains(grades, measure))] = np.arange(1, len(grades) + 1)
    out = np.zeros(len(lst), np.int64)
    out[rows] = place[:len(rows)]
    return out


def _descending(values: np.ndarray) -> np.ndarray:
    """`np.argsort(-values, kind="stable")`: equal values in their order. Gains take few distinct
    values, so they are sorted as small whole numbers (NumPy's radix sort), twice as fast on a
    list of 10,000."""
    keys, at = np.unique(-values, return_inverse=True)
    if len(keys) > 1 << 15:
        return np.argsort(-values, kind="stable")
    return np.argsort(at.astype(np.int16), kind="stable")


def slot_marks(lst: RankedList, measure: Measure, ideal: np.ndarray | None = None) -> np.ndarray:
    """What NDCG@k cares about, per row: 1 for a document in the top k holding a place the ideal
    top k gives a document of higher gain, -1 for one past k that belongs in the ideal top k and
    would raise DCG@k there (a top-k place holds less: a lower grade, or an unjudged document
    counted as 0), 0 otherwise (unjudged rows: 0). Swapping any 1 with any -1 raises DCG@k, and
    every -1 has a top-k row to swap with that raises it. `ideal`: `ideal_rank_of_rows`, if known.

    Documents of one gain are interchangeable, so which of them is out of place is a choice: past
    k, the highest ranked (the first to move in); in the top k, also the highest ranked, where a
    better document would add most (the ideal ranking keeps equal gains in list order, so
    there the lowest ranked would have been the ones past its k)."""
    marks, k = np.zeros(len(lst), np.int8), measure.k
    if measure.judged_only and not condensed_keep(lst.scoring_grades(), measure).all():
        return marks  # a condensed list that leaves rows out: places are not the rows' ranks
    ideal = ideal_rank_of_rows(lst, measure) if ideal is None else ideal
    rank = np.arange(1, len(lst) + 1)
    judged = ideal > 0
    gain = gains(lst.scoring_grades(), measure)  # (unjudged: grade 0)
    out = judged & (rank <= k) & (ideal > k)
    top = judged & (rank <= k)
    for value in set(gain[out].tolist()):  # (np.unique imports numpy.ma, into the first paint)
        rows = np.flatnonzero(top & (gain == value))
        marks[rows[: int((out & (gain == value)).sum())]] = 1
    # Past k: each needs a top-k place of lower gain to take (the lowest places to the highest
    # gains first), else moving it in changes nothing (or, with negative gains kept, lowers DCG).
    places = np.sort(gain[rank <= k])
    used = 0
    for row in sorted(np.flatnonzero(judged & (ideal <= k) & (rank > k)), key=lambda r: (-gain[r], r)):
        if used < len(places) and places[used] < gain[row]:
            marks[row] = -1
            used += 1
    return marks


def ideal_ranking(lst: RankedList, measure: Measure) -> pd.DataFrame:
    """The ideal order of the judged pool (the list's own documents when no pool is known, or the
    definition takes the ideal from the list): rank, doc, grade, gain, list_rank (its rank in the
    list, 0 when the list did not retrieve it). Equal gains keep list order, then the unretrieved
    documents in pool order."""
    import pandas as pd  # lazy: start-up (pandas: the first screen is painted without it)
    docs, grades, list_rank = ideal_order(lst, measure)
    return pd.DataFrame({
        "rank": np.arange(1, len(docs) + 1),
        "doc": pd.Series(docs, dtype=object, copy=False),
        "grade": grades,
        "gain": gains(grades, measure),
        "list_rank": list_rank,
    })


BAND_RANKS = 100  # the unjudged band is exact at the first ranks, then at about this many more


class ListReport:
    """Everything the window shows about one list at k under a definition, each part computed the
    first time it is asked for and then kept (a new list or definition makes a new report): the
    per-rank table and headline figures, the list as loaded (baseline), the ideal order, the
    what-if of single moves, the best moves, the unjudged bounds and band, and the figures under
    every preset."""

    def __init__(self, lst: RankedList, measure: Measure, baseline: RankedList | None = None) -> None:
        if measure.k is None:
            raise ValueError("a list report is at a cut-off: k must be a whole number ≥ 1")
        self.list, self.measure = lst, measure
        self.baseline = lst if baseline is None else baseline

    @property
    def k(self) -> int:
        return self.measure.k  # type: ignore[return-value]  (never None: __init__)

    @cached_property
    def columns(self) -> dict[str, np.ndarray]:
        """The per-rank table as plain arrays (what the window redraws from)."""
        return display_columns(self.list, self.measure)

    @cached_property
    def table(self) -> pd.DataFrame:
        """The per-rank table (`display_table`)."""
        import pandas as pd  # lazy: start-up (pandas: the first screen is painted without it)
        columns = dict(self.columns)
        columns["doc"] = pd.Series(columns["doc"], dtype=object, copy=False)
        return pd.DataFrame(columns)

    @cached_property
    def summary(self) -> ListSummary:
        return list_summary(self.list, self.measure)

    @cached_property
    def differs_from_loaded(self) -> bool:
        """Whether the list differs from a list as loaded that has rows (an empty one, File ▸ New's,
        is no reference to measure a change against)."""
        return len(self.baseline) > 0 and self.baseline is not self.list and self.baseline != self.list

    @cached_property
    def baseline_columns(self) -> dict[str, np.ndarray]:
        if self.baseline is self.list:
            return self.columns
        return display_columns(self.baseline, self.measure)

    @cached_property
    def baseline_summary(self) -> ListSummary:
        if self.baseline is self.list:
            return self.summary
        return list_summary(self.baseline, self.measure)

    @cached_property
    def baseline_ranks(self) -> np.ndarray:
        """Each row's rank in the list as loaded (0: added since)."""
        if self.baseline is self.list or np.array_equal(self.baseline.docs, self.list.docs):
            return np.arange(1, len(self.list) + 1)
        import pandas as pd  # lazy: start-up (pandas: the first screen is painted without it)

        index = pd.Index(self.baseline.docs, dtype=object)  # (objects: no Arrow copy of the ids)
        return index.get_indexer(pd.Index(self.list.docs, dtype=object)).astype(np.int64) + 1

    @cached_property
    def ideal(self) -> pd.DataFrame:
        return ideal_ranking(self.list, self.measure)

    @cached_property
    def ideal_ranks(self) -> np.ndarray:
        """Each row's rank in the ideal ranking (0 for an unjudged row, or one out of the pool)."""
        return ideal_rank_of_rows(self.list, self.measure)

    @cached_property
    def slot_marks(self) -> np.ndarray:
        """`slot_marks` of the list at k: 1 wastes a top-k place, -1 belongs in the top k."""
        return slot_marks(self.list, self.measure, self.ideal_ranks)

    @cached_property
    def move_effects(self) -> pd.DataFrame:
        from ndcg_gui.core.analysis.whatif import move_effects  # lazy: start-up (pandas)

        table = move_effects(self.list.scoring_grades(), self.measure, self.list.judged_pool())
        if self.measure.judged_only and not self.list.judged.all():
            # A condensed list drops its unjudged rows: no loss per row of the list as shown (the
            # same as `move_effects` says of negative grades dropped).
            table["loss"] = np.nan
        return table

    @cached_property
    def tie_bounds(self) -> tuple[float, float] | None:
        """The least and greatest NDCG@k over every order of the list's tied scores, when they
        differ (a tied group with different gains crossing k); None without ties that matter, or
        when an edit left the scores no longer ranking the list."""
        scores = self.list.scores
        if scores is None or len(self.list) < 2:
            return None
        scores = np.asarray(scores, dtype=float)
        step = np.diff(scores)
        if np.isnan(scores).any() or (step > 0).any():
            return None
        # Only a tie that holds one of the first k ranks can move NDCG@k: most lists (and most
        # edits of them) have none, and then nothing is worked out on the edit's frame.
        if not (step[: min(self.k, len(step))] == 0).any():
            return None
        pool = self.list.judged_pool()
        if pool is not None and not len(pool):  # no judgment: every order scores alike (not scored)
            return None
        from ndcg_gui.core.analysis.tie_range import list_tie_range  # lazy: start-up (pandas)

        low, high = list_tie_range(self.list.grades, scores, self.measure, pool)
        return (low, high) if high - low > 1e-12 else None

    def difference(self, a: str, b: str) -> Difference:
        """Why presets `a` and `b` give this list different NDCG@k (both at this report's k), a
        choice at a time (`difference.explain_list`); kept per pair."""
        walks = self.__dict__.setdefault("_differences", {})
        if (a, b) not in walks:
            from ndcg_gui.core.analysis.difference import explain_list  # lazy: start-up (pandas)
            from ndcg_gui.core.ndcg.presets import preset

            walks[(a, b)] = explain_list(self.list, preset(a).at(self.k), preset(b).at(self.k), (a, b))
        return walks[(a, b)]

    def best_moves(self, n: int = 5) -> pd.DataFrame:
        """The best single moves that raise NDCG@k, one of each idea (`whatif.distinct_moves`)."""
        return self._best_moves[:n] if n <= 20 else self._moves(n)

    @cached_property
    def _best_moves(self) -> pd.DataFrame:
        return self._moves(20)

    def _moves(self, n: int) -> pd.DataFrame:
        from ndcg_gui.core.analysis.whatif import distinct_moves  # lazy: start-up (pandas)

        return distinct_moves(self.list.scoring_grades(), self.measure, self.list.judged_pool(), n=n)

    @property
    def has_unjudged(self) -> bool:
        return bool((~self.list.judged).any())

    @cached_property
    def averaged_ties(self) -> bool:
        """Whether tied neighbours share their gains here (ties="average" and the list has some).
        The analyses of single moves and of unjudged documents then take the list's order as it
        stands, ties broken; the bounds of unjudged documents are not worked out for shared gains."""
        scores = self.list.scores
        if self.measure.ties != "average" or scores is None:
            return False
        return len(np.unique(tie_runs(scores))) < len(scores)

    @property
    def unjudged_range(self) -> bool:
        """Whether the range NDCG@k could take over the unjudged documents' grades is known."""
        return self.has_unjudged and not self.averaged_ties

    @cached_property
    def bounds(self) -> tuple[float, float, bool]:
        """(low, high, exact) NDCG@k over every grading of the unjudged documents."""
        from ndcg_gui.core.analysis.unjudged import unjudged_bounds  # lazy: start-up (pandas)

        return unjudged_bounds(self.list.grades, self.measure, self.list.judged_pool())

    @cached_property
    def band_search(self) -> BandSearch | None:
        """The search behind `band`, for a caller that runs it a few ranks at a time (`step`) and
        must not wait for all of it; `band` is its result. None without unjudged documents."""
        from ndcg_gui.core.analysis.unjudged import BandSearch  # lazy: start-up (pandas)

        if not self.unjudged_range:
            return None
        n = len(self.list)
        ranks = np.arange(1, min(n, BAND_RANKS) + 1)
        if n > BAND_RANKS:
            ranks = np.unique(np.concatenate([ranks, np.linspace(BAND_RANKS, n, BAND_RANKS).astype(int)]))
        return BandSearch(self.list.grades, self.measure, self.list.judged_pool(), ranks=ranks)

    @cached_property
    def band(self) -> pd.DataFrame | None:
        """The NDCG@i band over gradings of the unjudged documents (rank, low, high, exact) at the
        first BAND_RANKS ranks and about BAND_RANKS more spread over the rest; None without unjudged
        documents. What `band_search` has searched already is not searched again."""
        search = self.band_search
        return None if search is None else search.band()

    @cached_property
    def judge_first(self) -> pd.DataFrame:
        from ndcg_gui.core.analysis.unjudged import judge_first  # lazy: start-up (pandas)

        return judge_first(self.list.grades, self.measure, self.list.judged_pool())

    @cached_property
    def definitions(self) -> pd.DataFrame:
        from ndcg_gui.core.analysis.definitions import compare_definitions  # lazy: start-up (pandas)

        lst = self.list
        # The list as shown: scores that keep its order and tie exactly the neighbours that tie.
        scores = run_scores(lst.scores) if lst.scores is not None else None
        return compare_definitions(lst.scoring_grades(), self.measure, lst.judged_pool(), scores=scores,
                                   docs=lst.docs)
