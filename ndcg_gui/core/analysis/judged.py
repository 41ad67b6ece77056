"""Judged@k: the share of a query's first k documents that are judged, so that a low NDCG that is
a judging hole is told from a bad ranking at a glance.

As ir_measures' `Judged@k` (ir_measures/providers/judged_provider.py:47-57): the judged documents
among the first k, over k or over the list's length when it is shorter; over the whole list
without k. Judged means "has a judgment", whatever its grade (0 and negative grades included).
trec_eval 10's `unj@k` (m_unjudged.c:62-80) counts the unjudged ones over k always, the ranks past
a short list's end counting as judged: on a list of n < k documents 1 - unj@k = (Judged@k * n +
k - n) / k; it also reads a qrels grade of -1 as unjudged.
A judged query without results has 0, as ir_measures gives it (providers/base.py:22-27: a measure's
default for a judged query the run lacks), so the mean of Judged@k is ir_measures' too.

The first k are the definition's own (its tie rule at its precision), as NDCG@k sees them; the
counts come from `evaluate`'s table (`n_judged`: judged among the first k). Under a definition
that condenses the lists (`judged_only`) the table counts the condensed list's documents, all
judged, so Judged@k is worked out from a table of the same run scored without condensing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def judged_share(n_judged: np.ndarray, n_retrieved: np.ndarray, k: int | None) -> np.ndarray:
    """n_judged / min(k, n_retrieved) per query (n_judged: judged among the first k); 0 for a
    query without results."""
    n_judged = np.asarray(n_judged, dtype=float)
    n_retrieved = np.asarray(n_retrieved, dtype=np.int64)
    depth = n_retrieved if k is None else np.minimum(n_retrieved, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(depth > 0, n_judged / np.maximum(depth, 1), 0.0)


def judged_at_k(result: pd.DataFrame, k: int | None) -> pd.Series:
    """Judged@k of every query of `evaluate`'s table (index query; n_judged, n_retrieved), or of
    a summary table (query, n_docs, n_judged) in its row order."""
    retrieved = result["n_retrieved"] if "n_retrieved" in result.columns else result["n_docs"]
    share = judged_share(result["n_judged"].to_numpy(), retrieved.to_numpy(), k)
    index = result.index if "query" not in result.columns else pd.Index(result["query"], name="query")
    return pd.Series(share, index=index, name="judged", dtype=float)
