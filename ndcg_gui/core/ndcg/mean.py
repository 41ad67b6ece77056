"""Over many queries: the mean NDCG under a stated averaging policy, and the histogram bins.

Works on the per-query frame of `evaluate` (run with missing="zero", so every judged query is
listed); the policy then decides which rows the mean counts, without scoring anything again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

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
    from ndcg_gui.core.ndcg.evaluate import mean_ndcg  # lazy: start-up (pandas)

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
