"""Query weights (traffic, say): read and checked, and the weighted mean they give.

A weight scales how much a query counts in a mean and in a comparison's statistics; the per-query
figures do not change. A weight is a finite number of at least 0 (0: the query counts for
nothing), and every judged query needs one: a query left without a weight would otherwise count
as 0 or 1 unsaid. Any positive multiple of the weights gives the same means, so weights near the
largest double are divided by a power of two first (`weights_of`): 1e308 does not overflow a sum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.formats.number_text import is_bool_text, is_number_text
from ndcg_gui.core.formats.query_map import QueryMap, ValueProblem, respelled

EXPECTED = "expected a number of at least 0"
_ROOM = math.ldexp(1.0, 1000)  # (a sum of up to n weights stays well inside a double below it)


def parse_weight(text: str, decimal_comma: bool = False) -> float:
    """A weight's text as a number; `ValueProblem` saying what it is instead. `decimal_comma`: a
    comma is the decimal mark too (`0,5`), as the readers take grades in a file whose cells are
    not split by commas."""
    if decimal_comma and not is_number_text(text) and is_number_text(text.replace(",", ".", 1)):
        text = text.replace(",", ".", 1)
    if is_bool_text(text):
        raise ValueProblem(f"weight {shown(text)} is a bool value, not a number; {EXPECTED}")
    if not is_number_text(text):
        raise ValueProblem(f"weight {shown(text)} is not a number; {EXPECTED}")
    value = float(text)
    if math.isnan(value):
        raise ValueProblem(f"weight {shown(text)} is not a number (NaN); {EXPECTED}")
    if math.isinf(value):
        raise ValueProblem(f"weight {shown(text)} is not a finite number; {EXPECTED}")
    if value < 0:
        raise ValueProblem(f"weight {shown(text)} is negative; {EXPECTED}")
    if value == 0 and any(c in "123456789" for c in text.lower().partition("e")[0]):
        raise ValueProblem(f"weight {shown(text)} is too small for a floating-point number (it would be "
                           f"0); {EXPECTED}, 0 itself to leave a query out")
    return value


def query_weights(weights: QueryMap[float], judged: Iterable[str], what: str = "judged") -> dict[str, float]:
    """The weight of every judged query (`judged`: the per-query table's queries), checked: an
    `InputError` naming the first judged queries without a weight, or saying that every weight
    is 0 (no weighted mean then). Weights of queries that are not judged are left out. `what`
    the queries are, in the all-zero message: "compared" for a comparison's (under --missing skip,
    the judged queries every run returned: a judged query left out may weigh more than 0). (A
    query without a weight is a judged one either way.)"""
    judged = [str(q) for q in judged]
    lacking = [q for q in judged if q not in weights.values]
    if lacking:
        listed = _few(lacking)
        many = (f"{len(lacking):,} judged queries have no weight" if len(lacking) > 1
                else "a judged query has no weight")
        hint = respelled(weights.values, lacking)  # (1.0 against a Parquet float id read as "1")
        raise weights.error(f"{many}: {listed}; give every judged query a weight (0 to leave it out)"
                            + (f"; {hint}" if hint else ""))
    chosen = {q: weights.values[q] for q in judged}
    if chosen and not any(chosen.values()):
        raise weights.error(f"every {what} query's weight is 0: nothing to weight a mean by")
    values = np.fromiter(chosen.values(), float, len(chosen))
    lost = np.flatnonzero((values > 0) & (values / _scale(values) == 0))
    if len(lost):  # (it would count as 0, unsaid, where a segment of such weights has no mean)
        query = list(chosen)[int(lost[0])]
        raise weights.error(f"the weight {values[lost[0]]:g} of query {shown(query)} is too small beside the "
                            f"largest, {values.max():g}, to count (it would be 0); {EXPECTED}, within "
                            "2^1000 of the largest", query)
    return chosen


def _few(queries: list[str]) -> str:
    return ", ".join(shown(q) for q in queries[:5]) + (", ..." if len(queries) > 5 else "")


def weights_of(weights: Mapping[str, float], queries: Iterable[str]) -> np.ndarray:
    """The weights of `queries` in their order; a `KeyError` for a query without one. A positive
    multiple of the weights changes no weighted figure: where n times the largest would come near
    overflowing (a bootstrap's resample may draw it n times), they are divided by a power of two
    at the largest, exactly; else kept as given, so a tiny weight beside a big one (1e-320 and
    1e308) is not made 0 unless it must (`query_weights` refuses that one)."""
    w = np.array([weights[str(q)] for q in queries], dtype=float)
    if (w < 0).any() or not np.isfinite(w).all():
        raise InputError("weights must be finite numbers of at least 0")
    return w / _scale(w)


def _scale(w: np.ndarray) -> float:
    """What `weights_of` divides by: a power of two at the largest weight where n times it comes
    near overflowing, else 1."""
    top = float(w.max()) if len(w) else 0.0
    return math.ldexp(1.0, math.frexp(top)[1] - 1) if top > 0 and top * len(w) > _ROOM else 1.0


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """sum(w * x) / sum(w); NaN with no value or a total weight of 0. The weights are first
    brought to a largest of about 1 by a power of two (exact): weights of 1e-300 times an NDCG
    of 1e-217 underflowed to a mean of 0. (np.ldexp scales in one step: for subnormal weights the
    power of two itself, 2^1062, is past the largest double.)"""
    values, weights = np.asarray(values, dtype=float), np.asarray(weights, dtype=float)
    if not len(values) or not weights.max() > 0:
        return float("nan")
    weights = np.ldexp(weights, -math.frexp(float(weights.max()))[1])
    return float(np.dot(weights, values) / weights.sum())
