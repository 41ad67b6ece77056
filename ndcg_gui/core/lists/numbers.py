"""Numbers as people type and read them: the one grade parser and one
display rule per kind of figure (grades as given, metrics to 4 decimals, a score column with one
number of decimals for all its rows)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

UNJUDGED_WORDS = ("", "-", "–", "nan", "unjudged")
METRIC_DECIMALS = 4  # the precision of the field's worked examples
MAX_SCORE_DECIMALS = 6


def number_text(x: float) -> str:
    """A number as a file holds it, reading back exactly: whole numbers without '.0', others as
    Python writes them (shortest exact form), NaN as empty."""
    x = float(x)
    if math.isnan(x):
        return ""
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def number_texts(values: np.ndarray) -> pa.Array:
    """`number_text` of every value, as an Arrow text array, without a Python call per value
    (a table of 300,000 queries has 900,000 figures). Python writes a float positionally for
    1e-4 <= |x| < 1e16 and Arrow for 1e-6 <= |x| < 1e10, both with the shortest digits that read
    back exactly: where both write positionally the texts are the same, so Arrow writes those,
    whole numbers are written as integers, and Python writes the few others."""
    import pyarrow as pa  # lazy: start-up (the window imports this module before pyarrow)
    import pyarrow.compute as pc

    x = np.asarray(values, dtype=np.float64)
    size = np.abs(x)
    whole = np.zeros(len(x), bool)
    small = size < 1e15
    whole[small] = x[small] == np.trunc(x[small])
    texts = pa.array(x).cast(pa.string())
    if whole.any():
        ints = pa.array(np.where(whole, x, 0.0).astype(np.int64)).cast(pa.string())
        texts = pc.if_else(pa.array(whole), ints, texts)
    # NaN, infinities, the tiny and the huge ones (rare in a table of figures)
    other = ~whole & ~((size >= 1e-4) & (size < 1e10))
    if other.any():
        written = [number_text(v) for v in x[other].tolist()]
        texts = pc.replace_with_mask(texts, pa.array(other), pa.array(written, pa.string()))
    return texts


def parse_grade(text: str) -> float:
    """A grade typed or pasted by a person: a finite number (a decimal comma such as `0,5` is read
    as 0.5), or empty / '-' / 'unjudged' for no judgment (NaN). ValueError says what is wrong."""
    t = str(text).strip()
    if t.lower() in UNJUDGED_WORDS:
        return math.nan
    if t.count(",") == 1 and "." not in t:
        t = t.replace(",", ".")
    try:
        value = float(t)
    except ValueError:
        raise ValueError(f"grade {text!r} is not a number (leave it empty for unjudged)") from None
    if not math.isfinite(value):
        raise ValueError(f"grade {text!r} must be a finite number")
    return value


def format_grade(x: float) -> str:
    """A grade as given: 2 stays 2, 0.5 stays 0.5 (no trailing zeros, no exponent); NaN empty."""
    x = float(x)
    if math.isnan(x):
        return ""
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return np.format_float_positional(x, trim="-")


def format_value(x: float) -> str:
    """A figure in running text (a tooltip's arithmetic): whole numbers as such, others to 4
    decimals, so `CG@2 = 3 + 2 = 5` and `DCG@3 = 4.2619 + 3 / log2(4) = 5.7619` read naturally."""
    x = float(x)
    if math.isnan(x):
        return ""
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{METRIC_DECIMALS}f}"


def format_metric(x: float) -> str:
    """CG, DCG, IDCG, NDCG, gains and discounts: always 4 decimals, so a column lines up."""
    x = float(x)
    return "–" if math.isnan(x) else f"{x:.{METRIC_DECIMALS}f}"


def decimals_for(values: Iterable[float], cap: int = MAX_SCORE_DECIMALS) -> int:
    """The fewest decimals (up to `cap`) that show every finite value of a column exactly, so one
    column of scores reads 1.0000 beside 0.9998, not 1 beside 0.9998."""
    arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
    arr = arr[np.isfinite(arr)]
    for d in range(cap + 1):
        if np.allclose(np.round(arr, d), arr, rtol=0, atol=10.0 ** -(cap + 2)):
            return d
    return cap


def format_fixed(x: float, decimals: int) -> str:
    x = float(x)
    return "" if math.isnan(x) else f"{x:.{decimals}f}"
