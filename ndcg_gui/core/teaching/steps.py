"""The per-rank computation told one rank at a time: what a step-by-step walk reveals at rank i
(the gain, the discount and its formula, the DCG term, the running DCG, the ideal's row and IDCG,
NDCG). Every figure is the per-rank table's (`list_report.display_table`), every sentence
`explain.explain_cell`'s, so the walk and the hover text never disagree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ndcg_gui.core.analysis.explain import explain_cell
from ndcg_gui.core.lists.numbers import format_grade, format_value
from ndcg_gui.core.ndcg.metrics import discount_formula

if TYPE_CHECKING:
    import pandas as pd

    from ndcg_gui.core.ndcg.measure import Measure

LINES = ("gain", "discount", "contribution", "dcg", "ideal_grade", "idcg", "ndcg")


@dataclass(frozen=True)
class RankStep:
    """Rank `rank`'s row: its figures (`values`, by the table's column names) and the sentence
    that works out each (`lines`, in the order a person computes them)."""

    rank: int
    doc: str
    grade: str
    values: dict[str, float]
    lines: tuple[tuple[str, str], ...]  # (column, its arithmetic)
    beyond_k: bool


def rank_steps(table: pd.DataFrame, measure: Measure) -> list[RankStep]:
    """One `RankStep` per rank of a per-rank table (`display_table`'s columns), `beyond_k` past
    the measure's cut-off."""
    steps, k = [], measure.k
    whole = measure.at(None)  # (each line as the table's hover says it; the cut-off is said once)
    for row in range(len(table)):
        values = {c: float(table[c].iat[row]) for c in ("gain", "discount", "contribution", "cg", "dcg",
                                                         "ideal_grade", "ideal_gain", "idcg", "ndcg")}
        lines = tuple((c, explain_cell(table, row, c, whole)) for c in LINES)
        judged = bool(table["judged"].iat[row])
        grade = format_grade(float(table["grade"].iat[row])) if judged else "unjudged"
        steps.append(RankStep(row + 1, str(table["doc"].iat[row]), grade, values, lines,
                              k is not None and row + 1 > k))
    return steps


def sum_text(table: pd.DataFrame, measure: Measure, depth: int, ideal: bool = False) -> str:
    """DCG@depth (or IDCG@depth) written out: each term with its discount, then their values,
    then the sum: `DCG@3 = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) = 3 + 1.2619 + 1.5 = 5.7619`."""
    depth = min(depth, len(table))
    gain = "ideal_gain" if ideal else "gain"
    terms, values = [], []
    for row in range(depth):
        g = format_value(float(table[gain].iat[row]))
        formula = discount_formula(row + 1, measure)
        terms.append(g if formula == "1" else f"{g} / {formula.removeprefix('1 / ')}")
        discount = float(table["discount"].iat[row])
        values.append(format_value(float(table[gain].iat[row]) * discount))
    name = "IDCG" if ideal else "DCG"
    total = format_value(float(table["idcg" if ideal else "dcg"].iat[depth - 1])) if depth else "0"
    if not terms:
        return f"{name}@0 = 0"
    return f"{name}@{depth} = {' + '.join(terms)} = {' + '.join(values)} = {total}"
