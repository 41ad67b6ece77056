"""Judged@k (`core.analysis.judged`) against ir_measures' `Judged@k`, a brute-force count under our
tie rule, and trec_eval 10's `unj@k` as m_unjudged.c computes it, on runs with short lists, grades of
0 and below, queries without results and queries without judgments."""

from __future__ import annotations

import ir_measures
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core.analysis.judged import judged_at_k, judged_share
from ndcg_gui.core.lists.dataset import summary_table
from ndcg_gui.core.ndcg.evaluate import evaluate
from ndcg_gui.core.ndcg.measure import Measure


def random_run(seed: int, distinct: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run and its qrels: lists of 1 to 25 documents, a third of them judged (grades -1 to 3),
    some judged queries without results, some queries of the run without judgments. Scores are
    distinct at float32 when `distinct`, so every tool's tie order agrees."""
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for q in range(25):
        docs = [f"d{d}" for d in rng.choice(60, rng.integers(1, 26), replace=False)]
        if rng.random() > 0.1:
            judged = [d for d in (f"d{i}" for i in range(60)) if rng.random() < 0.33] or ["d0"]
            qrels += [(f"q{q}", d, float(rng.integers(-1, 4))) for d in judged]
        if rng.random() > 0.1:
            scores = rng.permutation(len(docs)) if distinct else rng.integers(0, 3, len(docs))
            run += [(f"q{q}", d, float(s)) for d, s in zip(docs, scores, strict=True)]
    qrels.append(("judged-without-results", "d1", 1.0))
    run.append(("unjudged", "d1", 1.0))
    return (pd.DataFrame(run, columns=["query", "doc", "score"]),
            pd.DataFrame(qrels, columns=["query", "doc", "grade"]))


def ir_measures_judged(run: pd.DataFrame, qrels: pd.DataFrame, k: int | None) -> dict[str, float]:
    measure = ir_measures.Judged if k is None else ir_measures.Judged @ k
    qrels = [ir_measures.Qrel(q, d, int(g)) for q, d, g in qrels.itertuples(index=False)]
    run = [ir_measures.ScoredDoc(q, d, s) for q, d, s in run.itertuples(index=False)]
    return {m.query_id: m.value for m in ir_measures.judged.iter_calc([measure], qrels, run)}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 3, 10, 30, None]))
def test_equal_to_ir_measures(seed, k):
    run, qrels = random_run(seed)
    result = evaluate(run, qrels, Measure(k=k))
    got = judged_at_k(result, k)
    want = ir_measures_judged(run, qrels, k)
    assert set(got.index) == set(want)  # every judged query (0 without results), none without judgments
    assert got["judged-without-results"] == 0
    for query, value in want.items():
        assert got[query] == pytest.approx(value, rel=1e-15), query


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 4, 10]))
def test_ties_at_the_cut_follow_the_definitions_tie_rule(seed, k):
    """Scores of 0, 1 and 2 only: which documents are the first k is trec_eval's rule (score
    descending, then doc id descending), as NDCG@k counts them."""
    run, qrels = random_run(seed, distinct=False)
    got = judged_at_k(evaluate(run, qrels, Measure(k=k)), k)
    judged = set(zip(qrels["query"], qrels["doc"], strict=True))
    for query, rows in run.groupby("query"):
        if query not in set(qrels["query"]):
            continue
        rows = list(rows.itertuples(index=False))
        ranked = sorted(rows, key=lambda r: (r.score, r.doc.encode()), reverse=True)[:k]
        assert got[query] == sum((query, r.doc) in judged for r in ranked) / len(ranked)


def test_trec_eval_unj_counts_over_k():
    """trec_eval 10's unj@k (m_unjudged.c:62-80): the unjudged among the first k over k, the ranks
    past a short list's end not unjudged; so 1 - unj@k = (Judged@k * m + k - m) / k, m = min(k, n)."""
    run, qrels = random_run(5)
    judged = set(zip(qrels["query"], qrels["doc"], strict=True))
    k = 10
    result = evaluate(run, qrels, Measure(k=k))
    share = judged_at_k(result, k)
    for query, rows in run.groupby("query"):
        if query not in result.index:
            continue
        ranked = rows.sort_values("score", ascending=False)["doc"].tolist()
        unj = 0  # the C loop, transcribed
        for i, doc in enumerate(ranked):
            if i == k:
                break
            unj += (query, doc) not in judged
        unj_at_k = unj / k
        n = len(ranked)
        m = min(k, n)
        assert 1 - unj_at_k == pytest.approx((share[query] * m + k - m) / k, rel=1e-12)


def test_a_summary_table():
    run, qrels = random_run(8)
    result = evaluate(run, qrels, Measure(k=5))
    table = summary_table(result, list(result.index))
    np.testing.assert_array_equal(judged_at_k(table, 5).to_numpy(), judged_at_k(result, 5).to_numpy())
    assert list(judged_at_k(table, 5).index) == list(result.index)


def test_judged_share_edges():
    np.testing.assert_array_equal(judged_share(np.array([0, 2, 3, 0]), np.array([0, 2, 10, 5]), 4),
                                  [0.0, 1.0, 0.75, 0.0])
    np.testing.assert_array_equal(judged_share(np.array([3]), np.array([12]), None), [0.25])
