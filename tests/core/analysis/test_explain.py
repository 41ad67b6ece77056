"""The arithmetic of a cell (core.explain): the numbers quoted are the table's, and the formula
is the definition's (the Järvelin–Kekäläinen rule comes from core.ndcg.metrics, not re-encoded)."""

from __future__ import annotations

import numpy as np
import pytest

from ndcg_gui.core.analysis.explain import explain_cell
from ndcg_gui.core.analysis.list_report import display_table
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import discount_formula, discounts

E1 = RankedList(docs=list("ABCDE"), grades=[3, 2, 3, 0, 1])


def test_worked_example_cells():
    table = display_table(E1, Measure())
    assert explain_cell(table, 2, "dcg", Measure()) == "DCG@3 = 4.2619 + 3 / log2(4) = 5.7619"
    assert explain_cell(table, 2, "ndcg", Measure()) == \
        "NDCG@3 = DCG@3 / IDCG@3 = 5.7619 / 5.8928 = 0.9778"
    assert explain_cell(table, 1, "cg", Measure()) == "CG@2 = 3 + 2 = 5"
    assert "beyond the cut-off k = 3" in explain_cell(table, 4, "dcg", Measure(k=3))
    exp = Measure(gain="exponential")
    assert explain_cell(display_table(E1, exp), 0, "gain", exp) == "gain = 2^3 − 1 = 7"


@pytest.mark.parametrize("base", [2.0, 3.0, np.e, 10.0])
def test_the_discount_formula_evaluates_to_the_discount(base):
    config = Measure(discount="jarvelin", base=base)
    for rank, value in enumerate(discounts(12, config), start=1):
        formula = discount_formula(rank, config)
        if formula == "1":
            assert value == 1
        else:
            shown_base = {"log2": 2, "ln": np.e}.get(formula.split("(")[0][4:])
            b = shown_base if shown_base is not None else float(formula.split("log_")[1].split("(")[0])
            assert 1 / (np.log(rank) / np.log(b)) == pytest.approx(value)


def test_jarvelin_cells_say_no_discount_below_the_base():
    config = Measure(discount="jarvelin", base=2)
    table = display_table(E1, config)
    assert explain_cell(table, 0, "dcg", config) == "DCG@1 = 3 × 1 = 3"
    assert "log2(3)" in explain_cell(table, 2, "dcg", config)


def test_unjudged_and_undefined():
    lst = RankedList(docs=["a", "b"], grades=[np.nan, 0])
    table = display_table(lst, Measure())
    assert "Unjudged" in explain_cell(table, 0, "grade", Measure())
    assert "undefined" in explain_cell(table, 1, "ndcg", Measure())
