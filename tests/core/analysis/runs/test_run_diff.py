"""core.run_diff: the side-by-side ranks against a brute-force lookup, the per-document DCG effects
summing to the change of DCG@k that scikit-learn's dcg_score sees, the moves in words, the delta
histogram's bins against numpy's, and the summary line against the comparison's own figures."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score

from ndcg_gui.core import Measure, compare_runs
from ndcg_gui.core.analysis.runs.run_diff import biggest_moves, delta_histogram, delta_line, side_by_side

DOCS = [f"d{i}" for i in range(30)]


@st.composite
def two_lists(draw):
    a = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=15))
    b = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=15))
    judged = draw(st.lists(st.sampled_from(DOCS), unique=True, max_size=20))
    grades = draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=len(judged), max_size=len(judged)))
    k = draw(st.sampled_from([None, 1, 3, 5, 10]))
    return a, b, dict(zip(judged, map(float, grades), strict=True)), k


def sklearn_dcg(docs: list[str], judgments: dict[str, float], k, exponential: bool) -> float:
    """DCG@k of a ranked list by scikit-learn (strictly decreasing scores: no ties)."""
    if not docs:
        return 0.0
    grades = np.array([judgments.get(d, 0.0) for d in docs])
    gains = 2.0 ** grades - 1 if exponential else grades
    # dcg_score needs two documents at least; a zero-gain filler at the bottom changes nothing.
    gains, scores = np.append(gains, 0.0), np.arange(len(docs) + 1, 0, -1)
    return float(dcg_score([gains], [scores], k=k))


@settings(max_examples=150, deadline=None)
@given(two_lists(), st.booleans())
def test_ranks_and_effects_against_brute_force_and_sklearn(case, exponential):
    a, b, judgments, k = case
    config = Measure(gain="exponential" if exponential else "linear")
    diff = side_by_side(a, b, judgments, config.with_(k=k))
    assert list(diff.index) == a + [d for d in b if d not in a]
    for doc, row in diff.iterrows():
        for rank, docs in ((row["rank_a"], a), (row["rank_b"], b)):
            assert rank == docs.index(doc) + 1 if doc in docs else math.isnan(rank)
        assert row["grade"] == judgments[doc] if doc in judgments else math.isnan(row["grade"])
        if not math.isnan(row["rank_a"]) and not math.isnan(row["rank_b"]):
            assert row["move"] == row["rank_a"] - row["rank_b"]
    change = sklearn_dcg(b, judgments, k, exponential) - sklearn_dcg(a, judgments, k, exponential)
    assert diff["effect"].sum() == pytest.approx(change, abs=1e-9)


def test_moves_in_words_largest_effect_first():
    a = [f"x{i}" for i in range(1, 40)]
    b = ["x37", "x2", "x1", *[d for d in a if d not in ("x37", "x2", "x1", "x5")], "new"]
    judgments = {"x37": 2.0, "x1": 1.0, "x5": 3.0, "new": 0.0}
    diff = side_by_side(a, b, judgments, Measure(k=10))
    moves = biggest_moves(diff, 4, ("bm25", "rerank"))
    # x37 (grade 2) into rank 1 is the biggest change of DCG@10; x5 (grade 3) left the top 10;
    # x1 (grade 1) went from 1 to 3; then the longest move of a document without gain.
    assert moves[0] == "x37 (grade 2) rose from 37 to 1"
    assert moves[1] == "x5 (grade 3) is not in rerank (was 5)"
    assert moves[2] == "x1 (grade 1) fell from 1 to 3"
    assert moves[3] == "new (grade 0) is only in rerank, at 39"
    assert biggest_moves(side_by_side(a, a, judgments), 5) == []


def test_unjudged_documents_are_said_so():
    diff = side_by_side(["a", "b"], ["b", "a"], {"a": 1.0})
    assert "b (unjudged) rose from 2 to 1" in biggest_moves(diff, 5)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1, 1, allow_nan=False), max_size=40))
def test_delta_histogram_counts_as_numpy_with_a_bin_centred_on_zero(values):
    edges, counts = delta_histogram(np.array(values))
    assert np.allclose(np.diff(edges), 0.1)
    middle = np.flatnonzero((edges[:-1] < 0) & (edges[1:] > 0))
    assert len(middle) == 1 and edges[middle[0]] == pytest.approx(-0.05)
    if values:
        assert edges[0] <= min(values) and max(values) <= edges[-1]
    expected, _ = np.histogram(values, bins=edges)
    assert counts.tolist() == expected.tolist()


def test_delta_line_states_the_comparisons_own_figures():
    rng = np.random.default_rng(3)
    rows = [(f"q{q}", f"d{d}", float(rng.integers(0, 3))) for q in range(12) for d in range(10)]
    qrels = pd.DataFrame(rows, columns=["query", "doc", "grade"])

    def run(seed):
        r = np.random.default_rng(seed)
        return pd.DataFrame([(f"q{q}", f"d{d}", float(r.random())) for q in range(12) for d in range(10)],
                            columns=["query", "doc", "score"])

    cmp = compare_runs({"a": run(1), "b": run(2), "c": run(3)}, qrels, Measure(k=5), samples=500, seed=4)
    for name in ("b", "c"):
        row = cmp.summary.loc[name]
        line = delta_line(cmp, name)
        verdict = "no detectable difference" if row["p_holm"] >= 0.05 else "better" if row["delta"] > 0 \
            else "worse"
        assert line.startswith(f"{name} − a: {verdict} · Δ mean NDCG@5 {row['delta']:+.4f} (12 queries)")
        d = (cmp.per_query[name] - cmp.per_query["a"]).to_numpy()
        assert f"W/T/L {(d > 1e-9).sum()}/{(abs(d) <= 1e-9).sum()}/{(d < -1e-9).sum()}" in line
        assert f"p = {row['rand_p']:.3g} (paired randomization test, 500 sign flips, seed 4, " \
               f"Holm {row['p_holm']:.3g})" in line
        assert f"95 % bootstrap CI [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]" in line


def test_delta_line_says_when_every_pattern_was_counted():
    qrels = pd.DataFrame({"query": ["q1", "q2", "q3"], "doc": ["x", "x", "x"], "grade": [1.0, 1.0, 1.0]})
    a = pd.DataFrame({"query": ["q1", "q2", "q3"], "doc": ["x", "y", "x"], "score": [1.0, 1.0, 1.0]})
    b = pd.DataFrame({"query": ["q1", "q2", "q3"], "doc": ["x", "x", "y"], "score": [1.0, 1.0, 1.0]})
    cmp = compare_runs({"a": a, "b": b}, qrels, Measure(k=10))
    assert "all 4 sign patterns" in delta_line(cmp, "b")
