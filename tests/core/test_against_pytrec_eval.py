"""`evaluate` with the trec_eval preset against pytrec_eval (trec_eval's own C code) on random runs.

Random queries with: documents judged but not retrieved (the judged ideal), retrieved but not judged,
negative grades, tied scores (trec_eval orders them by docno, descending byte order; doc ids include
non-ASCII characters so byte order is exercised), queries without judgments and judged queries
without results. Measures `ndcg` (no cut-off) and `ndcg_cut_k`.
"""

import math

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytrec_child import evaluate as pytrec_evaluate

from ndcg_gui.core import evaluate
from ndcg_gui.core.ndcg.presets import preset

TREC = preset("trec_eval")
DOC_IDS = st.text(alphabet="abcAB01-_.éß中", min_size=1, max_size=4)


@st.composite
def runs_and_qrels(draw):
    """(run DataFrame, qrels DataFrame, run dict, qrels dict) for pytrec_eval."""
    n_queries = draw(st.integers(1, 4))
    run_rows, qrels_rows = [], []
    for qi in range(n_queries):
        query = f"q{qi}"
        docs = draw(st.lists(DOC_IDS, min_size=0, max_size=25, unique=True))
        # Few distinct scores, so ties are common.
        scores = draw(
            st.lists(
                st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.25, -1.0]), min_size=len(docs), max_size=len(docs)
            )
        )
        run_rows += [(query, d, s) for d, s in zip(docs, scores, strict=True)]
        judged_in_run = draw(st.lists(st.sampled_from(docs), unique=True)) if docs else []
        unretrieved = draw(st.lists(DOC_IDS.map(lambda d: "u" + d), max_size=6, unique=True))
        if draw(st.booleans()) or not docs:
            for d in judged_in_run + unretrieved:
                qrels_rows.append((query, d, draw(st.integers(-1, 4))))
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "grade"])
    run_d: dict[str, dict[str, float]] = {}
    for q, d, s in run_rows:
        run_d.setdefault(q, {})[d] = float(s)
    qrels_d: dict[str, dict[str, int]] = {}
    for q, d, g in qrels_rows:
        qrels_d.setdefault(q, {})[d] = int(g)
    return run, qrels, run_d, qrels_d


def pytrec(run_d, qrels_d, measure: str) -> dict[str, float]:
    # pytrec_eval scores queries that are both judged and retrieved (trec_eval without -c).
    out = pytrec_evaluate(qrels_d, {measure}, run_d)
    name = measure.replace(".", "_")
    return {q: values[name] for q, values in out.items()}


@pytest.mark.slow  # (minutes of examples or actions: make test, not the quick loop)
@settings(max_examples=300, deadline=None)
@given(data=runs_and_qrels(), k=st.one_of(st.none(), st.integers(1, 30)))
def test_same_ndcg_as_pytrec_eval(data, k):
    run, qrels, run_d, qrels_d = data
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    theirs = pytrec(run_d, qrels_d, measure)
    ours = evaluate(run, qrels, TREC.with_(k=k, ties="trec", empty="skip"))
    # Queries with results and judgments; pytrec_eval also drops queries whose run is empty.
    assert set(ours.index) == set(theirs)
    for query, value in theirs.items():
        assert math.isclose(ours.loc[query, "ndcg"], value, rel_tol=1e-9, abs_tol=1e-12), query


@settings(max_examples=100, deadline=None)
@given(data=runs_and_qrels(), k=st.integers(1, 30))
def test_shuffled_rows_score_the_same(data, k):
    # Row order of the run must not matter when scores decide the ranking (trec ties).
    run, qrels, run_d, qrels_d = data
    theirs = pytrec(run_d, qrels_d, f"ndcg_cut.{k}")
    shuffled = run.sample(frac=1.0, random_state=0)
    ours = evaluate(shuffled, qrels.iloc[::-1], TREC.with_(k=k, empty="skip"))
    assert set(ours.index) == set(theirs)
    for query, value in theirs.items():
        assert math.isclose(ours.loc[query, "ndcg"], value, rel_tol=1e-9, abs_tol=1e-12)


def test_judged_query_without_results_scores_zero_with_missing_zero():
    run = pd.DataFrame({"query": ["a"], "doc": ["x"], "score": [1.0]})
    qrels = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "grade": [1, 2]})
    result = evaluate(run, qrels, TREC.with_(k=10, empty="zero"))
    assert result.loc["b", "ndcg"] == 0.0 and result.loc["b", "n_retrieved"] == 0
    assert "b" not in evaluate(run, qrels, TREC.with_(k=10, empty="skip")).index
    theirs = pytrec({"a": {"x": 1.0}}, {"a": {"x": 1}, "b": {"y": 2}}, "ndcg_cut.10")
    assert theirs == {"a": pytest.approx(result.loc["a", "ndcg"])}
