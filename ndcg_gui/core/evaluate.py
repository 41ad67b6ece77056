"""NDCG@k of many queries at once: run and qrels joined, ordered and scored group-wise, no loops.

Why it is fast on big runs (5,000 queries x 1,000 documents): NDCG@k needs only each query's first
k documents, so the string work (matching documents to judgments, breaking ties by doc id) is done
on those rows alone; everything else is integer and float arrays. A run already grouped by query
and ordered by score (as TREC run files are) is recognised and not sorted again; otherwise each
query's k-th best score comes from one `np.partition` of a (queries x documents) matrix.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat

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
    qrels  columns `query`, `doc`, `grade`: every judged document, one row per (query, doc) (the
           readers reject duplicates). Run documents without a judgment get gain 0. A query of the
           run with no judgment at all is left out (as trec_eval does).
    ties   equal scores: "trec" orders them by doc id in descending byte order (trec_eval);
           "file" keeps file order; "average" gives each the mean gain of its group (scikit-learn).
           Equal ranks (a `rank` column) keep file order.
    missing "zero": a judged query with no results scores 0 and is listed; "skip": left out.

    Columns: n_retrieved (documents in the run), n_judged and n_unjudged (among the first k of
    them, all of them for k=None), n_pool (judged documents of the query), n_relevant (judged
    with gain > 0), dcg, idcg, ndcg, and `undefined` where IDCG = 0 (NDCG reported as 0).
    k=None scores whole lists against the whole ideal ranking.
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

    key, by_score = _ranking_key(run)
    groups = _Groups.of(run["query"], "run query")
    if qrels is not None:
        qgroups = _Groups.of(qrels["query"], "qrels query")
        qr_grade = _finite(qrels["grade"], "qrels grade")
        queries, (to_query, qr_to_query) = _union_sorted(groups.labels, qgroups.labels)
        qr_code = qr_to_query[qgroups.codes]
        run_grade = None
    else:
        queries, (to_query,) = _union_sorted(groups.labels)
        try:
            run_grade = run["grade"].to_numpy(dtype=float)
        except (TypeError, ValueError):
            raise ValueError("run grade must be numbers (NaN = unjudged)") from None
        if np.isinf(run_grade).any():
            raise ValueError("run grade has infinite values")
    nq = len(queries)

    # Rows that can reach the first k ranks (all rows when the ideal needs every retrieved grade
    # from the qrels).
    every_row = qrels is not None and config.ideal == "retrieved"
    rows = None if every_row else _top_rows(groups, key, k, ties, by_score)
    rows = np.arange(len(run)) if rows is None else rows
    rows = _ranked(rows, groups.codes, key, run["doc"] if by_score and ties == "trec" else None)

    if qrels is not None:
        grade = _lookup(to_query[groups.codes[rows]], _strings(run["doc"].to_numpy()[rows]),
                        qr_code, _strings(qrels["doc"].to_numpy()), qr_grade)
    else:
        grade = run_grade[rows]
    judged = ~np.isnan(grade)
    gain = _judged_gains(grade, config)
    code = groups.codes[rows]
    own_gain = gain  # the ideal ranking sorts true gains, never tie-averaged ones
    if ties == "average" and by_score:
        gain = _tie_averaged(gain, code, key[rows])
    rank = _rank_within(code)
    qcode = to_query[code]

    if qrels is not None and config.ideal == "judged":
        pool_code, pool_gain = qr_code, gains(qr_grade, config)
    elif qrels is not None:
        pool_code, pool_gain = qcode, own_gain
    else:
        pool_code, pool_gain = to_query[groups.codes], _judged_gains(run_grade, config)
    idcg = _ideal_dcg(pool_code, pool_gain, nq, k, config)

    top = rank <= k if k is not None else np.ones(len(rank), bool)
    disc = discounts(int(rank.max()) if len(rank) else 0, config)
    dcg = np.bincount(qcode[top], (gain * disc[rank - 1])[top], minlength=nq)
    n_retrieved = np.zeros(nq, np.int64)
    n_retrieved[to_query] = groups.sizes
    n_judged = np.bincount(qcode[top], judged[top], minlength=nq).astype(np.int64)
    n_unjudged = np.bincount(qcode[top], minlength=nq) - n_judged
    if qrels is not None:
        n_pool = np.bincount(qr_code, minlength=nq)
        n_relevant = np.bincount(qr_code, pool_gain > 0 if config.ideal == "judged"
                                 else gains(qr_grade, config) > 0, minlength=nq).astype(np.int64)
    else:
        all_code = to_query[groups.codes]
        n_pool = np.bincount(all_code, ~np.isnan(run_grade), minlength=nq).astype(np.int64)
        n_relevant = np.bincount(all_code, pool_gain > 0, minlength=nq).astype(np.int64)
    result = pd.DataFrame(
        {
            "n_retrieved": n_retrieved,
            "n_judged": n_judged,
            "n_unjudged": n_unjudged,
            "n_pool": n_pool,
            "n_relevant": n_relevant,
            "dcg": dcg,
            "idcg": idcg,
            "ndcg": safe_ratio(dcg, idcg),
            "undefined": idcg == 0,
        },
        index=pd.Index(queries, name="query", dtype=object),
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


# --- input checks -------------------------------------------------------------------------------


def _require(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} needs columns {', '.join(columns)}; missing {', '.join(missing)} "
            f"(found {', '.join(map(str, frame.columns)) or 'none'})"
        )


def _finite(values: pd.Series, what: str) -> np.ndarray:
    arr = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what} must be finite numbers; row {i + 1} is {values.iloc[i]!r}")
    return arr


def _ranking_key(run: pd.DataFrame) -> tuple[np.ndarray | None, bool]:
    """(key, by_score): the value that ranks rows high first (score, or minus rank), or None for
    file order; by_score says ties between equal keys are score ties."""
    if "score" in run:
        return _finite(run["score"], "run score"), True
    if "rank" in run:
        return -_finite(run["rank"], "run rank"), False
    return None, False


def _strings(values: np.ndarray) -> np.ndarray:
    """Ids as an object array of str (numbers read as numbers become their text)."""
    if values.dtype == object and all(isinstance(v, str) for v in values[:1]):
        return values
    return values.astype(str).astype(object)


# --- queries as group codes ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Groups:
    """Rows by query: `codes` per row, `labels` (str) per code, `sizes` per code, and `starts`
    (first row of each code) when every query's rows are contiguous, codes then ascending."""

    codes: np.ndarray
    labels: np.ndarray
    sizes: np.ndarray
    starts: np.ndarray | None

    @classmethod
    def of(cls, values: pd.Series, what: str) -> _Groups:
        arr = values.to_numpy()
        n = len(arr)
        if n == 0:
            empty = np.zeros(0, np.int64)
            return cls(empty, np.zeros(0, object), empty, empty)
        grouped = None
        # Comparing neighbours is far cheaper than hashing every id: grouped files take this path.
        # A shuffled file is recognised from its first rows and goes straight to hashing.
        head = arr[:4096]
        if 2 * np.count_nonzero(head[1:] != head[:-1]) < len(head):
            starts = np.flatnonzero(np.concatenate([[True], arr[1:] != arr[:-1]]))
            labels = arr[starts]
            if 2 * len(starts) <= n + 1 and len(pd.unique(labels)) == len(labels):
                grouped = starts, labels
        if grouped is not None:
            starts, labels = grouped
            sizes = np.diff(starts, append=n)
            codes = np.repeat(np.arange(len(starts)), sizes)
        else:
            codes, labels = pd.factorize(arr)
            codes = codes.astype(np.int64)
            sizes, starts = np.bincount(codes[codes >= 0], minlength=len(labels)), None
        if pd.isna(labels).any() or (codes < 0).any():
            raise ValueError(f"{what} has empty values")
        return cls(codes, _strings(np.asarray(labels)), sizes, starts)


def _union_sorted(*label_sets: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """All labels sorted as strings, and for each set the position of its labels in that list."""
    every = pd.unique(np.concatenate(label_sets)) if label_sets else np.zeros(0, object)
    queries = np.sort(np.asarray(every, dtype=object))
    index = pd.Index(queries, dtype=object)
    return queries, [index.get_indexer(labels) for labels in label_sets]


# --- ordering -----------------------------------------------------------------------------------


def _top_rows(groups: _Groups, key: np.ndarray | None, k: int | None, ties: str, by_score: bool):
    """Row indices (ascending) that can reach the first k ranks of their query, or None for all.

    Rows tied with the k-th are kept too (their order is settled later, or they share an average).
    """
    if k is None:
        return None
    codes, sizes, starts = groups.codes, groups.sizes, groups.starts
    n = len(codes)
    if n == 0 or sizes.max() <= k:
        return None
    if starts is not None and (key is None or _descending_within(key, starts)):
        pos = np.arange(n) - np.repeat(starts, sizes)
        take = pos < k
        if by_score and ties != "file":
            kth = key[starts + np.minimum(sizes, k) - 1]
            take |= key == np.repeat(kth, sizes)
        return np.flatnonzero(take)
    if key is None:
        # File order within scattered queries: positions from a stable (radix) sort by query.
        order = np.argsort(codes.astype(_small_int(len(sizes))), kind="stable")
        pos = np.empty(n, np.int64)
        pos[order] = np.arange(n) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        return np.flatnonzero(pos < k)
    return _top_by_buckets(codes, len(sizes), key, k)


def _top_by_buckets(codes: np.ndarray, nq: int, key: np.ndarray, k: int) -> np.ndarray:
    """Rows whose key is in or above the bucket that holds their query's k-th best key.

    Keys fall into equal-width buckets (a monotone map, so equal keys share a bucket); counting
    rows per (query, bucket) finds each query's threshold bucket without sorting any rows. The
    result holds every row of the top k and every row tied with the k-th, plus a few more.
    """
    n_buckets = int(np.clip(2 * len(key) // max(nq, 1), 64, 4096))
    lo, span = key.min(), key.max() - key.min()
    with np.errstate(over="ignore"):  # a subnormal span overflows the scale: one bucket then
        scale = (n_buckets - 1) / span if 0 < span < np.inf else 0.0
    if not np.isfinite(scale):
        scale = 0.0
    bucket = np.clip((key - lo) * scale, 0, n_buckets - 1).astype(np.int64)
    counts = np.bincount(codes * n_buckets + bucket, minlength=nq * n_buckets).reshape(nq, n_buckets)
    at_or_above = np.cumsum(counts[:, ::-1], axis=1)  # column j: rows in buckets >= last - j
    reached = at_or_above[:, -1] >= k
    threshold = np.where(reached, n_buckets - 1 - np.argmax(at_or_above >= k, axis=1), 0)
    return np.flatnonzero(bucket >= threshold[codes])


def _descending_within(key: np.ndarray, starts: np.ndarray) -> bool:
    """Whether key never rises within a query (rows grouped, `starts` = first row of each)."""
    rises = key[1:] > key[:-1]
    rises[starts[1:] - 1] = False
    return not rises.any()


def _small_int(n: int) -> type:
    return np.uint16 if n <= np.iinfo(np.uint16).max else np.int64


def _ranked(rows: np.ndarray, codes: np.ndarray, key: np.ndarray | None, docs: pd.Series | None):
    """`rows` reordered so each query's rows are contiguous and ranked: key high first, ties in
    file order, or with `docs` given, tied scores by doc id in descending byte order (trec_eval)."""
    code = codes[rows]
    k = key[rows] if key is not None else None
    if not _is_ranked(code, k):
        order = np.argsort(-k, kind="stable") if k is not None else np.arange(len(rows))
        order = order[np.argsort(code[order].astype(_small_int(int(code.max()) + 1)), kind="stable")]
        rows, code = rows[order], code[order]
        k = k[order] if k is not None else None
    if docs is None or k is None or len(rows) < 2:
        return rows
    tied_next = (code[1:] == code[:-1]) & (k[1:] == k[:-1])
    if not tied_next.any():
        return rows
    # Only rows inside a run of equal scores are reordered; the runs keep their places.
    tied = np.zeros(len(rows), bool)
    tied[:-1] |= tied_next
    tied[1:] |= tied_next
    at = np.flatnonzero(tied)
    run_id = np.cumsum(np.concatenate([[True], ~tied_next]))[at]
    tied_docs = _strings(docs.to_numpy()[rows[at]])
    longest = max(map(len, tied_docs))
    if longest * len(tied_docs) <= 1 << 26:
        # As fixed-width unicode (code point order = UTF-8 byte order) numpy sorts them in C:
        # by run descending and doc ascending, then reversed.
        order = np.lexsort((tied_docs.astype(f"U{max(longest, 1)}"), -run_id))[::-1]
    else:  # very long ids: sort the distinct ids as Python strings instead
        doc_order, _ = pd.factorize(tied_docs, sort=True)
        order = np.lexsort((-doc_order, run_id))
    rows = rows.copy()
    rows[at] = rows[at][order]
    return rows


def _is_ranked(code: np.ndarray, key: np.ndarray | None) -> bool:
    if len(code) < 2:
        return True
    step = np.diff(code)
    if (step < 0).any():
        return False
    return key is None or not ((step == 0) & (key[1:] > key[:-1])).any()


def _rank_within(code: np.ndarray) -> np.ndarray:
    """1-based position of each row within its (contiguous) run of equal codes."""
    n = len(code)
    if n == 0:
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.concatenate([[True], code[1:] != code[:-1]]))
    return np.arange(n) - np.repeat(starts, np.diff(starts, append=n)) + 1


def _tie_averaged(gain: np.ndarray, code: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Each row's gain replaced by the mean gain of its run of equal scores within a query."""
    if len(gain) == 0:
        return gain
    new_group = np.empty(len(gain), bool)
    new_group[0] = True
    new_group[1:] = (code[1:] != code[:-1]) | (score[1:] != score[:-1])
    gid = np.cumsum(new_group) - 1
    return (np.bincount(gid, gain) / np.bincount(gid))[gid]


# --- judgments ----------------------------------------------------------------------------------


def _judged_gains(grade: np.ndarray, config: MetricConfig) -> np.ndarray:
    """Gains of grades, and 0 for unjudged documents (NaN) whatever a gain table says of grade 0."""
    unjudged = np.isnan(grade)
    return np.where(unjudged, 0.0, gains(np.where(unjudged, 0.0, grade), config))


def _lookup(run_q: np.ndarray, run_d: np.ndarray, qr_q: np.ndarray, qr_d: np.ndarray,
            qr_grade: np.ndarray) -> np.ndarray:
    """The qrels grade of each (query code, doc id) of the run rows, NaN where not judged.

    Pairs are matched by a 64-bit mix of the query code and Python's own (cached) str hash, with
    integer hash tables, then every match is confirmed by comparing the strings: one cheap pass over
    the qrels instead of a hash table of objects. Equal pairs always have equal hashes, so a row
    without a hash match is unjudged; the rare row whose match fails to confirm (a collision) is
    looked up exactly. With repeated judgments of a pair, the last one wins.
    """
    grade = np.full(len(run_d), np.nan)
    if len(run_d) == 0 or len(qr_d) == 0:
        return grade
    j = _last_match(_pair_hash(qr_q, qr_d), _pair_hash(run_q, run_d))
    has = np.flatnonzero(j >= 0)
    ok = (qr_q[j[has]] == run_q[has]) & (qr_d[j[has]] == run_d[has]).astype(bool)
    grade[has[ok]] = qr_grade[j[has[ok]]]
    unsure = has[~ok]
    if len(unsure):
        grade[unsure] = _lookup_exact(run_q[unsure], run_d[unsure], qr_q, qr_d, qr_grade)
    return grade


def _last_match(table: np.ndarray, probe: np.ndarray) -> np.ndarray:
    """For each probe value, the position of its last occurrence in `table`, or -1.

    The smaller side goes into the hash table and the other streams through it.
    """
    if len(probe) < len(table):
        uniq, inverse = np.unique(probe, return_inverse=True)
        at = pd.Index(uniq).get_indexer(table)
        hit = np.flatnonzero(at >= 0)
        last = np.full(len(uniq), -1)
        np.maximum.at(last, at[hit], hit)
        return last[inverse]
    codes, uniq = pd.factorize(table)
    last = np.full(len(uniq), -1)
    np.maximum.at(last, codes, np.arange(len(table)))
    at = pd.Index(uniq).get_indexer(probe)
    return np.where(at >= 0, last[at], -1)


def _pair_hash(query: np.ndarray, docs: np.ndarray) -> np.ndarray:
    doc = np.fromiter(map(hash, docs), np.int64, len(docs)).view(np.uint64)
    return doc ^ (query.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))


def _lookup_exact(run_q, run_d, qr_q, qr_d, qr_grade) -> np.ndarray:
    """The same lookup through a dict of (query, doc) pairs: exact, slower; for a few rows."""
    table = dict(zip(zip(qr_q.tolist(), qr_d.tolist(), strict=True), qr_grade.tolist(), strict=True))
    pairs = zip(run_q.tolist(), run_d.tolist(), strict=True)
    return np.fromiter(map(table.get, pairs, repeat(np.nan)), float, len(run_q))


def _ideal_dcg(code: np.ndarray, gain: np.ndarray, nq: int, k: int | None, config) -> np.ndarray:
    """IDCG@k per query from each query's pool of gains, without sorting the pool.

    Counting the documents of each (query, gain level) places every level's block of ranks in
    the ideal ordering; a block's DCG is its gain times a difference of the discount prefix sums.
    """
    if len(gain) == 0:
        return np.zeros(nq)
    levels, level = np.unique(-gain, return_inverse=True)  # level 0 = the highest gain
    g = len(levels)
    key, count = np.unique(code * g + level, return_counts=True)
    query, level_of = key // g, key % g
    end = np.cumsum(count)
    first = np.concatenate([[True], query[1:] != query[:-1]])
    before = (end - count)[first][np.cumsum(first) - 1]
    hi, lo = end - before, end - before - count
    depth = int(hi.max()) if k is None else k
    prefix = np.concatenate([[0.0], np.cumsum(discounts(depth, config))])
    block = (prefix[np.minimum(hi, depth)] - prefix[np.minimum(lo, depth)]) * -levels[level_of]
    return np.bincount(query, block, minlength=nq)
