"""The walk rank by rank: each step's sentences are the per-rank table's arithmetic."""

from __future__ import annotations

import math

import pytest

from ndcg_gui.core.analysis.list_report import display_table
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.teaching.steps import rank_steps, sum_text

E1 = RankedList(docs=list("abcde"), grades=[3, 2, 3, 0, 1])


def test_each_rank_tells_gain_discount_term_running_dcg_ideal_idcg_and_ndcg():
    config = Measure(ideal="retrieved")
    steps = rank_steps(display_table(E1, config), config.with_(k=3))
    assert [s.rank for s in steps] == [1, 2, 3, 4, 5]
    said = dict(steps[2].lines)
    assert said["gain"] == "gain = grade = 3"
    assert said["discount"] == "discount at rank 3 = 1 / log2(4) = 0.5000"
    assert said["contribution"] == "gain × discount = 3 × 0.5000 = 1.5000"
    assert said["dcg"] == "DCG@3 = 4.2619 + 3 / log2(4) = 5.7619"
    assert said["ideal_grade"] == "ideal grade at rank 3 = 2 (gain 2)"
    assert said["idcg"] == "IDCG@3 = 4.8928 + 2 / log2(4) = 5.8928"
    assert said["ndcg"] == "NDCG@3 = DCG@3 / IDCG@3 = 5.7619 / 5.8928 = 0.9778"
    assert not steps[2].beyond_k and steps[3].beyond_k
    running = 0.0
    for s in steps:  # the running DCG is the sum of the terms so far (brute force)
        running += s.values["gain"] / math.log2(s.rank + 1)
        assert s.values["dcg"] == pytest.approx(running)


def test_sums_written_out_add_up():
    config = Measure(ideal="retrieved")
    table = display_table(E1, config)
    assert sum_text(table, config, 5) == ("DCG@5 = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + "
                                          "1 / log2(6) = 3 + 1.2619 + 1.5000 + 0 + 0.3869 = 6.1487")
    assert sum_text(table, config, 2, ideal=True) == \
        "IDCG@2 = 3 / log2(2) + 3 / log2(3) = 3 + 1.8928 = 4.8928"
    jk = Measure(discount="jarvelin", base=2, ideal="retrieved")
    assert sum_text(display_table(E1, jk), jk, 3).startswith("DCG@3 = 3 + 2 / log2(2) + 3 / log2(3)")
