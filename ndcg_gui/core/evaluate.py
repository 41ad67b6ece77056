"""NDCG@k of many queries at once: run and qrels joined, ordered and scored group-wise, no loops.

Queries are integer codes throughout; per-query sums are `np.bincount` over those codes, so the cost
is a few passes over the rows whatever the number of queries.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ndcg_gui.core.config import MetricConfig, TiesName
from ndcg_gui.core.metrics import check_k, discounts, gains, safe_ratio

RESULT_COLUMNS = [
    "n_retrieved", "n_judged", "n_unjudged", "n_pool", "n_relevant",
    "dcg", "idcg", "ndcg", "undefined",
]
TIES = ("trec", "file", "average")
MISSING = ("zero", "skip")


def evaluate(
    run: pd.DataFrame,
    qrels: pd.DataFrame | None = None,
    k: int | None = None,
    config: MetricConfig | None = None,
    ties: TiesName = "trec",
    missing: str = "zero",
) -> pd.DataFrame:
    """One row per query (index `query`, sorted as strings): counts, DCG@k, IDCG@k, NDCG@k.

    run    columns `query`, `doc` and `score` (ranked high first) or `rank` (low first) or neither
           (file order). Without `qrels` it needs a `grade` column (NaN = unjudged).
    qrels  columns `query`, `doc`, `grade`: every judged document. Run documents without a judgment
           get gain 0. A query of the run with no judgment at all is left out (as trec_eval does).
    ties   equal scores: "trec" orders them by doc id in descending byte order (trec_eval);
           "file" keeps file order; "average" gives each the mean gain of its group (scikit-learn).
    missing "zero": a judged query with no results scores 0 and is listed; "skip": left out.

    Columns: n_retrieved, n_judged (retrieved and judged), n_unjudged, n_pool (judged documents of
    the query), n_relevant (judged with gain > 0), dcg, idcg, ndcg, and `undefined` where IDCG = 0
    (NDCG reported as 0). k=None scores whole lists against the whole ideal ranking.
    """
    config = config or MetricConfig()
    k = check_k(k)
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(TIES)}, not {ties!r}")
    if missing not in MISSING:
        raise ValueError(f"missing must be one of {', '.join(MISSING)}, not {missing!r}")
    _require(run, ["query", "doc"] + ([] if qrels is not None else ["grade"]), "run")
    if qrels is not None:
        _require(qrels, ["query", "doc", "grade"], "qrels")

    run_q, run_d = _as_str(run["query"]), _as_str(run["doc"])
    if qrels is not None:
        qrels = qrels.drop_duplicates(["query", "doc"], keep="last")
        qr_q, qr_d = _as_str(qrels["query"]), _as_str(qrels["doc"])
        queries, codes = _codes(pd.concat([run_q, qr_q], ignore_index=True), sort=True)
        run_qc, qr_qc = codes[: len(run)], codes[len(run):]
        qr_grade = _finite(qrels["grade"], "qrels grade")
        grade, judged = _lookup(run_qc, run_d, qr_qc, qr_d, qr_grade)
    else:
        queries, run_qc = _codes(run_q, sort=True)
        grade = run["grade"].to_numpy(dtype=float)
        judged = ~np.isnan(grade)
        if np.isinf(grade).any():
            raise ValueError("run grade has infinite values")
    nq = len(queries)

    order = _ranking_order(run, run_qc, run_d, ties)
    qc, grade, judged = run_qc[order], grade[order], judged[order]
    rank = _rank_within(qc, nq)
    gain = gains(np.where(judged, grade, 0.0), config)
    if ties == "average" and "score" in run:
        gain = _tie_averaged(gain, qc, run["score"].to_numpy(dtype=float)[order])

    depth = int(rank.max()) if len(rank) else 0
    if qrels is not None and config.ideal == "judged":
        pool_qc, pool_gain = qr_qc, gains(qr_grade, config)
    else:
        pool_qc, pool_gain = qc, gains(np.where(judged, grade, 0.0), config)
    ideal_order = np.lexsort((-pool_gain, pool_qc))
    pool_qc, pool_gain = pool_qc[ideal_order], pool_gain[ideal_order]
    ideal_rank = _rank_within(pool_qc, nq)
    depth = max(depth, int(ideal_rank.max()) if len(ideal_rank) else 0)
    disc = discounts(depth, config)

    cut = rank <= k if k is not None else slice(None)
    dcg = np.bincount(qc[cut], (gain * disc[rank - 1])[cut], minlength=nq)
    icut = ideal_rank <= k if k is not None else slice(None)
    idcg = np.bincount(pool_qc[icut], (pool_gain * disc[ideal_rank - 1])[icut], minlength=nq)

    n_retrieved = np.bincount(qc, minlength=nq)
    n_judged = np.bincount(qc, judged, minlength=nq).astype(int)
    if qrels is not None:
        n_pool = np.bincount(qr_qc, minlength=nq)
        n_relevant = np.bincount(qr_qc, gains(qr_grade, config) > 0, minlength=nq).astype(int)
    else:
        n_pool = n_judged
        n_relevant = np.bincount(qc, gain > 0, minlength=nq).astype(int)
    result = pd.DataFrame(
        {
            "n_retrieved": n_retrieved,
            "n_judged": n_judged,
            "n_unjudged": n_retrieved - n_judged,
            "n_pool": n_pool,
            "n_relevant": n_relevant,
            "dcg": dcg,
            "idcg": idcg,
            "ndcg": safe_ratio(dcg, idcg),
            "undefined": idcg == 0,
        },
        index=pd.Index(queries, name="query"),
        columns=RESULT_COLUMNS,
    )
    keep = np.ones(nq, bool)
    if qrels is not None:
        keep &= n_pool > 0
    if missing == "skip":
        keep &= n_retrieved > 0
    return result[keep]


def mean_ndcg(result: pd.DataFrame, undefined: str = "zero") -> float:
    """The plain mean of per-query NDCG. undefined="zero" counts queries with IDCG = 0 as 0
    (trec_eval, ranx); "skip" leaves them out. NaN when no query is left."""
    if undefined not in ("zero", "skip"):
        raise ValueError(f"undefined must be 'zero' or 'skip', not {undefined!r}")
    ndcg = result["ndcg"] if undefined == "zero" else result.loc[~result["undefined"], "ndcg"]
    return float(ndcg.mean()) if len(ndcg) else float("nan")


def _require(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} needs columns {', '.join(columns)}; missing {', '.join(missing)} "
            f"(found {', '.join(map(str, frame.columns)) or 'none'})"
        )


def _as_str(values: pd.Series) -> pd.Series:
    if values.dtype == object or isinstance(values.dtype, pd.StringDtype):
        return values
    return values.astype(str)


def _finite(values: pd.Series, what: str) -> np.ndarray:
    arr = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    if not np.isfinite(arr).all():
        raise ValueError(f"{what} must be finite numbers")
    return arr


def _codes(values: pd.Series, sort: bool) -> tuple[np.ndarray, np.ndarray]:
    codes, uniques = pd.factorize(values, sort=sort)
    return np.asarray(uniques, dtype=object), codes.astype(np.int64)


def _lookup(run_qc, run_d, qr_qc, qr_d, qr_grade) -> tuple[np.ndarray, np.ndarray]:
    """The qrels grade of each run row (query, doc), by a hash join on integer keys."""
    _, dcodes = _codes(pd.concat([run_d, qr_d], ignore_index=True), sort=False)
    ndocs = int(dcodes.max()) + 1 if len(dcodes) else 1
    run_key = run_qc * ndocs + dcodes[: len(run_d)]
    qr_key = qr_qc * ndocs + dcodes[len(run_d):]
    pos = pd.Index(qr_key).get_indexer(run_key)
    judged = pos >= 0
    grade = np.where(judged, qr_grade[pos], np.nan)
    return grade, judged


def _ranking_order(run: pd.DataFrame, qc: np.ndarray, docs: pd.Series, ties: str) -> np.ndarray:
    """Row order that ranks each query's documents, queries grouped by code."""
    n = len(run)
    if "score" in run:
        score = run["score"].to_numpy(dtype=float)
        if ties == "trec":
            # Codes of a sorted factorisation follow code point order, which is UTF-8 byte order.
            _, doc_rank = _codes(docs, sort=True)
            return np.lexsort((-doc_rank, -score, qc))
        return np.lexsort((np.arange(n), -score, qc))
    if "rank" in run:
        return np.lexsort((np.arange(n), run["rank"].to_numpy(dtype=float), qc))
    return np.argsort(qc, kind="stable")


def _rank_within(qc_sorted: np.ndarray, nq: int) -> np.ndarray:
    """1-based position of each row within its (contiguous) query group."""
    counts = np.bincount(qc_sorted, minlength=nq)
    starts = np.cumsum(counts) - counts
    return np.arange(len(qc_sorted)) - starts[qc_sorted] + 1


def _tie_averaged(gain: np.ndarray, qc: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Each row's gain replaced by the mean gain of its run of equal scores within a query."""
    if len(gain) == 0:
        return gain
    new_group = np.empty(len(gain), bool)
    new_group[0] = True
    new_group[1:] = (qc[1:] != qc[:-1]) | (score[1:] != score[:-1])
    gid = np.cumsum(new_group) - 1
    return (np.bincount(gid, gain) / np.bincount(gid))[gid]
