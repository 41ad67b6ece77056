"""Properties that hold for every input: the ideal order scores 1, NDCG stays in [0, 1] for
non-negative grades, DCG never falls with rank for non-negative gains, per_rank agrees with ndcg_at,
row order of a run does not matter, and bad arguments are refused with a clear ValueError."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core import Measure, dcg_idcg_at, evaluate, gains, mean_ndcg, ndcg_at, per_rank
from ndcg_gui.core.ndcg.metrics import undefined_ranks
from ndcg_gui.core.ndcg.presets import preset

NON_NEGATIVE = st.one_of(
    st.integers(0, 5).map(float), st.floats(0, 5, allow_nan=False).map(lambda x: round(x, 3))
)
ANY_GRADE = st.one_of(
    st.integers(-3, 5).map(float), st.floats(-3, 5, allow_nan=False).map(lambda x: round(x, 3))
)


@st.composite
def configs(draw, non_negative_gains=False):
    table = st.dictionaries(
        st.integers(-3, 5).map(float),
        st.floats(0 if non_negative_gains else -5, 20, allow_nan=False),
        max_size=4,
    )
    return Measure(
        gain=draw(st.one_of(st.sampled_from(["linear", "exponential"]), table)),
        discount=draw(st.sampled_from(["log2", "jarvelin"])),
        base=draw(st.sampled_from([2, 2.5, 3, 1.5])),
        ideal=draw(st.sampled_from(["judged", "retrieved"])),
        negative=draw(st.sampled_from(["keep", "zero"])),
    )


@settings(max_examples=300, deadline=None)
@given(grades=st.lists(ANY_GRADE, min_size=1, max_size=30), config=configs(), k=st.integers(1, 40))
def test_the_ideal_order_scores_one(grades, config, k):
    g = gains(np.array(grades), config)
    ideal = [grades[i] for i in np.argsort(-g, kind="stable")]
    table = per_rank(ideal, config)
    defined = table["idcg"] != 0
    np.testing.assert_allclose(table.loc[defined, "ndcg"], 1.0, rtol=1e-12)
    assert (table.loc[~defined, "ndcg"] == 0).all()
    _, idcg = dcg_idcg_at(ideal, config.with_(k=k))
    assert ndcg_at(ideal, config.with_(k=k)) == pytest.approx(1.0 if idcg != 0 else 0.0, rel=1e-12)


@settings(max_examples=300, deadline=None)
@given(
    grades=st.lists(NON_NEGATIVE, min_size=1, max_size=30),
    extra=st.lists(NON_NEGATIVE, max_size=6),
    config=configs(non_negative_gains=True),
)
def test_ndcg_in_unit_interval_and_dcg_never_falls(grades, extra, config):
    table = per_rank(grades, config, judged=grades + extra)
    assert ((table["ndcg"] >= 0) & (table["ndcg"] <= 1 + 1e-12)).all()
    assert (np.diff(table["dcg"]) >= 0).all()
    assert (np.diff(table["cg"]) >= 0).all()
    assert (np.diff(table["idcg"]) >= 0).all()


@settings(max_examples=300, deadline=None)
@given(
    grades=st.lists(ANY_GRADE, min_size=1, max_size=30),
    extra=st.one_of(st.none(), st.lists(ANY_GRADE, max_size=6)),
    config=configs(),
    data=st.data(),
)
def test_per_rank_row_k_is_ndcg_at_k(grades, extra, config, data):
    judged = None if extra is None else grades + extra
    k = data.draw(st.integers(1, len(grades)))
    table = per_rank(grades, config, judged)
    assert table["ndcg"].iloc[k - 1] == pytest.approx(
        ndcg_at(grades, config.with_(k=k), judged), rel=1e-12, abs=1e-12
    )
    dcg, idcg = dcg_idcg_at(grades, config.with_(k=k), judged)
    assert table["dcg"].iloc[k - 1] == pytest.approx(dcg, rel=1e-12, abs=1e-12)
    assert table["idcg"].iloc[k - 1] == pytest.approx(idcg, rel=1e-12, abs=1e-12)


@st.composite
def graded_runs(draw):
    """A run with grades and scores (ties likely), several queries, rows grouped by query."""
    rows = []
    for q in range(draw(st.integers(1, 5))):
        n = draw(st.integers(0 if q else 1, 15))
        for i in range(n):
            grade = draw(st.one_of(st.just(float("nan")), NON_NEGATIVE))
            rows.append((f"q{q}", f"d{i}", grade, draw(st.sampled_from([0.0, 1.0, 2.0, 2.5]))))
    return pd.DataFrame(rows, columns=["query", "doc", "grade", "score"])


@settings(max_examples=200, deadline=None)
@given(
    run=graded_runs(),
    k=st.one_of(st.none(), st.integers(1, 20)),
    ties=st.sampled_from(["trec", "file", "average"]),
    seed=st.integers(0, 10),
)
def test_row_order_of_the_run_does_not_matter(run, k, ties, seed):
    # Shuffled rows, and the same rows sorted by query and score (stable, so the shuffled file
    # order of tied rows is kept for ties="file"), score the same.
    shuffled = run.sample(frac=1.0, random_state=seed)
    ordered = shuffled.sort_values(["query", "score"], ascending=[True, False], kind="stable")
    a = evaluate(shuffled, measure=Measure(k=k, ties=ties))
    b = evaluate(ordered, measure=Measure(k=k, ties=ties))
    pd.testing.assert_frame_equal(a, b, rtol=1e-12)


@settings(max_examples=200, deadline=None)
@given(run=graded_runs(), k=st.one_of(st.none(), st.integers(1, 20)), config=configs())
def test_evaluate_in_file_order_is_ndcg_at_of_each_list(run, k, config):
    result = evaluate(run.drop(columns="score"), measure=config.with_(k=k))
    for query, rows in run.groupby("query"):
        grades = rows["grade"].to_numpy()
        judged = ~np.isnan(grades)
        # Unjudged documents score 0 and sit in the ideal as gain 0.
        own = gains(np.where(judged, grades, 0.0), config) * judged
        expected = ndcg_at(own, Measure(discount=config.discount, base=config.base, ideal="retrieved", k=k))
        assert result.loc[query, "ndcg"] == pytest.approx(expected, rel=1e-9, abs=1e-12)
        n = len(rows) if k is None else min(k, len(rows))
        assert result.loc[query, "n_retrieved"] == len(rows)
        assert result.loc[query, "n_judged"] + result.loc[query, "n_unjudged"] == n
        assert result.loc[query, "n_judged"] == judged[:n].sum()


def test_idcg_zero_gives_zero_and_says_undefined():
    run = pd.DataFrame(
        {"query": ["a", "a", "b"], "doc": ["x", "y", "z"], "grade": [0, 0, 1], "score": [2, 1, 1]}
    )
    result = evaluate(run, measure=Measure(k=5))
    assert result.loc["a", "ndcg"] == 0.0 and bool(result.loc["a", "undefined"])
    assert result.loc["b", "ndcg"] == 1.0 and not result.loc["b", "undefined"]
    assert mean_ndcg(result) == 0.5 and mean_ndcg(result, Measure(undefined="skip")) == 1.0
    table = per_rank([0, 0, 1])
    assert undefined_ranks(table).tolist() == [False, False, False]
    assert undefined_ranks(per_rank([0, 0], judged=[0])).tolist() == [True, True]
    assert per_rank([0, 0], judged=[0])["ndcg"].tolist() == [0.0, 0.0]


def test_query_without_judgments_is_left_out_and_empty_query_kept_or_skipped():
    run = pd.DataFrame({"query": ["a", "n"], "doc": ["x", "y"], "score": [1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["a", "e"], "doc": ["x", "w"], "grade": [1, 1]})
    assert list(evaluate(run, qrels, Measure(k=3)).index) == ["a", "e"]
    assert list(evaluate(run, qrels, Measure(k=3, empty="skip")).index) == ["a"]


# --- bad arguments --------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [[1, float("nan")], [float("inf")], [1, -float("inf")], ["x"], [[1, 2]]])
def test_bad_grades_are_refused(bad):
    with pytest.raises(ValueError, match="grades must be"):
        per_rank(bad)
    with pytest.raises(ValueError, match="grades must be"):
        ndcg_at(bad, Measure(k=3))


def test_bad_judged_pool_is_refused():
    with pytest.raises(ValueError, match="judged grades must be finite"):
        ndcg_at([1, 2], Measure(k=2), judged=[1, float("nan")])


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_bad_k_is_refused(k):
    with pytest.raises(ValueError, match="k must be a whole number"):
        ndcg_at([1, 2], Measure(k=k))
    with pytest.raises(ValueError, match="k must be a whole number"):
        evaluate(pd.DataFrame({"query": ["a"], "doc": ["x"], "grade": [1]}), measure=Measure(k=k))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("gain", "quadratic", "gain must be"),
        ("discount", "log10", "discount must be"),
        ("ideal", "best", "ideal must be"),
        ("negative", "drop", "negative must be"),
        ("base", 1, "base must be a number greater than 1"),
        ("base", 0.5, "base must be a number greater than 1"),
        ("base", float("nan"), "base must be a number greater than 1"),
        ("base", "two", "base must be a number greater than 1"),
        ("gain", {1: float("inf")}, "not a pair of finite numbers"),
    ],
)
def test_bad_config_is_refused(field, value, message):
    with pytest.raises(ValueError, match=message):
        Measure(**{field: value})


def test_bad_evaluate_arguments_are_refused():
    run = pd.DataFrame({"query": ["a"], "doc": ["x"], "score": [1.0]})
    qrels = pd.DataFrame({"query": ["a"], "doc": ["x"], "grade": [1]})
    with pytest.raises(ValueError, match="ties must be 'trec' or 'file' or 'average'"):
        evaluate(run, qrels, Measure(ties="random"))
    with pytest.raises(ValueError, match="empty must be 'zero' or 'skip'"):
        evaluate(run, qrels, Measure(empty="drop"))
    with pytest.raises(ValueError, match="run needs columns query, doc, grade; missing grade"):
        evaluate(run)
    with pytest.raises(ValueError, match=r"qrels needs columns .* missing grade"):
        evaluate(run, qrels.drop(columns="grade"))
    with pytest.raises(ValueError, match="qrels grade must be finite numbers; row 1"):
        evaluate(run, qrels.assign(grade=[float("nan")]))
    with pytest.raises(ValueError, match="run score must be finite numbers; row 1"):
        evaluate(run.assign(score=["high"]), qrels)
    with pytest.raises(ValueError, match="run grade must be numbers"):
        evaluate(run.assign(grade=["high"]))
    with pytest.raises(ValueError, match="run grade has infinite values"):
        evaluate(run.assign(grade=[math.inf]))
    with pytest.raises(ValueError, match="run query has empty values"):
        evaluate(run.assign(query=[None]), qrels)
    with pytest.raises(ValueError, match="undefined must be 'zero' or 'skip'"):
        mean_ndcg(evaluate(run, qrels), Measure(undefined="nan"))


def test_numeric_ids_match_their_text_and_empty_inputs_give_empty_results():
    trec = preset("trec_eval")
    run = pd.DataFrame({"query": [1, 1, 2], "doc": [10, 11, 12], "score": [2.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"query": ["1", "2"], "doc": ["11", "12"], "grade": [1, 2]})
    as_text = run.astype({"query": str, "doc": str})
    pd.testing.assert_frame_equal(
        evaluate(run, qrels, trec.with_(k=2)), evaluate(as_text, qrels, trec.with_(k=2))
    )
    assert evaluate(run, qrels, trec.with_(k=2)).loc["1", "ndcg"] == pytest.approx(1 / math.log2(3))
    empty = evaluate(run.iloc[:0], qrels, trec.with_(k=2))
    assert (
        list(empty.index) == ["1", "2"] and (empty["ndcg"] == 0).all() and (empty["n_retrieved"] == 0).all()
    )
    assert evaluate(run, qrels.iloc[:0], trec.with_(k=2)).empty
    assert evaluate(run.iloc[:0].assign(grade=[]), measure=Measure(k=2)).empty
