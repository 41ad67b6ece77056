"""Query weights (traffic, say): read and checked, and the weighted mean they give.

A weight scales how much a query counts in a mean and in a comparison's statistics; the per-query
figures do not change. A weight is a finite number of at least 0 (0: the query counts for
nothing), and every judged query needs one: a query left without a weight would otherwise count
as 0 or 1 unsaid. Any positive multiple of the weights gives the same means, so they are divided
by the largest first: weights of 1e308 do not overflow a sum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

from ndcg_gui.core.errors import InputError, shown
from ndcg_gui.core.formats.number_text import is_number_text
from ndcg_gui.core.formats.query_map import QueryMap, ValueProblem

EXPECTED = "expected a number of at least 0"


def parse_weight(text: str, decimal_comma: bool = False) -> float:
    """A weight's text as a number; `ValueProblem` saying what it is instead. `decimal_comma`: a
    comma is the decimal mark too (`0,5`), as the readers take grades in a file whose cells are
    not split by commas."""
    if decimal_comma and not is_number_text(text) and is_number_text(text.replace(",", ".", 1)):
        text = text.replace(",", ".", 1)
    if not is_number_text(text):
        raise ValueProblem(f"weight {shown(text)} is not a number; {EXPECTED}")
    value = float(text)
    if math.isnan(value):
        raise ValueProblem(f"weight {shown(text)} is not a number (NaN); {EXPECTED}")
    if math.isinf(value):
        raise ValueProblem(f"weight {shown(text)} is not a finite number; {EXPECTED}")
    if value < 0:
        raise ValueProblem(f"weight {shown(text)} is negative; {EXPECTED}")
    return value


def query_weights(weights: QueryMap[float], judged: Iterable[str]) -> dict[str, float]:
    """The weight of every judged query (`judged`: the per-query table's queries), checked: an
    `InputError` naming the first judged queries without a weight, or saying that every weight
    is 0 (no weighted mean then). Weights of queries that are not judged are left out."""
    judged = [str(q) for q in judged]
    lacking = [q for q in judged if q not in weights.values]
    if lacking:
        listed = ", ".join(shown(q) for q in lacking[:5]) + (", ..." if len(lacking) > 5 else "")
        many = (f"{len(lacking):,} judged queries have no weight" if len(lacking) > 1
                else "a judged query has no weight")
        raise weights.error(f"{many}: {listed}; give every judged query a weight (0 to leave it out)")
    chosen = {q: weights.values[q] for q in judged}
    if chosen and not any(chosen.values()):
        raise weights.error("every judged query's weight is 0: nothing to weight a mean by")
    return chosen


def weights_of(weights: Mapping[str, float], queries: Iterable[str]) -> np.ndarray:
    """The weights of `queries` in their order, divided by the largest (a positive multiple of
    the weights changes no weighted figure); a `KeyError` for a query without one."""
    w = np.array([weights[str(q)] for q in queries], dtype=float)
    if (w < 0).any() or not np.isfinite(w).all():
        raise InputError("weights must be finite numbers of at least 0")
    top = w.max() if len(w) else 0.0
    return w / top if top > 0 else w


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """sum(w * x) / sum(w); NaN with no value or a total weight of 0."""
    values, weights = np.asarray(values, dtype=float), np.asarray(weights, dtype=float)
    total = float(weights.sum())
    if not len(values) or total == 0:
        return float("nan")
    return float(np.dot(weights, values) / total)
