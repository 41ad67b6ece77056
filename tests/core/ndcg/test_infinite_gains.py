"""A gain no double holds (2^g - 1 of a huge grade, or a document weight times a gain) in one
query leaves every other query's figures as they are when that query is scored alone: the
(query x level) table of the ideal, its "many levels" path, the ideal in the order given, the
one-list path and the SQL all agree (issue 35, attack finding 1)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.metrics import dcg_idcg_at
from ndcg_gui.core.ndcg.presets import PRESETS

TF = PRESETS["tf_ranking"].at(10)


def run_frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query", "doc", "grade", "score"])


def brute_ndcg(grades: list[float], k: int) -> float:
    """NDCG@k of one list by the definition: 2^g - 1 over log2(rank + 1), the ideal the list
    sorted (the TF-Ranking preset's)."""
    def dcg(gs):
        return sum((2.0**g - 1.0) / math.log2(r + 2) for r, g in enumerate(gs[:k]))
    return dcg(grades) / dcg(sorted(grades, reverse=True))


@pytest.mark.parametrize("huge", [1e308, 5000.0])
def test_an_infinite_gain_leaves_the_other_queries_figures_alone(huge):
    rows = [("1", "a", huge, 3.0), ("1", "b", 0.0, 2.0), ("2", "c", 1.0, 3.0), ("2", "d", 0.0, 2.0)]
    result = evaluate(run_frame(rows), None, TF)
    assert result.loc["2", "ndcg"] == pytest.approx(brute_ndcg([1.0, 0.0], 10)) == 1.0
    assert result.loc["2", "idcg"] == 1.0
    assert math.isinf(result.loc["1", "idcg"])


def test_the_many_levels_path_too():
    # Continuous grades in many queries: more (query, level) pairs than the table's bound.
    rng = np.random.default_rng(3)
    rows = [("0", "a", 5000.0, 2.0), ("0", "b", 0.0, 1.0)]
    lists = {}
    for q in range(1, 400):
        grades = rng.uniform(0, 3, 3).round(6).tolist()
        lists[str(q)] = grades
        rows += [(str(q), f"d{j}", g, float(3 - j)) for j, g in enumerate(grades)]
    result = evaluate(run_frame(rows), None, TF)
    alone = evaluate(run_frame([r for r in rows if r[0] != "0"]), None, TF)
    pd.testing.assert_frame_equal(result.drop(index="0"), alone)
    for q, grades in list(lists.items())[:20]:
        assert result.loc[q, "ndcg"] == pytest.approx(brute_ndcg(grades, 10))
    assert not result.drop(index="0")[["dcg", "idcg", "ndcg"]].isna().any().any()


def test_the_ideal_in_the_order_given_and_the_list_depth_ideal():
    rows = [("1", "a", 5000.0, 3.0), ("1", "b", 0.0, 2.0), ("2", "c", 1.0, 3.0), ("2", "d", 0.0, 2.0)]
    for name in ("spark", "lightgbm", "torchmetrics"):
        measure = PRESETS[name]
        both = evaluate(run_frame(rows), None, measure)
        alone = evaluate(run_frame(rows[2:]), None, measure)
        pd.testing.assert_series_equal(both.loc["2"], alone.loc["2"], obj=name)


def test_a_document_weight_times_gain_overflow_in_one_list_only():
    weighted = TF.with_(doc_weights="tf_ranking")
    rows = [("1", "a", 3.0, 3.0, 1e308), ("1", "b", 0.0, 2.0, 1.0),
            ("2", "c", 1.0, 3.0, 1.0), ("2", "d", 0.0, 2.0, 1.0)]
    frame = pd.DataFrame(rows, columns=["query", "doc", "grade", "score", "doc_weight"])
    result = evaluate(frame, None, weighted)
    assert result.loc["2", "ndcg"] == 1.0 and result.loc["2", "idcg"] == 1.0


def test_the_one_list_path_and_the_sql_agree():
    duckdb = pytest.importorskip("duckdb")
    from ndcg_gui.core.sql.ndcg_sql import ndcg_sql

    run = pd.DataFrame({"query": ["1", "1", "2", "2"], "doc": ["a", "b", "c", "d"],
                        "score": [3.0, 2.0, 3.0, 2.0], "row_order": [0, 1, 2, 3]})
    qrels = pd.DataFrame({"query": ["1", "1", "2", "2"], "doc": ["a", "b", "c", "d"],
                          "grade": [5000.0, 0.0, 1.0, 0.0], "row_order": [0, 1, 2, 3]})
    memory = evaluate(run, qrels, TF)
    con = duckdb.connect()
    con.register("run", run)
    con.register("qrels", qrels)
    sql = con.execute(ndcg_sql(TF, row_order=True)).df().set_index("query")
    for q, grades in (("1", [5000.0, 0.0]), ("2", [1.0, 0.0])):
        dcg, idcg = dcg_idcg_at(np.array(grades), TF)
        assert memory.loc[q, "dcg"] == sql.loc[q, "dcg"] == dcg
        assert memory.loc[q, "idcg"] == sql.loc[q, "idcg"] == idcg
    assert memory.loc["2", "ndcg"] == sql.loc["2", "ndcg"] == 1.0


def test_list_weights_whose_sums_overflow_are_the_mean_of_the_weights():
    # Σ w·g / Σ g over a list with two weights of 1e308: a weighted mean of the weights, 1e308,
    # though Σ w·g overflows; the batch mean is TF-Ranking's, brute-forced at a scale that fits.
    from ndcg_gui.core.ndcg.evaluate import list_weights, mean_ndcg

    weighted = TF.with_(doc_weights="tf_ranking")
    rows = [("1", "a", 1.0, 3.0, 1e308), ("1", "b", 2.0, 2.0, 1e308),
            ("2", "c", 1.0, 3.0, 5e307), ("2", "d", 0.0, 2.0, 1.0)]
    frame = pd.DataFrame(rows, columns=["query", "doc", "grade", "score", "doc_weight"])
    result = evaluate(frame, None, weighted)
    small = frame.assign(doc_weight=frame["doc_weight"] / 1e300)
    scaled = evaluate(small, None, weighted)
    assert list_weights(result) == pytest.approx(list_weights(scaled) * 1e300)
    assert list_weights(result)[0] == pytest.approx(1e308)
    assert mean_ndcg(result, weighted) == pytest.approx(mean_ndcg(scaled, weighted))
    lw, nd = list_weights(scaled), scaled["ndcg"].to_numpy()
    assert mean_ndcg(result, weighted) == pytest.approx(float((lw * nd).sum() / lw.sum()))
