"""Ties, honestly: the least and greatest NDCG@k over every order of tied documents.

Tied documents (equal scores, or equal ranks) may come in any order; a tool's tie rule picks one.
Over all orders, IDCG stays the same and DCG@k is a sum of gain × discount within each tied group
over the ranks the group holds (a rank past k has discount 0). By the rearrangement inequality the
greatest sum pairs the group's gains and its ranks' discounts both in descending order, the least
pairs them in opposite orders, so each bound is one sort, never a search over permutations
(`tests/core/analysis/test_tie_range.py` checks this against every permutation). The bounds are per query,
and since queries are independent, the mean's range is the means of the bounds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ndcg_gui.core.arrays.order import score_key
from ndcg_gui.core.ndcg.evaluate import Joined, Pool, rank_within
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import condensed_keep, discounts, finish, judged_gains

RANGE_COLUMNS = ["ndcg", "least", "greatest", "tied_at_k"]


def tie_range(run: pd.DataFrame, qrels: pd.DataFrame | None = None, measure: Measure | None = None
              ) -> pd.DataFrame:
    """One row per query (as `evaluate`): ndcg (tied scores by trec_eval's rule, whatever the
    measure's, at the precision that rule compares scores at under the measure), least and
    greatest NDCG@k over every order of the tied documents, and tied_at_k: whether a tied group
    crosses the cut-off (only then can the figure move, apart from ties inside the first k whose
    gains differ). A run without scores or ranks has no ties: least = greatest = ndcg."""
    measure = (measure or Measure(k=10)).with_(ties="trec")
    joined = Joined.of(run, qrels, measure)
    result = joined.score(measure)
    keep = result.index
    least, greatest, crossing = _bounds(joined, measure, result["idcg"].reindex(joined.queries))
    at = pd.Index(joined.queries, dtype=object).get_indexer(keep)
    return pd.DataFrame({"ndcg": result["ndcg"], "least": least[at], "greatest": greatest[at],
                         "tied_at_k": crossing[at]}, index=result.index, columns=RANGE_COLUMNS)


def mean_range(table: pd.DataFrame) -> tuple[float, float]:
    """The least and greatest mean NDCG@k over every order of tied documents in every query."""
    if not len(table):
        return float("nan"), float("nan")
    return float(table["least"].mean()), float(table["greatest"].mean())


def list_tie_range(grades: Sequence[float] | np.ndarray, scores: Sequence[float] | np.ndarray,
                   measure: Measure | None = None,
                   judged: Sequence[float] | np.ndarray | None = None) -> tuple[float, float]:
    """(least, greatest) NDCG@k of one list (grades NaN = unjudged, with its scores) over every
    order of its tied scores; `judged`: the query's whole judged pool, as `ndcg_at` takes it.
    The list is ranked here as `tie_range` ranks a run (high scores first, ties as trec_eval
    compares scores) without a table: the window asks at each list shown or edited, and building
    `tie_range`'s tables for one list cost several times the answer's own work."""
    measure = (measure or Measure(k=10)).with_(ties="trec")
    grades = np.asarray(grades, dtype=float)
    raw = np.asarray(scores, dtype=float)
    if len(raw) != len(grades):
        raise ValueError(f"{len(grades)} grades but {len(raw)} scores")
    if not np.isfinite(raw).all():
        i = int(np.flatnonzero(~np.isfinite(raw))[0])
        raise ValueError(f"run score must be finite numbers; row {i + 1} is {raw[i]!r}")
    if np.isinf(grades).any():
        raise ValueError("run grade has infinite values")
    precision = measure.score_precision
    key = score_key(raw, precision)
    order = np.argsort(-key, kind="stable")  # (within a tie any order: the bounds span them all)
    n = len(grades)
    if judged is None:
        pool = Pool(np.zeros(n, np.int64), grades, judged=False)
    else:
        pool_grades = np.asarray(judged, dtype=float)
        if not np.isfinite(pool_grades).all():
            raise ValueError("qrels grade must be finite numbers")
        pool = Pool(np.zeros(len(pool_grades), np.int64), pool_grades, judged=True)
    joined = Joined(np.array(["q"], dtype=object), np.zeros(n, np.int64), grades[order],
                    np.array([n], np.int64), pool, None, key[order], "trec", precision)
    result = joined.score(measure.per_query())
    if not len(result):  # (no judgment: the query is not scored)
        raise ValueError("the list has no judgments: it is not scored")
    least, greatest, _ = _bounds(joined, measure, result["idcg"].reindex(joined.queries))
    return float(least[0]), float(greatest[0])


def _bounds(joined: Joined, measure: Measure, idcg: pd.Series):
    nq, k = len(joined.queries), measure.k
    row_query, grade, key = joined.row_query, joined.grade, joined.rank_key
    if key is None:
        key = -np.arange(len(row_query), dtype=float)  # file order: no ties
    if measure.judged_only:
        kept = condensed_keep(grade, measure)
        row_query, grade, key = row_query[kept], grade[kept], key[kept]
    rank = rank_within(row_query)
    gain = judged_gains(grade, measure)
    disc = discounts(int(rank.max()) if len(rank) else 0, measure)[rank - 1] if len(rank) else np.zeros(0)
    if k is not None:
        disc = np.where(rank <= k, disc, 0.0)
    new = np.ones(len(rank), bool)
    new[1:] = (row_query[1:] != row_query[:-1]) | (key[1:] != key[:-1])
    group = np.cumsum(new) - 1
    by_disc = disc[np.lexsort((-disc, group))]  # each group's discounts, largest first
    high = gain[np.lexsort((-gain, group))]
    low = gain[np.lexsort((gain, group))]
    dcg_hi = np.bincount(row_query, high * by_disc, minlength=nq)
    dcg_lo = np.bincount(row_query, low * by_disc, minlength=nq)
    idcg = idcg.to_numpy(dtype=float, na_value=0.0)
    a, b = finish(dcg_lo, idcg, measure), finish(dcg_hi, idcg, measure)  # a negative IDCG flips them
    size = np.bincount(group)
    first_rank = rank[np.flatnonzero(new)]
    cut = len(rank) + 1 if k is None else k  # no cut-off: no group crosses one
    crosses = (first_rank <= cut) & (first_rank + size - 1 > cut)
    crossing = np.zeros(nq, bool)
    crossing[row_query[np.flatnonzero(new)][crosses]] = True
    return np.minimum(a, b), np.maximum(a, b), crossing
