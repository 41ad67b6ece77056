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

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_gui.core.arrays.order import ranked, score_key
from ndcg_gui.core.lists.query_order import natural_order
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
    tau; the queries ranked most differently first (`most_different_first`). `baseline` and
    `run`: rows with columns query and doc (a `Dataset.run`); with a score column each query's
    rows are ranked as NDCG ranks them under `measure` (`ranked_as_ndcg`), without one they are
    taken in the order given."""
    lists_a, lists_b = (ranked_lists(frame, measure) for frame in (baseline, run))
    return most_different_first(lists_overlap(lists_a, lists_b, measure.k, p))


def lists_overlap(lists_a: Mapping[str, Sequence], lists_b: Mapping[str, Sequence], k: int | None,
                  p: float = DEFAULT_P, queries: Sequence[str] | None = None) -> pd.DataFrame:
    """rbo, jaccard (@k), tau of each query's two lists (query -> doc ids, best first; a query one
    side lacks is an empty list), index query; `queries`: those (None: every query of either side,
    as text in order)."""
    if queries is None:
        queries = sorted(lists_a.keys() | lists_b.keys())
    rows = []
    for q in queries:
        a, b = list(lists_a.get(q, [])), list(lists_b.get(q, []))
        rows.append((rbo_ext(a, b, p), jaccard_at(a, b, k), kendall_tau(a, b)))
    return pd.DataFrame(rows, columns=COLUMNS, index=pd.Index(list(queries), name="query", dtype=object))


def most_different_first(table: pd.DataFrame) -> pd.DataFrame:
    """The queries ranked most differently first: lowest RBO, ties in the order people expect
    query ids in (q2 before q10: `natural_order`, the window's query table's too)."""
    rank = natural_order(table.index.to_numpy(dtype=object))  # (each id's rank in that order)
    natural = table.iloc[np.argsort(rank, kind="stable")]
    return natural.sort_values("rbo", kind="stable")


def ranked_lists(frame: pd.DataFrame, measure: Measure) -> dict[str, list]:
    """Each query's doc ids of a run's rows, ranked as NDCG ranks them under `measure`."""
    return _lists(ranked_as_ndcg(frame, measure))


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
    return rbo.index[is_hole(rbo, delta)]


def is_hole(rbo: pd.Series, delta: pd.Series) -> np.ndarray:
    """Per query of `rbo`'s index, whether it is a judging hole (`judging_holes`); a query with no
    Δ (not compared by NDCG) is not."""
    delta = delta.reindex(rbo.index)
    return ((rbo < HOLE_RBO) & (delta.abs() < NO_CHANGE)).to_numpy(dtype=bool)


HOLE_TEXT = "ranking changed, NDCG did not: unjudged documents?"


def methods(k: int | None, p: float = DEFAULT_P) -> list[str]:
    """How each figure is made, in words (the window's and the report's notes)."""
    at = k if k is not None else "all"
    return [
        f"RBO: rank-biased overlap, extrapolated (RBO_ext, Webber, Moffat & Zobel 2010, eq. 32), "
        f"p = {p:g}, over the whole lists: 1 the same ranking, 0 no document in common",
        f"Jaccard@{at}: the documents both runs rank among their first {at}, over those either does",
        "τ: Kendall's τ-b over the union of the two lists, a document a list lacks tied below its last "
        "one; undefined (–) with fewer than two documents",
        f"hole (with judgments): RBO below {HOLE_RBO:g} with the same NDCG — {HOLE_TEXT}",
    ]


def overlap_cells(table: pd.DataFrame, baseline: str, run: str, k: int | None
                  ) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """The overlap of `run` with `baseline` (a table of `lists_overlap`) as a window's figures table
    shows it: ([(header, how it was made)], a row for the baseline and one for the run): the
    mean of each figure over the queries (τ over those it is defined for) and the query ranked
    most differently."""
    how = methods(k)
    at = f"@{k}" if k is not None else ""
    columns = [("Run", "The baseline, then the run compared with it"), ("RBO (mean)", how[0]),
               (f"J{at} (mean)", how[1]), ("τ (mean)", how[2]),
               ("Most different", "The query of lowest RBO (ties by query id)")]
    first = most_different_first(table)
    cells = [_mean_text(table[c]) for c in COLUMNS]
    most = f"{first.index[0]} (RBO {first['rbo'].iloc[0]:.4f})" if len(first) else "n/a"
    return columns, [[baseline, "", "", "", ""], [run, *cells, most]]


def overlap_line(table: pd.DataFrame, baseline: str, run: str, k: int | None) -> str:
    """One line on how differently `run` ranks the queries than `baseline`, without judgments."""
    at = f"@{k}" if k is not None else ""
    first = most_different_first(table)
    most = f" · most different: {first.index[0]} (RBO {first['rbo'].iloc[0]:.4f})" if len(first) else ""
    rbo, jaccard, tau = (_mean_text(table[c]) for c in COLUMNS)
    return (f"{run} against {baseline}, no judgments: mean RBO {rbo} · Jaccard{at} {jaccard} · τ {tau} "
            f"({len(table)} queries){most}")


def holes_line(holes: Sequence[str], run: str) -> str:
    """What the judging holes of `run` say, in one line ("" without any)."""
    if not len(holes):
        return ""
    shown = ", ".join(list(holes)[:5]) + (f" and {len(holes) - 5} more" if len(holes) > 5 else "")
    return (f"{run}: {len(holes)} quer{'y' if len(holes) == 1 else 'ies'} ranked very differently with "
            f"the same NDCG (judging holes: unjudged documents?): {shown}")


def _mean_text(values: pd.Series) -> str:
    values = values.dropna()
    return f"{values.mean():.4f}" if len(values) else "n/a"
