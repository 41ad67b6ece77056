from __future__ import annotations

import numpy as np

from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.metrics import ndcg_at
from ndcg_gui.core.teaching.side_by_side import choices, side_by_side


def test_linear_and_exponential_differ_where_a_grade_is_above_1():
    lst = RankedList(docs=list("abcde"), grades=[1, 0, 1, 0, 2])
    config = Measure(ideal="retrieved", k=5)
    pick = choices(config)
    assert pick["sklearn"].k == 5  # every choice at the measure's cut-off
    both = side_by_side(lst, ("linear gain", pick["linear gain"]),
                        ("exponential gain", pick["exponential gain"]))
    # 2^g − 1 = g for g in {0, 1}: only rank 5 (grade 2) and the ideal's rank 1 (grade 2) count differently.
    assert both.differs.tolist() == [True, False, False, False, True]
    assert both.a.summary.ndcg == ndcg_at([1, 0, 1, 0, 2], config)
    assert both.b.summary.ndcg == ndcg_at([1, 0, 1, 0, 2], config.with_(gain="exponential"))
    assert "ranks 1, 5 count differently" in both.text()
    same = side_by_side(lst, ("a", config), ("b", config))
    assert not same.differs.any() and np.array_equal(same.a.table["ndcg"], same.b.table["ndcg"])
