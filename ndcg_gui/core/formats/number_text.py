"""Numbers written as text: what the readers accept, one rule for every format.

The rule is pyarrow's parser's (decimal notation with an optional exponent, surrounding spaces and
tabs ignored; "inf" and "nan" read but refused as not finite), written out as a pattern so that the
line a message names is found by the same rule that refused it.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.errors import shown

DECIMAL = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_DECIMAL = re.compile(DECIMAL)
_SPACES = " \t"
_NOT_FINITE = re.compile(r"[+-]?(?:inf(?:inity)?|nan)", re.IGNORECASE)


def number_problem(role: str, cell: str, infinite: bool) -> str:
    """What is wrong with a cell that should hold a number (`cell` as the file has it)."""
    if cell == "":
        return f"{role} is empty; expected a number"
    if infinite:
        return f"{role} {shown(cell)} is not a finite number"
    hint = " (leave the cell empty for an unjudged document)" if role == "grade" else ""
    return f"{role} {shown(cell)} is not a number{hint}"


def is_bool_text(text: str) -> bool:
    """Whether a cell is true or false (any case): a bool column read as text, as the readers
    carry a column they do not use (`columnar._cells`: Parquet's or a frame's True is "true"). A
    weight refuses it as a bool, in the words of a bool score's refusal ("bool values")."""
    return text.strip(_SPACES).lower() in ("true", "false")


def is_number_text(text: str) -> bool:
    """Whether a cell is meant as a number, "inf" and "nan" included (a reader then says what is
    wrong with it, rather than taking it for a word)."""
    text = text.strip(_SPACES)
    return _DECIMAL.fullmatch(text) is not None or _NOT_FINITE.fullmatch(text) is not None


_MISTYPED = re.compile(r"[+-]?\.?[0-9][^ \t]*")


def looks_numeric(text: str) -> bool:
    """Whether a cell is a number, or one word that starts as one, mistyped (`1.5e`, `1d3`, `1,5`):
    the line is then read as the numbers it was meant to hold, and the cell named, not taken for
    a header."""
    return is_number_text(text) or _MISTYPED.fullmatch(text.strip(_SPACES)) is not None


def is_finite_number(text: str) -> bool:
    """Whether a cell reads as a finite number."""
    text = text.strip(_SPACES)
    return _DECIMAL.fullmatch(text) is not None and math.isfinite(float(text))


def to_floats(cells: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Text cells as floats, vectorised: (values, empty, bad). An empty cell (only spaces) is NaN
    and marked `empty`; a cell that is not a finite number is NaN and marked `bad`."""
    text = pc.utf8_trim(cells, _SPACES) if len(cells) else cells
    empty = pc.equal(pc.binary_length(text), 0).to_numpy(zero_copy_only=False)
    ok = pc.match_substring_regex(text, f"^{DECIMAL}$").to_numpy(zero_copy_only=False)
    values = np.full(len(cells), np.nan)
    rows = np.flatnonzero(ok)
    if len(rows):
        values[rows] = pc.cast(text.take(pa.array(rows)), pa.float64()).to_numpy()
    infinite = pc.match_substring_regex(text, "^[+-]?inf(inity)?$", ignore_case=True)
    for row in np.flatnonzero(infinite.to_numpy(zero_copy_only=False)).tolist():  # (said "not finite")
        values[row] = -np.inf if text[row].as_py().startswith("-") else np.inf
    bad = ~empty & ~np.isfinite(values)
    return values, empty, bad
