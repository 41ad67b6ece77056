"""Tied scores (core.ndcg.ties and RankedList.ties_ordered): which neighbours tie, the order each rule
gives them, and scikit-learn's averaged gains, checked against scikit-learn itself."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score

from ndcg_gui.core.analysis.list_report import display_columns, list_summary
from ndcg_gui.core.lists.ranked_list import RankedList
from ndcg_gui.core.ndcg.measure import Measure
from ndcg_gui.core.ndcg.presets import preset
from ndcg_gui.core.ndcg.ties import averaged, run_scores, tie_runs

SKLEARN = preset("sklearn")


def test_runs_are_neighbours_with_equal_scores():
    assert tie_runs(np.array([3.0, 3.0, 2.0, 3.0, np.nan, np.nan])).tolist() == [0, 0, 1, 2, 3, 4]
    # trec_eval keeps scores as float32: these two tie under its rule only
    assert tie_runs(np.array([1.0000000001, 1.0]), float32=True).tolist() == [0, 0]
    assert tie_runs(np.array([1.0000000001, 1.0])).tolist() == [0, 1]
    assert averaged(np.array([1.0, 3.0, 2.0]), np.array([5.0, 5.0, 1.0])).tolist() == [2.0, 2.0, 2.0]
    scores = np.array([9.0, 7.0, 7.0, 8.0])
    assert run_scores(scores).tolist() == [0.0, -1.0, -1.0, -2.0]  # order kept, ties kept


def test_each_rule_orders_tied_documents_its_own_way():
    lst = RankedList(docs=["b", "c", "a", "d"], grades=[0, 1, 2, 3], scores=[5, 5, 5, 1],
                     origin=[2, 0, 1, 3])
    assert lst.ties_ordered(Measure(ties="trec")).docs.tolist() == ["c", "b", "a", "d"]  # doc id, descending
    # as the file had them
    assert lst.ties_ordered(Measure(ties="file")).docs.tolist() == ["c", "a", "b", "d"]
    # averaged: in file order, as the SQL and `evaluate` rank them (n_judged within k follows it)
    assert lst.ties_ordered(Measure(ties="average")).docs.tolist() == ["c", "a", "b", "d"]
    untied = RankedList(docs=["b", "a"], grades=[0, 1], scores=[2, 1])
    assert untied.ties_ordered(Measure(ties="trec")) is untied


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_averaged_ties_equal_sklearn_at_every_cut(data):
    n = data.draw(st.integers(2, 12))
    grades = data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0]), min_size=n, max_size=n))
    scores = data.draw(st.lists(st.sampled_from([1.0, 2.0, 3.0]), min_size=n, max_size=n))
    if not any(grades):
        return
    order = np.argsort(-np.asarray(scores), kind="stable")  # the list as loaded: by score
    lst = RankedList(docs=[f"d{i}" for i in order], grades=np.asarray(grades)[order],
                     scores=np.asarray(scores)[order])
    columns = display_columns(lst, SKLEARN.with_(ties="average"))
    for k in range(1, n + 1):
        theirs = ndcg_score([grades], [scores], k=k)
        assert list_summary(lst, SKLEARN.with_(k=k, ties="average")).ndcg == pytest.approx(theirs)
        assert columns["ndcg"][k - 1] == pytest.approx(theirs)
