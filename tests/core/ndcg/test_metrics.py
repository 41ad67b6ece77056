"""per_rank, ndcg_at, dcg_idcg_at and evaluate against a slow, obviously correct reference.

The reference is a plain loop over ranks written from the definitions: gain (linear, 2^g - 1, or a
grade -> gain table), discount (1/log2(i+1), or Järvelin-Kekäläinen: 1 below rank b, 1/log_b(i)
from b on, for any base b > 1), ideal from the judged pool or from the list, negative grades kept
or counted as 0. No reference library implements the Järvelin-Kekäläinen form, so this is its check.
"""

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_gui.core import Measure, dcg_idcg_at, evaluate, ndcg_at, per_rank

# --- the reference -------------------------------------------------------------------------------


def ref_gain(grade: float, config: Measure) -> float:
    if config.negative == "zero" and grade < 0:
        return 0.0
    if isinstance(config.gain, Mapping):
        return float(config.gain[grade]) if grade in config.gain else grade
    if config.gain == "exponential":
        return 2.0**grade - 1.0
    return grade


def ref_discount(rank: int, config: Measure) -> float:
    if config.discount == "log2":
        return 1.0 / math.log2(rank + 1)
    if rank < config.base:
        return 1.0
    return 1.0 / math.log(rank, config.base)


def reference(grades, k, config, judged=None) -> tuple[float, float, float]:
    """(DCG@k, IDCG@k, NDCG@k), one rank at a time."""
    dcg = 0.0
    for rank, grade in enumerate(grades, start=1):
        if k is None or rank <= k:
            dcg += ref_gain(grade, config) * ref_discount(rank, config)
    pool = judged if judged is not None and config.ideal == "judged" else grades
    ideal = sorted((ref_gain(g, config) for g in pool), reverse=True)
    idcg = 0.0
    for rank, gain in enumerate(ideal, start=1):
        if k is None or rank <= k:
            idcg += gain * ref_discount(rank, config)
    return dcg, idcg, (dcg / idcg if idcg != 0 else 0.0)


# --- strategies -----------------------------------------------------------------------------------

GRADE = st.one_of(st.integers(-2, 5).map(float), st.floats(-1, 4, allow_nan=False).map(lambda x: round(x, 2)))
TABLE = st.dictionaries(st.integers(-2, 5).map(float), st.floats(-3, 20, allow_nan=False), max_size=5)


@st.composite
def configs(draw):
    return Measure(
        gain=draw(st.one_of(st.sampled_from(["linear", "exponential"]), TABLE)),
        discount=draw(st.sampled_from(["log2", "jarvelin"])),
        base=draw(st.sampled_from([2, 2.5, 3, 1.5, 10, math.e])),
        ideal=draw(st.sampled_from(["judged", "retrieved"])),
        negative=draw(st.sampled_from(["keep", "zero"])),
    )


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# --- tests ----------------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(
    grades=st.lists(GRADE, min_size=0, max_size=20),
    extra=st.one_of(st.none(), st.lists(GRADE, max_size=8)),
    config=configs(),
    k=st.one_of(st.none(), st.integers(1, 30)),
)
def test_ndcg_at_and_dcg_idcg_at_equal_the_reference(grades, extra, config, k):
    judged = None if extra is None else grades + extra
    dcg, idcg, ndcg = reference(grades, k, config, judged)
    ours_dcg, ours_idcg = dcg_idcg_at(grades, config.with_(k=k), judged)
    assert close(ours_dcg, dcg) and close(ours_idcg, idcg)
    assert close(ndcg_at(grades, config.with_(k=k), judged), ndcg)


@settings(max_examples=300, deadline=None)
@given(
    grades=st.lists(GRADE, min_size=1, max_size=20),
    extra=st.one_of(st.none(), st.lists(GRADE, max_size=8)),
    config=configs(),
)
def test_per_rank_equals_the_reference_at_every_rank(grades, extra, config):
    judged = None if extra is None else grades + extra
    table = per_rank(grades, config, judged)
    assert list(table["rank"]) == list(range(1, len(grades) + 1))
    cg = 0.0
    for i, row in enumerate(table.itertuples(), start=1):
        dcg, idcg, ndcg = reference(grades, i, config, judged)
        cg += ref_gain(grades[i - 1], config)
        assert row.grade == grades[i - 1]
        assert close(row.gain, ref_gain(grades[i - 1], config))
        assert close(row.discount, ref_discount(i, config))
        assert close(row.cg, cg) and close(row.dcg, dcg) and close(row.idcg, idcg) and close(row.ndcg, ndcg)


@settings(max_examples=150, deadline=None)
@given(
    lists=st.lists(
        st.tuples(st.lists(GRADE, min_size=1, max_size=12), st.lists(GRADE, max_size=5)),
        min_size=1,
        max_size=4,
    ),
    unjudged=st.lists(st.booleans(), min_size=12, max_size=12),
    config=configs(),
    k=st.one_of(st.none(), st.integers(1, 15)),
)
def test_evaluate_equals_the_reference_query_by_query(lists, unjudged, config, k):
    # Each query: a ranked list (some documents unjudged: gain 0 whatever the gain table says of
    # grade 0) and judged documents the list did not retrieve.
    run_rows, qrels_rows, expected = [], [], {}
    for q, (grades, missed) in enumerate(lists):
        query = f"q{q}"
        in_list = [(g, not unjudged[i]) for i, g in enumerate(grades)]
        for i, (g, is_judged) in enumerate(in_list):
            run_rows.append((query, f"d{i}", float(len(grades) - i)))
            if is_judged:
                qrels_rows.append((query, f"d{i}", g))
        qrels_rows += [(query, f"x{j}", g) for j, g in enumerate(missed)]
        pool = [g for g, is_judged in in_list if is_judged] + list(missed)
        if pool:  # a query without any judgment is left out
            # Unjudged documents add nothing: as grade-0 docs they would get a table's gain for 0.
            dcg = sum(
                ref_gain(g, config) * ref_discount(i, config)
                for i, (g, j) in enumerate(in_list, start=1)
                if j and (k is None or i <= k)
            )
            own = [g if j else None for g, j in in_list]
            ideal_pool = pool if config.ideal == "judged" else [g for g in own if g is not None]
            _, idcg, _ = reference([], k, config.with_(ideal="judged"), ideal_pool)
            if config.ideal == "retrieved":
                # Unjudged retrieved docs are gain-0 members of the list's own ideal.
                gains = sorted(
                    [ref_gain(g, config) for g in ideal_pool] + [0.0] * own.count(None), reverse=True
                )
                idcg = sum(
                    v * ref_discount(i, config) for i, v in enumerate(gains, start=1) if k is None or i <= k
                )
            expected[query] = (dcg, idcg)
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "grade"])
    result = evaluate(run, qrels, config.with_(k=k, ties="trec"))
    assert sorted(result.index) == sorted(expected)
    for query, (dcg, idcg) in expected.items():
        assert close(result.loc[query, "dcg"], dcg) and close(result.loc[query, "idcg"], idcg)
        assert close(result.loc[query, "ndcg"], dcg / idcg if idcg != 0 else 0.0)


def test_jarvelin_discount_by_hand():
    # Base 2: ranks 1 and 2 undiscounted, then 1/log2(i). Base 2.5: ranks 1 and 2 undiscounted,
    # rank 3 gets 1/log_2.5(3). Base 3: ranks 1, 2 undiscounted, rank 3 gets 1/log_3(3) = 1.
    def disc(base):
        return per_rank([1, 1, 1, 1], Measure(discount="jarvelin", base=base))["discount"].tolist()

    np.testing.assert_allclose(disc(2), [1.0, 1.0, 1 / math.log2(3), 0.5])
    np.testing.assert_allclose(
        disc(2.5), [1.0, 1.0, math.log(2.5) / math.log(3), math.log(2.5) / math.log(4)]
    )
    np.testing.assert_allclose(disc(3), [1.0, 1.0, 1.0, math.log(3) / math.log(4)])


def test_gain_table_keeps_unlisted_grades_and_exponential_gain():
    table = per_rank([1, 2, 3], Measure(gain={1: 3, 2: 9}))
    assert table["gain"].tolist() == [3.0, 9.0, 3.0]
    assert per_rank([0, 1, 3], Measure(gain="exponential"))["gain"].tolist() == [0.0, 1.0, 7.0]


def test_negative_grades_kept_or_zeroed():
    keep = per_rank([-1, 2], Measure(negative="keep"))
    zero = per_rank([-1, 2], Measure(negative="zero"))
    assert keep["gain"].tolist() == [-1.0, 2.0] and zero["gain"].tolist() == [0.0, 2.0]
    # With negatives kept, NDCG may leave [0, 1]: here it is negative at rank 1.
    assert keep["ndcg"].iloc[0] < 0
    assert zero["ndcg"].iloc[0] == 0.0


def test_ideal_grade_column_is_nan_past_a_shorter_pool():
    table = per_rank([0, 2, 1], Measure(ideal="judged"), judged=[2])
    assert table["ideal_grade"].iloc[0] == 2 and table["ideal_grade"].iloc[1:].isna().all()


def test_k_longer_than_the_list_keeps_the_ideal_cut_at_k():
    # trec_eval's ndcg_cut_K: the list is all scored, the judged pool is cut at K.
    grades, judged = [1], [1, 1, 1]
    assert close(ndcg_at(grades, Measure(k=2), judged=judged), 1 / (1 + 1 / math.log2(3)))
    assert close(ndcg_at(grades, Measure(), judged=judged), 1 / (1 + 1 / math.log2(3) + 0.5))


def test_evaluate_with_scores_a_subnormal_apart():
    """Shuffled rows whose scores differ by less than the smallest normal float (once a crash)."""
    from ndcg_gui.core import evaluate

    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [0.0, 2.2e-311],
                        "grade": [1.0, 2.0]})
    result = evaluate(run, measure=Measure(k=1, ties="trec"))
    assert result.loc["q", "ndcg"] == 1.0  # b (the higher score, grade 2) is first
