"""A `Measure` of NDCG as one SQL query: the per-query table of `core.ndcg.evaluate`, from tables.

Inputs are two tables (or views) the caller names:
    run(query, doc, score[, row_order])   one row per retrieved document, no (query, doc) twice
    qrels(query, doc, grade[, row_order]) one row per judged document, no (query, doc) twice
`row_order` (any integer that grows down the file) is needed for the "file" and "average" tie
rules (the order of tied rows; "average" counts n_judged among the first k in that order), and for
`first_row` / `first_judged` (where each query first appears, so a caller can list queries in
file order as the in-memory command line does).

The result has one row per judged query, sorted by query: query and `evaluate`'s RESULT_COLUMNS
(n_retrieved, n_judged, n_unjudged, n_pool, n_relevant, dcg, idcg, ndcg, undefined), equal to
`evaluate(run, qrels, measure)` (tests/core/sql/test_ndcg_sql.py, hypothesis).

Kept to what DuckDB and Spark SQL both run: WITH, LEFT JOIN, GROUP BY, CASE, COALESCE, CAST to
DOUBLE / FLOAT / BIGINT / BOOLEAN, the window functions ROW_NUMBER, COUNT and AVG OVER (PARTITION
BY ... ORDER BY ...), LN, LOG2 and POWER; numbers written as CAST(<literal> AS DOUBLE) (Spark reads
1.5 as a DECIMAL). No list functions, no QUALIFY, no engine-specific casts or names.

A measure SQL cannot express is refused with `NotExpressible`, one line naming the choice; the
check compares every field of `Measure` with the values written here, so a choice added to the
measure later is refused until someone writes its SQL.
"""

from __future__ import annotations

import dataclasses
import math
import re
import sys
from collections.abc import Callable, Mapping

from ndcg_gui.core.ndcg.measure import SNAP_DECIMALS, TIES, TREATMENTS, GainTable, Measure

# float32's largest value, and where doubles round past it to infinity (half an ulp above:
# 2^103; the tie goes to infinity, FLT_MAX's last bit being odd). numpy rounds so; a DuckDB
# CAST(x AS FLOAT) beyond FLT_MAX is an error, so those are written out.
_FLT_MAX = 3.4028234663852886e38
_FLT_INF_FROM = _FLT_MAX + 2.0**103
_BEYOND = 1e300  # any key above every float32: the order of "infinite" scores among themselves ties



class NotExpressible(ValueError):
    """A measure's choice the SQL does not express: one line naming it."""


def _is_name(*names: str) -> Callable[[object], bool]:
    return lambda value: isinstance(value, str) and value in names


# Each Measure field and the values the SQL below writes; any other field must keep its default.
_SUPPORTED: dict[str, Callable[[object], bool]] = {
    "k": lambda v: isinstance(v, int),  # (None, no cut-off, is not written)
    "gain": lambda v: _is_name("linear", "exponential")(v) or isinstance(v, Mapping),
    "discount": _is_name("log2", "log", "jarvelin"),
    "idcg_zero": _is_name("zero", "one"),
    "ideal_depth": _is_name("k", "list", "all"),
    "rounding": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 15),
    "base": lambda v: isinstance(v, float) and math.isfinite(v) and v > 1,
    "ideal": _is_name("judged", "retrieved"),
    "negative": _is_name("keep", "zero"),
    "gain_table": lambda v: v is None or isinstance(v, GainTable),
    "precision": lambda v: v in (None, "float32", "float64"),
    "truncate_grades": lambda v: isinstance(v, bool),
    "judged_only": lambda v: isinstance(v, bool),
    "ideal_order": _is_name("sorted", "given"),
    "ties": _is_name(*TIES),
    "empty": _is_name(*TREATMENTS),
    "undefined": _is_name(*TREATMENTS),  # (the mean's: the per-query table does not depend on it)
}


def check_expressible(measure: Measure, row_order: bool = False) -> None:
    """`NotExpressible` naming the first choice of `measure` SQL cannot express."""
    for f in dataclasses.fields(measure):
        value = getattr(measure, f.name)
        check = _SUPPORTED.get(f.name)
        if check is not None:
            ok = check(value)
        else:  # a field added to the measure since: only its default means "as before"
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            ok = value == default
        if not ok:
            raise NotExpressible(f"the SQL engines cannot compute NDCG with {f.name}={value!r} (yet)")
    if measure.ideal_order == "given" and measure.ideal == "judged" and not row_order:
        raise NotExpressible("ideal_order='given' needs the judgments' file order (a row_order column)")
    if measure.ties in ("file", "average") and not row_order:
        # ("average": which of the tied rows fall within k, so n_judged, goes by file order)
        raise NotExpressible(f"ties={measure.ties!r} needs the rows' file order (a row_order column)")


def number(x: float) -> str:
    """A finite double as SQL both engines read as DOUBLE."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{x!r} is not a finite number")
    return f"CAST({x!r} AS DOUBLE)"


def grade_sql(grade: str, measure: Measure) -> str:
    """The grade as the definition reads it (`metrics.read_grades`): its whole part with
    `truncate_grades` (toward zero, as C's atol), or as given."""
    if not measure.truncate_grades:
        return grade
    return (f"CAST(CASE WHEN {grade} >= 0 THEN FLOOR({grade}) ELSE CEIL({grade}) END AS DOUBLE)")


def gain_sql(grade: str, measure: Measure) -> str:
    """The gain of grade expression `grade` (NULL for unjudged: NULL)."""
    grade = grade_sql(grade, measure)
    if measure.gain_table:  # (an empty table: every grade keeps its value)
        cases = " ".join(f"WHEN {grade} = {number(g)} THEN {number(v)}"
                         for g, v in measure.gain_table.items())
        gain = f"CASE {cases} ELSE {grade} END"
    elif measure.gain == "exponential":
        gain = f"(POWER(CAST(2 AS DOUBLE), {grade}) - CAST(1 AS DOUBLE))"
    else:
        gain = grade
    if measure.negative == "zero":
        gain = f"CASE WHEN {grade} < 0 THEN CAST(0 AS DOUBLE) ELSE {gain} END"
    return gain


def discount_sql(rank: str, measure: Measure) -> str:
    """The discount at the (1-based, integer) rank expression `rank`, as `metrics.discounts`."""
    if measure.discount == "log2":
        return f"(CAST(1 AS DOUBLE) / LOG2(CAST({rank} AS DOUBLE) + CAST(1 AS DOUBLE)))"
    base = number(measure.base)
    if measure.discount == "log":
        return f"(LN({base}) / LN(CAST({rank} AS DOUBLE) + CAST(1 AS DOUBLE)))"
    return (f"(CASE WHEN CAST({rank} AS DOUBLE) < {base} THEN CAST(1 AS DOUBLE) "
            f"ELSE LN({base}) / LN(CAST({rank} AS DOUBLE)) END)")


def score_key_sql(score: str, precision: str) -> str:
    """The score as the ranking compares it (`order.score_key`) at `precision`: "float32" rounds
    it to single precision (as numpy does, infinite past float32's range), "float64" as given."""
    if precision == "float64":
        return f"CAST({score} AS DOUBLE)"
    s = f"CAST({score} AS DOUBLE)"
    return (f"(CASE WHEN {s} >= {number(_FLT_INF_FROM)} THEN {number(_BEYOND)} "
            f"WHEN {s} > {number(_FLT_MAX)} THEN {number(_FLT_MAX)} "
            f"WHEN {s} <= -{number(_FLT_INF_FROM)} THEN -{number(_BEYOND)} "
            f"WHEN {s} < -{number(_FLT_MAX)} THEN -{number(_FLT_MAX)} "
            f"ELSE CAST(CAST({s} AS FLOAT) AS DOUBLE) END)")


def ndcg_sql(measure: Measure, run: str = "run", qrels: str = "qrels", row_order: bool = False) -> str:
    """The SQL text of `evaluate(run, qrels, measure)` over the tables named `run` and `qrels`.
    With `row_order` both tables have a `row_order` column; the result then also has `first_row`
    (NULL without results) and `first_judged`."""
    check_expressible(measure, row_order)
    k, ties, missing = int(measure.k), measure.ties, measure.empty  # type: ignore[arg-type]
    precision = measure.score_precision
    key = score_key_sql("score", precision)
    tie_break = "doc DESC" if ties == "trec" else "row_order ASC"
    order_col = ", row_order" if row_order else ""
    # Only the first k rows need their grade, unless the ideal is the list's own or ties share gains.
    every_row = measure.ideal == "retrieved" or ties == "average"
    gain = f"COALESCE({gain_sql('q.grade', measure)}, CAST(0 AS DOUBLE))"
    # scikit-learn: tied scores (exactly equal) share their mean gain
    shown_gain = "AVG(gain) OVER (PARTITION BY query, skey)" if ties == "average" else "gain"
    firsts = ", r.first_row, p.first_judged" if row_order else ""
    first_row = ", MIN(row_order) AS first_row" if row_order else ""
    given = measure.ideal_order == "given"
    # The ideal ranking: the pool sorted by gain, or (Spark MLlib) in the order it is given: the
    # judgments' file order, or the list's own order for the ideal from the list.
    if measure.ideal == "judged":
        kept = ", row_order" if given else ""
        ideal_from = f"SELECT query, {gain_sql('grade', measure)} AS gain{kept} FROM {qrels}"
        ideal_by = "row_order ASC" if given else "gain DESC"
    else:
        ideal_from = "SELECT query, gain, rnk FROM joined"
        ideal_by = "rnk ASC" if given else "gain DESC"
    listed, whole_run = "", run
    if measure.judged_only:
        # Condensed lists (`metrics.condensed_keep`): only judged documents are ranked, so those
        # below an unjudged one move up; with negative="zero" a negative grade is unjudged too.
        negative = f"WHERE {grade_sql('q.grade', measure)} >= 0" if measure.negative == "zero" else ""
        listed = f"""listed AS (
    SELECT c.query, c.doc, c.score{', c.row_order' if row_order else ''}
    FROM {run} c
    JOIN {qrels} q ON q.query = c.query AND q.doc = c.doc
    {negative}
),
"""
        run = "listed"
    if every_row:
        ranked = f"""ranked AS (
    SELECT query, doc{order_col}, {key} AS skey,
           ROW_NUMBER() OVER (PARTITION BY query ORDER BY {key} DESC, {tie_break}) AS rnk
    FROM {run}
),"""
    else:
        # Only rows that can reach the first k: those whose key is at least the k-th highest of
        # their query (the rows tied there included) are ranked with the tie rule. The k-th key
        # comes from a window ordered by the number alone, which an engine can keep as a top k
        # per query instead of sorting every list (DuckDB: several times faster).
        ranked = f"""kth AS (
    SELECT query, MIN(skey) AS kth
    FROM (SELECT query, {key} AS skey,
                 ROW_NUMBER() OVER (PARTITION BY query ORDER BY {key} DESC) AS rn
          FROM {run}) top_keys
    WHERE rn <= {k}
    GROUP BY query
),
candidates AS (
    SELECT c.query, c.doc{', c.row_order' if row_order else ''}, {score_key_sql('c.score', precision)} AS skey
    FROM {run} c
    JOIN kth b ON b.query = c.query
    WHERE {score_key_sql('c.score', precision)} >= b.kth
),
ranked AS (
    SELECT query, doc{order_col}, skey,
           ROW_NUMBER() OVER (PARTITION BY query ORDER BY skey DESC, {tie_break}) AS rnk
    FROM candidates
),"""
    idisc = discount_sql("irnk", measure)
    # (an ideal in the given order is summed as `evaluate._given_order_dcg` sums it: as it comes)
    idcg_sum = f"SUM(gain * {idisc})" if given else (
        f"CASE WHEN ABS(SUM(gain * {idisc})) <= CAST(1e-12 AS DOUBLE) * SUM(ABS(gain * {idisc})) "
        f"AND SUM(ABS(gain * {idisc})) <= {number(sys.float_info.max)} "  # (inf cancels nothing)
        f"THEN CAST(0 AS DOUBLE) ELSE SUM(gain * {idisc}) END")
    # How deep the ideal goes (`evaluate._ideal_depth`): k, the list's first k rows, or all of it.
    ideal_cut = {"k": f"WHERE o.irnk <= {k}", "all": "",
                 "list": "LEFT JOIN dcg d ON d.query = o.query WHERE o.irnk <= COALESCE(d.n_top, 0)"
                 }[measure.ideal_depth]
    undefined = "CAST(1 AS DOUBLE)" if measure.idcg_zero == "one" else "CAST(0 AS DOUBLE)"
    ndcg = rounded(f"CASE WHEN COALESCE(i.idcg, CAST(0 AS DOUBLE)) = 0 THEN {undefined} "
                   "ELSE COALESCE(d.dcg, CAST(0 AS DOUBLE)) / i.idcg END", measure.rounding)
    sql = f"""
WITH {listed}{ranked}
joined AS (
    SELECT t.query, t.rnk, t.skey{', t.row_order' if row_order else ''},
           CASE WHEN q.grade IS NULL THEN 0 ELSE 1 END AS judged,
           {gain} AS gain
    FROM ranked t
    LEFT JOIN {qrels} q ON q.query = t.query AND q.doc = t.doc
    {'' if every_row else f'WHERE t.rnk <= {k}'}
),
shown AS (
    SELECT query, rnk, judged, {shown_gain} AS gain FROM joined
),
dcg AS (
    SELECT query,
           SUM(CASE WHEN rnk <= {k} THEN gain * {discount_sql('rnk', measure)} ELSE CAST(0 AS DOUBLE) END)
               AS dcg,
           SUM(CASE WHEN rnk <= {k} THEN judged ELSE 0 END) AS n_judged,
           SUM(CASE WHEN rnk <= {k} THEN 1 ELSE 0 END) AS n_top
    FROM shown
    GROUP BY query
),
retrieved AS (
    SELECT query, COUNT(*) AS n_retrieved{first_row} FROM {whole_run} GROUP BY query
),
ideal AS (
    -- the first k of each query's ideal order only: filtered here, beside its window, an engine
    -- keeps a top k per query instead of ranking every judgment (DuckDB, 15M: 0.4 s against 2.4 s)
    SELECT o.query, o.gain, o.irnk
    FROM (SELECT query, gain, ROW_NUMBER() OVER (PARTITION BY query ORDER BY {ideal_by}) AS irnk
          FROM ({ideal_from}) judgments) o
    {ideal_cut}
),
idcg AS (
    -- 0 where negative gains cancel the positive ones exactly (1, 0, -2 at ranks 1-3): a sum in
    -- another order than `evaluate`'s leaves a few ulps there, and NDCG would be 10^15
    SELECT query, {idcg_sum} AS idcg
    FROM ideal
    GROUP BY query
),
pool AS (
    SELECT query, COUNT(*) AS n_pool,
           SUM(CASE WHEN {gain_sql('grade', measure)} > 0 THEN 1 ELSE 0 END) AS n_relevant
           {', MIN(row_order) AS first_judged' if row_order else ''}
    FROM {qrels}
    GROUP BY query
)
SELECT p.query AS query,
       CAST(COALESCE(r.n_retrieved, 0) AS BIGINT) AS n_retrieved,
       CAST(COALESCE(d.n_judged, 0) AS BIGINT) AS n_judged,
       CAST(COALESCE(d.n_top, 0) - COALESCE(d.n_judged, 0) AS BIGINT) AS n_unjudged,
       CAST(p.n_pool AS BIGINT) AS n_pool,
       CAST(p.n_relevant AS BIGINT) AS n_relevant,
       COALESCE(d.dcg, CAST(0 AS DOUBLE)) AS dcg,
       COALESCE(i.idcg, CAST(0 AS DOUBLE)) AS idcg,
       {ndcg} AS ndcg,
       COALESCE(i.idcg, CAST(0 AS DOUBLE)) = 0 AS undefined{firsts}
FROM pool p
LEFT JOIN retrieved r ON r.query = p.query
LEFT JOIN dcg d ON d.query = p.query
LEFT JOIN idcg i ON i.query = p.query
{"WHERE r.n_retrieved IS NOT NULL" if missing == "skip" else ""}
ORDER BY p.query
"""
    return sql.strip() + "\n"


def rounded(value: str, decimals: int | None) -> str:
    """`value` rounded half away from zero to `decimals` places, as `metrics.round_half_away`."""
    if decimals is None:
        return value
    if decimals < SNAP_DECIMALS:  # (snapped first, as there)
        value = _half_away(value, SNAP_DECIMALS)
    return _half_away(value, decimals)


def _half_away(value: str, decimals: int) -> str:
    scale = number(10.0**decimals)
    return f"(SIGN({value}) * FLOOR(ABS({value}) * {scale} + CAST(0.5 AS DOUBLE)) / {scale})"


_CTE = re.compile(r"^(?:WITH )?(\w+) AS \($", re.M)


def ndcg_steps(measure: Measure, run: str = "run", qrels: str = "qrels",
               row_order: bool = False) -> tuple[list[tuple[str, str]], str]:
    """`ndcg_sql` as steps: each named part (`kth`, `ranked`, `dcg`, …) as a SELECT of its own, in
    order, and the final SELECT over them. An engine that makes each part a table before the next
    holds one part's working memory at a time: DuckDB ran out of its limit on a big run running them as
    one query (every join's and window's state at once), where each part alone fits in a small
    share of it."""
    sql = ndcg_sql(measure, run, qrels, row_order)
    parts, at = [], 0
    for match in _CTE.finditer(sql):
        # A part ends at the first line that starts with ")" (the parts' own brackets are indented).
        end = sql.index("\n)", match.end())
        parts.append((match.group(1), sql[match.end():end].strip()))
        at = sql.index("\n", end + 1) + 1
    return parts, sql[at:].strip() + "\n"
