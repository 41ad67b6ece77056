"""Over many queries: the mean NDCG under a stated averaging policy, and the histogram bins.

Works on the per-query frame of `evaluate` under `Measure.per_query()` (every judged query
listed); the measure's mean policy (`empty`, `undefined`) then decides which rows the mean counts,
without scoring anything again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.ndcg.measure import Measure

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class MeanSummary:
    """The mean and what went into it, under `measure`'s mean policy (`empty`, `undefined`)."""

    mean: float  # NaN when no query is counted
    counted: int
    total: int
    empty: int  # judged queries with no results
    undefined: int  # queries with IDCG = 0
    measure: Measure

    def describe(self, k: int | None = None) -> str:
        at = f"@{k}" if k is not None else ""
        value = "n/a" if np.isnan(self.mean) else f"{self.mean:.4f}"
        return f"mean NDCG{at} = {value} over {self.counted:,} of {self.total:,} queries"


def empty_queries(result: pd.DataFrame) -> pd.Series:
    """True for judged queries the run returned no document for."""
    return result["n_retrieved"] == 0


def counted(result: pd.DataFrame, measure: Measure) -> pd.Series:
    """True for the queries the mean counts under `measure`'s policy."""
    import pandas as pd  # lazy: start-up (pandas)

    keep = pd.Series(True, index=result.index)
    if measure.empty == "skip":
        keep &= ~empty_queries(result)
    if measure.undefined == "skip":
        keep &= ~result["undefined"].astype(bool)
    return keep


def mean_summary(result: pd.DataFrame, measure: Measure | None = None) -> MeanSummary:
    """The mean NDCG of `result` (a frame of `evaluate` under `measure.per_query()`) under
    `measure`'s policy."""
    from ndcg_gui.core.ndcg.evaluate import mean_ndcg  # lazy: start-up (pandas)

    measure = measure or Measure()
    return MeanSummary(
        mean=mean_ndcg(result, measure),
        counted=int(counted(result, measure).sum()),
        total=len(result),
        empty=int(empty_queries(result).sum()),
        undefined=int(result["undefined"].sum()),
        measure=measure,
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
