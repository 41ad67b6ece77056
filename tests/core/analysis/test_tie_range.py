"""tie_range: the least and greatest NDCG@k over every order of tied documents, against every
permutation of every tied group (brute force, small lists)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ndcg_gui.core import Measure, ndcg_at
from ndcg_gui.core.analysis.tie_range import list_tie_range, mean_range, tie_range
from ndcg_gui.core.ndcg.metrics import dcg_idcg_at

CONFIGS = st.builds(
    Measure,
    gain=st.sampled_from(["linear", "exponential", {1: 5, 2: 1}]),
    discount=st.sampled_from(["log2", "jarvelin", (0.2, 1.0, 0.5)]),  # a table need not fall
    ideal=st.sampled_from(["judged", "retrieved"]),
    negative=st.sampled_from(["keep", "zero"]),
    judged_only=st.booleans(),
    idcg_zero=st.sampled_from(["zero", "one"]),
    rounding=st.sampled_from([None, 2]),
)


def every_order(scores: np.ndarray):
    """Every ranking by score (high first) with tied documents in every order."""
    levels = sorted(set(scores.tolist()), reverse=True)
    groups = [np.flatnonzero(scores == s).tolist() for s in levels]
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [i for part in parts for i in part]


@settings(max_examples=300, deadline=None)
@given(grades=st.lists(st.one_of(st.none(), st.integers(-1, 3)), min_size=1, max_size=7),
       extra=st.lists(st.integers(0, 3), max_size=3), k=st.one_of(st.none(), st.integers(1, 6)),
       config=CONFIGS, data=st.data())
def test_bounds_are_the_least_and_greatest_over_every_order(grades, extra, k, config, data):
    grades = np.array([np.nan if g is None else g for g in grades], float)
    scores = np.array(data.draw(st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=len(grades),
                                         max_size=len(grades))))
    pool = np.concatenate([grades[~np.isnan(grades)], extra])
    figures = []
    for order in every_order(scores):
        listed = grades[order] if config.judged_only else np.nan_to_num(grades[order])
        idcg = dcg_idcg_at(listed, config.with_(k=k), pool)[1] if len(pool) else 0.0
        assume(config.negative == "zero" or not 0 < abs(idcg) < 1e-9)  # cancellation noise
        figures.append(ndcg_at(listed, config.with_(k=k), judged=pool if len(pool) else None))
    if not len(pool):
        return  # no judgment: the query is not scored
    least, greatest = list_tie_range(grades, scores, config.with_(k=k), judged=pool)
    assert math.isclose(least, min(figures), abs_tol=1e-9)
    assert math.isclose(greatest, max(figures), abs_tol=1e-9)


def test_worked_example_E5c_and_the_mean():
    # E5c: grades 3 2 1 0 0, scores 3 2 0 0 1: the tied pair at ranks 4-5.
    least, greatest = list_tie_range([3, 2, 1, 0, 0], [3, 2, 0, 0, 1], Measure(ideal="retrieved", k=5))
    assert round(greatest, 4) == 0.9854 and least < 0.9808 < greatest  # sklearn's average between
    run = pd.DataFrame({"query": ["a"] * 3 + ["b"] * 2, "doc": list("xyzuv"), "score": [1, 1, 0, 2, 1],
                        "grade": [0, 2, 1, 1, 0]})
    table = tie_range(run, None, Measure(k=1))
    assert table.loc["a", "tied_at_k"] and not table.loc["b", "tied_at_k"]
    assert table.loc["a", "least"] == 0 and table.loc["a", "greatest"] == 1
    assert table.loc["b", "least"] == table.loc["b", "greatest"] == table.loc["b", "ndcg"] == 1
    assert mean_range(table) == (0.5, 1.0)
    assert (table["least"] <= table["ndcg"]).all() and (table["ndcg"] <= table["greatest"]).all()


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 60), k=st.one_of(st.none(), st.integers(1, 20)), config=CONFIGS, data=st.data())
def test_one_list_is_bounded_as_its_run_is(n, k, config, data):
    """`list_tie_range` ranks one list without tables: the bounds `tie_range` gives the same list
    as a run of one query (its docs in an order of their own, scores with float32 ties)."""
    grades = np.array(data.draw(st.lists(st.one_of(st.none(), st.integers(-1, 3)), min_size=n, max_size=n)),
                      dtype=float)
    grades[np.array([g is None for g in grades])] = np.nan
    base = data.draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 1.0 + 1e-9, 3.25]), min_size=n, max_size=n))
    scores = np.array(base, dtype=float)
    known = ~np.isnan(grades)
    extra = np.array(data.draw(st.lists(st.integers(0, 3), max_size=4)), dtype=float)
    pool = np.concatenate([grades[known], extra])
    assume(len(pool))
    docs = [f"doc{i:03d}" for i in data.draw(st.permutations(range(n)))]
    run = pd.DataFrame({"query": "q", "doc": docs, "score": scores})
    qrels = pd.DataFrame({"query": "q", "doc": [d for d, j in zip(docs, known, strict=True) if j]
                          + [f"x{i}" for i in range(len(extra))], "grade": pool})
    table = tie_range(run, qrels, config.with_(k=k))
    least, greatest = list_tie_range(grades, scores, config.with_(k=k), judged=pool)
    assert math.isclose(least, table["least"].iloc[0], abs_tol=1e-12)
    assert math.isclose(greatest, table["greatest"].iloc[0], abs_tol=1e-12)
