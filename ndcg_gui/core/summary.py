"""Over many queries: the mean NDCG under a stated averaging policy, and the histogram bins.

Works on the per-query frame of `evaluate` (run with missing="zero", so every judged query is
listed); the policy then decides which rows the mean counts, without scoring anything again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from ndcg_gui.core.config import MetricConfig, TiesName, check_rules
from ndcg_gui.core.lists.dataset import Dataset
from ndcg_gui.core.lists.query_order import KEEP_FROM, kept_text, position_of
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.metrics import check_k

if TYPE_CHECKING:
    import pandas as pd

Treatment = Literal["zero", "skip"]
TREATMENTS = ("zero", "skip")


@dataclass(frozen=True)
class MeanPolicy:
    """Which queries the mean counts.

    empty      a judged query the run returned nothing for: "zero" counts it as NDCG 0 (trec_eval -c),
               "skip" leaves it out (trec_eval without -c, pytrec_eval).
    undefined  a query with IDCG = 0 (no relevant judged document): "zero" counts it as NDCG 0
               (trec_eval, ranx), "skip" leaves it out.
    """

    empty: Treatment = "zero"
    undefined: Treatment = "zero"

    def __post_init__(self) -> None:
        for name in ("empty", "undefined"):
            if getattr(self, name) not in TREATMENTS:
                raise ValueError(f"{name} must be 'zero' or 'skip', not {getattr(self, name)!r}")

    def describe(self) -> str:
        empty = (
            "judged queries with no results count as 0"
            if self.empty == "zero"
            else "judged queries with no results left out"
        )
        undefined = "queries with IDCG = 0 " + (
            "count as 0" if self.undefined == "zero" else "left out"
        )
        return f"{empty}; {undefined}"


@dataclass(frozen=True)
class MeanSummary:
    """The mean and what went into it."""

    mean: float  # NaN when no query is counted
    counted: int
    total: int
    empty: int  # judged queries with no results
    undefined: int  # queries with IDCG = 0
    policy: MeanPolicy

    def describe(self, k: int | None = None) -> str:
        at = f"@{k}" if k is not None else ""
        value = "n/a" if np.isnan(self.mean) else f"{self.mean:.4f}"
        return f"mean NDCG{at} = {value} over {self.counted:,} of {self.total:,} queries"


def empty_queries(result: pd.DataFrame) -> pd.Series:
    """True for judged queries the run returned no document for."""
    return result["n_retrieved"] == 0


def counted(result: pd.DataFrame, policy: MeanPolicy) -> pd.Series:
    """True for the queries the mean counts under `policy`."""
    import pandas as pd  # lazy: start-up (pandas)

    keep = pd.Series(True, index=result.index)
    if policy.empty == "skip":
        keep &= ~empty_queries(result)
    if policy.undefined == "skip":
        keep &= ~result["undefined"].astype(bool)
    return keep


def mean_summary(result: pd.DataFrame, policy: MeanPolicy | None = None) -> MeanSummary:
    """The mean NDCG of `result` (a frame of `evaluate`) under `policy`."""
    from ndcg_gui.core.evaluate import mean_ndcg  # lazy: start-up (pandas)

    policy = policy or MeanPolicy()
    rows = result if policy.empty == "zero" else result[~empty_queries(result)]
    return MeanSummary(
        mean=mean_ndcg(rows, undefined=policy.undefined),
        counted=int(counted(result, policy).sum()),
        total=len(result),
        empty=int(empty_queries(result).sum()),
        undefined=int(result["undefined"].sum()),
        policy=policy,
    )


def worst_query(result: pd.DataFrame, among: Sequence[str] | None = None) -> tuple[str | None, list[str]]:
    """The query with the lowest NDCG there is something to learn from (results, and IDCG > 0),
    among `among` (the queries a filter leaves; None: every row of `result`), with the queries of
    no higher NDCG passed over on the way, each with why (`"401 (no results)"`). Equal NDCG in
    the order of `among`. (None, [...]) when no query qualifies."""
    queries = [q for q in (result.index if among is None else among) if q in result.index]
    rows = result.loc[queries]
    order = np.argsort(rows["ndcg"].to_numpy(dtype=float), kind="stable")
    skipped: list[str] = []
    for i in order:
        query, row = queries[i], rows.iloc[i]
        if row["n_retrieved"] == 0:
            skipped.append(f"{query} (no results)")
        elif row["undefined"]:
            skipped.append(f"{query} (IDCG = 0)")
        else:
            return str(query), skipped
    return None, skipped


def histogram_edges(values: np.ndarray, bins: int = 10) -> np.ndarray:
    """Bin edges over [0, 1] in equal steps, widened to whole steps when NDCG leaves [0, 1]
    (possible with negative grades kept)."""
    values = np.asarray(values, dtype=float)
    finite = np.isfinite(values)
    if not finite.all():  # (a copy of 500,000 values only when some are not numbers)
        values = values[finite]
    step = 1.0 / bins
    lo = min(0.0, np.floor(values.min() / step) * step) if len(values) else 0.0
    hi = max(1.0, np.ceil(values.max() / step) * step) if len(values) else 1.0
    n = round((hi - lo) / step)
    if n > 4 * bins:  # far outside [0, 1] (an IDCG near 0 with negative grades): `bins` wide bins
        return np.linspace(lo, hi, bins + 1)
    return np.linspace(lo, hi, n + 1)


def bin_index(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The bin of each value: bins are [edge_i, edge_i+1), the last one closed so 1.0 is counted."""
    idx = np.searchsorted(edges, np.asarray(values, dtype=float), side="right") - 1
    return np.clip(idx, 0, len(edges) - 2)


def histogram(values: np.ndarray, bins: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """(edges, counts) of per-query NDCG values."""
    edges = histogram_edges(values, bins)
    counts = np.bincount(bin_index(values, edges), minlength=len(edges) - 1)
    return edges, counts


def score(
    dataset: Dataset, k: int | None, config: MetricConfig | None = None, ties: TiesName = "trec"
) -> pd.DataFrame:
    """Every query of a dataset scored for the query browser: judged queries without results are
    listed (NDCG 0), so the mean policy can decide about them."""
    return dataset.evaluate(k, config, ties=ties, missing="zero")


def list_row(
    ranked_list: RankedList, k: int | None, config: MetricConfig | None = None, ties: TiesName = "trec"
) -> pd.DataFrame:
    """One list's row of `evaluate` (missing="zero"), scored in the order the list stands, without
    making a dataset of it. ties="average": neighbours with equal scores share their gains and
    rows without a score (pasted, typed) stand alone, as in a dataset's `evaluate`; any other
    rule scores the list as it stands, as a dataset of that
    list alone does. No row when the list is empty and nothing judges its query, or when the pool
    is known and holds no judgment for it."""
    from ndcg_gui.core.evaluate import Pool, score_ranked  # lazy: start-up (pandas)

    config = config or MetricConfig()
    k = check_k(k)
    check_rules(ties, "zero")
    rl, n = ranked_list, len(ranked_list)
    if rl.has_pool:
        judged_grades = np.concatenate([rl.grades[rl.judged], np.fromiter(rl.unretrieved.values(), float)])
    listed = n > 0 or (rl.has_pool and len(judged_grades) > 0)
    queries = np.array([rl.query] if listed else [], dtype=object)
    row_query = np.zeros(n, np.int64)
    if rl.has_pool:
        pool = Pool(np.zeros(len(judged_grades), np.int64), judged_grades, judged=True)
    else:
        pool = Pool(row_query, rl.grades, judged=False)
    tie_key = rl.scores if ties == "average" and rl.scores is not None else None  # (NaN never ties)
    return score_ranked(queries, row_query, rl.grades, np.array([n] if listed else [], np.int64), pool,
                        k, config, "zero", tie_key)


def _place(index: pd.Index, query: str) -> int:
    """Where `query` is in `index` (unique ids), or -1: in a big index found by a scan of its kept
    Arrow text (`query_order.position_of`), not by the hash table of every id pandas makes for a
    lookup (~80 ms at 500,000, in the frame of the first edit of a big file)."""
    if len(index) < KEEP_FROM:
        return int(index.get_loc(query)) if query in index else -1
    return position_of(kept_text(index), index, query)


def with_list_rescored(
    result: pd.DataFrame,
    ranked_list: RankedList,
    k: int | None,
    config: MetricConfig | None = None,
    ties: TiesName = "trec",
) -> pd.DataFrame:
    """`result` (from `score`) with one query's row recomputed from its edited list: each query is
    scored on its own, so this equals scoring the whole dataset again, at the cost of one list."""
    import pandas as pd  # lazy: start-up (pandas)

    query = ranked_list.query
    rows = list_row(ranked_list, k, config, ties)
    at = _place(result.index, query)
    if at >= 0 and query not in rows.index:
        # It lost its last judgment (a typed list emptied, say): still listed, so the person can
        # go back to it, with nothing to score it by.
        rows = result.loc[[query]].copy()
        for column in rows.columns:
            rows[column] = rows[column].dtype.type(0) if column != "undefined" else True
        rows["n_retrieved"] = len(ranked_list)
    if at >= 0 and query in rows.index:
        columns = {}
        for column in result.columns:  # column by column, so every dtype stays as it was
            values = columns[column] = result[column].to_numpy(copy=True)
            values[at] = rows[column].to_numpy()[0]
        return pd.DataFrame(columns, index=result.index, columns=result.columns, copy=False)
    # The query appears or disappears (it gained or lost its last judgment): rebuild the order.
    out = pd.concat([result.drop(index=query, errors="ignore"), rows])
    return out.sort_index(kind="stable")
