"""How differently two runs rank each query, without judgments: rank-biased overlap, Jaccard@k and
Kendall's τ, per query.

    >>> table = overlap_table(baseline.run, candidate.run, k=10)   # each run's rows, ranked
    >>> table.head()   # the queries the runs rank most differently first (lowest RBO)

Each list is ranked as NDCG ranks it under the definition (default: the trec_eval preset's rule),
by the core's one ranking rule (`core/arrays/order.py`): score high first, compared at the
definition's precision (`score_precision`: float32 for trec_eval, where 1.0 and 1.0000000001 tie),
ties by doc id descending ("trec") or in file order ("file", "average"). So a tie is broken here
the way NDCG sees it, not as the loader left it (exact float64 order).

- RBO is the extrapolated rank-biased overlap, RBO_ext of Webber, Moffat & Zobel (2010), eq. 32,
  which also takes lists of different lengths: the agreement seen at the end of the lists is
  assumed to go on. 1 for the same ranking, 0 for disjoint lists; two empty lists agree (1).
- Jaccard@k is |A@k ∩ B@k| / |A@k ∪ B@k| of the first k documents (every one with k None).
- Kendall's τ is τ-b over the union of the two lists: a document one list does not have is
  placed below its last document, all such documents tied there (so τ-b, which counts ties, and
  not τ-a). Undefined (NaN) with fewer than two documents or an empty list.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_gui.core.arrays.order import ranked, score_key
from ndcg_gui.core.ndcg.measure import Measure

DEFAULT_P = 0.9  # the persistence Webber et al. use: the first 10 ranks hold 86 % of the weight
COLUMNS = ["rbo", "jaccard", "tau"]
HOLE_RBO = 0.5  # below this, a ranking changed a lot (half the weight differs)
NO_CHANGE = 1e-9  # an NDCG difference this small is no change (sums in another order)


def rbo_ext(a: Sequence, b: Sequence, p: float = DEFAULT_P) -> float:
    """The extrapolated rank-biased overlap of rankings `a` and `b` (distinct ids, best first) at
    persistence p (0 < p < 1): Webber et al. 2010, eq. 32."""
    if not 0 < p < 1:
        raise ValueError(f"p must be between 0 and 1 (exclusive), not {p}")
    short, long = (list(a), list(b)) if len(a) <= len(b) else (list(b), list(a))
    s, l = len(short), len(long)  # noqa: E741 (the paper's names)
    if s == 0:
        return 1.0 if l == 0 else 0.0
    at_long = {doc: j for j, doc in enumerate(long)}
    # A document in both lists counts in the overlap X_d from the depth both lists reached it.
    depth = [max(i, at_long[doc]) + 1 for i, doc in enumerate(short) if doc in at_long]
    x = np.cumsum(np.bincount(np.asarray(depth, dtype=np.int64), minlength=l + 1)[1:], dtype=np.float64)
    d = np.arange(1, l + 1, dtype=np.float64)
    weight = p ** d
    x_s, x_l = x[s - 1], x[l - 1]
    seen = np.sum(x / d * weight)
    beyond_short = np.sum(x_s * (d[s:] - s) / (s * d[s:]) * weight[s:])  # the short list's unseen part
    return float((1 - p) / p * (seen + beyond_short) + ((x_l - x_s) / l + x_s / s) * p ** l)


def jaccard_at(a: Sequence, b: Sequence, k: int | None) -> float:
    """|A@k ∩ B@k| / |A@k ∪ B@k|; two empty lists are the same (1)."""
    top_a, top_b = set(a[:k]), set(b[:k])
    union = top_a | top_b
    return len(top_a & top_b) / len(union) if union else 1.0


def kendall_tau(a: Sequence, b: Sequence) -> float:
    """Kendall's τ-b of the two rankings over their union, a document a list lacks tied below its
    last one; NaN with an empty list or fewer than two documents."""
    from scipy import stats  # lazy: start-up

    union = list(dict.fromkeys([*a, *b]))
    if not a or not b or len(union) < 2:
        return float("nan")
    return float(stats.kendalltau(_ranks(a, union), _ranks(b, union)).statistic)


def _ranks(ranking: Sequence, union: list) -> np.ndarray:
    at = {doc: i for i, doc in enumerate(ranking)}
    return np.array([at.get(doc, len(ranking)) for doc in union], dtype=np.int64)


def overlap_table(baseline: pd.DataFrame, run: pd.DataFrame, measure: Measure, p: float = DEFAULT_P
                  ) -> pd.DataFrame:
    """One row per query either run returned (index query): rbo, jaccard (@k, the measure's),
    tau; the queries ranked most differently first (lowest RBO, then as text). `baseline` and
    `run`: rows with columns query and doc (a `Dataset.run`); with a score column each query's
    rows are ranked as NDCG ranks them under `measure` (`ranked_as_ndcg`), without one they are
    taken in the order given."""
    k = measure.k
    lists_a, lists_b = (_lists(ranked_as_ndcg(frame, measure)) for frame in (baseline, run))
    queries = sorted(lists_a.keys() | lists_b.keys())
    rows = []
    for q in queries:
        a, b = lists_a.get(q, []), lists_b.get(q, [])
        rows.append((rbo_ext(a, b, p), jaccard_at(a, b, k), kendall_tau(a, b)))
    table = pd.DataFrame(rows, columns=COLUMNS, index=pd.Index(queries, name="query", dtype=object))
    return table.sort_values("rbo", kind="stable")


def ranked_as_ndcg(frame: pd.DataFrame, measure: Measure) -> pd.DataFrame:
    """The rows ranked by the one ranking rule (`core.arrays.order.ranked`): scores at the
    measure's precision high first, ties by doc id descending ("trec") or by file order
    ("file", "average": the `_origin` column where the loader kept it, else the rows' order)."""
    if "score" not in frame.columns or len(frame) < 2:
        return frame
    codes = pd.factorize(frame["query"], sort=False)[0]
    key = score_key(frame["score"].to_numpy(dtype=np.float64), measure.score_precision)
    if measure.ties == "trec":
        order = ranked(None, codes, key, pa.array(frame["doc"].astype(str).to_numpy(dtype=object)))
    else:
        origin = frame["_origin"].to_numpy() if "_origin" in frame.columns else np.arange(len(frame))
        order = ranked(None, codes, key, None, origin)
    return frame.iloc[order]


def _lists(frame: pd.DataFrame) -> dict[str, list]:
    """Each query's doc ids in the frame's order, a repeated id kept once (its first place)."""
    return {str(q): list(dict.fromkeys(docs.tolist()))
            for q, docs in frame.groupby("query", sort=False, observed=True)["doc"]}


def judging_holes(rbo: pd.Series, delta: pd.Series) -> pd.Index:
    """The queries whose ranking changed a lot (RBO below HOLE_RBO) while their NDCG did not: the
    documents that moved are unjudged, so the judgments cannot tell the runs apart there."""
    delta = delta.reindex(rbo.index)
    return rbo.index[(rbo < HOLE_RBO) & (delta.abs() < NO_CHANGE)]
