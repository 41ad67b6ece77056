"""NDCG@k of many queries at once: run and qrels joined, ordered and scored group-wise, no loops.

Why it is fast on big runs whatever their shape: NDCG@k needs only each query's first k documents.
Those are picked by a radix select (`core.topk`) on (score, then doc id bytes for trec_eval's tie
rule), a few passes over integer arrays however the scores are spread; a run already grouped by
query and ordered by score (as TREC run files are) only settles the rows tied at the k-th place.
Ids stay in Arrow arrays (no Python string per row): queries are dictionary-encoded, and only the
chosen rows' documents are matched to the judgments, with Arrow hash lookups.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.config import MetricConfig, TiesName
from ndcg_gui.core.metrics import check_k, discounts, gains, safe_ratio
from ndcg_gui.core.topk import StringBytes, first_rows_word, score_bits, select_top

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
    ties   equal scores: "trec" orders them by doc id in descending byte order, and like trec_eval
           takes scores as single-precision floats (1.0 and 1.0 + 1e-12 are tied);
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

    key, by_score = _ranking_key(run, ties)
    groups = _Groups.of(_ids(run["query"], "run query"))
    trec_ties = by_score and ties == "trec"
    docs = _ids(run["doc"], "run doc") if qrels is not None or trec_ties else None
    if qrels is not None:
        qgroups = _Groups.of(_ids(qrels["query"], "qrels query"))
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
    rows = None if every_row else _top_rows(groups, key, k, ties, by_score, docs)
    rows = np.arange(len(run)) if rows is None else rows
    rows = _ranked(rows, groups.codes, key, docs if trec_ties else None)

    if qrels is not None:
        grade = _lookup(to_query[groups.codes[rows]], docs.take(pa.array(rows)),
                        qr_code, _ids(qrels["doc"], "qrels doc"), qr_grade)
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


def _ranking_key(run: pd.DataFrame, ties: str) -> tuple[np.ndarray | None, bool]:
    """(key, by_score): the value that ranks rows high first (score, or minus rank), or None for
    file order; by_score says ties between equal keys are score ties. trec_eval keeps scores as
    single-precision floats, so with its tie rule scores equal as float32 are ties."""
    if "score" in run:
        score = _finite(run["score"], "run score")
        if ties == "trec":
            with np.errstate(over="ignore"):  # beyond float32's range: infinite, as in trec_eval
                score = score.astype(np.float32).astype(np.float64)
        return score, True
    if "rank" in run:
        return -_finite(run["rank"], "run rank"), False
    return None, False


def _ids(values: pd.Series, what: str) -> pa.Array:
    """Ids as one Arrow string array, without a Python string per row when pandas holds them in
    Arrow already (numbers read as numbers become their text, as `str` gives it)."""
    try:
        arr = pa.array(values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # mixed types: text below
        arr = None
    except UnicodeEncodeError:  # lone surrogates (a badly decoded file): compared as their bytes
        if values.isna().any():
            raise ValueError(f"{what} has empty values") from None
        return pa.array([str(v).encode("utf-8", "surrogatepass") for v in values], pa.binary())
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr is not None and pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    if (arr.null_count if arr is not None else values.isna().any()):
        raise ValueError(f"{what} has empty values")
    if arr is None or not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        arr = pa.array(np.asarray(values.to_numpy()).astype(str), pa.string())
    return arr


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
    def of(cls, ids: pa.Array) -> _Groups:
        n = len(ids)
        # Comparing neighbours is cheaper than hashing every id: grouped files take this path,
        # and a shuffled one is recognised from its first rows.
        if n > 1 and 2 * _changes(ids.slice(0, 4096)).sum() < min(n, 4096):
            starts = np.flatnonzero(np.concatenate([[True], _changes(ids)]))
            firsts = ids.take(pa.array(starts))
            if len(pc.unique(firsts)) == len(starts):
                sizes = np.diff(starts, append=n)
                codes = np.repeat(np.arange(len(starts)), sizes)
                return cls(codes, _labels(firsts), sizes, starts)
        # Codes come in order of first appearance: they never fall exactly when rows are grouped.
        encoded = pc.dictionary_encode(ids)
        codes = encoded.indices.to_numpy().astype(np.int64)
        labels = _labels(encoded.dictionary)
        sizes = np.bincount(codes, minlength=len(labels))
        grouped = n < 2 or bool((codes[1:] >= codes[:-1]).all())
        return cls(codes, labels, sizes, np.cumsum(sizes) - sizes if grouped else None)


def _changes(ids: pa.Array) -> np.ndarray:
    """Whether each id differs from the one before it (one fewer than the ids)."""
    if len(ids) < 2:
        return np.zeros(0, bool)
    return pc.not_equal(ids.slice(1), ids.slice(0, len(ids) - 1)).to_numpy(zero_copy_only=False)


def _labels(ids: pa.Array) -> np.ndarray:
    labels = ids.to_numpy(zero_copy_only=False).astype(object)
    if pa.types.is_binary(ids.type):  # ids that were not valid Unicode (see `_ids`)
        labels = np.array([b.decode("utf-8", "surrogatepass") for b in labels], dtype=object)
    return labels


def _union_sorted(*label_sets: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """All labels sorted as strings, and for each set the position of its labels in that list."""
    every = pd.unique(np.concatenate(label_sets)) if label_sets else np.zeros(0, object)
    queries = np.sort(np.asarray(every, dtype=object))
    index = pd.Index(queries, dtype=object)
    return queries, [index.get_indexer(labels) for labels in label_sets]


# --- ordering -----------------------------------------------------------------------------------


def _top_rows(groups: _Groups, key: np.ndarray | None, k: int | None, ties: str, by_score: bool,
              docs: pa.Array | None) -> np.ndarray | None:
    """Row indices (ascending) of each query's first k rows, or None for all rows.

    Tied scores at the k-th place are settled as `ties` says: by doc id ("trec", which needs
    `docs`), by file order ("file"), or every row tied with the k-th kept ("average": they share
    the mean gain of their group).
    """
    if k is None:
        return None
    codes, sizes, starts = groups.codes, groups.sizes, groups.starts
    n = len(codes)
    if n == 0 or sizes.max() <= k:
        return None
    rows = np.arange(n)
    if starts is not None and (key is None or _descending_within(key, starts)):
        take = rows - np.repeat(starts, sizes) < k
        if not by_score or ties == "file":
            return np.flatnonzero(take)
        # Ranked already: only rows tied with the k-th can still move in or out.
        take |= key == key[starts + np.minimum(sizes, k) - 1][codes]
        rows = np.flatnonzero(take)
        if ties == "average":
            return rows
    words = [] if key is None else [lambda r: score_bits(key[r])]
    if not by_score or ties == "file":
        words.append(first_rows_word(n))
    strings = StringBytes(docs) if by_score and ties == "trec" else None
    return select_top(rows, codes[rows], np.minimum(sizes, k), words, strings,
                      keep_ties=by_score and ties == "average")


def _descending_within(key: np.ndarray, starts: np.ndarray) -> bool:
    """Whether key never rises within a query (rows grouped, `starts` = first row of each)."""
    rises = key[1:] > key[:-1]
    rises[starts[1:] - 1] = False
    return not rises.any()


def _small_int(n: int) -> type:
    return np.uint16 if n <= np.iinfo(np.uint16).max else np.int64


def _ranked(rows: np.ndarray, codes: np.ndarray, key: np.ndarray | None, docs: pa.Array | None):
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
    # Arrow compares ids byte by byte (unsigned), as trec_eval's strcmp does.
    pairs = pa.table({"run": run_id, "doc": docs.take(pa.array(rows[at]))})
    order = pc.sort_indices(pairs, [("run", "ascending"), ("doc", "descending")]).to_numpy()
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


def _lookup(run_q: np.ndarray, run_d: pa.Array, qr_q: np.ndarray, qr_d: pa.Array,
            qr_grade: np.ndarray) -> np.ndarray:
    """The qrels grade of each (query code, doc id) of the run rows, NaN where not judged.

    The distinct docs of the smaller side go into an Arrow hash table that both sides are looked
    up in, so pairs become integers (query code, doc number) matched with integer hash tables;
    the larger side's strings are only hashed, never turned into Python objects. With repeated
    judgments of a pair, the last one wins.
    """
    grade = np.full(len(run_d), np.nan)
    if len(run_d) == 0 or len(qr_d) == 0:
        return grade
    distinct = pc.unique(run_d if len(run_d) <= len(qr_d) else qr_d)
    run_doc = pc.index_in(run_d, value_set=distinct).to_numpy(zero_copy_only=False)
    qr_doc = pc.index_in(qr_d, value_set=distinct).to_numpy(zero_copy_only=False)
    # index_in gives null (NaN here) for a doc that is not in `distinct`: never a match.
    qr_rows = np.flatnonzero(~np.isnan(qr_doc)) if qr_doc.dtype.kind == "f" else np.arange(len(qr_d))
    run_rows = (np.flatnonzero(~np.isnan(run_doc)) if run_doc.dtype.kind == "f"
                else np.arange(len(run_d)))
    width = np.int64(len(distinct))
    table = qr_q[qr_rows] * width + qr_doc[qr_rows].astype(np.int64)
    probe = run_q[run_rows] * width + run_doc[run_rows].astype(np.int64)
    j = _last_match(table, probe)
    hit = j >= 0
    grade[run_rows[hit]] = qr_grade[qr_rows[j[hit]]]
    return grade


def _last_match(table: np.ndarray, probe: np.ndarray) -> np.ndarray:
    """For each probe value, the position of its last occurrence in `table`, or -1.

    The smaller side goes into the hash table and the other streams through it.
    """
    if len(table) == 0 or len(probe) == 0:
        return np.full(len(probe), -1)
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


def _ideal_dcg(code: np.ndarray, gain: np.ndarray, nq: int, k: int | None, config) -> np.ndarray:
    """IDCG@k per query from each query's pool of gains, without sorting the pool.

    Counting the documents of each (query, gain level) places every level's block of ranks in
    the ideal ordering; a block's DCG is its gain times a difference of the discount prefix sums.
    """
    if len(gain) == 0:
        return np.zeros(nq)
    levels, level = np.unique(gain, return_inverse=True)
    g = len(levels)
    levels, level = levels[::-1], g - 1 - level  # the highest gain first
    if nq * g <= 4 * len(gain) + (1 << 16):  # a (query x level) table of counts
        count = np.bincount(code * g + level, minlength=nq * g).reshape(nq, g)
        hi = np.cumsum(count, axis=1)
        lo = hi - count
        depth = int(hi[:, -1].max()) if k is None else k
        prefix = np.concatenate([[0.0], np.cumsum(discounts(depth, config))])
        block = (prefix[np.minimum(hi, depth)] - prefix[np.minimum(lo, depth)]) * levels
        return block.sum(axis=1)
    # Many levels (continuous grades): only the (query, level) pairs that occur.
    pair, count = np.unique(code * g + level, return_counts=True)
    query, level_of = pair // g, pair % g
    end = np.cumsum(count)
    first = np.concatenate([[True], query[1:] != query[:-1]])
    before = (end - count)[first][np.cumsum(first) - 1]
    hi, lo = end - before, end - before - count
    depth = int(hi.max()) if k is None else k
    prefix = np.concatenate([[0.0], np.cumsum(discounts(depth, config))])
    block = (prefix[np.minimum(hi, depth)] - prefix[np.minimum(lo, depth)]) * levels[level_of]
    return np.bincount(query, block, minlength=nq)
