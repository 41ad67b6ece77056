"""A run's `doc_weight` column, checked where it is read: each document's weight, as TF-Ranking
takes per-example weights (`Measure.doc_weights` says how they apply). The column is carried as
text like any other column the readers do not use; a cell that is not a finite number of at least
0 is refused in one line naming the file and its line (or row), so a scorer never meets one. An
empty cell weighs 1 (a row added by hand has none). Not `weight`: that column is a query's.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_gui.core.arrays.ids import whole
from ndcg_gui.core.errors import shown
from ndcg_gui.core.formats.number_text import is_bool_text, to_floats
from ndcg_gui.core.formats.rows import Rows

COLUMN = "doc_weight"  # (`core.ndcg.measure.DOC_WEIGHT_COLUMN`: the scorers read it by this name)
EXPECTED = "expected a number of at least 0 (the document's weight)"


def check_doc_weights(rows: Rows, decimal_comma: bool = False) -> None:
    """Refuse the first bad cell of the rows' `doc_weight` column (any case), if they have one;
    `decimal_comma`: a comma is the decimal mark too, as the reader takes grades and scores in a
    file whose cells are not split by commas."""
    name = next((n for n in rows.extras if str(n).strip().lower() == COLUMN), None)
    if name is None:
        return
    cells = whole(rows.extras[name])
    if not pa.types.is_string(cells.type) and not pa.types.is_large_string(cells.type):
        cells = cells.cast(pa.string())
    value, empty, bad = to_floats(cells)
    if decimal_comma and bad.any():  # (the readers' rule for grade and score: `csv_text._numbers`)
        fixed, _, _ = to_floats(pc.replace_substring(cells, ",", "."))
        use = bad & np.isfinite(fixed)
        value, bad = np.where(use, fixed, value), bad & ~use
    with np.errstate(invalid="ignore"):
        bad = bad | (~empty & (value < 0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        cell = str(cells[i].as_py()).strip()
        problem = f"{COLUMN} {shown(cell)} {_problem(cell, value[i])}; {EXPECTED}"
        raise rows.error(problem, int(rows.record[i]))


def _problem(cell: str, value: float) -> str:
    if value < 0:
        return "is negative"
    if np.isinf(value):
        return "is not a finite number"
    if is_bool_text(cell):
        return "is a bool value, not a number"
    return "is not a number (NaN)" if cell.lower().lstrip("+-") == "nan" else "is not a number"
