"""CG, DCG, IDCG and NDCG of one ranked list, at every rank (cumulative sums, no loops)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ndcg_gui.core.ndcg.measure import SNAP_DECIMALS, Measure
from ndcg_gui.core.ndcg.ties import averaged

if TYPE_CHECKING:
    import pandas as pd

PER_RANK_COLUMNS = [
    "rank", "grade", "gain", "discount", "cg", "dcg", "ideal_grade", "idcg", "ndcg",
]

_DEFAULT = Measure()


def as_grades(values: Sequence[float] | np.ndarray | pd.Series, what: str = "grades") -> np.ndarray:
    """Grades as a 1-d float array; NaN, infinite or non-numeric values raise `ValueError`."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be numbers, got {values!r:.80}") from None
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a flat sequence of numbers, got shape {arr.shape}")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what} must be finite numbers; position {i + 1} is {arr[i]}")
    return arr


def read_grades(grades: np.ndarray, measure: Measure) -> np.ndarray:
    """Grades as the definition reads them: with `truncate_grades`, their whole part (trec_eval
    reads a grade with C atol: 2.5 is 2, -0.5 is 0, so judged); otherwise as given."""
    grades = np.asarray(grades, dtype=float)
    return np.trunc(grades) + 0.0 if measure.truncate_grades else grades  # (+ 0.0: no -0.0)


def gains(grades: np.ndarray, measure: Measure) -> np.ndarray:
    """The gain of each grade under `measure` (negative grades as 0 when negative="zero")."""
    grades = read_grades(grades, measure)
    if measure.gain_table is not None:
        table = measure.gain_table
        keys = np.fromiter(table.keys(), float, len(table))
        vals = np.fromiter(table.values(), float, len(table))
        pos = np.searchsorted(keys, grades).clip(0, max(len(keys) - 1, 0))
        hit = keys[pos] == grades if len(keys) else np.zeros(grades.shape, bool)
        out = np.where(hit, vals[pos] if len(keys) else 0.0, grades)
    elif measure.gain == "exponential":
        with np.errstate(over="ignore"):  # 2^1024 and up: inf, said by whoever shows it
            out = np.exp2(grades) - 1.0
    else:
        out = grades.copy()
    if measure.negative == "zero":
        out[grades < 0] = 0.0
    return out


def judged_gains(grades: np.ndarray, measure: Measure, unjudged: np.ndarray | None = None) -> np.ndarray:
    """`gains`, and 0 for the unjudged documents whatever a gain table says of grade 0: those
    whose grade is NaN, and those `unjudged` marks (a list's rows of unjudged documents, graded 0
    there). Linear and exponential gains of 0 are 0. The one rule for a list and for a run."""
    grades = np.asarray(grades, dtype=float)
    nan = np.isnan(grades)
    if nan.any():
        out = gains(np.where(nan, 0.0, grades), measure)
        out[nan] = 0.0
    else:
        out = gains(grades, measure)
    if unjudged is not None and measure.gain_table is not None:
        out[np.asarray(unjudged, bool)] = 0.0
    return out


def undiscounted(ranks: np.ndarray | float, measure: Measure) -> np.ndarray | bool:
    """Where the discount is 1 by rule: ranks below the base b of the Järvelin–Kekäläinen form."""
    return np.less(ranks, measure.base) if measure.discount == "jarvelin" else np.zeros_like(ranks, bool)


def discounts(n: int, measure: Measure) -> np.ndarray:
    """The discount at ranks 1..n."""
    ranks = np.arange(1, n + 1, dtype=float)
    if measure.discount_table is not None:
        return _fit(np.asarray(measure.discount_table, dtype=float), n, 0.0)
    if measure.discount == "log2":
        return 1.0 / np.log2(ranks + 1.0)
    if measure.discount == "log":
        return np.log(measure.base) / np.log(ranks + 1.0)
    with np.errstate(divide="ignore"):
        disc = np.log(measure.base) / np.log(ranks)
    return np.where(undiscounted(ranks, measure), 1.0, disc)


def discount_formula(rank: int, measure: Measure) -> str:
    """The discount at `rank` as a person writes it: `1 / log2(4)`, `1 / log_3(5)`, or `1`."""
    if measure.discount_table is not None:
        table = measure.discount_table
        return f"{table[rank - 1]:g} (table)" if rank <= len(table) else "0 (past the table)"
    if undiscounted(rank, measure):
        return "1"
    if measure.discount == "log2":
        return f"1 / log2({rank + 1})"
    base = measure.base
    name = "log2" if base == 2 else "ln" if abs(base - np.e) < 1e-12 else f"log_{base:g}"
    return f"1 / {name}({rank + 1 if measure.discount == 'log' else rank})"


def ideal_gains(pool_grades: np.ndarray, measure: Measure,
                unjudged: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ideal ordering of a pool of grades: (grades, gains), highest gain first (in the order
    given with `ideal_order="given"`). `unjudged`: pool entries of gain 0 (`judged_gains`)."""
    if measure.ideal_order == "given":
        return pool_grades, judged_gains(pool_grades, measure, unjudged)
    if measure.gain_table is None:
        # Linear and exponential gains never fall as the grade rises: sorting grades is enough.
        ordered = np.sort(pool_grades)[::-1]
        return ordered, gains(ordered, measure)
    g = judged_gains(pool_grades, measure, unjudged)
    # Sort on gain (a gain table need not be monotone in the grade), then grade, both descending.
    order = np.lexsort((-pool_grades, -g))
    return pool_grades[order], g[order]


def _pool(grades: np.ndarray, judged: Sequence[float] | np.ndarray | None, measure: Measure):
    if judged is None or measure.ideal == "retrieved":
        return grades
    return as_grades(judged, "judged grades")


def _pool_unjudged(judged, measure: Measure, unjudged: np.ndarray | None) -> np.ndarray | None:
    """Which grades of `_pool` are unjudged documents: the list's own, when the pool is the list."""
    return unjudged if judged is None or measure.ideal == "retrieved" else None


def per_rank(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
) -> pd.DataFrame:
    """One row per rank: rank, grade, gain, discount, cg, dcg, ideal_grade, idcg, ndcg.

    Every cumulative column holds its value @ that rank. `judged` is the grades of every judged
    document of the query (retrieved or not); with `measure.ideal == "judged"` the ideal ranking is
    built from it, so a relevant document missing from the list lowers NDCG. Without it, the ideal
    comes from the list's own grades. Where IDCG is 0, NDCG is 0 (see `undefined_ranks`).
    `ideal_grade` is NaN at ranks past the end of a shorter judged pool.
    """
    import pandas as pd  # lazy: start-up (pandas)
    return pd.DataFrame(per_rank_columns(grades, measure, judged), columns=PER_RANK_COLUMNS)


def per_rank_columns(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    tie_scores: Sequence[float] | np.ndarray | None = None,
    unjudged: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """The columns of `per_rank` as plain arrays (what a window redraws on every edit: building a
    DataFrame costs more than the arithmetic). With `tie_scores`, the gains of neighbouring rows
    with equal scores are averaged (scikit-learn's rule for ties). `unjudged`: the rows of
    unjudged documents (grade 0 here), of gain 0 whatever a gain table says (`judged_gains`)."""
    measure = measure or _DEFAULT
    if measure.judged_only:
        return _condensed_columns(grades, measure, judged, tie_scores)
    grades = as_grades(grades)
    n = len(grades)
    gain = judged_gains(grades, measure, unjudged)
    if tie_scores is not None:
        gain = averaged(gain, np.asarray(tie_scores, dtype=float))
    disc = discounts(n, measure)
    dcg = np.cumsum(gain * disc)
    pool = _pool(grades, judged, measure)
    ideal_grade, ideal_gain = ideal_gains(pool, measure, _pool_unjudged(judged, measure, unjudged))
    if measure.ideal_depth == "all":  # never cut: the whole ideal ranking's DCG at every rank
        whole = float(ideal_gain @ discounts(len(ideal_gain), measure))
        idcg = np.full(n, whole)
    else:  # at rank r a list is cut at r: min(r, its length) = r, so "k" and "list" agree here
        idcg = np.cumsum(_fit(ideal_gain, n, 0.0) * disc)
    ideal_grade = _fit(ideal_grade, n, np.nan)
    return {
        "rank": np.arange(1, n + 1),
        "grade": grades,
        "gain": gain,
        "discount": disc,
        "cg": np.cumsum(gain),
        "dcg": dcg,
        "ideal_grade": ideal_grade,
        "idcg": idcg,
        "ndcg": finish(dcg, idcg, measure),
    }


def _condensed_columns(grades, measure: Measure, judged, tie_scores) -> dict[str, np.ndarray]:
    """`per_rank_columns` of a condensed list, one row per row of the list as given: a row left
    out (unjudged, or a negative grade under negative="zero") holds no rank (gain and discount 0,
    the cumulative figures those of the row before); a kept row's figures are those at its rank
    among the kept rows, which is the rank a cut-off counts (`ndcg_at` of the condensed list)."""
    raw = np.asarray(grades, dtype=float)
    keep = condensed_keep(raw, measure)
    kept, kept_ties = _condensed(raw, measure, tie_scores)
    inner = per_rank_columns(kept, measure.with_(judged_only=False), judged, kept_ties)
    n, m = len(raw), len(kept)
    at = np.cumsum(keep) - 1  # each row's place among the kept rows (-1 before the first)

    def spread(values: np.ndarray, fill: float) -> np.ndarray:
        out = np.full(n, fill)
        out[keep] = values
        return out

    def carried(values: np.ndarray) -> np.ndarray:
        return np.where(at >= 0, values[np.maximum(at, 0)] if m else 0.0, 0.0)

    ndcg_before = finish(np.zeros(1), np.zeros(1), measure)[0]  # no kept row yet: DCG = IDCG = 0
    return {
        "rank": np.arange(1, n + 1),
        "grade": raw,
        "gain": spread(inner["gain"], 0.0),
        "discount": spread(inner["discount"], 0.0),
        "cg": carried(inner["cg"]),
        "dcg": carried(inner["dcg"]),
        "ideal_grade": spread(inner["ideal_grade"], np.nan),
        "idcg": carried(inner["idcg"]),
        "ndcg": np.where(at >= 0, carried(inner["ndcg"]), ndcg_before),
    }


def ndcg_at(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
) -> float:
    """NDCG@k of one ranked list, k the measure's.

    k longer than the list scores the whole list, while the ideal is still cut at k when the judged
    pool is longer (trec_eval's ndcg_cut). k=None is no cut-off at all: the whole list against the
    whole ideal ranking (trec_eval's ndcg). IDCG = 0 gives 0.
    """
    measure = measure or _DEFAULT
    dcg, idcg = dcg_idcg_at(grades, measure, judged)
    return float(finish(np.array([dcg]), np.array([idcg]), measure)[0])


def dcg_idcg_at(
    grades: Sequence[float] | np.ndarray | pd.Series,
    measure: Measure | None = None,
    judged: Sequence[float] | np.ndarray | None = None,
    tie_scores: Sequence[float] | np.ndarray | None = None,
    unjudged: np.ndarray | None = None,
) -> tuple[float, float]:
    """(DCG@k, IDCG@k) with the cut-off rules of `ndcg_at`; with `tie_scores`, the gains of
    neighbouring rows with equal scores averaged first (scikit-learn); `unjudged` as in
    `per_rank_columns` (a condensed list has none left)."""
    measure = measure or _DEFAULT
    k = measure.k
    grades, tie_scores = _condensed(grades, measure, tie_scores)
    unjudged = None if measure.judged_only else unjudged
    pool = _pool(grades, judged, measure)
    _, ideal_gain = ideal_gains(pool, measure, _pool_unjudged(judged, measure, unjudged))
    gain = judged_gains(grades, measure, unjudged)
    if tie_scores is not None:
        gain = averaged(gain, np.asarray(tie_scores, dtype=float))
    if k is not None:
        gain = gain[:k]
        depth = {"k": k, "list": min(k, len(grades)), "all": len(ideal_gain)}[measure.ideal_depth]
        ideal_gain = ideal_gain[:depth]
    disc = discounts(max(len(gain), len(ideal_gain)), measure)
    dcg = float(gain @ disc[: len(gain)])
    idcg = float(ideal_gain @ disc[: len(ideal_gain)])
    return dcg, idcg


def finish(dcg: np.ndarray, idcg: np.ndarray, measure: Measure) -> np.ndarray:
    """NDCG from DCG and IDCG as `measure` says: `safe_ratio`, then 1 where IDCG = 0 with
    idcg_zero="one", then rounded half away from zero with `rounding` (OpenSearch's
    Math.round-style rounding; NDCG ≥ 0 there, so half up and half away agree)."""
    ndcg = safe_ratio(dcg, idcg)
    if measure.idcg_zero == "one":
        ndcg[np.asarray(idcg) == 0] = 1.0
    if measure.rounding is not None:
        ndcg = round_half_away(ndcg, measure.rounding)
    return ndcg


def round_half_away(values: np.ndarray, decimals: int) -> np.ndarray:
    """Rounded to `decimals` places, halves away from zero (np.round rounds halves to even),
    after snapping to 12 places: an NDCG that is exactly a half (1.5 = -0.5 / -1/3) comes out of
    one path as 1.5 and of another, whose IDCG is a difference of discount sums, as
    1.4999999999999993, and rounded unsnapped the two paths said 2 and 1."""
    if decimals < SNAP_DECIMALS:
        values = _half_away(values, SNAP_DECIMALS)
    return _half_away(values, decimals)


def _half_away(values, decimals: int) -> np.ndarray:
    scale = 10.0 ** decimals
    with np.errstate(invalid="ignore", over="ignore"):
        return np.sign(values) * np.floor(np.abs(values) * scale + 0.5) / scale


def _condensed(grades, measure: Measure, tie_scores=None):
    """Grades as an array (and tie scores cut alike): with `judged_only`, the unjudged (NaN)
    documents removed first, so those below them move up (a condensed list)."""
    if not measure.judged_only:
        return as_grades(grades), tie_scores
    arr = np.asarray(grades, dtype=float)
    keep = condensed_keep(arr, measure)
    if tie_scores is not None:
        tie_scores = np.asarray(tie_scores, dtype=float)[keep]
    return as_grades(arr[keep]), tie_scores


def condensed_keep(grades: np.ndarray, measure: Measure) -> np.ndarray:
    """The documents a condensed list keeps: judged ones; with negative="zero" not the negative
    grades either (trec_eval reads a grade < 0 as 'in the pool, unjudged': form_res_rels.c)."""
    keep = ~np.isnan(grades)
    if measure.negative == "zero":
        keep &= ~(read_grades(grades, measure) < 0)
    return keep


def safe_ratio(dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
    """DCG / IDCG, and 0 where IDCG is 0 (what trec_eval and scikit-learn report). With negative
    grades kept an IDCG can be tiny beside its DCG: the ratio is then ±inf, as IEEE division gives."""
    out = np.zeros_like(dcg, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # (inf / inf: NaN)
        np.divide(dcg, idcg, out=out, where=idcg != 0)
    return out


def undefined_ranks(table: pd.DataFrame) -> pd.Series:
    """Ranks of a `per_rank` table where IDCG is 0 and so NDCG is undefined (shown as 0)."""
    return table["idcg"] == 0


def _fit(values: np.ndarray, n: int, fill: float) -> np.ndarray:
    """`values` cut or padded with `fill` to length n."""
    if len(values) >= n:
        return values[:n]
    return np.concatenate([values, np.full(n - len(values), fill)])
