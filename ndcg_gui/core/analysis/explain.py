"""The arithmetic behind one cell of the per-rank table, in words and numbers, e.g.
`DCG@3 = 4.2619 + 3 / log2(4) = 5.7619`: what the window shows on hover, and what a script can print.

Works on the table of `list_report.display_table` (the `per_rank` columns plus doc, judged,
contribution and ideal_gain), so every number quoted is one the table holds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ndcg_gui.core.lists.numbers import format_grade, format_value
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import discount_formula

if TYPE_CHECKING:
    import pandas as pd

UNJUDGED_NOTE = "Unjudged: no grade for this document, so it counts as gain 0."


def gain_formula(grade: float, gain: float, measure: Measure) -> str:
    """How a grade became its gain under `measure`."""
    g, v = format_grade(grade), format_value(gain)
    if measure.negative == "zero" and grade < 0:
        return f"gain = 0 (negative grade {g} counts as 0)"
    if measure.gain_table is not None:
        if grade in measure.gain_table:
            return f"gain = table[{g}] = {v}"
        return f"gain = {v} (grade {g} is not in the table, so it is its own gain)"
    if measure.gain == "exponential":
        return f"gain = 2^{g} − 1 = {v}"
    return f"gain = grade = {v}"


def _term(gain: str, rank: int, measure: Measure) -> str:
    """`gain / log2(i+1)`, or `gain × 1` where the discount is 1."""
    formula = discount_formula(rank, measure)
    return f"{gain} × 1" if formula == "1" else f"{gain} / {formula[4:]}"


def explain_cell(table: pd.DataFrame, row: int, column: str, measure: Measure) -> str:
    """The arithmetic of `table[column]` at `row` (0-based), with a note when the rank is past
    the measure's k."""
    k = measure.k
    text = _explain(table, row, column, measure)
    if k is not None and row + 1 > k and column != "rank":
        text += f"\n(rank {row + 1} is beyond the cut-off k = {k})"
    return text


def _explain(table: pd.DataFrame, row: int, column: str, measure: Measure) -> str:
    i, k = row + 1, measure.k
    judged = bool(table["judged"].iat[row])

    def m(name: str, r: int = row) -> str:
        return format_value(float(table[name].iat[r]))

    def before(name: str) -> str:
        return f"{m(name, row - 1)} + " if row > 0 else ""

    if column == "rank":
        return f"rank {i}" + (" (within the cut-off)" if k is not None and i <= k else "")
    if column == "doc":
        return str(table["doc"].iat[row])
    if column == "grade":
        return f"grade of {table['doc'].iat[row]} = {format_grade(table['grade'].iat[row])}" if judged \
            else UNJUDGED_NOTE
    if column == "gain":
        tied = int(table["tied"].iat[row]) if "tied" in table else 1
        if tied > 1:
            return (f"gain = {m('gain')}: the mean gain of the {tied} documents tied at this score "
                    "(tied scores share their gains, as scikit-learn does)")
        if not judged:
            return "gain = 0: the document is unjudged"
        return gain_formula(float(table["grade"].iat[row]), float(table["gain"].iat[row]), measure)
    if column == "discount":
        formula = discount_formula(i, measure)
        if formula == "1":
            return f"discount at rank {i} = 1: ranks below b = {measure.base:g} are not discounted"
        return f"discount at rank {i} = {formula} = {m('discount')}"
    if column == "contribution":
        return f"gain × discount = {m('gain')} × {m('discount')} = {m('contribution')}"
    if column == "cg":
        return f"CG@{i} = {before('cg')}{m('gain')} = {m('cg')}" if row else f"CG@1 = gain = {m('cg')}"
    if column == "dcg":
        return f"DCG@{i} = {before('dcg')}{_term(m('gain'), i, measure)} = {m('dcg')}"
    if column == "ideal_grade":
        ideal = float(table["ideal_grade"].iat[row])
        if math.isnan(ideal):
            return f"The ideal ranking has no document at rank {i}: it adds 0."
        return f"ideal grade at rank {i} = {format_grade(ideal)} (gain {m('ideal_gain')})"
    if column == "idcg":
        return f"IDCG@{i} = {before('idcg')}{_term(m('ideal_gain'), i, measure)} = {m('idcg')}"
    if column == "ndcg":
        if float(table["idcg"].iat[row]) == 0:
            return f"IDCG@{i} = 0: NDCG@{i} is undefined, shown as 0"
        return f"NDCG@{i} = DCG@{i} / IDCG@{i} = {m('dcg')} / {m('idcg')} = {m('ndcg')}"
    return str(table[column].iat[row])
