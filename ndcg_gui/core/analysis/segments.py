"""The mean NDCG of each segment of the queries (locale, device, query type…), under the mean policy.

Works on `evaluate`'s per-query table (missing="zero": every judged query listed) and a query ->
segment map (`core.formats.query_map`): each segment's mean counts the segment's queries that the
policy counts (`summary.counted`), the same rule as the mean of all, optionally weighted
(`weights`). A query in no segment still counts in the mean of all; the queries of the map that
the table does not hold (not judged, or another run's ids) are listed, so a map that matches
nothing is said rather than giving empty segments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.weights import weighted_mean, weights_of
from ndcg_gui.core.lists.query_order import natural_key
from ndcg_gui.core.ndcg.mean import MeanPolicy, counted

SEGMENT_MEAN_COLUMNS = ["mean", "counted", "total"]


@dataclass(frozen=True)
class SegmentMeans:
    """Per segment (index `segment`, in natural order): the mean NDCG, the queries it counts and the
    segment's judged queries (`SEGMENT_MEAN_COLUMNS`), then the mean of each other figure asked
    for, by its name; `overall` the same for every query.

    unassigned  the table's queries in no segment (counted in `overall` only)
    unknown     the map's queries the table does not hold
    weighted    whether the means are weighted
    """

    table: pd.DataFrame
    overall: pd.Series
    unassigned: list[str]
    unknown: list[str]
    policy: MeanPolicy
    weighted: bool


def segment_of(queries: pd.Index, segments: Mapping[str, str]) -> pd.Series:
    """Each query's segment (index `queries`), None for a query in no segment."""
    return pd.Series([segments.get(str(q)) for q in queries], index=queries, dtype=object, name="segment")


def ordered_segments(names) -> list[str]:
    """Segment names in natural order (`m2` before `m10`), each once."""
    return sorted({str(n) for n in names if n is not None}, key=natural_key)


def segment_means(
    result: pd.DataFrame,
    segments: Mapping[str, str],
    policy: MeanPolicy | None = None,
    weights: Mapping[str, float] | None = None,
    figures: Sequence[str] = (),
) -> SegmentMeans:
    """The mean NDCG of every segment of `result` (a table of `evaluate`, missing="zero"), of the
    queries `policy` counts; weighted by `weights` (query -> weight, every query of `result`
    included) when given; and the mean of each of `figures` (other columns of `result`: dcg,
    idcg…) over the same queries. A segment whose queries the policy all leaves out has mean NaN."""
    policy = policy or MeanPolicy()
    keep = counted(result, policy).to_numpy()
    of = segment_of(result.index, segments)
    ndcg = result["ndcg"].to_numpy(dtype=float)
    others = {name: result[name].to_numpy(dtype=float) for name in figures}
    w = weights_of(weights, result.index) if weights is not None else np.ones(len(result))

    def row(members: np.ndarray) -> dict:
        chosen = members & keep
        return {"mean": weighted_mean(ndcg[chosen], w[chosen]), "counted": int(chosen.sum()),
                "total": int(members.sum()),
                **{name: weighted_mean(values[chosen], w[chosen]) for name, values in others.items()}}

    names = ordered_segments(of)
    labels = of.to_numpy()
    rows = [row(labels == name) for name in names]
    table = pd.DataFrame(rows, index=pd.Index(names, name="segment", dtype=object),
                         columns=[*SEGMENT_MEAN_COLUMNS, *figures])
    table = table.astype({"counted": np.int64, "total": np.int64})
    overall = pd.Series(row(np.ones(len(result), bool)), name="all")
    present = set(map(str, result.index))
    return SegmentMeans(
        table=table,
        overall=overall,
        unassigned=[str(q) for q in of.index[of.isna().to_numpy()]],
        unknown=[q for q in segments if q not in present],
        policy=policy,
        weighted=weights is not None,
    )
