"""Our NDCG against scikit-learn's `ndcg_score` / `dcg_score` (the list's own grades as ideal).

sklearn ranks by score and, by default, gives each group of tied scores the average gain of the
group (our ties="average"); with ignore_ties=True it takes the order of `np.argsort(score)[::-1]`.
"""

import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_gui.core import evaluate, ndcg_at
from ndcg_gui.core.ndcg.presets import preset

SKLEARN = preset("sklearn")
GRADES = st.one_of(st.integers(0, 4).map(float), st.floats(0, 10, allow_nan=False).map(lambda x: round(x, 3)))
SCORES = st.sampled_from([0.0, 0.25, 1.0, 2.0, 3.5, -1.0])  # few values: ties are common


@st.composite
def samples(draw, grades=GRADES, scores=SCORES, distinct=False):
    """(y_true, y_score): a few queries with the same number of documents each (sklearn's shape)."""
    n_queries, n_docs = draw(st.integers(1, 4)), draw(st.integers(2, 12))
    y_true = draw(
        st.lists(st.lists(grades, min_size=n_docs, max_size=n_docs), min_size=n_queries, max_size=n_queries)
    )
    y_score = draw(
        st.lists(
            st.lists(scores, min_size=n_docs, max_size=n_docs, unique=distinct),
            min_size=n_queries,
            max_size=n_queries,
        )
    )
    return np.array(y_true, float), np.array(y_score, float)


def as_run(y_true: np.ndarray, y_score: np.ndarray, shuffle_seed: int | None = None) -> pd.DataFrame:
    n_queries, n_docs = y_true.shape
    run = pd.DataFrame(
        {
            "query": np.repeat([f"q{i}" for i in range(n_queries)], n_docs),
            "doc": [f"d{j}" for _ in range(n_queries) for j in range(n_docs)],
            "grade": y_true.ravel(),
            "score": y_score.ravel(),
        }
    )
    return run if shuffle_seed is None else run.sample(frac=1.0, random_state=shuffle_seed)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@settings(max_examples=300, deadline=None)
@given(data=samples(), k=st.one_of(st.none(), st.integers(1, 14)), seed=st.integers(0, 3))
def test_ndcg_score_with_tied_scores_averaged(data, k, seed):
    y_true, y_score = data
    result = evaluate(as_run(y_true, y_score, seed), measure=SKLEARN.with_(k=k, ties="average"))
    for i in range(len(y_true)):
        theirs = ndcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k)
        assert close(result.loc[f"q{i}", "ndcg"], theirs)
        assert close(result.loc[f"q{i}", "dcg"], dcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k))


@settings(max_examples=200, deadline=None)
@given(data=samples(grades=st.integers(-2, 4).map(float)), k=st.one_of(st.none(), st.integers(1, 14)))
def test_dcg_score_keeps_negative_grades(data, k):
    # ndcg_score refuses negative grades, dcg_score takes them as they are: negative="keep".
    y_true, y_score = data
    result = evaluate(as_run(y_true, y_score), measure=SKLEARN.with_(k=k, ties="average"))
    for i in range(len(y_true)):
        assert close(result.loc[f"q{i}", "dcg"], dcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k))


@settings(max_examples=300, deadline=None)
@given(data=samples(), k=st.one_of(st.none(), st.integers(1, 14)))
def test_ignore_ties_is_the_dcg_of_sklearns_own_order(data, k):
    y_true, y_score = data
    for i in range(len(y_true)):
        order = np.argsort(y_score[i])[::-1]  # the order sklearn uses with ignore_ties=True
        theirs = ndcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k, ignore_ties=True)
        assert close(ndcg_at(y_true[i][order], SKLEARN.with_(k=k)), theirs)


@settings(max_examples=200, deadline=None)
@given(
    # Distinct as single-precision floats too: trec_eval's tie rule compares scores as float32.
    data=samples(scores=st.floats(-5, 5, allow_nan=False, width=32), distinct=True),
    k=st.one_of(st.none(), st.integers(1, 14)),
    ties=st.sampled_from(["trec", "file", "average"]),
)
def test_without_ties_every_tie_rule_is_sklearns(data, k, ties):
    y_true, y_score = data
    result = evaluate(as_run(y_true, y_score, 1), measure=SKLEARN.with_(k=k, ties=ties))
    for i in range(len(y_true)):
        for ignore_ties in (False, True):
            theirs = ndcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k, ignore_ties=ignore_ties)
            assert close(result.loc[f"q{i}", "ndcg"], theirs)


def test_all_zero_grades_score_zero_like_sklearn():
    y_true, y_score = np.zeros((1, 4)), np.array([[1.0, 2.0, 3.0, 4.0]])
    assert ndcg_score(y_true, y_score) == 0.0
    result = evaluate(as_run(y_true, y_score), measure=SKLEARN.with_(ties="average"))
    assert result.loc["q0", "ndcg"] == 0.0 and bool(result.loc["q0", "undefined"])
