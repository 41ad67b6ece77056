"""The metrics table shows what the core computed (per_rank), explains it, and sets apart ranks
beyond k."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import per_rank
from ndcg_gui.qt.models.colours import LIGHT
from ndcg_gui.qt.models.metrics_model import COLUMNS, MetricsTableModel

COL = {name: i for i, (_, name, _) in enumerate(COLUMNS)}


@pytest.fixture
def model(document) -> MetricsTableModel:
    return MetricsTableModel(document)


def test_passes_qtmodeltester(qtmodeltester, model, document):
    qtmodeltester.check(model, force_py=True)
    document.remove_rows([0])
    qtmodeltester.check(model, force_py=True)


@pytest.mark.parametrize("config", [Measure(), Measure(gain="exponential"),
                                    Measure(discount="jarvelin", base=3)])
def test_cells_equal_per_rank(document, model, config):
    document.set_measure(config)
    document.move_rows(4, 1, 0)
    expected = per_rank(document.current_list().grades, config)
    for name in ("gain", "discount", "cg", "dcg", "idcg", "ndcg"):
        shown = [float(model.index(r, COL[name]).data()) for r in range(model.rowCount())]
        np.testing.assert_allclose(shown, expected[name], atol=5e-5)
        np.testing.assert_allclose([model.value(r, name) for r in range(5)], expected[name])


def test_tooltips_show_the_arithmetic(model):
    tip = model.index(2, COL["dcg"]).data(Qt.ToolTipRole)
    assert tip.startswith("DCG@3 = 4.2619 + 3 / log2(4) = 5.7619")
    assert model.index(2, COL["ndcg"]).data(Qt.ToolTipRole).startswith(
        "NDCG@3 = DCG@3 / IDCG@3 = 5.7619 / 5.8928 = 0.9778")
    assert model.index(1, COL["cg"]).data(Qt.ToolTipRole).startswith("CG@2 = 3 + 2 = 5")


def test_jarvelin_tooltip_says_no_discount_below_the_base(document, model):
    document.set_measure(Measure(discount="jarvelin", base=2))
    assert model.index(0, COL["dcg"]).data(Qt.ToolTipRole).startswith("DCG@1 = 3 × 1 = 3")
    assert "log2(3)" in model.index(2, COL["dcg"]).data(Qt.ToolTipRole)


def test_ranks_beyond_k_are_set_apart(document, model):
    document.set_measure(k=3)
    assert model.index(2, 0).data(Qt.BackgroundRole) is None
    assert model.index(3, 0).data(Qt.BackgroundRole).color().name() == LIGHT.beyond_k
    assert "beyond the cut-off k = 3" in model.index(4, COL["dcg"]).data(Qt.ToolTipRole)
    assert model.index(2, COL["ndcg"]).data(Qt.FontRole).bold()


def test_undefined_ndcg_is_explained(document, model):
    document.set_lists({"q": RankedList.from_grades([0, 0])})
    assert "undefined" in model.index(0, COL["ndcg"]).data(Qt.ToolTipRole)
