"""NDCG@k of many queries at once: run and qrels joined, ordered and scored group-wise, no loops.

Why it is fast on big runs whatever their shape: NDCG@k needs only each query's first k documents.
Those are picked by a radix select (`core.arrays.topk`) on (score, then doc id bytes for trec_eval's tie
rule), a few passes over integer arrays however the scores are spread; a run already grouped by
query and ordered by score (as TREC run files are) only settles the rows tied at the k-th place.
Ids stay in Arrow arrays (no Python string per row): queries are dictionary-encoded, and only the
chosen rows' documents are matched to the judgments. The join and the tie order are the loader's
(`core.arrays.join`, `core.arrays.order`); `score_ranked` scores rows already joined and ranked,
which is all a loaded `Dataset` needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.arrays.ids import Groups, hash_strings, strings, take, whole
from ndcg_gui.core.arrays.join import label_union, lookup, pair_keys
from ndcg_gui.core.arrays.order import ranked, score_key
from ndcg_gui.core.arrays.topk import StringBytes, first_rows_word, leading_rows, score_bits, select_top
from ndcg_gui.core.ndcg.measure import DOC_WEIGHT_COLUMN, Measure, PrecisionName, TiesName
from ndcg_gui.core.ndcg.metrics import condensed_keep, discounts, finish, gains, judged_gains
from ndcg_gui.core.ndcg.ties import averaged

Ids = pa.Array | pa.ChunkedArray  # doc ids as Arrow text (`ids.strings`)
RESULT_COLUMNS = [
    "n_retrieved", "n_judged", "n_unjudged", "n_pool", "n_relevant",
    "dcg", "idcg", "ndcg", "undefined",
]
# With measure.doc_weights: each list's TF-Ranking weight (NaN: no gain, the mean's fallback) and
# the sum of its documents' weights (0: the list counts for nothing), for the mean (`list_weights`).
WEIGHT_COLUMNS = ["list_weight", "weight_sum"]


def evaluate(
    run: pd.DataFrame,
    qrels: pd.DataFrame | None = None,
    measure: Measure | None = None,
) -> pd.DataFrame:
    """One row per query (index `query`, sorted as strings): counts, DCG@k, IDCG@k, NDCG@k under
    `measure` (its cut-off k, tie rule and the precision it compares scores at).

    run    columns `query`, `doc` and `score` (ranked high first) or `rank` (low first) or neither
           (file order). Without `qrels` it needs a `grade` column (NaN = unjudged).
    qrels  columns `query`, `doc`, `grade`: every judged document, one row per (query, doc) (the
           readers reject duplicates). Run documents without a judgment get gain 0. A query of the
           run with no judgment at all is left out (as trec_eval does).
    measure.ties  equal scores: "trec" orders them by doc id in descending byte order; "file"
           keeps file order; "average" gives each the mean gain of its group (scikit-learn).
           Scores are compared at `measure.score_precision` (by default float32 under "trec", as
           trec_eval 9.x keeps them, 1.0 and 1.0 + 1e-12 tied; float64 otherwise).
           Equal ranks (a `rank` column) keep file order.
    measure.empty  "zero": a judged query with no results scores 0 and is listed; "skip": left out.
    measure.doc_weights  "tf_ranking": the run's `doc_weight` column weighs each document
           (`doc_weights`), and the table gains `WEIGHT_COLUMNS`.

    Columns: n_retrieved (documents in the run), n_judged and n_unjudged (among the first k of
    them, all of them for k=None), n_pool (judged documents of the query), n_relevant (judged
    with gain > 0), dcg, idcg, ndcg, and `undefined` where IDCG = 0 (NDCG reported as 0).
    k=None scores whole lists against the whole ideal ranking.
    """
    measure = measure or Measure()
    _require(run, ["query", "doc"] + ([] if qrels is not None else ["grade"]), "run")
    if qrels is not None:
        _require(qrels, ["query", "doc", "grade"], "qrels")

    key, by_score = _ranking_key(run, measure.score_precision)
    groups = Groups.of(strings(run["query"], "run query"))
    trec_ties = by_score and measure.ties == "trec"
    docs = strings(run["doc"], "run doc") if qrels is not None or trec_ties else None
    weight = doc_weights(run, measure)
    if qrels is not None:
        pool_groups = Groups.of(strings(qrels["query"], "qrels query"))
        pool_grade = _finite(qrels["grade"], "qrels grade")
        return evaluate_rows(groups, key, by_score, docs, pool_groups, strings(qrels["doc"], "qrels doc"),
                             pool_grade, measure, weight=weight)
    queries, (to_query,) = sorted_union(groups.labels)
    try:
        run_grade = run["grade"].to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise ValueError("run grade must be numbers (NaN = unjudged)") from None
    if np.isinf(run_grade).any():
        raise ValueError("run grade has infinite values")
    pool = Pool(to_query[groups.codes], run_grade, judged=False)
    return _scored(groups, key, by_score, docs, queries, to_query, pool, None, measure, weight=weight)


def doc_weights(run: pd.DataFrame, measure: Measure) -> np.ndarray | None:
    """Each row's document weight from the run's `doc_weight` column when the measure applies
    them (`Measure.doc_weights`), else None. An empty cell (a row added by hand) weighs 1; a
    ValueError for a missing column or a weight that is not a number of at least 0 (the readers
    refuse those in a file, naming its line: `formats.doc_weights`)."""
    if measure.doc_weights == "none":
        return None
    name = doc_weight_column(run.columns)
    if name is None:
        raise ValueError(f"doc_weights={measure.doc_weights!r} needs a {DOC_WEIGHT_COLUMN} column in the run "
                         f"(found {', '.join(map(str, run.columns))})")
    cells = run[name]
    text = cells.astype(str).str.strip() if not pd.api.types.is_numeric_dtype(cells) else None
    weight = pd.to_numeric(cells if text is None else text.mask(text == "", "1"),
                           errors="coerce").to_numpy(dtype=float)
    if text is not None and np.isnan(weight).any():  # a decimal comma, which the reader let by
        comma = pd.to_numeric(text.str.replace(",", ".", regex=False), errors="coerce").to_numpy(dtype=float)
        weight = np.where(np.isnan(weight), comma, weight)
    bad = ~(np.isfinite(weight) & (weight >= 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"run {DOC_WEIGHT_COLUMN} must be numbers of at least 0; row {i + 1} is "
                         f"{cells.iloc[i]!r}")
    return weight


def doc_weight_column(columns) -> object | None:
    """The run's column of document weights: `doc_weight` in any case, spaces around it aside
    (the rule `formats.doc_weights` checks the column's cells by), or None."""
    return next((c for c in columns if str(c).strip().lower() == DOC_WEIGHT_COLUMN), None)


def evaluate_rows(
    groups: Groups,
    key: np.ndarray | None,
    by_score: bool,
    docs: Ids,
    pool_groups: Groups,
    pool_docs: Ids,
    pool_grade: np.ndarray,
    measure: Measure,
    *,
    union: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    run_keys: tuple[list[np.ndarray], int] | None = None,
    weight: np.ndarray | None = None,
) -> pd.DataFrame:
    """`evaluate`'s table from a run and its qrels already read: the run's `groups`, ranking `key`
    (a `score_key` when `by_score`, minus the rank otherwise, None for file order) and doc ids, the
    qrels' groups, doc ids and (finite) grades. Checked by the caller: no pair repeats.

    union     the query labels in the caller's order and the positions of the run's and of the
              qrels' labels in them (`label_union`: `Dataset.queries()` order, no sort of the
              labels); None: sorted as strings, as `evaluate` gives them
    run_keys  a list holding the run rows' `pair_keys` (their own query codes, their doc ids
              hashed past `skip` leading bytes), as the check for repeated pairs made them, and
              `skip`: when every row is scored the join does not hash the run's doc ids again. The
              list is emptied (its only holder: the keys are let go before the scoring needs the
              memory). Only where the run's codes are the queries' positions (`label_union`'s first
              set)
    weight    each run row's document weight (`doc_weights`), in file order, or None
    """
    queries, to_query, qr_to_query = union or _with_positions(sorted_union(groups.labels, pool_groups.labels))
    pool = Pool(qr_to_query[pool_groups.codes], pool_grade, judged=True)
    keys = None
    if run_keys is not None:
        held, skip = run_keys
        if not np.array_equal(to_query, np.arange(len(to_query))):
            raise ValueError("run_keys are keyed by the run's own query codes, not by these positions")
        keys = [held.pop()]
        if scores_every_row(groups, measure, judged=True):
            keys.append(pair_keys(pool.query, hash_strings(pool_docs, skip), in_place=True))
        else:
            keys = None  # (only the first k rows of each list are joined: their ids are few)
    return _scored(groups, key, by_score, docs, queries, to_query, pool, pool_docs, measure, keys, weight)


def _with_positions(union: tuple[np.ndarray, list[np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    queries, (to_query, qr_to_query) = union
    return queries, to_query, qr_to_query


def scores_every_row(groups: Groups, measure: Measure, judged: bool) -> bool:
    """Whether every row of the run is scored (and joined), not only each query's first k
    (`_top_rows`); `judged`: with qrels."""
    # All rows when the ideal needs every retrieved grade from the qrels; all rows too for
    # condensed lists: an unjudged document in the first k lets one below move up.
    # All rows for document weights too: a list's weight is over all its documents.
    if (judged and measure.ideal == "retrieved") or measure.judged_only or measure.doc_weights != "none":
        return True
    k = measure.k
    return k is None or len(groups.codes) == 0 or int(groups.sizes.max()) <= k


def _scored(groups: Groups, key: np.ndarray | None, by_score: bool, docs: Ids | None, queries: np.ndarray,
            to_query: np.ndarray, pool: Pool, pool_docs: Ids | None, measure: Measure,
            keys: list[np.ndarray] | None = None, weight: np.ndarray | None = None) -> pd.DataFrame:
    """The rows that can reach the first k ranks picked, ranked, joined to the judgments
    (`pool_docs`: the qrels' doc ids, None without qrels) and scored. `keys`: the run's and the
    pool's `pair_keys` in file order, when known (`lookup`; used when every row is scored)."""
    k, ties = measure.k, measure.ties
    judged = pool_docs is not None
    trec_ties = by_score and ties == "trec"
    all_rows = scores_every_row(groups, measure, judged)
    rows = None if all_rows else _top_rows(groups, key, k, ties, by_score, docs)
    rows = np.arange(len(groups.codes)) if rows is None else rows
    rows = ranked(rows, groups.codes, key, docs if trec_ties else None)
    row_query = to_query[groups.codes[rows]]
    if judged and all_rows:  # every row: joined in file order, then ranked (no copy of the doc ids)
        grade = lookup(to_query[groups.codes], docs, pool.query, pool_docs, pool.grade, keys)[rows]
    elif judged:  # the loader's join, on the rows that are scored
        grade = lookup(row_query, take(docs, rows), pool.query, pool_docs, pool.grade)
    else:
        grade = pool.grade[rows]
    n_retrieved = np.zeros(len(queries), np.int64)
    n_retrieved[to_query] = groups.sizes
    tie_key = key[rows] if ties == "average" and by_score else None
    return score_ranked(queries, row_query, grade, n_retrieved, pool, measure, tie_key,
                        None if weight is None else weight[rows])


@dataclass(frozen=True)
class Joined:
    """A run joined to its qrels and ranked once, every row kept: `score` is `evaluate` under any
    measure that ranks alike (its tie rule and precision), without joining or ordering again (what a
    walk through many measures of one run needs: `core.analysis.difference`)."""

    queries: np.ndarray
    row_query: np.ndarray
    grade: np.ndarray
    n_retrieved: np.ndarray
    pool: Pool
    tie_key: np.ndarray | None
    rank_key: np.ndarray | None = None  # each row's ranking key (tied rows share it), None: file order
    ties: TiesName = "trec"
    precision: PrecisionName = "float32"  # the precision the rows were ranked at

    @classmethod
    def of(cls, run: pd.DataFrame, qrels: pd.DataFrame | None = None,
           measure: Measure | None = None) -> Joined:
        """The rows `evaluate(run, qrels, measure)` scores, with its checks, ranked by the
        measure's tie rule with scores compared at its precision: they serve every measure that
        ranks alike (`ranks_as`), whatever its other choices."""
        measure = measure or Measure()
        ties, precision = measure.ties, measure.score_precision
        _require(run, ["query", "doc"] + ([] if qrels is not None else ["grade"]), "run")
        key, by_score = _ranking_key(run, precision)
        groups = Groups.of(strings(run["query"], "run query"))
        trec_ties = by_score and ties == "trec"
        docs = strings(run["doc"], "run doc") if qrels is not None or trec_ties else None
        if qrels is not None:
            _require(qrels, ["query", "doc", "grade"], "qrels")
            pool_groups = Groups.of(strings(qrels["query"], "qrels query"))
            queries, (to_query, qr_to_query) = sorted_union(groups.labels, pool_groups.labels)
            pool = Pool(qr_to_query[pool_groups.codes], _finite(qrels["grade"], "qrels grade"), judged=True)
        else:
            queries, (to_query,) = sorted_union(groups.labels)
            run_grade = run["grade"].to_numpy(dtype=float)
            if np.isinf(run_grade).any():
                raise ValueError("run grade has infinite values")
            pool = Pool(to_query[groups.codes], run_grade, judged=False)
        rows = ranked(np.arange(len(groups.codes)), groups.codes, key, docs if trec_ties else None)
        row_query = to_query[groups.codes[rows]]
        if qrels is not None:
            grade = lookup(row_query, take(docs, rows), pool.query, strings(qrels["doc"], "qrels doc"),
                           pool.grade)
        else:
            grade = pool.grade[rows]
        n_retrieved = np.zeros(len(queries), np.int64)
        n_retrieved[to_query] = groups.sizes
        tie_key = key[rows] if ties == "average" and by_score else None
        rank_key = None if key is None else key[rows]
        return cls(queries, row_query, grade, n_retrieved, pool, tie_key, rank_key, ties, precision)

    def ranks_as(self, measure: Measure) -> bool:
        """Whether `measure` ranks these rows as they are ranked: its tie rule, and scores compared
        at the precision they were (file order and ranks have no precision)."""
        same_precision = self.rank_key is None or measure.score_precision == self.precision
        return measure.ties == self.ties and same_precision

    def score(self, measure: Measure) -> pd.DataFrame:
        """`evaluate`'s table under `measure`, which ranks as these rows are ranked (another tie
        rule or precision is another ranking: ValueError)."""
        if measure.doc_weights != "none":  # (the rows hold no document weights)
            raise ValueError("these rows are scored without document weights; use evaluate")
        if not self.ranks_as(measure):
            raise ValueError(f"these rows are ranked by the tie rule {self.ties!r} with scores as "
                             f"{self.precision}; the measure ranks by {measure.ties!r} with scores as "
                             f"{measure.score_precision}")
        return score_ranked(self.queries, self.row_query, self.grade, self.n_retrieved, self.pool,
                            measure, self.tie_key)


@dataclass(frozen=True)
class Pool:
    """The judgments a query's ideal ranking is drawn from: the qrels (`judged`), or every row's
    own grade (NaN = unjudged) when there are none. `query` indexes the sorted query labels."""

    query: np.ndarray
    grade: np.ndarray
    judged: bool


def score_ranked(
    queries: np.ndarray,
    row_query: np.ndarray,
    grade: np.ndarray,
    n_retrieved: np.ndarray,
    pool: Pool,
    measure: Measure,
    tie_key: np.ndarray | None = None,
    weight: np.ndarray | None = None,
) -> pd.DataFrame:
    """`evaluate`'s table under `measure` from rows already joined and ranked: no join, no
    ordering (the measure's tie rule and precision are the caller's to have ranked them by).

    queries      the query labels, sorted (the result's index)
    row_query    each row's position in `queries`; each query's rows contiguous, in ranked order
                 (at least its first k rows; with the "retrieved" ideal and qrels, all of them)
    grade        each row's grade (NaN = unjudged)
    n_retrieved  each query's whole list length
    tie_key      with ties="average": each row's score (runs of equal scores share their mean gain)
    weight       with measure.doc_weights: each row's document weight (every row of each list),
                 TF-Ranking's way (`Measure.doc_weights`); None: unweighted
    """
    nq, k = len(queries), measure.k
    if measure.doc_weights != "none" and weight is None:  # (never scored unweighted unsaid)
        raise ValueError(f"doc_weights={measure.doc_weights!r} needs each row's document weight")
    weight = weight if measure.doc_weights != "none" else None
    lists = None if weight is None else _list_weights(row_query, grade, weight, nq, measure)
    if measure.judged_only or weight is not None:
        # condensed lists: unjudged documents leave the list; as does a document of weight 0
        # (TF-Ranking's mask: metrics_impl.py:261)
        keep = condensed_keep(grade, measure) if measure.judged_only else np.ones(len(grade), bool)
        if weight is not None:
            keep &= weight > 0
        row_query, grade = row_query[keep], grade[keep]
        tie_key = None if tie_key is None else tie_key[keep]
        weight = None if weight is None else weight[keep]
    # A list's NDCG is the same whatever the scale of its weights, but weight × gain and its sums
    # overflow (weights of 1e308): each list's weights are divided by a power of two at its
    # largest, exactly, and its DCG and IDCG multiplied back for the table (inf where no double
    # holds them, the NDCG still a figure).
    scale = None if weight is None else _list_scales(row_query, weight, nq)
    if scale is not None:
        weight = weight / scale[row_query]
    rank = rank_within(row_query)
    deepest = int(rank.max()) if len(rank) else 0
    cut = k is not None and deepest > k
    if cut and tie_key is None and weight is None and not (pool.judged and measure.ideal == "retrieved"):
        # Only the first k rows of each query count: a loaded run's millions of rows are cut here.
        top_rows = np.flatnonzero(rank <= k)
        row_query, grade, rank = row_query[top_rows], grade[top_rows], rank[top_rows]
        deepest = k
    judged = ~np.isnan(grade)
    gain = judged_gains(grade, measure)
    if weight is not None:  # weight × gain, in DCG and in the ideal (NDCGMetric._compute_impl)
        with np.errstate(over="ignore"):  # (past a double: inf, as a gain of 2^1024 is)
            gain = gain * weight
    own_gain = gain  # the ideal ranking sorts true gains, never tie-averaged ones
    if tie_key is not None:
        gain = averaged(gain, tie_key, lists=row_query)

    if weight is not None:  # the ideal: the list's documents sorted by weight × gain
        pool_code, pool_gain = row_query, own_gain
    elif pool.judged and measure.ideal == "judged":
        pool_code, pool_gain = pool.query, gains(pool.grade, measure)
    elif pool.judged:
        pool_code, pool_gain = row_query, own_gain
    else:
        pool_code, pool_gain = pool.query, judged_gains(pool.grade, measure)
        if measure.judged_only:  # the condensed lists are the pool
            kept = condensed_keep(pool.grade, measure)
            pool_code, pool_gain = pool_code[kept], pool_gain[kept]
    # (no list longer than k, as 300,000 lists of 10 at k=10: every row, and no copies of them)
    top = slice(None) if k is None or deepest <= k else rank <= k
    depth = _ideal_depth(row_query[top], nq, measure)
    if measure.ideal_order == "given":
        idcg = _given_order_dcg(pool_code, pool_gain, nq, depth, measure)
    else:
        idcg = _ideal_dcg(pool_code, pool_gain, nq, depth, measure)

    disc = discounts(deepest, measure)
    dcg = np.bincount(row_query[top], (gain * disc[rank - 1])[top], minlength=nq)
    n_judged = np.bincount(row_query[top], judged[top], minlength=nq).astype(np.int64)
    n_unjudged = np.bincount(row_query[top], minlength=nq) - n_judged
    if pool.judged:
        n_pool = np.bincount(pool.query, minlength=nq)
        n_relevant = np.bincount(pool.query, pool_gain > 0 if measure.ideal == "judged"
                                 else gains(pool.grade, measure) > 0, minlength=nq).astype(np.int64)
    else:
        n_pool = np.bincount(pool.query, ~np.isnan(pool.grade), minlength=nq).astype(np.int64)
        n_relevant = np.bincount(pool_code, pool_gain > 0, minlength=nq).astype(np.int64)
    result = pd.DataFrame(
        {
            "n_retrieved": n_retrieved,
            "n_judged": n_judged,
            "n_unjudged": n_unjudged,
            "n_pool": n_pool,
            "n_relevant": n_relevant,
            "dcg": dcg if scale is None else _scaled_back(dcg, scale),
            "idcg": idcg if scale is None else _scaled_back(idcg, scale),
            "ndcg": finish(dcg, idcg, measure),
            "undefined": idcg == 0,
        },
        index=pd.Index(queries, name="query", dtype=object),
        columns=RESULT_COLUMNS,
    )
    for name, values in zip(WEIGHT_COLUMNS if lists is not None else (), lists or (), strict=True):
        result[name] = values
    keep = np.ones(nq, bool)
    if pool.judged:
        keep &= n_pool > 0
    if measure.empty == "skip":
        keep &= n_retrieved > 0
    return result if keep.all() else result[keep]


def _list_weights(row_query: np.ndarray, grade: np.ndarray, weight: np.ndarray, nq: int,
                  measure: Measure) -> tuple[np.ndarray, np.ndarray]:
    """Each list's TF-Ranking weight before the mean's fallback, Σ w·g / Σ g over all its documents
    (NaN where Σ g ≤ 0), and Σ w (_per_example_weights_to_per_list_weights, metrics_impl.py:63-118;
    the gains of an unjudged document, 0, as of TF-Ranking's padding, whose label it sets to 0)."""
    gain = judged_gains(grade, measure)
    # Σ w·g / Σ g is a mean of the list's weights: never past its largest, but its sums can
    # overflow (two weights of 1e308). Each list's weights and gains are divided by a power of
    # two at their largest (exactly), and the mean multiplied back.
    w_scale, g_scale = _list_scales(row_query, weight, nq), _list_scales(row_query, np.abs(gain), nq)
    w, g = weight / w_scale[row_query], gain / g_scale[row_query]
    gain_sum = np.bincount(row_query, g, minlength=nq)
    weighted = np.bincount(row_query, w * g, minlength=nq)
    has_gain = gain_sum > 0
    own = np.full(nq, np.nan)
    own[has_gain] = weighted[has_gain] / gain_sum[has_gain] * w_scale[has_gain]
    return own, _scaled_back(np.bincount(row_query, w, minlength=nq), w_scale)


def _list_scales(row_query: np.ndarray, values: np.ndarray, nq: int) -> np.ndarray:
    """Per list, the power of two at or just below its largest finite value (1 for a list with
    none above 0): dividing by it is exact and leaves every value below 2."""
    top = np.zeros(nq)
    finite = np.isfinite(values)
    np.maximum.at(top, row_query[finite], values[finite])
    return _power_of_two_below(top)


def _power_of_two_below(top: np.ndarray) -> np.ndarray:
    # (2^(e-1) <= top < 2^e: below rather than above, which is 2^1024 for 1e308)
    return np.where(top > 0, np.ldexp(1.0, np.frexp(top)[1] - 1), 1.0)


def _scaled_back(values: np.ndarray, scale: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # (past a double: inf, said by whoever shows it)
        return values * scale


def list_weights(result: pd.DataFrame) -> np.ndarray:
    """The weight of each list of `result` (a table scored with document weights: its
    `WEIGHT_COLUMNS`) in the weighted mean, as TF-Ranking gives them over one batch, the lists
    of `result`: its own where it has gain; where it has none, the mean weight of the lists that
    have gain and a weight, or 1 when no list has; 0 where every weight of the list is 0."""
    own = result[WEIGHT_COLUMNS[0]].to_numpy(dtype=float)
    weighed = result[WEIGHT_COLUMNS[1]].to_numpy(dtype=float) > 0
    has_gain = ~np.isnan(own)
    counted = weighed & has_gain
    # (a sum of weights of 1e308 overflows: divided by a power of two at the largest, exactly)
    top = float(_power_of_two_below(np.array([own[counted].max()]))[0]) if counted.any() else 1.0
    fallback = float((own[counted] / top).sum() / counted.sum() * top) if counted.any() else 1.0
    return np.where(weighed, np.where(has_gain, own, fallback), 0.0)


def mean_ndcg(result: pd.DataFrame, measure: Measure | None = None) -> float:
    """The plain mean of per-query NDCG (a table of `evaluate`; scored with document weights,
    TF-Ranking's mean weighted by `list_weights`) as the measure's mean counts queries:
    `undefined` "zero" counts those with IDCG = 0 as 0 (trec_eval, ranx), "skip" leaves them out;
    `empty` "skip" leaves out judged queries the run returned nothing for (a table scored under
    `per_query()` lists them). NaN when no query is left."""
    measure = measure or Measure()
    keep = np.ones(len(result), bool)
    if measure.empty == "skip":
        keep &= result["n_retrieved"].to_numpy() > 0
    if measure.undefined == "skip":
        keep &= ~result["undefined"].to_numpy(dtype=bool)
    ndcg = result["ndcg"] if keep.all() else result.loc[keep, "ndcg"]
    if WEIGHT_COLUMNS[0] in result.columns:  # TF-Ranking's mean, weighted by the lists' weights
        w = list_weights(result if keep.all() else result[keep])
        w = w / _power_of_two_below(np.array([w.max() if len(w) else 0.0]))[0]  # (the mean is the
        # same at any scale, and weights of 1e308 overflow a sum: divided exactly)
        return float(np.dot(w, ndcg.to_numpy()) / w.sum()) if w.sum() > 0 else float("nan")
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


def _ranking_key(run: pd.DataFrame, precision: str) -> tuple[np.ndarray | None, bool]:
    """(key, by_score): the value that ranks rows high first (score at `precision`, or minus
    rank), or None for file order; by_score says ties between equal keys are score ties."""
    if "score" in run:
        return score_key(_finite(run["score"], "run score"), precision), True
    if "rank" in run:
        return -_finite(run["rank"], "run rank"), False
    return None, False


def sorted_union(*label_sets: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """All labels sorted as strings, and for each set (of distinct labels, as `Groups.labels`)
    the position of its labels in that list."""
    if not label_sets:
        return np.zeros(0, object), []
    every, positions = label_union(*label_sets)
    try:  # Arrow sorts UTF-8 bytes, which is the order of code points, as Python sorts `str`
        order = pc.array_sort_indices(pa.array(every, pa.string())).to_numpy()
    except (pa.ArrowException, TypeError, UnicodeEncodeError):  # (lone surrogates)
        order = np.argsort(every, kind="stable")
    place = np.empty(len(every), np.intp)
    place[order] = np.arange(len(every))
    return every[order], [place[at] for at in positions]


# --- ordering -----------------------------------------------------------------------------------


def _top_rows(groups: Groups, key: np.ndarray | None, k: int | None, ties: str, by_score: bool,
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
    if starts is not None and (key is None or _descending_within(key, starts)):
        if not by_score or ties == "file":
            return leading_rows(None, starts, sizes, k)
        # Ranked already: only rows tied with the k-th can still move in or out.
        rows = leading_rows(key, starts, sizes, k)
        if ties == "average":
            return rows
        # The select numbers these few rows anew: their doc ids taken, not a joined copy of all.
        top = select_top(np.arange(len(rows)), codes[rows], np.minimum(sizes, k),
                         [lambda r: score_bits(key[rows[r]])],
                         StringBytes(take(docs, rows)) if ties == "trec" else None)
        return rows[top]
    rows = np.arange(n)
    words = [] if key is None else [lambda r: score_bits(key[r])]
    if not by_score or ties == "file":
        words.append(first_rows_word(n))
    strings = StringBytes(whole(docs)) if by_score and ties == "trec" else None
    return select_top(rows, codes[rows], np.minimum(sizes, k), words, strings,
                      keep_ties=by_score and ties == "average")


def _descending_within(key: np.ndarray, starts: np.ndarray) -> bool:
    """Whether key never rises within a query (rows grouped, `starts` = first row of each)."""
    rises = key[1:] > key[:-1]
    rises[starts[1:] - 1] = False
    return not rises.any()


def rank_within(code: np.ndarray) -> np.ndarray:
    """1-based position of each row within its (contiguous) run of equal codes."""
    n = len(code)
    if n == 0:
        return np.zeros(0, np.int64)
    starts = np.flatnonzero(np.concatenate([[True], code[1:] != code[:-1]]))
    return np.arange(n) - np.repeat(starts, np.diff(starts, append=n)) + 1


# --- judgments ----------------------------------------------------------------------------------


def _ideal_depth(top_query: np.ndarray, nq: int, measure: Measure) -> int | np.ndarray | None:
    """How deep each query's ideal ranking goes: k, or None (never cut), or per query
    min(k, its list's length) with ideal_depth="list" (`top_query`: the query of each row in
    the first k)."""
    k = measure.k
    if k is None or measure.ideal_depth == "all":
        return None
    if measure.ideal_depth == "list":
        return np.bincount(top_query, minlength=nq)
    return k


def _given_order_dcg(code: np.ndarray, gain: np.ndarray, nq: int, depth, measure) -> np.ndarray:
    """IDCG per query with the pool taken in the order given (Spark's ideal in label order)."""
    order = np.argsort(code, kind="stable")
    code, gain = code[order], gain[order]
    rank = rank_within(code)
    keep = np.ones(len(rank), bool) if depth is None else rank <= (
        depth if np.isscalar(depth) else depth[code])
    disc = discounts(int(rank.max()) if len(rank) else 0, measure)
    return np.bincount(code[keep], (gain * disc[rank - 1])[keep], minlength=nq) if len(rank) else np.zeros(nq)


def _ideal_dcg(code: np.ndarray, gain: np.ndarray, nq: int, depth, measure) -> np.ndarray:
    """IDCG per query from each query's pool of gains, without sorting the pool. `depth`: where
    the ideal is cut, one k for all, one per query, or None (never).

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
        cut = int(hi[:, -1].max()) if depth is None else depth if np.isscalar(depth) else depth[:, None]
        prefix = _prefix(cut, measure, int(hi[:, -1].max()))
        span = prefix[np.minimum(hi, cut)] - prefix[np.minimum(lo, cut)]
        return _cancelled_to_zero((_block_dcg(span, levels)).sum(axis=1),
                                  _block_dcg(span, np.abs(levels)).sum(axis=1), levels)
    # Many levels (continuous grades): only the (query, level) pairs that occur.
    pair, count = np.unique(code * g + level, return_counts=True)
    query, level_of = pair // g, pair % g
    end = np.cumsum(count)
    first = np.concatenate([[True], query[1:] != query[:-1]])
    before = (end - count)[first][np.cumsum(first) - 1]
    hi, lo = end - before, end - before - count
    cut = int(hi.max()) if depth is None else depth if np.isscalar(depth) else depth[query]
    prefix = _prefix(cut, measure, int(hi.max()))
    span = prefix[np.minimum(hi, cut)] - prefix[np.minimum(lo, cut)]
    return _cancelled_to_zero(np.bincount(query, _block_dcg(span, levels[level_of]), minlength=nq),
                              np.bincount(query, _block_dcg(span, np.abs(levels[level_of])), minlength=nq),
                              levels)


def _block_dcg(span: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Each block's DCG, its gain times its share of the discounts; 0 for a block that holds no
    rank (no document of the query at that gain, or all of them past the cut), whatever the gain:
    an infinite gain of one query (2^g of a huge grade) is 0 * inf = NaN in every other query's
    row of the table, and in its own past the cut."""
    with np.errstate(invalid="ignore"):
        return np.where(span != 0, span * level, 0.0)


def _cancelled_to_zero(idcg: np.ndarray, size: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """IDCG that is 0 where negative gains cancel the positive ones exactly (gains 1, 0, -2 at
    ranks 1-3: 1 + 0 - 2/2). Differences of discount prefix sums leave a few ulps there, and
    NDCG = DCG / 1e-16 would be a figure of 10^15 where the one-list path, the SQL and the tools
    computing the sum directly find IDCG = 0."""
    if levels.size and levels.min() < 0:  # (an infinite sum cancels nothing: inf <= 1e-12 * inf)
        idcg[(np.abs(idcg) <= 1e-12 * size) & np.isfinite(size)] = 0.0
    return idcg


def _prefix(cut, measure: Measure, most: int) -> np.ndarray:
    """0, then the running sum of the discounts down to the deepest cut, or to the deepest of the
    `most` ranks there are (k may be 10^6 over lists of ten)."""
    depth = min(int(np.max(cut)), most) if np.size(cut) else 0
    return np.concatenate([[0.0], np.cumsum(discounts(depth, measure))])
