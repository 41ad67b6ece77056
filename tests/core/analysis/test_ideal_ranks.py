"""Each row's rank in the ideal ranking (`ideal_rank_of_rows`, the ranked list's Ideal column) is
where `ideal_order` puts the row: worked out without the ideal's documents and grades, by a sort of
the gains as small whole numbers, it gives the same ranks for every definition, pool and list."""

from __future__ import annotations

import numpy as np
from definition_strategies import GRADE, configs
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.list_report import _descending, ideal_order, ideal_rank_of_rows
from ndcg_gui.core.lists.ranked_list import RankedList

NAN = float("nan")


def by_ideal_order(lst, measure) -> np.ndarray:
    _, _, list_rank = ideal_order(lst, measure)
    out = np.zeros(len(lst), np.int64)
    on_list = list_rank > 0
    out[list_rank[on_list] - 1] = np.flatnonzero(on_list) + 1
    return out


@settings(max_examples=300, deadline=None)
@given(grades=st.lists(GRADE | st.just(NAN), max_size=30), missed=st.lists(GRADE, max_size=4),
       pool=st.booleans(), measure=configs(), k=st.integers(1, 12))
def test_the_ideal_rank_of_each_row_is_where_the_ideal_order_puts_it(grades, missed, pool, measure, k):
    lst = RankedList(docs=[f"d{i}" for i in range(len(grades))], grades=grades, has_pool=pool,
                     unretrieved={f"m{i}": g for i, g in enumerate(missed)})
    assert np.array_equal(ideal_rank_of_rows(lst, measure.at(k)), by_ideal_order(lst, measure.at(k)))


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.sampled_from([0.0, -0.0, 1.0, 3.0, -2.0, 7.5, np.inf, -np.inf, 1e300]),
                       max_size=40))
def test_descending_is_a_stable_sort_high_first(values):
    values = np.array(values, dtype=float)
    assert np.array_equal(_descending(values), np.argsort(-values, kind="stable"))


def test_many_distinct_values_are_sorted_as_they_are():
    values = np.random.default_rng(2).random(40_000)
    values[::7] = 0.5
    assert np.array_equal(_descending(values), np.argsort(-values, kind="stable"))
