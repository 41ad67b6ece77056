"""The mean NDCG of each segment of the queries (locale, device, query type…), under the mean policy.

Works on `evaluate`'s per-query table (under `Measure.per_query()`: every judged query listed) and
a query -> segment map (`core.formats.query_map`): each segment's mean counts the segment's queries
that the measure's mean policy counts (`mean.counted`), the same rule as the mean of all,
optionally weighted (`weights`). A query in no segment still counts in the mean of all; the
queries of the map that the table does not hold (not judged, or another run's ids) are listed, so
a map that matches nothing is said rather than giving empty segments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ndcg_gui.core.analysis.weights import weighted_mean, weights_of
from ndcg_gui.core.lists.query_order import natural_key
from ndcg_gui.core.ndcg.mean import counted
from ndcg_gui.core.ndcg.measure import Measure

SEGMENT_MEAN_COLUMNS = ["mean", "counted", "total"]


@dataclass(frozen=True)
class SegmentMeans:
    """Per segment (index `segment`, in natural order): the mean NDCG, the queries it counts and the
    segment's judged queries (`SEGMENT_MEAN_COLUMNS`), then the mean of each other figure and the
    sum of each count asked for, by its name; `overall` the same for every query.

    unassigned  the table's queries in no segment (counted in `overall` only)
    unknown     the map's queries the table does not hold
    measure     the measure whose mean policy (`empty`, `undefined`) said which queries count
    weighted    whether the means are weighted
    """

    table: pd.DataFrame
    overall: pd.Series
    unassigned: list[str]
    unknown: list[str]
    measure: Measure
    weighted: bool


def query_texts(queries: pd.Index) -> list[str]:
    """The ids as Python texts, converted at once (an Arrow-backed index walked id by id costs a
    call each)."""
    return [str(q) for q in queries.to_numpy(dtype=object)]


def segment_of(queries: pd.Index, segments: Mapping[str, str]) -> pd.Series:
    """Each query's segment (index `queries`), None for a query in no segment."""
    get = segments.get
    return pd.Series([get(q) for q in query_texts(queries)], index=queries, dtype=object, name="segment")


def ordered_segments(names) -> list[str]:
    """Segment names in natural order (`m2` before `m10`), each once."""
    return sorted({str(n) for n in names if n is not None}, key=natural_key)


def segment_codes(of: pd.Series) -> tuple[list[str], np.ndarray]:
    """(the segment names in natural order, each query's position among them, -1 for none): one
    pass over the queries, whatever the number of segments (a mask per segment was a pass each)."""
    names = ordered_segments(of)
    place = {name: i for i, name in enumerate(names)}
    codes = np.fromiter((place.get(s, -1) for s in of.to_numpy()), np.int64, len(of))
    return names, codes


def members_of(codes: np.ndarray, count: int) -> list[np.ndarray]:
    """The positions of each segment's queries (in their order), for `count` segments."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(count + 1))
    return [order[bounds[i]:bounds[i + 1]] for i in range(count)]


def segment_means(
    result: pd.DataFrame,
    segments: Mapping[str, str],
    measure: Measure | None = None,
    weights: Mapping[str, float] | None = None,
    figures: Sequence[str] = (),
    sums: Sequence[str] = (),
) -> SegmentMeans:
    """The mean NDCG of every segment of `result` (a table of `evaluate` under
    `measure.per_query()`), of the queries `measure`'s mean policy counts; weighted by `weights`
    (query -> weight, every query of `result` included) when given; and the mean of each of
    `figures` (other columns of `result`: dcg, idcg…) over the same queries, and the sum of each
    of `sums` (counts: n_retrieved…) over all the segment's queries. A segment whose queries the
    policy all leaves out has mean NaN."""
    measure = measure or Measure()
    keep = counted(result, measure).to_numpy()
    of = segment_of(result.index, segments)
    ndcg = result["ndcg"].to_numpy(dtype=float)
    others = {name: result[name].to_numpy(dtype=float) for name in figures}
    counts = {name: result[name].to_numpy(dtype=np.int64) for name in sums}
    w = weights_of(weights, result.index) if weights is not None else np.ones(len(result))

    def row(members: np.ndarray) -> dict:
        chosen = members[keep[members]]
        return {"mean": weighted_mean(ndcg[chosen], w[chosen]), "counted": len(chosen),
                "total": len(members),
                **{name: weighted_mean(values[chosen], w[chosen]) for name, values in others.items()},
                **{name: int(values[members].sum()) for name, values in counts.items()}}

    names, codes = segment_codes(of)
    rows = [row(members) for members in members_of(codes, len(names))]
    table = pd.DataFrame(rows, index=pd.Index(names, name="segment", dtype=object),
                         columns=[*SEGMENT_MEAN_COLUMNS, *figures, *sums])
    table = table.astype({c: np.int64 for c in ("counted", "total", *sums)})
    overall = pd.Series(row(np.arange(len(result))), name="all")
    texts = query_texts(result.index)
    present = set(texts)
    return SegmentMeans(
        table=table,
        overall=overall,
        unassigned=[texts[i] for i in np.flatnonzero(of.isna().to_numpy())],
        unknown=[q for q in segments if q not in present],
        measure=measure,
        weighted=weights is not None,
    )
